"""The ladder table of docs/ai.md: each level against the one below, as Markdown rows.

    .venv/bin/python benchmarks/ladder.py [--games 200] [--seed 1] [--jobs 1] [ROW ...]

A ROW is ``A:B:SIZE:MODE`` (default: the nine rows of docs/ai.md, medium:easy:6:general ...).
Each row is printed as soon as its games are played; the games are those of
``sos-tui arena A B --size SIZE --mode MODE --games G --seed S``.
"""

from __future__ import annotations

import argparse
import sys

from sos_tui.ai.arena import Match, Tally, run

ROWS = [f"{a}:{b}:{board}" for a, b in (("medium", "easy"), ("hard", "medium"), ("expert", "hard"))
        for board in ("6:general", "6:simple", "8:general")]


def row(tally: Tally) -> str:
    m, s = tally.match, tally.summary()
    low, high = tally.interval()
    a, b = s["a_seconds_per_move"], s["b_seconds_per_move"]
    return (f"| {m.level_a} vs {m.level_b} | {m.size}x{m.size} {m.mode} | {tally.games} | "
            f"{tally.wins} / {tally.draws} / {tally.losses} | **{tally.rate:.1%}** ({low:.1%}-{high:.1%}) | "
            f"{a['median']:.3f} / {a['max']:.3f} | {b['median']:.3f} / {b['max']:.3f} |")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rows", nargs="*", default=ROWS, metavar="ROW")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    print("| pairing (A vs B) | board | games | A: W / D / L | A's score rate (95% CI) "
          "| median / max s per move, A | B |")
    print("|---|---|---|---|---|---|---|", flush=True)
    for spec in args.rows:
        a, b, size, mode = spec.split(":")
        match = Match(a, b, int(size), mode, args.games, args.seed)
        tally = Tally(match)
        for game in run(match, args.jobs):
            tally.add(game)
        print(row(tally), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
