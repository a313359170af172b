"""Benchmark: rebuilding the ratings from a history of 10,000 games (target: under 2 s).

    .venv/bin/python benchmarks/ratings.py [--games 10000] [--rounds 3]

Makes a history in a temporary folder and fills it with seeded games straight through SQL (the
columns the ratings read: 2 to 6 seats of 20 people and the four levels, both modes, scores and
winners), then times ``History.ratings(rebuild=True)`` (every game read, rated in order, the cache
written) and ``History.ratings()`` with the cache up to date, the best of ``--rounds`` each.
Each time is also given in yardsticks (``yardstick.py``, timed in the same run); the exit status
is 1 when the rebuild takes more than 200 of them (2 s where the yardstick takes 10 ms).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from yardstick import Yardstick

from sos_tui.storage import History

TARGET_SECONDS = 2.0
TARGET_YARDSTICKS = (
    200  # 2 s where the yardstick takes its quiet-machine 10 ms: the figure that survives load
)
PEOPLE = [f"Player {n}" for n in range(20)]
LEVELS = ("easy", "medium", "hard", "expert")
START = datetime(2026, 1, 1, tzinfo=UTC)


def _seat(rng: random.Random, taken: set[str]) -> dict:
    while True:
        if rng.random() < 0.4:
            level = rng.choice(LEVELS)
            seat, key = {"name": f"Computer {len(taken)}", "kind": "computer", "level": level}, level
        else:
            name = rng.choice(PEOPLE)
            seat, key = {"name": name, "kind": "human"}, name
        if key not in taken:
            taken.add(key)
            return seat


def fill(history: History, games: int, seed: int = 1) -> None:
    """``games`` seeded games, a minute apart, in one transaction."""
    rng = random.Random(seed)
    rows = []
    for number in range(games):
        count = rng.choice((2, 2, 2, 2, 3, 4, 6))
        taken: set[str] = set()
        seats = [_seat(rng, taken) for _ in range(count)]
        scores = [rng.randint(0, 12) for _ in seats]
        winners = [i for i, s in enumerate(scores) if s == max(scores)]
        when = (START + timedelta(minutes=number)).isoformat()
        rows.append(
            (
                when,
                6,
                rng.choice(("general", "simple")),
                json.dumps(seats),
                "{}",
                json.dumps(scores),
                json.dumps(winners),
                "",
                f"bench-{number}",
            )
        )
    conn = history._conn  # a benchmark's shortcut: the games need no records to be rated
    conn.execute("BEGIN")
    conn.executemany(
        "INSERT INTO games (finished_at, size, mode, players, record, scores, winners, result, "
        "game_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
    conn.execute("COMMIT")


def best_of(rounds: int, work) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    stick = Yardstick()
    with tempfile.TemporaryDirectory() as folder, History(Path(folder) / "history.db") as history:
        fill(history, args.games)
        rebuild = best_of(args.rounds, lambda: history.ratings(rebuild=True))
        cached = best_of(args.rounds, history.ratings)
        players = len(history.ratings())
    stick.again()
    print(stick)
    print(f"{args.games:,} games, {players} players (per mode)")
    print(
        f"rebuild from the first game: {stick.describe(rebuild)} "
        f"(target: under {TARGET_SECONDS} s on a quiet machine, {TARGET_YARDSTICKS} yardsticks)"
    )
    print(f"with the cache up to date:   {stick.describe(cached)}")
    return 0 if stick.ratio(rebuild) < TARGET_YARDSTICKS else 1


if __name__ == "__main__":
    sys.exit(main())
