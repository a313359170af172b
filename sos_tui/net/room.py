"""A room: one game (its ``GameSession``, once every seat is taken) and the connections in it.

The room seats connections (by token, by name in an open seat, or as spectators; the tokens in
``keys.SeatKeys``), hands every move to its session with the seats the sender holds (the session
refuses a seat out of turn), runs the undo and rematch votes (``votes.Votes``), plays its computer
seats through the server's pool (``turns.ComputerTurns``) and sends every change to everyone in it
as a ``state``, once the store has it (``writes.Writes``). Spectators coming and
going are no change of the game: the others hear a headcount (``presence``), at most every
``Limits.presence_every`` seconds.

A room is *played* once two people have sat in it (each with a token of their own) or a person
has moved: until then a room made with ``create`` is closed minutes after it was made
(``Limits.unplayed_idle``), whoever comes and goes.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Protocol

from sos_tui.engine import GameRecord, IllegalMoveError, Mode, Move, Seat, SeatKind
from sos_tui.engine.clock import ClockError, TimeControl
from sos_tui.i18n import N_, _
from sos_tui.session import Change, ComputerPool, GameSession, NotYourTurnError

from .endings import RoomEndings
from .errors import ProtocolError
from .keys import SeatKeys
from .limits import Limits
from .member import Member
from .mirrors import Mirrors
from .protocol import (
    AbortMessage,
    ByeMessage,
    ClaimMessage,
    ClientMessage,
    ClosedMessage,
    DrawAnswerMessage,
    DrawMessage,
    LobbyRoom,
    MoveMessage,
    PingMessage,
    PongMessage,
    PresenceMessage,
    RematchAnswerMessage,
    RematchMessage,
    ResignMessage,
    SeatRating,
    SeatView,
    StateMessage,
    SyncMessage,
    UndoAnswerMessage,
    UndoMessage,
    WaitingError,
    WelcomeMessage,
    check_ready,
)
from .rating import ServerRatings, places_if_rated
from .roomclock import FlagTimer, ServerTime, clock_view, lag_ms, restored_clocks, stored_clocks
from .seating import RoomSeating
from .store import RoomStore, StoredRoom, StoredSeat, lobby_entry
from .turns import ComputerTurns
from .vocabulary import CloseReason, Phase, StateChange, VoteKind
from .votes import Votes
from .writes import Writes


class RoomServer(Protocol):
    """What a room needs of the server that holds it (``server.Server``), and nothing more."""

    limits: Limits
    store: RoomStore | None  # every change is kept here before anyone is told (None: not kept)
    listeners: list[Callable[[Change], None]]  # subscribed to every room's session
    computer_delay: float  # the shortest a computer move takes
    time: ServerTime  # the clocks' time (``roomclock``)
    ratings: ServerRatings | None  # the players' names and ratings (None: no rated games here)

    @property
    def computer(self) -> ComputerPool:
        """Plays the computer seats."""

    def event(self, room: Room, text: str) -> None:
        """One line for the host's log: a join, a move, a result."""

    def unkept(self, room: Room) -> None:
        """The store could not keep a change of ``room``: nobody is told of it."""


@dataclass(eq=False)
class RoomSeat:
    """A seat of a room: who sits there (``seat``; an open remote seat gets its name when a
    person joins), the hash of the token that holds it and the connection in it, if any."""

    seat: Seat
    token_hash: str | None = None  # of the token that holds it (``protocol.token_hash``)
    client: Member | None = None
    key_hash: str | None = None  # of the player key its person's last hello sent (``playerkey``)

    def view(self) -> SeatView:
        """The seat in a ``state`` message."""
        return SeatView(self.seat.recorded, self.client is not None or not self.seat.person)

    def stored(self) -> StoredSeat:
        return StoredSeat(self.seat, self.token_hash)


class Room(RoomSeating):
    """One game: its seats, the connections in it, its session once every seat is filled."""

    def __init__(self, server: RoomServer, code: str, size: int, mode: Mode, seats: list[Seat],
                 creator: str | None = None, key: str | None = None, public: bool = False,
                 clock: TimeControl | None = None, rated: bool = False) -> None:
        self.server = server
        self.clock = clock  # the time control of its games (None: untimed)
        self.flags = FlagTimer(self)  # applies the flag when the seat to move runs out
        self.public = public  # listed in the lobby while seats are open
        self.rated = rated  # a finished game between keyed people rates them (``rating``)
        self.ratings_told: tuple[SeatRating, ...] = ()  # each seat's new rating, once this game rated them
        self.code = code
        self.size, self.mode = size, mode
        self.creator = creator  # the address (or IPv6 /64) that created it over the network
        self.key = key  # a hosted room's key in the store (``host --headless``)
        self.seats = [RoomSeat(s) for s in seats]
        self.keys = SeatKeys(self)  # the tokens that hold the seats
        self.created = time.time()
        self.played = False  # two people sat in it, or a person moved (the module's doc)
        self._sitters: set[str] = set()  # the token hashes of the people who sat in it
        self.clients: set[Member] = set()
        self.session: GameSession | None = None
        self.finished = asyncio.Event()
        self.closed = False
        self.active = time.monotonic()
        self.finished_at: float | None = None
        self.votes = Votes(self, server.limits)  # an undo or a rematch being asked
        self.endings = RoomEndings(self, server.limits)  # resign, abort, draws, claims; who has gone
        self.turns = ComputerTurns(self, server)
        self.writes = Writes(server, self)  # every change kept before anyone is told
        self.headcount = Headcount(self)
        self.mirrors = Mirrors()  # what each client holds of the game: it is sent the rest
        self.last_change: tuple[str, Move | None, int | None] = ("join", None, None)  # of the last state sent

    # -- what it is ---------------------------------------------------------------------------
    @property
    def phase(self) -> Phase:
        if self.session is None:
            return Phase.LOBBY
        return Phase.OVER if self.session.state.is_over else Phase.PLAYING

    @property
    def waiting_for(self) -> list[str]:
        """People's seats still in the game with nobody connected (open seats have no name yet)."""
        state = self.session.state if self.session is not None else None
        return [s.seat.name for i, s in enumerate(self.seats) if s.seat.person and s.seat.name
                and s.client is None and not (state is not None and state.is_out(i))]

    @property
    def open_seats(self) -> int:
        return sum(1 for s in self.seats if s.seat.is_open)

    @property
    def owner_token(self) -> str | None:
        """The token of the room's own seats (``SeatKeys.owner``)."""
        return self.keys.owner

    def host_token(self, kept: str | None) -> str | None:
        return self.keys.host_token(kept)

    @property
    def spectators(self) -> int:
        return sum(1 for c in self.clients if not c.seats)

    def listing(self) -> LobbyRoom | None:
        """The room in the lobby, or None when it is not listed (private, or no seat open); with
        the ratings in this mode of the people waiting (rated rooms)."""
        entry, ratings = lobby_entry(self.stored()), self.server.ratings
        if entry is None or not self.rated or ratings is None:
            return entry
        people = [s for s in self.seats if s.seat.name and s.seat.person]
        return replace(entry, ratings=tuple(ratings.rating_of(s.key_hash, self.mode) for s in people))

    def log(self, text: str) -> None:
        self.server.event(self, text)

    def _open(self, record: GameRecord) -> GameSession:
        """The session of ``record`` (a new game, or one brought back from the store)."""
        seats = tuple(Seat(s.seat.name, SeatKind.REMOTE) if s.seat.person else s.seat for s in self.seats)
        self.session = GameSession(record, seats=seats, now=self.server.time.now)
        self.session.subscribe(self._on_change)
        for listener in self.server.listeners:
            self.session.subscribe(listener)
        return self.session

    def _start(self, change: StateChange = StateChange.START) -> None:
        self.ratings_told = ()
        self._open(GameRecord(self.size, self.mode, tuple(s.seat.recorded for s in self.seats),
                              clock=self.clock, spent_ms=None if self.clock is None else ()))
        self.log(_("the game starts: {names}").format(names=", ".join(s.seat.name for s in self.seats)))
        if change is StateChange.START:
            self.session.announce_start()
        else:  # a rematch: every seated connection learns its seats in the new game, then the game
            for client in list(self.clients):
                if client.seats:
                    client.send(WelcomeMessage(self.code, client.seats, client.token))
            self.finished.clear()
            self.finished_at = None
            self.send_state(change)

    # -- the game ----------------------------------------------------------------------------
    def _on_change(self, change: Change) -> None:
        self.active = time.monotonic()
        if change.move is not None:
            mover = change.state.movers[-1]
            self.played = self.played or self.seats[mover].seat.person
            self.log(_("{name}: {move}").format(name=self.seats[mover].seat.name, move=change.move))
        if change.finished:
            self.finished_at = time.monotonic()
            scores = ", ".join(f"{s.seat.name} {score}"
                               for s, score in zip(self.seats, change.state.scores, strict=True))
            self.log(_("game over: {result} ({scores})").format(
                result=change.record.result_text(change.state, _), scores=scores))
            self._rate(change.state)
            self.finished.set()
        elif self.finished.is_set() and not change.state.is_over:
            self.finished.clear()  # undone after the end
            self.finished_at = None
        self.endings.changed(change)
        self.send_state(StateChange(change.kind.value), change.move, change.seat)

    def _rate(self, state) -> None:
        """Rate the game just finished, once, if it is rated (``rating.places_if_rated``)."""
        ratings = self.server.ratings
        if not self.rated or ratings is None or self.ratings_told:
            return
        places = places_if_rated(state, [s.seat.person and s.key_hash is not None for s in self.seats])
        if places is not None:
            self.ratings_told = ratings.rate([s.seat.name for s in self.seats],
                                             [s.key_hash for s in self.seats], places, self.mode) or ()
        if self.ratings_told:
            self.log(_("rated: {ratings}").format(ratings=", ".join(
                f"{s.seat.name} {r.text}" for s, r in zip(self.seats, self.ratings_told, strict=True))))

    def state_message(self, change: StateChange = StateChange.JOIN, move: Move | None = None,
                      seat: int | None = None) -> StateMessage:
        session = self.session
        over = session is None or session.state.is_over
        return StateMessage(
            self.code, self.phase, self.size, self.mode, session.version if session else 0,
            None if over else session.state.to_move, change, move,
            tuple(s.view() for s in self.seats), tuple(self.waiting_for), self.spectators,
            session.record if session else None, None, seat, session.draw_offer if session else None,
            self.endings.gone(), None if session is None or not over else str(session.state.termination),
            clocks=clock_view(self), ratings=self.ratings_told if session is not None and over else ())

    def send_state(self, change: StateChange = StateChange.JOIN, move: Move | None = None,
                   seat: int | None = None) -> None:
        """Tell everyone in the room how it stands, once that is on disk."""
        if self.closed:
            return
        message, self.last_change = self.state_message(change, move, seat), (change, move, seat)
        frames, self.headcount.told = self.mirrors.frames(message, list(self.clients)), message.spectators
        self.writes.tell(frames)
        self.turns.turn()
        self.flags.set()

    def _sync(self, client: Member) -> None:
        """The room as the last state told it, with the whole game, to ``client`` (it asked)."""
        self.mirrors.forget(client)
        self.writes.tell(self.mirrors.frames(self.state_message(*self.last_change), [client]))

    # -- on disk -----------------------------------------------------------------------------
    async def saved(self) -> None:
        await self.writes.saved()

    def stored(self) -> StoredRoom:
        session = self.session
        return StoredRoom(
            self.code, self.size, str(self.mode),
            tuple(s.stored() for s in self.seats),
            session.record if session else None, session.version if session else 0, self.created,
            time.time(), self.key, self.creator, self.public,
            self.clock,
            stored_clocks(session.clocks, self.server.time) if session is not None and session.timed
            else None, self.rated)

    def handle(self, client: Member, message: ClientMessage) -> None:
        """What ``client`` asks; ProtocolError to refuse (the game's refusals mapped to codes here)."""
        try:
            match message:
                case MoveMessage():
                    self._move(client, message)
                case UndoMessage() if self.clock is not None:
                    raise ProtocolError("cannot-undo", N_("no takebacks in a timed game"))
                case UndoMessage():
                    self.votes.ask_undo(client)
                case RematchMessage():
                    self.votes.ask_rematch(client)
                case RematchAnswerMessage(accept=accept):
                    self.votes.answer(client, VoteKind.REMATCH, accept)
                case UndoAnswerMessage(accept=accept):
                    self.votes.answer(client, VoteKind.UNDO, accept)
                case ByeMessage():
                    client.bye = True  # leaving on purpose: the others are told so when it goes
                case PingMessage(id=number):
                    client.send(PongMessage(number))
                case SyncMessage():
                    self._sync(client)
                case ResignMessage() | AbortMessage() | DrawMessage() | DrawAnswerMessage() | ClaimMessage():
                    self.endings.handle(client, message)
        except IllegalMoveError as problem:  # the session's, the engine's, check_ready's
            code = next(code for kind, code in _REFUSALS if isinstance(problem, kind))
            raise ProtocolError.wrap(code, problem) from None

    def playing_seat(self, client: Member, refused: str) -> GameSession:
        """The session, for a client holding a seat; ``refused`` is the message for a spectator."""
        if not client.seats:
            raise ProtocolError("spectator", refused)
        check_ready(self.session is None, self.waiting_for)
        return self.session

    def agreed(self, what: VoteKind) -> None:
        """Everyone asked agreed (``votes``): undo the last move, or play again."""
        self.turns.stop()
        if what is VoteKind.REMATCH:
            self._rematch()
        elif self.session is not None:
            self.session.undo()

    def _move(self, client: Member, message: MoveMessage) -> None:
        session = self.playing_seat(client, N_("spectators cannot move"))
        if message.version is not None and message.version != session.version:
            raise ProtocolError("stale", N_("the game changed before your move arrived: look again"))
        session.play(message.move, by=client.seats, lag_ms=lag_ms(client.latency))
        self.votes.done(False, N_("a move was played"), counts=False)

    def _rematch(self) -> None:
        """The same table again, whoever started moving last (every seat one place earlier, as at
        home); each person keeps their seat's token."""
        self.seats = self.seats[1:] + self.seats[:1]
        self.keys.index()
        self.endings.moved()
        self.endings.left(i for i, s in enumerate(self.seats) if s.seat.person and s.client is None)
        for client in self.clients:
            if client.seats:
                client.seats = tuple(i for i, seat in enumerate(self.seats) if seat.client is client)
        self._start(StateChange.REMATCH)

    def freeze(self) -> None:
        """No more changes (the server restarts): the room stands as it is on disk."""
        self.closed = True
        self.turns.stop()
        self.flags.cancel()
        self.headcount.cancel()
        self.votes.drop()

    async def close(self, why: str, **params) -> None:
        """End the room; ``why`` (a template of SERVER_MESSAGES, with ``params``) says why."""
        if self.closed:
            return
        self.freeze()
        clients, closed = list(self.clients), ClosedMessage.of(why, **params)
        for c in clients:
            c.send(closed)
        await asyncio.gather(*(c.close(1001, CloseReason.ROOM_CLOSED) for c in clients),
                             return_exceptions=True)


def restore_room(server: RoomServer, kept: StoredRoom) -> Room:
    """A room brought back from the store: the same code, seats, token hashes and game (at the
    same version); nobody is connected yet. A stored row does not keep an engine seat's program
    (``Seat.engine``): the game record does, and a hosted game takes it back from there."""
    recorded = kept.record.players if kept.record is not None else ()
    seats = [replace(s.seat, engine=recorded[i].engine) if i < len(recorded) and s.seat.is_computer
             else s.seat for i, s in enumerate(kept.seats)]
    room = Room(server, kept.code, kept.size, Mode(kept.mode), seats, kept.creator, kept.key, kept.public,
                kept.clock, kept.rated)
    room.keys.owner, room.created = None, kept.created
    for seat, stored in zip(room.seats, kept.seats, strict=True):
        seat.token_hash = stored.token_hash
    room.keys.index()
    if kept.record is not None:
        session = room._open(kept.record)
        session.version = kept.version
        if kept.clocks is not None:
            with contextlib.suppress(ClockError):  # damaged: the clocks as at the last move stay
                session.keep_clocks(restored_clocks(kept.clocks, server.time))
        room.flags.set()  # the time runs on, a correspondence game's days too
        room.played = any(room.seats[mover].seat.person for mover in session.state.movers)
    people = {s.token_hash for s in kept.seats
              if s.seat.person and s.seat.name and s.token_hash}
    room.played = room.played or len(people) >= 2  # as far as the store tells: two people's seats
    room.endings.left(i for i, s in enumerate(room.seats) if s.seat.person and s.seat.name)
    return room


class Headcount:
    """How many watch a room, told to the others as a ``presence`` when spectators come and go:
    one message for all the comings and goings of ``Limits.presence_every`` seconds, and only to
    clients that have had a state of the room and understand it (``minor`` 1)."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.told = 0  # what everyone was last told (by a state, or a presence)
        self._timer: asyncio.TimerHandle | None = None

    def changed(self) -> None:
        """A spectator came or went: the others hear it in a moment, with whoever else comes and goes."""
        if self._timer is None and not self.room.closed:
            self._timer = asyncio.get_running_loop().call_later(self.room.server.limits.presence_every,
                                                                self._tell)

    def _tell(self) -> None:
        self._timer = None
        room = self.room
        if room.closed or room.spectators == self.told:
            return
        self.told = room.spectators
        text = PresenceMessage(self.told).to_json()
        for client in list(room.clients):
            if client.ready and client.minor >= 1:  # a client of before presence: the next state says it
                client.send(text)

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


_REFUSALS = ((WaitingError, "waiting"), (NotYourTurnError, "not-your-turn"),
             (IllegalMoveError, "illegal-move"))
"""The game's refusals of a move or an undo, most specific first, and their codes on the wire."""


