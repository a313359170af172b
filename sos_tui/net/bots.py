"""The bots connected to a ``sos-tui server`` (revision 6): a bot (``sos-tui bot``) opens a standing
connection with a ``bot`` message; the server lists it in its lobby, with how many more games it
can take, until that connection closes. A person who picks it sends a ``create`` naming it: the
server makes the room, gives the bot the first open seat (marked ``bot`` on the wire and in the
game's record) and sends the bot an ``invite`` with the room and that seat's token, over its
standing connection; the bot joins the seat like any player, with a ``hello``.

A bot is reached through the process it is connected to: with ``sos-tui server --redis`` (several
processes), a lobby lists the bots of the process that answers it, and a game against a bot is made
there (docs/protocol.md, "Bots").
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from sos_tui.engine import Seat, SeatKind, printable
from sos_tui.i18n import N_

from .door import Allowance
from .errors import ProtocolError
from .member import Member
from .protocol import (
    MAX_LOBBY,
    BotMessage,
    ErrorMessage,
    InviteMessage,
    ListedMessage,
    LobbyBot,
    PingMessage,
    PongMessage,
    parse_client,
)
from .vocabulary import Phase

if TYPE_CHECKING:
    from .room import Room

log = logging.getLogger(__name__)


class Client(Member, Protocol):
    """What a bot's standing connection is to the registry (``server.Client``)."""

    ws: object  # its socket: an async iterator of frames
    allowance: Allowance
    strikes: int


@dataclass(eq=False)
class ConnectedBot:
    """A bot's standing connection: its name, its engine's id name, how many games it plays at once
    and the rooms it was invited to."""

    client: Client
    name: str
    engine: str | None
    games: int
    rooms: list[Room] = field(default_factory=list)

    @property
    def free(self) -> int:
        """The games it can take now: its rooms closed or over no longer count (a rematch counts
        again)."""
        self.rooms = [room for room in self.rooms if not room.closed]
        return max(0, self.games - sum(room.phase is not Phase.OVER for room in self.rooms))

    def listing(self) -> LobbyBot:
        return LobbyBot(self.name, self.engine, self.free, self.games)


class BotRegistry:
    """The bots connected to this process, by their name (ignoring case)."""

    def __init__(self, strikes: int) -> None:
        self.strikes = strikes  # refused messages before a bot's connection is closed
        self.bots: dict[str, ConnectedBot] = {}

    def listing(self) -> tuple[LobbyBot, ...]:
        """The bots for the lobby, by name."""
        bots = sorted(self.bots.values(), key=lambda bot: bot.name.casefold())
        return tuple(bot.listing() for bot in bots[:MAX_LOBBY])

    async def serve(self, client: Client, hello: BotMessage, rooms: Iterable[Room] = ()) -> None:
        """List the bot of ``hello`` for as long as ``client`` stays connected (answering its pings);
        ProtocolError ``bot-taken`` if a bot of that name is connected already. Of ``rooms`` (the
        server's), those with a seat of a bot of that name count among its games: it was seated
        there before it (or the server) restarted, and comes back to them."""
        key = hello.name.casefold()
        if key in self.bots:
            raise ProtocolError(
                "bot-taken",
                N_("a bot called {name} is already connected to this server: pick another --name"),
                name=hello.name,
            )
        playing = [room for room in rooms if any(_seat_of(s.seat, key) for s in room.seats)]
        self.bots[key] = ConnectedBot(client, hello.name, hello.engine, hello.games, playing)
        log.info(
            "bot %s connected (%s, %d games)",
            printable(hello.name),
            printable(hello.engine or "?"),
            hello.games,
        )
        try:
            client.send(ListedMessage(hello.name))
            async for frame in client.ws:
                self._take(client, frame)
        finally:
            del self.bots[key]
            log.info("bot %s left", printable(hello.name))

    def _take(self, client: Client, frame) -> None:
        """A message on a bot's standing connection: a ``ping`` is answered, anything else refused
        (ProtocolError ``closing`` once there were too many)."""
        try:
            if not client.allowance.take():
                raise ProtocolError(
                    "flood",
                    N_("too many messages: at most {rate} a second"),
                    rate=f"{client.allowance.rate:g}",
                )
            message = parse_client(frame)
            if not isinstance(message, PingMessage):
                raise ProtocolError("bad-message", N_("a bot's connection only takes ping"))
            client.send(PongMessage(message.id))
        except ProtocolError as problem:
            client.send(ErrorMessage.refusing(problem))
            client.strikes += 1
            if client.strikes >= self.strikes:
                raise ProtocolError("closing", N_("too many refused messages")) from None

    def find(self, name: str, seats: tuple[Seat, ...]) -> ConnectedBot:
        """The connected bot called ``name`` with a game free, to sit with ``seats``; ProtocolError
        ``no-bot``, ``bot-full``, or ``name-taken`` if a seat has its name."""
        bot = self.bots.get(name.casefold())
        if bot is None:
            raise ProtocolError(
                "no-bot",
                N_("no bot called {name} is connected to this server: pick one from the lobby"),
                name=name,
            )
        if not bot.free:
            raise ProtocolError(
                "bot-full",
                N_("{name} is playing as many games as it can: try again in a moment or pick another bot"),
                name=bot.name,
            )
        if any(seat.name and seat.name.casefold() == bot.name.casefold() for seat in seats):
            raise ProtocolError(
                "name-taken",
                N_("someone in this game is already called {name}: join with another --name"),
                name=bot.name,
            )
        return bot

    @staticmethod
    def seat(bot: ConnectedBot, room: Room) -> InviteMessage:
        """Give ``bot`` the first open seat of ``room`` (marked as a bot's): its ``invite``, to send
        once the room is kept."""
        index = next(i for i, s in enumerate(room.seats) if s.seat.is_open)
        room.seats[index].seat = Seat(bot.name, SeatKind.REMOTE, bot=True)
        bot.rooms.append(room)
        return InviteMessage(room.code, room.keys.give(index), (index,))


def _seat_of(seat: Seat, key: str) -> bool:
    """``seat`` is the seat of the bot whose casefolded name is ``key``."""
    return seat.bot and seat.name is not None and seat.name.casefold() == key
