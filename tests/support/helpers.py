"""Shared helpers for the tests: the app's (a game's screen, cells, notices) and the network's (a
player reading its updates, a server on port 0, a ``sos-tui`` process, a free port)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from rich.cells import cell_len
from rich.color_triplet import ColorTriplet
from textual.app import App
from textual.color import Color
from textual.geometry import Offset
from websockets.asyncio.client import connect

import sos_tui.app
from sos_tui.app import SosApp
from sos_tui.app.colours import readable
from sos_tui.app.widgets.board import Board
from sos_tui.app.widgets.scoreboard import Scoreboard
from sos_tui.engine import GameRecord, Mode, Move, PlayerInfo
from sos_tui.net import Limits, NetError, RemoteGame, Server, TokenStore
from sos_tui.net.protocol import ErrorMessage
from sos_tui.net.roomclock import ServerTime

STYLESHEET = Path(sos_tui.app.__file__).parent / "sos.tcss"
COLOURS = ("#56B4E9", "#E69F00", "#3DDC97", "#F07FC0", "#F0E442", "#FF7F50")


class ScreenHost(App):
    """An app with the game's stylesheet and colours that pushes one screen and keeps what it returns
    (its ``dismiss`` value)."""

    CSS_PATH = STYLESHEET

    def __init__(self, make_screen) -> None:
        super().__init__()
        self.make_screen = make_screen
        self.results: list = []

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return {f"player-{i + 1}": colour for i, colour in enumerate(COLOURS)}

    def get_css_variables(self) -> dict[str, str]:  # the game's own variables ($frame, ...), as in SosApp
        variables = super().get_css_variables()
        variables.update(readable(variables, self.ansi_theme))
        return variables

    def on_mount(self) -> None:
        self.push_screen(self.make_screen(), self.results.append)


def make_app(size: int = 3, mode: str = "general", names=("Ana", "Bo"), **kwargs) -> SosApp:
    seats = tuple(PlayerInfo(n) if not n.startswith("computer:") else
                  PlayerInfo(f"Computer {i + 1}", "computer", n.split(":")[1]) for i, n in enumerate(names))
    kwargs.setdefault("computer_delay", 0)
    return recording(SosApp(GameRecord(size, Mode(mode), seats), **kwargs))


def on_a_game() -> SosApp:
    """The app with a new game of Ana and Bo in front, where a player opens history, a replay, a
    dialog or the lobby (the setup screen has tests of its own, and triples the start)."""
    return SosApp(GameRecord(3, Mode.GENERAL, (PlayerInfo("Ana"), PlayerInfo("Bo"))), settings={})


def recording(app: SosApp) -> SosApp:
    """``app`` keeping every notification it shows in ``app.notices`` (title, message, severity)."""
    app.notices = []
    show = app.notify

    def notify(message, *, title="", severity="information", **kwargs):
        app.notices.append(Notice(str(message), str(title), severity))
        return show(message, title=title, severity=severity, **kwargs)

    app.notify = notify
    return app


@dataclass
class Notice:
    message: str
    title: str
    severity: str


def board_of(app: SosApp) -> Board:
    return app.game_screen.query_one(Board)


def board_text(app: SosApp) -> list[str]:
    board = board_of(app)
    return [board.render_line(y).text.rstrip() for y in range(board.size.height)]


def scoreboard_text(app: SosApp) -> str:
    """The game screen's scoreboard as drawn, line by line."""
    scoreboard = app.game_screen.query_one(Scoreboard)
    return "\n".join(scoreboard.render_line(y).text for y in range(scoreboard.size.height))


def click_offset(board: Board, row: int, col: int) -> Offset:
    """Offset of a cell from the board's outer top-left, as Pilot.click expects (border counts)."""
    return board.cell_offset(row, col) + Offset(board.gutter.left, board.gutter.top)


# -- the one bounded wait ------------------------------------------------------------------------
# For what has no event to await: look again every POLL seconds until a condition holds, and fail,
# naming it, after a bound (for a stuck test: never a timing a test relies on). ``wait_for`` in
# async tests (the app or the event loop runs meanwhile); ``until``, the same wait, where nothing
# is async (a thread, a process, a terminal, a browser).
POLL = 0.02
BOUND = 20.0


def _stuck(condition, what: str, seconds: float) -> AssertionError:
    name = what or getattr(condition, "__name__", repr(condition))
    return AssertionError(f"timed out after {seconds:g} s waiting for {name}")


async def wait_for(pilot, condition, seconds: float = BOUND, what: str = ""):
    """Let the app (``pilot``; None: the event loop, with no app) run until ``condition()`` holds;
    its value. Fails after ``seconds``, naming ``what`` (or the condition) and the screen."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not (value := condition()):
        if loop.time() > deadline:
            stuck = _stuck(condition, what, seconds)
            raise AssertionError(f"{stuck}; on {pilot.app.screen!r}" if pilot else str(stuck))
        await (pilot.pause(POLL) if pilot else asyncio.sleep(POLL))
    if pilot:
        await pilot.pause()
    return value


def ctrl_c_works() -> None:
    """For ``subprocess.Popen(preexec_fn=ctrl_c_works)``: ctrl+c (SIGINT) has its default action in
    the child even where the tests run in the background (a shell starts a background job with
    SIGINT ignored, the child inherits that, and Python then never raises KeyboardInterrupt)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def until(condition, what: str = "", seconds: float = BOUND):
    """``wait_for`` where nothing is async: ``condition()``'s value once it holds (this thread
    sleeps meanwhile); fails after ``seconds``, naming ``what`` (or the condition)."""
    deadline = time.monotonic() + seconds
    while not (value := condition()):
        if time.monotonic() > deadline:
            raise _stuck(condition, what, seconds)
        time.sleep(POLL)
    return value


async def loaded(pilot, app) -> None:
    """Wait until the open dialog or the history screen has shown what its thread worker read."""
    await wait_for(pilot, lambda: getattr(app.screen, "loaded", False))
    await pilot.pause()


def screen_strips(app) -> list:
    """The screen in front as the terminal shows it, one Strip a line (a dialog over the screen
    beneath it). The one place the tests read Textual's compositor (private): change it here if
    an upgrade renames it."""
    return app.screen._compositor.render_strips()


def screen_lines(app) -> list[str]:
    """What the terminal shows now, line by line (the dialog over the screen beneath it)."""
    return [strip.text for strip in screen_strips(app)]


def screen_text(app) -> str:
    return "\n".join(screen_lines(app))


def footer_line(app) -> str:
    """The terminal's last line as drawn: the footer of the view in front."""
    strips = screen_strips(app)
    return strips[-1].text if strips else ""


def footer_keys(app) -> dict[str, bool]:
    """The keys the footer of the view in front shows: each key's words, and whether it works now
    (False: shown dimmed, it does nothing now)."""
    from textual.widgets._footer import FooterKey  # Textual's footer key (private: read here only)

    return {str(key.description): not key.has_class("-disabled") for key in app.screen.query(FooterKey)}


async def footer_shows(pilot, app, words: str) -> str:
    """Wait until the footer shows ``words`` (it is drawn once the keys of the view in front
    settle); returns the footer line."""
    await wait_for(pilot, lambda: words in footer_line(app), seconds=10)
    return footer_line(app)


@dataclass(frozen=True)
class Cell:
    """One character of the screen as the terminal draws it: the colours are resolved (the
    terminal's default colours and ANSI colours to RGB, ``reverse`` swapped)."""

    x: int
    y: int
    char: str
    color: ColorTriplet
    bgcolor: ColorTriplet


def drawn_cells(app) -> list[list[Cell]]:
    """The screen in front, drawn, as rows of cells. A default colour is the theme's (or, for an
    ANSI theme, the terminal's) foreground or background."""
    terminal = app.ansi_theme
    defaults = []
    for name, fallback in (("foreground", terminal.foreground_color),
                           ("background", terminal.background_color)):
        value = app.theme_variables.get(name, "")
        defaults.append(fallback if value.startswith("ansi") else Color.parse(value).rich_color.triplet)
    default_fg, default_bg = defaults

    def rgb(color, default: ColorTriplet) -> ColorTriplet:
        if color is None or color.is_default:
            return default
        return color.get_truecolor(terminal)

    rows = []
    for y, strip in enumerate(screen_strips(app)):
        row, x = [], 0
        for text, style, control in strip:
            if control:
                continue
            fg = rgb(style.color if style else None, default_fg)
            bg = rgb(style.bgcolor if style else None, default_bg)
            if style and style.reverse:
                fg, bg = bg, fg
            for char in text:
                row.append(Cell(x, y, char, fg, bg))
                x += cell_len(char)
        rows.append(row)
    return rows


class RawClient:
    """A client that speaks raw frames and ignores the rules: JSON objects (or any frame) in and out."""

    def __init__(self, ws) -> None:
        self.ws = ws

    async def send(self, message: dict | str | bytes) -> None:
        await self.ws.send(message if isinstance(message, str | bytes) else json.dumps(message))

    async def recv(self, timeout: float = 5.0) -> dict:
        return json.loads(await asyncio.wait_for(self.ws.recv(), timeout))


@asynccontextmanager
async def raw_client(url: str):
    """A ``RawClient`` connected to ``url`` (a game's or a server's address)."""
    async with connect(url, max_size=None) as ws:
        yield RawClient(ws)


async def send_raw(game, message: dict) -> None:
    """``message`` as a frame on a connected ``RemoteGame``'s own socket, past its checks: the
    server sees a seated player that ignores the rules."""
    await game.ws.send(json.dumps(message))


# -- network games ------------------------------------------------------------------------------
SOS = str(Path(sys.executable).with_name("sos-tui"))

WAIT = 5.0


class FirstMove:
    """A computer that plays the first legal move at once (no process)."""

    async def choose(self, level, state, on_retry=None):
        return state.legal_moves()[0]


@asynccontextmanager
async def running(limits: Limits | None = None, **options):
    options.setdefault("computer", FirstMove())
    server = Server(limits, **options)
    await server.start("127.0.0.1", 0)
    try:
        yield server
    finally:
        await asyncio.wait_for(server.stop(), WAIT)


class Player:
    """A RemoteGame with its updates read in the background, to wait on."""

    def __init__(self, url: str, name: str | None, tokens: TokenStore | None = None) -> None:
        self.game = RemoteGame(url, name, tokens=tokens or TokenStore())
        self.seen: list = []  # the server's messages, typed
        self.changed = asyncio.Event()
        self.lost: NetError | None = None
        self._task: asyncio.Task | None = None

    async def __aenter__(self) -> Player:
        await self.game.connect()
        self._task = asyncio.ensure_future(self._read())
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()

    async def close(self) -> None:
        await self.game.close()
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _read(self) -> None:
        try:
            async for message in self.game.updates():
                self.seen.append(message)
                self.changed.set()
        except NetError as lost:
            self.lost = lost
            self.changed.set()

    async def until(self, predicate, timeout: float = WAIT):
        async def wait():
            while not predicate():
                self.changed.clear()
                await self.changed.wait()
        await asyncio.wait_for(wait(), timeout)

    async def error(self, code: str):
        await self.until(lambda: any(isinstance(m, ErrorMessage) and m.code == code for m in self.seen))

    async def version(self, version: int):
        await self.until(lambda: self.game.version >= version)



class Process:
    """A ``sos-tui`` command run with its own data and config folders in ``env_dir``, its output
    read line by line into ``lines``."""

    def __init__(self, *args: str, env_dir: Path) -> None:
        env = {"PATH": "/usr/bin:/bin", "SOS_TUI_DATA_DIR": str(env_dir / "data"),
               "SOS_TUI_CONFIG_DIR": str(env_dir / "config")}
        self.process = subprocess.Popen([SOS, *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        text=True, env=env)
        self.lines: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    def line(self, text: str, timeout: float = BOUND) -> str:
        """The first line printed that holds ``text``; fails (saying what was printed, and the exit
        status of a process that ended) once the process ends without it, or after ``timeout``."""
        def found():
            lines = [line for line in self.lines if text in line]
            if not lines and self.process.poll() is not None:
                self.process.wait()
                lines = [line for line in self.lines if text in line]  # all its output is read now
                if not lines:
                    raise AssertionError(f"exit {self.process.returncode} without {text!r}: {self.lines}")
            return lines
        try:
            return until(found, f"{text!r} printed", timeout)[0]
        except AssertionError as stuck:
            raise AssertionError(f"{stuck}; printed: {self.lines}") from None

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(5)



def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (from /proc), zombies left out."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                stat = (entry / "stat").read_text()
                fields = stat.rpartition(")")[2].split()
                if fields[0] != "Z" and int(fields[1]) == pid:
                    found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state != "Z"


async def fetch(port: int, request: str | bytes) -> tuple[int, dict[str, str], bytes]:
    """Send ``request`` (the raw HTTP bytes) and read the whole answer: (status, headers, body)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request.encode() if isinstance(request, str) else request)
    await writer.drain()
    raw = await asyncio.wait_for(reader.read(), WAIT)
    writer.close()
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(lines[0].split()[1]) if raw else 0, headers, body  # 0: closed without an answer


def get(path: str, method: str = "GET", extra: str = "") -> str:
    return f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{extra}\r\n"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def seated(url: str, name: str, tokens: TokenStore, token: str | None = None) -> Player:
    player = Player(url, name, tokens)
    if token is not None:
        player.game.token = token
    return await player.__aenter__()


async def play(player: Player, others: list[Player], move: str) -> int:
    """``move`` by ``player``, acknowledged: everyone saw its state. The new version."""
    version = player.game.version
    await player.game.play(Move.parse(move))
    for p in (player, *others):
        await p.version(version + 1)
    return version + 1




class Keyboard:
    """Standard input of the line mode run in this process: a pipe the test types lines into.
    ``close`` is the end of the input. (The read end stays open: the line mode's reading thread
    may still be in ``os.read`` on it, and a closed number could be reused under it.)"""

    def __init__(self, monkeypatch) -> None:
        self._read, self._write = os.pipe()
        monkeypatch.setattr(sys, "stdin", self)  # the line mode reads sys.stdin.fileno()

    def fileno(self) -> int:
        return self._read

    def type(self, *lines: str) -> None:
        os.write(self._write, "".join(line + "\n" for line in lines).encode())

    def close(self) -> None:
        if self._write >= 0:
            os.close(self._write)
            self._write = -1


class FakeTime:
    """A time source in milliseconds that the test moves on by hand (``wait``): a session's
    ``now`` with no sleeping."""

    def __init__(self) -> None:
        self.ms = 1_000

    def __call__(self) -> int:
        return self.ms

    def wait(self, ms: int) -> None:
        self.ms += ms


# -- the server's time, for clocks ----------------------------------------------------------------
class HandTime(ServerTime):
    """The server's time moved by the test (``passes``): its flag timers are set in real seconds
    for the time left, so a test's short games never flag by themselves."""

    def __init__(self, now: int = 1_000, wall: int = 1_800_000_000_000) -> None:
        self.mono, self.unix = now, wall

    def now(self) -> int:
        return self.mono

    def wall(self) -> int:
        return self.unix

    def passes(self, ms: int) -> None:
        self.mono += ms
        self.unix += ms


class FastTime(ServerTime):
    """The server's time running ``speed`` times faster than the real one (a day of a
    correspondence game in a blink); its flag timers wait the real time that is."""

    def __init__(self, speed: float, wall: int = 1_800_000_000_000) -> None:
        self.speed, self.start, self.unix = speed, time.monotonic_ns(), wall

    def now(self) -> int:
        return int((time.monotonic_ns() - self.start) * self.speed) // 1_000_000

    def wall(self) -> int:
        return self.unix + self.now()

    def delay(self, ms: int) -> float:
        return ms / self.speed / 1000
