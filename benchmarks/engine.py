"""Benchmark: moves per second through GameState.play, beside a naive rescan-the-board baseline.

Run it with ``python benchmarks/engine.py`` (``--help`` for options). Each game's moves are made
in advance from a seeded random permutation of the cells and random letters, so only the playing
is timed. Both implementations play the very same games, and their final scores are checked
against each other before anything is timed.

The baseline is what a first attempt often looks like: a mutable list for the board, and after
every move a rescan of every triple on the board to count the S-O-S lines. Its cost per move
grows with the number of cells (N^2); the engine's should not.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from functools import cache

from sos_tui.engine import GameState, Move

SIZES = (5, 10, 20)
TARGET_MOVES_PER_SECOND = 100_000  # through play() on 10x10
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))

Game = list[Move]


def make_games(size: int, count: int, seed: int) -> list[Game]:
    """``count`` full games on a ``size`` board: every cell once, in a random order, random letters."""
    rng = random.Random(f"{seed}-{size}")
    cells = [(r, c) for r in range(size) for c in range(size)]
    games = []
    for _ in range(count):
        order = cells[:]
        rng.shuffle(order)
        games.append([Move(r, c, rng.choice("SO")) for r, c in order])
    return games


# -- the two implementations, each playing one whole game ------------------------------------------


@cache
def empty_board(size: int) -> GameState:
    return GameState.new(size=size, mode="general", players=2)  # immutable, so one per size will do


def play_engine(size: int, game: Game) -> tuple[int, ...]:
    state = empty_board(size)
    for move in game:
        state = state.play(move)
    return state.scores


def play_naive(size: int, game: Game) -> tuple[int, ...]:
    board = [["."] * size for _ in range(size)]
    scores = [0, 0]
    player = 0
    found = 0
    for move in game:
        if board[move.row][move.col] != ".":
            raise ValueError(f"{move}: cell taken")
        board[move.row][move.col] = move.letter
        total = 0  # rescan every triple on the board
        for r in range(size):
            for c in range(size):
                for dr, dc in DIRECTIONS:
                    r2, c2 = r + 2 * dr, c + 2 * dc
                    if (0 <= r2 < size and 0 <= c2 < size and board[r][c] == "S"
                            and board[r + dr][c + dc] == "O" and board[r2][c2] == "S"):
                        total += 1
        gained, found = total - found, total
        if gained:
            scores[player] += gained
        else:
            player = 1 - player
    return tuple(scores)


# -- timing ---------------------------------------------------------------------------------------


def moves_per_second(play: Callable[[int, Game], object], size: int, games: Sequence[Game],
                     min_time: float, repeats: int) -> float:
    """Best of ``repeats`` runs, each playing games (cycling through them) for at least ``min_time``."""
    best = 0.0
    for _ in range(repeats):
        moves = 0
        start = time.perf_counter()
        elapsed = 0.0
        i = 0
        while elapsed < min_time:
            game = games[i % len(games)]
            play(size, game)
            moves += len(game)
            i += 1
            elapsed = time.perf_counter() - start
        best = max(best, moves / elapsed)
    return best


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2024, help="seed for the random games (default 2024)")
    parser.add_argument("--games", type=int, default=200, help="games made in advance per board size")
    parser.add_argument("--time", type=float, default=0.5, help="seconds per timed run (default 0.5)")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per measurement; best is kept")
    args = parser.parse_args(argv)

    print(f"SOS engine benchmark: general mode, 2 players, random full games, seed {args.seed}")
    print(f"Python {sys.version.split()[0]}; best of {args.repeats} runs of >= {args.time:g} s each\n")

    rows = []
    for size in SIZES:
        games = make_games(size, args.games, args.seed)
        for game in games[:20]:  # the two implementations must agree before either is timed
            assert play_engine(size, game) == play_naive(size, game), "engine and baseline disagree"
        engine = moves_per_second(play_engine, size, games, args.time, args.repeats)
        naive = moves_per_second(play_naive, size, games, args.time, args.repeats)
        rows.append((size, engine, naive))

    header = (f"{'board':>6} | {'engine moves/s':>14} {'us/move':>8} | "
              f"{'naive moves/s':>13} {'us/move':>8} | {'speed-up':>8}")
    print(header)
    print("-" * len(header))
    for size, engine, naive in rows:
        print(f"{f'{size}x{size}':>6} | {engine:>14,.0f} {1e6 / engine:>8.2f} | "
              f"{naive:>13,.0f} {1e6 / naive:>8.1f} | {engine / naive:>7.0f}x")

    (_, small_engine, small_naive), (_, large_engine, large_naive) = rows[0], rows[-1]
    print(f"\nCost per move, {SIZES[-1]}x{SIZES[-1]} vs {SIZES[0]}x{SIZES[0]}: "
          f"engine {small_engine / large_engine:.2f}x, naive {small_naive / large_naive:.1f}x")
    ten = dict((size, engine) for size, engine, _ in rows)[10]
    verdict = "met" if ten >= TARGET_MOVES_PER_SECOND else "MISSED"
    print(f"Target >= {TARGET_MOVES_PER_SECOND:,} moves/s through play() on 10x10: {verdict} ({ten:,.0f})")
    return 0 if ten >= TARGET_MOVES_PER_SECOND else 1


if __name__ == "__main__":
    sys.exit(main())
