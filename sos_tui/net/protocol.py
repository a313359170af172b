"""The wire format shared by the server and the client: JSON text frames, one object each, with a
``type``. docs/protocol.md describes every message; here each is a frozen dataclass, read from a
frame once at the edge (``parse_client`` on the server, ``parse_server`` on the client) into typed
values, and written with ``to_json``. Nobody else reads a raw message. No Textual, no websockets.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, Self
from urllib.parse import urlsplit

from sos_tui.engine import (
    GameRecord,
    GameState,
    InvalidMoveError,
    Mode,
    Move,
    RecordError,
    Seat,
    SeatKind,
    check_name,
    printable,
)
from sos_tui.engine.clock import ClockError, Clocks, TimeControl
from sos_tui.i18n import N_, _
from sos_tui.session import NotYourTurnError

from .errors import SERVER_MESSAGES, ProtocolError, quoted, said, template_fields
from .playerkey import check_key
from .seats import check_seats, person_name

PROTOCOL = 1
"""The major protocol version, sent by the client in ``hello`` and ``create`` and by the server in
``welcome``. Additions that old peers can ignore (new fields, new optional messages) keep it;
anything else raises it, and a server refuses a client whose number differs."""
PROTOCOL_MINOR = 7
"""The minor revision, sent in ``hello`` (what the client understands) and ``welcome`` (what the
server sends): 1 adds ``presence``, sent only to clients that said 1 or more; 2 adds states that
carry the moves ``since`` the game the client holds instead of the whole game, and ``sync`` to
ask for the whole game again, only for clients that said 2 or more; 3: the server closes a
connection with a word as its reason (``vocabulary.CloseReason``), not an English sentence; 4:
``resign``, ``abort``, ``draw``, ``draw-answer`` and ``claim``, and states that say how the game
ended, the draw offer waiting and the seats gone (fields older clients ignore); a room may have a
time control (``clock`` in ``create``), a ``state`` of a timed room carries each seat's time
(``clocks``), and ``peek`` asks for a room's state without taking a seat.; 5: ratings (the
player ``key`` in ``hello``, ``rated`` rooms, each seat's new rating in the final ``state``, rated
rooms and ratings in the lobby, ``leaderboard``); 6: bots (``bot``, a bot's standing connection,
and the ``invite`` it is sent; ``bots`` in the lobby's ``rooms``; ``bot`` in ``create`` to play
one; ``"bot": true`` on a bot's seat); 7: a client that follows ``moved`` (a process of a Redis
service that does not own the room sends it to the one that does, ``moved.py``)."""

DEFAULT_PORT = 7531
MAX_FRAME = 4096
REPLACED = 4000
"""The close code of a connection whose seats a newer connection with the same token took up: the
client does not connect again by itself, to fight over the seat."""
"""The largest message a server accepts from a client, in bytes (UTF-8)."""
MAX_SERVER_FRAME = 64 * 1024
"""The largest message a client accepts from a server (a state holds a whole game record)."""

CODE_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"
"""Crockford's base 32: no i, l, o or u, so a code read aloud is not misheard."""
CODE_LENGTH = 10  # 50 bits
_READ_AS = str.maketrans({"i": "1", "l": "1", "o": "0", "-": None, " ": None})


class WaitingError(NotYourTurnError):
    """No move now: seats are still open (the lobby), or a seated person has no connection."""


def check_ready(lobby: bool, waiting_for: Sequence[str]) -> None:
    """WaitingError unless a network game can take a move now: the one rule, checked by the server
    for every move and undo, and by a client before it sends one."""
    if lobby:
        raise WaitingError(N_("the game starts when every seat is taken"))
    if waiting_for:
        raise WaitingError(N_("waiting for {names} to reconnect"), names=", ".join(waiting_for))


def new_code() -> str:
    """A room code: 50 random bits from ``secrets``, as two groups of five (``7f3kq-x9m2c``)."""
    chars = "".join(secrets.choice(CODE_ALPHABET) for _i in range(CODE_LENGTH))
    return f"{chars[:5]}-{chars[5:]}"


def normal_code(text: str) -> str | None:
    """``text`` as a room code in its written form, or None if it cannot be one. Case, spaces and
    dashes do not matter; ``i``/``l`` read as 1 and ``o`` as 0."""
    chars = text.strip().lower().translate(_READ_AS)
    if len(chars) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in chars):
        return None
    return f"{chars[:5]}-{chars[5:]}"


def new_token() -> str:
    """A seat token: 128 random bits. Whoever holds it plays that seat."""
    return secrets.token_urlsafe(16)


def token_hash(token: str) -> str:
    """What a server keeps of a token (in memory and on disk): its SHA-256, never the token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True, slots=True)
class Address:
    """A parsed ``ws://HOST:PORT/CODE`` (or ``wss://``); ``code`` is None for a server's own URL."""

    scheme: str
    host: str
    port: int
    code: str | None

    @property
    def server(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{self.scheme}://{host}:{self.port}"

    def __str__(self) -> str:
        return f"{self.server}/{self.code}" if self.code else self.server


def parse_url(text: str, need_code: bool = True) -> Address:
    """``ws://HOST:PORT/CODE`` -> Address; ValueError saying what is wrong (in the player's language)."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError as error:
        raise ValueError(_("not a game address: {error}").format(error=printable(str(error)))) from None
    if parts.scheme not in ("ws", "wss"):
        raise ValueError(_("a game address starts with ws:// (or wss://), like ws://192.168.1.5:7531/7f3kq-x9m2c"))
    if not parts.hostname:
        raise ValueError(_("the game address has no host"))
    if port is None:
        port = DEFAULT_PORT if parts.scheme == "ws" else 443
    path = parts.path.strip("/")
    code = None
    if path:
        code = normal_code(path)
        if code is None:
            raise ValueError(_("{path!r} is not a room code (ten letters and digits, like 7f3kq-x9m2c)")
                             .format(path=path))
    elif need_code:
        raise ValueError(_("the game address has no room code: ws://HOST:PORT/CODE"))
    return Address(parts.scheme, parts.hostname, port, code)


def encode(message: Mapping) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


def decode(frame, limit: int = MAX_FRAME) -> dict:
    """One received frame -> its message; ProtocolError for anything the protocol does not allow
    at this level (binary, over ``limit`` bytes, not JSON, not an object with a string ``type``)."""
    if not isinstance(frame, str):
        raise ProtocolError("bad-frame", N_("send text frames holding JSON, not binary"))
    if len(frame) > limit or len(frame.encode("utf-8", "surrogatepass")) > limit:
        raise ProtocolError("too-big", N_("a message can be at most {limit} bytes"), limit=limit)
    try:
        message = json.loads(frame)
    except (ValueError, RecursionError):
        raise ProtocolError("bad-json", N_("not valid JSON")) from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise ProtocolError("bad-message", N_("a message is a JSON object with a \"type\""))
    return message




# -- the messages ------------------------------------------------------------------------------
def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _str(value, default: str | None = None) -> str | None:
    return value if isinstance(value, str) else default


def _text_field(data: dict, name: str, *, optional: bool = True) -> str | None:
    """``data[name]`` from a client: text (or, if ``optional``, null or missing); ProtocolError
    ``bad-message`` for anything else."""
    value = data.get(name)
    if isinstance(value, str) or (value is None and optional):
        return value
    raise ProtocolError("bad-message", N_("\"{field}\" must be text or null") if optional
                        else N_("\"{field}\" must be text"), field=name)


def _whole_field(data: dict, name: str) -> int | None:
    """``data[name]`` from a client: a whole number, null or missing; ProtocolError ``bad-message``
    for anything else."""
    value = data.get(name)
    if value is None or _whole(value):
        return value
    raise ProtocolError("bad-message", N_("\"{field}\" must be a whole number or null"), field=name)


def _indexes(value) -> tuple[int, ...]:
    return tuple(i for i in value if _whole(i)) if isinstance(value, list) else ()


def _check_protocol(data: dict) -> None:
    version = data.get("protocol")
    if version != PROTOCOL or isinstance(version, bool):
        raise ProtocolError("protocol", N_("this server speaks protocol {server}, your client {client}: use "
                                           "the same version of sos-tui as the host"),
                            server=PROTOCOL, client=str(version)[:20])


class Message:
    """A protocol message: ``to_json`` writes it; ``from_dict`` reads its checked fields from a
    decoded frame (ProtocolError if they are not what docs/protocol.md allows)."""

    type: ClassVar[str]

    def to_dict(self) -> dict:
        raise NotImplementedError

    def to_json(self) -> str:
        return encode(self.to_dict())

    @classmethod
    def from_dict(cls, data: dict) -> Self:
        return cls()


class Said(Message):
    """A message with text for a person (``error``, ``undo-result``, ``closed``): the English, and
    ``template`` and ``params`` when it is one of SERVER_MESSAGES. ``text`` says it in this
    player's language, escaped (``errors.said``)."""

    english: ClassVar[str]  # the field that holds the English text

    @property
    def text(self) -> str:
        return said(getattr(self, self.english), self.template, self.params)

    def _said(self) -> dict:
        words = {self.english: getattr(self, self.english)}
        if self.template is not None:
            words |= {"template": self.template, "params": dict(self.params or {})}
        return words

    @staticmethod
    def _words(why: str, params: dict) -> tuple[str, str | None, Mapping | None]:
        """The English of ``why`` with ``params`` (text ``quoted``), and the template fields that
        may go with it."""
        params = {name: quoted(value) if isinstance(value, str) else value for name, value in params.items()}
        fields = template_fields(why, **params)
        return why.format(**params) if params else why, fields.get("template"), fields.get("params")

    @staticmethod
    def _read(data: dict) -> tuple[str | None, Mapping | None]:
        template, params = data.get("template"), data.get("params")
        return _str(template), params if isinstance(params, dict) else None


# -- client to server
@dataclass(frozen=True)
class HelloMessage(Message):
    """The first message on a game's address: join as ``name`` (None: watch), with the seat
    ``token`` of an earlier welcome; ``minor``: the protocol revision the client understands (0
    when it does not say: a client of before ``presence``)."""

    type = "hello"
    name: str | None
    token: str | None = None
    client: str | None = "sos-tui"
    minor: int = PROTOCOL_MINOR
    key: str | None = None  # revision 5: the player key (``playerkey``), for rated games

    def to_dict(self) -> dict:
        return {"type": self.type, "protocol": PROTOCOL, "minor": self.minor, "name": self.name,
                "token": self.token, "client": self.client} | ({"key": self.key} if self.key else {})

    @classmethod
    def from_dict(cls, data: dict) -> Self:
        _check_protocol(data)
        name, token, client, key = (_text_field(data, field) for field in ("name", "token", "client", "key"))
        minor = _whole_field(data, "minor") or 0
        if name is not None:
            try:
                name = person_name(name)
            except ValueError as problem:
                raise ProtocolError.wrap("bad-name", problem) from None
        if key is not None and not check_key(key):
            raise ProtocolError("bad-key", N_("a player key is 32 to 64 letters, digits, - or _: delete the "
                                              "file player-key in your data folder to get a new one"))
        return cls(name, token, client, minor, key)


@dataclass(frozen=True)
class CreateMessage(Message):
    """A new room on a ``sos-tui server`` (at its own address); checked by ``check_seats``."""

    type = "create"
    size: int
    mode: Mode
    seats: tuple[Seat, ...]
    public: bool = False  # listed in the server's lobby while it has open seats
    clock: TimeControl | None = None  # revision 4: the room's time control (None: untimed)
    rated: bool = False  # revision 5: a finished game between keyed people rates them
    bot: str | None = None  # revision 6: the connected bot that takes the first open seat

    def to_dict(self) -> dict:
        clock = {} if self.clock is None else {"clock": str(self.clock)}
        bot = {} if self.bot is None else {"bot": self.bot}
        return {"type": self.type, "protocol": PROTOCOL, "size": self.size, "mode": str(self.mode),
                "seats": [s.to_dict(full=True) for s in self.seats], "public": self.public,
                "rated": self.rated} | clock | bot

    @classmethod
    def from_dict(cls, data: dict) -> Self:
        _check_protocol(data)
        public, clock, rated = data.get("public", False), data.get("clock"), data.get("rated", False)
        if not isinstance(public, bool) or not isinstance(rated, bool):
            raise ProtocolError("bad-room", N_("\"public\" and \"rated\" must be true or false"))
        try:
            control = None if clock is None else TimeControl.parse(clock)
        except ClockError as problem:
            raise ProtocolError.wrap("bad-room", problem) from None
        settings = check_seats(data.get("size"), data.get("mode"), data.get("seats"))
        bot = _text_field(data, "bot")
        if bot is not None and not any(seat.is_open for seat in settings[2]):
            raise ProtocolError("bad-room", N_("a game with a bot needs an open seat for it"))
        return cls(*settings, public, control, rated, None if bot is None else bot[:MAX_BOT_NAME])


@dataclass(frozen=True)
class LobbyMessage(Message):
    """The first message on a server's own address: which public games have open seats?"""

    type = "lobby"

    def to_dict(self) -> dict:
        return {"type": self.type, "protocol": PROTOCOL}

    @classmethod
    def from_dict(cls, data: dict) -> Self:
        _check_protocol(data)
        return cls()


MAX_BOT_NAME = 40
"""The longest bot name read from a client (``check_name`` says what it accepts)."""
MAX_BOT_GAMES = 32
"""The most games a bot may say it plays at once."""


@dataclass(frozen=True)
class BotMessage(Message):
    """Revision 6, the first message on a server's own address (``sos-tui bot``): a bot called
    ``name`` (its engine's ``engine`` id name, if it said one) plays up to ``games`` games at once.
    The connection stays open: the server lists the bot in its lobby and sends it an ``invite`` for
    each game a person makes against it, until the connection closes."""

    type = "bot"
    name: str
    engine: str | None = None
    games: int = 4

    def to_dict(self) -> dict:
        return {"type": self.type, "protocol": PROTOCOL, "name": self.name, "engine": self.engine,
                "games": self.games}

    @classmethod
    def from_dict(cls, data: dict) -> Self:
        _check_protocol(data)
        name, engine = _text_field(data, "name", optional=False), _text_field(data, "engine")
        games = _whole_field(data, "games")
        try:
            name = check_name(name)
        except ValueError as problem:
            raise ProtocolError.wrap("bad-name", problem) from None
        if games is not None and not 1 <= games <= MAX_BOT_GAMES:
            raise ProtocolError("bad-message", N_("\"games\" must be 1 to {limit}"), limit=MAX_BOT_GAMES)
        return cls(name, None if engine is None else printable(engine)[:MAX_BOT_NAME],
                   4 if games is None else games)


MAX_LEADERS = 100
"""The most players a ``leaders`` message lists (``leaderboard``'s ``count`` at most)."""


@dataclass(frozen=True)
class LeaderboardMessage(Message):
    """The first message on a server's own address (revision 5): the ``count`` best rated players
    of ``mode`` (None: of every mode)."""

    type = "leaderboard"
    mode: Mode | None = None
    count: int = 20

    def to_dict(self) -> dict:
        return {"type": self.type, "protocol": PROTOCOL, "mode": str(self.mode) if self.mode else None,
                "count": self.count}

    @classmethod
    def from_dict(cls, data: dict) -> Self:
        _check_protocol(data)
        mode, count = _text_field(data, "mode"), _whole_field(data, "count")
        if mode is not None and mode not in {str(m) for m in Mode}:
            raise ProtocolError("bad-message", N_("\"mode\" must be general, simple or null"))
        if count is not None and not 1 <= count <= MAX_LEADERS:
            raise ProtocolError("bad-message", N_("\"count\" must be 1 to {limit}"), limit=MAX_LEADERS)
        return cls(Mode(mode) if mode else None, 20 if count is None else count)


@dataclass(frozen=True)
class PeekMessage(Message):
    """Revision 4, the first message on a game's address (``sos-tui games``): how does the game
    of ``token``'s seats stand? Answered with a ``welcome`` naming those seats (and no token) and
    the room's ``state``, then the socket is closed: nobody is seated, and nobody is told."""

    type = "peek"
    token: str

    def to_dict(self) -> dict:
        return {"type": self.type, "protocol": PROTOCOL, "token": self.token}

    @classmethod
    def from_dict(cls, data: dict) -> Self:
        _check_protocol(data)
        return cls(_text_field(data, "token", optional=False)[:100])


@dataclass(frozen=True)
class MoveMessage(Message):
    """A move, chosen in the state of ``version`` (None: whatever the state is now)."""

    type = "move"
    move: Move
    version: int | None = None

    def to_dict(self) -> dict:
        return {"type": self.type, "move": str(self.move), "version": self.version}

    @classmethod
    def from_dict(cls, data: dict) -> Self:
        text, version = _text_field(data, "move", optional=False), _whole_field(data, "version")
        if len(text) > 16:
            raise ProtocolError("bad-move", N_("a move is notation like \"S b2\""))
        try:
            return cls(Move.parse(text), version)
        except InvalidMoveError as problem:
            raise ProtocolError.wrap("bad-move", problem) from None


@dataclass(frozen=True)
class UndoMessage(Message):
    """Ask to take back the last move."""

    type = "undo"

    def to_dict(self) -> dict:
        return {"type": self.type}


@dataclass(frozen=True)
class Answer(Message):
    """This player's answer to a question asked of the table (``UndoAnswerMessage``,
    ``RematchAnswerMessage``: siblings)."""

    accept: bool

    def to_dict(self) -> dict:
        return {"type": self.type, "accept": self.accept}

    @classmethod
    def from_dict(cls, data: dict) -> Self:
        accept = data.get("accept")
        if not isinstance(accept, bool):
            raise ProtocolError("bad-message", N_("\"accept\" must be true or false"))
        return cls(accept)


@dataclass(frozen=True)
class UndoAnswerMessage(Answer):
    type = "undo-answer"


@dataclass(frozen=True)
class RematchMessage(Message):
    """Once the game is over: offer a rematch (or agree to the one offered)."""

    type = "rematch"

    def to_dict(self) -> dict:
        return {"type": self.type}


@dataclass(frozen=True)
class RematchAnswerMessage(Answer):
    type = "rematch-answer"


@dataclass(frozen=True)
class ResignMessage(Message):
    """Resign the game (revision 4): ``seat``, one of the sender's (None: its seat to move, or
    its one seat still in)."""

    type = "resign"
    seat: int | None = None

    def to_dict(self) -> dict:
        return {"type": self.type, "seat": self.seat}

    @classmethod
    def from_dict(cls, data: dict) -> Self:
        return cls(_whole_field(data, "seat"))


@dataclass(frozen=True)
class AbortMessage(Message):
    """End the game with no result, before every person has moved (revision 4)."""

    type = "abort"

    def to_dict(self) -> dict:
        return {"type": self.type}


@dataclass(frozen=True)
class DrawMessage(Message):
    """Offer the other player a draw (revision 4; two players still in)."""

    type = "draw"

    def to_dict(self) -> dict:
        return {"type": self.type}


@dataclass(frozen=True)
class DrawAnswerMessage(Answer):
    """The other player's answer to a draw offer (revision 4)."""

    type = "draw-answer"


@dataclass(frozen=True)
class ClaimMessage(Message):
    """Claim the win (two players), or drop the seats of the others, gone longer than the server
    allows (revision 4)."""

    type = "claim"

    def to_dict(self) -> dict:
        return {"type": self.type}


@dataclass(frozen=True)
class ByeMessage(Message):
    """A seated person leaves on purpose (the seat stays theirs): the others are told so."""

    type = "bye"

    def to_dict(self) -> dict:
        return {"type": self.type}


@dataclass(frozen=True)
class PingMessage(Message):
    type = "ping"
    id: int | None = None

    def to_dict(self) -> dict:
        return {"type": self.type, "id": self.id}

    @classmethod
    def from_dict(cls, data: dict) -> Self:
        return cls(_whole_field(data, "id"))


@dataclass(frozen=True)
class SyncMessage(Message):
    """Revision 2: send the whole game again (the moves of a state did not fit the game held here)."""

    type = "sync"

    def to_dict(self) -> dict:
        return {"type": self.type}


# -- server to client
MAX_LOBBY = 100
"""The most games a ``rooms`` message lists (a client reads no more)."""


@dataclass(frozen=True)
class LobbyRoom:
    """One open public game in a ``rooms`` message: its code, board, how many seats and how many
    still free, and the names of the people seated there, waiting; revision 5: whether it is
    ``rated``, and the rating of each person waiting (None: none yet), as ``waiting`` lists them."""

    room: str
    size: int
    mode: Mode
    seats: int
    free: int
    waiting: tuple[str, ...]
    rated: bool = False
    ratings: tuple[int | None, ...] = ()

    def to_dict(self) -> dict:
        return {"room": self.room, "size": self.size, "mode": str(self.mode), "seats": self.seats,
                "free": self.free, "waiting": list(self.waiting), "rated": self.rated,
                "ratings": list(self.ratings)}

    @property
    def people(self) -> list[str]:
        """The people waiting, each with their rating when they have one: ``Ana (1523)``."""
        ratings = self.ratings if len(self.ratings) == len(self.waiting) else (None,) * len(self.waiting)
        return [name if rating is None else f"{name} ({rating})"
                for name, rating in zip(self.waiting, ratings, strict=True)]

    @classmethod
    def from_dict(cls, data) -> LobbyRoom | None:
        """A listed game as the server sent it, or None if it is not one (it is left out)."""
        if not isinstance(data, dict):
            return None
        code, size, seats, free, waiting = (data.get(k) for k in ("room", "size", "seats", "free", "waiting"))
        code = normal_code(code) if isinstance(code, str) and len(code) <= 20 else None
        try:
            mode = Mode(data.get("mode"))
        except ValueError:
            return None
        if code is None or not all(_whole(n) for n in (size, seats, free)) or not isinstance(waiting, list):
            return None
        if not (3 <= size <= 26 and 2 <= seats <= 6 and 1 <= free <= seats):
            return None
        names = tuple(printable(n)[:24] for n in waiting[:6] if isinstance(n, str))
        ratings = data.get("ratings")
        ratings = tuple(r if _whole(r) and 0 <= r < 10**6 else None for r in ratings[:6]) \
            if isinstance(ratings, list) and len(ratings) == len(names) else ()
        return cls(code, size, mode, seats, free, names, data.get("rated") is True, ratings)


@dataclass(frozen=True)
class LobbyBot:
    """Revision 6, one connected bot in a ``rooms`` message: its name, its engine's id name (None:
    it said none), and how many more games it can take now (``free``) of the ``games`` it plays at
    once."""

    name: str
    engine: str | None
    free: int
    games: int

    def to_dict(self) -> dict:
        return {"name": self.name, "engine": self.engine, "free": self.free, "games": self.games}

    @classmethod
    def from_dict(cls, data) -> LobbyBot | None:
        """A listed bot as the server sent it, or None if it is not one (it is left out)."""
        if not isinstance(data, dict) or not isinstance(data.get("name"), str):
            return None
        free, games, engine = data.get("free"), data.get("games"), data.get("engine")
        if not (_whole(free) and _whole(games) and 0 <= free <= games <= MAX_BOT_GAMES):
            return None
        engine = printable(engine)[:MAX_BOT_NAME] if isinstance(engine, str) else None
        return cls(printable(data["name"])[:24], engine, free, games)


@dataclass(frozen=True)
class RoomsMessage(Message):
    """The answer to ``lobby``: the open public games (at most ``MAX_LOBBY``) and, revision 6, the
    connected bots (at most ``MAX_LOBBY``); then the server closes the socket."""

    type = "rooms"
    rooms: tuple[LobbyRoom, ...]
    bots: tuple[LobbyBot, ...] = ()

    def to_dict(self) -> dict:
        return {"type": self.type, "rooms": [r.to_dict() for r in self.rooms[:MAX_LOBBY]],
                "bots": [b.to_dict() for b in self.bots[:MAX_LOBBY]]}

    @classmethod
    def from_dict(cls, data: dict) -> Self:
        rooms, bots = data.get("rooms"), data.get("bots")
        listed = (LobbyRoom.from_dict(r) for r in (rooms[:MAX_LOBBY] if isinstance(rooms, list) else ()))
        found = (LobbyBot.from_dict(b) for b in (bots[:MAX_LOBBY] if isinstance(bots, list) else ()))
        return cls(tuple(r for r in listed if r is not None), tuple(b for b in found if b is not None))


@dataclass(frozen=True)
class ListedMessage(Message):
    """Revision 6, the answer to ``bot``: the bot is listed in the lobby as ``name``; the
    connection stays open for its ``invite`` messages."""

    type = "listed"
    name: str

    def to_dict(self) -> dict:
        return {"type": self.type, "name": self.name}

    @classmethod
    def from_dict(cls, data: dict) -> Self:
        return cls(_str(data.get("name"), ""))


@dataclass(frozen=True)
class InviteMessage(Message):
    """Revision 6, to a bot: a person made a game against it; join the room ``room`` with
    ``token`` (a ``hello`` on the room's address) to play ``seats``."""

    type = "invite"
    room: str
    token: str
    seats: tuple[int, ...]

    def to_dict(self) -> dict:
        return {"type": self.type, "room": self.room, "token": self.token, "seats": list(self.seats)}

    @classmethod
    def from_dict(cls, data: dict) -> Self:
        room, token = data.get("room"), data.get("token")
        code = normal_code(room) if isinstance(room, str) and len(room) <= 20 else None
        if code is None or not isinstance(token, str) or not token or len(token) > 100:
            raise ProtocolError("bad-message", N_("an invite names a room and a token"))
        return cls(code, token, _indexes(data.get("seats")))


@dataclass(frozen=True)
class Leader:
    """One rated player in a ``leaders`` message: the name the key holds on that server, the mode,
    the rating shown (``ratings.shown_rating``), its ± and whether it is still provisional."""

    name: str
    mode: Mode
    rating: int
    deviation: int
    provisional: bool
    games: int

    def to_dict(self) -> dict:
        return {"name": self.name, "mode": str(self.mode), "rating": self.rating, "deviation": self.deviation,
                "provisional": self.provisional, "games": self.games}

    @classmethod
    def from_dict(cls, data) -> Leader | None:
        """A player as the server sent it, or None if it is not one (it is left out)."""
        if not isinstance(data, dict) or not isinstance(data.get("name"), str):
            return None
        numbers = [data.get(k) for k in ("rating", "deviation", "games")]
        try:
            mode = Mode(data.get("mode"))
        except ValueError:
            return None
        if not all(_whole(n) and 0 <= n < 10**6 for n in numbers):
            return None
        rating, deviation, games = numbers
        provisional = data.get("provisional") is True
        return cls(printable(data["name"])[:24], mode, rating, deviation, provisional, games)


@dataclass(frozen=True)
class LeadersMessage(Message):
    """The answer to ``leaderboard`` (revision 5), best first; then the server closes the socket."""

    type = "leaders"
    leaders: tuple[Leader, ...]

    def to_dict(self) -> dict:
        return {"type": self.type, "leaders": [p.to_dict() for p in self.leaders[:MAX_LEADERS]]}

    @classmethod
    def from_dict(cls, data: dict) -> Self:
        listed = data.get("leaders")
        read = (Leader.from_dict(p) for p in (listed[:MAX_LEADERS] if isinstance(listed, list) else ()))
        return cls(tuple(p for p in read if p is not None))


@dataclass(frozen=True)
class SeatRating:
    """A seat's new rating after a rated game (revision 5, in the final ``state``): the rating
    shown, how much it moved, and whether it is still provisional."""

    rating: int
    change: int
    provisional: bool

    @property
    def text(self) -> str:
        """``1523? (+23)``."""
        return f"{self.rating}{'?' if self.provisional else ''} ({self.change:+d})"

    def to_dict(self) -> dict:
        return {"rating": self.rating, "change": self.change, "provisional": self.provisional}

    @classmethod
    def read(cls, data) -> SeatRating | None:
        if not isinstance(data, dict):
            return None
        rating, change = data.get("rating"), data.get("change")
        if not (_whole(rating) and _whole(change) and abs(rating) < 10**6 and abs(change) < 10**6):
            return None
        return cls(rating, change, data.get("provisional") is True)


@dataclass(frozen=True)
class WelcomeMessage(Message):
    """Seated (``seats`` this connection plays, with the ``token`` to get them back) or watching."""

    type = "welcome"
    room: str
    seats: tuple[int, ...]
    token: str | None
    minor: int = PROTOCOL_MINOR  # the server's revision (0: it sends no presence)

    @property
    def role(self) -> str:
        return "player" if self.seats else "spectator"

    def to_dict(self) -> dict:
        return {"type": self.type, "protocol": PROTOCOL, "minor": self.minor, "room": self.room,
                "seats": list(self.seats), "token": self.token, "role": self.role}

    @classmethod
    def from_dict(cls, data: dict) -> Self:
        minor = data.get("minor")
        return cls(_str(data.get("room"), ""), _indexes(data.get("seats")), _str(data.get("token")),
                   minor if _whole(minor) else 0)


@dataclass(frozen=True)
class CreatedMessage(Message):
    """The room a ``create`` made: join it with ``token`` to play ``seats``."""

    type = "created"
    room: str
    token: str | None
    seats: tuple[int, ...]

    def to_dict(self) -> dict:
        return {"type": self.type, "room": self.room, "token": self.token, "seats": list(self.seats)}

    @classmethod
    def from_dict(cls, data: dict) -> Self:
        return cls(_str(data.get("room"), ""), _str(data.get("token")), _indexes(data.get("seats")))


@dataclass(frozen=True)
class MovedMessage(Message):
    """Revision 7: the room is run by another process of the service, at ``url`` (``ws://HOST:PORT/CODE``):
    say the same ``hello`` there. Sent only to clients that said ``minor`` 7 or more; then closed."""

    type = "moved"
    url: str

    def to_dict(self) -> dict:
        return {"type": self.type, "url": self.url}

    @classmethod
    def from_dict(cls, data: dict) -> Self:
        return cls(_str(data.get("url"), ""))


@dataclass(frozen=True)
class SeatView:
    """One seat in a ``state``: who sits there, as the record keeps it (``seat``: a person is
    ``human`` wherever they play; the name is None while the seat is open; revision 6: ``"bot":
    true`` for a bot's seat), and whether a person is connected (a computer always is)."""

    seat: Seat
    connected: bool = True

    def to_dict(self) -> dict:
        return {**self.seat.to_dict(full=True), "connected": self.connected}

    @classmethod
    def from_dict(cls, data: dict) -> Self:
        """Read as kindly as the rest of a ``state``: a kind this version does not know (a newer
        server's) is a person, a name or level that is not text is none."""
        kind = SeatKind.COMPUTER if data.get("kind") == SeatKind.COMPUTER else SeatKind.HUMAN
        connected = data.get("connected")
        return cls(Seat(_str(data.get("name")), kind, _str(data.get("level")), bot=data.get("bot") is True),
                   connected if isinstance(connected, bool) else True)


@dataclass(frozen=True)
class Since:
    """Revision 2: what a ``state`` holds instead of the whole game, for a client that holds the
    game ``game_id`` at ``version``: the ``moves`` played since (none: the game is as it was), and
    the record's ``updated`` stamp after them; in a timed game (revision 4) the ``spent_ms`` of
    each of those moves."""

    game_id: str
    version: int
    moves: tuple[Move, ...]
    updated: str
    spent_ms: tuple[int, ...] | None = None

    def to_dict(self) -> dict:
        spent = {} if self.spent_ms is None else {"spent_ms": list(self.spent_ms)}
        return {"id": self.game_id, "version": self.version, "moves": [str(m) for m in self.moves],
                "updated": self.updated} | spent

    @classmethod
    def from_dict(cls, data) -> Self:
        """ProtocolError ``bad-state`` unless ``data`` is one (moves in notation, a whole version)."""
        data = data if isinstance(data, dict) else {}
        game_id, version, moves, updated = (data.get(k) for k in ("id", "version", "moves", "updated"))
        spent = data.get("spent_ms")
        shaped = (isinstance(game_id, str) and _whole(version) and isinstance(updated, str)
                  and isinstance(moves, list) and all(isinstance(m, str) for m in moves)
                  and (spent is None or (isinstance(spent, list) and len(spent) == len(moves)
                       and all(map(_whole, spent)))))
        try:
            played = tuple(Move.parse(m) for m in moves) if shaped else None
        except InvalidMoveError:
            played = None
        if played is None:
            raise ProtocolError("bad-state", N_("the server sent moves that do not fit its game"))
        return cls(game_id[:64], version, played, updated[:40], None if spent is None else tuple(spent))


@dataclass(frozen=True)
class ClockView:
    """Revision 4: a timed room's clocks in a ``state``: its ``control``, each seat's time left
    when the state was sent (``remaining_ms``) and the seat whose time runs (None: none runs, the
    game is over). A client counts the running seat's time down from when the state arrived: it
    needs no clock in step with the server's."""

    control: TimeControl
    remaining_ms: tuple[int, ...]
    running: int | None

    @classmethod
    def of(cls, clocks: Clocks, now: int) -> Self:
        running = clocks.running if clocks.since is not None else None
        return cls(clocks.control, tuple(clocks.remaining(s, now) for s in range(clocks.seats)), running)

    def clocks(self, received: int) -> Clocks:
        """The clocks as they run here from ``received`` (this process's time in ms)."""
        since = None if self.running is None else received
        return Clocks(self.control, self.remaining_ms, self.running, since)

    def to_dict(self) -> dict:
        return {"control": str(self.control), "remaining_ms": list(self.remaining_ms),
                "running": self.running}

    @classmethod
    def from_dict(cls, data, seats: int) -> Self | None:
        """The clocks of ``data`` for a room of ``seats``; None when they are not (a state is read
        kindly: a game with clocks that cannot be read is shown without them)."""
        data = data if isinstance(data, dict) else {}
        remaining, running = data.get("remaining_ms"), data.get("running")
        try:
            control = TimeControl.from_dict(data.get("control"))
        except ClockError:
            return None
        if not isinstance(remaining, list) or len(remaining) != seats or not all(map(_whole, remaining)):
            return None
        return cls(control, tuple(remaining), running if _whole(running) and running < seats else None)


@dataclass(frozen=True)
class GoneSeat:
    """Revision 4: a person's seat whose connection went ``away`` seconds before the state was
    sent; the others may claim it ``claim_in`` seconds after (0: now)."""

    seat: int
    away: float
    claim_in: float

    def to_dict(self) -> dict:
        return {"seat": self.seat, "for": round(self.away, 1), "claim_in": round(self.claim_in, 1)}

    @classmethod
    def read(cls, data) -> Self | None:
        """One entry of ``gone``, or None when it is not one."""
        if not isinstance(data, dict):
            return None
        seat, away, claim_in = data.get("seat"), data.get("for"), data.get("claim_in")
        numbers = all(isinstance(n, int | float) and not isinstance(n, bool) and 0 <= n < 10**9
                      for n in (away, claim_in))
        return cls(seat, float(away), float(claim_in)) if _whole(seat) and numbers else None


@dataclass(frozen=True)
class StateMessage(Message):
    """The room as it stands, after every change. ``game`` is replayed by the engine when read
    (None in the lobby, and when ``since`` holds the moves to play on the game the client holds:
    revision 2); ``waiting_for`` holds names made printable."""

    type = "state"
    room: str
    phase: str  # lobby | playing | over
    size: int
    mode: Mode
    version: int
    to_move: int | None
    change: str  # start | move | undo | join | leave | quit (left on purpose) | rematch
    move: Move | None
    seats: tuple[SeatView, ...]
    waiting_for: tuple[str, ...]
    spectators: int
    game: GameRecord | None
    since: Since | None = None
    seat: int | None = None  # revision 4: the seat a drop, a draw offer or its decline is about
    draw_offer: int | None = None  # revision 4: the seat whose draw offer waits for an answer
    gone: tuple[GoneSeat, ...] = ()  # revision 4: the people's seats with no connection
    termination: str | None = None  # revision 4: how the game ended (its record says it too)
    clocks: ClockView | None = None  # revision 4: a timed room's clocks
    ratings: tuple[SeatRating | None, ...] = ()  # revision 5: each seat's rating after a rated game

    def to_dict(self) -> dict:
        since = {} if self.since is None else {"since": self.since.to_dict()}
        since |= {} if self.clocks is None else {"clocks": self.clocks.to_dict()}
        return {
            "type": self.type, "room": self.room, "phase": self.phase, "size": self.size,
            "mode": str(self.mode), "version": self.version, "to_move": self.to_move, "change": self.change,
            "move": str(self.move) if self.move is not None else None,
            "seats": [s.to_dict() for s in self.seats], "waiting_for": list(self.waiting_for),
            "spectators": self.spectators, "game": self.game.to_dict() if self.game is not None else None,
            "seat": self.seat, "draw_offer": self.draw_offer, "gone": [g.to_dict() for g in self.gone],
            "termination": self.termination,
        } | since | self._ratings()  # fmt: skip

    def _ratings(self) -> dict:
        return {"ratings": [r.to_dict() if r else None for r in self.ratings]} if self.ratings else {}

    @classmethod
    def from_dict(cls, data: dict) -> Self:
        seats = data.get("seats")
        if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
            raise ProtocolError("bad-state", N_("the server sent a state without seats"))
        views = tuple(SeatView.from_dict(s) for s in seats)
        since = Since.from_dict(data["since"]) if data.get("since") is not None else None
        game, size, mode = cls._game(data.get("game"), len(views)), data.get("size"), data.get("mode")
        if game is not None:
            size, mode = game.size, game.mode
        else:
            try:
                GameState.new(size, mode, len(views))
                mode = Mode(mode)
            except (TypeError, ValueError):
                raise ProtocolError("bad-state",
                                    N_("the server sent a game with impossible settings")) from None
        try:
            move = Move.parse(data.get("move")) if isinstance(data.get("move"), str) else None
        except InvalidMoveError:
            move = None
        waiting = data.get("waiting_for")
        to_move, version, spectators = data.get("to_move"), data.get("version"), data.get("spectators")
        seat, offer = (cls._seat(data.get(key), len(views)) for key in ("seat", "draw_offer"))
        listed = data.get("gone")
        gone = tuple(g for g in (GoneSeat.read(g) for g in (listed[:6] if isinstance(listed, list) else ()))
                     if g is not None and g.seat < len(views))
        clocks = None if data.get("clocks") is None else ClockView.from_dict(data["clocks"], len(views))
        return cls(
            _str(data.get("room"), ""), _str(data.get("phase"), "playing"), size, mode,
            version if _whole(version) else 0, to_move if _whole(to_move) else None,
            _str(data.get("change"), ""), move, views,
            tuple(printable(n if isinstance(n, str) else repr(n))[:40] for n in waiting)
            if isinstance(waiting, list) else (),
            spectators if _whole(spectators) else 0, game, since, seat, offer, gone,
            _str(data.get("termination")), clocks,
            cls._read_ratings(data.get("ratings"), len(views)))  # fmt: skip

    @staticmethod
    def _read_ratings(value, seats: int) -> tuple[SeatRating | None, ...]:
        if not isinstance(value, list) or len(value) != seats:
            return ()
        return tuple(SeatRating.read(r) for r in value)

    @staticmethod
    def _seat(value, seats: int) -> int | None:
        return value if _whole(value) and 0 <= value < seats else None

    @staticmethod
    def _game(game, seats: int) -> GameRecord | None:
        if game is None:
            return None
        try:
            record = GameRecord.from_dict(game)
            record.state  # noqa: B018 (replayed here, once: a game that does not replay is refused)
        except RecordError as problem:
            raise ProtocolError("bad-state", N_("the server sent a game that does not replay: {error}"),
                                error=problem) from None
        if len(record.players) != seats:
            raise ProtocolError("bad-state", N_("the server's seats do not match its game"))
        return record


@dataclass(frozen=True)
class PresenceMessage(Message):
    """How many are watching now (revision 1): sent for spectators coming and going, instead of a
    whole ``state`` each, at most a few times a second, to clients that said ``minor`` 1."""

    type = "presence"
    spectators: int

    def to_dict(self) -> dict:
        return {"type": self.type, "spectators": self.spectators}

    @classmethod
    def from_dict(cls, data: dict) -> Self:
        spectators = data.get("spectators")
        return cls(spectators if _whole(spectators) and spectators >= 0 else 0)


@dataclass(frozen=True)
class Asking(Message):
    """Seat ``by`` (``name``) asks the others something (``UndoRequestMessage``,
    ``RematchRequestMessage``: siblings, so neither is taken for the other); ``vote``: this
    connection is asked to answer."""

    by: int | None
    name: str
    vote: bool

    def to_dict(self) -> dict:
        return {"type": self.type, "by": self.by, "name": self.name, "vote": self.vote}

    @classmethod
    def from_dict(cls, data: dict) -> Self:
        by, name = data.get("by"), data.get("name")
        return cls(by if _whole(by) else None, name if isinstance(name, str) else repr(name),
                   data.get("vote") is True)


@dataclass(frozen=True)
class UndoRequestMessage(Asking):
    """Seat ``by`` (``name``) asks to undo."""

    type = "undo-request"


@dataclass(frozen=True)
class RematchRequestMessage(Asking):
    """Seat ``by`` (``name``) offers a rematch."""

    type = "rematch-request"


@dataclass(frozen=True)
class Settled(Said):
    """A question asked of the table is settled: ``accepted`` or not, and why (``reason``)
    (``UndoResultMessage``, ``RematchResultMessage``: siblings)."""

    english = "reason"
    accepted: bool
    reason: str
    template: str | None = None
    params: Mapping | None = None

    @classmethod
    def of(cls, accepted: bool, why: str, /, **params) -> Self:
        """Settled with ``why`` (one of SERVER_MESSAGES, with ``params``)."""
        return cls(accepted, *cls._words(why, params))

    def to_dict(self) -> dict:
        return {"type": self.type, "accepted": self.accepted, **self._said()}

    @classmethod
    def from_dict(cls, data: dict) -> Self:
        return cls(data.get("accepted") is True, _str(data.get("reason"), ""), *cls._read(data))


@dataclass(frozen=True)
class UndoResultMessage(Settled):
    type = "undo-result"


@dataclass(frozen=True)
class RematchResultMessage(Settled):
    type = "rematch-result"


@dataclass(frozen=True)
class PongMessage(PingMessage):
    """The answer to a ``ping``, with its ``id``."""

    type = "pong"

    @classmethod
    def from_dict(cls, data: dict) -> Self:  # from a server: read leniently, as every answer is
        number = data.get("id")
        return cls(number if _whole(number) else None)


@dataclass(frozen=True)
class ErrorMessage(Said):
    """A refusal: ``code`` for a program, ``message`` in English for a person."""

    type = "error"
    english = "message"
    code: str
    message: str
    template: str | None = None
    params: Mapping | None = None

    @classmethod
    def of(cls, code: str, template: str, /, **params) -> Self:
        return cls(code, *cls._words(template, params))

    @classmethod
    def refusing(cls, problem: ProtocolError) -> Self:
        return cls.of(problem.code, problem.template, **problem.params)

    def to_dict(self) -> dict:
        return {"type": self.type, "code": self.code, **self._said()}

    @classmethod
    def from_dict(cls, data: dict) -> Self:
        message = data.get("message")
        return cls(_str(data.get("code"), ""), message if isinstance(message, str) else repr(message),
                   *cls._read(data))


@dataclass(frozen=True)
class ClosedMessage(Said):
    """The room ends; the server closes the socket next."""

    type = "closed"
    english = "reason"
    reason: str
    template: str | None = None
    params: Mapping | None = None

    @classmethod
    def of(cls, why: str, /, **params) -> Self:
        return cls(*cls._words(why, params))

    def to_dict(self) -> dict:
        return {"type": self.type, **self._said()}

    @classmethod
    def from_dict(cls, data: dict) -> Self:
        return cls(_str(data.get("reason"), ""), *cls._read(data))


ClientMessage = (HelloMessage | CreateMessage | LobbyMessage | LeaderboardMessage | BotMessage | MoveMessage
                 | UndoMessage | UndoAnswerMessage | RematchMessage | RematchAnswerMessage | ByeMessage
                 | PingMessage | SyncMessage | ResignMessage | AbortMessage | DrawMessage | DrawAnswerMessage
                 | ClaimMessage | PeekMessage)
ServerMessage = (WelcomeMessage | CreatedMessage | RoomsMessage | LeadersMessage | StateMessage
                 | PresenceMessage | UndoRequestMessage | UndoResultMessage | RematchRequestMessage
                 | RematchResultMessage | PongMessage | ErrorMessage | ClosedMessage | ListedMessage
                 | InviteMessage | MovedMessage)
_FROM_CLIENT = {m.type: m for m in ClientMessage.__args__}
_FROM_SERVER = {m.type: m for m in ServerMessage.__args__}
_FIRST = (HelloMessage.type, CreateMessage.type, LobbyMessage.type, LeaderboardMessage.type, PeekMessage.type,
          BotMessage.type)


def parse_client(frame, *, first: bool = False) -> ClientMessage:
    """A frame from a client, read and checked; ProtocolError to refuse it. ``first``: the
    connection's first message, which must be hello (or create), as no later one may be."""
    data = decode(frame, MAX_FRAME)
    kind = data["type"]
    if first and kind not in _FIRST:
        raise ProtocolError("hello-first", N_("the first message must be hello (or create)"))
    if not first and kind in _FIRST:
        raise ProtocolError("bad-message", N_("{kind} is only the first message"), kind=kind)
    if kind not in _FROM_CLIENT:
        raise ProtocolError("unknown-type", N_("unknown message type {kind!r}"), kind=kind[:40])
    return _FROM_CLIENT[kind].from_dict(data)


def parse_server(frame) -> ServerMessage:
    """A frame from a server, read and checked: ProtocolError ``unknown-type`` for a message this
    client does not know (a newer server's: skip it), ``bad-state`` for a state that cannot be
    shown, any other code for a frame that is not a message."""
    data = decode(frame, MAX_SERVER_FRAME)
    kind = _FROM_SERVER.get(data["type"])
    if kind is None:
        raise ProtocolError("unknown-type", N_("unknown message type {kind!r}"), kind=data["type"][:40])
    return kind.from_dict(data)


__all__ = [
    "DEFAULT_PORT",
    "MAX_FRAME",
    "MAX_SERVER_FRAME",
    "PROTOCOL",
    "PROTOCOL_MINOR",
    "SERVER_MESSAGES",
    "AbortMessage",
    "Address",
    "BotMessage",
    "ByeMessage",
    "ClaimMessage",
    "ClientMessage",
    "ClockView",
    "ClosedMessage",
    "CreateMessage",
    "CreatedMessage",
    "DrawAnswerMessage",
    "DrawMessage",
    "ErrorMessage",
    "GoneSeat",
    "HelloMessage",
    "InviteMessage",
    "Leader",
    "LeaderboardMessage",
    "LeadersMessage",
    "ListedMessage",
    "LobbyBot",
    "LobbyMessage",
    "LobbyRoom",
    "Message",
    "MoveMessage",
    "MovedMessage",
    "PeekMessage",
    "PingMessage",
    "PongMessage",
    "PresenceMessage",
    "ProtocolError",
    "RematchAnswerMessage",
    "RematchMessage",
    "RematchRequestMessage",
    "RematchResultMessage",
    "ResignMessage",
    "RoomsMessage",
    "SeatRating",
    "SeatView",
    "ServerMessage",
    "Since",
    "StateMessage",
    "SyncMessage",
    "UndoAnswerMessage",
    "UndoMessage",
    "UndoRequestMessage",
    "UndoResultMessage",
    "WaitingError",
    "WelcomeMessage",
    "check_ready",
    "decode",
    "encode",
    "new_code",
    "new_token",
    "normal_code",
    "parse_client",
    "parse_server",
    "parse_url",
    "said",
]  # fmt: skip
