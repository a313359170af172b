"""Hostile input through every command-line output: names, paths and arguments are data.

Every name in the corpus goes through the history table, ``history --json``, the transcript and
the error messages; nothing may crash, everything shows literally (escaped where a terminal would
act on it), and no ESC byte ever reaches the output. A bounded fuzz of argv through ``cli.main``
checks the one error policy: exit 0 or 2, never a traceback.
"""

from __future__ import annotations

import json
import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sos_tui import cli
from sos_tui.cli import arena, play
from sos_tui.engine import GameRecord, GameState, Mode, PlayerInfo, printable, transcript
from sos_tui.engine.text import is_hidden
from sos_tui.storage import History, history_db_path, save_record

from .support.examples import examples

NAMES = {
    "markup-close": "[/]",
    "markup-stray": "x[/b]",
    "markup-style": "[b red]x[/]",
    "markup-action": "[@click=app.quit]quit[/]",
    "markup-link": "[link=https://evil.example]x[/link]",
    "csi-clear": "\x1b[2J\x1b[H",
    "csi-colour": "Ann\x1b[31mred",
    "c1-csi": "\x9b31mAnn",
    "osc-title": "\x1b]0;pwned\x07",
    "osc-hyperlink": "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\",
    "dcs": "\x1bP1$r\x1b\\",
    "bidi-override": "\u202eevil\u202c",
    "bidi-isolate": "\u2066x\u2069",
    "zero-width-joiner": "\U0001f468\u200d\U0001f469\u200d\U0001f467",
    "zero-width-space": "a\u200bb",
    "lone-surrogate": "An\udce9",
    "high-surrogate": "\ud800",
    "newline": "a\nb\r\x00",
    "megabyte": "A" * (1 << 20),
    "megabyte-escapes": "\x1b" * (1 << 20),
}
GAME = ["S a1", "S c3", "S c1", "S a3", "O b2", "O b1", "O b3", "O a2", "O c2"]


def hostile_record(name: str, index: int = 0) -> GameRecord:
    """A finished game against ``name``, built directly (the app's checks are not trusted here)."""
    state = GameState.from_moves(GAME, 3)
    seats = (PlayerInfo("Ana"), PlayerInfo(name, "computer", "hard"))
    stamp = f"2026-01-01T10:{index:02d}:00+00:00"
    return GameRecord(3, Mode.GENERAL, seats, state.moves, stamp, stamp, f"hostile{index}")


def assert_safe(text: str) -> None:
    """What a terminal would get: no ESC (7- or 8-bit), no hidden character (the rule of
    ``printable``: no control, format, private-use, unassigned, surrogate or line separator; a
    space of another script, such as U+1680, is shown as it is), valid UTF-8."""
    assert "\x1b" not in text and "\x9b" not in text
    assert all(c == "\n" or not is_hidden(c) for c in set(text))  # each character once
    text.encode("utf-8")  # no lone surrogate


@pytest.fixture
def hostile_history(data):
    with History() as history:
        for index, name in enumerate(NAMES.values()):
            history.record_game(hostile_record(name, index))
    return history_db_path()


def test_the_history_table_shows_hostile_names_as_data(hostile_history, capsys):
    assert cli.main(["history"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    assert_safe(captured.out)
    for name in ("[/]", "x[/b]", "[b red]x[/]", "\\x1b[2J\\x1b[H", "\\u202eevil", "An\\udce9"):
        assert name in captured.out  # literally, escaped where a terminal would act on it
    assert max(len(line) for line in captured.out.splitlines()) < 200  # a megabyte name is shortened


def test_history_json_gives_back_every_name_exactly(hostile_history, capsys):
    assert cli.main(["history", "--json"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and out.isascii()
    games = json.loads(out)["games"]
    assert sorted(game["players"][1]["name"] for game in games) == sorted(NAMES.values())


@pytest.mark.parametrize("name", list(NAMES.values()), ids=list(NAMES))
def test_the_transcript_shows_every_name_as_data(name):
    text = transcript(hostile_record(name))
    assert_safe(text)
    assert printable(name) in text


@pytest.mark.parametrize("name", list(NAMES.values()), ids=list(NAMES))
def test_a_hostile_name_on_the_command_line_is_one_safe_line(name, capsys, monkeypatch):
    monkeypatch.setattr(play, "launch", lambda game, mouse: None)
    monkeypatch.setattr(play, "has_terminal", lambda: True)
    status = cli.main(["--players", f"Ana,{name}"])
    captured = capsys.readouterr()
    assert_safe(captured.out + captured.err)
    if status == 0:  # markup is a fine name: it is shown literally everywhere
        assert name.startswith("[") or name.startswith("x[")
    else:
        assert status == 2 and captured.err.count("\n") == 1 and len(captured.err) < 400


@pytest.mark.parametrize("name", list(NAMES.values()), ids=list(NAMES))
def test_a_hostile_path_or_opponent_is_one_safe_line(name, capsys, tmp_path):
    for argv in (["--load", name], ["--load", str(tmp_path / name)], ["history", "--opponent", name]):
        assert cli.main(argv) == 2
        captured = capsys.readouterr()
        assert_safe(captured.err)
        assert captured.out == "" and captured.err.count("\n") == 1 and len(captured.err) < 400


@pytest.mark.parametrize("name", list(NAMES.values()), ids=list(NAMES))
def test_a_save_file_with_a_hostile_name_is_refused_or_loaded_safely(name, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(play, "launch", lambda game, mouse: None)
    monkeypatch.setattr(play, "has_terminal", lambda: True)
    path = save_record(hostile_record(name), tmp_path / "game.json")
    status = cli.main(["--load", str(path)])
    captured = capsys.readouterr()
    assert_safe(captured.err)
    assert status in (0, 2) and len(captured.err) < 400


def test_a_damaged_history_row_with_hostile_bytes_is_skipped_not_printed(hostile_history, capsys):
    conn = sqlite3.connect(hostile_history)
    conn.execute("UPDATE games SET players = ? WHERE game_id = 'hostile0'", ('\x1b[2J{"not": "a list"}',))
    conn.execute("UPDATE games SET result = ? WHERE game_id = 'hostile1'", ("\x1b]0;pwned\x07",))
    conn.commit()
    conn.close()
    assert cli.main(["history"]) == 0
    captured = capsys.readouterr()
    assert_safe(captured.out + captured.err)
    assert "warning: skipped 1 damaged game" in captured.err and "\\x1b]0;pwned\\x07" in captured.out


# -- a bounded fuzz of argv ----------------------------------------------------------------------
TOKENS = ["play", "history", "arena", "--size", "--mode", "--players", "--load", "--limit", "--opponent",
          "--json", "--no-mouse", "--help", "-h", "--version", "general", "simple", "computer:hard",
          "Ana,Bo", "3", "26", "0", "-1", "easy", "human", "", " ", "--", "-"]
ANY_TEXT = st.text(st.characters(exclude_categories=()), max_size=40)
ARGV = st.lists(st.one_of(st.sampled_from(TOKENS), ANY_TEXT), max_size=6)


@settings(max_examples=examples(300), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(argv=ARGV)
def test_no_argv_gives_a_traceback_or_an_odd_exit_status(argv, monkeypatch, tmp_path, capsys):
    launched = []
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(play, "launch", lambda game, mouse: launched.append(game))
    monkeypatch.setattr(arena, "run", lambda args: 0)
    monkeypatch.setattr(play, "has_terminal", lambda: True)
    status = cli.main(argv)
    captured = capsys.readouterr()
    assert status in (0, 2)
    assert "Traceback" not in captured.err
    assert_safe(captured.err)
    if status == 2:
        assert captured.err.count("\n") == 1
