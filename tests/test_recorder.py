"""A finished game is never lost: storage.Recorder, and error words a player understands."""

from __future__ import annotations

import errno
import sqlite3
import tempfile
import threading

import pytest

from sos_tui.engine import GameRecord, GameState, Mode, PlayerInfo
from sos_tui.storage import History, Recorder, StorageError, describe, history_db_path, save_record

SWEEP = ["S a1", "S c3", "S c1", "S a3", "O b2", "O b1", "O b3", "O a2", "O c2"]


def finished(n: int = 0) -> GameRecord:
    state = GameState.from_moves(SWEEP, 3)
    return GameRecord(3, Mode.GENERAL, (PlayerInfo("Ana"), PlayerInfo(f"Bo{n}")), state.moves,
                      f"2026-01-01T10:00:{n:02d}+00:00", f"2026-01-01T10:01:{n:02d}+00:00", f"game{n}")


@pytest.fixture(autouse=True)
def no_spare_outbox(tmp_path, monkeypatch):
    """The system's temporary folder is unusable (a file in its place), so a game the outbox cannot
    take has no spare outbox either and stays in memory (tests/test_full_disk.py has the spare)."""
    blocker = tmp_path / "tmp-blocker"
    blocker.write_text("not a folder")
    monkeypatch.setattr(tempfile, "tempdir", str(blocker))


def rows_by_id() -> dict[str, int]:
    conn = sqlite3.connect(history_db_path())
    try:
        return dict(conn.execute("SELECT game_id, count(*) FROM games GROUP BY game_id").fetchall())
    finally:
        conn.close()


@pytest.fixture
def locked(data):
    """The history database held under an EXCLUSIVE lock by another connection until released."""
    History().close()
    blocker = sqlite3.connect(history_db_path(), isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")
    held = threading.Event()
    held.set()

    def release():
        if held.is_set():
            blocker.execute("ROLLBACK")
            blocker.close()
            held.clear()
    yield release
    release()


def test_a_game_is_recorded(data):
    recorder = Recorder()
    recorder.record(finished())
    assert len(rows_by_id()) == 1
    assert recorder.pending == () and recorder.flush() == 0


def test_a_locked_history_keeps_the_game_pending_in_memory_and_on_disk(data, locked):
    recorder = Recorder(timeout=0.1)
    first, second = finished(1), finished(2)
    with pytest.raises(StorageError) as caught:
        recorder.record(first)
    message = str(caught.value)
    assert "the history database is busy (another sos-tui is writing to it)" in message
    assert "kept" in message and "\n" not in message
    assert [r.game_id for r in recorder.pending] == [first.game_id]
    assert (data / "pending" / f"{first.game_id}.json").exists()
    with pytest.raises(StorageError):
        recorder.record(second)
    assert [r.game_id for r in recorder.pending] == [first.game_id, second.game_id]
    assert recorder.flush() == 0  # still locked: nothing recorded, nothing raised
    locked()
    assert recorder.flush() == 2
    assert rows_by_id() == {first.game_id: 1, second.game_id: 1}
    assert recorder.pending == () and list((data / "pending").iterdir()) == []


def test_a_game_left_in_the_outbox_by_an_earlier_run_is_recorded_by_the_next(data, locked):
    earlier = Recorder(timeout=0.1)
    game = finished(3)
    with pytest.raises(StorageError):
        earlier.record(game)
    del earlier  # the app closed
    locked()
    later = Recorder()
    assert [r.game_id for r in later.pending] == [game.game_id]
    later.record(finished(4))  # recording flushes the earlier game first
    assert rows_by_id() == {game.game_id: 1, finished(4).game_id: 1}
    assert later.pending == () and list((data / "pending").iterdir()) == []


def test_the_same_game_retried_many_times_has_one_row(data, locked):
    recorder = Recorder(timeout=0.1)
    game = finished(5)
    for _ in range(3):
        with pytest.raises(StorageError):
            recorder.record(game)
    redone = game.with_state(GameState.from_moves(SWEEP, 3))
    with pytest.raises(StorageError):
        recorder.record(redone)
    assert len(recorder.pending) == 1
    locked()
    assert recorder.flush() == 1
    assert rows_by_id() == {game.game_id: 1}
    recorder.record(game)
    assert rows_by_id() == {game.game_id: 1}


def test_an_unusable_data_folder_keeps_the_game_in_memory(data, tmp_path):
    blocker = tmp_path / "folder"
    blocker.write_text("a file where the folder should be")  # no database, no outbox can be made
    recorder = Recorder(blocker / "history.sqlite3", timeout=0.1)
    game = finished(6)
    with pytest.raises(StorageError) as caught:
        recorder.record(game)
    assert "until sos-tui closes" in str(caught.value)
    assert [r.game_id for r in recorder.pending] == [game.game_id]
    blocker.unlink()
    blocker.mkdir()  # the player fixed it
    assert recorder.flush() == 1
    with History(blocker / "history.sqlite3") as history:
        assert [e.game_id for e in history.games()] == [game.game_id]


def test_a_failing_database_path_keeps_the_game_pending(data, tmp_path):
    folder = tmp_path / "db-is-a-folder"
    (folder / "history.sqlite3").mkdir(parents=True)
    recorder = Recorder(folder / "history.sqlite3", timeout=0.1)
    with pytest.raises(StorageError, match="could not be added to the history"):
        recorder.record(finished(7))
    assert len(recorder.pending) == 1 and (folder / "pending" / f"{finished(7).game_id}.json").exists()


def test_an_unfinished_game_is_refused_at_once(data):
    with pytest.raises(ValueError, match="still running"):
        Recorder().record(finished().with_state(GameState.new(3)))
    assert Recorder().pending == ()


def test_two_threads_recording_at_once(data):
    recorder = Recorder()
    games = [finished(n) for n in range(20)]
    threads = [threading.Thread(target=lambda g=g: recorder.record(g)) for g in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert rows_by_id() == {g.game_id: 1 for g in games}


@pytest.mark.parametrize(("error", "words"), [
    (OSError(errno.ENOSPC, "No space left on device"), "the disk is full"),
    (OSError(errno.EACCES, "Permission denied"), "permission denied"),
    (OSError(errno.EROFS, "Read-only file system"), "the disk is read-only"),
    (OSError(errno.ENAMETOOLONG, "File name too long"), "the name is too long"),
    (OSError(errno.ELOOP, "Too many levels of symbolic links"), "too many symbolic links"),
    (sqlite3.OperationalError("database or disk is full"), "the disk is full"),
    (sqlite3.OperationalError("database is locked"), "the history database is busy"),
    (sqlite3.DatabaseError("file is not a database"), "the history file is damaged"),
    (sqlite3.DatabaseError("database disk image is malformed"), "the history file is damaged"),
])
def test_describe_puts_errors_in_a_players_words(error, words):
    if isinstance(error, sqlite3.Error):  # as sqlite3 raises them, with the result code
        error.sqlite_errorcode = {"full": 13, "locked": 5, "not a": 26, "malformed": 11}[
            next(k for k in ("full", "locked", "not a", "malformed") if k in str(error))]
    assert describe(error).startswith(words)


def test_describe_of_a_real_full_sqlite_error():
    conn = sqlite3.connect(":memory:")
    conn.execute("PRAGMA max_page_count = 2")
    conn.execute("CREATE TABLE t (x)")
    with pytest.raises(sqlite3.Error) as caught:
        conn.executemany("INSERT INTO t VALUES (?)", [("x" * 1000,)] * 100)
    assert describe(caught.value) == "the disk is full"


def test_games_kept_only_in_memory_reach_the_outbox_when_it_can_be_written(data, tmp_path, locked):
    blocker = tmp_path / "pending-blocker"
    recorder = Recorder(timeout=0.1)
    (data / "pending").write_text("a file where the outbox folder should be")
    with pytest.raises(StorageError, match="until sos-tui closes"):
        recorder.record(finished(8))
    (data / "pending").rename(blocker)
    with pytest.raises(StorageError, match="will be added later"):
        recorder.record(finished(9))
    assert sorted(p.name for p in (data / "pending").iterdir()) == ["game8.json", "game9.json"]
    locked()
    assert Recorder().flush() == 2  # as the next run would
    assert rows_by_id() == {"game8": 1, "game9": 1}


def test_a_foreign_or_damaged_outbox_file_is_left_alone(data):
    (data / "pending").mkdir(parents=True)
    (data / "pending" / "junk.json").write_text("{")
    save_record(finished(10), data / "pending" / "renamed.json")
    assert Recorder().pending == ()
    assert Recorder().flush() == 0
