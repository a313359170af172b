"""Seconds per move of each computer level on 6x6 and 8x8 (general mode).

    .venv/bin/python benchmarks/ai.py [--games N] [--time-limit T]

Each level plays N seeded games against medium, alternating who starts; the table gives the
median and the longest time one of its moves took.
"""

from __future__ import annotations

import argparse
import statistics
import sys

from sos_tui.ai import LEVELS
from sos_tui.ai.arena import play_game


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--time-limit", type=float, default=None)
    parser.add_argument("--sizes", type=int, nargs="+", default=[6, 8])
    args = parser.parse_args(argv)
    print(f"{'level':8} {'board':6} {'moves':>6} {'median s':>9} {'max s':>7}")
    for size in args.sizes:
        for level in LEVELS:
            times: list[float] = []
            for game in range(args.games):
                _, mine, _ = play_game(level, "medium", size, "general", game, game % 2 == 0, args.time_limit)
                times += mine
            print(f"{level:8} {size}x{size:<4} {len(times):>6} {statistics.median(times):>9.3f} "
                  f"{max(times):>7.3f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
