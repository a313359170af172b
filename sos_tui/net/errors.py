"""What a server says, and how a client says it in its player's language: ``ProtocolError`` (a
refusal, with its English template and parameters), the fixed list of templates a server may send
(``SERVER_MESSAGES``) and ``said``, which turns a received message into this player's words without
ever formatting a template from the network. See docs/protocol.md, "Messages in the player's
language". No Textual, no websockets.
"""

from __future__ import annotations

import string
from collections.abc import Mapping

from sos_tui.engine.text import printable, shorten
from sos_tui.i18n import N_, _


class ProtocolError(ValueError):
    """A message that is not what the protocol allows; the text says why, for the sender.

    ``ProtocolError(code, template, **params)``: ``str()`` is the English message (the ``error``
    message's ``message``, read by every client); ``template`` and ``params`` go with it, so a
    client in another language says it in its own (``said``), and ``sos_tui.i18n.explain`` says
    it here in the player's language. A text parameter may quote what a client sent: it is kept
    ``quoted``, so the message can always be sent and shown."""

    def __init__(self, code: str, template: str, /, **params) -> None:
        params = {name: quoted(value) if isinstance(value, str) else value for name, value in params.items()}
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


UNAVAILABLE = N_("the server cannot reach its games database just now: try again in a moment")
"""Why ``sos-tui server --redis`` refuses a request while Redis is away (the code ``unavailable``)."""
GONE = N_("this game is lost: the server's games database restarted empty")
"""Why such a server ends a game that Redis lost (a ``closed`` reason, and the code ``gone``)."""
SERVER_STOPPED = N_("the server stopped")
"""Why a room's connections close when its server stops (not its game: the server may come back)."""

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
    N_("\"{field}\" must be text or null"), N_("\"{field}\" must be text"),
    N_("\"{field}\" must be a whole number or null"),
    N_("ask for the lobby at the server's address, with no code"), N_("\"public\" must be true or false"),
    # creating a room
    N_("size must be a whole number from {low} to {high}"), N_("mode must be general or simple"),
    N_("a game has {low} to {high} seats"), N_("seat {number} must be an object with a \"kind\""),
    N_("seat {number}: level must be one of {levels}"),
    N_("seat {number}: kind must be human, remote or computer"),
    N_("a network game needs at least one person"),
    N_("this server has as many games as it can take; try later"),
    N_("you have as many open games on this server as it allows"),
    N_("too many games created from your address: try again in a minute"),
    # joining
    N_("this game has ended"), N_("your seat was taken up by a new connection with your token"),
    N_("someone in this game is already called {name}: join with another --name"),
    N_("this game has as many spectators as it can take"),
    # playing
    N_("{kind} is only the first message"), N_("unknown message type {kind!r}"),
    N_("spectators cannot move"), N_("spectators cannot ask to undo"),
    N_("the game starts when every seat is taken"), N_("waiting for {names} to reconnect"),
    N_("a move is notation like \"S b2\""), N_("the game is over"),
    N_("\"version\" must be a whole number"),  # older servers' (now: "{field}" must be ...)
    N_("it is {name}'s turn"), N_("the game changed before your move arrived: look again"),
    N_("it is {name}'s turn, not {other}'s"), N_("wait for {name} to move"),
    N_("the computer could not move: its process stopped twice in a row"),
    # undo by agreement (errors, and the reasons of undo-result)
    N_("an undo is already being asked"), N_("there is nothing to undo"),
    N_("your undo was declined: ask again in {seconds} s"),
    N_("\"accept\" must be true or false"), N_("no undo is being asked"),
    N_("this undo is not yours to answer"),
    N_("{names} declined"), N_("everyone agreed"), N_("a move was played"), N_("nobody answered in time"),
    N_("{names} left"),
    # a rematch by agreement
    N_("spectators cannot offer a rematch"), N_("a rematch is for a game that is over"),
    N_("a rematch is already being asked"), N_("no rematch is being asked"),
    N_("this question is not yours to answer"),
    # resign, abort, draws and claims (revision 4), and the session's refusals of them
    N_("spectators cannot resign"), N_("spectators cannot abort a game"),
    N_("spectators cannot offer a draw"), N_("spectators cannot answer a draw offer"),
    N_("spectators cannot claim"), N_("seat {number} is not yours"), N_("you are out of this game"),
    N_("nobody has gone: every player is connected"), N_("{names} may be claimed in {seconds} s"),
    N_("the game is already over"), N_("{name} is already out of the game"),
    N_("too late to abort: every player has moved; resign instead"),
    N_("a draw can be agreed by two players only, not {count}"),
    N_("the computer plays on: it does not take draw offers"),
    N_("a draw offer already waits for an answer"), N_("nobody offered a draw"),
    N_("only the other player answers a draw offer"),
    # the server could not keep a change (its disk, its database)
    N_("the game's last change could not be kept: come back in a moment"),
    N_("the new game could not be kept: try again in a moment"),
    N_("this game is being brought back: come back in a moment"),
    # the reasons of closed
    N_("the game is over"), SERVER_STOPPED, N_("closed after {minutes} minutes without a move"),
    N_("{name} ended the game"),
    # a service on Redis (sos-tui server --redis): Redis away, or back without its games
    UNAVAILABLE, GONE,
    # clocks (revision 4)
    N_("no takebacks in a timed game"), N_("{name} has run out of time"),
    # ratings (revision 5): the player key, names held by a key, rated rooms, the leaderboard
    N_("a player key is 32 to 64 letters, digits, - or _: delete the file player-key in your data folder "
       "to get a new one"),
    N_("the name {name} belongs to another player on this server (rated games): join with another --name"),
    N_("\"public\" and \"rated\" must be true or false"),
    N_("this server does not rate games: create a casual one"),
    N_("\"mode\" must be general, simple or null"), N_("\"count\" must be 1 to {limit}"),
    # bots (revision 6): a bot's standing connection, a game against one
    N_("a bot called {name} is already connected to this server: pick another --name"),
    N_("no bot called {name} is connected to this server: pick one from the lobby"),
    N_("{name} is playing as many games as it can: try again in a moment or pick another bot"),
    N_("a game with a bot needs an open seat for it"), N_("\"games\" must be 1 to {limit}"),
    N_("an invite names a room and a token"), N_("a bot's connection only takes ping"),
    N_("games against bots are not rated: create a casual one"),
    # the engine's refusals of a move or a name, passed on with their template
    "{text!r} is not a move: expected a letter and a cell, like 'S b3'",
    "{text!r} is not a move: the letter must be S or O",
    "{text!r} is not a cell: expected a column a..z and a row number, like 'b3'",
    "{text!r} is not a cell: rows are counted from 1",
    "cannot play {move}: the game is already over", "cannot play {letter!r}: the letter must be S or O",
    "cannot play {move}: {cell} is off the {size}x{size} board",
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


MAX_QUOTE = 200
"""The most of one text parameter a message quotes (``quoted``)."""


def quoted(text: str) -> str:
    """``text`` (a client's move, name or message type, say) as a message quotes it: every
    character a terminal acts on or does not show escaped, a lone surrogate too (so the message can
    always be encoded and sent), and at most ``MAX_QUOTE`` characters. The one way a message
    quotes what it was sent: ``ProtocolError`` and the server's messages (``protocol.Said``) pass
    every text parameter through it."""
    return shorten(printable(text), MAX_QUOTE)


def _plain(value) -> bool:
    """A value a template parameter may hold on the wire: text or a whole number, not a bool."""
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def _fields(template: str) -> set[str]:
    return {name for _text, name, _spec, _conv in string.Formatter().parse(template) if name is not None}


def said(english: object, template: object = None, params: object = None) -> str:
    """The text of a server's message for this player: ``template`` in the player's language when
    it is one of SERVER_MESSAGES and ``params`` are exactly that template's fields, each short text
    or a whole number (shown escaped, as data); otherwise the ``english`` text, escaped. A template
    from the network is never formatted itself: only the matching one of SERVER_MESSAGES is,
    through the catalog."""
    fallback = shorten(printable(english if isinstance(english, str) else repr(english)), 200)
    if not isinstance(template, str) or template not in _KNOWN or not isinstance(params, Mapping):
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


def template_fields(template: str, /, **params) -> dict:
    """``{"template": ..., "params": ...}`` to add to a message whose text is ``template``
    formatted with ``params``: only for one of SERVER_MESSAGES with text and whole-number
    parameters (nothing otherwise: the English alone is sent)."""
    if template not in _KNOWN or not all(_plain(value) for value in params.values()):
        return {}
    return {"template": template, "params": dict(params)}


