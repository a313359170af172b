"""The relay's direct links (``relay.Relay``): an edge sends what its relayed clients say straight to
the process that owns their room, over a TCP connection of its own to that process, instead of
publishing it on Redis: a relayed move goes edge → owner, not edge → Redis → owner (one process
fewer to wake on a busy machine, and no task of the edge's in between). What the owner tells them
still goes back through Redis: a state in the very script that writes its room, once it is kept.

Each process listens on a port of its own (any free one, on the address it serves) and says where
in ``sos:alive:ID``. A connection starts with the service's secret (``sos:secret``, made by the
first process to start, read by every other): only a process that can read Redis can relay. Then
the relay's messages go one a line (JSON), in order. A link that breaks (its owner died, or stopped)
takes its clients with it: the edge sends them away (1012: they come back with their tokens) and
the owner forgets the clients it brought.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import socket
from collections.abc import Awaitable, Callable

from sos_tui.engine import printable

from .errors import ProtocolError
from .server import HARD_FRAME_LIMIT

log = logging.getLogger(__name__)

LINE_LIMIT = 6 * HARD_FRAME_LIMIT + 4096
"""The longest line a link carries: a client's largest frame with every character escaped."""
MAX_BUFFER = 4 * 1024 * 1024
"""Bytes waiting to go to an owner that does not read them, past which its link counts as broken."""


def advertised(host: str) -> str:
    """The address the other processes reach one listening on ``host`` at: itself, or for every
    address (``0.0.0.0``, ``::``) this machine's name."""
    return socket.gethostname() if host in ("", "0.0.0.0", "::") else host


class Listener:
    """On an owner: the links of the edges that relay to it. ``take`` hears each message (as a
    dict), ``forget`` each client (by its ``conn``) brought by a link that closed."""

    def __init__(self, secret: Callable[[], str], take: Callable[[dict], Awaitable[None]],
                 forget: Callable[[str], None], timeout: float) -> None:
        self.secret, self.take, self.forget, self.timeout = secret, take, forget, timeout
        self._server: asyncio.Server | None = None
        self._links: set[asyncio.StreamWriter] = set()

    async def start(self, host: str) -> str:
        """Listen on ``host``, any free port; the address (``HOST:PORT``) the others reach it at."""
        self._server = await asyncio.start_server(self._serve, host or None, 0, limit=LINE_LIMIT)
        port = self._server.sockets[0].getsockname()[1]
        shown = advertised(host)
        return f"[{shown}]:{port}" if ":" in shown else f"{shown}:{port}"

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None
        for writer in list(self._links):  # each link's reading ends, as when its edge closes it
            writer.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._links.add(writer)
        brought: set[str] = set()
        try:
            said, secret = await asyncio.wait_for(reader.readline(), self.timeout), self.secret()
            if not secret or not hmac.compare_digest(said.rstrip(b"\n"), secret.encode()):
                return
            while line := await reader.readline():
                with contextlib.suppress(ValueError):
                    data = json.loads(line)
                    if isinstance(data, dict):
                        if data.get("op") == "open" and isinstance(data.get("conn"), str):
                            brought.add(data["conn"])
                        await self.take(data)
        except (OSError, ValueError, TimeoutError, asyncio.IncompleteReadError):
            pass  # a link cut short, or a line past the limit: as closed
        finally:
            self._links.discard(writer)
            for conn in brought:
                self.forget(conn)
            writer.close()


class Route:
    """On an edge: its link to one owner. ``send`` writes a message at once (no task in between);
    ``broken`` is done once the link is lost."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self.writer = writer
        self.broken: asyncio.Future = asyncio.get_running_loop().create_future()

    def send(self, message: dict) -> None:
        transport = self.writer.transport
        if self.broken.done() or transport.is_closing():
            return self.lose()
        if transport.get_write_buffer_size() > MAX_BUFFER:  # the owner reads nothing: as lost
            return self.lose()
        self.writer.write(json.dumps(message, ensure_ascii=False).encode() + b"\n")

    def lose(self) -> None:
        if not self.broken.done():
            self.broken.set_result(None)
        self.writer.close()


class Routes:
    """On an edge: its links to the owners, made when first needed, one per owner."""

    def __init__(self, timeout: float, on_lost: Callable[[Route], None]) -> None:
        self.timeout, self.on_lost = timeout, on_lost
        self._routes: dict[str, asyncio.Future[Route | None]] = {}
        self._watchers: set[asyncio.Task] = set()

    async def to(self, owner: str, find: Callable[[], Awaitable[str | None]], secret: str) -> Route | None:
        """The link to ``owner`` (made now if there is none, at the address ``find`` gives); None to
        relay through Redis instead: where ``owner`` takes no link (a process of an older sos-tui)
        or its link cannot be made (nothing answers there: not tried again for that process; Redis
        away: tried again next time). A link that broke is made again."""
        made = self._routes.get(owner)
        if made is None or _spent(made):
            made = self._routes[owner] = asyncio.ensure_future(self._connect(owner, find, secret))
        return await asyncio.shield(made)

    async def _connect(self, owner: str, find: Callable[[], Awaitable[str | None]],
                       secret: str) -> Route | None:
        try:
            address = await find()
        except ProtocolError:  # Redis away (said by the link): through Redis once back, tried again then
            self._routes.pop(owner, None)
            return None
        if not address or ":" not in address:
            return None  # that process takes no link (an older sos-tui): through Redis, for its life
        host, _, port = address.rpartition(":")
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(host.strip("[]"), int(port), limit=LINE_LIMIT), self.timeout)
        except (OSError, ValueError, TimeoutError) as problem:  # through Redis, for that process's life
            log.warning("cannot link to the process at %s (%s): relaying to it through Redis",
                        printable(address)[:100], printable(str(problem))[:200] or type(problem).__name__)
            return None
        writer.write(secret.encode() + b"\n")
        route = Route(writer)
        watcher = asyncio.ensure_future(self._watch(reader, route))
        self._watchers.add(watcher)
        watcher.add_done_callback(self._watchers.discard)
        return route

    async def _watch(self, reader: asyncio.StreamReader, route: Route) -> None:
        """The owner sends nothing back on a link: reading ends when the link does."""
        with contextlib.suppress(OSError, ValueError, asyncio.IncompleteReadError):
            await reader.read()
        route.lose()
        self.on_lost(route)

    async def close(self) -> None:
        for made in self._routes.values():
            if not made.done():
                made.cancel()
            elif not _spent(made) and made.result() is not None:
                made.result().lose()
        await asyncio.gather(*self._routes.values(), *self._watchers, return_exceptions=True)
        self._routes.clear()


def _spent(made: asyncio.Future) -> bool:
    """Whether the link ``made`` is to be made again: it broke, or making it failed unforeseen."""
    if not made.done():
        return False
    if made.cancelled() or made.exception() is not None:
        return True
    route = made.result()
    return route is not None and route.broken.done()
