"""The values the opening book relies on: each empty board of 3x3 and 4x4, solved exactly.

    .venv/bin/python benchmarks/solved.py      # about a minute and 1 GB

For two players, the margin the first player can force (general) or +1/0/-1 (simple), with the
first optimal move, by the project's own solver: one opening per class of symmetric boards, as
``python -m sos_tui.ai.book`` does when it builds the book.
"""

from __future__ import annotations

import sys
import time

from sos_tui.ai.book import distinct_moves
from sos_tui.ai.solver import Solver
from sos_tui.engine import Move


def main() -> int:
    for size in (3, 4):
        for mode in ("general", "simple"):
            start = time.perf_counter()
            solver = Solver(size, mode)
            empty = "." * size * size
            value, cell, letter = solver.best_move(empty, distinct_moves(solver, empty, size))
            opening = Move(cell // size, cell % size, letter)
            print(f"{size}x{size} {mode}: value {value:+d}, an optimal opening {opening} "
                  f"({time.perf_counter() - start:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
