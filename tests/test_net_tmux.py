"""End to end, for real: ``sos-tui host --headless`` and two ``sos-tui join`` terminals in tmux play a
3x3 game to its end with the keyboard, one of them closing its terminal mid-game and joining again
with the same command; both screens end showing the same result.

Everything runs on 127.0.0.1 with a free port, on a tmux server of its own (``-L``), each player
with its own data folder (its own seat token); the test kills what it started."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from sos_tui.app.screens.game_over import result_line
from sos_tui.engine import GameRecord, GameState, Move, PlayerInfo
from sos_tui.storage import History

from .support.helpers import until

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

SOS = str(Path(sys.executable).with_name("sos-tui"))
MOVES = ["S a1", "O b1", "S c1", "O a2", "O b2", "S c2", "O a3", "O b3", "S c3"]


class Host:
    """``sos-tui host --headless`` with its stdout read line by line on a thread."""

    def __init__(self, env: dict) -> None:
        self.process = subprocess.Popen([SOS, "host", "--headless", "--size", "3", "--port", "0"],
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    def wait_line(self, text: str, timeout: float = 20.0) -> str:
        try:
            return until(lambda: next((line for line in self.lines if text in line), None), repr(text),
                         timeout)
        except AssertionError as stuck:
            raise AssertionError(f"{stuck}; the host said:\n" + "\n".join(self.lines)) from None

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(5)


class Tmux:
    def __init__(self, socket: str) -> None:
        self.socket = socket

    def __call__(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True,
                              timeout=10).stdout

    def join(self, name: str, url: str, env: dict) -> None:
        command = " ".join([f"{key}={value}" for key, value in env.items()]
                           + [SOS, "join", url, "--name", name])
        self("new-session", "-d", "-s", name, "-x", "100", "-y", "30", command)

    def screen(self, name: str) -> str:
        return self("capture-pane", "-p", "-t", name)

    def wait_screen(self, name: str, text: str, timeout: float = 20.0) -> str:
        try:
            return until(lambda: next((screen for screen in [self.screen(name)] if text in screen), None),
                         f"{text!r} on {name}'s screen", timeout)
        except AssertionError as stuck:
            raise AssertionError(f"{stuck}:\n{self.screen(name)}") from None


def in_history(path: Path, timeout: float = 10.0) -> list[tuple[str, ...]]:
    """The moves of every game in the history at ``path`` (waiting for the first to be written)."""
    def games() -> list[tuple[str, ...]]:
        if not path.exists():
            return []
        with History(path) as history:
            return [tuple(str(m) for m in GameRecord.from_json(g.record_json).moves) for g in history.games()]

    try:
        return until(games, f"a game in {path}", timeout)
    except AssertionError:
        return []


def test_two_terminals_play_a_whole_game_through_host_and_join_with_a_drop(tmp_path):
    def folders(name: str) -> dict:
        return {"SOS_TUI_DATA_DIR": str(tmp_path / name), "SOS_TUI_CONFIG_DIR": str(tmp_path / f"{name}-c")}

    env = {**os.environ, **folders("host")}
    player_env = {name: {**folders(name), "TERM": "xterm-256color"} for name in ("Ana", "Bo")}
    tmux = Tmux(f"sos-net-test-{os.getpid()}")
    host = Host(env)
    try:
        url = host.wait_line("ws://")
        assert url.startswith("ws://127.0.0.1:")
        tmux.join("Ana", url, player_env["Ana"])
        host.wait_line("Ana joined (seat 1)")
        tmux.join("Bo", url, player_env["Bo"])
        host.wait_line("the game starts: Ana, Bo")
        seats = (PlayerInfo("Ana"), PlayerInfo("Bo"))
        state = GameState.new(3)
        cursors = {"Ana": (0, 0), "Bo": (0, 0)}
        for number, text in enumerate(MOVES):
            move = Move.parse(text)
            name = seats[state.to_move].name
            tmux.wait_screen(name, "Your turn.")
            row, col = cursors[name]
            keys = (["Down"] * (move.row - row) + ["Up"] * (row - move.row)
                    + ["Right"] * (move.col - col) + ["Left"] * (col - move.col))
            for key in keys:
                tmux("send-keys", "-t", name, key)
            tmux("send-keys", "-t", name, move.letter.lower())
            cursors[name] = (move.row, move.col)
            host.wait_line(f"{name}: {move}")
            state = state.play(move)
            if number == 2:  # Ana's terminal closes mid-game...
                tmux("kill-session", "-t", "Ana")
                host.wait_line("Ana left")
                tmux.wait_screen("Bo", "Waiting for Ana to reconnect")
                tmux.join("Ana", url, player_env["Ana"])  # ...and the same command gets the seat back
                host.wait_line("Ana reconnected")
                tmux.wait_screen("Bo", "Ana's turn." if state.to_move == 0 else "Your turn.")
                cursors["Ana"] = (0, 0)
        assert state.is_over
        result = result_line(state, seats)
        host.wait_line("game over:")
        assert host.process.wait(20) == 0
        for name in ("Ana", "Bo"):
            screen = tmux.wait_screen(name, result)
            assert "Game over" in screen
        for name in ("host", "Ana", "Bo"):  # the game is in every player's history, and the host's
            assert in_history(tmp_path / name / "history.sqlite3") == [tuple(str(m) for m in state.moves)]
    finally:
        tmux("kill-server")
        host.stop()
