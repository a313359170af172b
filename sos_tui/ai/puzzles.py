"""Puzzles proved by the exact solver: a position where exactly one move keeps the win (simple
mode) or the best margin (general mode), and the line that follows it.

A puzzle is a two-player position reached by ``moves`` in which no SOS is on offer (a quiet
position: the answer is never just "take the SOS"), the player to move (the *solver* of the
puzzle) has value ``value`` (+1 a win in simple mode; the best future margin in general mode),
and the moves that keep that value form one class under the board's symmetries (the rotations and
reflections that map the board onto itself, ``symmetry.symmetries``): one move, up to symmetry.

The *solution* is the line from the position: the solver's move, the solver's best defence (the
first optimal reply in ``Solver.moves``'s order), and so on, until the game is over or every legal
move of the player keeps the value (nothing is left to find). Each step is checked exactly when
the puzzle is played: any move that keeps the position's exact value is right, not only the one
recorded (``keeps``).

The bundled set (``puzzles.txt``, one puzzle a line, numbered from 1) is made by
``tools/puzzles.py`` from a seed; ``difficulty`` is the solver's node count for proving the
puzzle (value and uniqueness) from an empty table. A rating of a puzzle, when the project rates
players, would hang on ``Puzzle.id`` (the set is append-only in meaning: a puzzle keeps its id).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from sos_tui.engine.rules import GameState, Mode, Move

from .bitboard import scoring
from .solver import Solver
from .symmetry import symmetries

DATA = Path(__file__).with_name("puzzles.txt")


@dataclass(frozen=True)
class Puzzle:
    """Puzzle ``id`` (from 1) of the bundled set."""

    id: int
    size: int
    mode: Mode
    moves: tuple[Move, ...]  # from the empty board to the puzzle's position
    solution: tuple[Move, ...]  # the line: the player's move first
    value: int  # the player's value: +1 (simple: a win) or the best future margin (general)
    difficulty: int  # the solver's nodes to prove it

    def state(self) -> GameState:
        return GameState.from_moves(self.moves, self.size, self.mode)

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "size": self.size,
            "mode": self.mode.value,
            "moves": [str(m) for m in self.moves],
            "solution": [str(m) for m in self.solution],
            "value": self.value,
            "difficulty": self.difficulty,
        }

    def line(self) -> str:
        """The puzzle as one line of ``puzzles.txt``: ``size mode value difficulty moves / solution``."""

        def moves(ms):
            return " ".join(f"{m.letter}{str(m).split()[1]}" for m in ms)

        head = f"{self.size} {self.mode.value} {self.value} {self.difficulty}"
        return f"{head} {moves(self.moves)} / {moves(self.solution)}"

    @classmethod
    def parse(cls, number: int, text: str) -> Puzzle:
        head, _slash, tail = text.partition(" / ")
        size, mode, value, difficulty, *moves = head.split()

        def read(words):
            return tuple(Move.parse(f"{w[0]} {w[1:]}") for w in words)

        return cls(
            number, int(size), Mode(mode), read(moves), read(tail.split()), int(value), int(difficulty)
        )


@cache
def bundled() -> tuple[Puzzle, ...]:
    """The bundled set, puzzle ``n`` at index ``n - 1``."""
    lines = [
        line for line in DATA.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")
    ]
    return tuple(Puzzle.parse(number, line) for number, line in enumerate(lines, 1))


def next_unsolved(solved) -> Puzzle:
    """The first bundled puzzle whose id is not in ``solved`` (the first of all once all are)."""
    puzzles = bundled()
    return next((p for p in puzzles if p.id not in solved), puzzles[0])


def after(puzzle: Puzzle) -> Puzzle:
    """The puzzle after ``puzzle`` (the first after the last)."""
    puzzles = bundled()
    return puzzles[puzzle.id % len(puzzles)]


# -- the proof ----------------------------------------------------------------------------------
def _move(state: GameState, cell: int, letter: str) -> Move:
    return Move(cell // state.size, cell % state.size, letter)


def move_class(state: GameState, move: Move) -> tuple[int, str]:
    """The least image of ``move`` under the symmetries that map the board onto itself."""
    cell, board = move.row * state.size + move.col, state.board
    images = [
        perm.index(cell)
        for perm in symmetries(state.size)
        if all(board[perm[k]] == board[k] for k in range(len(board)))
    ]
    return min(images), move.letter


def quiet(state: GameState) -> bool:
    """No SOS on offer: no move scores."""
    g = Solver(state.size, state.mode).grid
    s, o = g.masks(state.board)
    return not scoring(s, o, g.empty(s, o), g.dirs)


def best_moves(solver: Solver, state: GameState) -> tuple[int, list[Move]]:
    """The mover's exact value and every move that keeps it, in the solver's order."""
    value, found = solver.best_moves(state.board)
    return value, [_move(state, cell, letter) for cell, letter in found]


def prove(state: GameState, solver: Solver | None = None) -> tuple[int, Move] | None:
    """``(value, the one move)`` if ``state`` is a puzzle (two players, quiet, a win in simple
    mode, one optimal move up to symmetry), else None."""
    if state.players != 2 or state.is_over or not quiet(state):
        return None
    solver = solver or Solver(state.size, state.mode)
    value, found = best_moves(solver, state)
    if state.mode is Mode.SIMPLE and value != 1:
        return None
    if len({move_class(state, move) for move in found}) != 1:
        return None
    return value, found[0]


def keeps(solver: Solver, state: GameState, move: Move) -> bool:
    """Does ``move`` keep the mover's exact value of ``state``?"""
    cell = move.row * state.size + move.col
    return solver.child_value(state.board, cell, move.letter) == solver.value(state.board)


def decided(solver: Solver, state: GameState) -> bool:
    """Is there nothing left to find: the game is over, or every legal move keeps the value?"""
    if state.is_over:
        return True
    _value, found = best_moves(solver, state)
    return len(found) == len(state.legal_moves())


def best_defence(solver: Solver, state: GameState) -> Move:
    """The solver's best move for the player to move: the first optimal one in its order."""
    _value, cell, letter = solver.best_move(state.board)
    return _move(state, cell, letter)


def solution_line(solver: Solver, state: GameState, first: Move) -> list[Move]:
    """The line from ``state``: ``first``, then the best play of both sides (``best_defence``)
    until the player of ``state`` is to move with nothing left to find (``decided``)."""
    player, line = state.to_move, [first]
    state = state.play(first)
    while not state.is_over and not (state.to_move == player and decided(solver, state)):
        move = best_defence(solver, state)
        line.append(move)
        state = state.play(move)
    return line


def refutation(solver: Solver, state: GameState, move: Move, plies: int = 4) -> tuple[int, list[Move]]:
    """After a wrong ``move``: the mover's exact value of it and the first ``plies`` moves of the
    best play that follows (the refutation)."""
    cell = move.row * state.size + move.col
    value = solver.child_value(state.board, cell, move.letter)
    line, after = [], state.play(move)
    while not after.is_over and len(line) < plies:
        reply = best_defence(solver, after)
        line.append(reply)
        after = after.play(reply)
    return value, line
