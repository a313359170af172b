"""Outside-style opponents: the kind of computer player other SOS programs ship, written here
from their descriptions alone, to measure our levels against something that is not ours.

Nothing here uses our players' code (no bitboards, searches, solver or levels): each bot reads
the engine's board string and writes its own rules over a flat list of cells, as a program
written elsewhere would. Only ``GameState`` and ``Move`` come from the engine, to play in the
arena.

- ``greedy`` (safe-greedy): takes the move that scores the most points; else a random move
  that offers nothing (after it, no move of the next player scores); else the sacrifice whose
  greedy chain (what the next player collects by taking the move that scores the most, while
  anything scores) is smallest. Ties are broken at random.
- ``negamax2``, ``negamax3``: a fixed-depth negamax with alpha-beta over every (cell, letter),
  depth 2 or 3 plies; a move that scores keeps the turn (so the value is not negated) and
  still costs a ply. A leaf is worth the score difference, mover's minus the other's (general
  mode), or a win (simple mode: the first SOS ends the game). The root moves are tried in a
  random order and the first of the best is played, so equal moves are picked at random.

``outside_player(name, seed)`` makes one; ``OUTSIDE`` lists the names (``outside:greedy`` ...).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from random import Random

from sos_tui.engine.rules import GameState, Mode, Move

PREFIX = "outside:"
OUTSIDE = ("outside:greedy", "outside:negamax2", "outside:negamax3")
WIN = 1000


@cache
def _lines(size: int) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """For each cell, every straight triple (a, b, c) through it, as cell indices."""
    through: list[list[tuple[int, int, int]]] = [[] for _ in range(size * size)]
    for r in range(size):
        for c in range(size):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                r2, c2 = r + 2 * dr, c + 2 * dc
                if 0 <= r2 < size and 0 <= c2 < size:
                    line = (r * size + c, (r + dr) * size + c + dc, r2 * size + c2)
                    for cell in line:
                        through[cell].append(line)
    return tuple(tuple(lines) for lines in through)


class Board:
    """A board as a list of "S", "O" and "." with the SOS rule written out cell by cell."""

    def __init__(self, size: int, cells: str):
        self.size = size
        self.cells = list(cells)
        self.lines = _lines(size)

    def gain(self, cell: int, letter: str) -> int:
        """How many SOS the letter at the (empty) cell completes."""
        cells = self.cells
        total = 0
        for a, b, c in self.lines[cell]:
            if b == cell:
                total += letter == "O" and cells[a] == "S" and cells[c] == "S"
            elif letter == "S":
                total += cells[b] == "O" and cells[c if a == cell else a] == "S"
        return total

    def empties(self) -> list[int]:
        return [i for i, here in enumerate(self.cells) if here == "."]

    def best_gain(self) -> int:
        """The most points any one move scores now."""
        return max((self.gain(cell, letter) for cell in self.empties() for letter in "SO"), default=0)

    def greedy_chain(self) -> int:
        """The points the player to move collects taking the move that scores the most, while
        anything scores."""
        written, total = [], 0
        while True:
            best, where = 0, None
            for cell in self.empties():
                for letter in "SO":
                    g = self.gain(cell, letter)
                    if g > best:
                        best, where = g, (cell, letter)
            if where is None:
                break
            total += best
            self.cells[where[0]] = where[1]
            written.append(where[0])
        for cell in written:
            self.cells[cell] = "."
        return total


def _move(size: int, cell: int, letter: str) -> Move:
    return Move(cell // size, cell % size, letter)


def _rng(seed: int, state: GameState) -> Random:
    return Random(f"outside|{seed}|{state.board}|{state.to_move}|{state.scores}")


@dataclass(frozen=True, slots=True)
class SafeGreedy:
    """Takes the most points; else a random move that offers nothing; else the sacrifice that
    gives the smallest greedy chain."""

    seed: int = 0

    def choose_move(self, state: GameState) -> Move:
        board, rng = Board(state.size, state.board), _rng(self.seed, state)
        moves = [(cell, letter) for cell in board.empties() for letter in "SO"]
        gains = {move: board.gain(*move) for move in moves}
        most = max(gains.values())
        if most:
            return _move(state.size, *rng.choice([m for m in moves if gains[m] == most]))
        quiet, costs = [], {}
        for cell, letter in moves:
            board.cells[cell] = letter
            if not board.best_gain():
                quiet.append((cell, letter))
            board.cells[cell] = "."
        if quiet:
            return _move(state.size, *rng.choice(quiet))
        for cell, letter in moves:
            board.cells[cell] = letter
            costs[cell, letter] = board.greedy_chain()
            board.cells[cell] = "."
        least = min(costs.values())
        return _move(state.size, *rng.choice([m for m in moves if costs[m] == least]))


@dataclass(frozen=True, slots=True)
class Negamax:
    """Fixed-depth negamax (alpha-beta) over every (cell, letter), with the extra turn."""

    depth: int = 3
    seed: int = 0

    def choose_move(self, state: GameState) -> Move:
        board, rng = Board(state.size, state.board), _rng(self.seed, state)
        moves = [(cell, letter) for cell in board.empties() for letter in "SO"]
        rng.shuffle(moves)
        search = _Negamax(state.mode is Mode.SIMPLE)
        best, found = -WIN * 10, moves[0]
        for cell, letter in moves:
            value = search.after(board, cell, letter, self.depth, best, WIN * 10)
            if value > best:
                best, found = value, (cell, letter)
        return _move(state.size, *found)


class _Negamax:
    def __init__(self, simple: bool):
        self.simple = simple
        self.nodes = 0

    def after(self, board: Board, cell: int, letter: str, depth: int, alpha: int, beta: int) -> int:
        """The mover's value of writing ``letter`` at ``cell`` with ``depth`` plies left."""
        self.nodes += 1
        gained = board.gain(cell, letter)
        if self.simple and gained:
            return WIN + depth  # the first SOS wins; sooner is better
        board.cells[cell] = letter
        try:
            if depth <= 1 or "." not in board.cells:
                return gained
            if gained:  # the extra turn: the same player moves again
                return gained + self._negamax(board, depth - 1, alpha - gained, beta - gained)
            return -self._negamax(board, depth - 1, -beta, -alpha)
        finally:
            board.cells[cell] = "."

    def _negamax(self, board: Board, depth: int, alpha: int, beta: int) -> int:
        best = -WIN * 10
        for cell in board.empties():
            for letter in "SO":
                value = self.after(board, cell, letter, depth, alpha, beta)
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            return best
        return best


def outside_player(name: str, seed: int = 0):
    """The outside-style bot called ``name`` (one of OUTSIDE)."""
    if name == "outside:greedy":
        return SafeGreedy(seed)
    if name in ("outside:negamax2", "outside:negamax3"):
        return Negamax(int(name[-1]), seed)
    raise ValueError(f"unknown outside bot {name!r} (choose {', '.join(OUTSIDE)})")
