"""What the network commands run: the plans of a game to host, join or pick from a lobby, and
``sos-tui server`` (rooms created by ``host --server``, until ctrl+c), which reports through
``say(line)``; ``host --headless`` is in ``headless.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import signal
import socket
from collections.abc import Callable
from dataclasses import dataclass

from sos_tui.engine import MAX_SIZE, MIN_SIZE, Mode, Seat, SeatKind, printable
from sos_tui.engine.clock import TimeControl
from sos_tui.i18n import _

from .host import open_store
from .rating import ServerRatings
from .server import Limits, Server

Say = Callable[[str], None]
DRAIN = 1.0
"""Seconds ``sos-tui server`` goes on after SIGTERM refusing new games, ``GET /healthz`` answering
503, before it closes every connection: a load balancer sees it go."""


@dataclass(frozen=True)
class HostPlan:
    """A game to host: a server in this process (``server_url`` None) or a room on a ``sos-tui
    server``; the seats of kind ``human`` are played in this terminal."""

    size: int
    mode: str
    seats: tuple[Seat, ...]
    bind: str = "127.0.0.1"
    port: int = 7531
    server_url: str | None = None
    public: bool = False  # listed in the lobby of the server while seats are open
    claim_after: float | None = None  # seconds a person may be gone before a claim (None: ``Limits``'s)
    clock: TimeControl | None = None  # the game's time control (days per move: on a server only)
    rated: bool = False  # on a server: a finished game between keyed people rates them
    bot: str | None = None  # on a server: the connected bot that takes the first open seat


def bot_settings(setup: dict | None) -> tuple[int, str]:
    """The size and mode of a game against a bot picked from a lobby: the setup screen's last ones
    (``setup``, the remembered settings' "setup"), else its defaults (6, general)."""
    setup = setup if isinstance(setup, dict) else {}
    size, mode = setup.get("size"), setup.get("mode")
    size = size if type(size) is int and MIN_SIZE <= size <= MAX_SIZE else 6
    return size, mode if mode in {m.value for m in Mode} else Mode.GENERAL.value


def against_bot(server: str, name: str, bot: str, size: int, mode: str) -> HostPlan:
    """A game on the server at ``server`` of ``name`` against its bot ``bot``."""
    return HostPlan(size, mode, (Seat(name), Seat(None, SeatKind.REMOTE)), server_url=server, bot=bot)


@dataclass(frozen=True)
class LobbyPlan:
    """The open public games of the server at ``server`` (``ws://HOST:PORT``), to take a seat in
    one as ``name``."""

    server: str
    name: str | None


@dataclass(frozen=True)
class JoinPlan:
    """A game to join at ``url`` (``ws://HOST:PORT/CODE``) as ``name``."""

    url: str
    name: str | None
    host: bool = False  # back in the host's own seats of a game created on a server (``sos-tui games``)


def is_loopback(bind: str) -> bool:
    if bind == "localhost":
        return True
    try:
        return ipaddress.ip_address(bind).is_loopback
    except ValueError:
        return False


def reachable_host(bind: str) -> str:
    """The host to put in a join URL for a server bound to ``bind``: for all interfaces, this
    machine's address on its local network (found without sending anything), else ``bind``."""
    if bind not in ("0.0.0.0", "::", ""):
        return bind
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # a documentation address: UDP connect sends no packet
        return probe.getsockname()[0]
    return "127.0.0.1"


def page_url(url: str) -> str:
    """The web page's address for a game's (or a server's) ``ws://`` or ``wss://`` address: the same
    host, port and code over http or https (sos_tui/net/webpage.py)."""
    return "http" + url.removeprefix("ws") if url.startswith("ws") else url


def stop_on_signals(stop: asyncio.Event) -> None:
    """Set ``stop`` on ctrl+c (SIGINT) and SIGTERM."""
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, stop.set)


async def until(stop: asyncio.Event, *awaitables) -> bool:
    """Wait for ``stop`` or the first of ``awaitables``; True if ``stop`` came first. The error of
    an awaitable that failed is raised."""
    waiter = asyncio.ensure_future(stop.wait())
    others = [asyncio.ensure_future(a) for a in awaitables]
    done, pending = await asyncio.wait([waiter, *others], return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    for task in done:
        if task is not waiter:
            task.result()  # what ended it went wrong: raised here, for the caller to say
    return waiter in done


async def serve_forever(bind: str, port: int, say: Say, limits: Limits | None = None,
                        stop: asyncio.Event | None = None, redis: str | None = None,
                        lease: float = 3.0, drain: float = DRAIN, public: str | None = None) -> int:
    """``sos-tui server``: rooms for ``host --server`` until ctrl+c or SIGTERM, kept in the rooms
    database: started again on the same data folder, it brings back every unfinished game. With
    ``redis`` (a URL), one process of the service every process with that URL forms: the rooms are
    kept in Redis (``cluster.Cluster``; ClusterError, a StorageError, if it cannot be reached), and
    ``public`` (``--public-url``, checked) is where the service's other processes send clients of
    this process's rooms (``moved``).
    ``say(event, room=None)`` hears every event (``eventlog.printer``); stopping, it refuses new
    games for ``drain`` seconds (``/healthz`` answers 503), then closes every connection."""
    stop = stop or asyncio.Event()
    stop_on_signals(stop)
    cluster = None
    if redis is not None:
        from .cluster import Cluster

        cluster = Cluster(redis, lease=lease, public=public)
        await cluster.connect()
        store = cluster.store
    else:
        store = open_store()
    ratings = ServerRatings(store.path) if cluster is None else None  # on Redis: casual games only
    server = Server(limits, computer_delay=0.3, allow_create=True, on_event=lambda room, text: say(
        printable(text), room=room.code), store=store, cluster=cluster, ratings=ratings)
    try:
        for kept in await asyncio.to_thread(store.load):
            server.restore(kept)
        await server.start(bind, port)
        say(f"ws://{reachable_host(bind)}:{server.port}")
        say(_("create games with: sos-tui host --server {url} ...").format(
            url=f"ws://{reachable_host(bind)}:{server.port}"))
        say(_("or play in a browser: {url}").format(url=page_url(f"ws://{reachable_host(bind)}:{server.port}/")))
        await stop.wait()
        server.stop_taking_games()
        say(_("stopping: new games are refused for {seconds} s, then every connection is closed").format(
            seconds=f"{drain:g}"))
        await asyncio.sleep(drain)
    finally:
        await server.restart()
        await store.close()
    say(_("stopped"))
    return 0
