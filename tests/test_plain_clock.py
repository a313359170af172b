"""A timed game in line mode (``sos-tui --plain --clock MIN+INC``): ``clock`` says each seat's time,
one warning at 10% left, no takebacks, and the game ends on time while it waits for input (the
input stays open: the flag wakes it). Time is injected, or a saved game leaves a seat a moment."""

from __future__ import annotations

import asyncio
import json
import queue
import subprocess
import sys
import threading
from dataclasses import replace
from pathlib import Path

import pytest

from sos_tui.engine import GameRecord, Mode, Move, Seat
from sos_tui.engine.clock import TimeControl
from sos_tui.plain.front import play_local
from sos_tui.session import ComputerPool, GameSession

from .support.helpers import FakeTime

SOS = str(Path(sys.executable).with_name("sos-tui"))


def _until_game_over(process: subprocess.Popen) -> list[bytes]:
    """The lines ``process`` says until the game is over (at most 20 s), its input still open;
    then its input ends, and so must the process."""
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in process.stdout], daemon=True).start()
    said = []
    try:
        while not said or not said[-1].startswith(b"Type review"):
            said.append(lines.get(timeout=20).rstrip())
    finally:
        process.stdin.close()  # the end of the input: the command ends
        assert process.wait(timeout=20) == 0
    return said


class Typed(asyncio.Queue):
    """Input lines, each typed ``wait`` ms of the fake time after the line before it."""

    def __init__(self, now: FakeTime, *lines: tuple[int, str]) -> None:
        super().__init__()
        self.now = now
        for line in (*lines, (0, None)):
            self.put_nowait(line)

    async def get(self):
        wait, line = await super().get()
        self.now.wait(wait)
        return line


def played(now: FakeTime, record: GameRecord, *lines: tuple[int, str], capsys) -> list[str]:
    session = GameSession(record, now=now)
    asyncio.run(play_local(session, ComputerPool(), Typed(now, *lines)))
    return capsys.readouterr().out.splitlines()


def timed(clock: str, names=("Ana", "Bo")) -> GameRecord:
    return GameRecord(
        3, Mode.GENERAL, tuple(Seat(n) for n in names), clock=TimeControl.parse(clock), spent_ms=()
    )


def test_clock_says_each_seats_time_and_undo_is_refused(capsys):
    out = played(
        FakeTime(),
        timed("1+2"),
        (0, "clock"),
        (10_000, "S a1"),
        (3_000, "clock"),
        (0, "undo"),
        (0, "redo"),
        (1_000, "resign"),
        (0, "yes"),
        (0, "clock"),
        capsys=capsys,
    )
    assert out == [
        "A 3 by 3 game, general mode: Ana and Bo.",
        "Ana to move.",
        "Time left: Ana 1:00 (to move), Bo 1:00.",
        "Ana wrote S at a1.",
        "Bo to move.",
        "Time left: Ana 0:52, Bo 0:57 (to move).",
        "No takebacks in a timed game.",
        "No takebacks in a timed game.",
        "Bo, resign? Type yes to resign or no to play on.",
        "Bo resigned.",
        "Game over: Ana wins. How it ended: Bo resigned.",
        "Type review for the key moments, or quit.",
        "Time left: Ana 0:52, Bo 0:56 (out).",
    ]


def test_an_untimed_game_has_no_clock_and_help_lists_it(capsys):
    out = played(
        FakeTime(),
        GameRecord(3, Mode.GENERAL, (Seat("Ana"), Seat("Bo"))),
        (0, "clock"),
        (0, "help"),
        capsys=capsys,
    )
    assert out[2] == "This game has no clock."
    assert "In a timed game: clock says each player's time left." in out


def test_low_time_is_said_once_and_a_line_after_the_flag_finds_the_game_over(capsys):
    out = played(
        FakeTime(), timed("1+0"), (55_000, "clock"), (1_000, "clock"), (10_000, "S a1"), capsys=capsys
    )
    assert out[2:] == [
        "Ana, your time is running out: 0:05.0 left.",
        "Time left: Ana 0:05.0 (to move), Bo 1:00.",
        "Time left: Ana 0:04.0 (to move), Bo 1:00.",
        "Ana ran out of time.",
        "Game over: Bo wins. How it ended: Bo won on time.",
        "Type review for the key moments, or quit.",
        "cannot play S a1: the game is already over",
    ]


def test_the_game_ends_on_time_while_it_waits_for_input(tmp_path, data_dir):
    """The real command, its input left open: Bo has 0.3 s left in the saved game, and the line
    mode says the end with no line typed; the history has it ended on time."""
    moves = tuple(Move.parse(text) for text in ("S a1", "O b1", "S c3"))  # no SOS: Bo is to move
    saved = replace(timed("0.1+0"), moves=moves, spent_ms=(100, 5_700, 100))
    path = tmp_path / "game.json"
    path.write_text(saved.to_json())
    process = subprocess.Popen(
        [SOS, "--plain", "--load", str(path), "--lang", "en"], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    said = _until_game_over(process)
    assert said[-3:] == [
        b"Bo ran out of time.",
        b"Game over: Ana wins. How it ended: Ana won on time.",
        b"Type review for the key moments, or quit.",
    ]
    history = subprocess.run([SOS, "history", "--json"], capture_output=True, check=True, timeout=60)
    [game] = json.loads(history.stdout)["games"]
    assert (game["termination"], game["winners"]) == ("time", [0])


@pytest.mark.slow
def test_a_new_game_on_the_shortest_clock_ends_on_time_with_no_line_typed(data_dir):
    """``--clock 0.1+0``, as a player would start it: Ana moves, Bo does not, and 6 s later the
    game is over on time (its input still open)."""
    process = subprocess.Popen(
        [SOS, "--plain", "--size", "3", "--players", "Ana,Bo", "--clock", "0.1+0", "--lang", "en"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    process.stdin.write(b"S a1\n")
    process.stdin.flush()
    said = _until_game_over(process)
    assert said[-3:-1] == [b"Bo ran out of time.", b"Game over: Ana wins. How it ended: Ana won on time."]
