"""CPU seconds per move of each computer level on 6x6 and 8x8 (general mode).

    .venv/bin/python benchmarks/ai.py [--games N] [--time-limit T]

Each level plays N seeded games against medium, alternating who starts; the table gives the
median and the longest CPU time one of its moves took (the players' clock: a busy machine delays
a move but does not change it or its figure).

    .venv/bin/python benchmarks/ai.py --clock [--time-limit T]

Whether the clock is kept: hard and expert choose moves with a time limit (default 0.5 s) in
positions of boards up to 26x26 (empty, a third and two thirds filled; general and simple
mode), and the table gives the CPU seconds they really took (the limit is counted in CPU
seconds of the search's process) and the wall seconds beside them.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from sos_tui.ai import LEVELS, computer_player
from sos_tui.ai.arena import Match, play_game
from sos_tui.ai.bitboard import cell_moves, grid, safe_sets
from sos_tui.engine import GameState, Move


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--time-limit", type=float, default=None)
    parser.add_argument("--sizes", type=int, nargs="+", default=[6, 8])
    parser.add_argument("--clock", action="store_true", help="check that time limits are kept")
    args = parser.parse_args(argv)
    if args.clock:
        return clock(args.time_limit or 0.5)
    print(f"{'level':8} {'board':6} {'moves':>6} {'median s':>9} {'max s':>7}")
    for size in args.sizes:
        for level in LEVELS:
            times: list[float] = []
            for game in range(args.games):
                mine = play_game(Match(level, "medium", size, games=args.games, seed=0,
                                       time_limit=args.time_limit), game).a_seconds
                times += mine
            print(f"{level:8} {size}x{size:<4} {len(times):>6} {statistics.median(times):>9.3f} "
                  f"{max(times):>7.3f}", flush=True)
    return 0


def clock(limit: float) -> int:
    print(f"time limit {limit} s (CPU): seconds actually taken per move")
    print(f"{'level':8} {'mode':8} {'board':6} {'filled':>6} {'CPU s':>8} {'wall s':>8}")
    worst = 0.0
    for mode in ("general", "simple"):
        for size in (8, 12, 20, 26):
            for filled in (0, size * size // 3, size * size * 2 // 3):
                state = position(mode, size, filled, random.Random(size * 1000 + filled))
                for level in ("hard", "expert"):
                    start, wall = time.process_time(), time.perf_counter()
                    computer_player(level, seed=1, time_limit=limit).choose_move(state)
                    taken, wall = time.process_time() - start, time.perf_counter() - wall
                    worst = max(worst, taken)
                    print(f"{level:8} {mode:8} {size}x{size:<4} {state.size ** 2 - state.empty_cells:>6} "
                          f"{taken:>8.3f} {wall:>8.3f}", flush=True)
    print(f"longest: {worst:.3f} CPU s for a limit of {limit} s")
    return 0


def position(mode: str, size: int, filled: int, rng: random.Random) -> GameState:
    """``filled`` random moves from the empty board: any legal move in general mode; in simple
    mode safe moves only (a move leaving a threat would end the game), as far as there are any."""
    state, g = GameState.new(size, mode), grid(size)
    for _ in range(filled):
        if mode == "general":
            state = state.play(rng.choice(state.legal_moves()))
            continue
        s, o = g.masks(state.board)
        safe = cell_moves(*safe_sets(s, o, g.empty(s, o), g.dirs))
        if not safe:
            break
        bit, is_s = rng.choice(safe)
        state = state.play(Move(*divmod(g.cell(bit), size), "S" if is_s else "O"))
    return state


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
