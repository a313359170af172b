"""The game server: rooms (``room.Room``) behind one listening socket, on the ``websockets``
library (asyncio), trusting no client.

``Server`` admits connections, reads each one's first message (``hello`` joins a room, ``create``
makes one) and then hands every message, parsed by ``protocol.parse_client``, to the client's
room. Computer seats are played by this process through a ``ComputerPool`` (or anything with its
``choose(level, state, on_retry=None)``).

Everything a client can make the server do is bounded (``Limits``): the size of a message
(``MAX_FRAME``), messages per second per connection, refused messages before it is closed,
connections per address, rooms, spectators per room, the time to say hello and the time a room
may stand idle, new connections and rooms created per second from one address (an IPv6 address
counts as its /64, which one machine usually holds whole), how soon a declined undo may be asked
again. A refusal goes to that client only, as an ``error`` message; other rooms and
players never notice.

With a ``store`` (``store.RoomStore``) every room is kept on disk as it changes, and a change is
told to the room only once it is committed (one the store could not keep is told to nobody:
``unkept``); ``restore`` brings the stored rooms back after a restart and ``restart`` stops the
server leaving them on disk, closing every connection with 1012 (service restart) so the clients
come back.

Its port answers HTTP too, through the same door: the page (``webpage.py``) and ``GET /healthz`` and
``GET /metrics`` (``metrics.py``: ``self.metrics`` counts the moves, games and refusals; once
``stop_taking_games`` is called no game is created and ``/healthz`` answers 503).

The room table cannot be filled from a few addresses: an address holds at most
``rooms_per_address`` rooms it created, for as long as each lives, and a room nobody played is
closed minutes after it was made (``room.Room.played``); ``max_rooms`` leaves room for a real host
while 100 addresses hold every room they may.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import logging
import weakref
from collections.abc import Callable
from dataclasses import dataclass

from websockets.asyncio.server import Server as _WsServer
from websockets.asyncio.server import ServerConnection, broadcast, serve
from websockets.exceptions import ConnectionClosed

from sos_tui.engine import printable
from sos_tui.engine.clock import TimeControl
from sos_tui.i18n import N_, _, pgettext

from .bots import BotRegistry
from .door import Allowance, Door, address_of
from .errors import SERVER_STOPPED, ProtocolError
from .greeting import Greeting
from .limits import Limits
from .member import background
from .metrics import ServerMetrics
from .protocol import (
    MAX_LOBBY,
    ErrorMessage,
    LobbyRoom,
    Message,
    PingMessage,
    new_code,
    parse_client,
)
from .rating import ServerRatings
from .reaper import reap
from .room import Room, restore_room
from .roomclock import ServerTime
from .seats import check_seats
from .store import RoomStore, RoomStoreError, StoredRoom
from .vocabulary import CloseReason

log = logging.getLogger(__name__)

MODES = (N_("general"), N_("simple"))
"""The modes, named in the server's language in its event lines (the English on the wire)."""

HARD_FRAME_LIMIT = 64 * 1024
"""Frames above this are cut off by the websockets library itself (close code 1009); between
``MAX_FRAME`` and this, the client gets an ``error`` message and a strike."""
MAX_SEND_BUFFER = 256 * 1024
"""A client that lets this much of our output pile up unread is closed."""


@dataclass(eq=False)
class Client:
    """One connection: where it comes from, the room and seats it holds, and its allowance."""

    ws: ServerConnection
    address: str
    allowance: Allowance
    room: Room | None = None
    seats: tuple[int, ...] = ()
    name: str | None = None
    token: str | None = None  # the token it holds its seats by
    strikes: int = 0
    bye: bool = False  # said it leaves on purpose
    minor: int = 0  # the protocol revision its hello said it understands
    ready: bool = False  # it has had a state of its room (so it may hear a presence)
    first_ping: float = 0.0  # the round trip of the ping sent when it was seated, in seconds

    @property
    def latency(self) -> float:
        """The round trip of the connection's last WebSocket ping, in seconds (0 before the first):
        a move's lag credit is half of it (``roomclock.lag_ms``)."""
        return getattr(self.ws, "latency", 0.0) or self.first_ping

    async def measure(self) -> None:
        """Ping it once (when seated): its lag is known before the first keepalive ping."""
        with contextlib.suppress(ConnectionClosed, RuntimeError, AttributeError):
            self.first_ping = await (await self.ws.ping())

    def send(self, message: Message | str) -> None:
        """Queue ``message`` without waiting; a client that reads nothing is closed."""
        ws = self.ws
        transport = ws.transport
        if transport is not None and transport.get_write_buffer_size() > MAX_SEND_BUFFER:
            background(ws.close(1008, CloseReason.NOT_READING))
            return
        broadcast([ws], message if isinstance(message, str) else message.to_json())

    async def close(self, code: int, reason: str) -> None:
        """Close the connection with ``code`` and ``reason``."""
        await self.ws.close(code, reason)


class _Connection(ServerConnection):
    """websockets' connection, kept in its server's set from the moment it is made (websockets
    knows of it only once it has asked for something). A browser opens spare connections to the
    page's server ahead of need and may never use them: ``Server.stop`` drops those, where each
    would hold the stop up for websockets' opening timeout (10 s)."""

    def __init__(self, connections: weakref.WeakSet, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._connections = connections

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._connections.add(self)


class Server(Greeting):
    """Rooms behind one listening socket. ``start`` binds; ``stop`` closes every connection.

    ``computer`` plays computer seats (a ``ComputerPool``, made on first use when None);
    ``listeners`` are subscribed to every room's session (the host's ``Keeper``); ``on_event``
    hears one line per join, move and result (``sos-tui host --headless`` prints them).
    """

    def __init__(self, limits: Limits | None = None, *, computer=None, computer_delay: float = 0.0,
                 allow_create: bool = False, listeners=(),
                 on_event: Callable[[Room, str], None] | None = None, store: RoomStore | None = None,
                 cluster=None, time: ServerTime | None = None, ratings: ServerRatings | None = None) -> None:
        self.limits = limits or Limits()
        self.time = time or ServerTime()  # the clocks' time (tests give their own)
        self.ratings = ratings  # the players' names and ratings: rated rooms (None: every room casual)
        self.cluster = cluster  # a ``cluster.Cluster``: one service of many processes on Redis
        self.store = cluster.store if cluster is not None else store
        self.metrics = ServerMetrics(lambda: len(self.rooms), lambda: sum(self.door.connections.values()))
        self.door = Door(self.limits, self.metrics.routes)  # who may come in; /healthz, /metrics
        self._computer = computer
        self._owns_computer = computer is None
        self.computer_delay = computer_delay
        self.allow_create = allow_create
        self.listeners = [*listeners, self.metrics.on_change]
        self.on_event = on_event
        self.rooms: dict[str, Room] = {}
        self.bots = BotRegistry(self.limits.strikes)  # the bots connected here (revision 6)
        self._reloading: set[str] = set()  # rooms being brought back from the store (``unkept``)
        self._ws: _WsServer | None = None
        self._connections: weakref.WeakSet[_Connection] = weakref.WeakSet()  # see _Connection
        self._reaper: asyncio.Task | None = None
        self.port: int | None = None
        self.host: str | None = None

    @property
    def computer(self):
        if self._computer is None:
            from sos_tui.session import ComputerPool

            self._computer = ComputerPool(time_limit=2.0)
        return self._computer

    def event(self, room: Room, text: str) -> None:
        log.info("room %s: %s", room.code, printable(text))
        if self.on_event is not None:
            self.on_event(room, text)

    # -- lifetime ----------------------------------------------------------------------------
    async def start(self, host: str = "127.0.0.1", port: int = 0) -> int:
        """Listen on ``host``:``port`` (0: any free port); the port it got."""
        self._ws = await serve(self._handle, host, port, process_request=self.door.admit,
                               create_connection=functools.partial(_Connection, self._connections),
                               max_size=HARD_FRAME_LIMIT, compression=None, max_queue=16,
                               close_timeout=2, ping_interval=20, ping_timeout=20, server_header=None)
        self.port = self._ws.sockets[0].getsockname()[1]
        self.host = host
        self._reaper = asyncio.ensure_future(reap(self))
        if self.cluster is not None:
            await self.cluster.start(self)
        return self.port

    def stop_taking_games(self) -> None:
        """From now on no new game is accepted and ``GET /healthz`` answers 503; the rest goes on
        until ``stop`` or ``restart``."""
        self.metrics.stopping = True

    async def stop(self, why: str = SERVER_STOPPED, /, **params) -> None:
        """Close every room, telling everyone ``why`` (a template of SERVER_MESSAGES, with
        ``params``), and stop listening."""
        self.stop_taking_games()
        if self._reaper is not None:
            self._reaper.cancel()
            self._reaper = None
        for room in list(self.rooms.values()):
            await room.close(why, **params)
        self.rooms.clear()
        if self.cluster is not None:
            await self.cluster.stop()
        if self._ws is not None:
            self._ws.close()
            await asyncio.sleep(0)  # the close has stopped the listening
            for connection in list(self._connections):
                if connection.request is None:  # nothing asked yet: see _Connection
                    connection.transport.abort()
            await self._ws.wait_closed()
            self._ws = None
        if self._owns_computer and self._computer is not None:
            self._computer.shutdown()
            self._computer = None

    async def restart(self) -> None:
        """Stop for a restart: stop listening, finish writing, then close every connection with
        1012 (service restart); the rooms stay in the store, to be brought back."""
        self.stop_taking_games()
        if self._reaper is not None:
            self._reaper.cancel()
            self._reaper = None
        if self._ws is not None:
            self._ws.close(close_connections=False)
        for room in self.rooms.values():
            room.freeze()
        if self.store is not None:
            await self.store.flush()
        clients = [c for room in self.rooms.values() for c in room.clients]
        clients += [bot.client for bot in self.bots.bots.values()]  # bots connect again, too
        await asyncio.gather(*(c.close(1012, CloseReason.RESTARTING)
                               for c in clients), return_exceptions=True)
        if self.cluster is not None:  # its rooms are free for another process at once
            await self.cluster.release(list(self.rooms))
        self.rooms.clear()
        await self.stop()

    async def __aenter__(self) -> Server:
        return self

    async def __aexit__(self, *exc) -> None:
        await self.stop()

    # -- rooms -------------------------------------------------------------------------------
    def create_room(self, size: int, mode, seats, creator: str | None = None, key: str | None = None,
                    public: bool = False, clock: TimeControl | None = None, rated: bool = False) -> Room:
        size, mode, specs = check_seats(size, mode, seats)
        if len(self.rooms) >= self.limits.max_rooms:
            raise ProtocolError("busy", N_("this server has as many games as it can take; try later"))
        if creator is not None and sum(1 for r in self.rooms.values() if r.creator == creator) \
                >= self.limits.rooms_per_address:
            raise ProtocolError("busy", N_("you have as many open games on this server as it allows"))
        code = new_code()
        while code in self.rooms:
            code = new_code()
        room = self.rooms[code] = Room(self, code, size, mode, specs, creator, key, public, clock, rated)
        self.event(room, _("room created: {size}x{size} {mode}, seats {seats}").format(
            size=size, mode=_(mode.value),
            seats=", ".join(s.seat.name or pgettext("seat", "open") for s in room.seats)))
        if room.open_seats == 0:
            room._start()
        return room

    def restore(self, kept: StoredRoom) -> Room | None:
        """Bring back a stored room (a game over is forgotten instead: None)."""
        if kept.record is not None and kept.record.state.is_over:
            self.store.delete(kept.code)
            return None
        room = self.rooms[kept.code] = restore_room(self, kept)
        self.event(room, _("room brought back: {size}x{size} {mode}, {moves} moves").format(
            size=room.size, mode=_(room.mode.value), moves=len(kept.record.moves) if kept.record else 0))
        return room

    async def lobby(self) -> tuple[LobbyRoom, ...]:
        """The open public games: this process's, or with a cluster the whole service's."""
        if self.cluster is not None:
            return await self.cluster.lobby()
        listed = (room.listing() for room in self.rooms.values() if room.public and not room.closed)
        return tuple(itertools.islice((entry for entry in listed if entry is not None), MAX_LOBBY))

    def url(self, room: Room, host: str | None = None) -> str:
        host = host or self.host or "127.0.0.1"
        if host in ("0.0.0.0", "::", ""):
            host = "127.0.0.1"
        return f"ws://{f'[{host}]' if ':' in host else host}:{self.port}/{room.code}"

    async def close_room(self, room: Room, why: str, **params) -> None:
        """Close ``room``; ``why`` is a template of SERVER_MESSAGES (with ``params``)."""
        self.rooms.pop(room.code, None)
        if self.store is not None:
            self.store.delete(room.code)
        await room.close(why, **params)

    def unkept(self, room: Room) -> None:
        """The store could not keep a change of ``room`` (its disk is full, another program holds
        it): nobody is told of the change. Its clients are refused (``unavailable``) and sent away
        (1012) to come back in a moment, and the room is brought back as the store has it."""
        if self.rooms.get(room.code) is not room:
            return  # already sent away (each change that was not kept says so)
        del self.rooms[room.code]
        self._reloading.add(room.code)
        room.freeze()
        self.event(room, _("its last change could not be kept: told to nobody, brought back as on disk"))
        refusal = ErrorMessage.of("unavailable", N_("the game's last change could not be kept: come back "
                                                    "in a moment"))
        for client in list(room.clients):
            client.send(refusal)
            background(client.close(1012, CloseReason.NOT_KEPT))
        background(self._bring_back(room.code))

    async def _bring_back(self, code: str) -> None:
        try:
            await self.store.flush()  # what was asked of it before, kept or not
            kept = await asyncio.to_thread(self.store.load, code)
        except RoomStoreError as problem:
            log.error("room %s: cannot be read back (%s); it is left on disk", code, problem)
            kept = []
        finally:
            self._reloading.discard(code)
        if kept and code not in self.rooms and self._ws is not None:  # still serving
            self.restore(kept[0])

    # -- connections -------------------------------------------------------------------------
    async def _handle(self, ws: ServerConnection) -> None:
        client = Client(ws, address_of(ws), Allowance(self.limits.rate, self.limits.burst))
        self.door.entered(client.address)
        try:
            await self._converse(client)
        except ConnectionClosed:
            pass
        except Exception:  # a bug must cost one connection, never the server
            log.exception("connection from %s failed", client.address)
            with contextlib.suppress(Exception):
                await ws.close(1011, CloseReason.SERVER_ERROR)
        finally:
            self.door.left(client.address)
            if client.room is not None:
                client.room.leave(client)

    async def _refuse(self, client: Client, problem: ProtocolError) -> None:
        """Send the ``error`` that refuses with ``problem`` and close the connection."""
        message = ErrorMessage.refusing(problem)
        client.send(message)
        self.metrics.refused(problem.code)
        await client.close(_CLOSE_CODES.get(problem.code, 1008), CloseReason.REFUSED)

    async def _converse(self, client: Client) -> None:
        try:
            room = await self._greet(client)
        except ProtocolError as problem:
            return await self._refuse(client, problem)
        if room is None:
            return
        room.joined(client)
        async for frame in client.ws:
            if not await self.on_frame(client, frame):
                return

    async def on_frame(self, client: Client, frame) -> bool:
        """One message from a seated client or spectator; False once it is to be heard no more."""
        try:
            self._take(client, frame)
        except ProtocolError as problem:
            client.send(ErrorMessage.refusing(problem))
            self.metrics.refused(problem.code)
            client.strikes += problem.code in _STRIKES
            if client.strikes >= self.limits.strikes:
                await self._refuse(client, ProtocolError("closing", N_("too many refused messages")))
                return False
        return client.room is not None

    def seat(self, client: Client, room: Room, hello) -> Room:
        """Seat ``client`` in ``room`` by its ``hello``; the welcome goes out once the seat is kept."""
        welcome = room.join(client, hello)
        if room.clock is not None and client.seats:
            background(client.measure())
        room.writes.tell([(client, welcome.to_json())], state=False)  # its token is on disk before it has it
        return room

    def _take(self, client: Client, frame) -> None:
        """One message from a seated client or spectator: to its room. ProtocolError to refuse."""
        if not client.allowance.take():
            raise ProtocolError("flood", N_("too many messages: at most {rate} a second"),
                                rate=f"{self.limits.rate:g}")
        message = parse_client(frame)
        if self.cluster is not None and not isinstance(message, PingMessage):
            self.cluster.check()  # Redis away: nothing changes until it is back
        if client.room is not None:
            with self.metrics.handling(message):
                client.room.handle(client, message)



_CLOSE_CODES = {"protocol": 4001, "no-room": 4004, "gone": 4004, "bad-name": 4003, "name-taken": 4003,
                "bad-key": 4003, "bot-taken": 4003, "no-bot": 4004, "bot-full": 4003,
                "full": 4003, "unavailable": 1013}
"""The close code after a refused first message (1008 for any other)."""
_STRIKES = {"bad-frame", "too-big", "bad-json", "bad-message", "unknown-type", "flood"}
"""Refusals that a well-behaved client never causes; a connection that collects enough is closed."""
