"""How long the game review takes on whole games, by board size.

    .venv/bin/python benchmarks/review.py [--sizes 6 8] [--games 2] [--mode general]

Each game is a seeded game of hard against medium (so it has real mistakes to find). For each
size the table gives the seconds per game (median and longest), the same two in yardsticks (the
fixed workload of ``benchmarks/yardstick.py``, timed again before each row: figures that stay put
when the machine is busy) and how many verdicts were exact. The targets: a 6x6 game in at most
15 s, an 8x8 game in at most 90 s.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from yardstick import Yardstick

from sos_tui.ai import choose_move
from sos_tui.ai.review import _SOLVERS, ReviewBudget, review
from sos_tui.engine import GameState

TARGETS = {6: 15.0, 8: 90.0}


def game(size: int, mode: str, seed: int) -> GameState:
    state = GameState.new(size, mode)
    levels = ("hard", "medium") if seed % 2 == 0 else ("medium", "hard")
    while not state.is_over:
        state = state.play(choose_move(levels[state.to_move], state, seed=seed))
    return state


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[6, 8])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--mode", default="general")
    args = parser.parse_args(argv)
    stick = Yardstick()
    print(f"{'size':>4}  {'moves':>5}  {'median s':>8}  {'max s':>7}  {'median ys':>9}  {'max ys':>7}  "
          f"{'exact':>9}  target")
    for size in args.sizes:
        seconds, exact, moves = [], 0, 0
        for seed in range(args.games):
            state = game(size, args.mode, seed)
            _SOLVERS.clear()  # each game starts cold, as a fresh app process would
            start = time.perf_counter()
            reviews = list(review(state, ReviewBudget()))
            seconds.append(time.perf_counter() - start)
            exact += sum(r.exact for r in reviews)
            moves += len(reviews)
        target = TARGETS.get(size)
        stick.again()
        median = statistics.median(seconds)
        print(f"{size:>4}  {moves // args.games:>5}  {median:>8.1f}  {max(seconds):>7.1f}  "
              f"{stick.ratio(median):>9,.0f}  {stick.ratio(max(seconds)):>7,.0f}  "
              f"{exact:>4}/{moves:<4}  {f'<= {target:g} s' if target else '-'}", flush=True)
    print(f"ys: seconds divided by the {stick}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
