"""Perfect play for the first player on 5x5 in simple mode, from the solve of ``tools/solve5``.

Simple 5x5 is a first-player win: an S in the centre cell wins against every defence
(``tools/solve5/certificates/simple5-centre.cert.xz`` is the proof, checked in pure Python by
``python -m sos_tui.ai.certificate``). ``book5_data.py`` holds that winning strategy's move at
every position of the first player with at least ``BOOK_EMPTIES`` empty cells (one board per
symmetry class, in ``symmetry.canonical``'s frame). Past the book, with at most ``SOLVE_EMPTIES``
cells empty, the first player's pure-Python solver finds the win in a tenth of a second or so: on
150 positions of the strategy with 15 empty cells, a median of 610 nodes and at most 21,257;
its budget here, ``MAX_NODES``, is ample (and keeps a position off the strategy, after an undo,
from costing more than a second).

Rebuild the data with the solver (a minute)::

    tools/solve5/build.sh && python tools/solve5/run.py book
"""

from __future__ import annotations

import lzma
from base64 import b64decode
from functools import cache

from sos_tui.engine.rules import GameState, Mode, Move

from .bitboard import grid, scoring
from .budget import OutOfBudget
from .solver import Solver

SIZE = 5
BOOK_EMPTIES = 17
SOLVE_EMPTIES = 15
MAX_NODES = 100_000


@cache
def entries() -> dict[str, tuple[int, str]]:
    """Canonical board -> (cell, letter) in that board's frame."""
    from .book5_data import DATA

    book = {}
    for line in lzma.decompress(b64decode(DATA)).decode().splitlines():
        board, cell, letter = line.split()
        book[board] = (int(cell), letter)
    return book


def book5_move(state: GameState) -> Move | None:
    """On a 5x5 simple board: an SOS on offer, else the strategy's move, else (the first player,
    few cells left) a win the solver finds quickly; or None."""
    if state.size != SIZE or state.mode is not Mode.SIMPLE or state.players != 2 or state.is_over:
        return None
    g = grid(SIZE)
    s, o = g.masks(state.board)
    offers = scoring(s, o, g.empty(s, o), g.dirs)
    if offers:  # the last move handed over an SOS: take it
        _, bit, is_s = offers[0]
        cell = g.cell(bit)
        return Move(cell // SIZE, cell % SIZE, "S" if is_s else "O")
    from .symmetry import canonical

    image, perm = canonical(state.board, SIZE)
    found = entries().get(image)
    if found is not None:
        index = perm[found[0]]
        return Move(index // SIZE, index % SIZE, found[1])
    if state.empty_cells > SOLVE_EMPTIES or state.to_move != 0:
        return None
    try:
        value, cell, letter = Solver(SIZE, Mode.SIMPLE, max_nodes=MAX_NODES).best_move(state.board)
    except OutOfBudget:
        return None
    return Move(cell // SIZE, cell % SIZE, letter) if value == 1 else None
