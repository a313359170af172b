"""The storage layer: data folder, atomic saves, careful loading, autosave, and the history database."""

from __future__ import annotations

import hashlib
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from datetime import datetime
from pathlib import Path

import pytest

from sos_tui.engine import GameRecord, GameState, Move, PlayerInfo, transcript
from sos_tui.storage import (
    Filters,
    History,
    HistoryError,
    LoadError,
    StorageError,
    autosave,
    autosave_path,
    autosaves_dir,
    clean_stale_temp_files,
    clear_autosave,
    data_dir,
    default_save_name,
    delete_save,
    export_transcript,
    history_db_path,
    list_autosaves,
    list_saves,
    load_autosave,
    load_record,
    prune_autosaves,
    resolve_open_path,
    resolve_save_path,
    save_record,
    saves_dir,
    transcript_path,
    unique_save_path,
)
from sos_tui.storage import paths as paths_module
from sos_tui.storage.history import longest_chain
from sos_tui.storage.history import schema as schema_module
from sos_tui.storage.history.facts import game_facts

from .support.games import (
    ANA,
    BO,
    DRAW_4X4,
    EASY,
    HARD,
    P1_SWEEP,
    P2_SWEEP,
    SIMPLE_P1,
    make_record,
    sample_games,
)

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def utc(monkeypatch) -> None:
    """Local time is UTC, so dates print predictably."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def child_env(folder: Path) -> dict:
    env = dict(os.environ, SOS_TUI_DATA_DIR=str(folder))
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


# -- paths -------------------------------------------------------------------------------------
def test_the_data_folder_follows_the_environment_and_is_created(data):
    assert not data.exists()
    assert data_dir() == data and data.is_dir()
    assert saves_dir() == data / "saves" and saves_dir().is_dir()
    assert autosaves_dir() == data / "autosaves" and autosaves_dir().is_dir()
    assert history_db_path() == data / "history.sqlite3"


def test_without_the_variable_the_platform_user_folder_for_sos_tui_is_used(tmp_path, monkeypatch):
    monkeypatch.delenv("SOS_TUI_DATA_DIR")
    asked = []

    def fake_user_data_path(appname, appauthor=None):
        asked.append(appname)
        return tmp_path / "platform" / appname

    monkeypatch.setattr(paths_module.platformdirs, "user_data_path", fake_user_data_path)
    assert data_dir() == tmp_path / "platform" / "sos-tui"
    assert asked == ["sos-tui"]


def test_a_data_folder_that_cannot_be_created_is_a_storage_error(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("SOS_TUI_DATA_DIR", str(blocker / "sub"))
    with pytest.raises(StorageError, match="cannot create the folder"):
        data_dir()


# -- saving and loading ------------------------------------------------------------------------
def test_save_then_load_gives_the_same_game(tmp_path):
    record = make_record(P1_SWEEP[:5], players=(ANA, HARD))
    path = save_record(record, tmp_path / "game.json")
    loaded = load_record(path)
    assert loaded == record
    assert loaded.state.scores == (2, 0)
    assert json.loads(path.read_text(encoding="utf-8"))["format"] == "sos-game"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no temp file left behind


def test_saving_again_replaces_the_file(tmp_path):
    path = tmp_path / "game.json"
    save_record(make_record(SIMPLE_P1[:1]), path)
    save_record(make_record(SIMPLE_P1, mode="simple"), path)
    assert load_record(path).state.is_over
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


@pytest.mark.parametrize("broken", ["fsync", "replace"])
def test_a_failed_save_leaves_the_old_file_intact_and_no_temp_file(tmp_path, monkeypatch, broken):
    path = tmp_path / "game.json"
    save_record(make_record(SIMPLE_P1[:1]), path)
    before = path.read_bytes()

    def fail(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, broken, fail)
    with pytest.raises(StorageError) as caught:
        save_record(make_record(SIMPLE_P1), path)
    monkeypatch.undo()
    assert "could not save" in str(caught.value) and str(path) in str(caught.value)
    assert "the disk is full" in str(caught.value)
    assert isinstance(caught.value, OSError)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_saving_into_a_missing_folder_says_so(tmp_path):
    with pytest.raises(StorageError, match="the folder does not exist"):
        save_record(make_record([]), tmp_path / "nowhere" / "game.json")


GOOD = make_record(SIMPLE_P1).to_json()


def _bad_json(data: dict) -> str:
    return json.dumps(data)


BAD_FILES = {
    "corrupt JSON": ('{"format": "sos-game", "version": 1,,,}', "not valid JSON"),
    "truncated": (GOOD[: len(GOOD) // 2], "not valid JSON"),
    "not a game record": ('{"hello": "world"}', "not a game record"),
    "a JSON list": ("[1, 2, 3]", "not a game record"),
    "newer version": (_bad_json({**json.loads(GOOD), "version": 99}), "newer than this sos-tui"),
    "illegal move": (_bad_json({**json.loads(GOOD), "moves": ["S a1", "O a1"]}), "move 2"),
    "off the board": (_bad_json({**json.loads(GOOD), "moves": ["S z9"]}), "off the 3x3 board"),
    "bad size": (_bad_json({**json.loads(GOOD), "size": 99}), "board size"),
    "binary garbage": (bytes(range(256)) * 8, "not UTF-8"),
    "NUL bytes": (b'{"format"\x00\x00\x00}', "binary"),
    "empty": (b"", "empty"),
    "deeply nested": ("[" * 100_000 + "]" * 100_000, "not a game record"),
}


@pytest.mark.parametrize("kind", list(BAD_FILES))
def test_a_bad_file_gives_a_clear_load_error_and_is_left_untouched(tmp_path, kind):
    content, problem = BAD_FILES[kind]
    path = tmp_path / "bad.json"
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_bytes(content)
    before, stamp = path.read_bytes(), path.stat().st_mtime_ns
    with pytest.raises(LoadError) as caught:
        load_record(path)
    message = str(caught.value)
    assert message.startswith(str(path))
    assert problem in message
    assert "\n" not in message and "Traceback" not in message
    assert path.read_bytes() == before and path.stat().st_mtime_ns == stamp
    assert [p.name for p in tmp_path.iterdir()] == ["bad.json"]


def test_a_huge_file_is_refused_without_reading_it_as_a_game(tmp_path):
    path = tmp_path / "huge.json"
    with open(path, "wb") as handle:
        handle.truncate(5 * 1024 * 1024 + 1)
    with pytest.raises(LoadError, match="too big"):
        load_record(path)
    assert path.stat().st_size == 5 * 1024 * 1024 + 1


def test_a_folder_a_missing_file_and_an_unreadable_file_are_load_errors(tmp_path):
    folder = tmp_path / "folder.json"
    folder.mkdir()
    with pytest.raises(LoadError, match="is a folder"):
        load_record(folder)
    assert folder.is_dir()
    missing = tmp_path / "missing.json"
    with pytest.raises(LoadError, match="no such file"):
        load_record(missing)
    assert not missing.exists()
    assert issubclass(LoadError, ValueError)


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="needs POSIX permissions, not root")
def test_an_unreadable_file_is_a_load_error(tmp_path):
    path = save_record(make_record(SIMPLE_P1), tmp_path / "secret.json")
    path.chmod(0)
    try:
        with pytest.raises(LoadError, match="permission denied"):
            load_record(path)
    finally:
        path.chmod(0o600)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_named_pipe_does_not_hang_the_loader(tmp_path):
    pipe = tmp_path / "pipe.json"
    os.mkfifo(pipe)
    with pytest.raises(LoadError, match="not a regular file"):
        load_record(pipe)


# -- the list of saves -------------------------------------------------------------------------
def test_list_saves_shows_good_and_bad_files_newest_first(data):
    folder = saves_dir()
    old = save_record(make_record(P1_SWEEP, players=(ANA, BO)), folder / "old.json")
    mid = folder / "broken.json"
    mid.write_text("{not json", encoding="utf-8")
    new = save_record(make_record(DRAW_4X4[:6], size=4, players=(ANA, EASY)), folder / "new.json")
    (folder / "notes.txt").write_text("not a save")
    (folder / ".new.json.abc.tmp").write_text("half a save")
    for age, path in enumerate([new, mid, old]):
        os.utime(path, (1_800_000_000 - age * 60, 1_800_000_000 - age * 60))

    saves = list_saves()
    assert [s.path.name for s in saves] == ["new.json", "broken.json", "old.json"]
    newest, broken, oldest = saves
    assert newest.ok and newest.players == ("Ana", "Computer")
    assert newest.size == 4 and newest.mode == "general"
    assert newest.moves == 6 and not newest.finished and newest.result == "unfinished"
    assert newest.record is not None and newest.record.state.move_count == 6
    assert oldest.finished and oldest.scores == (6, 0) and oldest.result == "Ana wins" and oldest.moves == 9
    assert not broken.ok and "not valid JSON" in broken.error and broken.players == ()
    assert broken.file_size == len("{not json")
    assert newest.modified > broken.modified > oldest.modified


def test_list_saves_of_a_missing_folder_is_empty(tmp_path):
    assert list_saves(tmp_path / "nothing here") == []


def test_default_save_names_are_readable_and_safe():
    record = make_record([], size=6, players=(ANA, BO))
    assert default_save_name(record, datetime(2026, 11, 30, 14, 5)) == "2026-11-30-1405 Ana vs Bo 6x6.json"
    assert default_save_name(record) == "2026-01-01-1000 Ana vs Bo 6x6.json"  # start, local time
    nasty = make_record([], players=(PlayerInfo("../../etc/passwd"), PlayerInfo('a<b>:"c|?*')))
    name = default_save_name(nasty, datetime(2026, 1, 2, 3, 4))
    assert name == "2026-01-02-0304 etcpasswd vs abc 3x3.json"
    empty = make_record([], players=(PlayerInfo("///"), PlayerInfo("José")))
    assert default_save_name(empty, datetime(2026, 1, 2, 3, 4)) == "2026-01-02-0304 Player 1 vs José 3x3.json"


def test_unique_save_path_never_overwrites(tmp_path):
    record = make_record([])
    first = unique_save_path(record, tmp_path)
    save_record(record, first)
    second = unique_save_path(record, tmp_path)
    assert first.name == "2026-01-01-1000 Ana vs Bo 3x3.json"
    assert second.name == "2026-01-01-1000 Ana vs Bo 3x3 (2).json"


# -- autosave ----------------------------------------------------------------------------------
def test_autosave_round_trip_and_clear():
    assert load_autosave() is None
    record = make_record(P1_SWEEP[:4])
    autosave(record)
    assert load_autosave() == record
    assert clear_autosave(record) is True
    assert load_autosave() is None
    assert clear_autosave(record) is False


def test_two_games_in_progress_keep_their_own_autosaves():
    # two windows at once: neither overwrites the other's game; Continue offers the newer
    first = make_record(P1_SWEEP[:2])
    second = make_record(P1_SWEEP[:3], started="2026-01-02T09:00:00+00:00")
    autosave(first)
    autosave(second)
    os.utime(autosave_path(first), (1, 1))  # the first window saved longer ago
    assert autosave_path(first) != autosave_path(second)
    assert load_autosave() == second
    assert sorted(info.record.moves for info in list_autosaves()) == sorted([first.moves, second.moves])
    autosave(first.with_state(first.state.play(Move.parse("S c1"))))  # the first game goes on
    assert len(list_autosaves()) == 2 and load_autosave().moves[-1] == Move.parse("S c1")


def test_a_corrupt_autosave_is_ignored_and_left_for_inspection():
    path = autosaves_dir() / "20260101000000-deadbeef.json"
    path.write_bytes(b'{"format": "sos-game", "vers')
    assert load_autosave() is None
    assert path.read_bytes() == b'{"format": "sos-game", "vers'
    with pytest.raises(LoadError, match=r"deadbeef\.json"):
        load_autosave(strict=True)
    os.utime(path, (1, 1))
    autosave(make_record(SIMPLE_P1, mode="simple"))  # a newer autosave is found past it
    assert load_autosave().state.is_over and path.exists()


def test_the_autosave_is_named_by_the_game_id_and_an_empty_game_deletes_it():
    record = make_record(P1_SWEEP[:2])
    assert autosave(record) == autosaves_dir() / f"{record.game_id}.json"
    undone = record.with_state(GameState.new(3))  # undone back to the empty board
    assert autosave(undone) is None
    assert not autosave_path(record).exists() and load_autosave() is None
    assert autosave(undone) is None  # nothing to delete: still fine


def test_an_old_autosave_name_gives_way_to_the_game_id_name():
    old = make_record(P1_SWEEP[:2])
    data = json.loads(old.to_json())
    del data["id"]  # written by sos-tui 0.1, named by a hash of the start and names
    legacy = autosaves_dir() / "20260101100000-6230a8f4.json"
    from sos_tui.storage.files import _legacy_autosave_path

    record = GameRecord.from_dict(data)
    assert _legacy_autosave_path(record) == legacy
    legacy.write_text(json.dumps(data))
    assert load_autosave().game_id == record.game_id  # the same game each time it is read
    autosave(record.with_state(record.state.play(Move.parse("S c1"))))
    assert [p.name for p in autosaves_dir().iterdir()] == [f"{record.game_id}.json"]


def test_delete_save(tmp_path):
    path = save_record(make_record([]), tmp_path / "a.json")
    assert delete_save(path) is True and not path.exists()
    assert delete_save(path) is False
    folder = tmp_path / "folder"
    folder.mkdir()
    with pytest.raises(StorageError, match="could not delete"):
        delete_save(folder)


DAY = 24 * 3600


def aged(path: Path, days: float) -> Path:
    stamp = time.time() - days * DAY
    os.utime(path, (stamp, stamp))
    return path


def test_prune_keeps_the_newest_unfinished_autosaves_one_per_game():
    games = [make_record(P1_SWEEP[:2], started=f"2026-01-01T10:{i:02d}:00+00:00") for i in range(25)]
    for age, record in enumerate(games):
        os.utime(autosave(record), (1000 + age, 1000 + age))  # all abandoned long ago
    copy = save_record(games[-1].with_state(games[-1].state), autosaves_dir() / "copy.json")  # same game
    os.utime(copy, (10, 10))
    corrupt = autosaves_dir() / "corrupt.json"
    corrupt.write_text("{")
    assert prune_autosaves() == 25 + 1 - 10
    left = {p.name for p in autosaves_dir().iterdir()}
    assert left == {"corrupt.json"} | {f"{r.game_id}.json" for r in games[15:]}
    assert prune_autosaves(keep=0) == 9 and corrupt.exists()  # never the newest one
    assert [p.name for p in autosaves_dir().iterdir() if p != corrupt] == [f"{games[-1].game_id}.json"]


def test_prune_keeps_recent_autosaves_beyond_the_count_and_the_games_in_progress_here():
    young = [make_record(P1_SWEEP[:2], started=f"2026-01-02T10:{i:02d}:00+00:00") for i in range(12)]
    old = [make_record(P1_SWEEP[:3], started=f"2026-01-03T10:{i:02d}:00+00:00") for i in range(3)]
    for hours, record in enumerate(young):
        aged(autosave(record), hours / 24)  # played this morning: 12 games in progress at once
    for record in old:
        aged(autosave(record), 60)  # abandoned two months ago
    playing_here = old[0]
    assert prune_autosaves(spare={playing_here.game_id}) == 2
    left = {p.stem for p in autosaves_dir().iterdir()}
    assert left == {r.game_id for r in young} | {playing_here.game_id}


def test_prune_keeps_a_finished_games_autosave_until_that_game_is_in_the_history():
    finished = make_record(SIMPLE_P1, mode="simple")
    path = aged(autosave(finished), 90)  # the history could not be written: the last copy of the game
    newest = autosave(make_record(P1_SWEEP[:2]))
    assert prune_autosaves() == 0 and path.exists()
    with History() as history:
        history.record_game(finished)
    assert prune_autosaves() == 1 and not path.exists() and newest.exists()


def test_prune_keeps_a_finished_autosave_that_ended_another_way_than_the_history_row():
    finished = make_record(P1_SWEEP, game_id="one-game")
    with History() as history:
        history.record_game(finished)
    other_end = make_record(P2_SWEEP, game_id="one-game")  # undone and finished otherwise, not recorded yet
    assert other_end.state.is_over
    path = autosave(other_end)
    assert prune_autosaves() == 0 and path.exists()


def test_temp_files_left_by_an_interrupted_save_are_cleaned_once_stale():
    old = autosaves_dir() / ".abc.json.x1y2.tmp"
    young = saves_dir() / ".game.json.q9.tmp"
    kept = saves_dir() / "notes.tmp"
    for path in (old, young, kept):
        path.write_text("half a game")
    os.utime(old, (time.time() - 120, time.time() - 120))
    assert clean_stale_temp_files() == 1
    assert not old.exists() and young.exists() and kept.exists()


CRASHING_PLAYER = """
import sys, time
from sos_tui.engine import GameRecord, GameState, Move, PlayerInfo
from sos_tui.storage import autosave
stop_after, moves = int(sys.argv[1]), sys.argv[2:]
state = GameState.new(8, "general", 2)
record = GameRecord.for_state(state, [PlayerInfo("Ana"), PlayerInfo("Bo")])
while True:
    for number, text in enumerate(moves, start=1):
        state = state.play(Move.parse(text))
        record = record.with_state(state)
        autosave(record)
        print(number, flush=True)
        if number == stop_after:
            time.sleep(60)
    state = GameState.new(8, "general", 2)
"""


def _long_game() -> list[str]:
    import random

    rng, state = random.Random(7), GameState.new(8, "general", 2)
    while not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))
    return [str(m) for m in state.moves]


def _run_and_kill(data: Path, stop_after: int, kill_after_line: int) -> None:
    child = subprocess.Popen([sys.executable, "-c", CRASHING_PLAYER, str(stop_after), *_long_game()],
                             stdout=subprocess.PIPE, text=True, env=child_env(data))
    try:
        for line in child.stdout:
            if int(line) >= kill_after_line:
                break
        child.send_signal(signal.SIGKILL)
    finally:
        child.kill()
        child.wait(10)
        child.stdout.close()
    assert child.returncode == -signal.SIGKILL


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_after_a_crash_mid_game_the_autosave_holds_the_last_saved_position(data):
    _run_and_kill(data, stop_after=20, kill_after_line=20)
    record = load_autosave()
    assert record is not None
    assert [str(m) for m in record.moves] == _long_game()[:20]
    assert [p.name for p in record.players] == ["Ana", "Bo"]


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_kill_during_constant_autosaving_never_leaves_a_broken_autosave(data):
    _run_and_kill(data, stop_after=-1, kill_after_line=30)  # kill while it keeps writing
    record = load_autosave(strict=True)
    moves = [str(m) for m in record.moves]
    assert moves == _long_game()[: len(moves)]  # a real position of the game, not a torn file
    leftovers = [p.name for p in autosaves_dir().iterdir() if p.name != autosave_path(record).name]
    assert len(leftovers) <= 1 and all(name.endswith(".tmp") for name in leftovers)


# -- facts computed for the history ------------------------------------------------------------
def test_longest_chain_counts_the_lines_of_one_uninterrupted_turn():
    assert longest_chain(make_record(P1_SWEEP)) == (6, 0)
    assert longest_chain(make_record(P2_SWEEP)) == (5, 1)
    assert longest_chain(make_record(DRAW_4X4, size=4)) == (1, 0)
    assert longest_chain(make_record(P1_SWEEP[:4])) == (0, None)


# -- the history database ----------------------------------------------------------------------
@pytest.fixture
def filled(data) -> History:
    with History() as history:
        for record in sample_games():
            assert history.record_game(record) is True
        yield history


def test_a_finished_game_is_recorded_with_its_facts(filled):
    entries = filled.games()
    assert [e.finished_at.day for e in entries] == [5, 4, 3, 2, 1]  # newest first
    hard = entries[2]
    assert hard.players_text == "Deep Blue (hard) vs Ana"
    assert (hard.size, hard.mode, hard.scores, hard.winners) == (3, "simple", (0, 1), (1,))
    assert (hard.opponent, hard.pov, hard.pov_name, hard.outcome, hard.margin) == ("hard", 1, "Ana", "win", 1)
    assert hard.result == "Ana wins" and hard.score_text == "0-1"
    assert hard.record == sample_games()[2]
    sweep = entries[4]
    assert (sweep.longest_chain, sweep.players[sweep.chain_player].name) == (6, "Ana")
    draw = entries[0]
    assert (draw.outcome, draw.margin, draw.result) == ("draw", 0, "draw")


def test_the_database_is_created_in_the_data_folder_in_wal_mode(filled, data):
    assert filled.path == data / "history.sqlite3"
    with sqlite3.connect(filled.path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA user_version").fetchone()[0] == schema_module.SCHEMA_VERSION


def test_an_unfinished_game_is_not_recorded(filled):
    with pytest.raises(ValueError, match="still running"):
        filled.record_game(make_record(P1_SWEEP[:3]))
    assert filled.count() == 5


def test_recording_the_same_game_twice_keeps_one(filled):
    game = sample_games()[0]
    assert filled.record_game(game) is False
    with History() as other:
        assert other.record_game(game) is False
    renewed = GameRecord(game.size, game.mode, game.players, game.moves, game.started, "2027-01-01T00:00:00Z",
                         game.game_id)
    assert filled.record_game(renewed) is False  # the same game id: the same game
    assert filled.count() == 5
    later = make_record(P1_SWEEP, when="2026-02-01T10:00:00+00:00")  # a rematch with the same moves
    assert filled.record_game(later) is True
    assert filled.count() == 6


def test_a_game_undone_and_finished_differently_replaces_its_row(filled):
    game = sample_games()[0]  # Ana beat Bo 6-0
    undone = game.with_state(GameState.from_moves(P2_SWEEP, 3))  # back to move 4, then Bo swept 0-5
    assert undone.game_id == game.game_id
    assert filled.record_game(undone) is False
    rows = [e for e in filled.games() if e.game_id == game.game_id]
    assert len(rows) == 1 and rows[0].scores == (0, 5) and rows[0].outcome == "loss"
    assert filled.count() == 5


def test_filters(filled):
    def days(**filters):
        return [e.finished_at.day for e in filled.games(**filters)]

    assert days(opponent="easy") == [4, 2]
    assert days(opponent="HUMAN") == [5, 1]
    assert days(size=4) == [5]
    assert days(mode="simple") == [4, 3]
    assert days(mode="general", opponent="human", size=3) == [1]
    assert days(limit=2) == [5, 4]
    assert days(opponent="impossible") == []


def test_stats_from_the_first_human_side(filled):
    stats = filled.stats()
    assert (stats.games, stats.wins, stats.draws, stats.losses) == (5, 3, 1, 1)
    assert stats.average_score == pytest.approx((6 + 0 + 1 + 1 + 2) / 5)
    assert list(stats.by_opponent) == ["easy", "human", "hard"]  # most played first
    easy, human, hard = stats.by_opponent.values()
    assert (easy.games, easy.wins, easy.draws, easy.losses, easy.average_score) == (2, 1, 0, 1, 0.5)
    assert (human.games, human.wins, human.draws, human.losses, human.average_score) == (2, 1, 1, 0, 4.0)
    assert (hard.games, hard.wins, hard.draws, hard.losses, hard.average_score) == (1, 1, 0, 0, 1.0)
    assert stats.longest_chain == 6 and stats.longest_chain_game.finished_at.day == 1
    assert stats.best_game.finished_at.day == 1 and stats.best_game.margin == 6
    simple = filled.stats(mode="simple")
    assert (simple.games, simple.wins, simple.longest_chain, simple.best_game.margin) == (2, 2, 1, 1)
    assert filled.stats(opponent="nobody").games == 0


def test_opponent_kinds():
    with History() as history:
        history.record_game(make_record(SIMPLE_P1, mode="simple", players=(EASY, HARD)))
        history.record_game(make_record(SIMPLE_P1, mode="simple", players=(ANA, EASY, HARD), started="x"))
        history.record_game(make_record(SIMPLE_P1, mode="simple", players=(ANA, PlayerInfo("C", "computer")),
                                        started="y"))
        assert sorted(e.opponent for e in history.games()) == ["computer", "computer-only", "mixed"]


def test_two_history_objects_on_one_file_see_each_other(data):
    games = sample_games()
    with History() as first, History() as second:
        first.record_game(games[0])
        second.record_game(games[1])
        first.record_game(games[2])
        assert first.count() == second.count() == 3
        assert [e.finished_at.day for e in second.games()] == [3, 2, 1]


def _simple_game(writer: int, number: int) -> GameRecord:
    return make_record(SIMPLE_P1, mode="simple", started=f"2026-03-{writer + 1:02d}T00:{number // 60:02d}:"
                       f"{number % 60:02d}+00:00")


def test_two_threads_writing_at_once_lose_nothing(data):
    History().close()
    errors = []
    start = threading.Barrier(2)

    def writer(index: int) -> None:
        try:
            with History() as history:
                start.wait()
                for number in range(50):
                    assert history.record_game(_simple_game(index, number))
        except BaseException as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    with History() as history:
        assert history.count() == 100


WRITER = """
import sys
from sos_tui.engine import GameRecord, GameState, Mode, PlayerInfo
from sos_tui.storage import History
writer = int(sys.argv[1])
state = GameState.from_moves(["S a1", "S c1", "O b1"], 3, "simple")
with History() as history:
    print("ready", flush=True)
    sys.stdin.readline()
    for n in range(50):
        started = f"2026-04-{writer + 1:02d}T00:{n // 60:02d}:{n % 60:02d}+00:00"
        seats = (PlayerInfo("Ana"), PlayerInfo("Bo"))
        record = GameRecord(3, Mode.SIMPLE, seats, state.moves, started, started)
        assert history.record_game(record)
"""


def test_two_processes_writing_at_once_lose_nothing(data):
    History().close()
    children = [subprocess.Popen([sys.executable, "-c", WRITER, str(i)], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, text=True, env=child_env(data)) for i in range(2)]
    for child in children:
        assert child.stdout.readline().strip() == "ready"
    for child in children:  # both start at once
        child.stdin.write("go\n")
        child.stdin.flush()
    for child in children:
        child.stdin.close()
        assert child.wait(60) == 0
        child.stdout.close()
    with History() as history:
        assert history.count() == 100
        assert {e.finished_at.day for e in history.games()} == {1, 2}


V1_SCHEMA = """
CREATE TABLE games (id INTEGER PRIMARY KEY, finished_at TEXT NOT NULL, size INTEGER NOT NULL,
                    mode TEXT NOT NULL, players TEXT NOT NULL, record TEXT NOT NULL, scores TEXT NOT NULL,
                    result TEXT NOT NULL);
PRAGMA user_version = 1;
"""


def test_a_version_1_database_is_upgraded_and_keeps_its_games(data):
    data.mkdir()
    path = data / "history.sqlite3"
    old_games = sample_games()[:2]
    with sqlite3.connect(path) as conn:
        conn.executescript(V1_SCHEMA)
        for record in [*old_games, old_games[0]]:  # v1 had no unique key: one game stored twice
            state = record.state
            conn.execute("INSERT INTO games (finished_at, size, mode, players, record, scores, result) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?)",
                         (record.updated, record.size, record.mode.value,
                          json.dumps([p.to_dict() for p in record.players]), record.to_json(),
                          json.dumps(list(state.scores)), record.result_text()))
        conn.execute("INSERT INTO games (finished_at, size, mode, players, record, scores, result) "
                     "VALUES (?, 5, 'general', ?, 'lost to a disk error', '[3, 1]', 'Old wins')",
                     ("2025-12-31T00:00:00+00:00", '[{"name": "Old"}, {"name": "Timer"}]'))
    conn.close()

    with History() as history:
        entries = history.games()
        assert [e.players_text for e in entries] == ["Ana vs Computer (easy)", "Ana vs Bo", "Old vs Timer"]
        easy, bo, unreadable = entries
        assert (easy.opponent, easy.outcome, easy.margin, easy.longest_chain) == ("easy", "loss", -5, 5)
        assert (bo.opponent, bo.outcome, bo.margin, bo.longest_chain) == ("human", "win", 6, 6)
        assert bo.record == old_games[0]
        assert (unreadable.scores, unreadable.outcome, unreadable.margin) == ((3, 1), "win", 2)
        assert history.record_game(old_games[0]) is False  # the upgrade gave old games their unique key
        assert history.record_game(sample_games()[2]) is True
    with sqlite3.connect(path) as conn:
        columns = {row[1] for row in conn.execute("PRAGMA table_info(games)")}
        assert {"game_key", "winners", "opponent", "pov", "outcome", "longest_chain", "margin", "game_id",
                "pov_score", "termination"} <= columns
        assert conn.execute("PRAGMA user_version").fetchone()[0] == schema_module.SCHEMA_VERSION
        assert {row[0] for row in conn.execute("SELECT termination FROM games")} == {"normal"}
    conn.close()


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _sqlite_file(path: Path, *statements: str) -> Path:
    conn = sqlite3.connect(path)
    for statement in statements:
        conn.execute(statement)
    conn.commit()
    conn.close()
    return path


@pytest.mark.parametrize(("make", "says"), [
    (lambda p: _sqlite_file(p, "PRAGMA user_version = 6"), "newer sos-tui (schema 6"),
    (lambda p: _sqlite_file(p, "CREATE TABLE games (x TEXT)", "PRAGMA user_version = 6"), "newer sos-tui"),
    (lambda p: _sqlite_file(p, "CREATE TABLE recipes (name TEXT)"), "not an sos-tui history"),
    (lambda p: _sqlite_file(p, "CREATE TABLE games (x TEXT)", "PRAGMA user_version = 2"),
     "not an sos-tui history"),
    (lambda p: p.write_bytes(b"this is not a database at all" * 100), "damaged or is not an SQLite database"),
    (lambda p: p.write_bytes(b"SQLite format 3\x00" + b"\xff" * 200), "damaged or is not an SQLite database"),
    (lambda p: p.mkdir(), "is a folder, not a database"),
    (lambda p: os.mkfifo(p), "is not a regular file"),
], ids=["newer", "newer-with-table", "foreign", "wrong-shape", "garbage", "torn-header", "folder",
        "named-pipe"])
def test_a_newer_foreign_or_damaged_file_is_refused_byte_for_byte_untouched(data, make, says):
    data.mkdir()
    path = data / "history.sqlite3"
    make(path)
    before = _sha(path) if path.is_file() else None
    with pytest.raises(HistoryError, match=re.escape(says)):
        History(path)
    assert (_sha(path) if path.is_file() else None) == before  # no WAL switch, no table created
    assert sorted(p.name for p in data.iterdir()) == ["history.sqlite3"]  # no -wal or -shm file either


def test_a_busy_database_is_a_history_error_in_words_after_the_timeout(data):
    with History() as history:
        history.record_game(sample_games()[0])
    blocker = sqlite3.connect(history_db_path(), isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")
    try:
        started = time.monotonic()
        with pytest.raises(HistoryError, match="busy \\(another sos-tui is writing to it\\)"), \
                History(timeout=0.2) as history:
            history.record_game(sample_games()[1])
        assert time.monotonic() - started < 5
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()


def test_a_damaged_row_is_skipped_and_the_rest_shown(filled):
    with sqlite3.connect(filled.path) as conn:
        conn.execute("UPDATE games SET players = 'not json' WHERE finished_at LIKE '2026-01-03%'")
        conn.execute("UPDATE games SET scores = '[1, \"x\"]' WHERE finished_at LIKE '2026-01-01%'")
    conn.close()
    entries = filled.games()
    assert [e.finished_at.day for e in entries] == [5, 4, 2]
    assert len(filled.skipped) == 2
    assert filled.stats().games == 5  # the statistics still count every game


def test_statistics_and_filters_come_from_sql(filled):
    assert filled.filters() == Filters(opponents=("easy", "hard", "human"), sizes=(3, 4),
                                       modes=("general", "simple"))
    assert History.stats.__doc__ and "SQL" in History.stats.__doc__


# -- paths: every OS error is a LoadError, and the path policy ----------------------------------
@pytest.mark.parametrize(("make", "reason"), [
    (lambda d: d / ("x" * 300 + ".json"), "the name is too long"),
    (lambda d: d / ("y" * 256) / "game.json", "the name is too long"),
    (lambda d: d, "is a folder, not a game file"),
    (lambda d: d / "missing.json", "no such file"),
    (lambda d: (d / "file.json").write_text("{}") and d / "file.json" / "inner.json",
     "a part of the path is not a folder"),
    (lambda d: (d / "loop.json").symlink_to(d / "loop.json") or d / "loop.json", "too many symbolic links"),
    (lambda d: d / "nul\x00.json", "not a usable file name"),
    (lambda d: str(d / "bad\ud800.json"), "not a usable file name"),
])
def test_every_os_error_from_a_path_is_a_load_error_with_path_and_reason(tmp_path, make, reason):
    path = make(tmp_path)
    with pytest.raises(LoadError) as caught:
        load_record(path)
    assert reason in caught.value.reason and caught.value.path == path
    message = str(caught.value)
    assert "\n" not in message and "\x00" not in message and len(message) < 400


def test_an_empty_path_is_refused_not_the_current_folder():
    for empty in ("", "   "):
        with pytest.raises(LoadError, match="no file name given"):
            load_record(empty)
    with pytest.raises(LoadError, match="no file name given"):
        resolve_open_path("  ")
    with pytest.raises(StorageError, match="no file name given"):
        resolve_save_path("")


def test_a_path_with_escapes_is_shown_escaped(tmp_path):
    path = tmp_path / "\x1b]0;pwned\x07\u202e.json"
    with pytest.raises(LoadError) as caught:
        load_record(path)
    assert "\\x1b]0;pwned\\x07\\u202e.json: no such file" in str(caught.value)
    assert caught.value.path == path


def test_saving_to_a_folder_saves_inside_it_under_the_default_name(tmp_path):
    record = make_record([])
    folder = tmp_path / "games"
    folder.mkdir()
    path = save_record(record, folder)
    assert path == folder / "2026-01-01-1000 Ana vs Bo 3x3.json" and load_record(path) == record
    assert not (tmp_path / "games.json").exists()
    assert resolve_save_path(str(folder), record) == folder / "2026-01-01-1000 Ana vs Bo 3x3 (2).json"
    (saves_dir() / "mine").mkdir()
    assert resolve_save_path("mine", record).parent == saves_dir() / "mine"
    assert resolve_save_path("mygame") == saves_dir() / "mygame.json"
    assert resolve_save_path("~/x.json").is_absolute()


def test_resolve_open_path_looks_in_the_saves_folder_first(tmp_path):
    save_record(make_record([]), saves_dir() / "kept.json")
    assert resolve_open_path("kept") == saves_dir() / "kept.json"
    assert resolve_open_path("kept.json") == saves_dir() / "kept.json"
    assert resolve_open_path(str(tmp_path / "elsewhere.json")) == tmp_path / "elsewhere.json"
    assert resolve_open_path("x" * 300) == Path("x" * 300)  # no OSError on a long name


def test_a_save_into_a_path_too_long_is_a_storage_error_in_words(tmp_path):
    with pytest.raises(StorageError, match="the name is too long"):
        save_record(make_record([]), tmp_path / ("x" * 300 + ".json"))
    assert list(tmp_path.iterdir()) == []


def test_export_transcript_is_atomic_and_never_overwrites_another_game(tmp_path):
    record = make_record(P1_SWEEP)
    path = export_transcript(record, tmp_path)
    assert path == transcript_path(record, tmp_path) and path.read_text() == transcript(record)
    assert export_transcript(record, tmp_path) == path  # the same transcript: written again
    other = make_record(P2_SWEEP)  # same start and names, so the same file name
    second = export_transcript(other, tmp_path)
    assert second.name == "2026-01-01-1000 Ana vs Bo 3x3 (2).txt" and path.read_text() == transcript(record)
    assert {p.name for p in tmp_path.iterdir()} == {path.name, second.name}
    with pytest.raises(StorageError, match="the folder does not exist"):
        export_transcript(record, tmp_path / "missing")


def test_six_long_names_in_any_script_still_make_a_file_name_that_saves(tmp_path):
    seats = tuple(PlayerInfo(chr(0x4E00 + i) * 24) for i in range(6))  # 6 x 24 CJK characters
    record = make_record([], players=seats)
    name = default_save_name(record)
    assert len(name.encode("utf-8")) <= 255 and name.endswith("… 3x3.json")
    assert load_record(save_record(record, unique_save_path(record, tmp_path))) == record
    assert export_transcript(record, tmp_path).exists()


def test_a_public_web_servers_tab_opens_and_saves_only_inside_its_data_folder(tmp_path, monkeypatch):
    """``sos-tui web --separate-data``: a visitor must not read or write the server's files."""
    from sos_tui.storage.paths import CONFINE_VAR

    outside = tmp_path / "elsewhere.json"
    save_record(make_record([]), outside)
    save_record(make_record([]), saves_dir() / "kept.json")
    (saves_dir() / "escape.json").symlink_to(outside)
    monkeypatch.setenv(CONFINE_VAR, "1")
    assert resolve_open_path("kept") == saves_dir() / "kept.json"
    assert resolve_save_path("mine") == saves_dir() / "mine.json"
    for typed in (str(outside), "../../elsewhere.json", "escape", "/etc/passwd"):
        with pytest.raises(LoadError, match="only its own saved games can be opened"):
            resolve_open_path(typed)
    for typed in (str(tmp_path / "new.json"), "../../new", "~/new"):
        with pytest.raises(StorageError, match="saved only in the saves folder"):
            resolve_save_path(typed, make_record([]))
    monkeypatch.delenv(CONFINE_VAR)
    assert resolve_open_path(str(outside)) == outside  # a player's own machine: any path


def test_every_web_tab_saves_only_in_the_saves_folder(tmp_path, monkeypatch):
    """Any tab of ``sos-tui web`` is driven from a web page: its saves stay in the saves folder (not
    elsewhere in the data folder either), while it opens any file, as the player's own terminal."""
    from sos_tui.storage.paths import CONFINE_VAR, SAVES_ONLY, data_dir

    outside = tmp_path / "elsewhere.json"
    save_record(make_record([]), outside)
    monkeypatch.setenv(CONFINE_VAR, SAVES_ONLY)
    assert resolve_save_path("mine") == saves_dir() / "mine.json"
    assert resolve_save_path("week/mine") == saves_dir() / "week" / "mine.json"
    for typed in (str(outside), "../history", str(data_dir() / "net-seats.json"), "~/new"):
        with pytest.raises(StorageError, match="saved only in the saves folder of the computer running"):
            resolve_save_path(typed, make_record([]))
    assert resolve_open_path(str(outside)) == outside


# -- how a game ended -----------------------------------------------------------------------------
def _resigned() -> GameRecord:
    state = GameState.from_moves(["S a1"], 3).drop(0, "resign")
    return GameRecord.for_state(state, (ANA, BO), started="2026-02-01T10:00:00+00:00")


def test_the_history_keeps_how_a_game_ended_and_never_an_aborted_game(data):
    with History() as history:
        history.record_game(_resigned())
        history.record_game(make_record(P1_SWEEP))
        with pytest.raises(ValueError, match="aborted game"):
            history.record_game(GameRecord.for_state(GameState.new(3).end("abort"), (ANA, BO)))
        resigned, sweep = sorted(history.games(), key=lambda e: e.termination, reverse=True)
    assert (resigned.termination, resigned.winners, resigned.ending) == ("resign", (1,), "Ana resigned")
    assert (sweep.termination, sweep.ending) == ("normal", "")


def test_a_version_3_history_gains_the_termination_and_keeps_its_games(data):
    path = data / "history.sqlite3"
    data.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, isolation_level=None)
    for step in (1, 2, 3):
        schema_module.MIGRATIONS[step](conn)
    conn.execute("PRAGMA user_version = 3")
    facts = {k: v for k, v in game_facts(make_record(P1_SWEEP)).items() if k != "termination"}
    names, values = ", ".join(facts), ", ".join(f":{name}" for name in facts)
    conn.execute(f"INSERT INTO games ({names}) VALUES ({values})", facts)
    conn.close()
    with History() as history:
        [old] = history.games()
        assert old.termination == "normal" and old.record == make_record(P1_SWEEP)
        history.record_game(_resigned())
        assert {e.termination for e in history.games()} == {"normal", "resign"}


RANDY_BOT = PlayerInfo("Randy", bot=True)


def test_a_game_against_a_bot_speaks_for_the_person_whatever_their_seat(data):
    with History() as history:
        history.record_game(make_record(P1_SWEEP, players=(RANDY_BOT, ANA)))  # the bot took seat 1
        [entry] = history.games()
        stats = history.stats()
    assert (entry.pov, entry.pov_name, entry.opponent) == (1, "Ana", "bot")
    assert (entry.outcome, entry.margin) == ("loss", -6)
    assert entry.players[0].bot and list(stats.by_opponent) == ["bot"]


def test_a_version_4_history_looks_again_at_its_games_against_a_bot(data):
    path = data / "history.sqlite3"
    data.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, isolation_level=None)
    for step in (1, 2, 3, 4):
        schema_module.MIGRATIONS[step](conn)
    conn.execute("PRAGMA user_version = 4")
    against_a_bot, two_people = make_record(P1_SWEEP, players=(RANDY_BOT, ANA)), make_record(P2_SWEEP)
    for record in (against_a_bot, two_people):
        facts = game_facts(record)
        # as version 4 kept them: the first seat not a computer's spoke, a bot was a human opponent
        facts.update(pov=0, opponent="human", pov_score=record.state.scores[0],
                     outcome=record.state.outcome.result_for(0), margin=record.state.outcome.margin(0))
        names, values = ", ".join(facts), ", ".join(f":{name}" for name in facts)
        conn.execute(f"INSERT INTO games ({names}) VALUES ({values})", facts)
    conn.close()
    with History() as history:
        bot, people = sorted(history.games(), key=lambda e: e.opponent)
    assert (bot.pov, bot.opponent, bot.outcome, bot.margin, bot.pov_score) == (1, "bot", "loss", -6, 0)
    assert (people.pov, people.opponent, people.outcome) == (0, "human", "loss")  # left as it was
    assert bot.players_text == "Randy (bot) vs Ana"
