"""``sos-tui history --json`` holds every game's moves, and ``sos-tui history export ID FILE``
writes a finished game as a game file that ``review`` and ``--load`` open."""

from __future__ import annotations

import errno
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sos_tui.cli import main, play
from sos_tui.cli.history import history_json
from sos_tui.engine import GameRecord, GameState, Mode, Move, PlayerInfo
from sos_tui.session import GameSession, Keeper, StorageStore
from sos_tui.storage import History, files, history_db_path, load_record

from .support.examples import examples

# 3x3 general: four S in the corners, then Ana's O in the middle starts her sweep of six SOS
OPENING = ["S a1", "S c3", "S c1", "S a3"]
ENDING = ["O b2", "O b1", "O b3", "O a2", "O c2"]


def play_through_the_session(*seats: PlayerInfo, size: int = 3) -> GameRecord:
    """A game played as the app plays it: a GameSession whose Keeper files the finished game in the
    history of this test's data folder (the real store and recorder), with an undo on the way."""
    keeper = Keeper(StorageStore())
    session = GameSession(GameRecord(size, Mode.GENERAL, seats or (PlayerInfo("Ana"), PlayerInfo("Bo"))))
    session.subscribe(keeper.on_change)
    for text in OPENING:
        session.play(Move.parse(text))
    session.play(Move.parse("O c2"))
    session.undo()  # the history keeps the moves that stand, not one taken back
    for text in ENDING:
        session.play(Move.parse(text))
    assert session.state.is_over
    keeper.wait(10)
    assert keeper.close() == []
    return session.record


def history_document(capsys) -> dict:
    assert main(["history", "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def export(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(["history", "export", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture
def launched(monkeypatch):
    """`sos-tui --load FILE` opens what it loaded in the app: record the game instead of running it."""
    calls = []
    monkeypatch.setattr(play, "launch", lambda game, mouse: calls.append(game) or [])
    monkeypatch.setattr(play, "has_terminal", lambda: True)
    return calls


# -- history --json ---------------------------------------------------------------------------
def test_history_json_holds_the_moves_of_a_game_played_through_the_session(data, capsys):
    record = play_through_the_session()
    [game] = history_document(capsys)["games"]
    state = record.state
    assert game["number"] == 1 and game["id"] == record.game_id
    assert game["moves"] == [*OPENING, *ENDING] == [str(m) for m in state.moves]
    assert game["movers"] == list(state.movers) == [0, 1, 0, 1, 0, 0, 0, 0, 0]
    assert game["moves_error"] is None
    replayed = GameState.from_moves(game["moves"], game["size"], game["mode"], len(game["players"]))
    assert (game["scores"], game["winners"]) == ([6, 0], [0])
    assert (list(replayed.scores), list(replayed.winners)) == (game["scores"], game["winners"])
    assert list(replayed.movers) == game["movers"]
    # everything review needs: the game object is a game record once it says it is one
    again = GameRecord.from_dict({**game, "format": "sos-game", "version": 1})
    assert (again.game_id, again.players, again.moves) == (record.game_id, record.players, record.moves)
    assert again.result_text() == game["result"] == "Ana wins"


@settings(max_examples=examples(30), deadline=None)
@given(seed=st.integers(0, 10**6), size=st.integers(3, 5), mode=st.sampled_from(["general", "simple"]),
       players=st.integers(2, 4))
def test_every_games_json_moves_replay_to_its_stored_result(seed, size, mode, players):
    rng = random.Random(seed)
    state = GameState.new(size, mode, players)
    while not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))
    seats = [PlayerInfo(f"P{i}", "computer", "easy") if i % 2 else PlayerInfo(f"P{i}")
             for i in range(players)]
    record = GameRecord.for_state(state, seats)
    with tempfile.TemporaryDirectory() as folder, History(Path(folder) / "history.sqlite3") as history:
        history.record_game(record)
        [game] = json.loads(history_json(history.games()))["games"]
    replayed = GameState.from_moves(game["moves"], game["size"], game["mode"], len(game["players"]))
    assert replayed == state
    assert list(replayed.movers) == game["movers"]
    assert (list(replayed.scores), list(replayed.winners)) == (game["scores"], game["winners"])
    assert GameRecord.from_dict({**game, "format": "sos-game", "version": 1}).result_text() == game["result"]


def test_a_game_whose_stored_record_is_damaged_says_it_has_no_moves(filled, capsys):
    with sqlite3.connect(filled.path) as conn:
        conn.execute("UPDATE games SET record = '{\"format\": \"sos-game\"' WHERE id = 3")
    conn.close()
    games = history_document(capsys)["games"]
    damaged = next(g for g in games if g["finished"].startswith("2026-01-03"))
    assert damaged["moves"] is None and damaged["movers"] is None  # not an empty list: no pretending
    assert damaged["moves_error"].startswith("the moves of this game cannot be read: ")
    assert damaged["result"] == "Ana wins" and damaged["scores"] == [0, 1]  # the rest is still there
    assert all(g["moves"] for g in games if g is not damaged)


# -- the number shown by `sos-tui history` --------------------------------------------------
def test_the_history_table_shows_each_games_number(filled, capsys):
    assert main(["history"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["#", "Date", "Players", "Size", "Mode", "Score", "Result"]
    assert lines[2].split()[:2] == ["5", "2026-01-05"] and "Ana vs Bo" in lines[2]
    assert lines[6].split()[:2] == ["1", "2026-01-01"]


# -- export -------------------------------------------------------------------------------------
def test_an_exported_game_is_the_game_file_ctrl_s_writes_and_review_reads_it(data, tmp_path, capsys):
    record = play_through_the_session()
    path = tmp_path / "ana-bo.json"
    status, out, err = export(capsys, "1", str(path))
    assert (status, err) == (0, "")
    assert out == f"Saved to {path}.\n"
    assert path.read_text() == record.to_json()  # what save_record (ctrl+s) writes for this game
    assert load_record(path) == record
    assert main(["review", str(path)]) == 0
    review = capsys.readouterr().out
    assert "Ana" in review and "S a1" in review and "Result: Ana wins" in review


def test_an_exported_game_opens_with_load(data, tmp_path, capsys, launched):
    record = play_through_the_session()
    path = tmp_path / "game.json"
    assert export(capsys, record.game_id, str(path))[0] == 0  # the id from `history --json` works too
    assert main(["--load", str(path)]) == 0
    [game] = launched
    assert (game.game_id, game.players, game.moves) == (record.game_id, record.players, record.moves)
    assert game.state.outcome == record.state.outcome


def test_export_to_standard_output(filled, capsys):
    status, out, err = export(capsys, "3", "-")
    assert (status, err) == (0, "")
    record = GameRecord.from_json(out)
    assert [p.name for p in record.players] == ["Deep Blue", "Ana"] and record.result_text() == "Ana wins"


def test_an_existing_file_is_kept_unless_forced(filled, tmp_path, capsys):
    path = tmp_path / "game.json"
    path.write_text("mine")
    status, out, err = export(capsys, "1", str(path))
    assert (status, out) == (2, "")
    assert err == f"sos-tui history export: {path} already exists: add --force to replace it\n"
    assert path.read_text() == "mine"
    assert export(capsys, "1", str(path), "--force")[0] == 0
    assert load_record(path).moves == filled.games()[-1].record.moves


def test_a_folder_gets_a_fresh_name_inside_it(filled, tmp_path, capsys):
    status, out, err = export(capsys, "5", str(tmp_path))
    [written] = tmp_path.glob("*.json")
    assert (status, err, out) == (0, "", f"Saved to {written}.\n")
    assert written.name == "2026-01-05-1000 Ana vs Bo 4x4.json"


def one_line(status: int, out: str, err: str) -> str:
    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("sos-tui history export: ") and "Traceback" not in err
    return err.removeprefix("sos-tui history export: ").rstrip("\n")


@pytest.mark.parametrize("ident", ["9", "0", "-1", "abc", "1e3", "", "99999999999999999999", "\udcff"])
def test_an_unknown_game_is_one_line(filled, tmp_path, capsys, ident):
    message = one_line(*export(capsys, "--", ident, str(tmp_path / "game.json")))
    assert message == (f"no game {ident!r} in the history (`sos-tui history` lists the games with their "
                       "numbers)")
    assert not (tmp_path / "game.json").exists()


def test_export_from_no_history_at_all_creates_nothing(data, tmp_path, capsys):
    message = one_line(*export(capsys, "1", str(tmp_path / "game.json")))
    assert message.startswith("no game '1' in the history")
    assert not history_db_path().exists() and not (tmp_path / "game.json").exists()


def test_a_game_without_moves_is_not_exported(filled, tmp_path, capsys):
    with sqlite3.connect(filled.path) as conn:
        conn.execute("UPDATE games SET record = 'garbage' WHERE id = 2")
    conn.close()
    message = one_line(*export(capsys, "2", str(tmp_path / "game.json")))
    assert message.startswith("game 2 has no moves to export: its stored record cannot be read (not a game ")
    assert not (tmp_path / "game.json").exists()


def test_a_damaged_row_is_one_line(filled, tmp_path, capsys):
    with sqlite3.connect(filled.path) as conn:
        conn.execute("UPDATE games SET players = '{' WHERE id = 3")
    conn.close()
    message = one_line(*export(capsys, "3", str(tmp_path / "game.json")))
    assert message == f"game 3 in the history {filled.path} is damaged and cannot be read"
    assert export(capsys, "4", str(tmp_path / "game.json"))[0] == 0  # the others are still there


@pytest.mark.parametrize(("where", "says"), [
    ("missing/game.json", "the folder does not exist"),
    ("a-file/game.json", "a part of the path is not a folder"),
])
def test_an_unwritable_path_is_one_line(filled, tmp_path, capsys, where, says):
    (tmp_path / "a-file").write_text("")
    path = tmp_path / where
    assert one_line(*export(capsys, "1", str(path))) == f"could not save {path}: {says}"


def test_a_full_disk_is_one_line_and_leaves_no_file(filled, tmp_path, capsys, monkeypatch):
    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(files.os, "fsync", full)
    path = tmp_path / "game.json"
    assert one_line(*export(capsys, "1", str(path))) == f"could not save {path}: the disk is full"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data"]  # no game file, no temporary file


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_standard_output_on_a_full_disk_is_one_line(filled):
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)}
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, "-m", "sos_tui", "history", "export", "1", "-"], stdout=full,
                                stderr=subprocess.PIPE, text=True, timeout=60, env=env)
    assert result.returncode == 2
    assert result.stderr == "sos-tui history export: could not write to standard output: the disk is full\n"


@pytest.mark.parametrize(("argv", "says"), [
    ([], "the following arguments are required: ID, FILE"),
    (["1"], "the following arguments are required: FILE"),
    (["1", "a.json", "b.json"], "unrecognized arguments: b.json"),
])
def test_export_usage_errors_are_one_line(filled, capsys, argv, says):
    status, out, err = export(capsys, *argv)
    assert (status, out) == (2, "") and err.count("\n") == 1 and says in err


def test_help_names_export(capsys):
    assert main(["history", "--help"]) == 0
    assert "export" in capsys.readouterr().out
    assert main(["history", "export", "--help"]) == 0
    text = capsys.readouterr().out
    assert "--force" in text and "ID" in text and "FILE" in text and "sos-tui review" in text


def test_export_speaks_malay(filled, tmp_path, capsys):
    message = one_line(*export(capsys, "--lang", "ms", "9", str(tmp_path / "game.json")))
    assert message.startswith("tiada permainan '9' dalam sejarah")
    path = tmp_path / "game.json"
    path.write_text("mine")
    assert one_line(*export(capsys, "1", str(path), "--lang", "ms")) == (
        f"{path} sudah wujud: tambah --force untuk menggantikannya")
    assert main(["--lang", "ms", "history", "export", "--help"]) == 0
    assert "gantikan FAIL jika sudah wujud" in capsys.readouterr().out


def test_a_history_that_is_not_ours_is_one_line_and_left_as_it_is(data, tmp_path, capsys):
    data.mkdir()
    (data / "history.sqlite3").write_bytes(b"garbage" * 100)
    message = one_line(*export(capsys, "1", str(tmp_path / "game.json")))
    assert message.startswith("the history ") and message.endswith("left as it is")
    assert (data / "history.sqlite3").read_bytes() == b"garbage" * 100


def test_the_games_of_a_first_version_history_keep_their_moves(data, tmp_path, capsys):
    """The history has kept each game's whole record since its first schema: an old database,
    upgraded on opening, gives every readable game's moves; a row whose record an old disk error
    spoiled says it has none."""
    data.mkdir()
    seats = (PlayerInfo("Ana"), PlayerInfo("Bo"))
    old = GameRecord.for_state(GameState.from_moves([*OPENING, *ENDING], 3), seats)
    with sqlite3.connect(history_db_path()) as conn:
        conn.executescript("""
            CREATE TABLE games (id INTEGER PRIMARY KEY, finished_at TEXT NOT NULL, size INTEGER NOT NULL,
                                mode TEXT NOT NULL, players TEXT NOT NULL, record TEXT NOT NULL,
                                scores TEXT NOT NULL, result TEXT NOT NULL);
            PRAGMA user_version = 1;""")
        insert = ("INSERT INTO games (finished_at, size, mode, players, record, scores, result) "
                  "VALUES (?, ?, ?, ?, ?, ?, ?)")
        conn.execute(insert, (old.updated, 3, "general", json.dumps([p.to_dict() for p in old.players]),
                              old.to_json(), "[6, 0]", "Ana wins"))
        conn.execute(insert, ("2025-12-31T00:00:00+00:00", 5, "general",
                              '[{"name": "Old"}, {"name": "Timer"}]', "lost to a disk error", "[3, 1]",
                              "Old wins"))
    conn.close()
    games = {game["number"]: game for game in history_document(capsys)["games"]}
    assert games[1]["moves"] == [*OPENING, *ENDING] and games[1]["moves_error"] is None
    assert games[2]["moves"] is None and games[2]["result"] == "Old wins"
    assert games[2]["moves_error"] == ("the moves of this game cannot be read: not a game record: the file "
                                       "is not valid JSON (Expecting value: line 1 column 1 (char 0))")
    assert export(capsys, "1", str(tmp_path / "old.json"))[0] == 0
    assert load_record(tmp_path / "old.json") == old
    message = one_line(*export(capsys, "2", str(tmp_path / "timer.json")))
    assert message == ("game 2 has no moves to export: its stored record cannot be read (not a game record: "
                       "the file is not valid JSON (Expecting value: line 1 column 1 (char 0)))")
