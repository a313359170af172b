"""Make the bundled puzzle set (``sos_tui/ai/puzzles.txt``) from a seed, every puzzle proved by the
exact solver (``sos_tui.ai.puzzles.prove``), or check that the committed set is what the seed makes.

    python tools/puzzles.py [--seed 47] [--check]

Each kind of puzzle (board size, mode, how many cells are left empty) draws positions from its own
random stream: random safe moves (simple mode: a move that hands over an SOS would end the game),
or a mix of taken SOSs, safe moves and any moves (general mode), up to a number of empty cells,
and keeps a position when it is a puzzle, new up to symmetry, with a short enough line. The set
is numbered with the kinds taking turns, each kind easiest first (``arrange``). The same
seed gives the same file on any machine (no clock, no process count, a fresh solver per puzzle).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path
from random import Random

from sos_tui.ai.bitboard import cell_moves, grid, safe_sets, scoring
from sos_tui.ai.budget import Budget, OutOfBudget
from sos_tui.ai.puzzles import DATA, Puzzle, prove, solution_line
from sos_tui.ai.solver import Solver
from sos_tui.ai.symmetry import canonical
from sos_tui.engine.rules import GameState, Mode, Move

KINDS = (  # size, mode, (fewest, most) empty cells (general) or safe moves (simple), how many,
    # the longest line (moves), the solver's nodes for a proof at most
    (4, "simple", (4, 12), 130, 9, 20_000),
    (4, "general", (6, 10), 140, 7, 20_000),
    (5, "simple", (4, 12), 120, 9, 20_000),
    (5, "general", (7, 10), 80, 7, 20_000),
    (6, "simple", (4, 12), 80, 9, 20_000),
)


def _as_move(g, size: int, bit: int, is_s: bool) -> Move:
    cell = g.cell(bit)
    return Move(cell // size, cell % size, "S" if is_s else "O")


def position(rng: Random, size: int, mode: str, left: int) -> GameState | None:
    """A random position with ``left`` empty cells (general mode) or at most ``left`` safe moves
    (simple mode), or None if the walk ends first."""
    g, state = grid(size), GameState.new(size, mode)
    while not state.is_over:
        s, o = g.masks(state.board)
        empty = g.empty(s, o)
        safe = cell_moves(*safe_sets(s, o, empty, g.dirs))
        offers = scoring(s, o, empty, g.dirs)
        if mode == "simple":
            if len(safe) <= left:
                return state
            choice = rng.choice(safe)
        elif state.empty_cells <= left:
            return state
        elif offers and rng.random() < 0.7:
            choice = rng.choice(offers)[1:]
        elif safe and rng.random() < 0.8:
            choice = rng.choice(safe)
        else:
            choice = rng.choice(cell_moves(empty, empty))
        state = state.play(_as_move(g, size, *choice))
    return None


def generate(seed: int, log=print) -> list[Puzzle]:
    puzzles: list[Puzzle] = []
    for size, mode, (low, high), count, longest, max_nodes in KINDS:
        rng, seen, started, tries = Random(f"{seed}|{size}|{mode}"), set(), time.perf_counter(), 0
        found = 0
        while found < count:
            tries += 1
            state = position(rng, size, mode, rng.randint(low, high))
            if state is None:
                continue
            key = canonical(state.board, size)[0]
            if key in seen:
                continue
            seen.add(key)
            solver = Solver(size, mode, max_nodes=max_nodes)
            try:
                proof = prove(state, solver)
                nodes = solver.nodes
                solver.budget = Budget(max_nodes=10 * max_nodes)
                line = proof and solution_line(solver, state, proof[1])
            except OutOfBudget:
                continue
            if proof is None or len(line) > longest:
                continue
            found += 1
            puzzles.append(Puzzle(0, size, Mode(mode), state.moves, tuple(line), proof[0], nodes))
        log(
            f"{size}x{size} {mode}: {count} puzzles from {tries} positions in "
            f"{time.perf_counter() - started:.1f} s"
        )
    return arrange(puzzles)


FIRST = ((5, "simple"), (4, "general"), (6, "simple"), (5, "general"), (4, "simple"))
"""The order the kinds take turns in: puzzle 1 is a 5x5 one."""


def arrange(puzzles: list[Puzzle]) -> list[Puzzle]:
    """Numbered from 1: the kinds in turn (``FIRST``), each kind easiest first (by difficulty,
    then in the order found)."""
    kinds = {
        kind: sorted((p for p in puzzles if (p.size, p.mode.value) == kind), key=lambda p: p.difficulty)
        for kind in FIRST
    }
    turns = [
        kinds[kind][i] for i in range(max(map(len, kinds.values()))) for kind in FIRST if i < len(kinds[kind])
    ]
    return [replace(p, id=number) for number, p in enumerate(turns, 1)]


def render(seed: int, puzzles: list[Puzzle]) -> str:
    head = [
        f"# SOS puzzles, made by: python tools/puzzles.py --seed {seed}",
        "# size mode value difficulty moves... / solution...   (puzzle n is the n-th line)",
    ]
    return "\n".join(head + [p.line() for p in puzzles]) + "\n"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=47)
    parser.add_argument("--check", action="store_true", help="compare with the committed set")
    parser.add_argument("--out", type=Path, default=DATA)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    text = render(args.seed, generate(args.seed, log=lambda line: print(line, file=sys.stderr, flush=True)))
    print(f"generated in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    if args.check:
        same = args.out.read_text(encoding="utf-8") == text
        print("the puzzle set is up to date" if same else "the puzzle set differs from what the seed makes")
        return 0 if same else 1
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
