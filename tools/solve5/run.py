"""Drive the offline solver (tools/solve5/solve5.c): the root split, its checkpoints, the certificate.

    tools/solve5/build.sh                                  # once: builds tools/solve5/solve5
    python tools/solve5/run.py roots [--mode simple] [--tt-mb 6000]
        # every first move of 5x5 up to symmetry, each solved by a fresh process, one after the
        # other (one core); a line per move appended to tools/solve5/results/roots-MODE.txt. A
        # rerun skips the moves already there: the file is the checkpoint.
    python tools/solve5/run.py empty [--mode simple]       # the empty board's value, one search
    python tools/solve5/run.py certificate                 # writes certificates/simple5-centre.cert.xz
    python tools/solve5/run.py book                        # writes sos_tui/ai/book5_data.py
    python tools/solve5/run.py openings
        # each first move's value of results/roots-simple.txt, certified and checked in pure
        # Python: a win by the first player's strategy, a draw by both players' strategies (each
        # about 3 million positions, a few minutes to check); a line per certificate appended to
        # results/openings-simple.txt, a rerun skips those done. The certificates (1-2 MB each,
        # not committed) stay in results/openings/.
    python tools/solve5/run.py growth [--empties 18 20 22] [--seeds 3] [--timeout 3600]
        # general 5x5: seeded positions of reasonable play, nodes and seconds per solve, appended
        # to results/growth-general.txt (a rerun skips the positions already there)

Run long solves under ``nice -n 19``; ``--tt-mb`` sizes the transposition table (default 6000).
"""

from __future__ import annotations

import argparse
import base64
import lzma
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from random import Random

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))

from sos_tui.ai.bitboard import cell_moves, grid, one_threat, place, points, safe_sets, wins  # noqa: E402
from sos_tui.ai.certificate import Claim, write  # noqa: E402
from sos_tui.ai.symmetry import canonical  # noqa: E402

BINARY = HERE / "solve5"
RESULTS = HERE / "results"
CERTIFICATES = HERE / "certificates"
SIZE = 5
CENTRE_S = "." * 12 + "S" + "." * 12


def solve5(*args: str, tt_mb: int = 6000, mode: str = "simple", log: Path | None = None) -> str:
    """The solver's output; its progress lines (every 67 million nodes) go to ``log``."""
    if not BINARY.exists():
        subprocess.run([str(HERE / "build.sh")], check=True)
    mtd = ["--mtd", "1"] if mode == "general" else []  # null-window tests from 0: a few % fewer nodes
    with open(log or os.devnull, "a") as progress:
        out = subprocess.run([str(BINARY), "--mode", mode, "--tt-mb", str(tt_mb), *mtd, *args],
                             check=True, stdout=subprocess.PIPE, stderr=progress, text=True)
    return out.stdout


def first_moves(board: str) -> list[tuple[int, str]]:
    """One move per class of boards symmetric after it."""
    seen, moves = set(), []
    for cell in range(len(board)):
        for letter in "SO":
            if board[cell] != ".":
                continue
            image = canonical(board[:cell] + letter + board[cell + 1:], SIZE)[0]
            if image not in seen:
                seen.add(image)
                moves.append((cell, letter))
    return moves


def roots(mode: str, tt_mb: int) -> None:
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"roots-{mode}.txt"
    done = path.read_text() if path.exists() else ""
    for cell, letter in first_moves("." * SIZE * SIZE):
        name = f"{cell}{letter}"
        if re.search(rf"^move {name} ", done, re.M):
            continue
        child = "." * cell + letter + "." * (SIZE * SIZE - cell - 1)
        start = time.perf_counter()
        log = RESULTS / f"roots-{mode}.log"  # not committed: how far the move in hand has got
        with log.open("a") as f:
            f.write(f"move {name}\n")
        out = solve5("value", child, tt_mb=tt_mb, mode=mode, log=log)
        value, nodes = re.search(r"value ([-+]\d+) nodes (\d+)", out).groups()
        # the child's value is the second player's: the first move is worth its negation
        line = (f"move {name} cell {cell} letter {letter} value {-int(value):+d} nodes {nodes} "
                f"seconds {time.perf_counter() - start:.1f}\n")
        print(line, end="", flush=True)
        with path.open("a") as f:
            f.write(line)


def empty(mode: str, tt_mb: int) -> None:
    start = time.perf_counter()
    out = solve5("value", "." * SIZE * SIZE, tt_mb=tt_mb, mode=mode)
    print(out.strip(), f"(wall {time.perf_counter() - start:.1f} s)")


def certificate(tt_mb: int) -> None:
    CERTIFICATES.mkdir(exist_ok=True)
    raw = RESULTS / "simple5-centre.bin"
    RESULTS.mkdir(exist_ok=True)
    print(solve5("certificate", CENTRE_S, "1", str(raw), tt_mb=tt_mb).strip())
    path = CERTIFICATES / "simple5-centre.cert.xz"
    write(path, Claim(SIZE, CENTRE_S, False, 1), raw.read_bytes())
    raw.unlink()
    print(f"wrote {path.relative_to(ROOT)} ({path.stat().st_size} bytes)")


def book(tt_mb: int) -> None:
    """The strategy's moves at the first player's positions with at least BOOK_EMPTIES empty
    cells, each in ``symmetry.canonical``'s frame, for ``ai/book5.py``."""
    from sos_tui.ai.book5 import BOOK_EMPTIES

    out = solve5("strategy", CENTRE_S, "1", str(BOOK_EMPTIES - 1), tt_mb=tt_mb)
    lines = {canonical("." * SIZE * SIZE, SIZE)[0]: f"{SIZE * SIZE // 2} S"}
    for row in out.splitlines():
        board, cell, letter = row.split()
        image, perm = canonical(board, SIZE)
        lines[image] = f"{perm.index(int(cell))} {letter}"
    text = "".join(f"{image} {move}\n" for image, move in sorted(lines.items()))
    data = base64.b64encode(lzma.compress(text.encode(), preset=9 | lzma.PRESET_EXTREME)).decode()
    body = "\n".join(f'    "{data[i:i + 100]}"' for i in range(0, len(data), 100))
    path = ROOT / "sos_tui" / "ai" / "book5_data.py"
    doc = ('"""Generated by ``python tools/solve5/run.py book``: the first player\'s winning moves '
           "on 5x5 simple,\nas xz-compressed lines 'canonical-board cell letter' (see book5.py).\"\"\"")
    path.write_text(f"{doc}\n\n# {len(lines)} positions\nDATA = (\n{body}\n)\n")
    print(f"wrote {path.relative_to(ROOT)}: {len(lines)} positions, {path.stat().st_size} bytes")


def openings(tt_mb: int) -> None:
    from sos_tui.ai.certificate import check, read

    path = RESULTS / "openings-simple.txt"
    done = path.read_text() if path.exists() else ""
    (RESULTS / "openings").mkdir(parents=True, exist_ok=True)
    for line in (RESULTS / "roots-simple.txt").read_text().splitlines():
        fields = line.split()
        name, cell, letter, value = fields[1], int(fields[3]), fields[5], int(fields[7])
        child = "." * cell + letter + "." * (SIZE * SIZE - cell - 1)
        # side 1: the first player (not to move after its opening) keeps the value; for a draw,
        # side 0 too: the second player keeps it
        for side in ((1,) if value else (1, 0)):
            if value < 0:
                break  # no opening of 5x5 loses; a loss would be certified from the other side
            who = "first" if side == 1 else "second"
            if re.search(rf"^move {name} player {who} ", done, re.M):
                continue
            raw = RESULTS / "openings" / f"{name}-{who}.bin"
            start = time.perf_counter()
            solve5("certificate", child, str(side), str(raw), tt_mb=tt_mb)
            cert = raw.with_suffix(".cert.xz")
            write(cert, Claim(SIZE, child, side == 0, value if side == 1 else -value), raw.read_bytes())
            raw.unlink()
            made = time.perf_counter() - start
            checked = check(*read(cert))
            out = (f"move {name} player {who} keeps {value if side == 1 else -value:+d} positions "
                   f"{checked.strategist} bytes {cert.stat().st_size} written {made:.0f} s "
                   f"checked {checked.seconds:.0f} s: proved\n")
            print(out, end="", flush=True)
            with path.open("a") as f:
                f.write(out)


def reasonable_position(empties: int, seed: int) -> str:
    """A position of general 5x5 after random reasonable moves (take an SOS on offer, else a
    safe move, else one leaving a single threat, else any), ``empties`` cells left."""
    g = grid(SIZE)
    rng = Random(seed)
    s = o = 0
    while g.empty(s, o).bit_count() > empties:
        empty = g.empty(s, o)
        win_s, win_o = wins(s, o, empty, g.dirs)
        for cells in (cell_moves(win_s, win_o), cell_moves(*safe_sets(s, o, empty, g.dirs)),
                      cell_moves(*one_threat(s, o, empty, g.dirs)), cell_moves(empty, empty)):
            if cells:
                bit, is_s = rng.choice(cells)
                break
        points(s, o, bit, is_s, g.dirs)
        s, o = place(s, o, bit, is_s)
    return "".join("S" if s & g.bit(i) else "O" if o & g.bit(i) else "." for i in range(SIZE * SIZE))


def growth(empties: list[int], seeds: int, timeout: float, tt_mb: int) -> None:
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / "growth-general.txt"
    done = path.read_text() if path.exists() else ""
    for n in empties:
        for seed in range(seeds):
            board = reasonable_position(n, seed)
            if f" {board} " in done:
                continue
            start = time.perf_counter()
            try:
                out = subprocess.run(["timeout", str(timeout), str(BINARY), "--mode", "general", "--tt-mb",
                                      str(tt_mb), "value", board], capture_output=True, text=True)
            except OSError as error:
                sys.exit(str(error))
            found = re.search(r"value ([-+]\d+) nodes (\d+)", out.stdout)
            if found:
                result = f"value {found[1]} nodes {found[2]}"
            else:  # cut off: the last progress line says how far it got
                seen = re.findall(r"\.\.\. (\d+) nodes", out.stderr)
                result = f"value ? nodes >{seen[-1] if seen else 0}"
            line = (f"empties {n} seed {seed} board {board} {result} "
                    f"seconds {time.perf_counter() - start:.1f}\n")
            print(line, end="", flush=True)
            with path.open("a") as f:
                f.write(line)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("command", choices=("roots", "empty", "certificate", "book", "openings", "growth"))
    parser.add_argument("--mode", default="simple", choices=("simple", "general"))
    parser.add_argument("--tt-mb", type=int, default=6000)
    parser.add_argument("--empties", type=int, nargs="+", default=[18, 20, 22])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=3600)
    args = parser.parse_args(argv)
    if args.command == "roots":
        roots(args.mode, args.tt_mb)
    elif args.command == "empty":
        empty(args.mode, args.tt_mb)
    elif args.command == "certificate":
        certificate(args.tt_mb)
    elif args.command == "book":
        book(args.tt_mb)
    elif args.command == "openings":
        openings(args.tt_mb)
    else:
        growth(args.empties, args.seeds, args.timeout, args.tt_mb)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
