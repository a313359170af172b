"""``sos-tui web``: the whole app in a browser, through Textualize's textual-serve.

Every browser tab that opens the page gets its own ``sos-tui`` process (the play command, setup
screen first), driven over the page's WebSocket (``/ws``) by xterm.js; the tab closing asks the
process to quit, which autosaves an unfinished game. The processes inherit this one's
environment, so they use the same data folder (``SOS_TUI_DATA_DIR`` when set) and settings.

textual-serve (aiohttp) is imported only when this command runs."""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import sys
from pathlib import Path

from sos_tui.i18n import _, ngettext

from .common import UsageError, fail, int_in
from .net import _warn_bind

DEFAULT_PORT = 8000
QUIT_TIMEOUT = 10.0
"""How long a stopping server waits for the tabs' apps to quit."""
DEFAULT_SESSIONS = 8
"""Tabs served at once by default: each is a process of its own (tens of megabytes)."""


def add_parser(commands) -> None:
    commands.add_parser(
        "web", help=_("play in a web browser: serve the app to browser tabs"),
        description=_("Serve the game to web browsers: each tab that opens the address plays its own "
                      "sos-tui, with this machine's saved games and history."),
        options=_options).set_defaults(run=run)


def _options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bind", default="127.0.0.1", metavar=_("ADDRESS"), help=_(
        "the address to listen on (default 127.0.0.1: this machine only; 0.0.0.0 for every network)"))
    parser.add_argument("--port", type=int_in(1, 65535), default=DEFAULT_PORT, metavar=_("PORT"),
                        help=_("the port to listen on (default {port})").format(port=DEFAULT_PORT))
    parser.add_argument("--public-url", metavar="URL", help=_(
        "the address browsers use, behind a reverse proxy (e.g. https://sos.example.org); default: "
        "the address each browser asked for"))
    parser.add_argument("--max-sessions", type=int_in(1), default=DEFAULT_SESSIONS, metavar="N",
                        help=_("the most tabs playing at once, each a process (default {count})").format(
                            count=DEFAULT_SESSIONS))
    parser.add_argument("--separate-data", action="store_true", help=_(
        "give each tab a data folder of its own (for a public server), removed when the tab closes "
        "unless it holds an unfinished game; typed paths are then confined to it, and games are "
        "hosted for the other tabs only"))
    parser.add_argument("--no-mouse", action="store_true",
                        help=_("the tabs play by keyboard only, and the mouse selects text"))


def app_command(separate: Path | None = None, lang: str | None = None, mouse: bool = True) -> str:
    """The shell command textual-serve runs for each tab: this Python running ``web_tab`` (the
    play command, drawn by our web driver), with ``separate`` in a data folder of the tab's own
    under it; ``lang`` when ``--lang`` was given here (else the tab chooses as ``sos-tui`` does:
    the game's setting, else the environment). ``exec`` so the shell does not stay on as the app's
    parent."""
    words = [sys.executable, "-m", "sos_tui.cli.web_tab"]
    if separate is not None:
        words += ["--separate", str(separate)]
    if lang is not None:
        words += ["--lang", lang]
    if not mouse:
        words.append("--no-mouse")
    return "exec " + " ".join(shlex.quote(word) for word in words)


MALFORMED_MOUSE = re.compile(r"\x1b\[<(?!-?\d+;-?\d+;-?\d+[mM])[^mM\x1b]{0,32}[mM]")
"""A mouse report (SGR) whose numbers are not numbers: xterm.js sends ``ESC[<32;NaN;NaNM`` while a
tab changes focus, which Textual would type into the game as keys (its issue #6573)."""


def tab_input(data: str) -> str:
    """What a tab typed, without malformed mouse reports."""
    return MALFORMED_MOUSE.sub("", data)


def terminal_size(value: object) -> tuple[int, int] | None:
    """A tab's ``["resize", {"width": W, "height": H}]`` as (W, H), or None if it is not one."""
    if isinstance(value, dict):
        width, height = value.get("width"), value.get("height")
        if all(type(n) is int and 1 <= n <= 1000 for n in (width, height)):
            return width, height
    return None


def check_public_url(url: str) -> str:
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise UsageError(_("--public-url: expected http://HOST[:PORT] or https://HOST[:PORT], "
                           "not {url!r}").format(url=url))
    return url.rstrip("/")


def full_page(limit: int) -> str:
    """The page of a tab over the limit."""
    from html import escape

    title = escape(_("SOS: no free table"))
    text = escape(ngettext(
        "This server runs at most {count} game at once, and that many are being played. "
        "Close another tab or try again later.",
        "This server runs at most {count} games at once, and that many are being played. "
        "Close another tab or try again later.", limit).format(count=limit))
    return (f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>{title}</title></head>'
            f"<body><h1>{title}</h1><p>{text}</p></body></html>\n")


def free_port(bind: str, port: int) -> None:
    """Raise OSError if ``bind``:``port`` cannot be listened on, before anything is printed."""
    import socket

    for family, kind, proto, _name, address in socket.getaddrinfo(bind, port, type=socket.SOCK_STREAM):
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as aiohttp does
            probe.bind(address)


def live_children() -> bool:
    """Whether this process has a child still running (Linux's /proc; elsewhere: assumed)."""
    proc = Path("/proc")
    if not (proc / "self" / "stat").exists():
        return True
    me = str(os.getpid())
    for entry in proc.iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rpartition(")")[2].split()
            except OSError:
                continue
            if fields[1] == me and fields[0] != "Z":
                return True
    return False


def make_server(command: str, bind: str, port: int, public_url: str | None, max_sessions: int):
    """A textual-serve ``Server`` that runs at most ``max_sessions`` app processes; without
    ``public_url`` the page points its WebSocket at the host the browser asked for (textual-serve
    would use the bind address, which a browser elsewhere cannot reach: its issue #42)."""
    import asyncio

    from aiohttp import web
    from textual_serve.server import Server

    class SosServer(Server):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            self.tabs: dict[asyncio.Task, web.Request] = {}

        @property
        def sessions(self) -> int:
            return len(self.tabs)

        def initialize_logging(self) -> None:  # its rich log would go to our stdout: warnings only
            import logging

            logging.basicConfig(level="WARNING", format="sos-tui web: %(message)s")

        async def on_startup(self, app) -> None:  # instead of its banner
            print(_("Serving SOS on {url} (ctrl+c to stop)").format(url=public_url or self.public_url),
                  flush=True)

        def _full(self) -> web.Response:
            return web.Response(status=503, text=full_page(max_sessions), content_type="text/html")

        async def handle_index(self, request: web.Request):
            if self.sessions >= max_sessions:
                return self._full()
            if public_url is None:  # the page is built without an await: no other request sees this
                self.public_url = f"{request.scheme}://{request.host}"
            return await super().handle_index(request)

        async def handle_websocket(self, request: web.Request):
            if self.sessions >= max_sessions:
                return self._full()
            task = asyncio.current_task()
            self.tabs[task] = request
            try:
                return await super().handle_websocket(request)
            finally:
                del self.tabs[task]

        async def _process_messages(self, websocket: web.WebSocketResponse, app_service) -> None:
            """A tab's messages to its app, as textual-serve passes them on, but nothing taken on
            trust: a message that is not one of the page's is dropped (textual-serve would end the
            tab on it), and so are malformed mouse reports (``tab_input``)."""
            async for message in websocket:
                try:
                    envelope = json.loads(message.data) if message.type == web.WSMsgType.TEXT else None
                except ValueError:
                    continue
                if not (isinstance(envelope, list) and envelope and isinstance(envelope[0], str)):
                    continue
                kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
                if kind == "stdin" and isinstance(data, str):
                    if typed := tab_input(data):
                        await app_service.send_bytes(typed.encode("utf-8", "replace"))
                elif kind == "resize" and (size := terminal_size(data)):
                    await app_service.set_terminal_size(*size)
                elif kind == "ping" and isinstance(data, str):
                    await websocket.send_json(["pong", data[:64]])
                elif kind == "blur":
                    await app_service.blur()
                elif kind == "focus":
                    await app_service.focus()

        async def on_shutdown(self, app) -> None:
            """Stopping (ctrl+c): every tab's handler is cancelled, which asks its app to quit
            (an unfinished game is autosaved); once the apps are gone the browsers' connections are
            dropped, as aiohttp would otherwise wait for each browser to answer the close (10 s)."""
            for task in self.tabs:
                task.cancel()
            deadline = asyncio.get_running_loop().time() + QUIT_TIMEOUT
            while self.tabs and asyncio.get_running_loop().time() < deadline:
                if not live_children():
                    for request in self.tabs.values():
                        if request.transport is not None:
                            request.transport.abort()
                await asyncio.wait(self.tabs, timeout=0.05)

    return SosServer(command, host=bind, port=port, title="SOS", public_url=public_url)


def run(args: argparse.Namespace) -> int:
    public_url = None if args.public_url is None else check_public_url(args.public_url)
    try:
        import textual_serve.server  # noqa: F401
    except ImportError as error:
        return fail("web", _("needs the textual-serve package: {error}").format(error=error))
    _warn_bind("web", args.bind)
    os.environ.pop("TEXTUAL_DRIVER", None)  # the tabs' apps get the web driver from textual-serve
    try:
        free_port(args.bind, args.port)
    except OSError as error:
        return fail("web", _("cannot listen on {address}:{port}: {reason}").format(
            address=args.bind, port=args.port, reason=error.strerror or error))
    separate = None
    if args.separate_data:
        from sos_tui.i18n import explain
        from sos_tui.storage import StorageError
        from sos_tui.storage.paths import data_dir

        try:
            separate = data_dir() / "web-tabs"
        except StorageError as error:
            return fail("web", explain(error))
    command = app_command(separate, getattr(args, "lang", None), mouse=not args.no_mouse)
    server = make_server(command, args.bind, args.port, public_url, args.max_sessions)
    try:
        server.serve()
    except OSError as error:
        return fail("web", _("cannot listen on {address}:{port}: {reason}").format(
            address=args.bind, port=args.port, reason=error.strerror or error))
    return 0
