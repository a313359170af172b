"""``sos-tui web``: the whole app in a browser, through Textualize's textual-serve.

Every browser tab that opens the page gets its own ``sos-tui`` process (the play command, setup
screen first), driven over the page's WebSocket (``/ws``) by xterm.js; the tab closing asks the
process to quit, which autosaves an unfinished game. The processes inherit this one's
environment, so they use the same data folder (``SOS_TUI_DATA_DIR`` when set); their settings are
the data folder's ``web-settings`` unless ``--shared-settings``.

A tab plays as the user who runs this command, so only the page's own origin may open one: the
public URL or the address the server listens on, checked before any process starts; the page
names its socket by that address, never by the Host a browser sent (DNS rebinding). A tab saves
in the saves folder only and joins games on this computer only, unless ``--allow-server``.

textual-serve (aiohttp) is imported only when this command runs; the page is ours
(``web_page/app_index.html``)."""

from __future__ import annotations

import argparse
import ipaddress
import json
import os
import re
import shlex
import sys
from pathlib import Path
from urllib.parse import urlsplit

from sos_tui.i18n import _, language, ngettext

from .common import UsageError, fail, int_in
from .net import _warn_bind

DEFAULT_PORT = 8000
QUIT_TIMEOUT = 10.0
"""How long a stopping server waits for the tabs' apps to quit."""
DEFAULT_SESSIONS = 8
"""Tabs served at once by default: each is a process of its own (tens of megabytes)."""
OUTPUT_GRACE = 1.0
"""Seconds a tab's app's output is still read after its process ended (its last words)."""
APP_STOPPED = "the game's process ended"
"""The reason a tab is closed with (code 1011) when its app's process died; the page says it in
the player's words."""
PAGE_COLUMNS = 50
"""The columns a narrow window's font is made small enough for (the game needs 44)."""
ANY_SERVER = "any"


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
        "the address listened on. Only pages from there or from the address listened on may play"))
    parser.add_argument("--max-sessions", type=int_in(1), default=DEFAULT_SESSIONS, metavar="N",
                        help=_("the most tabs playing at once, each a process (default {count})").format(
                            count=DEFAULT_SESSIONS))
    parser.add_argument("--separate-data", action="store_true", help=_(
        "give each tab a data folder of its own (for a public server), removed when the tab closes "
        "unless it holds an unfinished game; typed paths are then confined to it, and games are "
        "hosted for the other tabs only"))
    parser.add_argument("--no-mouse", action="store_true",
                        help=_("the tabs play by keyboard only, and the mouse selects text"))
    parser.add_argument("--allow-server", action="append", default=[], metavar="ws://HOST:PORT", help=_(
        "a game server on another computer that the tabs may join, list and host on (again for "
        "more; '{any}' for every one); by default the tabs reach this computer only").format(any=ANY_SERVER))
    parser.add_argument("--shared-settings", action="store_true", help=_(
        "the tabs use and change this account's settings (theme, last setup, language), as sos-tui "
        "in a terminal does; by default they keep their own in the data folder's web-settings"))


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
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise UsageError(_("--public-url: expected http://HOST[:PORT] or https://HOST[:PORT], "
                           "not {url!r}").format(url=url))
    return url.rstrip("/")


def allowed_servers(values: list[str]) -> str | None:
    """``--allow-server``'s values as ``net.reach.SERVERS_VAR`` holds them; None for any."""
    from sos_tui.i18n import explain
    from sos_tui.net import parse_url

    if ANY_SERVER in values:
        return None
    servers = []
    for value in values:
        try:
            servers.append(parse_url(value, need_code=False).server)
        except ValueError as error:
            raise UsageError(f"--allow-server: {explain(error)}") from None
    return " ".join(servers)


def tab_settings(shared: bool) -> None:
    """The tabs' settings apart from this account's (the data folder's ``web-settings``), unless
    ``shared``: a theme chosen in a page does not change the terminal's."""
    if not shared:
        from sos_tui.storage.paths import data_dir
        from sos_tui.storage.settings import CONFIG_ENV_VAR

        os.environ[CONFIG_ENV_VAR] = str(data_dir() / "web-settings")


def _origin(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an http(s) URL or an ``Origin`` header, the host as a browser
    writes it; None for anything else (``null``, a bad port)."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    return parts.scheme, _host(parts.hostname), port or (443 if parts.scheme == "https" else 80)


def _host(host: str) -> str:
    try:
        ip = ipaddress.ip_address(host.partition("%")[0])
    except ValueError:
        return host.lower()
    return str(ip.ipv4_mapped or ip) if ip.version == 6 else str(ip)


def _url(host: str, port: int) -> str:
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def local_url(request) -> str | None:
    """``http://ADDRESS:PORT`` of the address and port ``request`` reached this server on (never
    what its Host header says); None once its connection is gone."""
    sockname = request.transport.get_extra_info("sockname") if request.transport is not None else None
    if not sockname:
        return None
    return _url(_host(sockname[0]), sockname[1])


def own_origin(origin: str | None, request, bind: str, public_url: str | None) -> bool:
    """Whether a WebSocket with ``Origin: origin`` comes from this server's own page: the public
    URL, or the address listened on (``bind``, the address the request came in on, and
    ``localhost`` for a loopback one). A page anywhere else would play as this user."""
    here = local_url(request)
    if origin is None or here is None:
        return False
    _scheme, host, port = _origin(here)
    ours = [here, _url(bind, port), *([public_url] if public_url else [])]
    if ipaddress.ip_address(host).is_loopback:
        ours.append(_url("localhost", port))
    return _origin(origin) in {_origin(url) for url in ours} - {None}


def page_words() -> dict[str, object]:
    """What the page says (``web_page/app_index.html``), in this server's language."""
    return {"page": {
        "lang": language(), "title": _("SOS — sos-tui"), "start": _("Start"), "restart": _("Restart"),
        "ended": _("This tab's game has ended."),
        "stopped": _("This tab's game stopped unexpectedly: its process ended (it may have run out of "
                     "memory). Games are saved after every move: press Restart, then Continue."),
        "columns": PAGE_COLUMNS}}


async def app_ended(app_service) -> None:
    """Returns once a tab's app process has ended and its last output is read (an app that quits
    says so, which closes the tab's socket), or after ``OUTPUT_GRACE``: a child of the app (a
    computer's search) may hold its output open, whose reader is then stopped. textual-serve 1.x
    keeps the process and that reader as ``_process`` and ``_task``, and never looks at either."""
    import asyncio

    await app_service._process.wait()
    output = app_service._task
    try:
        await asyncio.wait_for(asyncio.shield(output), OUTPUT_GRACE)
    except TimeoutError:
        output.cancel()


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
    """A textual-serve ``Server`` that runs at most ``max_sessions`` app processes, for tabs of its
    own page only (``own_origin``), whose socket is named by ``public_url`` or else by the address
    the page was asked on (textual-serve would use the bind address, which a browser elsewhere
    cannot reach: its issue #42), never by the Host header."""
    import asyncio

    import aiohttp_jinja2
    from aiohttp import WSCloseCode, web
    from textual_serve.server import Server

    from sos_tui.net.run import reachable_host

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

        async def _make_app(self) -> web.Application:
            app = await super()._make_app()
            aiohttp_jinja2.get_env(app).globals.update(page_words())
            return app

        async def on_startup(self, app) -> None:  # instead of its banner
            url = public_url or _url(reachable_host(bind), port)
            print(_("Serving SOS on {url} (ctrl+c to stop)").format(url=url), flush=True)

        def _full(self) -> web.Response:
            return web.Response(status=503, text=full_page(max_sessions), content_type="text/html")

        async def handle_index(self, request: web.Request):
            if self.sessions >= max_sessions:
                return self._full()
            here = public_url or local_url(request)
            if here is None:
                raise web.HTTPBadRequest()
            self.public_url = here  # the page is built without an await: no other request sees this
            return await super().handle_index(request)

        async def handle_websocket(self, request: web.Request):
            if not own_origin(request.headers.get("Origin"), request, bind, public_url):
                return web.Response(status=403, text=_("sos-tui web: this socket is not from this "
                                                       "server's own page"))
            if self.sessions >= max_sessions:
                return self._full()
            task = asyncio.current_task()
            self.tabs[task] = request
            try:
                return await super().handle_websocket(request)
            finally:
                del self.tabs[task]

        async def _process_messages(self, websocket: web.WebSocketResponse, app_service) -> None:
            """The tab's messages passed on to its app until either ends. An app that died
            (killed, out of memory) would leave the page frozen and its slot taken: its tab is
            closed with code 1011, which the page explains."""
            reading = asyncio.ensure_future(self._pass_on(websocket, app_service))
            ended = asyncio.ensure_future(app_ended(app_service))
            try:
                await asyncio.wait({reading, ended}, return_when=asyncio.FIRST_COMPLETED)
                if ended.done() and not websocket.closed:
                    await websocket.close(code=WSCloseCode.INTERNAL_ERROR, message=APP_STOPPED.encode())
                await reading
            finally:
                reading.cancel()
                ended.cancel()

        @staticmethod
        async def _pass_on(websocket: web.WebSocketResponse, app_service) -> None:
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

    return SosServer(command, host=bind, port=port, title="SOS", public_url=public_url,
                     templates_path=Path(__file__).with_name("web_page"))


def run(args: argparse.Namespace) -> int:
    public_url = None if args.public_url is None else check_public_url(args.public_url)
    servers = allowed_servers(args.allow_server)
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
    from sos_tui.i18n import explain
    from sos_tui.net.reach import SERVERS_VAR
    from sos_tui.storage import StorageError
    from sos_tui.storage.paths import data_dir

    # the tabs inherit this environment: where they may connect, where their settings are
    if servers is None:
        os.environ.pop(SERVERS_VAR, None)
    else:
        os.environ[SERVERS_VAR] = servers
    try:
        tab_settings(args.shared_settings)
        separate = data_dir() / "web-tabs" if args.separate_data else None
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
