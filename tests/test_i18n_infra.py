"""Storage, session and network in Malay: the errors and notices a player meets (a full disk, a
refused permission, a damaged file, a history that cannot be written, a computer that stopped), the
messages of a server seen by a Malay client, and what a hostile server cannot make a client say.

The words are the Malay catalog's; each test switches to Malay (conftest puts English back)."""

from __future__ import annotations

import asyncio
import errno
import importlib.util
import json
import os
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest
from websockets.asyncio.server import serve

from sos_tui import i18n
from sos_tui.engine import GameRecord, Mode, Move, PlayerInfo, RecordError
from sos_tui.engine.text import Phrase
from sos_tui.i18n import explain
from sos_tui.net import NetError, RemoteGame, Server, TokenStore, parse_url
from sos_tui.net.protocol import SERVER_MESSAGES, ErrorMessage, ProtocolError, encode, parse_server, said
from sos_tui.net.run import serve_forever
from sos_tui.session import ComputerFailed, GameSession, Keeper, NotYourTurnError
from sos_tui.session.computer import STOPPED_TWICE
from sos_tui.storage import (
    HistoryError,
    LoadError,
    Recorder,
    StorageError,
    data_dir,
    describe,
    export_transcript,
    list_saves,
    load_autosave,
    load_record,
    save_record,
)
from sos_tui.storage import files as files_module
from sos_tui.storage.errors import history_error
from sos_tui.storage.history import HistoryEntry

from .support.helpers import send_raw, wait_for


def _catalog_tool():
    spec = importlib.util.spec_from_file_location("catalog_tool", ROOT / "tools" / "catalog.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ROOT = Path(__file__).resolve().parent.parent
catalog_tool = _catalog_tool()

ENGLISH = ("could not", "cannot", "the disk", "permission", "the file", "not a game record", "history",
           "Could not", "game", "server", "turn", "waiting", "the computer", "denied", "full")


def malay(text: str, *also: str) -> None:
    """``text`` holds none of the English words of these messages (nor ``also``); paths are data."""
    words = " ".join(word for word in text.split() if "/" not in word)
    left = [word for word in (*ENGLISH, *also) if word in words]
    assert not left, f"English left in {text!r}: {left}"


def a_record(moves: tuple[str, ...] = ("S a1",), size: int = 3) -> GameRecord:
    return GameRecord(size, Mode.GENERAL, (PlayerInfo("Ana"), PlayerInfo("Bo")),
                      moves=tuple(Move.parse(m) for m in moves))


# -- storage -------------------------------------------------------------------------------------
def test_a_full_disk_while_saving_is_said_in_malay_and_explained_in_english_later(tmp_path, monkeypatch):
    path = tmp_path / "game.json"

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    i18n.set_language("ms")
    with pytest.raises(StorageError) as caught:
        save_record(a_record(), path)
    text = str(caught.value)
    assert text == f"tidak dapat menyimpan {path}: cakera penuh"
    malay(text)
    assert isinstance(caught.value, OSError) and isinstance(caught.value.__cause__, OSError)
    i18n.set_language("en")  # the player switched language: the same error, said again
    assert explain(caught.value) == f"could not save {path}: the disk is full"


def test_a_folder_that_cannot_be_made_says_permission_denied_in_malay(tmp_path, monkeypatch):
    monkeypatch.setenv("SOS_TUI_DATA_DIR", str(tmp_path / "locked" / "data"))

    def refuse(self, *args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(Path, "mkdir", refuse)
    i18n.set_language("ms")
    with pytest.raises(StorageError) as caught:
        data_dir()
    assert str(caught.value).startswith("tidak dapat mencipta folder ")
    assert str(caught.value).endswith(": kebenaran ditolak")
    malay(str(caught.value))


@pytest.mark.parametrize(("error", "words"), [
    (OSError(errno.ENOSPC, "No space left on device"), "cakera penuh"),
    (OSError(errno.EACCES, "Permission denied"), "kebenaran ditolak"),
    (OSError(errno.EROFS, "Read-only file system"), "cakera hanya boleh dibaca"),
    (sqlite3.OperationalError("database is locked"), "pangkalan data sejarah sedang sibuk"),
    (sqlite3.DatabaseError("file is not a database"), "fail sejarah rosak"),
])
def test_describe_says_the_cause_in_malay_where_it_is_shown(error, words):
    said_here = describe(error)
    assert isinstance(said_here, Phrase)  # English, put into the language where it is shown
    i18n.set_language("ms")
    problem = history_error("/data/history.sqlite3", error, "open")
    assert str(problem) == f"tidak dapat membuka sejarah /data/history.sqlite3: {words}" + (
        " (sos-tui lain sedang menulis kepadanya)" if "sibuk" in words else
        " atau bukan sejarah sos-tui" if "rosak" in words else "")
    malay(str(problem))


def test_a_history_that_cannot_be_written_keeps_the_game_and_says_so_in_malay(tmp_path):
    folder = tmp_path / "db-is-a-folder"
    (folder / "history.sqlite3").mkdir(parents=True)
    record = GameRecord(3, Mode.SIMPLE, (PlayerInfo("Ana"), PlayerInfo("Bo")),
                        moves=tuple(Move.parse(m) for m in ("S a1", "O b1", "S c1")))
    i18n.set_language("ms")
    with pytest.raises(StorageError) as caught:
        Recorder(folder / "history.sqlite3", timeout=0.1).record(record)
    text = str(caught.value)
    assert text.startswith("Permainan tidak dapat ditambah ke sejarah (")
    assert text.endswith("Ia disimpan dan akan ditambah kemudian.")
    assert "sejarah " in text and "ialah folder, bukan pangkalan data" in text  # the nested HistoryError
    malay(text)
    assert isinstance(caught.value.params["error"], HistoryError)


@pytest.mark.parametrize(("content", "words"), [
    (b"", "fail kosong"),
    (b"\x00\x01binary", "bukan rekod permainan: fail mengandungi data binari"),
    (b"\xff\xfe not utf-8", "bukan rekod permainan: fail bukan teks UTF-8 (bait rosak di kedudukan 0)"),
])
def test_a_corrupt_file_does_not_load_and_says_why_in_malay(tmp_path, content, words):
    path = tmp_path / "broken.json"
    path.write_bytes(content)
    i18n.set_language("ms")
    with pytest.raises(LoadError) as caught:
        load_record(path)
    assert str(caught.value) == f"{path}: {words}"
    assert caught.value.reason == words and caught.value.path == path
    malay(str(caught.value))


def test_a_missing_file_and_an_empty_name_are_said_in_malay(tmp_path):
    i18n.set_language("ms")
    with pytest.raises(LoadError) as caught:
        load_record(tmp_path / "nowhere.json")
    assert str(caught.value) == f"{tmp_path / 'nowhere.json'}: fail tidak wujud"
    with pytest.raises(LoadError, match="tiada nama fail diberikan"):
        load_record("  ")


def test_a_damaged_game_record_keeps_the_engines_error_to_be_explained_where_it_is_shown(tmp_path):
    """The engine's RecordError passes through LoadError whole: one place (explain) says it, in
    the language current when it is shown, the nested engine error included."""
    path = tmp_path / "game.json"
    path.write_text('{"format": "sos-game", "version": 1, "size": 3, "mode": "general", '
                    '"players": [{"name": "A\\u0007"}, {"name": "B"}], "moves": []}', encoding="utf-8")
    with pytest.raises(LoadError) as caught:
        load_record(path)
    problem = caught.value
    assert isinstance(problem.cause, RecordError)
    assert str(problem) == (f'{path}: bad game record: player 1 "name": a name cannot hold a control '
                            'character (\\x07)')
    i18n.set_language("ms")
    assert explain(problem) == f"{path}: {explain(problem.cause)}"
    assert problem.reason == explain(problem.cause)


def test_the_list_of_saves_and_the_autosave_say_a_bad_file_in_malay(tmp_path, data):
    (tmp_path / "bad.json").write_bytes(b"\x00")
    i18n.set_language("ms")
    [info] = list_saves(tmp_path)
    assert info.error == f"{tmp_path / 'bad.json'}: bukan rekod permainan: fail mengandungi data binari"
    assert isinstance(info.problem, LoadError)
    autosaves = data / "autosaves"
    autosaves.mkdir(parents=True)
    (autosaves / "x.json").write_bytes(b"")
    with pytest.raises(LoadError) as caught:
        load_autosave(strict=True)
    assert str(caught.value).endswith(": fail kosong")


def test_the_transcript_is_written_in_the_players_language(tmp_path, monkeypatch):
    seen = []

    def transcript(record, tr=None):
        seen.append(tr)
        return "text\n"

    monkeypatch.setattr(files_module, "transcript", transcript)
    export_transcript(a_record(), tmp_path)
    assert seen == [i18n._]


def test_a_history_entry_names_its_players_in_malay():
    entry = HistoryEntry(1, datetime(2026, 1, 1, tzinfo=UTC), 3, "general",
                         (PlayerInfo("Ana"), PlayerInfo("Bot", "computer", "hard")), (2, 1), (0,),
                         "Ana wins", "computer:hard", 5, "win", 1, 0, 1)
    assert entry.players_text == "Ana vs Bot (hard)" and entry.pov_name == "Player 6"
    i18n.set_language("ms")
    assert entry.players_text == "Ana lwn Bot (sukar)"
    assert entry.pov_name == "Pemain 6"


# -- session ---------------------------------------------------------------------------------------
class FullDisk:
    """A store whose autosave and history hit a full disk, as the real storage says it."""

    def autosave(self, record):
        raise StorageError("could not save {path}: {reason}", path="/data/x.json",
                           reason=describe(OSError(errno.ENOSPC, "full")))

    def clear_autosave(self, record):
        return None

    def record_finished(self, record):
        raise StorageError("could not save {path}: {reason}", path="/data/h.json",
                           reason=describe(OSError(errno.ENOSPC, "full")))

    def flush(self):
        return 0

    def save_settings(self, settings):
        raise StorageError("cannot create the folder {path}: {reason}", path="/config",
                           reason=describe(OSError(errno.EACCES, "denied")))

    def lost(self):
        return []


def test_the_keepers_notices_are_in_malay():
    i18n.set_language("ms")
    notices: list[str] = []
    keeper = Keeper(FullDisk(), on_error=notices.append, flush_at_start=False)
    session = GameSession(GameRecord(3, Mode.SIMPLE, (PlayerInfo("Ana"), PlayerInfo("Bo"))))
    session.subscribe(keeper.on_change)
    session.play(Move.parse("S a1"))
    keeper.wait(5)
    session.play(Move.parse("O b1"))
    session.play(Move.parse("S c1"))  # the game is over: into the history
    keeper.save_settings({})
    keeper.wait(5)
    keeper.close()
    assert notices[0] == ("Permainan ini tidak dapat disimpan secara automatik: tidak dapat menyimpan "
                          "/data/x.json: cakera penuh")
    assert ("Permainan ini belum dapat ditambah ke sejarah (ia disimpan dan akan dicuba lagi): tidak dapat "
            "menyimpan /data/h.json: cakera penuh") in notices
    assert notices[-1] == ("Tetapan tidak dapat diingati: tidak dapat mencipta folder /config: kebenaran "
                           "ditolak")
    for notice in notices:
        malay(notice, "Could not")


def test_a_computer_that_stopped_and_a_seat_out_of_turn_are_said_in_malay():
    i18n.set_language("ms")
    failed = ComputerFailed(STOPPED_TWICE)
    assert str(failed) == "proses komputer terhenti dua kali berturut-turut"
    session = GameSession(GameRecord(3, Mode.GENERAL, (PlayerInfo("Ana"), PlayerInfo("Bo"))))
    with pytest.raises(NotYourTurnError) as caught:
        session.play(Move.parse("S a1"), by=(1,))
    assert str(caught.value) == "it is Ana's turn, not Bo's"  # the engine's way: English in str()
    assert explain(caught.value) == "sekarang giliran Ana, bukan giliran Bo"
    i18n.set_language("en")
    assert explain(failed) == "the computer's process stopped twice in a row"


# -- the network: what a server says, seen by a Malay client ---------------------------------------
def test_a_known_server_message_is_said_in_the_clients_language_with_its_values_as_data():
    message = ErrorMessage.of("waiting", "waiting for {names} to reconnect", names="Bo\x1b[31m")
    assert message.message == "waiting for Bo\\x1b[31m to reconnect"  # English, for every client,
    assert message.template == "waiting for {names} to reconnect"  # its values quoted escaped
    assert message.params == {"names": "Bo\\x1b[31m"}
    assert message.text == "waiting for Bo\\x1b[31m to reconnect"
    i18n.set_language("ms")
    assert parse_server(message.to_json()).text == "menunggu Bo\\x1b[31m menyambung semula"
    raw = {"type": "error", "code": "waiting", "message": "?", "template": "waiting for {names} to reconnect",
           "params": {"names": "Bo\x1b[31m"}}  # a server that sent it raw: the client escapes it
    assert parse_server(json.dumps(raw)).text == "menunggu Bo\\x1b[31m menyambung semula"
    long = ErrorMessage.of("not-your-turn", "it is {name}'s turn", name="x" * 500)
    assert long.text == "sekarang giliran " + "x" * 59 + "…"


@pytest.mark.parametrize("message", [
    {"message": "evil \x1b[2J", "template": "{0.__class__.__mro__}", "params": {}},
    {"message": "evil \x1b[2J", "template": "{names!r:>99999}", "params": {"names": "x"}},
    {"message": "evil \x1b[2J", "template": "waiting for {names} to reconnect", "params": {"names": ["a"]}},
    {"message": "evil \x1b[2J", "template": "waiting for {names} to reconnect", "params": {"names": True}},
    {"message": "evil \x1b[2J", "template": "waiting for {names} to reconnect", "params": {"names": 10**30}},
    {"message": "evil \x1b[2J", "template": "waiting for {names} to reconnect", "params": {}},
    {"message": "evil \x1b[2J", "template": "waiting for {names} to reconnect",
     "params": {"names": "a", "extra": "b"}},
    {"message": "evil \x1b[2J", "template": "waiting for {names} to reconnect", "params": "names"},
    {"message": "evil \x1b[2J", "template": ["waiting for {names} to reconnect"], "params": {}},
    {"message": "evil \x1b[2J"},
])
def test_an_unknown_or_malicious_template_is_shown_as_the_escaped_english_message(message):
    i18n.set_language("ms")
    assert said(message["message"], message.get("template"), message.get("params")) == "evil \\x1b[2J"
    assert parse_server(json.dumps({"type": "error", "code": "x", **message})).text == "evil \\x1b[2J"


def test_only_known_templates_and_plain_values_go_on_the_wire():
    def sent(message: ErrorMessage) -> dict:
        return json.loads(message.to_json())

    boom = ErrorMessage.of("computer", "the computer could not move: {error}", error="boom")
    assert "template" not in sent(boom)
    assert "template" not in sent(ErrorMessage.of("x", "waiting for {names} to reconnect", names=["a"]))
    refused = ProtocolError.wrap("bad-name", ValueError("plain"))
    assert str(refused) == "plain"
    assert "template" not in sent(ErrorMessage.refusing(refused))
    in_the_catalog = {message.id for message in catalog_tool.extract()}
    assert set(SERVER_MESSAGES) <= in_the_catalog  # every one can be translated


def test_a_redis_service_that_lost_redis_or_a_game_is_said_in_malay():
    from sos_tui.net.cluster import Unavailable
    from sos_tui.net.errors import GONE
    from sos_tui.net.protocol import ClosedMessage

    away = ErrorMessage.refusing(Unavailable())
    assert away.code == "unavailable"
    assert away.message == "the server cannot reach its games database just now: try again in a moment"
    i18n.set_language("ms")
    assert parse_server(away.to_json()).text == ("pelayan tidak dapat mencapai pangkalan data permainannya "
                                                 "buat masa ini: cuba lagi sebentar lagi")
    assert parse_server(ClosedMessage.of(GONE).to_json()).text == (
        "permainan ini telah hilang: pangkalan data permainan pelayan dimulakan semula dalam keadaan kosong")


async def test_a_wrong_room_code_and_a_refused_move_reach_a_malay_client_in_malay():
    i18n.set_language("ms")
    server = Server(computer=None)
    await server.start("127.0.0.1", 0)
    try:
        room = server.create_room(3, "general", [{"kind": "remote"}, {"kind": "remote"}])
        wrong = server.url(room).rsplit("/", 1)[0] + "/00000-00000"
        with pytest.raises(NetError) as caught:
            await RemoteGame(wrong, "Ana", tokens=TokenStore()).connect()
        assert caught.value.code == "no-room" and not caught.value.retry
        assert str(caught.value) == ("tiada permainan dengan kod bilik itu di sini: semak kod itu; permainan "
                                     "itu mungkin sudah tamat")
        ana = RemoteGame(server.url(room), "Ana", tokens=TokenStore())
        bo = RemoteGame(server.url(room), "Bo", tokens=TokenStore())
        await ana.connect()
        await bo.connect()
        updates = bo.updates()
        while bo.phase != "playing":
            await asyncio.wait_for(anext(updates), 5)
        with pytest.raises(NotYourTurnError) as early:  # the client's own check
            await bo.play(Move.parse("S a1"))
        assert explain(early.value) == "tunggu Ana melangkah"
        await send_raw(bo, {"type": "move", "move": "S a1"})  # past it: the server refuses
        while bo.last_error is None:
            await asyncio.wait_for(anext(updates), 5)
        assert bo.last_error.message == "it is Ana's turn, not Bo's"  # English on the wire
        assert bo.last_error.text == "sekarang giliran Ana, bukan giliran Bo"
        await ana.close()
        await bo.close()
    finally:
        await server.stop()


async def test_a_hostile_servers_template_is_not_formatted_by_the_client():
    async def hostile(ws):
        await ws.recv()
        await ws.send(encode({"type": "error", "code": "no-room", "message": "go away\x1b[31m",
                              "template": "{0.__init__.__globals__}", "params": {}}))
        await ws.wait_closed()

    i18n.set_language("ms")
    async with serve(hostile, "127.0.0.1", 0) as hostile_server:
        port = hostile_server.sockets[0].getsockname()[1]
        with pytest.raises(NetError) as caught:
            await RemoteGame(f"ws://127.0.0.1:{port}/00000-00000", "Ana", tokens=TokenStore()).connect()
    assert str(caught.value) == "go away\\x1b[31m"


async def test_the_server_command_speaks_malay():
    i18n.set_language("ms")
    lines: list[str] = []
    stop = asyncio.Event()
    running = asyncio.ensure_future(serve_forever("127.0.0.1", 0, lines.append, stop=stop))
    await wait_for(None, lambda: len(lines) >= 2)
    stop.set()
    assert await asyncio.wait_for(running, 10) == 0
    assert lines[0].startswith("ws://127.0.0.1:")
    assert lines[1].startswith("cipta permainan dengan: sos-tui host --server ws://127.0.0.1:")
    assert lines[-1] == "dihentikan"


def test_a_bad_game_address_is_said_in_malay():
    i18n.set_language("ms")
    with pytest.raises(ValueError, match="alamat permainan tiada kod bilik"):
        parse_url("ws://127.0.0.1:7531")
    with pytest.raises(ValueError, match="bukan kod bilik"):
        parse_url("ws://127.0.0.1:7531/nope")


async def test_the_app_shows_a_full_disk_in_malay_at_80x24():
    """The keeper's notice reaches the player as a toast, in Malay, and fits the 80x24 screen."""
    from textual.geometry import Region

    from .support.helpers import make_app

    i18n.set_language("ms")
    app = make_app(store=FullDisk(), settings={"language": "ms"})
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("enter")  # S at a1: the autosave hits the full disk
        app.keeper.wait(5)
        await wait_for(pilot, lambda: app.screen.query("Toast"))
        notices = [n.message for n in app.notices if "cakera penuh" in n.message]
        assert notices and all(n.startswith("Permainan ini tidak dapat disimpan secara automatik: ")
                               for n in notices)
        malay(" ".join(notices))
        lines = []
        for toast in app.screen.query("Toast"):
            width, height = toast.outer_size
            assert toast.region.right <= 80 and toast.region.bottom <= 24
            lines += [strip.text for strip in toast.render_lines(Region(0, 0, width, height))]
        shown_text = " ".join(" ".join(lines).split())
        assert "cakera penuh" in shown_text and "Permainan ini tidak dapat disimpan" in shown_text
