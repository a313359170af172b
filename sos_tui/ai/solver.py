"""Exact two-player solving: memoised negamax on padded bitmask boards (``bitboard.py``).

With two players the future of an SOS position depends only on the board: whoever is to move,
the best score margin they can still force from here (general mode), or whether they win, draw
or lose (simple mode: +1, 0, -1), is the same. So the table is keyed by the board alone.
"""

from __future__ import annotations

from itertools import chain

from sos_tui.engine.rules import Mode

from .bitboard import cell_moves, grid, open_lines, place, points, safe_sets, scoring, threat_counts, wins
from .budget import Budget
from .table import Table

INFINITY = 999


class Solver:
    """Solve positions of one board size and mode; the table persists across calls. Raises
    budget.OutOfBudget past ``deadline`` (a ``budget.clock()`` value) or ``max_nodes``."""

    def __init__(self, size: int, mode: Mode | str, deadline: float | None = None,
                 max_nodes: int | None = None):
        self.grid = grid(size)
        self.simple = Mode(mode) is Mode.SIMPLE
        self.budget = Budget(deadline, max_nodes)
        self.table = Table(INFINITY, narrow=True)

    @property
    def nodes(self) -> int:
        return self.budget.nodes

    # -- the public questions, on engine board strings ------------------------------------
    def value(self, board: str) -> int:
        """The mover's value: best future margin (general) or +1/0/-1 (simple)."""
        return self._value(*self.grid.masks(board))

    def child_value(self, board: str, cell: int, letter: str) -> int:
        """The mover's value of writing ``letter`` at cell index ``cell``."""
        s, o = self.grid.masks(board)
        return self._after(s, o, self.grid.bit(cell), letter == "S", -INFINITY, INFINITY)

    def moves(self, board: str) -> list[tuple[int, str]]:
        """Every ``(cell, letter)``, in the order the solver tries them: the most points first,
        then safe moves, then those leaving one threat, then the rest (lowest cell first)."""
        s, o = self.grid.masks(board)
        return [(self.grid.cell(bit), "S" if is_s else "O")
                for _, bit, is_s in self._moves(s, o, self.grid.empty(s, o))]

    def best_move(self, board: str, moves=None) -> tuple[int, int, str]:
        """``(value, cell, letter)`` of an optimal move: the first in ``moves`` (default: all,
        in the solver's order) among equals."""
        s, o = self.grid.masks(board)
        best = None
        for cell, letter in moves or self.moves(board):
            alpha = -INFINITY if best is None else best[0]
            v = self._after(s, o, self.grid.bit(cell), letter == "S", alpha, INFINITY)
            if best is None or v > best[0]:
                best = (v, cell, letter)
                if self.simple and v == 1:
                    break
        return best

    def best_moves(self, board: str) -> tuple[int, list[tuple[int, str]]]:
        """The mover's value and every optimal ``(cell, letter)``, in the solver's order (so the
        first is ``best_move``'s)."""
        s, o = self.grid.masks(board)
        best, found = None, []
        for cell, letter in self.moves(board):
            alpha = -INFINITY if best is None else best - 1  # a value >= best comes back exact
            v = self._after(s, o, self.grid.bit(cell), letter == "S", alpha, INFINITY)
            if best is None or v > best:
                best, found = v, [(cell, letter)]
            elif v == best:
                found.append((cell, letter))
        return best, found

    def chances(self, board: str, cell: int, letter: str, value: int) -> float:
        """After the mover's move (scoring nothing) of value ``value``, the share of the other
        player's likely replies that are mistakes (worse for them than ``-value``): of the
        moves that score the most if anything scores, else of the safe moves, else of all.
        Every reply is tried with a null window."""
        s, o = self.grid.masks(board)
        s, o = place(s, o, self.grid.bit(cell), letter == "S")
        empty = self.grid.empty(s, o)
        if not empty:
            return 0.0
        dirs = self.grid.dirs
        offers = scoring(s, o, empty, dirs)
        if offers:
            replies = [(bit, is_s) for gained, bit, is_s in offers if gained == offers[0][0]]
        else:
            replies = cell_moves(*safe_sets(s, o, empty, dirs)) or cell_moves(empty, empty)
        theirs = -value  # the other player's value of the position
        wrong = sum(self._after(s, o, bit, is_s, theirs - 1, theirs) < theirs for bit, is_s in replies)
        return wrong / len(replies)

    # -- the search ----------------------------------------------------------------------
    def _value(self, s: int, o: int) -> int:
        if not self.simple:
            return self._general(s, o, -INFINITY, INFINITY)
        if any(wins(s, o, self.grid.empty(s, o), self.grid.dirs)):
            return 1
        return self._simple(s, o)

    def _after(self, s: int, o: int, bit: int, is_s: bool, alpha: int, beta: int) -> int:
        """The mover's value of a move, searched with window (alpha, beta)."""
        gained = points(s, o, bit, is_s, self.grid.dirs)
        child = place(s, o, bit, is_s)
        if self.simple:
            if gained:
                return 1
            return -self._value(*child) if self.grid.empty(*child) else 0
        return self._child(child, gained, alpha, beta)

    def _moves(self, s: int, o: int, empty: int):
        """Every ``(points, bit, is_s)``, lazily, in a good order for alpha-beta: scoring moves
        (most points first), safe moves, moves leaving one threat, the rest."""
        dirs = self.grid.dirs
        win_s, win_o = won = wins(s, o, empty, dirs)
        yield from scoring(s, o, empty, dirs, won)
        s1, s2, o1, o2 = threat_counts(s, o, empty, dirs)
        rest_s, rest_o = empty & ~win_s, empty & ~win_o
        for cells_s, cells_o in ((rest_s & ~s1, rest_o & ~o1), (rest_s & s1 & ~s2, rest_o & o1 & ~o2),
                                 (rest_s & s2, rest_o & o2)):
            for bit, is_s in cell_moves(cells_s, cells_o):
                yield 0, bit, is_s

    def _general(self, s: int, o: int, alpha: int, beta: int) -> int:
        """General mode: the best margin the mover can still force. Two cuts besides alpha-beta:
        the margin lies within +/- the number of lines still open (``open_lines``), and every
        move after the first is tried with a null window first (principal variation search):
        only a move that beats the best so far is searched again with the full window."""
        empty = self.grid.empty(s, o)
        if not empty:
            return 0
        self.budget.tick()
        dirs = self.grid.dirs
        key = s | (o << self.grid.bits)
        known, alpha, beta, first = self.table.probe(key, 0, alpha, beta)
        if known is not None:
            return known
        reach = open_lines(s, o, empty, dirs)
        if reach <= alpha:
            return reach
        if -reach >= beta:
            return -reach
        a0 = alpha
        best, best_move = -INFINITY, None
        moves = self._moves(s, o, empty)
        if first is not None:  # the best move found before, first
            moves = chain(((points(s, o, *first, dirs), *first),), (m for m in moves if m[1:] != first))
        for gained, bit, is_s in moves:
            child = place(s, o, bit, is_s)
            if best_move is not None and beta - alpha > 1:
                v = self._child(child, gained, alpha, alpha + 1)
                if alpha < v < beta:
                    v = self._child(child, gained, v, beta)
            else:
                v = self._child(child, gained, alpha, beta)
            if v > best:
                best, best_move = v, (bit, is_s)
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        self.table.store(key, 0, best, a0, beta, best_move)
        return best

    def _child(self, child: tuple[int, int], gained: int, alpha: int, beta: int) -> int:
        """The mover's value of the move to ``child`` that scored ``gained``: a move that scores
        moves again; any other hands the turn over."""
        if gained:
            return gained + self._general(*child, alpha - gained, beta - gained)
        return -self._general(*child, -beta, -alpha)

    def _simple(self, s: int, o: int) -> int:
        """Simple mode, a board without a threat: +1/0/-1 for the mover, who may only play
        safe moves (any other move hands the opponent an SOS)."""
        key = s | (o << self.grid.bits)
        known = self.table.entries.get(key)
        if known is not None:
            return known
        self.budget.tick()
        empty = self.grid.empty(s, o)
        if not empty & (empty - 1):
            self.table.entries[key] = 0  # the last cell, and it scores nothing: a draw
            return 0
        best = -1  # with no safe move, every move hands the opponent an SOS
        for bit, is_s in cell_moves(*safe_sets(s, o, empty, self.grid.dirs)):
            v = -self._simple(*place(s, o, bit, is_s))
            if v > best:
                best = v
                if best == 1:
                    break
        self.table.entries[key] = best
        return best
