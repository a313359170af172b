"""The client side of a network game, with no screen: ``RemoteGame`` mirrors the server's game and
sends this player's moves; ``create_room`` asks a ``sos-tui server`` for a new game; a ``TokenStore``
(``tokens``) keeps seat tokens in the data folder so the same command gets the same seat back.

The server is not trusted either: every state it sends is replayed through the engine
(``GameRecord.from_dict``) before it is shown, and what it says is shown in the player's language
only when it is one of the server messages this client knows (``errors.said``). Every message
is read once, by ``protocol.parse_server``, into the typed messages ``updates`` yields.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import re
import socket
import time
from collections.abc import AsyncIterator, Callable, Sequence

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from sos_tui.engine import (
    GameRecord,
    GameState,
    IllegalMoveError,
    Mode,
    Move,
    Seat,
    SeatKind,
    Termination,
    printable,
)
from sos_tui.engine.clock import Clocks, TimeControl
from sos_tui.i18n import N_, _, explain
from sos_tui.session import Change, ChangeKind, NotYourTurnError
from sos_tui.session.timing import monotonic_ms

from .errors import SERVER_STOPPED, ProtocolError
from .moved import MAX_MOVES, followed, spoken_minor
from .playerkey import key_for
from .playerkey import player_key as _player_key
from .protocol import (
    MAX_FRAME,
    MAX_SERVER_FRAME,
    REPLACED,
    Address,
    ByeMessage,
    ClosedMessage,
    CreatedMessage,
    CreateMessage,
    ErrorMessage,
    HelloMessage,
    Leader,
    LeaderboardMessage,
    LeadersMessage,
    LobbyMessage,
    LobbyRoom,
    Message,
    MovedMessage,
    MoveMessage,
    PeekMessage,
    PresenceMessage,
    RematchAnswerMessage,
    RematchMessage,
    RematchRequestMessage,
    RematchResultMessage,
    RoomsMessage,
    SeatRating,
    SeatView,
    ServerMessage,
    StateMessage,
    SyncMessage,
    UndoAnswerMessage,
    UndoMessage,
    UndoRequestMessage,
    UndoResultMessage,
    WelcomeMessage,
    check_ready,
    parse_server,
    parse_url,
)
from .reach import may_connect
from .table_endings import Away, TableEndings
from .tokens import SeatKey, TokenStore
from .vocabulary import CloseReason, Phase

CLOSE_REASONS = {
    CloseReason.REPLACED: N_("replaced by a new connection"),
    CloseReason.SERVER_ERROR: N_("server error"),
    CloseReason.NOT_READING: N_("not reading"),
    CloseReason.NOT_KEPT: N_("the game could not be kept: come back in a moment"),
    CloseReason.RESTARTING: N_("the server is restarting: come back in a moment"),
    CloseReason.MOVED: N_("the game moved: come back in a moment"),
    CloseReason.ROOM_CLOSED: N_("the game was closed"),
    CloseReason.REFUSED: N_("the server refused the connection"),
    CloseReason.LISTED: N_("the list of games was sent"),
    CloseReason.CREATED: N_("the game was created"),
    CloseReason.LOOKED: N_("how the game stands was sent"),
    CloseReason.ELSEWHERE: N_("the game is run at another address of the service"),
}
"""The words a server closes a connection with (revision 3), in the player's language; any other
reason (an older server's English sentence) is shown as it is, made printable."""



class NetError(Exception):
    """The game cannot go on over the network; the message says why, in a player's words and
    language.

    ``NetError(template, code=..., retry=..., **params)``: ``str()`` is the message in the language
    current when it was raised; ``template`` and ``params`` stay on it, so ``sos_tui.i18n.explain``
    says it again in the current language. What the server said is already in the player's
    language (``protocol.said``) and comes as a parameter.
    """

    def __init__(self, template: str, /, code: str = "network", retry: bool = True, **params) -> None:
        if not params and ("{" in template or "}" in template):  # a plain message, not a template
            template = template.replace("{", "{{").replace("}", "}}")
        self.template, self.params = template, params
        try:
            message = explain(self)
        except (KeyError, IndexError, ValueError):  # a template that does not fit its parameters
            self.template, self.params, message = None, {}, template
        super().__init__(message)
        self.code = code
        self.retry = retry  # worth trying again (a lost connection) or not (a wrong code)


RETRY_LATER = frozenset({"unavailable"})
"""The refusals that say to come back in a moment (the server cannot keep games now, or its Redis
is away): worth trying again, as a lost connection is."""


def _closing(reason: str | None) -> str:
    """A close reason from the server, for this player: a word said in the player's language,
    anything else shown as it is, made printable."""
    word = CloseReason.read(reason)
    return _(CLOSE_REASONS[word]) if word is not None else _text(reason)


async def _open(address: Address, timeout: float) -> ClientConnection:
    if not may_connect(address):
        raise NetError(N_("this web page joins games on this computer only, not on {server} (whoever "
                          "runs sos-tui web may allow that server with --allow-server)"),
                       server=address.server, retry=False)
    try:
        return await connect(str(address), open_timeout=timeout, max_size=MAX_SERVER_FRAME, compression=None,
                             close_timeout=2, ping_interval=20, ping_timeout=20)
    except InvalidStatus as problem:
        status = problem.response.status_code
        body = printable(problem.response.body.decode("utf-8", "replace").strip())[:120]
        if body:
            raise NetError(N_("the server refused the connection ({status}: {body})"), status=status,
                           body=body) from None
        raise NetError(N_("the server refused the connection ({status})"), status=status) from None
    except (OSError, TimeoutError, InvalidHandshake) as problem:
        raise NetError(N_("cannot reach {server}: {why}"), server=address.server,
                       why=Unreachable(problem)) from None


class Unreachable:
    """Why a server could not be reached, in a player's words (``str`` in the current language):
    the common failures by name, any other by the system's own words, never an errno."""

    def __init__(self, problem: BaseException) -> None:
        self.problem = problem

    def __str__(self) -> str:
        problem = self.problem
        if isinstance(problem, ConnectionRefusedError) or _all_refused(problem):
            return _("nothing is listening there (is the game still hosted?)")
        if isinstance(problem, socket.gaierror):
            return _("no computer has that name")
        if isinstance(problem, TimeoutError):
            return _("no answer in time")
        if isinstance(problem, InvalidHandshake):
            return _("it does not answer as an sos-tui game server")
        if isinstance(problem, OSError) and problem.errno in (errno.ENETUNREACH, errno.EHOSTUNREACH):
            return _("the network cannot reach it")
        if isinstance(problem, OSError) and problem.strerror:
            return printable(problem.strerror)
        return printable(str(problem)) or type(problem).__name__


def _all_refused(problem: BaseException) -> bool:
    """asyncio's one error for a name with several addresses ("Multiple exceptions: [Errno 111]
    ..., [Errno 111] ..."), each of them refused."""
    codes = re.findall(r"\[Errno (\d+)\]", str(problem))
    return bool(codes) and all(int(code) == errno.ECONNREFUSED for code in codes)


async def _first_reply(ws: ClientConnection, timeout: float) -> ServerMessage:
    try:
        message = parse_server(await asyncio.wait_for(ws.recv(), timeout))
    except TimeoutError:
        raise NetError(N_("the server did not answer")) from None
    except ConnectionClosed as closed:
        raise NetError(N_("the server closed the connection ({reason})"),
                       reason=_closing(closed.rcvd.reason if closed.rcvd else "")) from None
    except ProtocolError as problem:
        raise NetError(N_("the server sent something unreadable: {error}"), retry=False,
                       error=problem) from None
    if isinstance(message, ErrorMessage):  # said in this player's language when the server's words are known
        raise NetError("{text}", code=message.code, retry=message.code in RETRY_LATER, text=message.text)
    return message


async def _greeted(address: Address, hello: str, timeout: float) -> tuple[ClientConnection, ServerMessage]:
    """Say ``hello`` at the game's ``address``, following the ``moved`` of a service (revision 7)
    to the process that runs the game, at most ``MAX_MOVES`` in a row: the connection and its
    first reply. A game's every connection starts at its own address, so a player whose process
    died is sent to the room's new owner."""
    for _hop in range(MAX_MOVES + 1):
        ws = await _open(address, timeout)
        try:
            await ws.send(hello)
            reply = await _first_reply(ws, timeout)
        except BaseException:
            await ws.close()
            raise
        if not isinstance(reply, MovedMessage):
            return ws, reply
        await ws.close()
        try:
            address = followed(address, reply.url)
        except ValueError as error:
            raise NetError("{error}", retry=False, error=error) from None
    raise NetError(N_("the service sent this game to another address more than {count} times in a row"),
                   retry=False, count=MAX_MOVES)


def _text(value, limit: int = 200) -> str:
    return printable(value if isinstance(value, str) else repr(value))[:limit]


async def create_room(server_url: str, size: int, mode: str, seats: Sequence[Seat | dict],
                      timeout: float = 10.0, public: bool = False,
                      clock: TimeControl | None = None, rated: bool = False,
                      bot: str | None = None) -> tuple[str, str | None, list[int]]:
    """Ask a ``sos-tui server`` for a new game: (its join URL, the creator's token, the creator's
    seats); ``bot``: the connected bot that takes its first open seat (revision 6). The server
    checks the settings; NetError if it refuses."""
    address = parse_url(server_url, need_code=False)
    specs = tuple(s if isinstance(s, Seat) else Seat(s.get("name"), s.get("kind"), s.get("level"))
                  for s in seats)
    ws = await _open(address, timeout)
    try:
        await ws.send(CreateMessage(size, mode, specs, public, clock, rated, bot).to_json())
        reply = await _first_reply(ws, timeout)
    finally:
        await ws.close()
    if not isinstance(reply, CreatedMessage) or not reply.room:
        raise NetError(N_("the server did not create the game"), retry=False)
    return f"{address.server}/{reply.room}", reply.token, list(reply.seats)


async def _ask_server(server_url: str, question, answer: type, timeout: float):
    """``question`` to the server's own address (``ws://HOST:PORT``): its ``answer``, or None."""
    address = parse_url(server_url, need_code=False)
    ws = await _open(address, timeout)
    try:
        await ws.send(question.to_json())
        reply = await _first_reply(ws, timeout)
    finally:
        await ws.close()
    return reply if isinstance(reply, answer) else None


async def read_lobby(server_url: str, timeout: float = 10.0) -> RoomsMessage:
    """The lobby of the ``sos-tui server`` at ``server_url`` (``ws://HOST:PORT``): its open public
    games and (revision 6) its connected bots; NetError if it cannot say."""
    reply = await _ask_server(server_url, LobbyMessage(), RoomsMessage, timeout)
    if reply is None:
        raise NetError(N_("the server did not list its games"), retry=False)
    return reply


async def list_rooms(server_url: str, timeout: float = 10.0) -> tuple[LobbyRoom, ...]:
    """The open public games of the ``sos-tui server`` at ``server_url``; NetError if it cannot say."""
    return (await read_lobby(server_url, timeout)).rooms


async def peek_room(url: str, token: str, timeout: float = 10.0) -> tuple[tuple[int, ...], StateMessage]:
    """How the game at ``url`` (``ws://HOST:PORT/CODE``) stands for the seats of ``token``,
    asked without taking them (a ``peek``): (those seats, its state). NetError if it cannot say
    (the game is gone: code ``no-room``)."""
    address = parse_url(url)
    ws = await _open(address, timeout)
    try:
        await ws.send(PeekMessage(token).to_json())
        welcome = await _first_reply(ws, timeout)
        state = await _first_reply(ws, timeout)
    finally:
        await ws.close()
    if not isinstance(welcome, WelcomeMessage) or not isinstance(state, StateMessage):
        raise NetError(N_("the server did not say how the game stands"), retry=False)
    return welcome.seats, state


async def leaderboard(server_url: str, mode: Mode | None = None, count: int = 20,
                      timeout: float = 10.0) -> tuple[Leader, ...]:
    """The best rated players of the ``sos-tui server`` at ``server_url`` (of ``mode``, or of
    every mode), best first; NetError if it cannot say."""
    reply = await _ask_server(server_url, LeaderboardMessage(mode, count), LeadersMessage, timeout)
    if reply is None:
        raise NetError(N_("the server did not send its leaderboard"), retry=False)
    return reply.leaders


_CHANGES = {"start": ChangeKind.START, "rematch": ChangeKind.START, "move": ChangeKind.MOVE,
            "undo": ChangeKind.UNDO, "drop": ChangeKind.DROP, "end": ChangeKind.END,
            "draw_offer": ChangeKind.DRAW_OFFER, "draw_declined": ChangeKind.DRAW_DECLINED}
"""The state messages' changes that change the game, as a session reports them."""
_ABOUT_A_SEAT = (ChangeKind.DROP, ChangeKind.DRAW_OFFER, ChangeKind.DRAW_DECLINED)
_ENDED_BY = {Termination.RESIGN: ChangeKind.DROP, Termination.TIME: ChangeKind.DROP,
             Termination.ABANDON: ChangeKind.DROP, Termination.AGREEMENT: ChangeKind.END,
             Termination.ABORT: ChangeKind.END}
"""How a game that ended while this terminal was away is told: as the change that ended it (a last
move, for a game that ran to its end)."""


class RemoteGame(TableEndings):
    """A game played on a server, seen from one terminal.

    ``connect`` joins (with the seat token kept for this player at this address, if any: the
    host's own seats with ``host``, else the seat joined as ``name``); ``updates`` yields each
    message after it is taken in; ``play`` sends a move of one of ``my_seats``. It is a
    ``session.GameSource``, as a local ``GameSession`` is: ``state``, ``seats``, ``record``,
    ``kind_to_move``, ``may`` and ``subscribe``. ``tokens`` is where seat tokens are kept: the
    data folder's unless another store is given.
    """

    def __init__(self, url: str, name: str | None, *, token: str | None = None,
                 tokens: TokenStore | None = None, host: bool = False, timeout: float = 10.0,
                 player_key: str | None = None) -> None:
        self.address = parse_url(url)
        self.url = str(self.address)
        self.name = name
        self.tokens = tokens if tokens is not None else TokenStore.default()
        # the player key (``playerkey``) for this server: from the one kept beside the tokens (none
        # with tokens in memory)
        if player_key is None and self.tokens.path is not None:
            player_key = key_for(_player_key(self.tokens.path.parent), self.address.server)
        self.player_key = player_key
        self.key = SeatKey.host(self.url) if host else SeatKey.player(self.url, name)
        # this player's seat kept for this address, unless another process of this account plays it now
        self.token = token or self.tokens.find(self.key)
        self.timeout = timeout
        self.ws: ClientConnection | None = None
        self.my_seats: tuple[int, ...] = ()
        self.role = "spectator"
        self.record: GameRecord | None = None
        self.state: GameState | None = None
        self.clocks: Clocks | None = None  # a timed room's, running here from the last state (``now``)
        self.phase: str = Phase.LOBBY  # as the server last said (a Phase, or a newer server's word)
        self.version = 0
        self.seat_views: tuple[SeatView, ...] = ()
        self.waiting_for: tuple[str, ...] = ()
        self.spectators = 0
        self.draw_offer: int | None = None  # the seat whose draw offer waits for an answer
        self.ratings: tuple[SeatRating | None, ...] = ()  # each seat's new rating, after a rated game
        self.away: tuple[Away, ...] = ()  # the people gone, as the last state said
        self.undo_request: UndoRequestMessage | None = None
        self.rematch_request: RematchRequestMessage | None = None
        self.last_error: ErrorMessage | None = None
        self.closed_reason: str | None = None
        self.ended = False  # the server closed the game for good (the host ended it, it stopped)
        self._listeners: list[Callable[[Change], None]] = []
        self._gap = False  # a state's moves did not fit the game held here: the whole game is asked for

    # -- the read API ----------------------------------------------------------------------
    @property
    def seats(self) -> tuple[Seat, ...]:
        """The seats from this terminal's side: its own are ``human``, other people ``remote``."""
        out = []
        for i, view in enumerate(self.seat_views):
            seat = view.seat
            name = seat.name or _("(open seat {number})").format(number=i + 1)
            if seat.is_computer:
                out.append(Seat(name, SeatKind.COMPUTER, seat.level))
            else:
                kind = SeatKind.HUMAN if i in self.my_seats else SeatKind.REMOTE
                out.append(Seat(name, kind, bot=seat.bot))
        return tuple(out)

    @property
    def open_seats(self) -> int:
        return sum(1 for view in self.seat_views if view.seat.name is None)

    @property
    def kind_to_move(self) -> SeatKind | None:
        state = self.state
        if state is None or state.is_over or not self.seat_views:
            return None
        return self.seats[state.to_move].kind

    @property
    def seat_to_move(self) -> Seat | None:
        state = self.state
        return None if state is None or state.is_over else self.seats[state.to_move]

    @property
    def my_turn(self) -> bool:
        return self.kind_to_move is SeatKind.HUMAN and not self.waiting_for

    @staticmethod
    def now() -> int:
        """The time ``clocks`` run on here (ms): this process's monotonic clock."""
        return monotonic_ms()

    @property
    def connected(self) -> bool:
        return self.ws is not None and self.closed_reason is None

    def subscribe(self, listener: Callable[[Change], None]) -> Callable[[], None]:
        """Call ``listener`` with each change of the game the server reports (a start or rematch,
        a move, an undo), as a ``GameSession``'s listeners are."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    # -- talking to the server ---------------------------------------------------------------
    async def connect(self) -> None:
        """Join the game; returns once the first state arrived. NetError if refused or unreachable."""
        self.closed_reason = None
        # a question asked of the last connection went with it: the server settled it as that one left
        self.undo_request = self.rematch_request = None
        hello = HelloMessage(self.name, self.token, minor=spoken_minor(), key=self.player_key)
        ws, welcome = await _greeted(self.address, hello.to_json(), self.timeout)
        try:
            if not isinstance(welcome, WelcomeMessage):
                raise NetError(N_("the server did not let this game in"), retry=False)
            self._welcome(welcome)
            self._apply(await _first_reply(ws, self.timeout))
            if self._gap:  # moves for a game this new connection does not hold: once more, whole
                self._gap = False
                await ws.send(SyncMessage().to_json())
                self._apply(await _first_reply(ws, self.timeout))
        except BaseException:
            await ws.close()
            raise
        self.ws = ws

    def _welcome(self, welcome: WelcomeMessage) -> None:
        self.my_seats = welcome.seats
        self.role = welcome.role
        if welcome.token is not None and self.my_seats:
            self.token = welcome.token
            self.tokens.keep(self.key, welcome.token)
            self.tokens.hold(self.key)

    def _apply(self, message: ServerMessage) -> None:
        """Take in what the server said."""
        match message:
            case StateMessage():
                self._state(message)
            case PresenceMessage():  # spectators came or went
                self.spectators = message.spectators
            case WelcomeMessage():  # a rematch: this connection's seats in the new game
                self._welcome(message)
            case RematchRequestMessage():
                self.rematch_request = message
            case RematchResultMessage():
                self.rematch_request = None
            case UndoRequestMessage():
                self.undo_request = message
            case UndoResultMessage():
                self.undo_request = None
            case ErrorMessage():
                self.last_error = message
            case ClosedMessage():
                self.closed_reason = message.text
                self.ended = message.template != SERVER_STOPPED  # a stopped server may come back

    def _state(self, message: StateMessage) -> None:
        kind = _CHANGES.get(message.change)
        record, state = self.record, self.state
        running = record.game_id if record is not None and state is not None and not state.is_over else None
        if message.since is not None:
            mirrored = self._mirrored(message)
            if mirrored is None:  # not the game held here: ask for it whole, tell nobody of this one
                self._gap = True
                return
            self.record, self.state = mirrored
        elif message.game is not None:
            self.record, self.state = message.game, message.game.state
        elif self.record is None:  # the lobby: an empty board of the game to come
            self.state = GameState.new(message.size, message.mode, len(message.seats))
        self.seat_views = message.seats
        self.draw_offer = message.draw_offer
        now = time.monotonic()
        self.away = tuple(Away(g.seat, now - g.away, now + g.claim_in) for g in message.gone)
        self.clocks = None if message.clocks is None else message.clocks.clocks(self.now())
        self.version = message.version
        self.phase = message.phase
        self.waiting_for = message.waiting_for
        self.spectators = message.spectators
        self.ratings = message.ratings
        if kind is None and running is not None and self.record.game_id == running and self.state.is_over:
            kind = _ENDED_BY.get(self.state.termination, ChangeKind.MOVE)  # it ended while this one was away
        seat = message.seat
        if kind is ChangeKind.DROP:  # who dropped: as the game replayed here says, not the field
            seat = self.state.drops[-1].seat if self.state.drops else None
        if kind in _ABOUT_A_SEAT and seat is None:
            kind = None  # a drop or a draw offer about nobody: nothing to tell
        if kind is not None and self.record is not None:
            change = Change(kind, self.state, self.record, message.move, seat)
            for listener in list(self._listeners):
                listener(change)

    def _mirrored(self, message: StateMessage) -> tuple[GameRecord, GameState] | None:
        """The game held here with the moves of ``message.since`` played by the engine; None when
        they do not start from it (another game, another version) or do not lead to ``message``'s."""
        since, record, state = message.since, self.record, self.state
        if (record is None or record.game_id != since.game_id or self.version != since.version
                or since.version + len(since.moves) != message.version
                or len(message.seats) != state.players):
            return None
        spent = None if record.clock is None else (*record.spent_ms, *(since.spent_ms or ()))
        try:
            for move in since.moves:
                state = state.play(move)
            return record.with_state(state, since.updated, spent), state
        except (IllegalMoveError, ValueError):  # ValueError: a timed game's moves without their times
            return None

    async def updates(self) -> AsyncIterator[ServerMessage]:
        """Every message from the server, taken in; ends with NetError when the connection goes
        (or the server sends a state that cannot be shown)."""
        ws = self.ws
        if ws is None:
            raise NetError(N_("not connected"))
        try:
            async for frame in ws:
                try:
                    message = parse_server(frame)
                except ProtocolError as problem:
                    if problem.code == "bad-state":
                        raise NetError(problem.template, retry=False, **problem.params) from None
                    continue  # a newer server's message this client cannot read
                self._apply(message)
                if self._gap:
                    self._gap = False
                    await self._send(SyncMessage())
                    continue
                yield message
        except ConnectionClosed:
            pass
        if ws.close_code == REPLACED:  # the same seat taken up elsewhere on purpose: not to fight over
            self.ws = None
            raise NetError(N_("your seat is played from another connection now (with your token)"),
                           code="replaced", retry=False)
        if self.closed_reason is None:
            self.closed_reason = _closing(ws.close_reason) if ws.close_reason \
                else _("the connection to the server was lost")
        self.ws = None
        raise NetError("{reason}", reason=self.closed_reason)

    async def _send(self, message: Message) -> None:
        if self.ws is None:
            raise NetError(N_("not connected to the server"))
        text = message.to_json()
        if len(text.encode()) > MAX_FRAME:
            raise ValueError("message too long")
        try:
            await self.ws.send(text)
        except ConnectionClosed:
            raise NetError(N_("the connection to the server was lost")) from None

    async def play(self, move: Move) -> None:
        """Send ``move``; NotYourTurnError or IllegalMoveError (checked here first) if it cannot be."""
        self.check(move)
        await self._send(MoveMessage(move, self.version))

    def check(self, move: Move) -> None:
        """NotYourTurnError or IllegalMoveError if ``move`` cannot be played from here now (the server
        checks again)."""
        state = self.state
        check_ready(state is None or self.phase == Phase.LOBBY, self.waiting_for)
        if not state.is_over and state.to_move not in self.my_seats:
            if self.my_seats:
                raise NotYourTurnError(N_("wait for {name} to move"), name=self.seats[state.to_move].name)
            raise NotYourTurnError(N_("spectators watch"))
        if not state.is_legal(move):
            state.play(move)  # raises the engine's own IllegalMoveError, with its reason
            raise IllegalMoveError("{move} is not a legal move", move=str(move))

    async def request_undo(self) -> None:
        await self._send(UndoMessage())

    async def answer_undo(self, accept: bool) -> None:
        self.undo_request = None
        await self._send(UndoAnswerMessage(accept))

    async def offer_rematch(self) -> None:
        """Once the game is over: offer a rematch, or agree to the one offered."""
        self.rematch_request = None
        await self._send(RematchMessage())

    async def answer_rematch(self, accept: bool) -> None:
        self.rematch_request = None
        await self._send(RematchAnswerMessage(accept))

    async def leave(self) -> None:
        """Leave on purpose (the others are told so; the seat stays this player's), and close."""
        with contextlib.suppress(NetError):
            await self._send(ByeMessage())
        await self.close()

    async def close(self) -> None:
        self.tokens.release(self.key)
        ws, self.ws = self.ws, None
        if ws is not None:
            await ws.close()
