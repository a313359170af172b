"""The wire format shared by the server and the client: JSON text frames, one object each, with a
``type``. docs/protocol.md describes every message; this module holds the constants and the few
functions both sides use to read and write them. No Textual, no websockets.
"""

from __future__ import annotations

import json
import secrets
import string
from dataclasses import dataclass
from urllib.parse import urlsplit

from sos_tui.engine.text import printable, shorten
from sos_tui.i18n import N_, _

PROTOCOL = 1
"""The major protocol version, sent by the client in ``hello`` and ``create`` and by the server in
``welcome``. Additions that old peers can ignore (new fields, new optional messages) keep it;
anything else raises it, and a server refuses a client whose number differs."""

DEFAULT_PORT = 7531
MAX_FRAME = 4096
"""The largest message a server accepts from a client, in bytes (UTF-8)."""
MAX_SERVER_FRAME = 64 * 1024
"""The largest message a client accepts from a server (a state holds a whole game record)."""

CODE_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"
"""Crockford's base 32: no i, l, o or u, so a code read aloud is not misheard."""
CODE_LENGTH = 10  # 50 bits
_READ_AS = str.maketrans({"i": "1", "l": "1", "o": "0", "-": None, " ": None})


class ProtocolError(ValueError):
    """A message that is not what the protocol allows; the text says why, for the sender.

    ``ProtocolError(code, template, **params)``: ``str()`` is the English message (the ``error``
    message's ``message``, read by every client); ``template`` and ``params`` go with it, so a
    client in another language says it in its own (``said``), and ``sos_tui.i18n.explain`` says
    it here in the player's language."""

    def __init__(self, code: str, template: str, /, **params) -> None:
        super().__init__(template.format(**params) if params else template)
        self.code = code
        self.template, self.params = template, params

    @classmethod
    def wrap(cls, code: str, error: BaseException) -> ProtocolError:
        """``error`` (the engine's ``RuleError``, a session's ``NotYourTurnError``) refused with
        ``code``: its template and parameters kept when they can cross the network (text and
        whole numbers), else its English message alone."""
        template, params = getattr(error, "template", None), getattr(error, "params", None)
        if isinstance(template, str) and isinstance(params, dict) and all(
                _plain(value) for value in params.values()):
            return cls(code, template, **{key: value for key, value in params.items()})
        return cls(code, "{error}", error=str(error))


SERVER_MESSAGES = (
    # decode, the first message
    N_("send text frames holding JSON, not binary"), N_("a message can be at most {limit} bytes"),
    N_("not valid JSON"), N_("a message is a JSON object with a \"type\""),
    N_("send hello within {seconds} s"), N_("the first message must be hello (or create)"),
    N_("this server speaks protocol {server}, your client {client}: use the same version of sos-tui as "
       "the host"),
    N_("no game with that code here: check the code; the game may have ended"),
    N_("too many messages: at most {rate} a second"), N_("too many refused messages"),
    N_("this server only runs its own game"), N_("create a game at the server's address, with no code"),
    # creating a room
    N_("size must be a whole number from {low} to {high}"), N_("mode must be general or simple"),
    N_("a game has {low} to {high} seats"), N_("seat {number} must be an object with a \"kind\""),
    N_("seat {number}: level must be one of {levels}"),
    N_("seat {number}: kind must be human, remote or computer"),
    N_("a network game needs at least one person"),
    N_("this server has as many games as it can take; try later"),
    N_("you have as many open games on this server as it allows"),
    # joining
    N_("this game has ended"), N_("your seat was taken up by a new connection with your token"),
    N_("someone in this game is already called {name}: join with another --name"),
    N_("this game has as many spectators as it can take"),
    # playing
    N_("{kind} is only the first message"), N_("unknown message type {kind!r}"),
    N_("spectators cannot move"), N_("spectators cannot ask to undo"),
    N_("the game starts when every seat is taken"), N_("waiting for {names} to reconnect"),
    N_("a move is notation like \"S b2\""), N_("\"version\" must be a whole number"), N_("the game is over"),
    N_("it is {name}'s turn"), N_("the game changed before your move arrived: look again"),
    N_("it is {name}'s turn, not {other}'s"), N_("wait for {name} to move"),
    N_("the computer could not move: its process stopped twice in a row"),
    # undo by agreement (errors, and the reasons of undo-result)
    N_("an undo is already being asked"), N_("there is nothing to undo"),
    N_("\"accept\" must be true or false"), N_("no undo is being asked"),
    N_("this undo is not yours to answer"),
    N_("{names} declined"), N_("everyone agreed"), N_("a move was played"), N_("nobody answered in time"),
    N_("{names} left"),
    # the reasons of closed
    N_("the game is over"), N_("the server stopped"), N_("closed after {minutes} minutes without a move"),
    # the engine's refusals of a move or a name, passed on with their template
    "{text!r} is not a move: expected a letter and a cell, like 'S b3'",
    "{text!r} is not a move: the letter must be S or O",
    "{text!r} is not a cell: expected a column a..z and a row number, like 'b3'",
    "{text!r} is not a cell: rows are counted from 1",
    "cannot play {move}: the game is already over", "cannot play {letter!r}: the letter must be S or O",
    "cannot play {letter} at row {row}, column {col}: off the {size}x{size} board",
    "cannot play {move}: {cell} already holds {letter}",
    "a name must be text, not {kind}", "a name cannot be empty",
    "a name can be at most {most} characters, not {length} ({name!r})",
    "two players are called {name!r}: names must differ (ignoring case)",
)  # fmt: skip
"""Every message a server sends with a ``template`` (``error``, the ``reason`` of ``undo-result``
and ``closed``). A client says such a message in its player's language only when its template is
one of these; any other (a newer server's, a hostile one's) is shown as the escaped English."""

_KNOWN = frozenset(SERVER_MESSAGES)
MAX_PARAM = 60
"""A parameter from the network is shown escaped and at most this long."""


def _plain(value) -> bool:
    """A value a template parameter may hold on the wire: text or a whole number, not a bool."""
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def _fields(template: str) -> set[str]:
    return {name for _text, name, _spec, _conv in string.Formatter().parse(template) if name is not None}


def said(message: dict, key: str = "message") -> str:
    """The text of a server's ``message`` for this player: its ``template`` in the player's
    language when it is one of SERVER_MESSAGES and its ``params`` are exactly that template's
    fields, each short text or a whole number (shown escaped, as data); otherwise the English
    ``message[key]``, escaped. A template from the network is never formatted itself: only the
    matching one of SERVER_MESSAGES is, through the catalog."""
    english = message.get(key)
    fallback = shorten(printable(english if isinstance(english, str) else repr(english)), 200)
    template, params = message.get("template"), message.get("params", {})
    if not isinstance(template, str) or template not in _KNOWN or not isinstance(params, dict):
        return fallback
    known = next(t for t in SERVER_MESSAGES if t == template)  # ours, not the received string
    if set(params) != _fields(known):
        return fallback
    values = {}
    for name, value in params.items():
        if isinstance(value, str):
            values[name] = shorten(printable(value), MAX_PARAM)
        elif _plain(value) and abs(value) < 10**9:
            values[name] = value
        else:
            return fallback
    try:
        return _(known).format(**values)
    except (KeyError, IndexError, ValueError):  # a broken translation: the English still says it
        return known.format(**values)


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


def encode(message: dict) -> str:
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


def template_fields(template: str, /, **params) -> dict:
    """``{"template": ..., "params": ...}`` to add to a message whose text is ``template``
    formatted with ``params``: only for one of SERVER_MESSAGES with text and whole-number
    parameters (nothing otherwise: the English alone is sent)."""
    if template not in _KNOWN or not all(_plain(value) for value in params.values()):
        return {}
    return {"template": template, "params": dict(params)}


def error(code: str, template: str, /, **params) -> dict:
    """An ``error`` message: ``message`` in English, with ``template`` and ``params`` when known."""
    message = template.format(**params) if params else template
    return {"type": "error", "code": code, "message": message, **template_fields(template, **params)}


def refusal(problem: ProtocolError) -> dict:
    """The ``error`` message that refuses with ``problem``."""
    return error(problem.code, problem.template, **problem.params)
