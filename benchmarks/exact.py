"""How long the exact general-mode solver takes, by the number of empty cells.

    .venv/bin/python benchmarks/exact.py [--size 6] [--games 6] [--empties 14 16 18]

Positions come from seeded games of medium against medium (safe moves while they last, so the
boards look like real endgames). For each number of empty cells the table gives the median and
the longest solve, in seconds and in nodes, and the median and longest in yardsticks (the fixed
workload of ``benchmarks/yardstick.py``, timed again before each row): those two figures stay put
when the machine is busy. Expert solves exactly from 17 empty cells.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from yardstick import Yardstick

from sos_tui.ai import choose_move
from sos_tui.ai.budget import OutOfBudget
from sos_tui.ai.solver import Solver
from sos_tui.engine import GameState


def positions(size: int, games: int, empties: list[int]) -> dict[int, list[GameState]]:
    found: dict[int, list[GameState]] = {e: [] for e in empties}
    for game in range(games):
        state = GameState.new(size, "general")
        while not state.is_over:
            if state.empty_cells in found:
                found[state.empty_cells].append(state)
            state = state.play(choose_move("medium", state, seed=game))
    return found


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=6)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--empties", type=int, nargs="+", default=[14, 16, 18])
    parser.add_argument("--max-nodes", type=int, default=3_000_000)
    args = parser.parse_args(argv)
    stick = Yardstick()
    print(f"{args.size}x{args.size} general, {args.games} seeded medium-vs-medium games")
    print(f"{'empty':>5} {'solved':>7} {'median s':>9} {'max s':>7} {'median nodes':>13} {'max nodes':>10} "
          f"{'median ys':>10} {'max ys':>8}")
    for empty, states in positions(args.size, args.games, args.empties).items():
        seconds, nodes, failed = [], [], 0
        for state in states:
            solver = Solver(args.size, "general", None, args.max_nodes)
            start = time.perf_counter()
            try:
                solver.best_move(state.board)
            except OutOfBudget:
                failed += 1
                continue
            seconds.append(time.perf_counter() - start)
            nodes.append(solver.nodes)
        if not seconds:
            print(f"{empty:>5} {0:>3}/{len(states):<3} (none within {args.max_nodes:,} nodes)")
            continue
        stick.again()
        median = statistics.median(seconds)
        print(f"{empty:>5} {len(seconds):>3}/{len(states):<3} {median:>9.3f} "
              f"{max(seconds):>7.3f} {int(statistics.median(nodes)):>13,} {max(nodes):>10,} "
              f"{stick.ratio(median):>10.1f} {stick.ratio(max(seconds)):>8.1f}", flush=True)
    print(f"ys: seconds divided by the {stick}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
