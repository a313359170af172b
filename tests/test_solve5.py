"""The offline solver of tools/solve5 and what the game takes from it: the certificate of simple
5x5 (checked in pure Python), the first player's book, and the values we already publish."""

from __future__ import annotations

import lzma
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from sos_tui.ai import book5
from sos_tui.ai.bitboard import cell_moves, grid, safe_sets, wins
from sos_tui.ai.certificate import CertificateError, Claim, check, class_key, read, write
from sos_tui.ai.players import computer_player
from sos_tui.ai.solver import Solver
from sos_tui.engine import GameState, Move

from .support.examples import examples, nightly

ROOT = Path(__file__).resolve().parents[1]
SOLVE5 = ROOT / "tools" / "solve5"
CERTIFICATE = SOLVE5 / "certificates" / "simple5-centre.cert.xz"
CENTRE_S = "." * 12 + "S" + "." * 12


@pytest.fixture(scope="module")
def solver_binary(tmp_path_factory) -> Path:
    if not (shutil.which("gcc") or shutil.which("cc")):
        pytest.skip("no C compiler to build tools/solve5")
    out = tmp_path_factory.mktemp("solve5") / "solve5"
    subprocess.run([str(SOLVE5 / "build.sh"), str(out)], check=True, capture_output=True)
    return out


def run(binary: Path, *args: str, rows: int = 5, cols: int = 5, mode: str = "simple") -> str:
    return subprocess.run([str(binary), "--rows", str(rows), "--cols", str(cols), "--mode", mode,
                           "--tt-mb", "64", *args], check=True, capture_output=True, text=True).stdout


def value(binary: Path, rows: int, cols: int, mode: str, board: str | None = None) -> int:
    out = run(binary, "value", board or "." * rows * cols, rows=rows, cols=cols, mode=mode)
    return int(out.split()[2])


# -- the values we publish (docs/ai.md), found again by the native solver ---------------------
@pytest.mark.parametrize(("rows", "cols", "simple", "general"), [
    (3, 3, 0, 0), (3, 4, 0, 0), (3, 5, 0, 0),
    # the larger grids nightly only (4x5: a 4 s proof): the smaller ones run the same solver
    pytest.param(4, 4, 0, 0, marks=pytest.mark.slow), pytest.param(4, 5, -1, None, marks=pytest.mark.slow),
])
def test_the_native_solver_finds_the_published_grid_values(solver_binary, rows, cols, simple, general):
    assert value(solver_binary, rows, cols, "simple") == simple
    if general is not None:  # general 4x5: a minute or so (test_general_4x5, slow)
        assert value(solver_binary, rows, cols, "general") == general


@pytest.mark.slow
def test_general_4x5_is_a_draw(solver_binary):
    assert value(solver_binary, 4, 5, "general") == 0


def test_the_native_solver_finds_the_published_strip_values(solver_binary):
    # 1 x n, simple: a draw up to 6 and for even n to 14, a first-player win for odd n >= 7,
    # a second-player win for even n >= 16
    for n in range(3, 20 if nightly() else 17):  # 1x17 to 1x19: 4 s of proof, nightly only
        expected = 0 if n <= 6 or (n % 2 == 0 and n <= 14) else 1 if n % 2 else -1
        assert value(solver_binary, 1, n, "simple") == expected, n


def test_the_native_solver_finds_the_published_openings(solver_binary):
    # 4x4 simple: only an O on one of the 12 non-central cells holds the draw; 3x4 simple: an S in
    # either 3-cell end column loses, every other opening draws
    lines = run(solver_binary, "moves", "." * 16, rows=4, cols=4).splitlines()
    moves = {line.split()[1]: int(line.split()[7]) for line in lines}
    assert moves == {"0S": -1, "0O": 0, "1S": -1, "1O": 0, "5S": -1, "5O": -1}
    lines = run(solver_binary, "moves", "." * 12, rows=3, cols=4).splitlines()
    moves = {line.split()[1]: int(line.split()[7]) for line in lines}
    assert {m for m, v in moves.items() if v < 0} == {"0S", "4S"} and set(moves.values()) <= {0, -1}


def test_the_native_solver_agrees_with_the_python_solver(solver_binary):
    rng = random.Random(5)
    for size, mode, empties in ((3, "simple", 7), (4, "simple", 10), (4, "general", 9), (5, "simple", 12),
                                (5, "general", 9)):
        python = Solver(size, mode)
        for _ in range(8):
            state = GameState.new(size, mode)
            while state.empty_cells > empties and not state.is_over:
                state = state.play(rng.choice(state.legal_moves()))
            if state.is_over:
                continue
            got = value(solver_binary, size, size, mode, state.board)
            assert got == python.value(state.board), (mode, state.board)


def symmetric_position(rng: random.Random, empties: int) -> str:
    """A 5x5 board without an SOS or a threat, symmetric through the centre (filled)."""
    g = grid(5)
    while True:
        board = ["."] * 25
        board[12] = rng.choice("SO")
        for cell in rng.sample(range(12), (25 - empties - 1) // 2):
            board[cell] = board[24 - cell] = rng.choice("SO")
        s, o = g.masks("".join(board))
        if not any(wins(s, o, g.empty(s, o), g.dirs)):
            return "".join(board)


def test_the_mirror_bounds_agree_with_the_python_solver_on_5x5(solver_binary):
    # on a symmetric board the player to move cannot win (the other one copies every move), and
    # one move after it the player to move cannot lose: the native solver cuts with both
    rng = random.Random(11)
    python = Solver(5, "simple")
    for _ in range(examples(8)):
        board = symmetric_position(rng, 11)
        assert value(solver_binary, 5, 5, "simple", board) == python.value(board) <= 0, board
        s, o = grid(5).masks(board)
        cell_bit, is_s = rng.choice(cell_moves(*safe_sets(s, o, grid(5).empty(s, o), grid(5).dirs)))
        cell = grid(5).cell(cell_bit)
        after = board[:cell] + ("S" if is_s else "O") + board[cell + 1:]
        assert value(solver_binary, 5, 5, "simple", after) == python.value(after) >= 0, after


def test_the_moves_checkpoint_skips_what_is_done(solver_binary, tmp_path):
    out = tmp_path / "roots.txt"
    first = run(solver_binary, "moves", "." * 9, str(out), rows=3, cols=3)
    assert len(first.splitlines()) == 6  # 3 cells up to symmetry, two letters
    assert run(solver_binary, "moves", "." * 9, str(out), rows=3, cols=3) == ""
    assert out.read_text() == first


# -- certificates --------------------------------------------------------------------------------
def test_the_committed_certificate_claims_the_centre_win():
    claim, stream = read(CERTIFICATE)
    assert claim == Claim(5, CENTRE_S, False, 1)
    done = check(claim, stream, limit=3000)  # the first part of the walk; all of it: docs/ai.md
    assert done.strategist == 3000


def test_a_wrong_move_in_the_certificate_is_rejected():
    claim, stream = read(CERTIFICATE)
    for at in (0, 1, 7):
        broken = bytearray(stream)
        broken[at] = 12 * 2  # the centre, taken
        with pytest.raises(CertificateError, match="not an empty cell"):
            check(claim, bytes(broken), limit=3000)
    # a move that hands over an SOS: after the centre S, an O beside it
    assert stream[0] != 13 * 2 + 1
    with pytest.raises(CertificateError):
        check(claim, bytes([13 * 2 + 1]) + stream[1:], limit=3000)


def test_a_claimed_win_that_is_a_draw_is_rejected(solver_binary, tmp_path):
    # 3x3 simple is a draw: a draw strategy checks, the same strategy claimed as a win does not
    # (3x3 rather than 4x4: the same checks on a certificate a hundredth the size)
    raw = tmp_path / "draw.bin"
    run(solver_binary, "certificate", "." * 9, "0", str(raw), rows=3, cols=3)
    stream = raw.read_bytes()
    assert check(Claim(3, "." * 9, True, 0), stream).strategist == len(stream)
    with pytest.raises(CertificateError):
        check(Claim(3, "." * 9, True, 1), stream)
    with pytest.raises(CertificateError, match=r"left over|too soon"):
        check(Claim(3, "." * 9, True, 0), stream + b"\0")


def test_native_certificates_of_a_second_players_draw_check_in_python(solver_binary, tmp_path):
    # the second player keeps a draw of 3x3 (the test above checks the first player's); in the
    # nightly run, the draw of 4x4 both ways
    size = 4 if nightly() else 3
    for side in ("0", "1") if nightly() else ("1",):
        raw = tmp_path / f"side{side}.bin"
        run(solver_binary, "certificate", "." * size * size, side, str(raw), rows=size, cols=size)
        claim = Claim(size, "." * size * size, side == "0", 0)
        write(tmp_path / "c.cert.xz", claim, raw.read_bytes())
        assert check(*read(tmp_path / "c.cert.xz")).strategist > 0
    assert lzma.decompress((tmp_path / "c.cert.xz").read_bytes()).startswith(b"SOS-CERT 1\n")


def test_the_class_key_is_the_same_for_every_symmetric_image():
    g = grid(5)
    rng = random.Random(2)
    for _ in range(20):
        board = "".join(rng.choice("SO...") for _ in range(25))
        rows = [board[r * 5:r * 5 + 5] for r in range(5)]
        images = {board, "".join(r[::-1] for r in rows), "".join(rows[::-1]),
                  "".join("".join(rows[r][c] for r in range(5)) for c in range(5))}
        assert len({class_key(*g.masks(b), 5) for b in images}) == 1


def test_the_class_key_is_one_of_the_images_itself():
    # the key spells out a board (S mask, then O mask, row-major): one of the 8 images, so two
    # boards share a key only when one is a rotation or reflection of the other
    g = grid(5)
    rng = random.Random(4)
    for _ in range(20):
        board = "".join(rng.choice("SO...") for _ in range(25))
        key = class_key(*g.masks(board), 5)
        image = "".join("S" if key >> (25 + i) & 1 else "O" if key >> i & 1 else "." for i in range(25))
        assert image == canonical_image(board, image)


def canonical_image(board: str, image: str) -> str:
    rows = [board[r * 5:r * 5 + 5] for r in range(5)]
    images = set()
    for _ in range(4):
        rows = ["".join(rows[4 - r][c] for r in range(5)) for c in range(5)]  # a quarter turn
        images |= {"".join(rows), "".join(row[::-1] for row in rows)}
    assert len(images) <= 8
    return image if image in images else "not an image"


def test_the_rule_the_checker_trusts_is_the_engines():
    # safe_sets (no SOS and no threat after the move) against the engine: after a safe move,
    # no move of the opponent completes an SOS; after any other, one does
    g = grid(5)
    rng = random.Random(3)
    for _ in range(15):
        state = GameState.new(5, "simple")
        while not state.is_over and state.empty_cells > 6:
            s, o = g.masks(state.board)
            empty = g.empty(s, o)
            if any(wins(s, o, empty, g.dirs)):
                break
            safe = set(cell_moves(*safe_sets(s, o, empty, g.dirs)))
            for move in state.legal_moves():
                after = state.play(move)
                handed = any(after.completes(reply) for reply in after.legal_moves())
                assert ((g.bit(move.row * 5 + move.col), move.letter == "S") in safe) == (not handed)
            state = state.play(rng.choice(state.legal_moves()))


# -- expert on 5x5 simple ------------------------------------------------------------------------
def test_the_book_opens_in_the_centre():
    move = computer_player("expert").choose_move(GameState.new(5, "simple"))
    assert move == Move(2, 2, "S")
    assert len(book5.entries()) > 1000


def test_book_moves_win_by_the_python_solver():
    rng = random.Random(7)
    late = [(board, move) for board, move in book5.entries().items() if board.count(".") == 17]
    for board, (cell, letter) in rng.sample(late, 8):
        assert Solver(5, "simple").child_value(board, cell, letter) == 1, board


@pytest.mark.parametrize("seed", range(4))
def test_expert_wins_5x5_simple_moving_first(seed):
    # the opponent: a random safe move (a random move if none), now and then any move at all
    rng = random.Random(seed)
    expert = computer_player("expert")
    g = grid(5)
    state = GameState.new(5, "simple")
    while not state.is_over:
        if state.to_move == 0:
            state = state.play(expert.choose_move(state))
            continue
        s, o = g.masks(state.board)
        safe = cell_moves(*safe_sets(s, o, g.empty(s, o), g.dirs))
        if safe and rng.random() < 0.95:
            bit, is_s = rng.choice(safe)
            cell = g.cell(bit)
            state = state.play(Move(cell // 5, cell % 5, "S" if is_s else "O"))
        else:
            state = state.play(rng.choice(state.legal_moves()))
    assert state.winners == (0,)


# whole 5x5 games by the expert against a level (4 s and up): nightly only; the expert's 5x5 book is
# played in the default run by test_expert_wins_5x5_simple_moving_first
@pytest.mark.slow
@pytest.mark.parametrize("level", ["hard", "expert"])
def test_expert_wins_5x5_simple_against_the_levels(level):
    players = (computer_player("expert"), computer_player(level, seed=1))
    state = GameState.new(5, "simple")
    while not state.is_over:
        state = state.play(players[state.to_move].choose_move(state))
    assert state.winners == (0,)
