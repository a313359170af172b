"""Hard's search of the simple-mode safe-move game: the Monte Carlo tree search against the
full-width alpha-beta it replaced (issue 47, item 5; the figures are in docs/ai-results.md).

    .venv/bin/python benchmarks/hard_mc.py [--variant hard|hard-mc] [--games 200] [--size 6]
                                           [--seed 1] [--jobs 2] [--time-limit 2] [--record FILE]

``hard-ab`` is hard as it was: its ``safe_game`` a full-width alpha-beta,
``SafeGame(max_nodes=60_000, max_depth=40)``. It plays, in simple mode, alternating who starts,
``hard`` (today's: ``SafeGame(max_nodes=60_000, monte_carlo=True)``, the same node budget) or
``hard-mc`` (hard with expert's ``SafeGame(max_nodes=500_000, monte_carlo=True)``, cut like
every hard search to hard's most seconds a move: 0.5 s of the app's 2). The score rate is the
variant's, a win counting 1 and a draw 1/2. With ``--record FILE`` each game is appended as it
ends and a later run plays only the games not yet there.
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
VARIANTS = ("hard", "hard-mc")
LEVELS["hard-ab"] = replace(LEVELS["hard"], name="hard-ab",
                            safe_game=SafeGame(max_nodes=60_000, max_depth=40))
LEVELS["hard-mc"] = replace(LEVELS["hard"], name="hard-mc",
                            safe_game=SafeGame(max_nodes=500_000, monte_carlo=True))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--size", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--time-limit", type=float, default=2.0)
    parser.add_argument("--record", type=Path, default=None)
    parser.add_argument("--variant", choices=VARIANTS, default="hard")
    args = parser.parse_args(argv)
    match = Match(args.variant, "hard-ab", args.size, "simple", games=args.games, seed=args.seed,
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
    print(f"{args.variant} against hard-ab, {args.size}x{args.size} simple, {args.games} games, seed "
          f"{args.seed}, time limit {args.time_limit} s: {summary(tally)}")
    print(f"CPU s a move, median / max: {args.variant} {statistics.median(tally.a_seconds):.3f} / "
          f"{max(tally.a_seconds):.3f}, hard-ab {statistics.median(tally.b_seconds):.3f} / "
          f"{max(tally.b_seconds):.3f}")
    return 0


def summary(tally: Tally) -> str:
    low, high = tally.interval()
    return (f"W/D/L {tally.wins}/{tally.draws}/{tally.losses}, score {tally.rate:.1%} "
            f"(95% {low:.1%}-{high:.1%})")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
