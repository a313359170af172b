"""The game server: rooms of ``GameSession`` on the ``websockets`` library (asyncio), trusting no
client.

A ``Room`` holds one session and maps connections to seats. Every move a client sends is checked
(its own seat, its turn, the game not waiting for anyone) and played through the session, which
asks the engine; the room then sends the new state to everyone in it. Computer seats are played by
this process through a ``ComputerPool`` (or anything with its ``choose(level, state)``).

Everything a client can make the server do is bounded: the size of a message (``MAX_FRAME``),
messages per second per connection, refused messages before it is closed, connections per
address, rooms, spectators per room, the time to say hello and the time a room may stand idle.
A refusal goes to that client only, as an ``error`` message; other rooms and players never notice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from http import HTTPStatus

from websockets.asyncio.server import Server as _WsServer
from websockets.asyncio.server import ServerConnection, broadcast, serve
from websockets.exceptions import ConnectionClosed

from sos_tui.engine import GameRecord, IllegalMoveError, Mode, Move, PlayerInfo, printable
from sos_tui.i18n import N_, _, explain, pgettext
from sos_tui.session import Change, GameSession, NotYourTurnError, SeatKind, computer_move
from sos_tui.session.computer import STOPPED_TWICE

from .errors import ProtocolError
from .protocol import (
    ClientMessage,
    ClosedMessage,
    CreatedMessage,
    CreateMessage,
    ErrorMessage,
    HelloMessage,
    Message,
    MoveMessage,
    PingMessage,
    PongMessage,
    SeatView,
    StateMessage,
    UndoAnswerMessage,
    UndoMessage,
    UndoRequestMessage,
    UndoResultMessage,
    WaitingError,
    WelcomeMessage,
    check_ready,
    new_code,
    new_token,
    normal_code,
    parse_client,
)
from .seats import SeatSpec, check_seats

log = logging.getLogger(__name__)

MODES = (N_("general"), N_("simple"))
"""The modes, named in the server's language in its event lines (the English on the wire)."""

HARD_FRAME_LIMIT = 64 * 1024
"""Frames above this are cut off by the websockets library itself (close code 1009); between
``MAX_FRAME`` and this, the client gets an ``error`` message and a strike."""
MAX_SEND_BUFFER = 256 * 1024
"""A client that lets this much of our output pile up unread is closed."""


@dataclass(frozen=True)
class Limits:
    """What one server allows; every number is a bound on what clients can make it hold or do."""

    max_rooms: int = 1000
    max_connections: int = 5000
    connections_per_address: int = 32
    rooms_per_address: int = 10  # rooms created over the network and still open
    spectators_per_room: int = 32
    hello_timeout: float = 10.0  # seconds to send the first message
    room_idle: float = 3600.0  # a room with no move or join this long is closed
    finished_linger: float = 300.0  # a finished game's room stays this long for late viewers
    rate: float = 10.0  # messages per second, on average
    burst: int = 20  # messages at once
    strikes: int = 5  # refused messages before the connection is closed
    undo_timeout: float = 60.0  # an undo request nobody answers is declined
    reap_every: float = 5.0


@dataclass(eq=False)
class Seat:
    kind: SeatKind
    name: str | None
    level: str | None = None
    token: str | None = None
    client: Client | None = None

    @property
    def person(self) -> bool:
        return self.kind is not SeatKind.COMPUTER

    def info(self) -> PlayerInfo:
        """The seat in the game record: a person or a computer."""
        return PlayerInfo(self.name) if self.person else PlayerInfo(self.name, SeatKind.COMPUTER, self.level)

    def view(self) -> SeatView:
        """The seat in a ``state`` message."""
        return SeatView(self.name, SeatKind.HUMAN if self.person else SeatKind.COMPUTER, self.level,
                        self.client is not None or not self.person)


@dataclass(eq=False)
class Client:
    """One connection: where it comes from, the room and seats it holds, and its allowance."""

    ws: ServerConnection
    address: str
    room: Room | None = None
    seats: tuple[int, ...] = ()
    name: str | None = None
    allowance: float = 0.0
    stamp: float = field(default_factory=time.monotonic)
    strikes: int = 0

    def send(self, message: Message | str) -> None:
        """Queue ``message`` without waiting; a client that reads nothing is closed."""
        ws = self.ws
        transport = ws.transport
        if transport is not None and transport.get_write_buffer_size() > MAX_SEND_BUFFER:
            _background(ws.close(1008, "not reading"))
            return
        broadcast([ws], message if isinstance(message, str) else message.to_json())

    def spend(self, rate: float, burst: int) -> bool:
        """Take one message from the allowance (refilled at ``rate`` per second up to ``burst``)."""
        now = time.monotonic()
        self.allowance = min(float(burst), self.allowance + (now - self.stamp) * rate)
        self.stamp = now
        if self.allowance < 1:
            return False
        self.allowance -= 1
        return True


class Room:
    """One game: its seats, the connections in it, its session once every seat is filled."""

    def __init__(self, server: Server, code: str, size: int, mode: Mode, seats: list[SeatSpec],
                 creator: str | None = None) -> None:
        self.server = server
        self.code = code
        self.size, self.mode = size, mode
        self.creator = creator  # the address that created it over the network
        self.seats = [Seat(s.kind, s.name, s.level) for s in seats]
        self.tokens: dict[str, tuple[int, ...]] = {}
        own = tuple(i for i, s in enumerate(self.seats) if s.kind is SeatKind.HUMAN)
        self.owner_token = new_token() if own else None
        if own:
            self.tokens[self.owner_token] = own
            for i in own:
                self.seats[i].token = self.owner_token
        self.clients: set[Client] = set()
        self.session: GameSession | None = None
        self.finished = asyncio.Event()
        self.closed = False
        self.active = time.monotonic()
        self.finished_at: float | None = None
        self.undo_request: dict | None = None  # {"by": seat, "voters": set of seats, "timer": handle}
        self._computer: asyncio.Task | None = None

    # -- what it is ---------------------------------------------------------------------------
    @property
    def phase(self) -> str:
        if self.session is None:
            return "lobby"
        return "over" if self.session.state.is_over else "playing"

    @property
    def waiting_for(self) -> list[str]:
        """People's seats with nobody connected (open seats have no name yet)."""
        return [s.name for s in self.seats if s.person and s.name and s.client is None]

    @property
    def open_seats(self) -> int:
        return sum(1 for s in self.seats if s.kind is SeatKind.REMOTE and s.name is None)

    def log(self, text: str) -> None:
        self.server.event(self, text)

    # -- joining and leaving -----------------------------------------------------------------
    def join(self, client: Client, hello: HelloMessage) -> WelcomeMessage:
        """Seat ``client`` (back in its seats by its token, in the next open seat by its name, or
        as a spectator); the ``welcome`` to send it. ProtocolError to refuse."""
        if self.closed:
            raise ProtocolError("no-room", N_("this game has ended"))
        name, token = hello.name, hello.token
        seats: tuple[int, ...] = ()
        if token in self.tokens:
            seats = self.tokens[token]
            for i in seats:
                old = self.seats[i].client
                if old is not None and old is not client:
                    old.send(ErrorMessage.of(
                        "replaced", N_("your seat was taken up by a new connection with your token")))
                    self._detach(old)
                    _background(old.ws.close(4000, "replaced by a new connection"))
            self.log(_("{names} reconnected").format(names=self._names(seats)))
        elif self.open_seats and self.phase == "lobby" and name is not None:
            taken = {s.name.casefold() for s in self.seats if s.name}
            if name.casefold() in taken:
                raise ProtocolError("name-taken", N_("someone in this game is already called {name}: join "
                                                     "with another --name"), name=name)
            index = next(i for i, s in enumerate(self.seats) if s.kind is SeatKind.REMOTE and s.name is None)
            token = new_token()
            seat = self.seats[index]
            seat.name, seat.token = name, token
            self.tokens[token] = seats = (index,)
            self.log(_("{name} joined (seat {number})").format(name=name, number=index + 1))
        else:
            token = None
            if sum(1 for c in self.clients if not c.seats) >= self.server.limits.spectators_per_room:
                raise ProtocolError("full", N_("this game has as many spectators as it can take"))
            self.log(_("{name} is watching").format(name=name) if name else _("someone is watching"))
        client.room, client.seats, client.name = self, seats, name
        for i in seats:
            self.seats[i].client = client
        self.clients.add(client)
        self.active = time.monotonic()
        return WelcomeMessage(self.code, seats, token)

    def joined(self) -> None:
        """After the welcome went out: start the game once every seat is taken, else tell everyone."""
        if self.session is None and not self.open_seats:
            self._start()
        else:
            self.send_state("join")

    def _names(self, seats) -> str:
        return ", ".join(self.seats[i].name or "?" for i in seats)

    def leave(self, client: Client) -> None:
        if client not in self.clients:
            return
        self._detach(client)
        if client.seats:
            self.log(_("{names} left").format(names=self._names(client.seats)))
        self.send_state("leave")

    def _detach(self, client: Client) -> None:
        self.clients.discard(client)
        for i in client.seats:
            if self.seats[i].client is client:
                self.seats[i].client = None
        if self.undo_request is not None and set(client.seats) & (self.undo_request["voters"]
                                                                  | {self.undo_request["by"]}):
            self._undo_done(False, N_("{names} left"), names=self._names(client.seats))
        client.room = None
        if client.seats:
            self._stop_computer()  # the game waits for the seat

    def _start(self) -> None:
        record = GameRecord(self.size, self.mode, tuple(s.info() for s in self.seats))
        seats = tuple(PlayerInfo(s.name, SeatKind.REMOTE) if s.person else s.info() for s in self.seats)
        self.session = GameSession(record, seats=seats)
        self.session.subscribe(self._on_change)
        for listener in self.server.listeners:
            self.session.subscribe(listener)
        self.log(_("the game starts: {names}").format(names=", ".join(s.name for s in self.seats)))
        self.session.announce_start()

    # -- the game ----------------------------------------------------------------------------
    def _on_change(self, change: Change) -> None:
        self.active = time.monotonic()
        if change.move is not None:
            mover = change.state.movers[-1]
            self.log(_("{name}: {move}").format(name=self.seats[mover].name, move=change.move))
        if change.finished:
            self.finished_at = time.monotonic()
            scores = ", ".join(f"{s.name} {score}"
                               for s, score in zip(self.seats, change.state.scores, strict=True))
            self.log(_("game over: {result} ({scores})").format(
                result=change.record.result_text(change.state, _), scores=scores))
            self.finished.set()
        elif self.finished.is_set() and not change.state.is_over:
            self.finished.clear()  # undone after the end
            self.finished_at = None
        self.send_state(change.kind.value, change.move)

    def state_message(self, change: str = "join", move: Move | None = None) -> StateMessage:
        session = self.session
        return StateMessage(
            self.code, self.phase, self.size, self.mode, session.version if session else 0,
            session.state.to_move if session and not session.state.is_over else None, change, move,
            tuple(s.view() for s in self.seats), tuple(self.waiting_for),
            sum(1 for c in self.clients if not c.seats), session.record if session else None)

    def send_state(self, change: str = "join", move: Move | None = None) -> None:
        if self.closed:
            return
        text = self.state_message(change, move).to_json()
        for client in list(self.clients):
            client.send(text)
        self._computer_turn()

    def handle(self, client: Client, message: ClientMessage) -> None:
        """What ``client`` asks; ProtocolError to refuse (the game's refusals mapped to codes here)."""
        try:
            match message:
                case MoveMessage():
                    self._move(client, message)
                case UndoMessage():
                    self._ask_undo(client)
                case UndoAnswerMessage(accept=accept):
                    self._answer_undo(client, accept)
                case PingMessage(id=number):
                    client.send(PongMessage(number))
        except IllegalMoveError as problem:  # the session's, the engine's, check_ready's
            code = next(code for kind, code in _REFUSALS if isinstance(problem, kind))
            raise ProtocolError.wrap(code, problem) from None

    def _playing_seat(self, client: Client, refused: str) -> GameSession:
        """The session, for a client holding a seat; ``refused`` is the message for a spectator."""
        if not client.seats:
            raise ProtocolError("spectator", refused)
        check_ready(self.session is None, self.waiting_for)
        return self.session

    def _move(self, client: Client, message: MoveMessage) -> None:
        session = self._playing_seat(client, N_("spectators cannot move"))
        if message.version is not None and message.version != session.version:
            raise ProtocolError("stale", N_("the game changed before your move arrived: look again"))
        session.play(message.move, by=client.seats)
        if self.undo_request is not None:
            self._undo_done(False, N_("a move was played"))

    # -- undo by agreement -------------------------------------------------------------------
    def _ask_undo(self, client: Client) -> None:
        session = self._playing_seat(client, N_("spectators cannot ask to undo"))
        if self.undo_request is not None:
            raise ProtocolError("undo-pending", N_("an undo is already being asked"))
        if not session.can_undo:
            raise ProtocolError("cannot-undo", N_("there is nothing to undo"))
        by = client.seats[0]
        voters = {i for i, s in enumerate(self.seats) if s.person and s.token != self.seats[by].token}
        self.log(_("{name} asks to undo").format(name=self.seats[by].name))
        if not voters:
            self._undo_now()
            return
        timer = asyncio.get_running_loop().call_later(self.server.limits.undo_timeout, self._undo_done,
                                                      False, "nobody answered in time")
        self.undo_request = {"by": by, "voters": voters, "accepted": set(), "timer": timer}
        for c in list(self.clients):
            c.send(UndoRequestMessage(by, self.seats[by].name, bool(set(c.seats) & voters)))

    def _answer_undo(self, client: Client, accept: bool) -> None:
        request = self.undo_request
        if request is None:
            raise ProtocolError("no-undo", N_("no undo is being asked"))
        mine = set(client.seats) & request["voters"]
        if not mine:
            raise ProtocolError("no-undo", N_("this undo is not yours to answer"))
        if not accept:
            self._undo_done(False, N_("{names} declined"), names=self._names(sorted(mine)))
            return
        request["accepted"] |= mine
        if request["accepted"] >= request["voters"]:
            self._undo_done(True, N_("everyone agreed"))

    def _undo_done(self, accepted: bool, why: str, **params) -> None:
        """Settle the undo asked; ``why`` (a template of SERVER_MESSAGES, with ``params``) says why."""
        request, self.undo_request = self.undo_request, None
        if request is None:
            return
        request["timer"].cancel()
        said = _(why).format(**params)
        self.log(_("undo accepted: {reason}").format(reason=said) if accepted
                 else _("undo declined: {reason}").format(reason=said))
        result = UndoResultMessage.of(accepted, why, **params)
        for c in list(self.clients):
            c.send(result)
        if accepted:
            self._undo_now()

    def _undo_now(self) -> None:
        self._stop_computer()
        if self.session is not None:
            self.session.undo()

    # -- computers ---------------------------------------------------------------------------
    def _computer_turn(self) -> None:
        session = self.session
        if session is None or self.closed or self.waiting_for or session.computer_level is None:
            return
        if self._computer is None or self._computer.done():
            self._computer = asyncio.ensure_future(self._think(session))

    async def _think(self, session: GameSession) -> None:
        name = session.seat_to_move.name
        try:
            move = await computer_move(session, self.server.computer, self.server.computer_delay)
        except Exception as problem:  # the computer could not move: say so, the room lives on
            self.log(_("{name} could not move: {error}").format(name=name, error=explain(problem)))
            if getattr(problem, "template", None) == STOPPED_TWICE:
                message = ErrorMessage.of(
                    "computer", N_("the computer could not move: its process stopped twice in a row"))
            else:
                message = ErrorMessage.of("computer", "the computer could not move: {error}",
                                          error=str(problem))
            for c in list(self.clients):
                c.send(message)
            return
        self._computer = None
        if move is not None and not self.closed and not self.waiting_for:
            session.play_computer(move, session.version)

    def _stop_computer(self) -> None:
        if self._computer is not None:
            self._computer.cancel()
            self._computer = None

    async def close(self, why: str, **params) -> None:
        """End the room; ``why`` (a template of SERVER_MESSAGES, with ``params``) says why."""
        if self.closed:
            return
        self.closed = True
        self._stop_computer()
        if self.undo_request is not None:
            self.undo_request["timer"].cancel()
            self.undo_request = None
        clients, closed = list(self.clients), ClosedMessage.of(why, **params)
        for c in clients:
            c.send(closed)
        await asyncio.gather(*(c.ws.close(1001, closed.reason[:100]) for c in clients),
                             return_exceptions=True)


class Server:
    """Rooms behind one listening socket. ``start`` binds; ``stop`` closes every connection.

    ``computer`` plays computer seats (a ``ComputerPool``, made on first use when None);
    ``listeners`` are subscribed to every room's session (the host's ``Keeper``); ``on_event``
    hears one line per join, move and result (``sos-tui host --headless`` prints them).
    """

    def __init__(self, limits: Limits | None = None, *, computer=None, computer_delay: float = 0.0,
                 allow_create: bool = False, listeners=(),
                 on_event: Callable[[Room, str], None] | None = None) -> None:
        self.limits = limits or Limits()
        self._computer = computer
        self._owns_computer = computer is None
        self.computer_delay = computer_delay
        self.allow_create = allow_create
        self.listeners = list(listeners)
        self.on_event = on_event
        self.rooms: dict[str, Room] = {}
        self.connections: Counter[str] = Counter()
        self._ws: _WsServer | None = None
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
        self._ws = await serve(self._handle, host, port, process_request=self._admit,
                               max_size=HARD_FRAME_LIMIT, compression=None, max_queue=16,
                               close_timeout=2, ping_interval=20, ping_timeout=20, server_header=None)
        self.port = self._ws.sockets[0].getsockname()[1]
        self.host = host
        self._reaper = asyncio.ensure_future(self._reap())
        return self.port

    async def stop(self) -> None:
        if self._reaper is not None:
            self._reaper.cancel()
            self._reaper = None
        for room in list(self.rooms.values()):
            await room.close(N_("the server stopped"))
        self.rooms.clear()
        if self._ws is not None:
            self._ws.close()
            await self._ws.wait_closed()
            self._ws = None
        if self._owns_computer and self._computer is not None:
            self._computer.shutdown()
            self._computer = None

    async def __aenter__(self) -> Server:
        return self

    async def __aexit__(self, *exc) -> None:
        await self.stop()

    # -- rooms -------------------------------------------------------------------------------
    def create_room(self, size: int, mode, seats, creator: str | None = None) -> Room:
        size, mode, specs = check_seats(size, mode, seats)
        if len(self.rooms) >= self.limits.max_rooms:
            raise ProtocolError("busy", N_("this server has as many games as it can take; try later"))
        if creator is not None and sum(1 for r in self.rooms.values() if r.creator == creator) \
                >= self.limits.rooms_per_address:
            raise ProtocolError("busy", N_("you have as many open games on this server as it allows"))
        code = new_code()
        while code in self.rooms:
            code = new_code()
        room = self.rooms[code] = Room(self, code, size, mode, specs, creator)
        self.event(room, _("room created: {size}x{size} {mode}, seats {seats}").format(
            size=size, mode=_(mode.value),
            seats=", ".join(s.name or pgettext("seat", "open") for s in room.seats)))
        if room.open_seats == 0:
            room._start()
        return room

    def url(self, room: Room, host: str | None = None) -> str:
        host = host or self.host or "127.0.0.1"
        if host in ("0.0.0.0", "::", ""):
            host = "127.0.0.1"
        return f"ws://{f'[{host}]' if ':' in host else host}:{self.port}/{room.code}"

    async def close_room(self, room: Room, why: str, **params) -> None:
        """Close ``room``; ``why`` is a template of SERVER_MESSAGES (with ``params``)."""
        self.rooms.pop(room.code, None)
        await room.close(why, **params)

    async def _reap(self) -> None:
        limits = self.limits
        while True:
            await asyncio.sleep(limits.reap_every)
            now = time.monotonic()
            for room in list(self.rooms.values()):
                if room.finished_at is not None and now - room.finished_at > limits.finished_linger:
                    await self.close_room(room, N_("the game is over"))
                elif now - room.active > limits.room_idle:
                    await self.close_room(room, N_("closed after {minutes} minutes without a move"),
                                          minutes=int(limits.room_idle // 60))

    # -- connections -------------------------------------------------------------------------
    def _admit(self, connection: ServerConnection, request):
        address = _address(connection)
        if sum(self.connections.values()) >= self.limits.max_connections:
            return connection.respond(HTTPStatus.SERVICE_UNAVAILABLE, "the server is full\n")
        if self.connections[address] >= self.limits.connections_per_address:
            return connection.respond(HTTPStatus.TOO_MANY_REQUESTS,
                                      "too many connections from your address\n")
        return None

    async def _handle(self, ws: ServerConnection) -> None:
        client = Client(ws, _address(ws), allowance=float(self.limits.burst))
        self.connections[client.address] += 1
        try:
            await self._converse(client)
        except ConnectionClosed:
            pass
        except Exception:  # a bug must cost one connection, never the server
            log.exception("connection from %s failed", client.address)
            with contextlib.suppress(Exception):
                await ws.close(1011, "server error")
        finally:
            self.connections[client.address] -= 1
            if self.connections[client.address] <= 0:
                del self.connections[client.address]
            if client.room is not None:
                client.room.leave(client)

    async def _refuse(self, client: Client, problem: ProtocolError) -> None:
        """Send the ``error`` that refuses with ``problem`` and close the connection."""
        message = ErrorMessage.refusing(problem)
        client.send(message)
        await client.ws.close(_CLOSE_CODES.get(problem.code, 1008), message.message[:100])

    async def _converse(self, client: Client) -> None:
        try:
            room = await self._greet(client)
        except ProtocolError as problem:
            return await self._refuse(client, problem)
        if room is None:
            return
        room.joined()
        async for frame in client.ws:
            try:
                self._take(client, frame)
            except ProtocolError as problem:
                client.send(ErrorMessage.refusing(problem))
                client.strikes += problem.code in _STRIKES
                if client.strikes >= self.limits.strikes:
                    return await self._refuse(client,
                                              ProtocolError("closing", N_("too many refused messages")))
            if client.room is None:
                return

    async def _greet(self, client: Client) -> Room | None:
        """The first message: a ``hello`` seats the client in its room (returned, welcomed), a
        ``create`` makes a room (answered: None). ProtocolError to refuse."""
        ws = client.ws
        try:
            frame = await asyncio.wait_for(ws.recv(), self.limits.hello_timeout)
        except TimeoutError:
            raise ProtocolError("timeout", N_("send hello within {seconds} s"),
                                seconds=f"{self.limits.hello_timeout:g}") from None
        first = parse_client(frame, first=True)
        path = (ws.request.path if ws.request else "/").split("?")[0].strip("/")
        if isinstance(first, CreateMessage):
            await self._create(client, first, path)
            return None
        code = normal_code(path)
        room = self.rooms.get(code) if code else None
        if room is None or room.closed:
            raise ProtocolError("no-room", N_("no game with that code here: check the code; the game may "
                                              "have ended"))
        client.send(room.join(client, first))
        return room

    def _take(self, client: Client, frame) -> None:
        """One message from a seated client or spectator: to its room. ProtocolError to refuse."""
        if not client.spend(self.limits.rate, self.limits.burst):
            raise ProtocolError("flood", N_("too many messages: at most {rate} a second"),
                                rate=f"{self.limits.rate:g}")
        message = parse_client(frame)
        if client.room is not None:
            client.room.handle(client, message)

    async def _create(self, client: Client, message: CreateMessage, path: str) -> None:
        if not self.allow_create:
            raise ProtocolError("no-create", N_("this server only runs its own game"))
        if path:
            raise ProtocolError("bad-message", N_("create a game at the server's address, with no code"))
        room = self.create_room(message.size, message.mode, message.seats, creator=client.address)
        owned = tuple(i for i, s in enumerate(room.seats) if s.kind is SeatKind.HUMAN)
        client.send(CreatedMessage(room.code, room.owner_token, owned))
        await client.ws.close(1000, "created")


_REFUSALS = ((WaitingError, "waiting"), (NotYourTurnError, "not-your-turn"),
             (IllegalMoveError, "illegal-move"))
"""The game's refusals of a move or an undo, most specific first, and their codes on the wire."""

_CLOSE_CODES = {"protocol": 4001, "no-room": 4004, "bad-name": 4003, "name-taken": 4003, "full": 4003}
"""The close code after a refused first message (1008 for any other)."""
_STRIKES = {"bad-frame", "too-big", "bad-json", "bad-message", "unknown-type", "flood"}
"""Refusals that a well-behaved client never causes; a connection that collects enough is closed."""


_TASKS: set[asyncio.Task] = set()


def _background(coroutine) -> None:
    """Run ``coroutine`` on its own, keeping a reference until it ends."""
    task = asyncio.ensure_future(coroutine)
    _TASKS.add(task)
    task.add_done_callback(_TASKS.discard)


def _address(connection: ServerConnection) -> str:
    remote = connection.remote_address
    return str(remote[0]) if remote else "?"
