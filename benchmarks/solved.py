"""The values the opening book relies on: each empty board of 3x3 and 4x4, solved exactly.

    .venv/bin/python benchmarks/solved.py              # about a minute and 1 GB
    .venv/bin/python benchmarks/solved.py --sizes 3    # 3x3 only: a second or two

For two players, the margin the first player can force (general) or +1/0/-1 (simple), with the
first optimal move, by the project's own solver: one opening per class of symmetric boards, as
``python -m sos_tui.ai.book`` does when it builds the book. Each solve's time is given in seconds
and in yardsticks (the fixed workload of ``benchmarks/yardstick.py``, timed again after each
solve): the second figure stays put when the machine is busy.
"""

from __future__ import annotations

import argparse
import sys
import time

from yardstick import Yardstick

from sos_tui.ai.book import distinct_moves
from sos_tui.ai.solver import Solver
from sos_tui.engine import Move


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", choices=(3, 4), default=[3, 4],
                        help="board sizes to solve (default 3 4)")
    args = parser.parse_args(argv)
    stick = Yardstick()
    for size in args.sizes:
        for mode in ("general", "simple"):
            start = time.perf_counter()
            solver = Solver(size, mode)
            empty = "." * size * size
            value, cell, letter = solver.best_move(empty, distinct_moves(solver, empty, size))
            seconds = time.perf_counter() - start
            del solver  # its table can be most of a gigabyte: free it before timing the yardstick
            stick.again()
            opening = Move(cell // size, cell % size, letter)
            print(f"{size}x{size} {mode}: value {value:+d}, an optimal opening {opening} "
                  f"({stick.describe(seconds)})", flush=True)
    print(stick)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
