"""The command line: bad arguments get one clear line and status 2, never a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from sos_tui.cli import build_parser, main, play
from sos_tui.cli.history import format_history
from sos_tui.cli.play import game_from_args
from sos_tui.engine import PlayerInfo

from .support.games import sample_games


def run_cli(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sos_tui", *args], capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL, **kwargs)


@pytest.mark.parametrize(("args", "says"), [
    (["--size", "2"], "argument --size: must be from 3 to 26, not 2"),
    (["--size", "big"], "argument --size: must be a whole number, not 'big'"),
    (["--mode", "foo"], "invalid choice: 'foo'"),
    (["--players", "Ana"], "argument --players: needs 2 to 6 names, not 1"),
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


def test_version_and_help(capsys):
    assert main(["--lang", "ms", "--version"]) == 0
    assert capsys.readouterr().out.splitlines()[1].startswith("protokol rangkaian ")
    text = run_cli("--help").stdout  # the installed command
    for option in ("--size", "--mode", "--players", "--no-mouse", "--load", "arena", "history", "play"):
        assert option in text


def test_version_names_the_program_the_network_protocol_and_the_game_record_format(capsys):
    from importlib.metadata import version

    import sos_tui
    from sos_tui.engine.record import VERSION
    from sos_tui.net.protocol import PROTOCOL, PROTOCOL_MINOR

    assert main(["--version"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"sos-tui {sos_tui.__version__}",
        f"network protocol {PROTOCOL}.{PROTOCOL_MINOR}",
        f"game record format {VERSION}",
    ]
    assert version("sos-tui") == sos_tui.__version__  # the package's metadata reads the one source


@pytest.mark.parametrize(("line", "offered"), [
    ("sos-tui ser", ["server"]),
    ("sos-tui server --lo", ["--log-format"]),  # a command's own options, added when it parses
    ("sos-tui --mode s", ["simple"]),
])
def test_the_shell_completes_commands_and_options(line, offered, tmp_path):
    pytest.importorskip("argcomplete")
    answer = tmp_path / "completions"
    env = {**os.environ, "_ARGCOMPLETE": "1", "_ARGCOMPLETE_IFS": "\n", "COMP_LINE": line,
           "COMP_POINT": str(len(line)), "_ARGCOMPLETE_STDOUT_FILENAME": str(answer)}
    done = subprocess.run([sys.executable, "-m", "sos_tui"], env=env, capture_output=True, timeout=30,
                          check=True)
    assert done.stdout == b""
    assert [word.strip() for word in answer.read_text().split("\n")] == offered


def test_without_argcomplete_the_shell_gets_no_completion_and_nothing_runs(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "argcomplete", None)  # the [completion] extra not installed
    monkeypatch.setenv("_ARGCOMPLETE", "1")
    assert main(["history"]) == 0
    assert capsys.readouterr() == ("", "")


@pytest.mark.parametrize(("command", "options"), [
    ("play", ("--size", "--mode", "--players", "--load", "--no-mouse")),
    ("history", ("--opponent", "--size", "--mode", "--limit", "--json")),
    ("review", ("FILE", "--json")),
    ("arena", ("LEVEL_A", "LEVEL_B", "--size", "--games", "--seed", "--time-limit", "--jobs", "--json")),
    ("host", ("--size", "--players", "--bind", "--port", "--headless", "--server", "--no-mouse")),
    ("join", ("URL", "--name", "--no-mouse")),
    ("server", ("--bind", "--port", "--redis", "--log-format")),
])
def test_each_command_has_its_own_help(command, options, capsys):
    assert main([command, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: sos-tui {command} ")
    for option in options:
        assert option in out


def test_the_quick_commands_import_neither_textual_nor_the_ai_nor_the_network():
    # what makes `sos-tui --help` and `history --json` start fast; and only the command line uses argparse
    code = ("import sys, sos_tui.i18n; assert 'argparse' not in sys.modules; from sos_tui.cli import main\n"
            "for argv in (['--help'], ['history', '--json']):\n"
            "    try: main(argv)\n"
            "    except SystemExit: pass\n"
            "print(sorted(m for m in ('textual', 'websockets', 'asyncio', 'sos_tui.ai', 'sos_tui.net', "
            "'sos_tui.app', 'sos_tui.session') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.splitlines()[-1] == "[]"



def test_the_apps_first_screen_imports_neither_the_ai_nor_the_network_nor_the_other_screens(tmp_path):
    # what makes `sos-tui` show its setup screen fast (benchmarks/launch.py): the app, run until
    # its first screen is drawn, has not imported what only a later screen or a search needs
    later = ("sos_tui.ai", "sos_tui.ai.search", "sos_tui.ai.review", "sos_tui.net", "sos_tui.net.server",
             "websockets", "markdown_it", "urllib.request", "sos_tui.app.screens.replay",
             "sos_tui.app.screens.history", "sos_tui.app.screens.help")
    code = ("import sys\n"
            "from sos_tui.app import SosApp\n"
            "async def shown(pilot):\n"
            "    await pilot.pause()\n"
            "    print(type(pilot.app.screen).__name__)\n"
            "    pilot.app.exit()\n"
            "SosApp().run(headless=True, size=(100, 40), auto_pilot=shown)\n"
            f"print(sorted(m for m in {later!r} if m in sys.modules))")
    env = {**os.environ, "SOS_TUI_DATA_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60,
                         env=env)
    assert out.stdout.splitlines()[-2:] == ["SetupScreen", "[]"]


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
    assert "give two levels, LEVEL_A and LEVEL_B, or --ladder" in capsys.readouterr().err


# -- play --------------------------------------------------------------------------------------
@pytest.fixture
def launched(monkeypatch):
    """Record app launches instead of running the app, and pretend to have a terminal."""
    calls = []
    monkeypatch.setattr(play, "launch", lambda game, mouse: calls.append((game, mouse)))
    monkeypatch.setattr(play, "has_terminal", lambda: True)
    return calls


def test_play_is_the_default_command_and_has_its_own_name(launched):
    assert main(["--size", "5"]) == 0
    assert main(["play", "--size", "5", "--no-mouse"]) == 0
    assert [(g.size, mouse) for g, mouse in launched] == [(5, True), (5, False)]


@pytest.mark.parametrize(("players", "rule"), [
    ("Ana,Bo\x1b[31m", "seat 2: a name cannot hold a control character (\\x1b)"),
    ("Ana,\u202eoB", "seat 2: a name cannot hold an invisible formatting character (\\u202e)"),
    ("An\udce9,Bo", "seat 1: a name cannot hold a lone surrogate (\\udce9)"),  # --players $'An\xe9',Bo
    ("Ana," + "x" * 25, "seat 2: a name can be at most 24 characters, not 25"),
    ("Ana, ", "seat 2: a name cannot be empty"),
    ("Ana,ana", "two players are called 'ana'"),
    ("A,B,C,D,E,F,G", "needs 2 to 6 names, not 7"),
])
def test_a_bad_name_is_refused_saying_which_rule(players, rule, capsys, launched):
    assert main(["--players", players]) == 2
    err = capsys.readouterr().err
    assert rule in err and err.count("\n") == 1 and "\x1b" not in err and "\u202e" not in err
    assert launched == []


@pytest.mark.parametrize(("clock", "says"), [
    ("5+", "argument --clock: the increment is missing after '+'"),
    ("-1+0", "argument --clock: the minutes cannot be negative"),
    ("abc", "argument --clock: expected minutes+increment like 5+3 or 0.5+0"),
    ("1000000000+0", "argument --clock: the minutes must be from 0.1 to 1440 (24 hours)"),
    ("2d", "argument --clock: days per move (2d) are for correspondence rooms on a server"),
])
@pytest.mark.parametrize("plain", [[], ["--plain"]])
def test_a_bad_clock_is_one_line_and_nothing_starts(clock, says, plain, capsys, launched, data_dir):
    assert main([*plain, "--players", "Ana,Bo", f"--clock={clock}"]) == 2
    out, err = capsys.readouterr()
    assert says in err and err.count("\n") == 1 and out == ""
    assert launched == [] and not data_dir.exists()


def test_clock_gives_every_seat_its_time(launched):
    assert main(["--clock", "0.5+3"]) == 0  # alone, it starts a game: two people, 6x6
    assert main(["--players", "Ana,Bo,Cy", "--clock", " 5+0 "]) == 0
    [(first, _), (second, _)] = launched
    assert (str(first.clock), first.spent_ms, first.size) == ("0.5+3", (), 6)
    assert (str(second.clock), len(second.players)) == ("5+0", 3)
    assert main(["--size", "5"]) == 0 and launched[-1][0].clock is None  # untimed by default


def test_clock_with_load_is_refused(tmp_path, capsys, launched):
    assert main(["--load", str(tmp_path / "x.json"), "--clock", "5+3"]) == 2
    assert "--load cannot be combined with --size, --mode, --players or --clock" in capsys.readouterr().err
    assert launched == []


def test_names_are_trimmed_not_cut(launched):
    assert main(["--players", " Ana , Bo "]) == 0
    assert [p.name for p in launched[0][0].players] == ["Ana", "Bo"]


def test_without_a_terminal_play_exits_at_once(capsys, monkeypatch):
    monkeypatch.setattr(play, "launch", lambda game, mouse: pytest.fail("the app must not start"))
    assert main([]) == 2  # pytest's stdin is not a terminal
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "needs a terminal" in err


def test_without_a_terminal_the_real_command_exits_quickly():
    started = time.monotonic()
    result = run_cli()
    assert result.returncode == 2 and "needs a terminal" in result.stderr
    assert time.monotonic() - started < 30


@pytest.mark.parametrize(("path", "reason"), [
    ("", "no file name given"),
    ("x" * 300 + ".json", "the name is too long"),
    ("/", "is a folder"),
    ("nowhere/\x1b]0;pwned\x07.json", "no such file"),
])
def test_load_errors_are_one_escaped_line(path, reason, capsys, launched):
    assert main(["--load", path]) == 2
    err = capsys.readouterr().err
    assert reason in err and err.count("\n") == 1 and "\x1b" not in err and "\x07" not in err
    assert launched == []


def test_a_symlink_loop_is_a_load_error(tmp_path, capsys, launched):
    loop = tmp_path / "loop.json"
    loop.symlink_to(loop)
    assert main(["--load", str(loop)]) == 2
    assert "too many symbolic links" in capsys.readouterr().err


def test_load_cannot_be_combined_with_new_game_options(tmp_path, capsys, launched):
    assert main(["--load", "game.json", "--size", "5"]) == 2
    assert "--load cannot be combined" in capsys.readouterr().err


# -- history -----------------------------------------------------------------------------------
def test_format_history_lists_games_then_statistics(filled):
    text = format_history(filled.games(), filled.stats())
    lines = text.splitlines()
    assert lines[0].split() == ["#", "Date", "Players", "Size", "Mode", "Score", "Result"]
    assert lines[2].split("  ")[:2] == ["5", "2026-01-05 10:00"]
    assert "Ana vs Bo" in lines[2] and "4x4" in lines[2] and "2-2" in lines[2] and lines[2].endswith("draw")
    assert lines[4].startswith("3  2026-01-03 10:00") and "Deep Blue (hard) vs Ana" in lines[4]
    assert lines[4].endswith("Ana wins")
    assert lines[6].startswith("1  2026-01-01 10:00") and "6-0" in lines[6]
    assert "Statistics over 5 games, from the first human player's side:" in text
    assert any(line.split() == ["easy", "2", "1", "0", "1", "0.5"] for line in lines)
    assert any(line.split() == ["human", "2", "1", "1", "0", "4.0"] for line in lines)
    assert any(line.split() == ["all", "5", "3", "1", "1", "2.0"] for line in lines)
    assert "Longest SOS chain: 6 in one turn by Ana (Ana vs Bo, 2026-01-01 10:00)" in text
    assert "Best game: Ana won by 6 (6-0, Ana vs Bo, 2026-01-01 10:00)" in text


def test_history_command_with_an_empty_history(capsys, data):
    assert main(["history"]) == 0
    out = capsys.readouterr().out
    assert out == "No finished games in the history yet. Play one with `sos-tui`!\n"
    assert not (data / "history.sqlite3").exists()  # looking does not create the database


def test_history_command_prints_the_table_with_filters_and_limit(filled, capsys):
    assert main(["history", "--opponent", "easy"]) == 0
    out = capsys.readouterr().out
    assert "2026-01-04 10:00" in out and "2026-01-02 10:00" in out and "2026-01-05" not in out
    assert "Statistics over 2 games" in out
    assert main(["history", "--limit", "1", "--mode", "general"]) == 0
    out = capsys.readouterr().out
    assert "2026-01-05 10:00" in out and "2026-01-02" not in out
    assert "(showing the 1 newest of 3 games)" in out
    assert main(["history", "--size", "5"]) == 0
    assert capsys.readouterr().out == "No games in the history match those filters.\n"


@pytest.mark.parametrize(("argv", "complaint"), [
    (["--size", "2"], "--size: expected a whole number from 3 to 26, not '2'"),
    (["--size", "six"], "--size: expected a whole number from 3 to 26, not 'six'"),
    (["--mode", "tricky"], "--mode: invalid choice: 'tricky'"),
    (["--limit", "0"], "--limit: expected a whole number at least 1, not '0'"),
    (["--colour"], "unrecognized arguments: --colour"),
    (["--opponent", "godlike"], "no opponent kind 'godlike': choose human, bot, easy, medium, hard, expert"),
    (["--opponent", "\udcff"], "no opponent kind '\\udcff'"),  # --opponent $'\xff'
])
def test_history_command_bad_arguments_give_one_line_and_exit_2(capsys, argv, complaint):
    assert main(["history", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and captured.err.startswith("sos-tui history: ")
    assert complaint in captured.err


def test_history_command_help(capsys):
    assert main(["history", "--help"]) == 0
    assert "--opponent KIND" in capsys.readouterr().out


@pytest.mark.parametrize("content", [b"garbage" * 100, b"SQLite format 3\x00" + b"\x00" * 100])
def test_a_broken_database_is_one_line_and_exit_2(capsys, data, content):
    data.mkdir()
    (data / "history.sqlite3").write_bytes(content)
    assert main(["history"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("sos-tui history: the history ") and "left as it is" in err
    assert (data / "history.sqlite3").read_bytes() == content


def test_a_damaged_row_is_skipped_with_a_warning(filled, capsys):
    import sqlite3

    with sqlite3.connect(filled.path) as conn:
        conn.execute("UPDATE games SET players = '{' WHERE finished_at LIKE '2026-01-03%'")
    conn.close()
    assert main(["history"]) == 0
    captured = capsys.readouterr()
    assert "2026-01-05" in captured.out and "Deep Blue" not in captured.out
    assert captured.err.startswith("sos-tui history: warning: skipped 1 damaged game (row ")


def test_history_json_lists_every_game_for_scripts(filled, capsys):
    assert main(["history", "--json", "--limit", "1"]) == 0  # --limit is for the table only
    document = json.loads(capsys.readouterr().out)
    assert document["format"] == "sos-tui-history" and len(document["games"]) == 5
    hard = document["games"][2]
    record = sample_games()[2]
    assert hard == {
        "number": 3, "id": record.game_id, "started": "2026-01-03T10:00:00+00:00",
        "finished": "2026-01-03T10:00:00+00:00", "size": 3, "mode": "simple",
        "players": [{"name": "Deep Blue", "kind": "computer", "level": "hard"},
                    {"name": "Ana", "kind": "human", "level": None}],
        "scores": [0, 1], "winners": [1], "result": "Ana wins", "termination": "normal", "drops": [],
        "moves": [str(m) for m in record.moves], "movers": list(record.state.movers), "moves_error": None,
    }
    assert main(["history", "--json", "--opponent", "easy"]) == 0
    assert len(json.loads(capsys.readouterr().out)["games"]) == 2


def test_history_json_of_an_empty_history(capsys):
    assert main(["history", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == []


def test_a_damaged_row_gives_one_warning_line_in_a_real_run(filled, data):
    import sqlite3

    with sqlite3.connect(filled.path) as conn:
        conn.execute("UPDATE games SET players = '{' WHERE finished_at LIKE '2026-01-03%'")
    conn.close()
    result = run_cli("history")
    assert result.returncode == 0
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("sos-tui history: warning")


def test_a_name_that_is_not_utf8_is_refused_in_a_real_run():
    result = subprocess.run([sys.executable, "-m", "sos_tui", "--players", b"An\xe9,Bo"], capture_output=True,
                            timeout=60, stdin=subprocess.DEVNULL)
    assert result.returncode == 2
    assert result.stderr.decode() == ("sos-tui: argument --players: seat 1: a name cannot hold a lone "
                                      "surrogate (\\udce9) (see sos-tui --help)\n")


# -- ratings -----------------------------------------------------------------------------------
def test_ratings_command_prints_the_table_mode_by_mode(filled, capsys):
    assert main(["ratings"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["Name", "Mode", "Rating", "±", "Games", "W/D/L", "Last", "played"]
    rows = [line.split() for line in lines[2:]]
    assert [(row[0], row[1]) for row in rows] == [
        ("computer:easy", "general"), ("Ana", "general"), ("Bo", "general"),  # easy beat Ana: 1 game, 1 win
        ("Ana", "simple"), ("computer:easy", "simple"), ("computer:hard", "simple")]  # fmt: skip
    ana = rows[1]
    assert ana[2].endswith("?") and ana[4:7] == ["3", "1/1/1", "2026-01-05"]
    assert main(["ratings", "--mode", "simple"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 5


def test_ratings_json_has_each_players_numbers(filled, capsys):
    assert main(["ratings", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["format"] == "sos-tui-ratings" and len(document["ratings"]) == 6
    ana = document["ratings"][1]
    assert (ana["name"], ana["mode"], ana["games"], ana["provisional"]) == ("Ana", "general", 3, True)
    assert isinstance(ana["rating"], int) and isinstance(ana["deviation"], int)


def test_ratings_of_no_history_say_so_and_create_nothing(capsys, data):
    assert main(["ratings"]) == 0
    assert capsys.readouterr().out == "No ratings yet: finish a game and its players are rated.\n"
    assert main(["ratings", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ratings"] == []
    assert not (data / "history.sqlite3").exists()


def test_ratings_show_a_hostile_name_as_text(filled, capsys):
    import sqlite3

    with sqlite3.connect(filled.path) as conn:
        players = json.dumps([{"name": "[b]x[/b]\x1b[2J", "kind": "human"}, {"name": "Bo", "kind": "human"}])
        conn.execute("UPDATE games SET players = ? WHERE finished_at LIKE '2026-01-01%'", (players,))
    conn.close()
    assert main(["ratings"]) == 0
    out = capsys.readouterr().out
    assert "[b]x[/b]\\x1b[2J" in out and "\x1b" not in out


def test_ratings_of_a_history_that_is_not_one_is_one_line(data, capsys):
    data.mkdir(parents=True)
    (data / "history.sqlite3").write_text("not a database")
    assert main(["ratings"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("sos-tui ratings: ") and "not an SQLite database" in err


def test_a_data_folder_that_cannot_be_made_is_one_escaped_line(tmp_path, monkeypatch, capsys):
    blocker = tmp_path / "file\x1b[2J"
    blocker.write_text("")
    monkeypatch.setenv("SOS_TUI_DATA_DIR", str(blocker / "data"))
    assert main(["history"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot create the folder" in err and "file\\x1b[2J" in err
    assert "\x1b" not in err


def test_history_says_how_a_game_ended(data, capsys):
    from sos_tui.engine import GameRecord, GameState
    from sos_tui.storage import History

    state = GameState.from_moves(["S a1", "O b2"], 3).drop(1, "resign")
    with History() as history:
        history.record_game(GameRecord.for_state(state, (PlayerInfo("Ana"), PlayerInfo("Bo"))))
    assert main(["history", "--json"]) == 0
    [game] = json.loads(capsys.readouterr().out)["games"]
    assert game["termination"] == "resign" and game["winners"] == [0]
    assert game["drops"] == [{"seat": 1, "why": "resign", "after": 2}]
    assert main(["history"]) == 0
    assert "Ana wins (Bo resigned)" in capsys.readouterr().out
