"""Check a solved value without the solver: a strategy written down, and every answer to it tried.

A certificate says: from ``board``, in two-player simple mode, the *strategist* (the player to
move, or the other one) can keep at least ``target`` (+1 a win, 0 a draw). It is the
strategist's move at every position it can meet, as a byte stream in the order of one
depth-first walk (``tools/solve5/solve5 certificate`` writes it; xz-compressed on disk):

- at a position of the strategist's, met for the first time (no board of its symmetry class
  seen before with the strategist to move), the next byte is its move: ``cell * 2`` for an S,
  ``cell * 2 + 1`` for an O (cells row-major). A move may not hand over an SOS;
- at a position of the opponent's, met for the first time, every safe move (no SOS, no threat
  left) is followed, cells in row-major order, S before O. Any other move leaves a threat: the
  strategist completes that SOS next and wins, so it needs no byte;
- a position met before is skipped: the first visit checked it, and the rules do not change
  under a rotation or reflection of the board.

The checker walks the same order, reads the bytes, and fails if a byte is not a legal move, if a
move of the strategist hands over an SOS, if the board fills up when a win was claimed, if the
strategist runs out of safe moves, or if bytes are missing or left over. Nothing of the solver is
used: only the rule (``bitboard``: wins, safe sets), which ``tests/test_ai.py`` ties to the
engine.

    python -m sos_tui.ai.certificate tools/solve5/certificates/simple5-centre.cert.xz
"""

from __future__ import annotations

import json
import lzma
import sys
import time
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from sos_tui.engine.rules import Move

from .bitboard import cell_moves, grid, place, safe_sets, wins

MAGIC = b"SOS-CERT 1\n"


class CertificateError(ValueError):
    """The certificate does not prove what it claims."""


@dataclass(frozen=True)
class Claim:
    """What a certificate proves: from ``board`` (size x size, simple mode), the strategist keeps
    at least ``target``; the strategist is the player to move when ``strategist_moves``."""

    size: int
    board: str
    strategist_moves: bool
    target: int

    def header(self) -> bytes:
        return MAGIC + json.dumps({"size": self.size, "board": self.board,
                                   "strategist_moves": self.strategist_moves,
                                   "target": self.target}).encode() + b"\n"


@dataclass
class Checked:
    strategist: int = 0  # positions of the strategist checked (bytes read)
    opponent: int = 0  # positions of the opponent checked
    seconds: float = 0.0
    plies: int = 0  # the longest the game lasts under the strategy, in moves (the final SOS too)
    longest: list[str] = field(default_factory=list)  # such a game, in notation


def read(path: str | Path) -> tuple[Claim, bytes]:
    """The claim and the move stream of a certificate file (xz-compressed)."""
    data = lzma.decompress(Path(path).read_bytes())
    if not data.startswith(MAGIC):
        raise CertificateError(f"{path}: not a certificate")
    head, _, stream = data[len(MAGIC):].partition(b"\n")
    fields = json.loads(head)
    return Claim(fields["size"], fields["board"], fields["strategist_moves"], fields["target"]), stream


def write(path: str | Path, claim: Claim, stream: bytes) -> None:
    Path(path).write_bytes(lzma.compress(claim.header() + stream, preset=9 | lzma.PRESET_EXTREME))


@cache
def _class_tables(size: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For each of the 8 symmetries and each byte of a padded mask: the image of that byte's
    cells, as a row-major mask of size * size bits."""
    g = grid(size)
    n = size - 1
    maps = (lambda r, c: (r, c), lambda r, c: (c, n - r), lambda r, c: (n - r, n - c),
            lambda r, c: (n - c, r), lambda r, c: (r, n - c), lambda r, c: (n - r, c),
            lambda r, c: (c, r), lambda r, c: (n - c, n - r))
    nbytes = (g.bits + 7) // 8
    tables = []
    for f in maps:
        per_byte = []
        for b in range(nbytes):
            row = []
            for v in range(256):
                image = 0
                for i in range(8):
                    p = b * 8 + i
                    r, c = divmod(p, g.width)
                    if v >> i & 1 and r < size and c < size:
                        nr, nc = f(r, c)
                        image |= 1 << (nr * size + nc)
                row.append(image)
            per_byte.append(tuple(row))
        tables.append(tuple(per_byte))
    return tuple(tables)


def class_key(s: int, o: int, size: int) -> int:
    """One number for the symmetry class of a board: the least over its 8 images."""
    cells = size * size
    best = None
    for table in _class_tables(size):
        ts = to = 0
        for b, row in enumerate(table):
            ts |= row[s >> 8 * b & 255]
            to |= row[o >> 8 * b & 255]
        key = ts << cells | to
        if best is None or key < best:
            best = key
    return best


def check(claim: Claim, stream: bytes, limit: int | None = None) -> Checked:
    """Walk the strategy; raise CertificateError unless it keeps ``claim.target`` against every
    reply. ``limit``: stop quietly after this many strategist positions (a sample: the first
    part of the walk), else every byte must be used; then ``plies`` and ``longest`` say how long
    the opponent can last: the moves to the end of the game (the last SOS, or the full board)
    against the strategy, the opponent playing for the longest game."""
    g = grid(claim.size)
    dirs = g.dirs
    s, o = g.masks(claim.board)
    if claim.target not in (0, 1):
        raise CertificateError("the target is a win (1) or a draw (0)")
    if any(wins(s, o, g.empty(s, o), dirs)):
        raise CertificateError("the board holds a threat: whoever moves wins")
    seen: dict[int, int] = {}  # class key -> plies to the end, the opponent lasting longest
    played: dict[int, tuple[int, int, int, bool]] = {}  # the strategist's: (s, o, bit, is_s) first met
    done = Checked()
    start = time.perf_counter()
    pos = 0

    class Enough(Exception):
        pass

    def visit(s: int, o: int, mine: bool) -> int:
        nonlocal pos
        empty = g.empty(s, o)
        if not empty:
            if claim.target > 0:
                raise CertificateError("the board fills up: a draw, not a win")
            return 0
        key = class_key(s, o, claim.size) << 1 | mine
        if key in seen:  # checked in full: a position is never met again below itself
            return seen[key]
        seen[key] = -1
        if mine:
            if limit is not None and done.strategist >= limit:
                raise Enough
            if pos >= len(stream):
                raise CertificateError("the certificate ends too soon")
            byte = stream[pos]
            pos += 1
            done.strategist += 1
            cell, is_o = divmod(byte, 2)
            if cell >= claim.size * claim.size or not g.bit(cell) & empty:
                raise CertificateError(f"move {byte} is not an empty cell")
            child = place(s, o, g.bit(cell), not is_o)
            if any(wins(*child, g.empty(*child), dirs)):
                raise CertificateError(f"move {byte} hands the opponent an SOS")
            played[key] = (s, o, g.bit(cell), not is_o)
            seen[key] = 1 + visit(*child, False)
            return seen[key]
        done.opponent += 1
        # the board holds no threat, so nothing scores; a move that is not safe leaves a threat,
        # which the strategist completes next (2 moves). Only the safe moves are followed.
        safe_s, safe_o = safe_sets(s, o, empty, dirs)
        longest = 0 if safe_s == safe_o == empty else 2
        for bit, is_s in cell_moves(safe_s, safe_o):
            longest = max(longest, 1 + visit(*place(s, o, bit, is_s), True))
        seen[key] = longest
        return longest

    try:
        done.plies = visit(s, o, claim.strategist_moves)
    except Enough:
        pass
    else:
        if limit is None and pos != len(stream):
            raise CertificateError(f"{len(stream) - pos} bytes left over")
        done.longest = _longest(claim, seen, played)
    done.seconds = time.perf_counter() - start
    return done


def _longest(claim: Claim, seen: dict, played: dict) -> list[str]:
    """A longest game under the strategy, from the walk's tables."""
    from .symmetry import canonical

    size, g = claim.size, grid(claim.size)
    s, o = g.masks(claim.board)
    mine, line = claim.strategist_moves, []

    def text(s: int, o: int) -> str:
        return "".join("S" if s & g.bit(i) else "O" if o & g.bit(i) else "." for i in range(size * size))

    def name(bit: int, is_s: bool) -> str:
        return str(Move(*divmod(g.cell(bit), size), "S" if is_s else "O"))

    while g.empty(s, o):
        if mine:  # the strategist's move, turned from the board where it was first met to this one
            s0, o0, bit0, is_s = played[class_key(s, o, size) << 1 | 1]
            here, there = canonical(text(s, o), size)[1], canonical(text(s0, o0), size)[1]
            bit = g.bit(here[there.index(g.cell(bit0))])
        else:
            safe = cell_moves(*safe_sets(s, o, g.empty(s, o), g.dirs))
            if not safe:
                line.append("(any move leaves an SOS to complete)")
                break

            def lasts(move, s=s, o=o):
                child = place(s, o, *move)
                return seen[class_key(*child, size) << 1 | 1] if g.empty(*child) else 0

            bit, is_s = max(safe, key=lasts)
        line.append(name(bit, is_s))
        s, o = place(s, o, bit, is_s)
        mine = not mine
    return line


def main(argv: list[str]) -> int:
    if not argv or argv[0].startswith("-"):
        print("usage: python -m sos_tui.ai.certificate FILE.cert.xz [--sample N]", file=sys.stderr)
        return 2
    limit = int(argv[2]) if len(argv) > 2 and argv[1] == "--sample" else None
    claim, stream = read(argv[0])
    who = "the player to move" if claim.strategist_moves else "the player not to move"
    what = "wins" if claim.target == 1 else "at least draws"
    print(f"claim: on {claim.size}x{claim.size} simple, from {claim.board}, {who} {what}")
    try:
        done = check(claim, stream, limit)
    except CertificateError as error:
        print(f"REJECTED: {error}")
        return 1
    if limit is not None:
        print(f"checked the first {done.strategist} positions of the strategist, {done.opponent} of the "
              f"opponent ({done.seconds:.0f} s): no error so far")
        return 0
    print(f"checked {done.strategist} positions of the strategist, {done.opponent} of the opponent "
          f"({done.seconds:.0f} s): proved")
    print(f"the opponent lasts at most {done.plies} more moves: {', '.join(done.longest)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
