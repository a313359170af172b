"""How far from perfect play the computer players' moves are, on exactly solved 8x8 positions.

    .venv/bin/python benchmarks/regret.py [expert hard ...] [--limit N]

regret_positions.json holds 51 positions of 8x8 general games between expert and hard, with 19
or 21 empty cells: too many for expert's exact endgame (17), few enough for the exact solver to
give each its value (the margin the player to move can force). For each level the benchmark
plays its move in every position, solves the position after it, and prints the mean regret
(the points its move gives up against perfect play) and how many moves give up anything.
Solving takes up to half a minute a position.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from sos_tui.ai import LEVELS, computer_player
from sos_tui.ai.solver import Solver
from sos_tui.engine import GameState, Move

POSITIONS = Path(__file__).with_name("regret_positions.json")


def positions() -> list[tuple[GameState, int]]:
    found = []
    for entry in json.loads(POSITIONS.read_text()):
        state = GameState.new(8, "general")
        for move in entry["moves"].split(","):
            state = state.play(Move.parse(move))
        found.append((state, entry["value"]))
    return found


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("levels", nargs="*", choices=list(LEVELS), default=["expert", "hard"])
    parser.add_argument("--limit", type=int, default=None, help="only the first N positions")
    args = parser.parse_args(argv)
    cases = positions()[: args.limit]
    for level in args.levels:
        regrets, seconds = [], []
        for k, (state, value) in enumerate(cases):
            start = time.perf_counter()
            move = computer_player(level, seed=k).choose_move(state)
            seconds.append(time.perf_counter() - start)
            after = Solver(8, "general").child_value(state.board, move.row * 8 + move.col, move.letter)
            regrets.append(value - after)
            print(f"\r{level}: {k + 1}/{len(cases)}", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        print(f"{level:>6}: mean regret {statistics.fmean(regrets):.3f} points a move, "
              f"{sum(r > 0 for r in regrets)} of {len(cases)} moves lose something, "
              f"worst {max(regrets)}; median {statistics.median(seconds):.2f} s a move")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
