"""The SOS engine protocol (docs/engine-protocol.md): its lines both ways, an engine program as a
player (every misbehaviour a clear EngineError, the process gone), and ``sos-tui engine``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sos_tui.ai.engines import engine_command
from sos_tui.ai.engines.client import EngineClient, EngineError, Failure, Limits
from sos_tui.ai.engines.forfeit import forfeit
from sos_tui.ai.engines.protocol import (
    BestMove,
    Go,
    Id,
    Info,
    IsReady,
    NewGame,
    Position,
    ProtocolError,
    Quit,
    ReadyOk,
    Sos,
    SosOk,
    move_text,
    parse_answer,
    parse_command,
    parse_move,
)
from sos_tui.ai.engines.serve import serve
from sos_tui.engine import GameState, Mode, Move

from .helpers import alive

ENGINES = Path(__file__).parent / "engines"
RAND = f"{sys.executable} {ENGINES / 'rand.py'}"
QUICK = Limits(handshake=2.0, margin=0.3, quit_grace=0.3)


def misbehaving(case: str) -> str:
    return f"{sys.executable} {ENGINES / 'misbehave.py'} {case}"


# -- the lines ----------------------------------------------------------------------------------
COMMANDS = [
    Sos(),
    IsReady(),
    NewGame(5, Mode.SIMPLE, 3),
    Position(()),
    Position((Move(0, 0, "S"), Move(25, 25, "O"))),
    Go(1000),
    Quit(),
]
ANSWERS = [
    Id("name", "Random bot"),
    Id("author", "Ana"),
    SosOk(),
    ReadyOk(),
    BestMove(Move(1, 1, "S")),
    Info("string depth 3"),
]


@pytest.mark.parametrize("command", COMMANDS, ids=str)
def test_every_command_reads_back_as_itself(command):
    assert parse_command(str(command)) == command
    assert parse_command(f"  {command}\t \r\n") == command


@pytest.mark.parametrize("answer", ANSWERS, ids=str)
def test_every_answer_reads_back_as_itself(answer):
    assert parse_answer(str(answer)) == answer
    assert parse_answer(f"{answer}\r\n") == answer


def test_moves_are_letter_column_row_with_no_space():
    assert parse_move("Sb2") == Move(1, 1, "S")
    assert parse_move("Oz26") == Move(25, 25, "O")
    assert move_text(Move(9, 2, "O")) == "Oc10"
    for bad in ("sb2", "Sb02", "Sb0", "SB2", "S b2", "Xb2", "Sb", "b2S", "Sb100", ""):
        with pytest.raises(ProtocolError):
            parse_move(bad)


@pytest.mark.parametrize(
    "line",
    [
        "",
        "   ",
        "SOS",
        "sos now",
        "isready 1",
        "newgame size 2 mode general players 2",
        "newgame size 27 mode general players 2",
        "newgame size 6 mode misere players 2",
        "newgame size 6 mode general players 1",
        "newgame size 6 mode general players 7",
        "newgame size 06 mode general players 2",
        "newgame size 6 mode general",
        "position",
        "position Sa1",
        "position moves Sa1 b2",
        "go",
        "go movetime",
        "go movetime 0",
        "go movetime -5",
        "go movetime 1.5",
        "go movetime 3600001",
        "go depth 3",
        "quit now",
        "bestmove Sa1",
        "position moves Sa1\x00",
        "position moves " + "Sa1 " * 3000,
    ],
)
def test_a_malformed_command_is_a_protocol_error(line):
    with pytest.raises(ProtocolError):
        parse_command(line)


@pytest.mark.parametrize(
    "line",
    [
        "",
        "ok",
        "sosok now",
        "readyok 1",
        "bestmove",
        "bestmove sa1",
        "bestmove Sa1 Ob1",
        "bestmove (none)",
        "id",
        "id name",
        "id version 2",
        "info",
        "id name \x1b[31mred",
        "info " + "x" * 201,
        "isready",
    ],
)
def test_a_malformed_answer_is_a_protocol_error(line):
    with pytest.raises(ProtocolError):
        parse_answer(line)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_any_text_is_a_command_an_answer_or_a_protocol_error(text):
    for parse in (parse_command, parse_answer):
        try:
            parsed = parse(text)
        except ProtocolError as error:
            assert str(error)  # says what is wrong
        else:
            assert parse(str(parsed)) == parsed  # what was read writes back as the same line


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 25), st.integers(0, 25), st.sampled_from("SO")), max_size=20))
def test_any_moves_go_through_position_and_back(cells):
    moves = tuple(Move(row, col, letter) for row, col, letter in cells)
    assert parse_command(str(Position(moves))) == Position(moves)


def test_engine_command_reads_the_prefix():
    assert engine_command("engine:python3 bot.py") == "python3 bot.py"
    assert engine_command("Engine: ./bot ") == "./bot"
    assert engine_command("engine:") == ""
    assert engine_command("expert") is None


# -- an engine as a player ----------------------------------------------------------------------
def play_out(engine: EngineClient, state: GameState, movetime: int = 100) -> GameState:
    while not state.is_over:
        state = state.play(engine.best_move(state, movetime))
    return state


def test_the_example_engine_plays_whole_games_through_the_protocol():
    with EngineClient(RAND, QUICK) as engine:
        assert (engine.name, engine.author) == ("Random", "sos-tui tests")
        assert play_out(engine, GameState.new(4)).is_over
        assert play_out(engine, GameState.new(3, Mode.SIMPLE, 3)).is_over  # a newgame in between
    assert not alive(engine.pid)


@pytest.mark.parametrize(
    ("case", "failure", "words"),
    [
        ("garbage", Failure.GARBAGE, "broke the protocol"),
        ("illegal", Failure.ILLEGAL, "illegal move Sa1"),
        ("offboard", Failure.ILLEGAL, "Sz26: cannot play S z26: z26 is off the 4x4 board"),
        ("slow", Failure.TIME, "did not move within 100 ms and 0.3 s more"),
        ("hang", Failure.TIME, "did not move within 100 ms"),
        ("crash", Failure.CRASH, "stopped (exit status 1)"),
    ],
)
def test_an_engine_that_misbehaves_while_playing_fails_with_why_and_is_stopped(case, failure, words):
    engine = EngineClient(misbehaving(case), QUICK)
    state = GameState.new(4).play(Move(0, 0, "S"))
    with pytest.raises(EngineError) as caught:
        play_out(engine, state)
    assert caught.value.failure is failure
    assert f"engine Misbehave {case}" in str(caught.value) and words in str(caught.value)
    assert not alive(engine.pid)


@pytest.mark.parametrize(
    ("case", "failure", "words"),
    [
        ("mute", Failure.HANG, "did not answer sos within 0.5 s"),
        ("silent", Failure.CRASH, "stopped (exit status 3)"),
    ],
)
def test_an_engine_that_fails_its_handshake_fails_with_why(case, failure, words):
    with pytest.raises(EngineError) as caught:
        EngineClient(misbehaving(case), Limits(handshake=0.5))
    assert caught.value.failure is failure and words in str(caught.value)


def test_an_engine_command_that_cannot_run_says_so():
    for command, words in (
        ("no-such-engine-anywhere --x", "could not start: No such file or directory"),
        ('"unclosed', "cannot read the engine command"),
        ("  ", "the engine command is empty"),
    ):
        with pytest.raises(EngineError) as caught:
            EngineClient(command, QUICK)
        assert caught.value.failure is Failure.START and words in str(caught.value)


def test_a_stopped_engine_takes_the_processes_it_started_with_it():
    engine = EngineClient(misbehaving("spawn"), QUICK)
    child = []
    original = engine._lines.get

    def spy(*args, **kwargs):  # the child's pid, from the info line the engine prints
        line = original(*args, **kwargs)
        if isinstance(line, str) and line.startswith("info string child"):
            child.append(int(line.split()[-1]))
        return line

    engine._lines.get = spy
    with pytest.raises(EngineError):
        engine.best_move(GameState.new(4), 100)
    assert child and not alive(child[0]) and not alive(engine.pid)


def test_an_engine_error_keeps_its_failure_through_a_process_pool():
    import pickle

    error = EngineError(Failure.TIME, "engine {name} is late", name="x")
    again = pickle.loads(pickle.dumps(error))
    assert (again.failure, str(again), again.template) == (Failure.TIME, "engine x is late", error.template)


def test_a_forfeit_gives_the_game_to_the_others():
    reason = EngineError(Failure.CRASH, "gone")
    assert forfeit(GameState.new(3), 0, reason).winners == (1,)
    assert forfeit(GameState.new(3, players=3), 1, reason).winners == (0, 2)


# -- sos-tui engine -----------------------------------------------------------------------------
def test_our_level_answers_the_protocol_and_says_what_is_wrong_with_a_bad_line():
    said = []
    serve(
        "medium",
        [
            "sos",
            "isready",
            "newgame size 3 mode general players 2",
            "position moves Sa1 Ob1",
            "go movetime 200",
            "hello",
            "position moves Sa1 Sa1",
            "go movetime 200",
            "quit",
            "isready",
        ],
        said.append,
    )
    assert said[:4] == ["id name sos-tui medium", said[1], "sosok", "readyok"]
    assert said[4] == "bestmove Sc1"  # medium takes the SOS on offer
    assert said[5] == "info string error: hello is not a command of the protocol"
    assert said[6].startswith("info string error: cannot play S a1")
    assert said[7].startswith("info string error: no position")
    assert len(said) == 8  # nothing after quit


def test_sos_tui_engine_is_an_engine_our_client_can_play():
    command = f"{sys.executable} -m sos_tui engine --level easy"
    with EngineClient(command, Limits(handshake=10.0, margin=1.0)) as engine:
        assert engine.name == "sos-tui easy"
        assert play_out(engine, GameState.new(3), 500).is_over


def test_sos_tui_engine_reads_bytes_that_are_not_utf8_as_a_bad_line():
    done = subprocess.run(
        [sys.executable, "-m", "sos_tui", "engine", "--level", "easy"],
        input=b"\xff\xfe\nsos\nquit\n",
        capture_output=True,
        timeout=30,
    )
    lines = done.stdout.decode().splitlines()
    assert lines[0].startswith("info string error:") and "sosok" in lines and done.returncode == 0
