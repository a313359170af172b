"""``sos-tui web``: the real command on a free loopback port, spoken to as a browser tab does
(textual-serve's ``/ws``: JSON frames ``["stdin", keys]`` and ``["resize", {...}]`` in, the
terminal's bytes out); what a player would notice is checked: the page, the game in the data
folder, the page of a full server, no process left behind by a closed tab."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from sos_tui.cli import main

from .support import webpage
from .support.helpers import alive, children, free_port
from .support.webpage import (
    ESCAPE,
    SETUP,
    SOS,
    TIMEOUT,
    Terminal,
    Web,
    autosaved_moves,
    board_cell,
    cells_of,
    empty_cells,
    rows_of,
    until,
    where,
)

# Each test that starts `sos-tui web` runs textual-serve and a tab process: 3-7 s of a loaded
# machine each. The default run keeps the core (a tab plays a game and it reaches the data folder,
# the origin check, a save); the others are marked SERVED and run with --runslow.
SERVED = pytest.mark.slow(reason="starts textual-serve and tab processes; a core of three runs by default")


@pytest.fixture
def web(request):
    servers = []

    def start(*args: str, **options) -> Web:
        servers.append(Web(*args, **options))
        return servers[-1]

    yield start
    for server in servers:
        server.stop()


class Tab:
    """A browser tab's WebSocket: keys in, the screen's text (escape sequences removed) out."""

    def __init__(self, socket) -> None:
        self.socket = socket
        self.text = ""
        self.stream = ""  # everything received, escapes and all
        self.terminal = Terminal()  # the screen it draws

    async def send(self, keys: str) -> None:
        await self.socket.send(json.dumps(["stdin", keys]))

    async def wait_for(self, text: str) -> None:
        """Read the screen until ``text`` is drawn (bounded)."""
        await self.until(lambda: text in self.text, repr(text))

    async def until(self, check, what: str):
        """Read the screen until ``check()`` holds (bounded); its value."""
        try:
            async with asyncio.timeout(TIMEOUT):
                while not (value := check()):
                    data = await self.socket.recv()
                    data = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
                    self.stream += data
                    self.terminal.feed(data)
                    self.text += ESCAPE.sub("", data)
        except TimeoutError:
            screen = "\n".join(rows_of(self.cells).values())
            raise AssertionError(f"timed out waiting for {what}; the screen:\n{screen}") from None
        return value

    def shows(self, *texts: str) -> bool:
        """Whether a row of the screen shows all of ``texts``."""
        return any(all(text in line for text in texts) for line in rows_of(self.cells).values())

    @property
    def cells(self) -> dict[tuple[int, int], str]:
        """The screen's characters by (row, column), both from 1."""
        return self.terminal.cells

    async def click(self, row: int, column: int) -> None:
        """A left click at the cell (row, column), as xterm.js reports it (SGR: press, release)."""
        await self.send(f"\x1b[<0;{column};{row}M\x1b[<0;{column};{row}m")

    async def click_text(self, text: str, on_row_with: str = "") -> None:
        await self.until(lambda: self.shows(text, on_row_with), repr(text))
        await self.click(*where(self.cells, text, on_row_with))

    async def screen(self, text: str) -> None:
        self.text = ""
        await self.wait_for(text)


@contextlib.asynccontextmanager
async def tab(server: Web):
    async with connect(f"{server.socket}?width=100&height=30", origin=server.url,
                       open_timeout=TIMEOUT, close_timeout=5) as socket:
        await socket.send(json.dumps(["resize", {"width": 100, "height": 30}]))
        opened = Tab(socket)
        await opened.wait_for(SETUP)
        yield opened



async def start_and_play(opened: Tab) -> None:
    """Enter on the setup screen starts a 6x6 game for two; ``s`` writes S on a1."""
    opened.text = ""
    await opened.send("\r")
    await opened.wait_for("Player 1 to move")  # the game screen
    await opened.send("s")


SLOW_BIND = """
import asyncio, sys
from aiohttp import web

bind = web.TCPSite.start


async def slow_bind(self):  # a busy machine: the port is bound a while after the app started up
    await asyncio.sleep(0.5)
    await bind(self)


web.TCPSite.start = slow_bind
from sos_tui.cli import main

sys.exit(main(sys.argv[1:]))
"""


@SERVED
def test_the_serving_line_comes_once_the_port_is_bound(web):
    """A script that waits for the "Serving" line and connects at once is never refused, even
    when binding the port is slow."""
    server = web(program=(sys.executable, "-c", SLOW_BIND))  # checks it listens once it says so
    assert server.get()[0] == 200
    assert server.stop() == 0


async def test_a_tab_gets_the_page_plays_and_its_game_reaches_the_data_folder(web, data):
    server = web()
    status, page = await asyncio.to_thread(server.get)
    assert status == 200
    assert "<div>SOS — sos-tui</div>" in page  # the page's heading: the game's name, not the command line
    assert f'data-session-websocket-url="ws://127.0.0.1:{server.port}/ws"' in page
    async with tab(server) as opened:
        await start_and_play(opened)
        await asyncio.to_thread(until, lambda: autosaved_moves(data) == ["S a1"], "the autosave of S a1")
    await asyncio.to_thread(until, lambda: not children(server.process.pid), "the tab's process to end")
    assert autosaved_moves(data) == ["S a1"]
    assert server.stop() == 0


@SERVED
async def test_the_tab_over_the_limit_gets_a_page_that_says_so(web):
    server = web("--max-sessions", "1")
    async with tab(server):
        status, page = await asyncio.to_thread(server.get)
        assert status == 503 and "runs at most 1 game at once" in page
        with pytest.raises(InvalidStatus) as refused:
            async with connect(server.socket, origin=server.url, open_timeout=TIMEOUT):
                pass
        assert refused.value.response.status_code == 503
        assert b"Close another tab or try again later" in refused.value.response.body
    # the tab closed: its seat is free again
    until(lambda: server.get()[0] == 200, "the free seat")
    async with tab(server) as opened:
        assert SETUP in opened.text


@SERVED
async def test_a_tab_closed_mid_game_leaves_no_process_and_keeps_the_game(web, data):
    server = web()
    async with tab(server) as opened:
        await start_and_play(opened)
        await asyncio.to_thread(until, lambda: autosaved_moves(data) == ["S a1"], "the autosave of S a1")
        (app,) = children(server.process.pid)
        opened.socket.transport.abort()  # the tab is gone: no closing handshake
    await asyncio.to_thread(until, lambda: not alive(app), "the tab's process to end")
    assert autosaved_moves(data) == ["S a1"]
    assert server.process.poll() is None  # the server keeps serving
    assert (await asyncio.to_thread(server.get))[0] == 200


@SERVED
async def test_separate_data_gives_each_tab_a_folder_kept_only_for_an_unfinished_game(web, data):
    server = web("--separate-data")
    async with tab(server) as opened:
        await start_and_play(opened)
        tabs = data / "web-tabs"
        await asyncio.to_thread(until, lambda: [m for f in tabs.iterdir() for m in autosaved_moves(f)],
                                "the tab's autosave")
    async with tab(server):  # a tab that plays nothing
        await asyncio.to_thread(until, lambda: len(list(tabs.iterdir())) == 2, "the second tab's folder")
    await asyncio.to_thread(until, lambda: not children(server.process.pid), "the tabs' processes to end")
    (kept,) = tabs.iterdir()
    assert autosaved_moves(kept) == ["S a1"]
    assert autosaved_moves(data) == []  # the server's own games are not the tabs'


@SERVED
async def test_separate_data_tabs_do_not_see_each_others_names_or_choices(web, data):
    """A public server: what one visitor typed (a name, the last setup) is not the next one's."""
    server = web("--separate-data")
    async with tab(server) as opened:
        await opened.click_text("Player 1", on_row_with="Seat 1")
        await opened.send("Zed")  # in the empty field, over its placeholder
        await opened.until(lambda: opened.shows("Seat 1", "Zed"), "the name typed")
        await opened.send("\x13")  # ctrl+s: start (the setup is remembered)
        await opened.until(lambda: opened.shows("Zed", "0"), "the game with Zed")
    async with tab(server) as opened:  # the form is drawn whole a frame or two after its first
        await opened.until(lambda: opened.shows("Seat 1", "Player 1"), "the first seat's default name")
        assert not opened.shows("Zed")


@SERVED
async def test_stopping_the_server_ends_every_tab_process_and_keeps_their_games(web, data):
    server = web()
    async with tab(server) as opened:
        await start_and_play(opened)
        await asyncio.to_thread(until, lambda: autosaved_moves(data) == ["S a1"], "the autosave of S a1")
        (app,) = children(server.process.pid)
        started = time.monotonic()
        assert await asyncio.to_thread(server.stop) == 0
        assert time.monotonic() - started < 5  # ctrl+c does not wait for the browsers
    assert not alive(app)
    assert autosaved_moves(data) == ["S a1"]


@SERVED
async def test_a_game_against_the_computer_is_played_to_its_end_with_mouse_reports(web, data):
    """Through ``/ws`` as xterm.js speaks it: SGR mouse reports choose a 3x3 board and the easy
    computer on the setup screen and play the first empty cell each turn; the game ends and is in
    ``sos-tui history``."""
    server = web()
    async with tab(server) as opened:
        await opened.click_text("6 x 6")
        await opened.click_text("3 x 3", on_row_with="3 x 3")
        await opened.until(lambda: opened.shows("Board size", "3 x 3"), "3x3 chosen")
        await opened.click_text("Human", on_row_with="Seat 2")
        await opened.click_text("Computer · easy")
        await opened.until(lambda: opened.shows("Seat 2", "Computer · easy"), "the computer chosen")
        await opened.click_text("Start", on_row_with="Open…")
        await opened.wait_for("Player 1 to move")
        for _turn in range(9):
            cells = dict(opened.cells)
            empty = empty_cells(cells, 3)
            if not empty:  # the board filled by the last move, its end not drawn yet (a busy machine)
                await opened.until(lambda: opened.shows("Game over"), "the end of a full board")
                break
            await opened.click(*board_cell(cells, empty[0]))

            def answered(before=len(empty)) -> bool:  # noqa: B008
                now = len(empty_cells(opened.cells, 3))
                # an SOS plays again: after one, maybe no answer yet
                return opened.shows("Game over") or (opened.shows("Player 1 to move") and now < before)

            await opened.until(answered, "the computer's answer or the end")
            if opened.shows("Game over"):
                break
        else:
            raise AssertionError("no end after nine moves on 3x3")
    history = subprocess.run([SOS, "history", "--json"], capture_output=True, text=True, timeout=TIMEOUT)
    assert history.returncode == 0 and len(json.loads(history.stdout)["games"]) == 1


@pytest.mark.parametrize(("argv", "message"), [
    (["web", "--port", "0"], "--port"),
    (["web", "--port", "http"], "--port"),
    (["web", "--max-sessions", "0"], "--max-sessions"),
    (["web", "--public-url", "sos.example.org"], "--public-url: expected http://HOST"),
    (["web", "--public-url", "ftp://sos.example.org"], "--public-url: expected http://HOST"),
    (["web", "--allow-server", "http://sos.example.org"], "--allow-server: a game address starts with ws://"),
])
def test_bad_arguments_are_one_line_and_exit_2(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("sos-tui web: ") and message in err and err.count("\n") == 1


def test_web_without_its_extra_says_which_extra_to_install(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "textual_serve", None)  # as if not installed
    monkeypatch.setitem(sys.modules, "textual_serve.server", None)
    assert main(["web"]) == 2
    err = capsys.readouterr().err
    assert "pip install 'sos-tui[web]'" in err and err.count("\n") == 1 and "Traceback" not in err


def test_a_port_taken_is_one_line_and_exit_2():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run([SOS, "web", "--port", str(port)], capture_output=True, text=True,
                                timeout=TIMEOUT)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == f"sos-tui web: cannot listen on 127.0.0.1:{port}: Address already in use\n"


def test_another_address_is_warned_about(capsys, monkeypatch):
    from sos_tui.cli import web
    from sos_tui.net.reach import SERVERS_VAR

    monkeypatch.setenv(SERVERS_VAR, "")  # what the command sets for its tabs is put back after the test

    monkeypatch.setattr(web, "make_server", lambda *args: type("S", (), {"serve": lambda self: None})())
    assert main(["web", "--bind", "0.0.0.0", "--port", str(free_port())]) == 0
    assert capsys.readouterr().err.startswith("sos-tui web: warning: listening on 0.0.0.0")


@pytest.mark.parametrize(("argv", "servers", "settings"), [
    ([], "", "web-settings"),
    (["--allow-server", "ws://Sos.Example.org:7531/7f3kq-x9m2c", "--allow-server", "wss://b.example"],
     "ws://sos.example.org:7531 wss://b.example:443", "web-settings"),
    (["--allow-server", "any", "--shared-settings"], None, "config"),
])
def test_the_tabs_are_told_where_they_may_connect_and_where_their_settings_are(
        argv, servers, settings, monkeypatch, data, config_dir):
    """The tabs inherit this process's environment: ``SERVERS_VAR`` (this computer, and the servers
    allowed; unset for any) and the settings folder (the data folder's ``web-settings``, or this
    account's with ``--shared-settings``)."""
    from sos_tui.cli import web
    from sos_tui.net.reach import SERVERS_VAR
    from sos_tui.storage.settings import CONFIG_ENV_VAR

    monkeypatch.setenv(SERVERS_VAR, "set before")  # put back after the test, as CONFIG_ENV_VAR is
    monkeypatch.setattr(web, "make_server", lambda *args: type("S", (), {"serve": lambda self: None})())
    assert main(["web", "--port", str(free_port()), *argv]) == 0
    assert os.environ.get(SERVERS_VAR) == servers
    assert os.environ[CONFIG_ENV_VAR] == str(data / settings if settings == "web-settings" else config_dir)


def test_a_server_the_tests_start_is_stopped_even_when_it_does_not_start_in_time(monkeypatch):
    started = []
    popen = subprocess.Popen
    monkeypatch.setattr(subprocess, "Popen", lambda *a, **k: started.append(popen(*a, **k)) or started[-1])
    monkeypatch.setattr(webpage, "until", lambda check, what: (_ for _ in ()).throw(
        AssertionError(f"timed out waiting for {what}")))
    with pytest.raises(AssertionError, match="the server to start"):
        Web()
    assert started[0].poll() is not None


def test_each_tab_runs_this_python_on_the_package_with_the_options_given_here():
    from sos_tui.cli.web import app_command

    tab = f"exec {sys.executable} -m sos_tui.cli.web_tab"
    assert app_command() == tab
    assert app_command(Path("/srv/sos tabs")) == f"{tab} --separate '/srv/sos tabs'"
    assert app_command(None, "ms", mouse=False) == f"{tab} --lang ms --no-mouse"


def test_a_screen_read_piece_by_piece_is_the_screen_read_at_once():
    """The tests' terminal (tests/support/webpage.py) reads a tab's output as it arrives: an escape
    sequence split between two pieces is read whole."""
    stream = ("\x1b[?1049h\x1b]11;#121212\x07\x1b[1;1H\x1b[38;2;1;2;3mSOS\x1b[0m\x1b[2;4Hb2 \u00b7"
              "\x1b]0;a title\x1b\\\x1b[3;1Hend\x1b[?2026l")
    whole = cells_of(stream)
    assert "".join(whole[1, c] for c in (1, 2, 3)) == "SOS" and whole[2, 7] == "·" and whole[3, 3] == "d"
    for cut in range(len(stream) + 1):
        assert Terminal().feed(stream[:cut]).feed(stream[cut:]).cells == whole, cut
    one_by_one = Terminal()
    for character in stream:
        one_by_one.feed(character)
    assert one_by_one.cells == whole


def test_malformed_mouse_reports_are_taken_out_of_what_a_tab_types():
    from sos_tui.cli.web_server import tab_input

    assert tab_input("s\x1b[<32;NaN;NaNMo") == "so"
    assert tab_input("\x1b[<35;NaN;12m\x1b[<0;3;4M") == "\x1b[<0;3;4M"  # a good report stays
    assert tab_input("\x1b[A\r") == "\x1b[A\r"


def test_the_server_overrides_no_private_method_of_textual_serve():
    from textual_serve.server import Server

    from sos_tui.cli.web_server import SosServer

    ours = {name for name in vars(SosServer) if name.startswith("_") and not name.startswith("__")}
    assert not ours & set(dir(Server))


async def test_a_tabs_app_that_ends_is_seen_where_textual_serve_keeps_it():
    """``app_ended`` reads where textual-serve 1.x keeps a tab's process and output reader (private
    ``_process`` and ``_task``): this fails if a textual-serve release moves them."""
    from textual_serve.app_service import AppService
    from textual_serve.download_manager import DownloadManager

    from sos_tui.cli.web_server import app_ended

    async def nowhere(*args) -> None:
        pass

    service = AppService("exec true", write_bytes=nowhere, write_str=nowhere, close=nowhere,
                         download_manager=DownloadManager())
    await service.start(80, 24)
    assert isinstance(service._process, asyncio.subprocess.Process)
    assert isinstance(service._task, asyncio.Task)
    async with asyncio.timeout(TIMEOUT):
        await app_ended(service)
    assert service._process.returncode == 0 and service._task.done()


@SERVED
async def test_a_malformed_mouse_report_types_nothing_into_the_game(web):
    """xterm.js's ``ESC[<32;NaN;NaNM`` (a tab changing focus) would reach a name field as keys."""
    server = web()
    async with tab(server) as opened:
        await opened.click_text("Player 1", on_row_with="Seat 1")
        await opened.send("\x1b[<32;NaN;NaNM" + "\x1b[<0;NaN;NaNm" + "Zed")
        await opened.until(lambda: opened.shows("Zed"), "the name typed")
        assert not opened.shows("NaN") and not opened.shows("[<")


@SERVED
async def test_no_mouse_turns_the_browsers_mouse_reporting_off_and_clicks_play_nothing(web, data):
    server = web("--no-mouse")
    async with tab(server) as opened:
        assert "\x1b[?1000l" in opened.stream.rpartition("\x1b[?1000h")[2]  # off, after Textual's on
        await start_and_play(opened)  # the keyboard plays
        await asyncio.to_thread(until, lambda: autosaved_moves(data) == ["S a1"], "the autosave of S a1")
        await opened.click(*board_cell(opened.cells, "b2"))
        await opened.send("o")  # O where the cursor is (a1 taken: refused), not on the clicked b2
        await opened.wait_for("Move refused")
    await asyncio.to_thread(until, lambda: not children(server.process.pid), "the tab's process to end")
    assert autosaved_moves(data) == ["S a1"]


@SERVED
async def test_lang_is_passed_on_to_the_tabs(web):
    server = web("--lang", "ms")
    url = f"{server.socket}?width=100&height=30"
    async with connect(url, origin=server.url, open_timeout=TIMEOUT) as socket:
        opened = Tab(socket)
        await opened.wait_for("Hos melalui rangkaian")


@SERVED
async def test_a_message_no_page_sends_is_dropped_and_the_tab_plays_on(web, data):
    server = web()
    async with tab(server) as opened:
        for junk in ("not json", "{}", "[]", "[1, 2]", '["stdin", 5]', '["resize", {"width": -1}]',
                     '["resize", "big"]', '["nonsense"]'):
            await opened.socket.send(junk)
        await start_and_play(opened)
        await asyncio.to_thread(until, lambda: autosaved_moves(data) == ["S a1"], "the autosave of S a1")


# -- a tab is its page's own (issue 41): no other web page drives it ---------------------------
async def test_a_socket_from_another_origin_is_refused_before_any_app_starts(web):
    """A page of another site (or of another port of this machine) opening ``/ws`` would play, save
    and connect as the user: refused with 403, no process started; the page's own origin plays."""
    server = web()
    for origin in ("http://evil.example", f"http://127.0.0.1:{server.port + 1}",
                   f"https://127.0.0.1:{server.port}", "null", None):
        with pytest.raises(InvalidStatus) as refused:
            async with connect(server.socket, origin=origin, open_timeout=TIMEOUT):
                pass
        assert refused.value.response.status_code == 403, origin
        assert b"not from this server's own page" in refused.value.response.body
        assert not children(server.process.pid), origin
    here = f"http://localhost:{server.port}"  # this machine's own name for the address listened on
    async with connect(server.socket, origin=here, open_timeout=TIMEOUT) as socket:
        await Tab(socket).wait_for(SETUP)


@SERVED
async def test_behind_a_proxy_the_public_urls_page_plays(web):
    """``--public-url``: the page's socket is the public one (wss:// for https://), and a socket
    from a page there plays; from the same host over http it is another origin."""
    server = web("--public-url", "https://sos.example.org")
    status, page = await asyncio.to_thread(server.get)
    assert status == 200 and 'data-session-websocket-url="wss://sos.example.org/ws"' in page
    with pytest.raises(InvalidStatus) as refused:
        async with connect(server.socket, origin="http://sos.example.org", open_timeout=TIMEOUT):
            pass
    assert refused.value.response.status_code == 403
    async with connect(server.socket, origin="https://sos.example.org", open_timeout=TIMEOUT) as socket:
        await Tab(socket).wait_for(SETUP)


@SERVED
async def test_the_page_points_its_socket_at_its_own_address_whatever_the_host_header_says(web):
    """A page reached through another name (DNS rebinding: evil.example resolving to 127.0.0.1)
    still opens the socket of the address the server listens on, and has a title."""
    server = web()
    status, page = await asyncio.to_thread(server.get, "/", {"Host": f"evil.example:{server.port}"})
    assert status == 200
    assert f'data-session-websocket-url="ws://127.0.0.1:{server.port}/ws"' in page
    assert "evil.example" not in page
    assert "<title>SOS — sos-tui</title>" in page


async def type_into(opened: Tab, shown_first: str, text: str, placeholder: str | None = None) -> None:
    """Type ``text`` into the focused field once ``shown_first`` shows; with ``placeholder``, the
    field is emptied first (ctrl+u) until its placeholder shows. (Keys sent while the focus moves,
    or while a key bound on the field bubbles up, would land out of order.)"""
    await opened.until(lambda: opened.shows(shown_first), repr(shown_first))
    if placeholder is not None:
        await opened.send("\x15")
        await opened.until(lambda: opened.shows(placeholder), repr(placeholder))
    await opened.send(text)
    await opened.until(lambda: opened.shows(text[-30:]), repr(text))


async def save_as(opened: Tab, name: str) -> None:
    """ctrl+s on the game screen, the offered name replaced by ``name``, enter."""
    await opened.send("\x13")  # ctrl+s
    await type_into(opened, "/data/saves/", name, "file name or path")  # the name offered: replaced
    await opened.send("\r")


async def test_a_tab_saves_only_in_the_saves_folder_and_its_dialog_says_where(web, data, tmp_path):
    server = web()
    outside = tmp_path / "outside.json"  # a folder that exists: the file would be written
    async with tab(server) as opened:
        await start_and_play(opened)
        await opened.until(lambda: opened.shows("Player 2 to move"), "the move")
        await save_as(opened, str(outside))
        await opened.until(lambda: opened.shows("give a name, not a path"), "the refusal")
        assert opened.shows("Saved on the computer running sos-tui web, in its saves folder only")
        await type_into(opened, "", "mine", "file name or path")
        await opened.send("\r")
        await asyncio.to_thread(until, lambda: (data / "saves" / "mine.json").exists(), "the save")
    assert not outside.exists()


async def join(opened: Tab, url: str) -> None:
    """The setup screen's Join: the address typed, the name Bo, enter."""
    await opened.click_text("Join a game…")
    await type_into(opened, "the address the host gave you", url)
    row, column = where(opened.cells, "Your name")
    await opened.click(row + 1, column)  # the name's field, under its label: a click moves the focus at once
    await opened.send("Bo")
    await opened.until(lambda: rows_of(opened.cells).get(row + 1, "").strip(" █") == "Bo",
                       "the name")
    await opened.send("\r")


@SERVED
async def test_a_tab_joins_games_on_this_computer_only_unless_its_server_allows_more(web):
    """By default a tab connects to no other machine (it would scan the user's network for any
    page): the person who starts ``sos-tui web`` names the servers it may join elsewhere."""
    url = "ws://sos-tui.invalid:7531/7f3kq-x9m2c"  # a name that never resolves (RFC 2606)
    server = web()
    async with tab(server) as opened:
        await join(opened, url)
        await opened.wait_for("games on this computer only")
        assert "no computer has that name" not in opened.text  # refused before trying
    server = web("--allow-server", "ws://sos-tui.invalid:7531")
    async with tab(server) as opened:
        await join(opened, url)
        await opened.wait_for("no computer has that name")  # tried
        assert "games on this computer only" not in opened.text


@SERVED
async def test_a_tab_whose_process_dies_is_closed_with_a_reason_and_frees_its_seat(web):
    """A tab's app killed (kill -9, out of memory): its browser's socket is closed with code 1011
    (the page says so) at once, and the tab no longer counts against --max-sessions."""
    server = web("--max-sessions", "1")
    async with tab(server) as opened:
        (app,) = children(server.process.pid)
        os.kill(app, signal.SIGKILL)
        with pytest.raises(ConnectionClosed) as closed:
            async with asyncio.timeout(TIMEOUT):
                while True:
                    await opened.socket.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1011
        assert closed.value.rcvd.reason == "the game's process ended"
        assert (await asyncio.to_thread(server.get))[0] == 200  # its seat is free


@SERVED
async def test_a_theme_chosen_in_a_tab_is_kept_apart_from_the_terminals_settings(web, data, config_dir):
    """The tabs' settings (theme, last setup, language) live in the data folder's ``web-settings``:
    choosing a theme in a tab leaves the terminal's config alone. The page's terminal gets the
    theme's background (OSC 11), to paint what whole rows leave over in the window."""
    server = web()
    async with tab(server) as opened:
        assert "\x1b]11;#121212\x07" in opened.stream  # textual-dark's
        await opened.send("\x10")  # ctrl+p: the command palette
        await opened.wait_for("Search for commands")
        await opened.send("theme")
        await opened.wait_for("Change the current theme")
        await opened.send("\r")
        await opened.wait_for("Search for themes")
        await opened.send("nord")
        await opened.until(lambda: opened.shows("nord") and not opened.shows("dracula"), "nord alone")
        await opened.send("\r")
        tab_settings = data / "web-settings" / "settings.json"
        await asyncio.to_thread(until, lambda: tab_settings.exists() and '"nord"' in tab_settings.read_text(),
                                "the tab's theme kept")
        await opened.until(lambda: "\x1b]11;#2E3440\x07" in opened.stream, "nord's background")
    assert not (config_dir / "settings.json").exists()


def test_a_web_tab_connects_to_this_computer_and_to_the_servers_allowed_only(monkeypatch):
    """``sos-tui web`` sets ``SERVERS_VAR`` for its tabs; anything else connects anywhere."""
    from sos_tui.net import parse_url
    from sos_tui.net.reach import SERVERS_VAR, may_connect
    from sos_tui.net.run import reachable_host

    def may(url: str) -> bool:
        return may_connect(parse_url(url, need_code=False))

    assert may("ws://sos.example.org:7531")  # a terminal: anywhere
    monkeypatch.setenv(SERVERS_VAR, "ws://sos.example.org:7531")
    here = reachable_host("0.0.0.0")  # this machine's address on its network (loopback without one)
    for url in ("ws://127.0.0.1:7531", "ws://LOCALHOST:9", "ws://[::1]:7531", "ws://127.0.0.2:1",
                f"ws://{here}:7531/7f3kq-x9m2c", "ws://sos.example.org:7531/7f3kq-x9m2c"):
        assert may(url), url
    for url in ("ws://sos.example.org:7532", "wss://sos.example.org:7531", "ws://198.51.100.7:7531",
                "ws://evil.example:7531", "ws://localhost.evil.example:7531"):
        assert not may(url), url
    monkeypatch.setenv(SERVERS_VAR, "")  # sos-tui web without --allow-server
    assert may("ws://127.0.0.1:7531") and not may("ws://sos.example.org:7531")
