"""Line mode (``sos-tui --plain``, ``sos-tui join URL --plain``) as its users meet it: the installed
command, fed through a pipe, its output read as the lines a screen reader would say."""

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from sos_tui.engine import Mode, Move, PlayerInfo, Seat, SeatKind

from .support.helpers import wait_for

SOS = str(Path(sys.executable).with_name("sos-tui"))
HOT_SEAT = ["--size", "3", "--players", "Ana,Bo"]


def plain(*args: str, lines: list[str] | bytes = (), lang: str = "en") -> list[str]:
    """Run ``sos-tui`` with ``lines`` on a pipe as its input; its output lines, checked for what
    no screen reader may be given: an escape byte, a line over 200 characters, an error exit."""
    data = lines if isinstance(lines, bytes) else "".join(line + "\n" for line in lines).encode()
    done = subprocess.run([SOS, *args, "--lang", lang], input=data, capture_output=True, timeout=60)
    return checked(done.stdout, done.returncode, done.stderr)


def checked(out: bytes, status: int, err: bytes = b"") -> list[str]:
    assert status == 0, err.decode(errors="replace")
    assert b"\x1b" not in out and b"\r" not in out
    text = out.decode("utf-8").splitlines()
    assert all(len(line) <= 200 for line in text)
    return text


HOT_SEAT_LINES = ["S a1", "b2 o", "c3 s", "score", "S c1", "row 1", "col c", "b2?", "around c2", "empty",
                  "undo", "redo", "o b1", "last", "S a3", "O c2", "board", "S a2", "b3 S"]

HOT_SEAT_EN = """\
A 3 by 3 game, general mode: Ana and Bo.
Ana to move.
Ana wrote S at a1.
Bo to move.
Bo wrote O at b2.
Ana to move.
Ana wrote S at c3.
SOS for Ana: a1, b2, c3, diagonally down to the right.
Score: Ana 1, Bo 0.
Ana moves again.
Score: Ana 1, Bo 0.
Ana to move.
Ana wrote S at c1.
Bo to move.
Row 1: S, empty, S.
Column c: S, empty, S.
b2: O, written by Bo on move 2. SOS for Ana: a1, b2, c3, diagonally down to the right.
Around c2: b1 empty, c1 S, b2 O, b3 empty, c3 S.
5 empty cells: b1, a2, c2, a3, b3.
Undone. Move 3: Ana wrote S at c3. It made 1 SOS. Score: Ana 1, Bo 0.
Ana to move.
Redone. Move 4: Ana wrote S at c1. Score: Ana 1, Bo 0.
Bo to move.
Bo wrote O at b1.
SOS for Bo: a1, b1, c1, across.
Score: Ana 1, Bo 1.
Bo moves again.
Move 5: Bo wrote O at b1. It made 1 SOS.
Bo wrote S at a3.
SOS for Bo: c1, b2, a3, diagonally down to the left.
Score: Ana 1, Bo 2.
Bo moves again.
Bo wrote O at c2.
SOS for Bo: c1, c2, c3, down.
Score: Ana 1, Bo 3.
Bo moves again.
The board is 3 by 3, columns a to c, with 2 empty cells.
Row 1: S, O, S.
Row 2: empty, O, O.
Row 3: S, empty, S.
Bo wrote S at a2.
Ana to move.
Ana wrote S at b3.
Score: Ana 1, Bo 3.
Game over: Bo wins.
Type review for the key moments, or quit.
"""

HOT_SEAT_MS = """\
Permainan 3 kali 3, mod umum: Ana dan Bo.
Giliran Ana.
Ana menulis S di a1.
Giliran Bo.
Bo menulis O di b2.
Giliran Ana.
Ana menulis S di c3.
SOS untuk Ana: a1, b2, c3, menyerong ke bawah kanan.
Mata: Ana 1, Bo 0.
Ana melangkah lagi.
Mata: Ana 1, Bo 0.
Giliran Ana.
Ana menulis S di c1.
Giliran Bo.
Baris 1: S, kosong, S.
Lajur c: S, kosong, S.
b2: O, ditulis oleh Bo pada langkah 2. SOS untuk Ana: a1, b2, c3, menyerong ke bawah kanan.
Sekitar c2: b1 kosong, c1 S, b2 O, b3 kosong, c3 S.
5 petak kosong: b1, a2, c2, a3, b3.
Langkah dibatalkan. Langkah 3: Ana menulis S di c3. Ia membentuk 1 SOS. Mata: Ana 1, Bo 0.
Giliran Ana.
Langkah dibuat semula. Langkah 4: Ana menulis S di c1. Mata: Ana 1, Bo 0.
Giliran Bo.
Bo menulis O di b1.
SOS untuk Bo: a1, b1, c1, melintang.
Mata: Ana 1, Bo 1.
Bo melangkah lagi.
Langkah 5: Bo menulis O di b1. Ia membentuk 1 SOS.
Bo menulis S di a3.
SOS untuk Bo: c1, b2, a3, menyerong ke bawah kiri.
Mata: Ana 1, Bo 2.
Bo melangkah lagi.
Bo menulis O di c2.
SOS untuk Bo: c1, c2, c3, menegak.
Mata: Ana 1, Bo 3.
Bo melangkah lagi.
Papan ini 3 kali 3, lajur a hingga c, dengan 2 petak kosong.
Baris 1: S, O, S.
Baris 2: kosong, O, O.
Baris 3: S, kosong, S.
Bo menulis S di a2.
Giliran Ana.
Ana menulis S di b3.
Mata: Ana 1, Bo 3.
Permainan tamat: Bo menang.
Taip review untuk detik penting, atau quit.
"""


@pytest.mark.parametrize(("lang", "golden"), [("en", HOT_SEAT_EN), ("ms", HOT_SEAT_MS)])
def test_hot_seat_game_is_told_move_by_move_and_kept_in_the_history(lang, golden):
    assert plain("--plain", *HOT_SEAT, lines=HOT_SEAT_LINES, lang=lang) == golden.splitlines()
    history = json.loads(subprocess.run([SOS, "history", "--json"], capture_output=True, check=True).stdout)
    [game] = history["games"]
    assert [p["name"] for p in game["players"]] == ["Ana", "Bo"] and game["scores"] == [1, 3]


COMPUTER_EN = """\
A 3 by 3 game, general mode: Ana and Computer 2.
Ana to move.
Ana wrote S at b2.
Computer 2 is thinking.
Computer 2 wrote O at b3.
Ana to move.
Ana wrote S at a1.
Computer 2 is thinking.
Computer 2 wrote S at c1.
Ana to move.
Ana wrote S at c3.
Computer 2 is thinking.
Computer 2 wrote O at b1.
SOS for Computer 2: a1, b1, c1, across.
Score: Ana 0, Computer 2 1.
Computer 2 is thinking.
Computer 2 wrote O at c2.
SOS for Computer 2: c1, c2, c3, down.
Score: Ana 0, Computer 2 2.
Computer 2 is thinking.
Computer 2 wrote S at a3.
SOS for Computer 2: a3, b3, c3, across.
Score: Ana 0, Computer 2 3.
Computer 2 is thinking.
Computer 2 wrote O at a2.
SOS for Computer 2: a1, a2, a3, down.
Score: Ana 0, Computer 2 4.
Game over: Computer 2 wins.
Type review for the key moments, or quit.
Reviewing the game; this takes a moment.
Key moments:
Move 5, Ana wrote S at c3, was a blunder: it gave away 5 in margin; O at b1 was best.
Move 4, Computer 2 wrote S at c1, was an inaccuracy: it gave away 1 in margin; S at b1 was best.
Accuracy of Ana: 67% (0 inaccuracies, 0 mistakes, 1 blunder).
Accuracy of Computer 2: 83% (1 inaccuracy, 0 mistakes, 0 blunders).
"""

COMPUTER_MS_REVIEW = """\
Permainan tamat: Komputer 2 menang.
Taip review untuk detik penting, atau quit.
Mengulas permainan; ini mengambil sedikit masa.
Detik penting:
Langkah 5, Ana menulis S di c3, ialah satu silap besar: ia melepaskan 5 beza mata; O di b1 adalah yang \
terbaik.
Langkah 4, Komputer 2 menulis S di c1, ialah langkah kurang tepat: ia melepaskan 1 beza mata; S di b1 \
adalah yang terbaik.
Ketepatan Ana: 67% (0 kurang tepat, 0 kesilapan, 1 silap besar).
Ketepatan Komputer 2: 83% (1 kurang tepat, 0 kesilapan, 0 silap besar).
"""


@pytest.mark.parametrize(("lang", "golden"), [("en", COMPUTER_EN), ("ms", COMPUTER_MS_REVIEW)])
def test_a_seeded_computer_thinks_once_per_move_and_the_review_names_the_key_moments(lang, golden):
    out = plain("--plain", "--size", "3", "--players", "Ana,computer:easy", "--seed", "7",
                lines=["S b2", "S a1", "S c3", "review"], lang=lang)
    assert out[-len(golden.splitlines()):] == golden.splitlines()
    assert out[0] in ("A 3 by 3 game, general mode: Ana and Computer 2.",
                      "Permainan 3 kali 3, mod umum: Ana dan Komputer 2.")


def test_every_bad_line_gets_one_line_saying_why_and_the_game_goes_on():
    bad = (b"fly\n" b"S a1\n" b"S a1\n" b"S d4\n" b"X a1\n" b"S zz\n" b"row 9\n" + "row ²\n".encode()
           + b"col q\n" b"\xff\xfe b2\n"
           + b"S" * 10_000 + b"\n" + b"d1?\n" b"review\n" b"S b1\n")
    out = plain("--plain", *HOT_SEAT, lines=bad)
    assert out[2:] == [
        "fly is not a command; type help for the list.",
        "Ana wrote S at a1.",
        "Bo to move.",
        "cannot play S a1: a1 already holds S",
        "cannot play S d4: d4 is off the 3x3 board",
        "'X a1' is not a move: the letter must be S or O",
        "'zz' is not a cell: expected a column a..z and a row number, like 'b3'",
        "Say which row, 1 to 3: row 3.",
        "Say which row, 1 to 3: row 3.",  # a digit, but not one of 0 to 9
        "Say which column, a to c: col b.",
        "That line is not readable text (it is not UTF-8).",
        "That line is too long to be a command.",
        "d1 is off the 3 by 3 board.",
        "The review comes when the game is over.",
        "Bo wrote S at b1.",
        "Ana to move.",
    ]


@pytest.mark.parametrize(("lang", "said"), [
    ("en", ["cannot play S x9: x9 is off the 3x3 board", "cannot play O b2: b2 already holds S"]),
    ("ms", ["tidak boleh main S x9: petak x9 di luar papan 3x3",
            "tidak boleh main O b2: petak b2 sudah berisi S"]),
])
def test_a_refused_move_names_its_cell_as_the_player_typed_it(lang, said):
    out = plain("--plain", *HOT_SEAT, lines=["x9 s", "S b2", "b2 o"], lang=lang)
    assert [out[2], out[5]] == said


async def test_a_hint_is_worked_out_once_per_position(monkeypatch, capsys):
    from sos_tui.engine import GameRecord
    from sos_tui.plain.front import play_local
    from sos_tui.session import ComputerPool, GameSession

    from .support.helpers import Keyboard

    searched = []

    class Counted(ComputerPool):  # searches in this process, each one counted
        async def run(self, fn, *args, on_retry=None):
            searched.append(args[1].moves)
            return fn(*args)

    keyboard = Keyboard(monkeypatch)
    keyboard.type("hint", "hint", "S a1", "hint", "hint", "undo", "hint", "redo", "hint")
    keyboard.close()
    game = GameRecord(3, Mode.GENERAL, (PlayerInfo("Ana"), PlayerInfo("Bo")))
    await play_local(GameSession(game), Counted(seed=1))
    hints = [line for line in capsys.readouterr().out.splitlines() if line.startswith("Hint: ")]
    assert len(hints) == 6
    assert hints[0] == hints[1] == hints[4] and hints[2] == hints[3] == hints[5]
    assert searched == [(), (Move.parse("S a1"),)]  # one search for each position


def test_quit_leaves_an_autosave_that_load_continues(data_dir, tmp_path):
    out = plain("--plain", *HOT_SEAT, lines=["S a1", "quit", "O b1"])
    assert out[-1] == "Bo to move."  # nothing after quit was played
    autosave = next((data_dir / "autosaves").glob("*.json"))
    out = plain("--plain", "--load", str(autosave), lines=["last", "save " + str(tmp_path / "g.json")])
    assert out == ["A 3 by 3 game, general mode: Ana and Bo.", "Score: Ana 0, Bo 0.", "Bo to move.",
                   "Move 1: Ana wrote S at a1.", f"Saved to {tmp_path / 'g.json'}."]
    assert json.loads((tmp_path / "g.json").read_text())["moves"] == ["S a1"]


def test_help_lists_the_commands_and_no_name_is_read_as_a_command():
    out = plain("--plain", "--size", "3", "--players", "Zoë ☃,Bo", lines=["help", "S a1"])
    assert out[2:6] == [
        "Moves: a letter and a cell, like S b2 or b2 o.",
        "Questions: board, row 3, col b, b2? for a cell, around b2, empty, score, last, moves.",
        "Also: hint, undo, redo, save FILE, review after the game, help, quit.",
        "To end a game early: resign (asks first), draw to offer a draw (two players), abort before everyone "
        "has moved."]
    assert out[6] == "In a timed game: clock says each player's time left."
    assert out[7] == "Zoë ☃ wrote S at a1."


class Reader:
    """The lines a process writes, gathered by a thread, waited for with a timeout."""

    def __init__(self, process: subprocess.Popen) -> None:
        self.process, self.lines, self._queue = process, [], queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self._queue.put(line)
        self._queue.put(None)

    def drain(self) -> None:
        """Take the lines left, up to the end of the output."""
        while (line := self._queue.get(timeout=10)) is not None:
            self.lines.append(line)

    def until(self, text: str, timeout: float = 20) -> list[str]:
        while not any(text.encode() in line for line in self.lines):
            line = self._queue.get(timeout=timeout)
            assert line is not None, b"".join(self.lines).decode(errors="replace")
            self.lines.append(line)
        return self.lines


NET_ANA = """\
Joined. The game starts when every seat is taken.
A 3 by 3 game, general mode: Ana and Bo.
Ana to move.
Ana wrote S at a1.
Bo to move.
Bo wrote O at b1.
Ana to move.
Ana wrote S at c1.
SOS for Ana: a1, b1, c1, across.
Score: Ana 1, Bo 0.
Ana moves again.
Ana wrote S at a2.
Bo to move.
Bo wrote O at b2.
Ana to move.
Ana wrote S at c3.
SOS for Ana: a1, b2, c3, diagonally down to the right.
Score: Ana 2, Bo 0.
Ana moves again.
The board is 3 by 3, columns a to c, with 3 empty cells.
Row 1: S, O, S.
Row 2: S, O, empty.
Row 3: 2 empty, S.
Ana wrote O at b3.
Bo to move.
"""


def test_a_plain_joiner_plays_a_network_game_in_either_language(tmp_path):
    env = dict(os.environ)
    host = subprocess.Popen([SOS, "host", "--headless", "--players", "remote,remote", "--size", "3",
                             "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            env={**env, "SOS_TUI_DATA_DIR": str(tmp_path / "host")})
    players = []
    try:
        url = host.stdout.readline().decode().strip()
        assert url.startswith("ws://127.0.0.1:")
        for name, lang, moves in (("Ana", "en", "S a1\nS c1\nS a2\nS c3\nboard\nO b3\n"),
                                  ("Bo", "ms", "O b1\nO b2\nO c2\nO a3\n")):
            process = subprocess.Popen([SOS, "join", url, "--name", name, "--plain", "--lang", lang],
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       env={**env, "SOS_TUI_DATA_DIR": str(tmp_path / name)})
            reader = Reader(process)
            players.append(reader)
            reader.until("Joined." if lang == "en" else "Permainan 3 kali 3")
            process.stdin.write(moves.encode())
            process.stdin.flush()
        for reader, end in zip(players, ("Type review", "Taip review"), strict=True):
            reader.until(end)
            reader.process.stdin.close()
            assert reader.process.wait(timeout=20) == 0
            reader.drain()
        # a move typed ahead of one's turn is said to wait ("... when your turn comes"), or not,
        # as the other's move arrives before or after it is read: the game's own lines are compared
        ana, bo = ([line for line in checked(b"".join(r.lines), 0) if not line.endswith(ahead)]
                   for r, ahead in zip(players, ("when your turn comes.", "apabila tiba giliran anda."),
                                       strict=True))
        assert ana[:len(NET_ANA.splitlines())] == NET_ANA.splitlines()
        assert ana[-3:] == ["Score: Ana 2, Bo 1.", "Game over: Ana wins.",
                            "Type review for the key moments, or quit."]
        assert bo[:3] == ["Permainan 3 kali 3, mod umum: Ana dan Bo.", "Giliran Ana.", "Ana menulis S di a1."]
        assert bo[-3:] == ["Mata: Ana 2, Bo 1.", "Permainan tamat: Ana menang.",
                           "Taip review untuk detik penting, atau quit."]
        assert "SOS untuk Bo: c1, c2, c3, menegak." in bo
    finally:
        for reader in players:
            if reader.process.poll() is None:
                reader.process.kill()
        host.terminate()
        host.wait(timeout=20)


async def test_a_plain_joiner_plays_a_host_at_a_full_screen_terminal(tmp_path):
    import asyncio

    from sos_tui.app import SosApp
    from sos_tui.app.screens.net_game import NetGameScreen
    from sos_tui.net.run import HostPlan


    plan = HostPlan(3, "general", (Seat("Ana"), Seat(None, SeatKind.REMOTE)), port=0)
    app = SosApp(network=plan, computer_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, NetGameScreen) and app.screen.net.join_url)
        screen = app.screen
        bo = subprocess.Popen([SOS, "join", screen.net.join_url, "--name", "Bo", "--plain"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              env={**os.environ, "SOS_TUI_DATA_DIR": str(tmp_path / "bo")})
        reader = Reader(bo)
        try:
            await asyncio.to_thread(reader.until, "Ana to move.")
            await pilot.press("s")  # Ana, at the full-screen host: S a1
            await asyncio.to_thread(reader.until, "Ana wrote S at a1.")
            bo.stdin.write(b"b1 o\n")  # Bo, in the line mode
            bo.stdin.flush()
            await wait_for(pilot, lambda: len(screen.state.moves) == 2)
            await pilot.press("right", "right", "s")  # S c1: S-O-S across
            lines = await asyncio.to_thread(reader.until, "SOS for Ana: a1, b1, c1, across.")
        finally:
            bo.stdin.close()  # end of input: the line mode ends with status 0
            status = bo.wait(timeout=20)
        said = checked(b"".join(lines), status)
        assert {"Ana wrote S at a1.", "Bo wrote O at b1.", "Ana wrote S at c1."} <= set(said)
        assert [str(m) for m in screen.state.moves] == ["S a1", "O b1", "S c1"]


AFTER_THE_END = """\
Game over: Ana wins.
Type review for the key moments, or quit.
The board is 3 by 3, columns a to c, with 0 empty cells.
Row 1: S, O, S.
Row 2: S, O, O.
Row 3: O, O, S.
Move 1: Ana wrote S at a1.
Move 2: Bo wrote O at b1.
Move 3: Ana wrote S at c1. It made 1 SOS.
Move 4: Ana wrote S at a2.
Move 5: Bo wrote O at b2.
Move 6: Ana wrote S at c3. It made 1 SOS.
Move 7: Ana wrote O at b3.
Move 8: Bo wrote O at c2. It made 1 SOS.
Move 9: Bo wrote O at a3.
Saved to {path}.
Reviewing the game; this takes a moment.
"""


async def test_after_a_network_game_ends_the_line_mode_answers_until_quit(monkeypatch, capsys, tmp_path):
    """The server closes a finished game (as ``host --headless`` does): the joiner's line mode
    says the end once and goes on answering review, board, moves and save until quit."""
    import asyncio

    from sos_tui.i18n import N_
    from sos_tui.net import RemoteGame, Server, TokenStore, create_room
    from sos_tui.net.netsession import NetSession
    from sos_tui.plain.front import play_remote

    from .support.helpers import Keyboard

    async with Server(allow_create=True) as server:
        port = await server.start()
        url, token, _seats = await create_room(f"ws://127.0.0.1:{port}", 3, "general",
                                               [{"kind": "human", "name": "Ana"}, {"kind": "remote"}])
        ana = RemoteGame(url, "Ana", token=token, tokens=TokenStore())
        await ana.connect()
        listening = asyncio.ensure_future(_drain(ana))
        bo = RemoteGame(url, "Bo", tokens=TokenStore())
        await bo.connect()
        keyboard = Keyboard(monkeypatch)
        keyboard.type("x9 s", "O b1", "O b2", "O c2", "O a3")  # each waits for Bo's turn
        playing = asyncio.ensure_future(play_remote(NetSession.of(bo)))
        for move in ("S a1", "S c1", "S a2", "S c3", "O b3"):
            await wait_for(None, lambda: ana.phase == "playing" and ana.my_turn)
            version = ana.version
            await ana.play(Move.parse(move))
            await wait_for(None, lambda v=version: ana.version > v)
        await wait_for(None, lambda: bo.state.is_over)
        await server.close_room(server.rooms[url.rsplit("/", 1)[1]], N_("the game is over"))
        await wait_for(None, lambda: not bo.connected)
        path = tmp_path / "game.json"
        keyboard.type("board", "moves", f"save {path}", "review", "S a1", "quit", "board")
        assert await asyncio.wait_for(playing, 20) == 0
        listening.cancel()
        await ana.close()
    out = checked(capsys.readouterr().out.encode(), 0)
    assert "cannot play S x9: x9 is off the 3x3 board" in out
    end = out.index("Game over: Ana wins.")
    expected = AFTER_THE_END.format(path=path).splitlines()
    assert out[end:end + len(expected)] == expected
    assert out[end + len(expected)].startswith("Key moments")
    assert out[-1] == "cannot play S a1: the game is already over"  # nothing after quit
    assert not any("has ended" in line for line in out)  # the end is said once
    assert json.loads(path.read_text())["moves"][-1] == "O a3"


async def _drain(game) -> None:
    from sos_tui.net import NetError

    try:
        async for _message in game.updates():
            pass
    except NetError:
        pass


async def ana_and_bo(server, mode: str = "general", tokens=None):
    """``server`` started with a 3x3 room of two remote seats, Ana then Bo connected to it (Ana's
    seat token kept in ``tokens``): the room and both games."""
    from sos_tui.net import RemoteGame, TokenStore

    await server.start()
    room = server.create_room(3, mode, [{"kind": "remote"}, {"kind": "remote"}])
    ana = RemoteGame(server.url(room), "Ana", tokens=tokens or TokenStore())
    await ana.connect()
    bo = RemoteGame(server.url(room), "Bo", tokens=TokenStore())
    await bo.connect()
    return room, ana, bo


async def test_join_at_a_servers_address_lists_its_open_games_and_joins_the_one_picked(tmp_path):
    """``sos-tui join ws://HOST:PORT --plain``: the server's lobby as numbered lines, refreshed on
    request; a game picked by its code (or number) is joined and played."""
    import asyncio

    from sos_tui.net import RemoteGame, Server, TokenStore, create_room

    async with Server(allow_create=True) as server:
        port = await server.start()
        base = f"ws://127.0.0.1:{port}"

        async def room(size, mode, name, seats=2, public=True):
            url, token, _seats = await create_room(
                base, size, mode, [{"kind": "human", "name": name}] + [{"kind": "remote"}] * (seats - 1),
                public=public)
            return url.rsplit("/", 1)[1], url, token

        ana, _url, _token = await room(4, "simple", "Ana")
        cy, _url, _token = await room(3, "general", "Cy", seats=3)
        await room(3, "general", "Hidden", public=False)  # private: not listed
        bo = subprocess.Popen([SOS, "join", base, "--name", "Bo", "--plain"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              env={**os.environ, "SOS_TUI_DATA_DIR": str(tmp_path / "bo")})
        reader = Reader(bo)
        dee = None
        try:
            await asyncio.to_thread(reader.until, "Type a game's number")
            bo.stdin.write(b"7\nnope\n")  # no game 7; not a code
            bo.stdin.flush()
            await asyncio.to_thread(reader.until, "nope is")
            code, url, token = await room(5, "general", "Dee")
            bo.stdin.write(f"refresh\n{code.upper()}\n".encode())
            bo.stdin.flush()
            dee = RemoteGame(url, "Dee", token=token, tokens=TokenStore())
            await dee.connect()
            listening = asyncio.ensure_future(_drain(dee))
            await asyncio.to_thread(reader.until, "Dee to move.")
            await wait_for(None, lambda: dee.phase == "playing")
            await dee.play(Move.parse("S a1"))
            await asyncio.to_thread(reader.until, "Bo to move.")
            bo.stdin.write(b"b2 o\nquit\n")
            bo.stdin.flush()
            await wait_for(None, lambda: [str(m) for m in dee.state.moves] == ["S a1", "O b2"])
        finally:
            bo.stdin.close()
            status = await asyncio.to_thread(bo.wait, 20)
            await asyncio.to_thread(reader.drain)
            if dee is not None:
                listening.cancel()
                await dee.close()
    said = checked(b"".join(reader.lines), status)
    listed = [f"1: game {ana}, 4 by 4, simple mode, 1 of 2 seats free, Ana waiting.",
              f"2: game {cy}, 3 by 3, general mode, 2 of 3 seats free, Cy waiting."]
    prompt = "Type a game's number or code to join it, refresh to look again, or quit."
    assert said == [
        f"2 open games on {base}:", *listed, prompt,
        "There is no game 7 here: type a number from 1 to 2, or a game's code.",
        "nope is neither a game's number nor its code.",
        f"3 open games on {base}:", *listed,
        f"3: game {code}, 5 by 5, general mode, 1 of 2 seats free, Dee waiting.", prompt,
        f"Joining game {code}.",
        "A 5 by 5 game, general mode: Dee and Bo.", "Dee to move.",
        "Dee wrote S at a1.", "Bo to move.", "Bo wrote O at b2.", "Dee to move."]


async def test_join_at_a_servers_address_lists_its_bots_and_play_makes_a_game_against_one(tmp_path):
    """``sos-tui join ws://HOST:PORT --plain`` with a bot connected: the bot as a numbered line,
    ``play`` with a bad number or word said why, ``play 1 3 simple`` a game against it, its seat
    named as a bot's."""
    import asyncio

    from sos_tui.net import Server
    from sos_tui.net.bot import run_bot

    engine = f"{sys.executable} {Path(__file__).parent / 'engines' / 'rand.py'}"
    async with Server(allow_create=True) as server:
        base = f"ws://127.0.0.1:{await server.start()}"
        bot = asyncio.ensure_future(run_bot(base, "Randy", engine, lambda _line: None, 2, 50, "Random"))
        await wait_for(None, lambda: server.bots.bots, what="the bot listed")
        bo = subprocess.Popen([SOS, "join", base, "--name", "Bo", "--plain"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              env={**os.environ, "SOS_TUI_DATA_DIR": str(tmp_path / "bo")})
        reader = Reader(bo)
        try:
            await asyncio.to_thread(reader.until, "To play a bot")
            bo.stdin.write(b"play 2\nplay 1 huge\nplay 1 3 simple\n")
            bo.stdin.flush()
            await asyncio.to_thread(reader.until, "Bo to move.")
            (room,) = server.rooms.values()
            assert (room.size, room.mode.value, room.seats[1].seat.bot) == (3, "simple", True)
            bo.stdin.write(b"quit\n")
            bo.stdin.flush()
        finally:
            bo.stdin.close()
            status = await asyncio.to_thread(bo.wait, 20)
            await asyncio.to_thread(reader.drain)
            bot.cancel()
            await asyncio.gather(bot, return_exceptions=True)
    said = checked(b"".join(reader.lines), status)
    assert said[:9] == [
        f"No open games on {base} now.", "1 bot to play:",
        "Bot 1: Randy (bot), engine Random, 2 of 2 games free.",
        "Type a game's number or code to join it, refresh to look again, or quit.",
        "To play a bot, type play and its number, with a size and a mode if you like (play 1 5 simple); "
        "else 6 by 6, general mode.",
        "There is no bot 2 here: type a number from 1 to 1.",
        "huge is neither a board size (3 to 26) nor a mode (general or simple).",
        "Making a 3 by 3 simple game against Randy (bot).",
        "A 3 by 3 game, simple mode, first SOS wins: Bo and Randy (bot).",
    ]


async def test_a_spectator_who_types_a_move_is_told_at_once(monkeypatch, capsys):
    import asyncio

    from sos_tui.net import RemoteGame, Server, TokenStore, create_room
    from sos_tui.net.netsession import NetSession
    from sos_tui.plain.front import play_remote

    from .support.helpers import Keyboard

    async with Server(allow_create=True) as server:
        port = await server.start()
        url, token, _seats = await create_room(f"ws://127.0.0.1:{port}", 3, "general",
                                               [{"kind": "human", "name": "Ana"}, {"kind": "remote"}])
        players = [RemoteGame(url, "Ana", token=token, tokens=TokenStore()),
                   RemoteGame(url, "Bo", tokens=TokenStore())]
        for player in players:
            await player.connect()
        dee = RemoteGame(url, "Dee", tokens=TokenStore())
        await dee.connect()
        keyboard = Keyboard(monkeypatch)
        keyboard.type("S c3", "quit")
        try:
            assert await asyncio.wait_for(play_remote(NetSession.of(dee)), 10) == 0
        finally:
            for player in players:
                await player.close()
    out = checked(capsys.readouterr().out.encode(), 0)
    assert out[-2:] == ["Ana to move.", "You watch this game: only its players move."]


async def test_a_plain_joiner_whose_connection_drops_is_told_comes_back_by_itself_and_plays_on(
        monkeypatch, capsys):
    """The line mode's join follows the game with the same network session as the app: a dropped
    connection is said, tried again by itself, and the game goes on from its seat."""
    import asyncio

    from sos_tui.net import RemoteGame, Server, TokenStore
    from sos_tui.net.netsession import NetSession
    from sos_tui.plain.front import play_remote

    from .support.helpers import FirstMove, Keyboard

    async with Server(computer=FirstMove(), computer_delay=0) as server:
        await server.start()
        room = server.create_room(3, "general", [{"kind": "remote"}, {"kind": "computer", "level": "easy"}])
        bo = RemoteGame(server.url(room), "Bo", tokens=TokenStore())
        await bo.connect()
        keyboard = Keyboard(monkeypatch)
        keyboard.type("S a1")
        playing = asyncio.ensure_future(play_remote(NetSession.of(bo, delay=lambda attempt: 0.01)))
        await wait_for(None, lambda: len(room.session.state.moves) == 2)  # Bo's S, the computer's answer
        dropped = room.seats[0].client
        await dropped.ws.close()  # the connection drops; the room and the seat stay
        await wait_for(None, lambda: room.seats[0].client not in (None, dropped) and bo.connected)
        keyboard.type("O b2", "quit")
        assert await asyncio.wait_for(playing, 10) == 0
        assert [str(m) for m in room.session.state.moves][2] == "O b2"
    out = checked(capsys.readouterr().out.encode(), 0)
    lost = next(i for i, line in enumerate(out) if line.startswith("Connection lost: "))
    assert out[lost].endswith("Trying again (attempt 1)…") and "Reconnected." in out[lost + 1:]
    assert "Bo wrote O at b2." in out[out.index("Reconnected."):]


async def test_a_plain_player_offered_a_rematch_is_asked_about_a_rematch_and_yes_plays_it(
        monkeypatch, capsys):
    """A rematch offer is not an undo: the line mode says what is offered, and yes agrees to it."""
    import asyncio

    from sos_tui.net import Server
    from sos_tui.net.netsession import NetSession
    from sos_tui.plain.front import play_remote

    from .support.helpers import Keyboard

    async with Server() as server:
        room, ana, bo = await ana_and_bo(server, "simple")
        listening = asyncio.ensure_future(_drain(ana))
        keyboard = Keyboard(monkeypatch)
        keyboard.type("O b1")  # waits for Bo's turn
        playing = asyncio.ensure_future(play_remote(NetSession.of(bo)))
        await wait_for(None, lambda: ana.phase == "playing" and ana.my_turn)
        await ana.play(Move.parse("S a1"))
        await wait_for(None, lambda: len(room.session.state.moves) == 2)
        await ana.play(Move.parse("S c1"))  # SOS: Ana wins the simple game
        await wait_for(None, lambda: bo.state is not None and bo.state.is_over)
        await ana.offer_rematch()
        await wait_for(None, lambda: bo.rematch_request is not None)
        keyboard.type("yes")
        await wait_for(None, lambda: bo.state is not None and not bo.state.is_over)  # the rematch began
        keyboard.type("quit")
        assert await asyncio.wait_for(playing, 10) == 0
        listening.cancel()
        await ana.close()
    out = checked(capsys.readouterr().out.encode(), 0)
    offered = out.index("Ana offers a rematch; type yes or no.")
    assert not any("take back" in line for line in out)
    assert out[offered + 1:] == ["A 3 by 3 game, simple mode, first SOS wins: Bo and Ana.", "Bo to move."]


async def test_a_move_typed_before_ones_turn_is_checked_at_once_and_said_to_wait(monkeypatch, capsys):
    """Bo types while Ana is to move: a move that can never be played is refused at once, and a
    good one is said to wait for Bo's turn (it was silence, and a move off the board waited too)."""
    import asyncio

    from sos_tui.engine import Move
    from sos_tui.net import RemoteGame, Server, TokenStore, create_room
    from sos_tui.net.netsession import NetSession
    from sos_tui.plain.front import play_remote

    from .support.helpers import Keyboard

    said = []

    async def until(condition) -> None:
        def heard() -> bool:  # what the line mode said so far, then the condition
            said.extend(capsys.readouterr().out.splitlines())
            return condition()

        try:
            await wait_for(None, heard, 10)
        except AssertionError as stuck:
            raise AssertionError(f"{stuck}; the line mode said: {said}") from None

    async with Server(allow_create=True) as server:
        port = await server.start()
        url, token, _seats = await create_room(f"ws://127.0.0.1:{port}", 3, "general",
                                               [{"kind": "human", "name": "Ana"}, {"kind": "remote"}])
        ana = RemoteGame(url, "Ana", token=token, tokens=TokenStore())
        await ana.connect()
        bo = RemoteGame(url, "Bo", tokens=TokenStore())
        await bo.connect()
        keyboard = Keyboard(monkeypatch)
        keyboard.type("O d1", "S c1")
        playing = asyncio.ensure_future(play_remote(NetSession.of(bo)))
        await until(lambda: any("turn comes" in line for line in said) or playing.done())

        async def follow() -> None:
            async for _message in ana.updates():
                pass

        following = asyncio.ensure_future(follow())
        await until(lambda: ana.phase == "playing")
        await ana.play(Move.parse("S a1"))  # Ana moves: Bo's S c1 is played then
        await until(lambda: "Bo wrote S at c1." in said)
        keyboard.type("quit")
        keyboard.close()
        assert await asyncio.wait_for(playing, 10) == 0
        await ana.close()
        following.cancel()
    said.extend(capsys.readouterr().out.splitlines())
    assert "cannot play O d1: d1 is off the 3x3 board" in said
    assert "Ana is to move: your S c1 is played when your turn comes." in said


def test_the_input_thread_ends_quietly_once_the_line_mode_is_gone():
    """A line typed after the line mode's event loop closed (a test's, or a process on its way
    out) ended the reading thread with 'RuntimeError: Event loop is closed'."""
    import asyncio
    import threading

    from sos_tui.plain.lines import read_lines

    read, write = os.pipe()
    failures = []
    before = threading.excepthook
    threading.excepthook = failures.append
    try:
        async def start():
            read_lines(read)

        running = set(threading.enumerate())
        asyncio.run(start())  # the loop is closed when this returns; the thread still reads
        (reader,) = set(threading.enumerate()) - running
        os.write(write, b"S a1\n")
        os.close(write)
        reader.join(10)
        assert not reader.is_alive()
    finally:
        threading.excepthook = before
        os.close(read)
    assert failures == []


# -- resign, draw, abort ----------------------------------------------------------------------------
def test_resign_after_one_move_asks_first_and_the_other_player_wins_in_the_history(data_dir):
    out = plain("--plain", *HOT_SEAT, lines=["S a1", "resign", "no", "resign", "yes", "S b2"])
    assert out[4:] == [
        "Bo, resign? Type yes to resign or no to play on.",
        "You play on.",
        "Bo, resign? Type yes to resign or no to play on.",
        "Bo resigned.",
        "Game over: Ana wins. How it ended: Bo resigned.",
        "Type review for the key moments, or quit.",
        "cannot play S b2: the game is already over",
    ]
    [game] = json.loads(subprocess.run([SOS, "history", "--json"], capture_output=True, check=True,
                                       timeout=60).stdout)["games"]
    assert (game["termination"], game["winners"], game["result"]) == ("resign", [0], "Ana wins")


def test_with_three_players_the_game_goes_on_without_the_resigner():
    out = plain("--plain", "--size", "3", "--players", "Ana,Bo,Cy",
                lines=["S a1", "resign", "yes", "O b2", "draw"])
    assert out[4:] == [
        "Bo, resign? Type yes to resign or no to play on.",
        "Bo resigned. The game goes on without Bo: Ana and Cy.",
        "Cy to move.",
        "Cy wrote O at b2.",
        "Ana to move.",
        "Ana offers a draw. Cy, type yes to accept or no to play on.",
    ]


def test_a_draw_offer_is_answered_by_the_other_player_or_declined_by_a_move(data_dir):
    out = plain("--plain", *HOT_SEAT, lines=["draw", "no", "S a1", "draw", "S b2", "draw", "yes"])
    assert out[2:] == [
        "Ana offers a draw. Bo, type yes to accept or no to play on.",
        "The draw offer of Ana is declined.",
        "Ana wrote S at a1.",
        "Bo to move.",
        "Bo offers a draw. Ana, type yes to accept or no to play on.",
        "The draw offer of Bo is declined.",
        "Bo wrote S at b2.",
        "Ana to move.",
        "Ana offers a draw. Bo, type yes to accept or no to play on.",
        "Game over: a draw between Ana and Bo. How it ended: drawn by agreement.",
        "Type review for the key moments, or quit.",
    ]


def test_abort_only_before_everyone_moved_and_bad_endings_are_refused(data_dir):
    out = plain("--plain", *HOT_SEAT, lines=["S a1", "O b2", "abort", "yes"])
    assert out[-2:] == ["too late to abort: every player has moved; resign instead",
                        "Nobody asked a question."]
    out = plain("--plain", "--size", "3", "--players", "Ana,Bo,Cy",
                lines=["draw", "S a1", "abort", "resign"])
    assert out[2] == "a draw can be agreed by two players only, not 3"
    assert out[-2:] == ["Game over: aborted, with no result.", "The game is over."]
    out = plain("--plain", "--size", "3", "--players", "Ana,computer:easy", lines=["draw"])
    assert out[2] == "the computer plays on: it does not take draw offers"
    history = json.loads(subprocess.run([SOS, "history", "--json"], capture_output=True, check=True,
                                        timeout=60).stdout)
    assert history["games"] == []  # an aborted game has no history entry


async def test_a_plain_joiner_resigns_through_a_pipe_asked_first_and_the_other_wins(monkeypatch, capsys):
    """``resign`` in a network game asks first, as at one terminal; ``yes`` resigns on the server,
    and the game ends with the other player as the winner."""
    import asyncio

    from sos_tui.engine import Termination
    from sos_tui.net import Server
    from sos_tui.net.netsession import NetSession
    from sos_tui.plain.front import play_remote

    from .support.helpers import Keyboard

    async with Server() as server:
        _room, ana, bo = await ana_and_bo(server)
        listening = asyncio.ensure_future(_drain(ana))
        keyboard = Keyboard(monkeypatch)
        keyboard.type("resign", "no", "resign", "yes", "quit")
        assert await asyncio.wait_for(play_remote(NetSession.of(bo)), 10) == 0
        await wait_for(None, lambda: ana.state.is_over)
        assert ana.state.termination is Termination.RESIGN and ana.state.winners == (0,)
        listening.cancel()
        await ana.close()
    out = checked(capsys.readouterr().out.encode(), 0)
    asked = "Bo, resign? Type yes to resign or no to play on."
    assert out[out.index(asked) + 1] == "You play on."
    assert out[-4:-1] == [asked, "Bo resigned.", "Game over: Ana wins. How it ended: Bo resigned."]
    assert out[-1] == "Type review for the key moments, or quit."


async def test_a_plain_player_is_told_when_a_player_gone_may_be_claimed_and_claims_the_win(
        monkeypatch, capsys):
    import asyncio

    from sos_tui.engine import Termination
    from sos_tui.net import Limits, Server
    from sos_tui.net.netsession import NetSession
    from sos_tui.plain.front import play_remote

    from .support.helpers import Keyboard

    async with Server(Limits(claim_after=0.3)) as server:
        room, ana, bo = await ana_and_bo(server)
        keyboard = Keyboard(monkeypatch)
        playing = asyncio.ensure_future(play_remote(NetSession.of(bo)))
        await wait_for(None, lambda: bo.phase == "playing")
        await ana.close()  # Ana's terminal goes
        said = []
        def due() -> bool:  # "Ana has been gone 0:00: ...", or 0:01 on a busy machine
            said.extend(capsys.readouterr().out.splitlines())
            return any(line.startswith("Ana has been gone 0:0")
                       and line.endswith(": type claim to claim the win.") for line in said)

        await wait_for(None, due)
        keyboard.type("claim", "quit")
        assert await asyncio.wait_for(playing, 10) == 0
        assert room.session.state.termination is Termination.ABANDON
    out = said + checked(capsys.readouterr().out.encode(), 0)
    assert "Ana lost the connection; if not back in 1 s, type claim." in out
    assert out[-3:-1] == ["Ana left the game.", "Game over: Bo wins. How it ended: Ana left the game."]


async def test_a_plain_player_hears_a_player_gone_come_back(monkeypatch, capsys):
    import asyncio

    from sos_tui.net import RemoteGame, Server, TokenStore
    from sos_tui.net.netsession import NetSession
    from sos_tui.plain.front import play_remote

    from .support.helpers import Keyboard

    async with Server() as server:
        tokens = TokenStore()
        room, ana, bo = await ana_and_bo(server, tokens=tokens)
        keyboard = Keyboard(monkeypatch)
        playing = asyncio.ensure_future(play_remote(NetSession.of(bo)))
        await wait_for(None, lambda: bo.phase == "playing")
        said = []

        def heard(text: str):
            def told() -> bool:
                said.extend(capsys.readouterr().out.splitlines())
                return any(line.startswith(text) for line in said)
            return told

        await ana.close()  # Ana's terminal goes, then she comes back with her seat's token
        await wait_for(None, heard("Ana lost the connection"))
        ana = RemoteGame(server.url(room), "Ana", tokens=tokens)
        await ana.connect()
        await wait_for(None, heard("Ana is back."))
        keyboard.type("quit")
        assert await asyncio.wait_for(playing, 10) == 0
        await ana.close()
    assert said.count("Ana is back.") == 1


async def test_a_plain_player_offers_a_draw_hears_it_declined_and_accepts_the_other_players(
        monkeypatch, capsys):
    import asyncio

    from sos_tui.engine import Termination
    from sos_tui.net import Server
    from sos_tui.net.netsession import NetSession
    from sos_tui.plain.front import play_remote

    from .support.helpers import Keyboard

    async with Server() as server:
        room, ana, bo = await ana_and_bo(server)
        listening = asyncio.ensure_future(_drain(ana))
        keyboard = Keyboard(monkeypatch)
        keyboard.type("draw")
        playing = asyncio.ensure_future(play_remote(NetSession.of(bo)))
        await wait_for(None, lambda: ana.draw_offer == 1)
        await ana.answer_draw(False)
        await wait_for(None, lambda: bo.draw_offer is None and room.session.version > 2)
        await ana.offer_draw()
        await wait_for(None, lambda: bo.draw_offer == 0)
        keyboard.type("yes", "quit")
        assert await asyncio.wait_for(playing, 10) == 0
        assert room.session.state.termination is Termination.AGREEMENT
        listening.cancel()
        await ana.close()
    out = checked(capsys.readouterr().out.encode(), 0)
    assert out[2:5] == ["Draw offered to Ana: waiting for the answer.", "The draw offer of Bo is declined.",
                        "Ana offers a draw. Bo, type yes to accept or no to play on."]
    assert out[-2] == "Game over: a draw between Ana and Bo. How it ended: drawn by agreement."
