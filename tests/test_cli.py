"""The command line: bad arguments get one clear line and status 2, never a traceback."""

from __future__ import annotations

import subprocess
import sys

import pytest

from sos_tui.cli import build_parser, game_from_args, main
from sos_tui.engine import PlayerInfo


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sos_tui", *args], capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize(("args", "says"), [
    (["--size", "2"], "--size must be from 3 to 26, not 2"),
    (["--size", "big"], "--size must be a whole number, not 'big'"),
    (["--mode", "foo"], "invalid choice: 'foo'"),
    (["--players", "Ana"], "--players needs 2 to 6 names, not 1"),
    (["--players", "Ana,computer:godlike"], "unknown computer level 'godlike'"),
    (["--bogus"], "unrecognized arguments: --bogus"),
])
def test_bad_arguments_print_one_line_and_exit_2(args, says):
    result = run_cli(*args)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and says in result.stderr
    assert "Traceback" not in result.stderr


def test_a_bad_save_file_is_refused_on_the_command_line(tmp_path):
    bad = tmp_path / "game.json"
    bad.write_text("{not json")
    result = run_cli("--load", str(bad))
    assert result.returncode == 2 and "not valid JSON" in result.stderr and "Traceback" not in result.stderr
    assert bad.read_text() == "{not json"  # left untouched


def test_version_and_help():
    assert run_cli("--version").stdout.strip().startswith("sos-tui ")
    text = run_cli("--help").stdout
    for option in ("--size", "--mode", "--players", "--no-mouse", "--load", "arena", "history"):
        assert option in text


def test_players_become_seats():
    args = build_parser().parse_args(["--size", "8", "--mode", "simple", "--players", "Ana,computer:hard,Bo"])
    game = game_from_args(args)
    assert (game.size, game.mode.value) == (8, "simple")
    assert game.players == (PlayerInfo("Ana"), PlayerInfo("Computer 2", "computer", "hard"), PlayerInfo("Bo"))
    assert game_from_args(build_parser().parse_args([])) is None  # no options: the setup screen


def test_subcommands_are_dispatched(capsys):
    assert main(["history"]) == 0
    assert "No finished games in the history yet" in capsys.readouterr().out
    assert main(["arena", "hard"]) == 2
    assert "required: LEVEL_B" in capsys.readouterr().err
