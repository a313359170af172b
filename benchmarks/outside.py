"""Our levels against outside-style bots (``sos_tui/ai/outside.py``), timed: the table of docs/ai-results.md.

    .venv/bin/python benchmarks/outside.py [--games 40] [--seed 1] [--jobs 1] [ROW ...]

A ROW is ``LEVEL:BOT:SIZE:MODE`` (default: hard and expert against ``greedy`` and ``negamax3`` on
6x6 general). Each row's games are those of ``sos-tui arena LEVEL outside:BOT --size SIZE --mode
MODE --games G --seed S --time-limit T`` with T the level's time per move (``LIMITS``: hard 0.5 s,
expert 2 s, the app's limit; CPU seconds, ``ai/budget.py``). A row is printed once its games are
played, with a line per game on stderr as it ends.
"""

from __future__ import annotations

import argparse
import sys

from sos_tui.ai.arena import Match, Tally, run

LIMITS = {"easy": None, "medium": None, "hard": 0.5, "expert": 2.0}
ROWS = [f"{level}:{bot}:6:general" for level in ("hard", "expert") for bot in ("greedy", "negamax3")]


def row(tally: Tally, played: list) -> str:
    m, s = tally.match, tally.summary()
    low, high = tally.interval()
    a, b = s["a_seconds_per_move"], s["b_seconds_per_move"]
    first = [g for g in played if g.a_first]
    lost_first = sum(g.result == 0 for g in first)
    return (f"| {m.level_a} ({m.time_limit or '-'} s) vs {m.level_b} | {m.size}x{m.size} {m.mode} "
            f"| {tally.games} | "
            f"{tally.wins} / {tally.draws} / {tally.losses} | **{tally.rate:.1%}** ({low:.1%}-{high:.1%}) | "
            f"{lost_first} | {a['median']:.3f} / {a['max']:.3f} | {b['median']:.3f} / {b['max']:.3f} |")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rows", nargs="*", default=ROWS, metavar="ROW")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    print("| pairing (A vs B) | board | games | A: W / D / L | A's score rate (95% CI) "
          "| A's losses moving first | median / max s per move, A | B |")
    print("|---|---|---|---|---|---|---|---|", flush=True)
    for spec in args.rows:
        level, bot, size, mode = spec.split(":")
        match = Match(level, f"outside:{bot}", int(size), mode, args.games, args.seed, LIMITS[level])
        tally = Tally(match)
        played = []
        for game in run(match, args.jobs):
            tally.add(game)
            played.append(game)
            outcome = {1: "won", 0.5: "drew", 0: "lost"}[game.result]
            print(f"{spec} game {game.number}: {level} {'first' if game.a_first else 'second'}, {outcome} "
                  f"{game.scores[0]}-{game.scores[1]}", file=sys.stderr, flush=True)
        print(row(tally, played), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
