"""The padded bitmask board: the one place in ``ai/`` where the SOS rule is written as bit shifts.

A board is two ints: the cells holding S (``s``) and the cells holding O (``o``). Each row takes
``size + 2`` bits, the last two always blank, so shifting a whole board by one step in a
direction never wraps a line round to the next row. Shifting by ``d`` (1 along a row, ``width``
down a column, ``width +/- 1`` along the diagonals) lines every cell up with its neighbour, so
the cells where a letter scores, is safe or leaves one threat come from a few dozen big-integer
operations instead of a loop over the cells. The exact solver, the safe-move search, the
heuristic search (and its playouts) and the medium player all work on these boards.

A *threat* is a triple with two cells in an SOS-completing pattern (``S_S``, ``SO_``, ``_OS``)
and the third empty. A move is *safe* when it scores nothing and leaves no threat.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from random import Random

Moves = list[tuple[int, bool]]  # (cell bit, is it an S)


@dataclass(frozen=True)
class Grid:
    """The geometry of a padded ``size`` x ``size`` board."""

    size: int
    width: int  # bits per row: size + 2
    bits: int  # bits per board: shift the O mask by this to key a table by one int
    valid: int  # the mask of the real cells
    dirs: tuple[int, int, int, int]

    def bit(self, cell: int) -> int:
        """The bit of cell index ``cell`` (row-major, as in the engine's board string)."""
        return 1 << ((cell // self.size) * self.width + cell % self.size)

    def cell(self, bit: int) -> int:
        """The cell index of a single-bit mask."""
        p = bit.bit_length() - 1
        return (p // self.width) * self.size + p % self.width

    def masks(self, board: str) -> tuple[int, int]:
        """The (S cells, O cells) masks of an engine board string."""
        s = o = 0
        for i, here in enumerate(board):
            if here == "S":
                s |= self.bit(i)
            elif here == "O":
                o |= self.bit(i)
        return s, o

    def empty(self, s: int, o: int) -> int:
        return self.valid & ~(s | o)


@cache
def grid(size: int) -> Grid:
    width = size + 2
    valid = sum(((1 << size) - 1) << (r * width) for r in range(size))
    return Grid(size, width, size * width, valid, (1, width, width + 1, width - 1))


@cache
def neighbours(size: int) -> dict[int, int]:
    """For each cell bit, the other cells of the straight triples through it: the only cells
    whose points a letter written there can change."""
    g = grid(size)
    found = {}
    for cell in range(size * size):
        bit = near = g.bit(cell)
        for d in g.dirs:
            for first in (bit, bit >> d, bit >> 2 * d):  # the cell first, middle or last
                line = first | first << d | first << 2 * d
                if first and line & g.valid == line:
                    near |= line
        found[bit] = near ^ bit
    return found


# -- the rule: where a letter completes S-O-S -------------------------------------------------
def wins(s: int, o: int, empty: int, dirs) -> tuple[int, int]:
    """The empty cells where an S scores, and where an O scores. Along direction ``d``, an S
    completes S-O-S with an O at +d and an S at +2d, or the same towards -d; an O completes it
    between S's at -d and +d."""
    win_s = win_o = 0
    for d in dirs:
        win_s |= (o >> d) & (s >> 2 * d) | (o << d) & (s << 2 * d)
        win_o |= (s >> d) & (s << d)
    return win_s & empty, win_o & empty


def points(s: int, o: int, bit: int, is_s: bool, dirs) -> int:
    """How many SOS lines an S (or an O) at ``bit`` completes: the rule of ``wins`` at one cell."""
    total = 0
    if is_s:
        for d in dirs:
            total += bool(o & bit << d and s & bit << 2 * d) + bool(o & bit >> d and s & bit >> 2 * d)
    else:
        for d in dirs:
            total += bool(s & bit << d and s & bit >> d)
    return total


def open_lines(s: int, o: int, empty: int, dirs) -> int:
    """How many straight triples can still become an SOS: an empty cell or more, and no letter
    that does not fit (an S, then an O, then an S). Each scores at most once, so no player can
    make more points than this from here."""
    fit_s, fit_o = s | empty, o | empty
    total = 0
    for d in dirs:
        total += (fit_s & (fit_o >> d) & (fit_s >> 2 * d) & (empty | empty >> d | empty >> 2 * d)).bit_count()
    return total


def scoring(s: int, o: int, empty: int, dirs,
            won: tuple[int, int] | None = None) -> list[tuple[int, int, bool]]:
    """Every ``(points, bit, is_s)`` that scores now, most points first (then lowest cell, S first).
    ``won``: ``wins(s, o, empty, dirs)``, if the caller has it already."""
    win_s, win_o = won or wins(s, o, empty, dirs)
    found = [(points(s, o, bit, is_s, dirs), bit, is_s) for bit, is_s in cell_moves(win_s, win_o)]
    found.sort(key=lambda move: -move[0])
    return found


# -- threats and safety ---------------------------------------------------------------------
def _made(s: int, o: int, empty: int, d: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Along direction ``d``: the cells where an S makes a threat (SO_ both ways, S_S both ways),
    and where an O does (SO_ and _OS)."""
    e1, e2 = empty >> d, empty << d
    return (((o >> d) & (empty >> 2 * d), (s >> 2 * d) & e1, (o << d) & (empty << 2 * d), (s << 2 * d) & e2),
            ((s >> d) & e2, (s << d) & e1))


def safe_sets(s: int, o: int, empty: int, dirs) -> tuple[int, int]:
    """The empty cells where an S, and where an O, leaves no threat (and scores nothing, on a
    board without a threat): ``_made`` for every direction at once."""
    bad_s = bad_o = 0
    for d in dirs:
        e1, e2 = empty >> d, empty << d
        bad_s |= (o >> d) & (e1 >> d) | (o << d) & (e2 << d) | (s >> 2 * d) & e1 | (s << 2 * d) & e2
        bad_o |= (s >> d) & e2 | (s << d) & e1
    return empty & ~bad_s, empty & ~bad_o


def threat_counts(s: int, o: int, empty: int, dirs) -> tuple[int, int, int, int]:
    """Cells where an S leaves at least one threat, at least two; then the same for an O
    (bit-sliced counters over the lines through each cell)."""
    s1 = s2 = o1 = o2 = 0
    for d in dirs:
        by_s, by_o = _made(s, o, empty, d)
        for made in by_s:
            s2 |= s1 & made
            s1 |= made
        for made in by_o:
            o2 |= o1 & made
            o1 |= made
    return s1, s2, o1, o2


def one_threat(s: int, o: int, empty: int, dirs) -> tuple[int, int]:
    """The empty cells where an S, and where an O, leaves exactly one threat."""
    s1, s2, o1, o2 = threat_counts(s, o, empty, dirs)
    return empty & s1 & ~s2, empty & o1 & ~o2


def fewest_threats(s: int, o: int, empty: int, dirs) -> tuple[int, int]:
    """The empty cells where an S, and where an O, leaves the fewest threats but at least one
    (the fewest over both letters; none if no move leaves a threat)."""
    one_s, one_o = one_threat(s, o, empty, dirs)
    if one_s | one_o:  # the usual case, and cheaper than counting further
        return one_s, one_o
    # at[k]: the cells where the letter leaves more than k threats (an S at most 8, an O 4)
    at_s, at_o = [0] * 9, [0] * 5
    for d in dirs:
        by_s, by_o = _made(s, o, empty, d)
        for at, made in ((at_s, by_s), (at_o, by_o)):
            for m in made:
                for k in range(len(at) - 2, 0, -1):
                    at[k] |= at[k - 1] & m
                at[0] |= m
    for k in range(8):
        cells_s = empty & at_s[k] & ~at_s[k + 1]
        cells_o = empty & at_o[k] & ~at_o[k + 1] if k < 4 else 0
        if cells_s | cells_o:
            return cells_s, cells_o
    return 0, 0


# -- moves ----------------------------------------------------------------------------------
def cell_moves(cells_s: int, cells_o: int) -> Moves:
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


def random_move(cells_s: int, cells_o: int, rng: Random, bits: int) -> tuple[int, bool]:
    """A random (cell bit, is it an S) among the allowed cells of each letter: the first allowed
    cell at or after a random bit, either letter where both are allowed."""
    cells = cells_s | cells_o
    p = rng.randrange(bits)
    above = cells >> p
    bit = (above & -above) << p if above else cells & -cells
    return bit, bool(cells_s & bit and (not cells_o & bit or rng.random() < 0.5))


def place(s: int, o: int, bit: int, is_s: bool) -> tuple[int, int]:
    return (s | bit, o) if is_s else (s, o | bit)


# -- greedy chains --------------------------------------------------------------------------
def greedy_chain(s: int, o: int, g: Grid) -> int:
    """The points the player to move collects by taking, while anything scores, the move that
    completes the most lines (the first in cell order among equals)."""
    total = 0
    while True:
        offers = scoring(s, o, g.empty(s, o), g.dirs)
        if not offers:
            return total
        gained, bit, is_s = offers[0]
        total += gained
        s, o = place(s, o, bit, is_s)


def sacrifice_costs(s: int, o: int, g: Grid) -> list[tuple[int, int, bool]]:
    """``(cost, bit, is_s)`` for every move, cheapest first: the cost of a move is the greedy
    chain (``greedy_chain``) it leaves the next player."""
    found = []
    for bit, is_s in cell_moves(g.empty(s, o), g.empty(s, o)):
        found.append((greedy_chain(*place(s, o, bit, is_s), g), bit, is_s))
    found.sort(key=lambda move: move[0])
    return found


# -- playouts -------------------------------------------------------------------------------
def safe_playout(s: int, o: int, g: Grid, rng: Random) -> tuple[int, int]:
    """Random safe moves from a board without a threat until none is left: returns how many
    were made, and -1 if the board filled up instead (else 0)."""
    made = 0
    while True:
        empty = g.empty(s, o)
        if not empty:
            return made, -1
        safe_s, safe_o = safe_sets(s, o, empty, g.dirs)
        if not safe_s | safe_o:
            return made, 0
        s, o = place(s, o, *random_move(safe_s, safe_o, rng, g.bits))
        made += 1


def general_playout(s: int, o: int, g: Grid, rng: Random, plies: int = 60) -> tuple[int, int]:
    """One random game of reasonable moves, to the end or ``plies`` moves: take an SOS on offer
    (the first cell), else a random safe move, else a random move leaving one threat (any move,
    if none does). Returns the margin of the player to move now, and the moves played."""
    margin, me, moves, quiet = 0, True, 0, False
    while moves < plies and (empty := g.empty(s, o)):
        moves += 1
        if not quiet:
            win_s, win_o = wins(s, o, empty, g.dirs)
            if win_s | win_o:
                cells, is_s = (win_s, True) if win_s else (win_o, False)
                bit = cells & -cells
                gained = points(s, o, bit, is_s, g.dirs)
                margin += gained if me else -gained
                s, o = place(s, o, bit, is_s)
                continue
        safe_s, safe_o = safe_sets(s, o, empty, g.dirs)
        quiet = bool(safe_s | safe_o)  # a safe move on a board without a threat leaves none
        if quiet:
            move = random_move(safe_s, safe_o, rng, g.bits)
        else:
            one_s, one_o = one_threat(s, o, empty, g.dirs)
            move = random_move(one_s, one_o, rng, g.bits) if one_s | one_o \
                else random_move(empty, empty, rng, g.bits)
        s, o = place(s, o, *move)
        me = not me
    return margin, moves
