"""The server of ``sos-tui web``: textual-serve's ``Server``, for the tabs of its own page only.

What it takes of textual-serve is public: ``Server``'s page (``handle_index``), downloads, static
files and logging hook, and ``AppService``, one tab's app process (``start``, ``stop``,
``send_bytes``, ``set_terminal_size``, ``blur``, ``focus``). It makes the aiohttp application
itself, binds the port and only then says "Serving" (``serve``), and passes a tab's messages to its
app itself (``SosServer.tab``), trusting none: no private method of textual-serve is overridden.
One private thing is read: where ``AppService`` keeps its process (``app_ended``).

Imported only when ``sos-tui web`` serves (``web.make_server``).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import os
import re
import signal
from html import escape
from pathlib import Path
from urllib.parse import urlsplit

import aiohttp_jinja2
import jinja2
from aiohttp import WSCloseCode, web
from textual_serve.app_service import AppService
from textual_serve.server import Server

from sos_tui.i18n import _, language, ngettext
from sos_tui.net.run import reachable_host

log = logging.getLogger(__name__)

QUIT_TIMEOUT = 10.0
"""How long a stopping server waits for the tabs' apps to quit."""
OUTPUT_GRACE = 1.0
"""Seconds a tab's app's output is still read after its process ended (its last words)."""
APP_STOPPED = "the game's process ended"
"""The reason a tab is closed with (code 1011) when its app's process died; the page says it in
the player's words."""
PAGE_COLUMNS = 50
"""The columns a narrow window's font is made small enough for (the game needs 44)."""


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
    return {
        "page": {
            "lang": language(),
            "title": _("SOS — sos-tui"),
            "start": _("Start"),
            "restart": _("Restart"),
            "ended": _("This tab's game has ended."),
            "stopped": _(
                "This tab's game stopped unexpectedly: its process ended (it may have run out of "
                "memory). Games are saved after every move: press Restart, then Continue."
            ),
            "columns": PAGE_COLUMNS,
        }
    }


async def app_ended(app_service) -> None:
    """Returns once a tab's app process has ended and its last output is read (an app that quits
    says so, which closes the tab's socket), or after ``OUTPUT_GRACE``: a child of the app (a
    computer's search) may hold its output open, whose reader is then stopped. textual-serve 1.x
    keeps the process and that reader as ``_process`` and ``_task`` (its 1.x; checked by
    tests/test_web.py), and never looks at either."""
    await app_service._process.wait()
    output = app_service._task
    # asyncio.wait, not wait_for: a reader that textual-serve itself cancelled or that failed
    # (an app that never started) is ended too, and must not end this with its CancelledError
    done, _pending = await asyncio.wait({output}, timeout=OUTPUT_GRACE)
    if not done:
        output.cancel()


def full_page(limit: int) -> str:
    """The page of a tab over the limit."""
    title = escape(_("SOS: no free table"))
    text = escape(
        ngettext(
            "This server runs at most {count} game at once, and that many are being played. "
            "Close another tab or try again later.",
            "This server runs at most {count} games at once, and that many are being played. "
            "Close another tab or try again later.",
            limit,
        ).format(count=limit)
    )
    return (
        f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>{title}</title></head>'
        f"<body><h1>{title}</h1><p>{text}</p></body></html>\n"
    )


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


def query_size(request: web.Request) -> tuple[int, int]:
    """The terminal size a tab's socket asks for (``?width=W&height=H``); 80x24 if it does not."""
    try:
        asked = {key: int(request.query.get(key, "")) for key in ("width", "height")}
    except ValueError:
        return 80, 24
    return terminal_size(asked) or (80, 24)


class SosServer(Server):
    """Runs at most ``max_sessions`` app processes, for tabs of its own page only (``own_origin``),
    whose socket is named by ``public_url`` or else by the address the page was asked on
    (textual-serve would use the bind address, which a browser elsewhere cannot reach: its issue
    #42), never by the Host header."""

    def __init__(self, command: str, bind: str, port: int, public_url: str | None, max_sessions: int) -> None:
        super().__init__(
            command,
            host=bind,
            port=port,
            title="SOS",
            public_url=public_url,
            templates_path=Path(__file__).with_name("web_page"),
        )
        self.given_url = public_url  # ``--public-url``; ``self.public_url`` is the page's, per request
        self.max_sessions = max_sessions
        self.tabs: dict[asyncio.Task, web.Request] = {}

    @property
    def sessions(self) -> int:
        return len(self.tabs)

    @property
    def url(self) -> str:
        """The address said to whoever started the server."""
        return self.given_url or _url(reachable_host(self.host), self.port)

    def initialize_logging(self) -> None:  # its rich log would go to our stdout: warnings only
        logging.basicConfig(level="WARNING", format="sos-tui web: %(message)s")

    def application(self) -> web.Application:
        """The aiohttp application: textual-serve's routes, our page in our words."""
        app = web.Application()
        loader = jinja2.FileSystemLoader(self.templates_path)
        aiohttp_jinja2.setup(app, loader=loader).globals.update(page_words())
        app.add_routes(
            [
                web.get("/", self.handle_index, name="index"),
                web.get("/ws", self.handle_websocket, name="websocket"),
                web.get("/download/{key}", self.handle_download, name="download"),
                web.static("/static", self.statics_path, show_index=True, name="static"),
            ]
        )
        app.on_shutdown.append(self.on_shutdown)
        return app

    def serve(self, debug: bool = False) -> None:
        """Serve until ctrl+c (SIGINT) or SIGTERM, saying "Serving…" once the port is bound (a
        script may connect as soon as it reads that line). OSError if the port cannot be had."""
        self.debug = debug
        self.initialize_logging()
        asyncio.run(self._serve())

    async def _serve(self) -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):  # Windows: ctrl+c is KeyboardInterrupt
                loop.add_signal_handler(signum, stop.set)
        runner = web.AppRunner(self.application(), handle_signals=False)
        await runner.setup()
        try:
            await web.TCPSite(runner, self.host, self.port).start()
            print(_("Serving SOS on {url} (ctrl+c to stop)").format(url=self.url), flush=True)
            await stop.wait()
        finally:
            await runner.cleanup()

    def _full(self) -> web.Response:
        return web.Response(status=503, text=full_page(self.max_sessions), content_type="text/html")

    async def handle_index(self, request: web.Request):
        if self.sessions >= self.max_sessions:
            return self._full()
        here = self.given_url or local_url(request)
        if here is None:
            raise web.HTTPBadRequest()
        self.public_url = here  # the page is built without an await: no other request sees this
        return await super().handle_index(request)

    async def handle_websocket(self, request: web.Request):
        if not own_origin(request.headers.get("Origin"), request, self.host, self.given_url):
            return web.Response(
                status=403, text=_("sos-tui web: this socket is not from this server's own page")
            )
        if self.sessions >= self.max_sessions:
            return self._full()
        task = asyncio.current_task()
        self.tabs[task] = request
        try:
            return await self.tab(request)
        finally:
            del self.tabs[task]

    async def tab(self, request: web.Request) -> web.WebSocketResponse:
        """One tab: its app process, started at the size the tab asked for, and its messages passed
        on until either ends; a tab closed by the server stopping asks its app to quit."""
        websocket = web.WebSocketResponse(heartbeat=15)
        try:
            await websocket.prepare(request)
            app_service = AppService(
                self.command,
                write_bytes=websocket.send_bytes,
                write_str=websocket.send_str,
                close=websocket.close,
                download_manager=self.download_manager,
                debug=self.debug,
            )
            await app_service.start(*query_size(request))
            try:
                await self._process_tab(websocket, app_service)
            finally:
                await app_service.stop()  # first the app quits (and saves), then the tab is closed
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:
            log.exception(error)
        return websocket

    async def _process_tab(self, websocket: web.WebSocketResponse, app_service: AppService) -> None:
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
    async def _pass_on(websocket: web.WebSocketResponse, app_service: AppService) -> None:
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

    async def on_shutdown(self, app: web.Application) -> None:
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
