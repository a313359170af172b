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

from sos_tui.engine import (
    COMPUTER_LEVELS,
    MAX_PLAYERS,
    MAX_SIZE,
    MIN_PLAYERS,
    MIN_SIZE,
    GameRecord,
    IllegalMoveError,
    InvalidMoveError,
    Mode,
    Move,
    PlayerInfo,
    check_name,
    check_names,
    printable,
)
from sos_tui.i18n import N_, _, explain, pgettext
from sos_tui.session import Change, GameSession, NotYourTurnError
from sos_tui.session.computer import STOPPED_TWICE

from .protocol import (
    PROTOCOL,
    ProtocolError,
    decode,
    encode,
    error,
    new_code,
    new_token,
    normal_code,
    refusal,
    template_fields,
)

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


@dataclass
class SeatSpec:
    """A seat of a room to create: ``human`` (the creator's, named), ``remote`` (the next person to
    join) or ``computer`` (played by the server, at ``level``)."""

    kind: str
    name: str | None = None
    level: str | None = None

    def to_dict(self) -> dict:
        return {"kind": self.kind, "name": self.name, "level": self.level}


def check_seats(size, mode, seats) -> tuple[int, Mode, list[SeatSpec]]:
    """Validate a room's settings (from a command line or a ``create`` message); ProtocolError
    naming the problem."""
    if not isinstance(size, int) or isinstance(size, bool) or not MIN_SIZE <= size <= MAX_SIZE:
        raise ProtocolError("bad-room", N_("size must be a whole number from {low} to {high}"), low=MIN_SIZE,
                            high=MAX_SIZE)
    try:
        mode = Mode(mode)
    except ValueError:
        raise ProtocolError("bad-room", N_("mode must be general or simple")) from None
    if not isinstance(seats, list | tuple) or not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise ProtocolError("bad-room", N_("a game has {low} to {high} seats"), low=MIN_PLAYERS,
                            high=MAX_PLAYERS)
    specs = []
    for i, seat in enumerate(seats):
        if isinstance(seat, dict):
            seat = SeatSpec(seat.get("kind"), seat.get("name"), seat.get("level"))
        if not isinstance(seat, SeatSpec):
            raise ProtocolError("bad-room", N_("seat {number} must be an object with a \"kind\""),
                                number=i + 1)
        if seat.kind == "human":
            try:
                specs.append(SeatSpec("human", check_name(seat.name)))
            except ValueError as problem:
                raise ProtocolError("bad-room", N_("seat {number}: {error}"), number=i + 1,
                                    error=problem) from None
        elif seat.kind == "remote":
            specs.append(SeatSpec("remote"))
        elif seat.kind == "computer":
            level = seat.level or "medium"
            if level not in COMPUTER_LEVELS:
                raise ProtocolError("bad-room", N_("seat {number}: level must be one of {levels}"),
                                    number=i + 1, levels=", ".join(COMPUTER_LEVELS))
            try:
                name = check_name(seat.name) if seat.name is not None else f"Computer {i + 1}"
            except ValueError as problem:
                raise ProtocolError("bad-room", N_("seat {number}: {error}"), number=i + 1,
                                    error=problem) from None
            specs.append(SeatSpec("computer", name, level))
        else:
            raise ProtocolError("bad-room", N_("seat {number}: kind must be human, remote or computer"),
                                number=i + 1)
    if all(s.kind == "computer" for s in specs):
        raise ProtocolError("bad-room", N_("a network game needs at least one person"))
    try:
        check_names(s.name for s in specs if s.name)
    except ValueError as problem:
        raise ProtocolError.wrap("bad-room", problem) from None
    return size, mode, specs


@dataclass(eq=False)
class Seat:
    kind: str  # human | remote | computer
    name: str | None
    level: str | None = None
    token: str | None = None
    client: Client | None = None

    @property
    def person(self) -> bool:
        return self.kind != "computer"

    def info(self) -> PlayerInfo:
        return PlayerInfo(self.name, "computer", self.level) if not self.person else PlayerInfo(self.name)


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

    def send(self, message: dict | str) -> None:
        """Queue ``message`` without waiting; a client that reads nothing is closed."""
        ws = self.ws
        transport = ws.transport
        if transport is not None and transport.get_write_buffer_size() > MAX_SEND_BUFFER:
            _background(ws.close(1008, "not reading"))
            return
        broadcast([ws], message if isinstance(message, str) else encode(message))

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
        own = tuple(i for i, s in enumerate(self.seats) if s.kind == "human")
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
        return sum(1 for s in self.seats if s.kind == "remote" and s.name is None)

    def log(self, text: str) -> None:
        self.server.event(self, text)

    # -- joining and leaving -----------------------------------------------------------------
    def join(self, client: Client, name, token) -> dict:
        """Seat ``client`` (back in its seats by ``token``, in the next open seat by ``name``, or
        as a spectator); the ``welcome`` to send it. ProtocolError to refuse."""
        if self.closed:
            raise ProtocolError("no-room", N_("this game has ended"))
        if name is not None:
            try:
                name = check_name(name)
            except ValueError as problem:
                raise ProtocolError.wrap("bad-name", problem) from None
        seats: tuple[int, ...] = ()
        if isinstance(token, str) and token in self.tokens:
            seats = self.tokens[token]
            for i in seats:
                old = self.seats[i].client
                if old is not None and old is not client:
                    old.send(error("replaced",
                                   N_("your seat was taken up by a new connection with your token")))
                    self._detach(old)
                    _background(old.ws.close(4000, "replaced by a new connection"))
            self.log(_("{names} reconnected").format(names=self._names(seats)))
        elif self.open_seats and self.phase == "lobby" and name is not None:
            taken = {s.name.casefold() for s in self.seats if s.name}
            if name.casefold() in taken:
                raise ProtocolError("name-taken", N_("someone in this game is already called {name}: join "
                                                     "with another --name"), name=name)
            index = next(i for i, s in enumerate(self.seats) if s.kind == "remote" and s.name is None)
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
        return {"type": "welcome", "protocol": PROTOCOL, "room": self.code, "seats": list(seats),
                "token": token, "role": "player" if seats else "spectator"}

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
        seats = tuple(PlayerInfo(s.name, "remote") if s.person else s.info() for s in self.seats)
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

    def state_message(self, change: str = "join", move: Move | None = None) -> dict:
        session = self.session
        return {
            "type": "state",
            "room": self.code,
            "phase": self.phase,
            "size": self.size,
            "mode": self.mode.value,
            "version": session.version if session else 0,
            "to_move": session.state.to_move if session and not session.state.is_over else None,
            "change": change,
            "move": str(move) if move is not None else None,
            "seats": [{"name": s.name, "kind": "computer" if not s.person else "human", "level": s.level,
                       "connected": s.client is not None or not s.person} for s in self.seats],
            "waiting_for": self.waiting_for,
            "spectators": sum(1 for c in self.clients if not c.seats),
            "game": session.record.to_dict(session.state) if session else None,
        }

    def send_state(self, change: str = "join", move: Move | None = None) -> None:
        if self.closed:
            return
        text = encode(self.state_message(change, move))
        for client in list(self.clients):
            client.send(text)
        self._computer_turn()

    def handle(self, client: Client, message: dict) -> None:
        kind = message["type"]
        if kind == "move":
            self._move(client, message)
        elif kind == "undo":
            self._ask_undo(client)
        elif kind == "undo-answer":
            self._answer_undo(client, message)
        elif kind == "ping":
            number = message.get("id")
            client.send({"type": "pong", "id": number if isinstance(number, int) else None})
        elif kind in ("hello", "create"):
            raise ProtocolError("bad-message", N_("{kind} is only the first message"), kind=kind)
        else:
            raise ProtocolError("unknown-type", N_("unknown message type {kind!r}"),
                                kind=printable(kind)[:40])

    def _playing_seat(self, client: Client, refused: str) -> GameSession:
        """The session, for a client holding a seat; ``refused`` is the message for a spectator."""
        if not client.seats:
            raise ProtocolError("spectator", refused)
        session = self.session
        if session is None:
            raise ProtocolError("waiting", N_("the game starts when every seat is taken"))
        if self.waiting_for:
            raise ProtocolError("waiting", N_("waiting for {names} to reconnect"),
                                names=", ".join(self.waiting_for))
        return session

    def _move(self, client: Client, message: dict) -> None:
        text, version = message.get("move"), message.get("version")
        if not isinstance(text, str) or len(text) > 16:
            raise ProtocolError("bad-move", N_("a move is notation like \"S b2\""))
        if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
            raise ProtocolError("bad-move", N_("\"version\" must be a whole number"))
        session = self._playing_seat(client, N_("spectators cannot move"))
        try:
            move = Move.parse(text)
        except InvalidMoveError as problem:
            raise ProtocolError.wrap("bad-move", problem) from None
        state = session.state
        if state.is_over:
            raise ProtocolError("illegal-move", N_("the game is over"))
        if state.to_move not in client.seats:
            raise ProtocolError("not-your-turn", N_("it is {name}'s turn"),
                                name=self.seats[state.to_move].name)
        if version is not None and version != session.version:
            raise ProtocolError("stale", N_("the game changed before your move arrived: look again"))
        try:
            session.play(move, seat=state.to_move)
        except NotYourTurnError as problem:
            raise ProtocolError.wrap("not-your-turn", problem) from None
        except IllegalMoveError as problem:
            raise ProtocolError.wrap("illegal-move", problem) from None
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
            c.send({"type": "undo-request", "by": by, "name": self.seats[by].name,
                    "vote": bool(set(c.seats) & voters)})

    def _answer_undo(self, client: Client, message: dict) -> None:
        request = self.undo_request
        accept = message.get("accept")
        if not isinstance(accept, bool):
            raise ProtocolError("bad-message", N_("\"accept\" must be true or false"))
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
        reason = why.format(**params) if params else why
        said = _(why).format(**params)
        self.log(_("undo accepted: {reason}").format(reason=said) if accepted
                 else _("undo declined: {reason}").format(reason=said))
        for c in list(self.clients):
            c.send({"type": "undo-result", "accepted": accepted, "reason": reason,
                    **template_fields(why, **params)})
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
        if self._computer is not None and not self._computer.done():
            return
        self._computer = asyncio.ensure_future(self._think(session.computer_level, session.version))

    async def _think(self, level: str, version: int) -> None:
        session = self.session
        state = session.state
        started = time.monotonic()
        try:
            move = await self.server.computer.choose(level, state)
            await asyncio.sleep(max(0.0, self.server.computer_delay - (time.monotonic() - started)))
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None and task.cancelling() == 0 and not self.closed:
                # the search was stopped under us (a shared pool's cancel), not by this room: retry
                self._computer = None
                asyncio.get_running_loop().call_later(0.5, self._computer_turn)
                return
            raise
        except Exception as problem:  # the computer could not move: say so, the room lives on
            self.log(_("{name} could not move: {error}").format(name=self.seats[state.to_move].name,
                                                                  error=explain(problem)))
            if getattr(problem, "template", None) == STOPPED_TWICE:
                message = error("computer",
                                N_("the computer could not move: its process stopped twice in a row"))
            else:
                message = error("computer", "the computer could not move: {error}", error=str(problem))
            for c in list(self.clients):
                c.send(message)
            return
        self._computer = None
        if not self.closed and not self.waiting_for:
            session.play_computer(move, version)

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
        clients = list(self.clients)
        reason = why.format(**params) if params else why
        for c in clients:
            c.send({"type": "closed", "reason": reason, **template_fields(why, **params)})
        await asyncio.gather(*(c.ws.close(1001, reason[:100]) for c in clients), return_exceptions=True)


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
        size, mode, specs = check_seats(size, mode, list(seats))
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

    async def _refuse(self, client: Client, code: str, template: str, close: int = 1008, /, **params) -> None:
        """Send the ``error`` (``template`` with ``params``, see ``protocol.error``) and close."""
        message = error(code, template, **params)
        client.send(message)
        await client.ws.close(close, message["message"][:100])

    async def _converse(self, client: Client) -> None:
        ws = client.ws
        try:
            first = decode(await asyncio.wait_for(ws.recv(), self.limits.hello_timeout))
        except TimeoutError:
            return await self._refuse(client, "timeout", N_("send hello within {seconds} s"),
                                      seconds=f"{self.limits.hello_timeout:g}")
        except ProtocolError as problem:
            return await self._refuse(client, problem.code, problem.template, **problem.params)
        kind, version = first["type"], first.get("protocol")
        if kind not in ("hello", "create"):
            return await self._refuse(client, "hello-first",
                                      N_("the first message must be hello (or create)"))
        if version != PROTOCOL or isinstance(version, bool):
            return await self._refuse(
                client, "protocol", N_("this server speaks protocol {server}, your client {client}: use the "
                                       "same version of sos-tui as the host"),
                4001, server=PROTOCOL, client=printable(str(version))[:20])
        path = (ws.request.path if ws.request else "/").split("?")[0].strip("/")
        if kind == "create":
            return await self._create(client, first, path)
        code = normal_code(path)
        room = self.rooms.get(code) if code else None
        if room is None or room.closed:
            return await self._refuse(client, "no-room", N_("no game with that code here: check the code; "
                                                            "the game may have ended"), 4004)
        name, token = first.get("name"), first.get("token")
        try:
            welcome = room.join(client, name, token if isinstance(token, str) else None)
        except ProtocolError as problem:
            return await self._refuse(client, problem.code, problem.template, 4003, **problem.params)
        client.send(welcome)
        room.joined()
        limits = self.limits
        async for frame in ws:
            try:
                if not client.spend(limits.rate, limits.burst):
                    raise ProtocolError("flood", N_("too many messages: at most {rate} a second"),
                                        rate=f"{limits.rate:g}")
                message = decode(frame)
                if client.room is None:
                    return
                client.room.handle(client, message)
            except ProtocolError as problem:
                client.send(refusal(problem))
                if problem.code in _STRIKES:
                    client.strikes += 1
                    if client.strikes >= limits.strikes:
                        return await self._refuse(client, "closing", N_("too many refused messages"))

    async def _create(self, client: Client, message: dict, path: str) -> None:
        if not self.allow_create:
            return await self._refuse(client, "no-create", N_("this server only runs its own game"))
        if path:
            return await self._refuse(client, "bad-message",
                                      N_("create a game at the server's address, with no code"))
        try:
            room = self.create_room(message.get("size"), message.get("mode"), message.get("seats"),
                                    creator=client.address)
        except ProtocolError as problem:
            return await self._refuse(client, problem.code, problem.template, **problem.params)
        owned = [i for i, s in enumerate(room.seats) if s.kind == "human"]
        client.send({"type": "created", "room": room.code, "token": room.owner_token, "seats": owned})
        await client.ws.close(1000, "created")


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
