"""Exact two-player solving of small positions: memoised negamax on bitmask boards.

With two players the future of an SOS position depends only on the board: whoever is to move,
the best score margin they can still force from here (general mode), or whether they win, draw
or lose (simple mode: +1, 0, -1), is the same. So the transposition table is keyed by the board
alone, as two bitmasks (cells holding S, cells holding O).

Both modes search *padded* bitmasks: rows of size + 2 bits, the last two always blank, so
shifting a whole board by a direction never wraps a line round to the next row, and the cells
where a letter scores, is safe, or leaves one threat come from a few dozen big-integer
operations instead of a loop over the cells.
"""

from __future__ import annotations

import time
from functools import cache
from random import Random

from sos_tui.engine.rules import Mode

from .tactics import geometry

SURE = 1000  # a proven win (simple_search); leaves are worth at most PLAYOUTS
PLAYOUTS = 3


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


def safe_sets(sp: int, op: int, empty: int, dirs) -> tuple[int, int]:
    """On padded bitmask boards (S cells ``sp``, O cells ``op``, ``dirs`` the bit steps of the
    four directions): the empty cells where an S, and where an O, leaves no threat."""
    bad_s = bad_o = 0
    for d in dirs:
        e1, e2 = empty >> d, empty << d
        bad_s |= (op >> d) & (empty >> 2 * d) | (sp >> 2 * d) & e1 \
            | (op << d) & (empty << 2 * d) | (sp << 2 * d) & e2
        bad_o |= (sp >> d) & e2 | (sp << d) & e1
    return empty & ~bad_s, empty & ~bad_o


def threat_counts(sp: int, op: int, empty: int, dirs) -> tuple[int, int, int, int]:
    """Like ``safe_sets``, but counting: cells where an S leaves at least one threat, at least
    two; then the same for an O (bit-sliced counters over the lines through each cell)."""
    s1 = s2 = o1 = o2 = 0
    for d in dirs:
        e1, e2 = empty >> d, empty << d
        for made in ((op >> d) & (empty >> 2 * d), (sp >> 2 * d) & e1,
                     (op << d) & (empty << 2 * d), (sp << 2 * d) & e2):
            s2 |= s1 & made
            s1 |= made
        for made in ((sp >> d) & e2, (sp << d) & e1):
            o2 |= o1 & made
            o1 |= made
    return s1, s2, o1, o2


def one_threat(sp: int, op: int, empty: int, dirs) -> tuple[int, int]:
    """The empty cells where an S, and where an O, leaves exactly one threat."""
    s1, s2, o1, o2 = threat_counts(sp, op, empty, dirs)
    return empty & s1 & ~s2, empty & o1 & ~o2


def cell_moves(cells_s: int, cells_o: int) -> list[tuple[int, bool]]:
    """``(cell bit, is it an S)`` for every allowed letter of every cell, lowest cell first."""
    moves = []
    cells = cells_s | cells_o
    while cells:
        bit = cells & -cells
        cells ^= bit
        if cells_s & bit:
            moves.append((bit, True))
        if cells_o & bit:
            moves.append((bit, False))
    return moves


def random_move(cells_s: int, cells_o: int, rng: Random, pbits: int) -> tuple[int, bool]:
    """A random (cell bit, is it an S) for a playout, where ``cells_s`` and ``cells_o`` are the
    cells allowed for each letter (the safe ones, say): the first allowed cell at or after a
    random bit, either letter where both are allowed."""
    cells = cells_s | cells_o
    p = rng.randrange(pbits)
    above = cells >> p
    bit = (above & -above) << p if above else cells & -cells
    return bit, bool(cells_s & bit and (not cells_o & bit or rng.random() < 0.5))


class Solver:
    """Solve positions of one board size and mode; the table persists across calls."""

    def __init__(self, size: int, mode: Mode | str, deadline: float | None = None,
                 max_nodes: int | None = None):
        self.n, self.for_s, self.for_o = _tables(size)
        self.size = size
        width = size + 2
        self.pbits = size * width
        self.valid = sum(((1 << size) - 1) << (r * width) for r in range(size))
        self.dirs = (1, width, width + 1, width - 1)
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
        return self._general_padded(self._pad(sm), self._pad(om), alpha, beta)

    def _points(self, sp: int, op: int, bit: int, is_s: bool) -> int:
        """SOS lines completed by an S (or O) at ``bit`` of a padded board."""
        points = 0
        for d in self.dirs:
            if is_s:
                points += bool((op >> d) & (sp >> 2 * d) & bit) + bool((op << d) & (sp << 2 * d) & bit)
            else:
                points += bool((sp >> d) & (sp << d) & bit)
        return points

    def _general_moves(self, sp: int, op: int, empty: int, first):
        """Every move of a padded board, lazily, in a good order for alpha-beta: the table's best
        move, scoring moves (most points first), safe moves, moves leaving one threat, the rest."""
        if first is not None:
            yield first
        win_s = win_o = 0
        for d in self.dirs:
            win_s |= (op >> d) & (sp >> 2 * d) | (op << d) & (sp << 2 * d)
            win_o |= (sp >> d) & (sp << d)
        bad_s1, bad_s2, bad_o1, bad_o2 = threat_counts(sp, op, empty, self.dirs)
        win_s &= empty
        win_o &= empty
        if win_s | win_o:
            scoring = []
            for wins, is_s in ((win_s, True), (win_o, False)):
                while wins:
                    bit = wins & -wins
                    wins ^= bit
                    scoring.append((self._points(sp, op, bit, is_s), bit, is_s))
            scoring.sort(key=lambda move: -move[0])
            for _, bit, is_s in scoring:
                yield bit, is_s
        rest_s, rest_o = empty & ~win_s, empty & ~win_o
        for ms, mo in ((rest_s & ~bad_s1, rest_o & ~bad_o1),
                       (rest_s & bad_s1 & ~bad_s2, rest_o & bad_o1 & ~bad_o2),
                       (rest_s & bad_s2, rest_o & bad_o2)):
            yield from cell_moves(ms, mo)

    def _general_padded(self, sp: int, op: int, alpha: int, beta: int) -> int:
        """General mode: the best margin the mover can still force on a padded board."""
        empty = self.valid & ~(sp | op)
        if not empty:
            return 0
        self._tick()
        key = sp | (op << self.pbits)
        entry = self.table.get(key)
        first = None
        if entry is not None:
            lo, hi, first = entry
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
            alpha, beta = max(alpha, lo), min(beta, hi)
        else:
            lo, hi = -999, 999
        a0 = alpha
        best, best_move = -999, None
        for move in self._general_moves(sp, op, empty, first):
            if move == first and best_move is not None:
                continue  # already searched first
            bit, is_s = move
            points = self._points(sp, op, bit, is_s)
            child = (sp | bit, op) if is_s else (sp, op | bit)
            if points:
                v = points + self._general_padded(*child, alpha - points, beta - points)
            else:
                v = -self._general_padded(*child, -beta, -alpha)
            if v > best:
                best, best_move = v, move
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
        self.table[key] = (lo, hi, best_move)
        return best

    def _simple(self, sm: int, om: int) -> int:
        """Simple mode: +1/0/-1 for the mover; the board may hold a threat (then the mover wins)."""
        sp, op = self._pad(sm), self._pad(om)
        if self._scores(sp, op):
            self._tick()
            return 1
        return self._simple_safe(sp, op)

    def _pad(self, mask: int) -> int:
        size, out = self.size, 0
        for r in range(size):
            out |= ((mask >> (r * size)) & ((1 << size) - 1)) << (r * (size + 2))
        return out

    def _scores(self, sp: int, op: int) -> bool:
        empty = self.valid & ~(sp | op)
        for d in self.dirs:
            if empty & ((op >> d) & (sp >> 2 * d) | (op << d) & (sp << 2 * d) | (sp >> d) & (sp << d)):
                return True
        return False

    def _simple_safe(self, sp: int, op: int) -> int:
        """``_simple`` for a padded board without a threat on it."""
        key = sp | (op << self.pbits)
        known = self.table.get(key)
        if known is not None:
            return known
        self._tick()
        empty = self.valid & ~(sp | op)
        if not empty & (empty - 1):
            self.table[key] = 0  # the last cell, and it scores nothing (no threat): a draw
            return 0
        safe_s, safe_o = self._safe_sets(sp, op, empty)
        best = -1  # with no safe move, every move hands the opponent an SOS
        cells = safe_s | safe_o
        while cells:
            bit = cells & -cells
            cells ^= bit
            if safe_s & bit:
                v = -self._simple_safe(sp | bit, op)
                if v > best:
                    best = v
                    if best == 1:
                        break
            if safe_o & bit:
                v = -self._simple_safe(sp, op | bit)
                if v > best:
                    best = v
                    if best == 1:
                        break
        self.table[key] = best
        return best

    def _safe_sets(self, sp: int, op: int, empty: int) -> tuple[int, int]:
        return safe_sets(sp, op, empty, self.dirs)

    def simple_search(self, sm: int, om: int, max_depth: int, seed: int = 0) -> tuple[int, int, bool] | None:
        """Simple mode, a board without a threat: ``(value, cell, is_s)`` of the best safe move by
        a full-width alpha-beta search of the safe-move game to ``max_depth`` (iterative
        deepening, a table keyed by the board), or None if no move is safe. Leaves are valued by
        random playouts (``_estimate``); a lost or won position found on the way is exact
        (+/-SURE). A proven loss keeps the move of the last depth that still had hope.
        Within the deadline / node budget the best move so far is kept (OutOfBudget only if
        not even one root move was searched)."""
        self.seed = seed
        sp, op = self._pad(sm), self._pad(om)
        empty = self.valid & ~(sp | op)
        moves = cell_moves(*self._safe_sets(sp, op, empty))
        if not moves:
            return None
        self.ltable: dict[int, tuple] = {}
        self.estimates: dict[int, int] = {}
        best = None
        for depth in range(1, max_depth + 1):
            alpha, found = -SURE - 1, None
            try:
                for bit, is_s in moves:
                    child = (sp | bit, op) if is_s else (sp, op | bit)
                    v = -self._limited(*child, depth - 1, -SURE - 1, -alpha)
                    if v > alpha:
                        alpha, found = v, (v, bit, is_s)
            except OutOfBudget:
                if found is not None and (best is None or found[0] > -SURE):
                    best = found
                if best is None:
                    raise
                break
            if found[0] <= -SURE and best is not None:
                break  # every move loses against perfect play: keep the last hopeful choice
            best = found
            moves.remove((found[1], found[2]))
            moves.insert(0, (found[1], found[2]))
            if abs(found[0]) >= SURE or depth >= empty.bit_count():
                break
        value, bit, is_s = best
        p = bit.bit_length() - 1
        return value, (p // (self.size + 2)) * self.size + p % (self.size + 2), is_s

    def _estimate(self, sp: int, op: int, key: int) -> int:
        """The sum over PLAYOUTS random games of safe moves from here of +1 (the mover made the
        last safe move: the opponent must hand over an SOS), -1 (the other way round) or 0 (the
        board filled up). On 6x6 this predicts the exact result of positions with 16-24 safe
        moves about 4 times in 5; the parity of the number of safe cells, about half the time.
        The random choices are seeded by the position, so the result is deterministic."""
        known = self.estimates.get(key)
        if known is not None:
            return known
        rng = Random(key ^ self.seed)
        valid, pbits, total, steps = self.valid, self.pbits, 0, 0
        for _ in range(PLAYOUTS):
            s, o, n = sp, op, 0
            while True:
                empty = valid & ~(s | o)
                if not empty:
                    n = -1
                    break
                safe_s, safe_o = self._safe_sets(s, o, empty)
                cells = safe_s | safe_o
                if not cells:
                    break
                bit, is_s = random_move(safe_s, safe_o, rng, pbits)
                if is_s:
                    s |= bit
                else:
                    o |= bit
                n += 1
                steps += 1
            if n >= 0:
                total += 1 if n & 1 else -1
        self.nodes += steps  # a playout move costs about what a search node does
        if (self.deadline is not None and time.perf_counter() > self.deadline) or (
                self.max_nodes is not None and self.nodes > self.max_nodes):
            raise OutOfBudget
        self.estimates[key] = total
        return total

    def _limited(self, sp: int, op: int, depth: int, alpha: int, beta: int) -> int:
        self._tick()
        empty = self.valid & ~(sp | op)
        if not empty & (empty - 1):
            return 0  # the last cell: a draw
        key = sp | (op << self.pbits)
        entry = self.ltable.get(key)
        first = None
        if entry is not None:
            stored, lo, hi, first = entry
            if stored >= depth:
                if lo >= beta or lo == hi:
                    return lo
                if hi <= alpha:
                    return hi
        safe_s, safe_o = self._safe_sets(sp, op, empty)
        cells = safe_s | safe_o
        if not cells:
            return -SURE
        if depth <= 0:
            return self._estimate(sp, op, key)
        a0 = alpha
        best, best_move = -SURE - 1, None
        order = cell_moves(safe_s, safe_o)
        if first is not None:
            order.insert(0, first)
        for move in order:
            bit, is_s = move
            v = -self._limited(sp | bit, op, depth - 1, -beta, -alpha) if is_s \
                else -self._limited(sp, op | bit, depth - 1, -beta, -alpha)
            if v > best:
                best, best_move = v, move
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        lo = best if best > a0 else -SURE - 1
        hi = best if best < beta else SURE + 1
        stored = 999 if abs(best) >= SURE else depth  # a proven result holds at any depth
        self.ltable[key] = (stored, lo, hi, best_move)
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
