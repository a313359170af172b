"""The SOS engine protocol (docs/engine-protocol.md): its lines both ways, an engine program as a
player (every misbehaviour a clear EngineError, the process gone), and ``sos-tui engine``."""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sos_tui.ai.arena import Match, Tally, run
from sos_tui.ai.engines import client as client_module
from sos_tui.ai.engines.client import EngineClient, EngineError, Failure, Limits, stop_all
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
from sos_tui.cli import main
from sos_tui.cli.net import parse_host_players
from sos_tui.cli.play import parse_players
from sos_tui.engine import GameRecord, GameState, Mode, Move, Seat, SeatError, SeatKind, engine_command
from sos_tui.net.seats import check_seats
from sos_tui.session import ComputerFailed, ComputerPool, GameSession, computer_move
from sos_tui.session.computer import trust_engine

from .support.helpers import alive, children, ctrl_c_works, until, wait_for

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
        ("flood", Failure.GARBAGE, "broke the protocol: more than 10000 info lines in a row"),
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
    assert child and not alive(engine.pid)
    # killed with its process group, the child ends a moment later
    until(lambda: not alive(child[0]), "the engine's child to end")


def test_an_engine_error_keeps_its_failure_through_a_process_pool():
    import pickle

    error = EngineError(Failure.TIME, "engine {name} is late", name="x")
    again = pickle.loads(pickle.dumps(error))
    assert (again.failure, str(again), again.template) == (Failure.TIME, "engine x is late", error.template)


def test_a_forfeit_gives_the_game_to_the_others():
    reason = EngineError(Failure.CRASH, "gone")
    assert forfeit(GameState.new(3), 0, reason).winners == (1,)
    assert forfeit(GameState.new(3, players=3), 1, reason).winners == (0, 2)  # who plays on
    late = forfeit(GameState.new(3), 1, EngineError(Failure.TIME, "late"))
    assert late.after.termination == "time" and late.after.winners == (0,)
    crashed = forfeit(GameState.new(3, players=3), 1, reason).after
    assert not crashed.is_over and crashed.still_in == (0, 2) and crashed.drops[0].why == "abandon"


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


# -- a seat engine:COMMAND ----------------------------------------------------------------------
def test_an_engine_seat_reads_back_from_a_record_and_older_records_are_unchanged():
    seat = Seat("Random", SeatKind.COMPUTER, None, RAND)
    record = GameRecord(3, Mode.GENERAL, (Seat("Ana"), seat))
    assert GameRecord.from_json(record.to_json()).players == record.players
    assert record.to_dict()["players"][1] == {"name": "Random", "kind": "computer", "engine": RAND}
    assert "engine" not in seat.to_dict(full=True)  # the wire never carries a command
    old = {"name": "Deep", "kind": "computer", "level": "hard"}
    assert Seat.from_dict(old).to_dict() == old and Seat.from_dict(old).engine is None
    for bad in (
        {"name": "Ana", "engine": "x"},
        {"name": "B", "kind": "computer", "engine": " "},
        {"name": "B", "kind": "computer", "engine": ["x"]},
    ):
        with pytest.raises(SeatError, match='bad "engine"'):
            Seat.from_dict(bad)


def test_players_take_an_engine_seat_named_by_its_id_name():
    seats = parse_players(f"Ana,engine:{RAND},ENGINE: {RAND}")
    assert [(s.name, s.kind, s.engine) for s in seats] == [
        ("Ana", SeatKind.HUMAN, None),
        ("Random", SeatKind.COMPUTER, RAND),
        ("Engine 3", SeatKind.COMPUTER, RAND),
    ]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Ana,engine:", "seat 2: the engine command is empty"),
        ("Ana,engine:no-such-engine-anywhere", "seat 2: engine no-such-engine-anywhere could not start"),
        (f"Ana,engine:{sys.executable} -c pass", "seat 2: engine "),
    ],
)
def test_an_engine_seat_that_cannot_play_is_a_one_line_error(text, words):
    with pytest.raises(argparse.ArgumentTypeError, match=re.escape(words)):
        parse_players(text)


def test_host_takes_an_engine_seat_and_refuses_one_for_another_server():
    seats = parse_host_players(f"Ana,remote,engine:{RAND}")
    assert seats[2].engine == RAND
    assert check_seats(3, "general", seats)[2][2].engine == RAND  # this process's own seat keeps it
    created = check_seats(3, "general", [s.to_dict(full=True) | {"engine": "rm -rf /"} for s in seats])
    assert created[2][2].engine is None  # a create message from the network never runs a command
    assert main(["host", "--players", f"Ana,remote,engine:{RAND}", "--server", "ws://127.0.0.1:1"]) == 2


def engine_session(command: str) -> GameSession:
    trust_engine(command)
    return GameSession(
        GameRecord(4, Mode.GENERAL, (Seat("Ana"), Seat("Bot", SeatKind.COMPUTER, None, command)))
    )


async def test_an_engine_seat_moves_in_a_session_and_its_program_stops_with_the_pool():
    session = engine_session(RAND)
    pool = ComputerPool(time_limit=0.2)
    try:
        session.play_human(Move(0, 0, "S"))
        while session.computer_level is not None:
            session.play_computer(await computer_move(session, pool), session.version)
        assert session.state.move_count >= 2 and session.seat_to_move.name == "Ana"
        (pid,) = pool.engine_pids()
    finally:
        pool.shutdown()
    assert not alive(pid) and pool.engine_pids() == []


@pytest.mark.parametrize("case", ["garbage", "illegal", "crash"])
async def test_an_engine_that_misbehaves_in_a_session_fails_its_move_saying_why(case):
    session = engine_session(misbehaving(case))
    session.play_human(Move(0, 0, "S"))
    pool = ComputerPool(time_limit=0.2)
    try:
        with pytest.raises(ComputerFailed, match=f"engine Misbehave {case}") as caught:
            await computer_move(session, pool)
    finally:
        pool.shutdown()
    assert caught.value.forfeit.seat == 1 and caught.value.forfeit.winners == (0,)
    assert pool.engine_pids() == []


async def test_a_game_file_names_an_engine_but_does_not_start_it():
    command = f"{sys.executable} {ENGINES / 'rand.py'} --from-a-file"
    session = GameSession(
        GameRecord(3, Mode.GENERAL, (Seat("Bot", SeatKind.COMPUTER, None, command), Seat("Ana")))
    )
    pool = ComputerPool()
    with pytest.raises(ComputerFailed, match="was not given on this command line"):
        await computer_move(session, pool)
    assert pool.engine_pids() == []


async def test_a_cancelled_engine_search_stops_its_program():
    session = engine_session(misbehaving("hang"))
    session.play_human(Move(0, 0, "S"))
    pool = ComputerPool(time_limit=30.0)
    task = asyncio.ensure_future(computer_move(session, pool))
    try:
        await wait_for(None, lambda: [p for p in children(os.getpid()) if "misbehave" in cmdline(p)])
        (pid,) = [p for p in children(os.getpid()) if "misbehave" in cmdline(p)]
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await wait_for(None, lambda: not alive(pid), 10)  # not its 30 s of thinking time
    finally:
        pool.shutdown()


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return ""


def test_plain_plays_an_engine_through_a_pipe():
    done = subprocess.run(
        [
            str(Path(sys.executable).with_name("sos-tui")),
            "--plain",
            "--size",
            "3",
            "--players",
            f"Ana,engine:{RAND}",
        ],
        input=b"S b2\n",
        capture_output=True,
        timeout=60,
    )
    lines = done.stdout.decode().splitlines()
    assert done.returncode == 0, done.stderr
    assert lines[:4] == [
        "A 3 by 3 game, general mode: Ana and Random.",
        "Ana to move.",
        "Ana wrote S at b2.",
        "Random is thinking.",
    ]
    assert lines[4].startswith("Random wrote ")


# -- the arena ----------------------------------------------------------------------------------
def engine_children() -> list[int]:
    return [pid for pid in children(os.getpid()) if "tests/engines" in cmdline(pid)]


def test_an_arena_match_against_the_example_engine_plays_every_game():
    match = Match(f"engine:{RAND}", "medium", size=3, games=2, time_limit=0.2)
    tally = Tally(match)
    for game in run(match):
        tally.add(game)
        assert game.forfeit is None and game.a_seconds
    assert tally.games == 2 and tally.summary()["forfeits"] == [] and engine_children() == []


@pytest.mark.parametrize(
    ("case", "failure"),
    [
        ("garbage", Failure.GARBAGE),
        ("crash", Failure.CRASH),
        ("hang", Failure.TIME),
        ("illegal", Failure.ILLEGAL),
    ],
)
def test_an_engine_that_misbehaves_in_the_arena_loses_that_game_and_the_match_goes_on(case, failure):
    match = Match("easy", f"engine:{misbehaving(case)}", size=3, games=2, time_limit=0.05)
    games = list(run(match))
    assert [(g.result, g.forfeit, g.reason.failure) for g in games] == [(1.0, "b", failure)] * 2
    tally = Tally(match)
    for game in games:
        tally.add(game)
    assert tally.wins == 2 and [f["game"] for f in tally.summary()["forfeits"]] == [1, 2]
    assert f"engine Misbehave {case}" in tally.summary()["forfeits"][0]["reason"]
    assert engine_children() == []


def test_the_arena_says_in_one_line_that_an_engine_cannot_play(capsys):
    assert main(["arena", "engine:no-such-engine-anywhere", "easy"]) == 2
    assert capsys.readouterr().err == (
        "sos-tui arena: engine:no-such-engine-anywhere: engine no-such-engine-anywhere could not start: "
        "No such file or directory\n"
    )


def test_the_arena_prints_an_engines_forfeit_as_text(capsys):
    assert (
        main(
            [
                "arena",
                "easy",
                f"engine:{misbehaving('garbage')}",
                "--games",
                "1",
                "--size",
                "3",
                "--time-limit",
                "0.1",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("game 1: easy first, won 0-0")
    assert out[1].endswith(
        "loses by forfeit: engine Misbehave garbage broke the protocol: I is not an answer of the protocol"
    )


def descendants(pid: int) -> set[int]:
    found = set()
    for child in children(pid):
        found |= {child, *descendants(child)}
    return found


def test_ctrl_c_on_an_arena_on_several_processes_leaves_no_engine_behind():
    process = subprocess.Popen(
        [
            str(Path(sys.executable).with_name("sos-tui")),
            "arena",
            "easy",
            f"engine:{misbehaving('hang')}",
            "--games",
            "2",
            "--jobs",
            "2",
            "--size",
            "3",
            "--time-limit",
            "30",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=ctrl_c_works,
    )
    try:
        deadline, engines = time.monotonic() + 20, []
        while len(engines) < 2 and time.monotonic() < deadline:  # a bound for a stuck test only
            engines = [pid for pid in descendants(process.pid) if "misbehave" in cmdline(pid)]
            time.sleep(0.02)
        assert len(engines) == 2  # one hung engine in each worker
        process.send_signal(signal.SIGINT)
        assert process.wait(20) == 130
    finally:
        process.kill()
        process.communicate()
    deadline = time.monotonic() + 5
    while any(alive(pid) for pid in engines) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not any(alive(pid) for pid in engines)


def signal_inside_popen(monkeypatch, **stop) -> list[int]:
    """``subprocess.Popen`` of the engine client, with ``stop_all(**stop)`` called as soon as the
    process exists and before ``Popen`` returns: as an arena worker's SIGTERM handler runs when the
    signal lands while it starts an engine. The pids started, in a list."""
    started, real_popen = [], subprocess.Popen

    def popen_then_a_signal(*args, **kwargs):
        process = real_popen(*args, **kwargs)
        started.append(process.pid)
        stop_all(**stop)
        return process

    monkeypatch.setattr(client_module.subprocess, "Popen", popen_then_a_signal)
    return started


def test_an_engine_started_while_every_engine_is_being_stopped_is_stopped_too(monkeypatch):
    started = signal_inside_popen(monkeypatch)
    engine = EngineClient(misbehaving("hang"), greet=False)
    try:
        assert not alive(started[0])
    finally:
        engine.close(polite=False)


def test_a_worker_ends_only_after_the_engine_it_was_starting_is_stopped(monkeypatch):
    ended = []
    started = signal_inside_popen(monkeypatch, then=lambda: ended.append(alive(started[0])))
    engine = EngineClient(misbehaving("hang"), greet=False)
    try:
        assert ended == [False]  # called once, and the engine was gone by then
    finally:
        engine.close(polite=False)


def test_plain_an_engine_that_plays_an_illegal_move_loses_and_the_person_wins(tmp_path):
    misbehave = f"{sys.executable} {ENGINES / 'misbehave.py'} illegal"
    done = subprocess.run(
        [str(Path(sys.executable).with_name("sos-tui")), "--plain", "--size", "3", "--players",
         f"Ana,engine:{misbehave}"],
        input=b"S a1\n", capture_output=True, timeout=60,
        env={**os.environ, "SOS_TUI_DATA_DIR": str(tmp_path)},
    )
    out = done.stdout.decode()
    assert done.returncode == 0, done.stderr
    assert "illegal move Sa1" in out and "Game over: Ana wins." in out, out
    assert "paused" not in out
