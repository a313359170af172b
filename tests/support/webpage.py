"""The page's helpers, shared by tests/test_web.py, tests/test_web_browser.py and benchmarks/web.py:
``sos-tui web`` run on a free port, the terminal's bytes read as a screen of cells, a bounded
poll, the processes under a process."""

from __future__ import annotations

import contextlib
import json
import re
import signal
import socket
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path

from .helpers import free_port, until

SOS = str(Path(sys.executable).with_name("sos-tui"))
TIMEOUT = 20.0
SETUP = "Host over the network"  # the setup screen's last button: it has been drawn
ESCAPE = re.compile(r"\x1b(\[[0-9;?<>=$]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|.)")


TOKEN = re.compile(rf"\x1b\[(\d+);(\d+)H|(?P<escape>{ESCAPE.pattern})|(?P<char>.)", re.DOTALL)
"""A cursor position (row, column), another escape sequence, or a character drawn."""


WHOLE = re.compile(r"\x1b(\[[0-9;?<>=$]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[^\[\]])", re.DOTALL)
"""An escape sequence that has all of its bytes."""


class Terminal:
    """The screen a terminal shows after the output fed to it so far, read as it arrives: each
    byte is read once (an escape sequence cut short at the end of a piece waits for the next).
    ``cells``: the characters by (row, column), both from 1. Textual places each run of text with
    a cursor position (CSI row;col H); other escapes do not move it."""

    def __init__(self) -> None:
        self.cells: dict[tuple[int, int], str] = {}
        self._row = self._column = 1
        self._rest = ""

    def feed(self, output: str) -> Terminal:
        text = self._rest + output
        whole = _whole(text)
        self._rest = text[whole:]
        for match in TOKEN.finditer(text, 0, whole):
            if match[1]:
                self._row, self._column = int(match[1]), int(match[2])
            elif match["char"] is not None and match["char"] >= " ":
                self.cells[self._row, self._column] = match["char"]
                self._column += 1
        return self


def _whole(text: str) -> int:
    """How much of ``text`` is whole: all of it, or up to an escape sequence cut short at its end."""
    end = len(text)
    command = text.rfind("\x1b]")  # an operating system command (a title, a colour) runs to BEL or ST
    if command >= 0 and not WHOLE.match(text, command):
        end = command
    last = text.rfind("\x1b", 0, end)
    if last >= 0 and not WHOLE.match(text, last, end):
        end = last
    return end


def cells_of(stream: str) -> dict[tuple[int, int], str]:
    """The characters on the screen by (row, column), both from 1, after the terminal output
    ``stream`` (all of it at once: see ``Terminal``)."""
    return Terminal().feed(stream).cells


def board_cell(cells: dict[tuple[int, int], str], name: str) -> tuple[int, int]:
    """Where the board's cell ``name`` (e.g. "b2") is drawn: the row of its number on the board's
    left edge, the column of its letter in the board's heading (``a b c d e f``)."""
    letter, number = name[0], name[1:]
    heading = [(r, c) for (r, c), char in cells.items() if char == "a"
               and any(cells.get((r, c + step)) == "b" and cells.get((r, c + 2 * step)) == "c"
                       for step in range(1, 6))]
    heading_row, a_column = min(heading)
    column = next(c for c in range(a_column, a_column + 60) if cells.get((heading_row, c)) == letter)
    row = min(r for (r, c), char in cells.items()
              if r > heading_row and char == number and a_column - 4 <= c < a_column)
    return row, column


def rows_of(cells: dict[tuple[int, int], str]) -> dict[int, str]:
    """Each screen row as a string, column 1 first."""
    width = max(c for _r, c in cells)
    return {row: "".join(cells.get((row, c), " ") for c in range(1, width + 1))
            for row in sorted({r for r, _c in cells})}


def where(cells, text: str, on_row_with: str = "") -> tuple[int, int]:
    """The (row, column) of the middle of ``text`` on the screen, on a row that also shows
    ``on_row_with``."""
    for row, line in rows_of(cells).items():
        if text in line and on_row_with in line:
            return row, line.index(text) + 1 + len(text) // 2
    raise AssertionError(f"{text!r} is not on the screen")


def empty_cells(cells, size: int) -> list[str]:
    return [f"{letter}{number}" for number in range(1, size + 1) for letter in "abcdefgh"[:size]
            if cells.get(board_cell(cells, f"{letter}{number}")) == "·"]


class Web:
    """``sos-tui web`` running on a free port of 127.0.0.1; stopped with ctrl+c (SIGINT)."""

    def __init__(self, *args: str, program: tuple[str, ...] = (SOS,)) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"  # the page's own origin: what its tabs send as Origin
        self.socket = f"ws://127.0.0.1:{self.port}/ws"
        self.process = subprocess.Popen([*program, "web", "--port", str(self.port), *args],
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        try:  # "Serving SOS on URL (ctrl+c to stop)", in any language: said once the port is bound
            until(lambda: self.serving or self.process.poll() is not None, "the server to start")
            assert self.process.poll() is None, self.lines
            assert self._listening(), "said it serves before listening"  # a script may connect at once
        except AssertionError:
            self.stop()  # a server that did not start in time is not left running
            raise

    @property
    def serving(self) -> bool:
        return any("ctrl+c" in line for line in self.lines)

    def _listening(self) -> bool:
        with socket.socket() as probe:
            return probe.connect_ex(("127.0.0.1", self.port)) == 0

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    def get(self, path: str = "/", headers: dict | None = None) -> tuple[int, str]:
        try:
            request = urllib.request.Request(self.url + path, headers=headers or {})
            with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(TIMEOUT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        return self.process.returncode



def autosaved_moves(data: Path) -> list[str]:
    moves = []
    for path in (data / "autosaves").glob("*.json"):
        with contextlib.suppress(OSError, ValueError):
            moves += json.loads(path.read_text())["moves"]
    return moves
