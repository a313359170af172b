"""A connection's first message to a ``sos-tui server``: ``hello`` (a seat or a spectator's place
in a room, the room found here or on another process of a Redis service), ``create`` (a new room),
``lobby`` and ``leaderboard`` (answered, then closed), ``peek`` (how a game stands, then closed) and
``bot`` (a bot's standing connection: ``bots.BotRegistry``).
``Greeting`` is ``Server``'s part for them."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from sos_tui.i18n import N_

from .door import source
from .errors import ProtocolError
from .member import Member
from .protocol import (
    BotMessage,
    CreatedMessage,
    CreateMessage,
    LeaderboardMessage,
    LeadersMessage,
    LobbyMessage,
    PeekMessage,
    RoomsMessage,
    WelcomeMessage,
    normal_code,
    parse_client,
)
from .store import RoomStoreError
from .vocabulary import CloseReason

if TYPE_CHECKING:
    from .room import Room


class Greeting:
    """Mixed into ``Server``: its ``limits``, ``cluster``, ``rooms``, ``ratings``, ``metrics``,
    ``door``, ``allow_create``, ``_reloading``, ``bots``, ``lobby``, ``seat``, ``create_room`` and
    ``unkept``."""

    async def _greet(self, client: Member) -> Room | None:
        """The first message: a ``hello`` seats the client in its room (returned, welcomed), a
        ``create`` makes a room (answered: None). ProtocolError to refuse."""
        ws = client.ws
        try:
            frame = await asyncio.wait_for(ws.recv(), self.limits.hello_timeout)
        except TimeoutError:
            raise ProtocolError("timeout", N_("send hello within {seconds} s"),
                                seconds=f"{self.limits.hello_timeout:g}") from None
        first = parse_client(frame, first=True)
        if self.cluster is not None:
            self.cluster.check()  # Redis away: ``unavailable`` (the client tries again)
        path = (ws.request.path if ws.request else "/").split("?")[0].strip("/")
        if isinstance(first, CreateMessage):
            await self._create(client, first, path)
            return None
        if isinstance(first, LobbyMessage | BotMessage) and path:
            raise ProtocolError("bad-message", N_("ask for the lobby at the server's address, with no code"))
        if isinstance(first, BotMessage):
            await self.bots.serve(client, first, self.rooms.values())
            return None
        if isinstance(first, LobbyMessage):
            client.send(RoomsMessage(await self.lobby(), self.bots.listing()))
            await client.close(1000, CloseReason.LISTED)
            return None
        if isinstance(first, LeaderboardMessage):
            leaders = self.ratings.leaders(first.mode, first.count) if self.ratings is not None else ()
            client.send(LeadersMessage(leaders))
            await client.close(1000, CloseReason.LISTED)
            return None
        code = normal_code(path)
        room = self.rooms.get(code) if code else None
        if room is None and code is not None and self.cluster is not None:
            room = await self.cluster.locate(code)  # taken over here, or owned by another process
            if isinstance(room, str):
                await self.cluster.relay(client, room, code, frame, first)
                return None
        if room is None and code in self._reloading:
            raise ProtocolError("unavailable", N_("this game is being brought back: come back in a moment"))
        if room is None or room.closed:
            raise ProtocolError("no-room", N_("no game with that code here: check the code; the game may "
                                              "have ended"))
        if isinstance(first, PeekMessage):
            await peeked(client, room, first)
            return None
        return self.seat(client, room, first)

    async def _create(self, client: Member, message: CreateMessage, path: str) -> None:
        if not self.allow_create:
            raise ProtocolError("no-create", N_("this server only runs its own game"))
        if self.metrics.stopping:
            raise ProtocolError("unavailable", N_("this server is stopping: try again in a moment"))
        if path:
            raise ProtocolError("bad-message", N_("create a game at the server's address, with no code"))
        if message.bot is not None and message.rated:
            raise ProtocolError("bad-room", N_("games against bots are not rated: create a casual one"))
        if message.rated and self.ratings is None:
            raise ProtocolError("bad-room", N_("this server does not rate games: create a casual one"))
        bot = None if message.bot is None else self.bots.find(message.bot, message.seats)
        creator = source(client.address)
        if not self.door.may_create(creator):
            raise ProtocolError("busy", N_("too many games created from your address: try again in a minute"))
        room = self.create_room(message.size, message.mode, message.seats, creator=creator,
                                public=message.public, clock=message.clock, rated=message.rated)
        invite = None if bot is None else self.bots.seat(bot, room)
        try:
            await room.writes.saved()
        except RoomStoreError:
            self.unkept(room)  # never kept: nothing to bring back
            raise ProtocolError("unavailable", N_("the new game could not be kept: try again in a moment")) \
                from None
        if invite is not None:
            bot.client.send(invite)
        client.send(CreatedMessage(room.code, room.owner_token, room.keys.own_seats))
        await client.close(1000, CloseReason.CREATED)


async def peeked(client: Member, room: Room, peek: PeekMessage) -> None:
    """Answer a ``peek`` (``sos-tui games``): the seats its token holds, the state, then the socket
    closed. Nobody is seated, and the room hears nothing of it."""
    client.send(WelcomeMessage(room.code, room.keys.seats_of(peek.token), None))
    client.send(room.state_message())
    await client.close(1000, CloseReason.LOOKED)
