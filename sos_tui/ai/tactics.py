"""Facts about a board for the heuristic search: points on offer, threats and safe moves.

Boards here are anything indexable by cell index (the engine's board string, or the list of
characters that ``search.SearchBoard`` writes into); ``bitboard.py`` answers the same questions
on bitmasks, and ``tests/test_properties.py`` checks that the two agree. ``geometry(size)``
turns the engine's ``triples(size)`` into plain index pairs, so the checks below are a few
comparisons per cell.

A *threat* is a triple with two cells already in an SOS-completing pattern (``S_S``, ``SO_``,
``_OS``) and the third cell empty: whoever moves next can score there. A move is *safe* when it
scores nothing and leaves no threat behind.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from sos_tui.engine.rules import EMPTY, triples


class Geometry(NamedTuple):
    """``for_s[i]``: (o, s) index pairs an S at i completes with; ``for_o[i]``: (s1, s2) pairs."""

    size: int
    for_s: tuple[tuple[tuple[int, int], ...], ...]
    for_o: tuple[tuple[tuple[int, int], ...], ...]


@cache
def geometry(size: int) -> Geometry:
    table = triples(size)
    return Geometry(
        size,
        tuple(tuple((o, s) for o, s, _ in row) for row in table.for_s),
        tuple(tuple((a, b) for a, b, _ in row) for row in table.for_o),
    )


def gain(board, geo: Geometry, i: int, letter: str) -> int:
    """How many SOS lines writing ``letter`` at empty cell ``i`` completes."""
    if letter == "S":
        return sum(1 for o, s in geo.for_s[i] if board[o] == "O" and board[s] == "S")
    return sum(1 for a, b in geo.for_o[i] if board[a] == "S" and board[b] == "S")


@cache
def _neighbours(size: int) -> tuple[tuple[int, ...], ...]:
    geo = geometry(size)
    return tuple(tuple(sorted({j for pair in geo.for_s[i] + geo.for_o[i] for j in pair}))
                 for i in range(size * size))


def neighbours(geo: Geometry, i: int) -> tuple[int, ...]:
    """The cells that share a straight triple with cell ``i``: the only ones whose gains a letter
    at ``i`` can change."""
    return _neighbours(geo.size)[i]


def threats_made(board, geo: Geometry, i: int, letter: str, stop_at: int = 99) -> int:
    """How many threats writing ``letter`` at empty cell ``i`` would create (up to ``stop_at``)."""
    made = 0
    if letter == "S":
        for m, b in geo.for_s[i]:
            bm, bb = board[m], board[b]
            if (bm == "O" and bb == EMPTY) or (bm == EMPTY and bb == "S"):
                made += 1
                if made >= stop_at:
                    break
    else:
        for a, b in geo.for_o[i]:
            ba, bb = board[a], board[b]
            if (ba == "S" and bb == EMPTY) or (ba == EMPTY and bb == "S"):
                made += 1
                if made >= stop_at:
                    break
    return made


def is_safe(board, geo: Geometry, i: int, letter: str) -> bool:
    """Writing ``letter`` at ``i`` creates no threat (assumes none exists already)."""
    return not threats_made(board, geo, i, letter, 1)


def scoring_moves(board, geo: Geometry) -> list[tuple[int, int, str]]:
    """Every ``(points, cell, letter)`` that scores now, most points first."""
    found = []
    for i, here in enumerate(board):
        if here == EMPTY:
            for letter in "SO":
                points = gain(board, geo, i, letter)
                if points:
                    found.append((points, i, letter))
    found.sort(key=lambda move: -move[0])
    return found


def safe_moves(board, geo: Geometry) -> list[tuple[int, str]]:
    """Every ``(cell, letter)`` that leaves no threat (call when nothing scores)."""
    return [(i, letter) for i, here in enumerate(board) if here == EMPTY
            for letter in "SO" if is_safe(board, geo, i, letter)]
