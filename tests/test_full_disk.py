"""Nothing a player made is lost on a full disk or at exit.

The data folder's disk is filled deterministically (``disk.fill()``): every game file sos-tui
writes there fails with ENOSPC, and the history's tables fail to be made or upgraded as SQLite
fails on a full disk. ``disk.free()`` gives the space back. The system's temporary folder (where
the spare outbox goes) is a folder of the test's own, on another "disk".
"""

from __future__ import annotations

import errno
import json
import sqlite3
import tempfile
from pathlib import Path

import pytest

from sos_tui import cli
from sos_tui.cli import play as play_command
from sos_tui.engine import GameRecord, GameState, Mode, Move, PlayerInfo
from sos_tui.session import GameSession, Keeper
from sos_tui.session.keeper import StorageStore
from sos_tui.storage import (
    History,
    Recorder,
    StorageError,
    autosave_path,
    describe,
    files,
    load_record,
    save_record,
)
from sos_tui.storage.history import schema
from sos_tui.storage.paths import data_dir
from sos_tui.storage.recorder import spare_outbox

SWEEP = ["S a1", "S c3", "S c1", "S a3", "O b2", "O b1", "O b3", "O a2", "O c2"]  # 3x3, ends full


class Disk:
    def __init__(self, monkeypatch) -> None:
        self.full = False
        write_atomic, migrate = files.write_atomic, schema._migrate

        def full_write_atomic(path, text):
            if self.full and Path(path).is_relative_to(data_dir()):
                raise StorageError("could not save {path}: {reason}", path=str(path),
                                   reason=describe(OSError(errno.ENOSPC, "No space left on device")))
            return write_atomic(path, text)

        def full_migrate(conn, path):
            if self.full:
                error = sqlite3.OperationalError("database or disk is full")
                error.sqlite_errorcode = 13  # SQLITE_FULL
                raise error
            return migrate(conn, path)

        monkeypatch.setattr(files, "write_atomic", full_write_atomic)
        monkeypatch.setattr(schema, "_migrate", full_migrate)

    def fill(self) -> None:
        self.full = True

    def free(self) -> None:
        self.full = False


@pytest.fixture
def disk(monkeypatch) -> Disk:
    return Disk(monkeypatch)


@pytest.fixture(autouse=True)
def temp_folder(tmp_path, monkeypatch) -> Path:
    """The system's temporary folder, as the spare outbox sees it."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def no_temp_folder(temp_folder: Path) -> None:
    """The temporary folder is unusable too (a file in its place)."""
    temp_folder.rmdir()
    temp_folder.write_text("not a folder")


def finished(n: int = 0) -> GameRecord:
    state = GameState.from_moves(SWEEP, 3)
    return GameRecord(3, Mode.GENERAL, (PlayerInfo("Ana"), PlayerInfo("Bo")), state.moves,
                      f"2026-01-01T10:00:{n:02d}+00:00", f"2026-01-01T10:01:{n:02d}+00:00", f"game{n}")


def play(keeper: Keeper, moves: list[str], record: GameRecord | None = None) -> GameSession:
    session = GameSession(record or GameRecord(3, Mode.GENERAL, (PlayerInfo("Ana"), PlayerInfo("Bo"))))
    session.subscribe(keeper.on_change)
    for text in moves:
        session.play(Move.parse(text))
    keeper.wait(10)
    return session


def history_json(capsys) -> list[dict]:
    capsys.readouterr()
    assert cli.main(["history", "--json"]) == 0
    return json.loads(capsys.readouterr().out)["games"]


# -- the history file ------------------------------------------------------------------------------
def test_an_empty_history_file_is_a_new_history_that_keeps_games(data):
    data.mkdir()
    (data / "history.sqlite3").write_bytes(b"")  # what an older sos-tui left on a full disk
    with History() as history:
        assert history.count() == 0
        history.record_game(finished(1))
    with History() as history:
        assert [entry.game_id for entry in history.games()] == ["game1"]


def test_a_history_that_cannot_be_made_leaves_no_file_and_the_game_pending(data, disk):
    disk.fill()
    recorder = Recorder()
    with pytest.raises(StorageError, match="the disk is full"):
        recorder.record(finished(2))
    assert sorted(p.name for p in data.iterdir()) == ["pending"]  # no history, no temporary file
    assert [r.game_id for r in recorder.pending] == ["game2"]
    disk.free()
    assert recorder.flush() == 1
    with History() as history:
        assert [entry.game_id for entry in history.games()] == ["game2"]


# -- the outbox and the last resort ----------------------------------------------------------------
def test_a_game_held_only_in_memory_reaches_the_outbox_when_the_disk_has_room_again(data, disk, temp_folder):
    no_temp_folder(temp_folder)
    History().close()
    blocker = sqlite3.connect(data / "history.sqlite3", isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")  # the history stays busy throughout
    try:
        recorder = Recorder(timeout=0.1)
        disk.fill()
        with pytest.raises(StorageError, match="until sos-tui closes"):
            recorder.record(finished(3))
        assert [r.game_id for r in recorder.unsaved] == ["game3"]
        disk.free()
        assert recorder.flush() == 0  # still busy, but now on disk
        assert recorder.unsaved == ()
        assert load_record(data / "pending" / "game3.json") == finished(3)
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert Recorder().flush() == 1  # as the next launch does


def test_a_finished_autosave_goes_into_the_history_before_old_autosaves_are_pruned(data):
    save_record(finished(4), autosave_path(finished(4)))  # the outbox could not be written
    StorageStore().flush()  # at the next launch
    with History() as history:
        assert [entry.game_id for entry in history.games()] == ["game4"]
    assert not autosave_path(finished(4)).exists()


# -- notices ---------------------------------------------------------------------------------------
class FlakyStore:
    """A store whose every write fails while ``full``."""

    def __init__(self) -> None:
        self.full = False
        self.autosaves: dict[str, GameRecord] = {}

    def _write(self) -> None:
        if self.full:
            raise StorageError("could not save {path}: {reason}", path="/data/x.json",
                               reason=describe(OSError(errno.ENOSPC, "full")))

    def autosave(self, record):
        self._write()
        self.autosaves[record.game_id] = record

    def clear_autosave(self, record):
        self.autosaves.pop(record.game_id, None)

    def record_finished(self, record):
        self._write()

    def flush(self):
        return 0

    def save_settings(self, settings):
        self._write()

    def lost(self):
        return []


def test_a_full_disk_is_one_notice_and_saving_again_is_another():
    store = FlakyStore()
    errors, recoveries = [], []
    keeper = Keeper(store, on_error=errors.append, on_recovery=recoveries.append, flush_at_start=False)
    session = GameSession(GameRecord(5, Mode.GENERAL, (PlayerInfo("Ana"), PlayerInfo("Bo"))))
    session.subscribe(keeper.on_change)
    store.full = True
    for text in ["S a1", "O b1", "S c1", "O d1"]:
        session.play(Move.parse(text))
        keeper.wait(5)
    assert len(errors) == 1 and "the disk is full" in errors[0]
    assert recoveries == []
    store.full = False
    for text in ["S a2", "O b2"]:
        session.play(Move.parse(text))
        keeper.wait(5)
    assert recoveries == ["Saving works again."] and len(errors) == 1
    store.full = True
    session.play(Move.parse("S c2"))
    keeper.wait(5)
    assert len(errors) == 2  # a new spell of a full disk is told again
    keeper.close()


async def test_the_app_shows_one_not_saved_notice_while_the_disk_is_full():
    from .support.helpers import make_app

    store = FlakyStore()
    store.full = True
    app = make_app(size=4, store=store)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        for key in ["enter", "right", "s", "right", "o", "down", "s"]:
            await pilot.press(key)
            app.keeper.wait(5)
            await pilot.pause()
        store.full = False
        for key in ["left", "o", "left", "s"]:
            await pilot.press(key)
            app.keeper.wait(5)
            await pilot.pause()
        await pilot.pause()
        titles = [notice.title for notice in app.notices]
        assert titles.count("Not saved") == 1
        assert [n.message for n in app.notices if n.title == "Saved"] == ["Saving works again."]


# -- a game finished on a full disk, from the end of the game to the next launch ------------------
def test_a_game_finished_on_a_full_disk_is_in_the_history_once_space_returns(data, disk, capsys):
    disk.fill()  # a fresh data folder on a full disk
    errors = []
    keeper = Keeper(on_error=errors.append)
    session = play(keeper, SWEEP)
    assert session.state.is_over
    assert any("it is kept and tried again" in e and "the disk is full" in e for e in errors)
    assert not (data / "history.sqlite3").exists()
    disk.free()  # space returns before the player quits
    assert keeper.close() == []
    relaunched = Keeper()
    relaunched.wait(10)
    assert relaunched.close() == []
    games = history_json(capsys)
    assert [(game["id"], game["scores"]) for game in games] == [(session.game_id, list(session.state.scores))]


def test_a_game_finished_on_a_disk_full_through_exit_is_kept_in_the_spare_outbox_until_space_returns(
        data, disk, capsys):
    disk.fill()  # a fresh data folder on a full disk, until after the player quits
    keeper = Keeper()
    session = play(keeper, SWEEP)
    notes = keeper.close()
    spare = spare_outbox(data / "pending") / f"{session.game_id}.json"
    assert notes == [f"the finished game Ana vs Bo could not be saved in the data folder (could not save "
                     f"{data / 'pending' / spare.name}: the disk is full); it is kept in {spare} until the "
                     "computer restarts, and goes into the history the next time sos-tui starts"]
    assert not (data / "history.sqlite3").exists()
    disk.free()
    relaunched = Keeper()
    relaunched.wait(10)
    assert relaunched.close() == []
    assert [game["id"] for game in history_json(capsys)] == [session.game_id]
    assert not spare.exists()


def test_a_game_that_can_be_kept_nowhere_is_named_at_exit_with_its_autosave(data, disk, temp_folder):
    no_temp_folder(temp_folder)
    keeper = Keeper()
    session = play(keeper, SWEEP[:-1])  # autosaved up to the move before the end
    disk.fill()
    session.play(Move.parse(SWEEP[-1]))
    keeper.wait(10)
    notes = keeper.close()
    path, outbox = autosave_path(session.record), data / "pending" / f"{session.game_id}.json"
    assert notes == [f"the finished game Ana vs Bo could not be saved (could not save {outbox}: the disk is "
                     f"full); its last autosave, from before the end, is {path} and sos-tui offers to "
                     "continue it"]
    disk.free()
    assert load_record(path).moves == session.record.moves[:-1]  # the position that is kept
    relaunched = Keeper()
    relaunched.wait(10)
    relaunched.close()
    assert load_record(path).moves == session.record.moves[:-1]  # not pruned: it can be continued


def test_the_cli_tells_on_the_terminal_of_a_game_it_could_not_keep_whole(monkeypatch, capsys):
    note = "the finished game Ana vs Bo could not be saved; it is kept in /tmp/" + "x" * 300 + ".json"
    monkeypatch.setattr(play_command, "has_terminal", lambda: True)
    monkeypatch.setattr(play_command, "launch", lambda game, mouse: [note])
    assert cli.main(["--size", "3", "--players", "Ana,Bo"]) == 2
    assert capsys.readouterr().err == f"sos-tui: {note}\n"  # where the game is, not cut short


async def test_the_app_hands_what_it_could_not_keep_to_the_cli_at_exit(data, disk, temp_folder):
    no_temp_folder(temp_folder)
    from .support.helpers import make_app

    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        session = app.session
        for text in SWEEP[:-1]:
            session.play(Move.parse(text))
        app.keeper.wait(10)
        disk.fill()
        session.play(Move.parse(SWEEP[-1]))
        app.keeper.wait(10)
        await pilot.press("ctrl+q")
    assert len(app.exit_notes) == 1 and "Ana vs Bo could not be saved" in app.exit_notes[0]


async def test_the_keeper_tells_the_player_without_waiting_for_the_screen():
    """The keeper's thread says what failed without waiting for the UI thread: as the app quits,
    the UI thread waits for the keeper's last writes, and a wait on each other held the quit up
    for 10 s whenever those writes failed or worked again."""
    import threading

    from .support.helpers import make_app, wait_for

    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        teller = threading.Thread(target=app.keeper.on_error, args=("cannot save: disk full",))
        teller.start()
        teller.join(5)  # the UI thread is held here, as it is while the app quits
        assert not teller.is_alive()
        await wait_for(pilot, lambda: any(n.message == "cannot save: disk full" for n in app.notices))


def test_saving_works_again_is_said_in_malay():
    from sos_tui import i18n

    i18n.set_language("ms")
    store = FlakyStore()
    errors, recoveries = [], []
    keeper = Keeper(store, on_error=errors.append, on_recovery=recoveries.append, flush_at_start=False)
    store.full = True
    keeper.save_settings({})
    keeper.wait(5)
    store.full = False
    keeper.save_settings({})
    keeper.wait(5)
    keeper.close()
    assert errors == ["Tetapan tidak dapat diingati: tidak dapat menyimpan /data/x.json: cakera penuh"]
    assert recoveries == ["Penyimpanan berfungsi semula."]


def test_a_finished_autosave_is_not_pruned_while_its_game_is_only_in_the_spare_outbox(data, disk):
    save_record(finished(5), autosave_path(finished(5)))
    disk.fill()
    StorageStore().flush()  # the history and the outbox cannot take it: the spare outbox does
    assert load_record(autosave_path(finished(5))) == finished(5)  # kept on the data folder's disk
    disk.free()
    StorageStore().flush()
    with History() as history:
        assert [entry.game_id for entry in history.games()] == ["game5"]
    assert not autosave_path(finished(5)).exists()
