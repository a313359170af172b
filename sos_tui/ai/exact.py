"""Exact two-player solving of small positions: memoised negamax on bitmask boards.

With two players the future of an SOS position depends only on the board: whoever is to move,
the best score margin they can still force from here (general mode), or whether they win, draw
or lose (simple mode: +1, 0, -1), is the same. So the transposition table is keyed by the board
alone, as two bitmasks (cells holding S, cells holding O).
"""

from __future__ import annotations

import time
from functools import cache

from sos_tui.engine.rules import Mode

from .tactics import geometry


class OutOfBudget(Exception):
    """The search ran past its deadline or node budget."""


@cache
def _tables(size: int):
    geo = geometry(size)
    n = size * size
    for_s = tuple(tuple((1 << o, 1 << s) for o, s in geo.for_s[i]) for i in range(n))
    for_o = tuple(tuple((1 << a, 1 << b) for a, b in geo.for_o[i]) for i in range(n))
    return n, for_s, for_o


def masks(board: str) -> tuple[int, int]:
    """The (S cells, O cells) bitmasks of a board string."""
    sm = om = 0
    for i, here in enumerate(board):
        if here == "S":
            sm |= 1 << i
        elif here == "O":
            om |= 1 << i
    return sm, om


class Solver:
    """Solve positions of one board size and mode; the table persists across calls."""

    def __init__(self, size: int, mode: Mode | str, deadline: float | None = None,
                 max_nodes: int | None = None):
        self.n, self.for_s, self.for_o = _tables(size)
        self.full = (1 << self.n) - 1
        self.simple = Mode(mode) is Mode.SIMPLE
        self.deadline, self.max_nodes = deadline, max_nodes
        self.nodes = 0
        self.table: dict[int, object] = {}

    def _tick(self):
        self.nodes += 1
        if self.nodes & 1023 == 0 and (
            (self.deadline is not None and time.perf_counter() > self.deadline)
            or (self.max_nodes is not None and self.nodes > self.max_nodes)
        ):
            raise OutOfBudget

    def moves(self, sm: int, om: int) -> list[tuple[int, int, int, bool]]:
        """``(order, points, cell, is_s)`` for every move, best-looking first: scoring, then safe."""
        taken = sm | om
        found = []
        for i in range(self.n):
            bit = 1 << i
            if taken & bit:
                continue
            points = sum(1 for o, s in self.for_s[i] if om & o and sm & s)
            made = sum(1 for o, far in self.for_s[i]
                       if (om & o and not taken & far) or (sm & far and not taken & o))
            found.append((points * 100 - made, points, i, True))
            points = sum(1 for a, b in self.for_o[i] if sm & a and sm & b)
            made = sum(1 for a, b in self.for_o[i]
                       if (sm & a and not taken & b) or (sm & b and not taken & a))
            found.append((points * 100 - made, points, i, False))
        found.sort(key=lambda move: -move[0])
        return found

    def value(self, sm: int, om: int) -> int:
        """The mover's value: best future margin (general) or +1/0/-1 (simple)."""
        if self.simple:
            return self._simple(sm, om)
        return self._general(sm, om, -999, 999)

    def child_value(self, sm: int, om: int, cell: int, is_s: bool) -> int:
        """The mover's value after playing ``cell`` (S if ``is_s``) here."""
        bit = 1 << cell
        if is_s:
            points = sum(1 for o, s in self.for_s[cell] if om & o and sm & s)
            child = (sm | bit, om)
        else:
            points = sum(1 for a, b in self.for_o[cell] if sm & a and sm & b)
            child = (sm, om | bit)
        if self.simple:
            if points:
                return 1
            return 0 if (child[0] | child[1]) == self.full else -self._simple(*child)
        if points:
            return points + self._general(*child, -999, 999)
        return -self._general(*child, -999, 999)

    def _general(self, sm: int, om: int, alpha: int, beta: int) -> int:
        if sm | om == self.full:
            return 0
        self._tick()
        key = sm | (om << self.n)
        entry = self.table.get(key)
        if entry is not None:
            lo, hi = entry
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
            alpha, beta = max(alpha, lo), min(beta, hi)
        else:
            lo, hi = -999, 999
        a0 = alpha
        best = -999
        for _, points, i, is_s in self.moves(sm, om):
            bit = 1 << i
            child = (sm | bit, om) if is_s else (sm, om | bit)
            if points:
                v = points + self._general(*child, alpha - points, beta - points)
            else:
                v = -self._general(*child, -beta, -alpha)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        if best <= a0:
            hi = best
        elif best >= beta:
            lo = best
        else:
            lo = hi = best
        self.table[key] = (lo, hi)
        return best

    def _simple(self, sm: int, om: int) -> int:
        key = sm | (om << self.n)
        known = self.table.get(key)
        if known is not None:
            return known
        self._tick()
        taken = sm | om
        best = -1  # with no safe move, every move hands the opponent an SOS
        safe = []
        for i in range(self.n):
            bit = 1 << i
            if taken & bit:
                continue
            if any(om & o and sm & s for o, s in self.for_s[i]) or any(
                    sm & a and sm & b for a, b in self.for_o[i]):
                self.table[key] = 1
                return 1
            if (taken | bit) == self.full:
                best = 0  # the last cell, and it scores nothing: a draw
                continue
            if not any((om & o and not taken & far) or (sm & far and not taken & o)
                       for o, far in self.for_s[i]):
                safe.append((sm | bit, om))
            if not any((sm & a and not taken & b) or (sm & b and not taken & a)
                       for a, b in self.for_o[i]):
                safe.append((sm, om | bit))
        for child in safe:
            v = -self._simple(*child)
            if v > best:
                best = v
                if best == 1:
                    break
        self.table[key] = best
        return best

    def best_move(self, sm: int, om: int) -> tuple[int, int, bool]:
        """``(value, cell, is_s)`` of an optimal move, the first in move order among equals."""
        best = (-999, -1, True)
        for _, points, i, is_s in self.moves(sm, om):
            bit = 1 << i
            child = (sm | bit, om) if is_s else (sm, om | bit)
            if self.simple:
                if points:
                    return 1, i, is_s
                v = 0 if (child[0] | child[1]) == self.full else -self._simple(*child)
            elif points:
                v = points + self._general(*child, best[0] - points, 999)
            else:
                v = -self._general(*child, -999, -best[0])
            if v > best[0]:
                best = (v, i, is_s)
                if self.simple and v == 1:
                    break
        return best
