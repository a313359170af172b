"""How far the review's estimate strays from the exact loss: the noise behind ``ESTIMATE_NOISE``.

    .venv/bin/python benchmarks/review_noise.py [--positions 150] [--seed 1] [--best-share 0.7]

Positions of 5x5 general mode with 12 or 13 empty cells (random play), where the solver reaches:
the move reviewed is the solver's best move (a false alarm is the risk there) with probability
``--best-share``, a random move otherwise. Each is reviewed twice, exactly and by the estimate
alone; the line printed gives how far the estimated loss is above the exact one (what would turn
a good move into a marked one) and the absolute error, as percentiles.
"""

from __future__ import annotations

import argparse
import random

from sos_tui.ai.review import ReviewBudget, review_move
from sos_tui.ai.solver import Solver
from sos_tui.engine import GameState, Move

EXACT = ReviewBudget(exact_empties=13, exact_nodes=10**9)
ESTIMATE = ReviewBudget(exact_empties=0, exact_safe=0)


def sample(rng: random.Random, best_share: float) -> GameState:
    state = GameState.new(5, "general")
    stop = rng.choice((12, 13)) + 1
    while state.empty_cells > stop:
        state = state.play(rng.choice(state.legal_moves()))
    if rng.random() < best_share:
        _value, cell, letter = Solver(5, "general").best_move(state.board)
        move = Move(cell // 5, cell % 5, letter)
    else:
        move = rng.choice(state.legal_moves())
    return state.play(move)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=150)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--best-share", type=float, default=0.7)
    args = parser.parse_args()
    rng, over, error = random.Random(args.seed), [], []
    while len(over) < args.positions:
        game = sample(rng, args.best_share)
        index = game.move_count - 1
        exact, estimate = review_move(game, index, EXACT), review_move(game, index, ESTIMATE)
        if not exact.exact or estimate.exact:
            continue
        over.append(estimate.loss - exact.loss)
        error.append(abs(estimate.loss - exact.loss))

    def at(values, share):
        values = sorted(values)
        return values[min(len(values) - 1, int(len(values) * share))]

    print(
        f"{len(over)} positions; estimated loss above the exact one: "
        f"p50 {at(over, 0.5):+g}, p95 {at(over, 0.95):+g}, p99 {at(over, 0.99):+g}, max {max(over):+g}; "
        f"absolute error: p50 {at(error, 0.5):g}, p95 {at(error, 0.95):g}, max {max(error):g}"
    )


if __name__ == "__main__":
    main()
