"""Play two computer levels against each other and report how the first one did.

    sos-tui arena hard medium --size 8 --mode general --games 200 --seed 1
    python -m sos_tui.ai.arena hard medium --size 8 --games 200

Games alternate who starts and run in parallel processes (``--jobs``). The report gives A's wins,
draws and losses, A's score rate (win 1, draw 1/2) with a 95% Wilson interval, and the median and
longest thinking time per move of each side.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from sos_tui.engine.rules import MAX_SIZE, MIN_SIZE, GameState, Mode

from .players import LEVELS, ComputerPlayer


class _ArgumentError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise _ArgumentError(message)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="sos-tui arena", description="Pit two computer levels against each other.")
    parser.add_argument("level_a", metavar="LEVEL_A", choices=LEVELS, help=" | ".join(LEVELS))
    parser.add_argument("level_b", metavar="LEVEL_B", choices=LEVELS, help=" | ".join(LEVELS))
    parser.add_argument("--size", type=int, default=6, help="board size, 3..26 (default 6)")
    parser.add_argument("--mode", choices=[m.value for m in Mode], default="general")
    parser.add_argument("--games", type=int, default=20, help="games to play (default 20)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    parser.add_argument("--time-limit", type=float, default=None,
                        help="seconds per move; default: fixed, clock-free search budgets")
    parser.add_argument("--jobs", type=int, default=2, help="games played at once (default 2)")
    return parser


def play_game(level_a: str, level_b: str, size: int, mode: str, seed: int, a_first: bool,
              time_limit: float | None) -> tuple[float, list[float], list[float]]:
    """One game; returns A's result (1, 1/2 or 0) and each side's seconds per move."""
    a = ComputerPlayer(level_a, seed * 2, time_limit)
    b = ComputerPlayer(level_b, seed * 2 + 1, time_limit)
    seats = (a, b) if a_first else (b, a)
    times: dict[int, list[float]] = {id(a): [], id(b): []}
    state = GameState.new(size, mode, 2)
    while not state.is_over:
        player = seats[state.to_move]
        start = time.perf_counter()
        move = player.choose_move(state)
        times[id(player)].append(time.perf_counter() - start)
        state = state.play(move)
    a_seat = 0 if a_first else 1
    result = 0.5 if state.is_draw else (1.0 if state.winners == (a_seat,) else 0.0)
    return result, times[id(a)], times[id(b)]


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a rate (draws count as half a success)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _progress(done: int, total: int, width: int = 30):
    filled = width * done // total
    print(f"\r[{'#' * filled}{' ' * (width - filled)}] {done}/{total}", end="", file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    try:
        args = _parser().parse_args(argv)
        if not MIN_SIZE <= args.size <= MAX_SIZE:
            raise _ArgumentError(f"--size must be from {MIN_SIZE} to {MAX_SIZE}, not {args.size}")
        if args.games < 1 or args.jobs < 1:
            raise _ArgumentError("--games and --jobs must be at least 1")
        if args.time_limit is not None and not args.time_limit > 0:
            raise _ArgumentError("--time-limit must be a positive number of seconds")
    except _ArgumentError as error:
        print(f"sos-tui arena: error: {error}", file=sys.stderr)
        return 2
    jobs = [(args.level_a, args.level_b, args.size, args.mode, args.seed + g, g % 2 == 0, args.time_limit)
            for g in range(args.games)]
    results, times_a, times_b = [], [], []
    _progress(0, len(jobs))
    if args.jobs == 1:
        outcomes = (play_game(*job) for job in jobs)
        pool = None
    else:
        pool = ProcessPoolExecutor(args.jobs)
        outcomes = pool.map(play_game, *zip(*jobs, strict=True))
    try:
        for result, ta, tb in outcomes:
            results.append(result)
            times_a += ta
            times_b += tb
            _progress(len(results), len(jobs))
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    print(file=sys.stderr)
    wins, draws = results.count(1.0), results.count(0.5)
    losses = len(results) - wins - draws
    rate = (wins + draws / 2) / len(results)
    low, high = wilson(wins + draws / 2, len(results))
    print(f"{args.level_a} vs {args.level_b}: {args.size}x{args.size} {args.mode}, {len(results)} games, "
          f"seed {args.seed}, time limit {args.time_limit if args.time_limit else 'none (fixed budgets)'}")
    print(f"{args.level_a}: {wins} wins, {draws} draws, {losses} losses")
    print(f"{args.level_a} score rate: {rate:.1%} (95% CI {low:.1%} to {high:.1%})")
    for level, times in ((f"{args.level_a} (A)", times_a), (f"{args.level_b} (B)", times_b)):
        print(f"{level} seconds per move: median {statistics.median(times):.3f}, max {max(times):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
