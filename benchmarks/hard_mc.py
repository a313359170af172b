"""Hard's safe-move game search in simple mode: its alpha-beta against expert's Monte Carlo tree
search given hard's time (issue 47, item 5; the figure is in docs/ai-results.md).

    .venv/bin/python benchmarks/hard_mc.py [--games 200] [--size 6] [--seed 1] [--jobs 2]
                                           [--time-limit 2] [--record FILE]

A variant is hard with one change, its ``safe_game``: ``hard-mc`` has expert's,
``SafeGame(max_nodes=500_000, monte_carlo=True)``, cut like every hard search to hard's most
seconds a move (0.5 s of the app's 2); ``hard-mc60k`` has ``SafeGame(max_nodes=60_000,
monte_carlo=True)``, the node budget of hard's alpha-beta. The variant plays ``hard`` in simple
mode, alternating who starts; the score rate counts a win 1 and a draw 1/2. With ``--record FILE``
each game is appended as it ends and a later run plays only the games not yet there.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from dataclasses import replace
from pathlib import Path

from sos_tui.ai.arena import GameResult, Match, Tally, run
from sos_tui.ai.levels import LEVELS, SafeGame

# At the top of the module, so that the arena's worker processes (spawned: they import this
# module again) know the levels too.
VARIANTS = {
    "hard-mc": SafeGame(max_nodes=500_000, monte_carlo=True),  # expert's, cut by hard's time
    "hard-mc60k": SafeGame(max_nodes=60_000, monte_carlo=True),  # alpha-beta hard's node budget
}
for _name, _safe_game in VARIANTS.items():
    LEVELS[_name] = replace(LEVELS["hard"], name=_name, safe_game=_safe_game)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--size", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--time-limit", type=float, default=2.0)
    parser.add_argument("--record", type=Path, default=None)
    parser.add_argument("--variant", choices=VARIANTS, default="hard-mc")
    args = parser.parse_args(argv)
    match = Match(args.variant, "hard", args.size, "simple", games=args.games, seed=args.seed,
                  time_limit=args.time_limit)
    done = ([GameResult(**json.loads(line)) for line in args.record.read_text().splitlines()]
            if args.record and args.record.exists() else [])
    tally = Tally(match)
    for game in done:
        tally.add(game)
    missing = sorted(set(range(args.games)) - {game.number for game in done})
    for game in run(match, args.jobs, missing) if missing else ():
        tally.add(game)
        if args.record:
            with args.record.open("a") as out:
                out.write(json.dumps(game._asdict()) + "\n")
        played = tally.wins + tally.draws + tally.losses
        if played % 10 == 0:
            print(f"{played} games: {summary(tally)}", flush=True)
    print(f"{args.variant} against hard, {args.size}x{args.size} simple, {args.games} games, seed "
          f"{args.seed}, time limit {args.time_limit} s: {summary(tally)}")
    print(f"CPU s a move, median / max: {args.variant} {statistics.median(tally.a_seconds):.3f} / "
          f"{max(tally.a_seconds):.3f}, hard {statistics.median(tally.b_seconds):.3f} / "
          f"{max(tally.b_seconds):.3f}")
    return 0


def summary(tally: Tally) -> str:
    low, high = tally.interval()
    return (f"W/D/L {tally.wins}/{tally.draws}/{tally.losses}, score {tally.rate:.1%} "
            f"(95% {low:.1%}-{high:.1%})")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
