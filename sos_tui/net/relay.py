"""The relay between the processes of a service on Redis (``cluster.Cluster``): a client connected
to a process that does not own its room stays there (its *edge*); the edge forwards its frames to
the owner straight, over a link of its own to that process (``direct``), or where it has none on
the owner's channel ``sos:proc:ID``; the owner sends what it has for the client back on the edge's
channel. One task per process publishes, in order, on a connection of its own, so a channel's
messages arrive in the order they were sent. The owner sees the relayed client as an ordinary
``Client`` whose socket is a ``RelaySocket``.

Pub/sub keeps nothing for a process that is not listening: after Redis was away, messages between
processes may have been lost, so the relays start afresh (``reset``): an edge sends its relayed
clients away (1012: they come back with their tokens, as from a restart) and an owner forgets the
clients other processes relayed to it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import secrets
from dataclasses import dataclass
from typing import Protocol

from sos_tui.i18n import N_

from .direct import Listener, Route, Routes
from .door import Allowance
from .errors import ProtocolError
from .greeting import peeked
from .member import background
from .protocol import ClosedMessage, ErrorMessage, HelloMessage, Message, PeekMessage, decode, parse_client
from .redislink import RedisLink, Unavailable, refused, streams
from .resp import packed, reply
from .server import _CLOSE_CODES, _STRIKES, Client, Server
from .vocabulary import CloseReason


class Service(Protocol):
    """What the relay needs of its process's part in the service (``cluster.Cluster``)."""

    id: str  # this process, as the others address it
    link: RedisLink  # the connection to Redis
    server: Server  # this process's game server
    secret: str | None  # the service's, which a direct link starts with (``direct``)

    def key(self, *parts: str) -> str: ...

    def check(self) -> None:
        """Raises Unavailable while Redis is away."""

log = logging.getLogger(__name__)



class RelaySocket:
    """On the owner: the socket of a client connected to another process (``edge``), as much of a
    ``ServerConnection`` as a ``Client`` uses."""

    transport = None
    latency = 0.0  # its round trip is the edge's to measure: a relayed move has no lag credit

    def __init__(self, relay: Relay, edge: str, conn: str) -> None:
        self.relay, self.edge, self.conn = relay, edge, conn
        self.client: Client | None = None
        self.closed = False

    def send_text(self, text: str) -> None:
        if not self.closed:
            self.relay.publish(*self.envelope(text))

    def envelope(self, text: str) -> tuple[str, dict]:
        """Whom to publish to and what, to send ``text`` to the client through its edge."""
        return self.edge, {"op": "send", "conn": self.conn, "text": text}

    async def close(self, code: int = 1000, reason: str = "") -> None:
        if self.closed:
            return
        self.closed = True
        self.relay.publish(self.edge, {"op": "close", "conn": self.conn, "code": code, "reason": reason})
        self.relay.forget(self.conn)


class RelayClient(Client):
    """On the owner: a client connected to another process, seen through its ``RelaySocket``."""

    def send(self, message: Message | str) -> None:
        self.ws.send_text(message if isinstance(message, str) else message.to_json())


@dataclass(eq=False)
class Link:
    """On an edge: one of its clients, relayed to the process that owns its room."""

    client: Client
    owner: str
    code: str
    route: Route | None = None  # the direct link to the owner (None: through Redis)

    def tell(self, relay: Relay, message: dict) -> None:
        """Send ``message`` to the owner, the way this client's messages go (always the same one)."""
        if self.route is not None:
            self.route.send(message)
        else:
            relay.publish(self.owner, message)


class Relay:
    """This process's part in the relay: as an edge, its clients relayed to other processes
    (``links``); as an owner, other processes' clients in its rooms (``remote``)."""

    def __init__(self, cluster: Service) -> None:
        self.cluster = cluster
        self.links: dict[str, Link] = {}  # as an edge: our clients, relayed
        self.remote: dict[str, Client] = {}  # as an owner: other processes' clients in our rooms
        self._out: asyncio.Queue | None = None
        self._channel = None  # the connection this process listens on
        self.tasks: dict[str, asyncio.Task] = {}
        timeout = cluster.link.timeout
        self.listener = Listener(lambda: cluster.secret or "", self._dispatch, self.forget, timeout)
        self.routes = Routes(timeout, self._lost)

    # -- lifetime ----------------------------------------------------------------------------
    async def open(self, host: str) -> str:
        """Listen for the other processes' direct links on ``host``; the address they reach it at."""
        return await self.listener.start(host)

    async def start(self) -> None:
        self._out = asyncio.Queue()
        await self.listen()
        self.tasks["publish"] = asyncio.ensure_future(self._publish())

    async def listen(self) -> None:
        """Listen on this process's channel, afresh (at the start, and when Redis is back)."""
        await self._unlisten()
        cluster = self.cluster
        channel = self._channel = cluster.link.redis.connection_pool.make_connection()
        channel.socket_timeout = None  # silent for as long as nobody relays: read without a deadline
        try:
            await asyncio.wait_for(channel.connect(), cluster.link.timeout)
            # subscribed and read in Redis's protocol here, never by redis-py's parser: one that
            # reads ahead (hiredis) could keep a message published just after in its own buffer
            reader, writer = streams(channel)
            writer.write(packed([("SUBSCRIBE", cluster.key("proc", cluster.id))]))
            await writer.drain()
            await asyncio.wait_for(reply(reader, refused), cluster.link.timeout)
        except (*cluster.link.errors, TimeoutError) as problem:
            cluster.link.failed(problem)
            raise Unavailable() from None
        self.tasks["listen"] = asyncio.ensure_future(self._listen(channel))

    async def _unlisten(self) -> None:
        listening = self.tasks.pop("listen", None)
        if listening is not None:
            listening.cancel()
            await asyncio.gather(listening, return_exceptions=True)
        if self._channel is not None:
            with contextlib.suppress(Exception):
                await self._channel.disconnect(nowait=True)
            self._channel = None

    async def stop(self) -> None:
        for link in list(self.links.values()):
            with contextlib.suppress(Exception):
                await link.client.close(1012, CloseReason.RESTARTING)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._drain(), 2)
        await self._unlisten()
        await self.routes.close()
        await self.listener.stop()
        for task in self.tasks.values():
            task.cancel()
        await asyncio.gather(*self.tasks.values(), return_exceptions=True)
        self.tasks.clear()

    async def _drain(self) -> None:
        while self._out is not None and not self._out.empty() and self.cluster.link.up:
            await asyncio.sleep(0.01)

    def reset(self) -> None:
        """After Redis was away: every relayed client is sent away (1012) to come back with its
        token, both those relayed from here and those relayed here (through their edges)."""
        for client in list(self.remote.values()):
            background(client.close(1012, CloseReason.MOVED))
        for link in list(self.links.values()):
            background(link.client.close(1012, CloseReason.MOVED))

    def end(self, why: str) -> list[str]:
        """Tell every client relayed from here that its game ended (``why``, a template of
        SERVER_MESSAGES) and close it; the codes of their rooms."""
        closed = ClosedMessage.of(why)
        for link in list(self.links.values()):
            link.client.send(closed)
            background(link.client.close(1001, CloseReason.ROOM_CLOSED))
        return [link.code for link in self.links.values()]

    # -- as an edge --------------------------------------------------------------------------
    async def edge(self, client: Client, owner: str, code: str, first: str) -> None:
        """Relay ``client`` (its hello: ``first``) to the room's owner until either side closes."""
        conn = secrets.token_hex(8)
        route = await self.routes.to(owner, lambda: self._address(owner), self.cluster.secret or "")
        link = self.links[conn] = Link(client, owner, code, route)
        link.tell(self, {"op": "open", "conn": conn, "edge": self.cluster.id, "code": code,
                         "address": client.address, "frame": first})
        server = self.cluster.server
        limits = server.limits
        try:
            async for frame in client.ws:
                try:
                    if not client.allowance.take():
                        raise ProtocolError("flood", N_("too many messages: at most {rate} a second"),
                                            rate=f"{limits.rate:g}")
                    decode(frame)
                    self.cluster.link.check()  # Redis away: refused here, not relayed into nothing
                except ProtocolError as problem:
                    client.send(ErrorMessage.refusing(problem))
                    client.strikes += problem.code in _STRIKES
                    if client.strikes >= limits.strikes:
                        await server._refuse(client,
                                             ProtocolError("closing", N_("too many refused messages")))
                        return
                    continue
                link.tell(self, {"op": "frame", "conn": conn, "frame": frame})
        finally:
            if self.links.pop(conn, None) is not None:  # not closed by its owner: the owner forgets it
                link.tell(self, {"op": "leave", "conn": conn})

    async def _address(self, owner: str) -> str | None:
        """Where ``owner`` listens for direct links, as it registered (``1``: a process of an older
        sos-tui, which takes none; None: it is gone)."""
        return (await self.cluster.link.call([("GET", self.cluster.key("alive", owner))]))[0]

    def _lost(self, route: Route) -> None:
        """The direct link ``route`` broke (its owner died, or stopped): the clients relayed over it
        are sent away (1012), to come back with their tokens to whoever owns their room now."""
        for link in list(self.links.values()):
            if link.route is route:
                background(link.client.close(1012, CloseReason.MOVED))

    # -- as an owner -------------------------------------------------------------------------
    async def _open(self, data: dict) -> None:
        conn, edge, code, address, frame = (data.get(k) for k in ("conn", "edge", "code", "address", "frame"))
        if not all(isinstance(v, str) for v in (conn, edge, code, address, frame)):
            return
        ws = RelaySocket(self, edge, conn)
        client = ws.client = RelayClient(ws, address, Allowance(math.inf, math.inf))  # the edge counts
        self.remote[conn] = client
        server = self.cluster.server
        room = server.rooms.get(code)
        if room is None or room.closed:
            await ws.close(1012, CloseReason.MOVED)
            return
        try:
            self.cluster.check()
            hello = parse_client(frame, first=True)
            if isinstance(hello, PeekMessage):  # sos-tui games: how the game stands, nobody seated
                await peeked(client, room, hello)
                return
            if not isinstance(hello, HelloMessage):
                raise ProtocolError("bad-message", N_("the first message must be hello (or create)"))
            server.seat(client, room, hello)
        except ProtocolError as problem:
            client.send(ErrorMessage.refusing(problem))
            background(ws.close(_CLOSE_CODES.get(problem.code, 1008), CloseReason.REFUSED))
            return
        room.joined(client)

    def forget(self, conn: str) -> None:
        """The relayed client ``conn`` is gone: out of its room."""
        client = self.remote.pop(conn, None)
        if client is not None and client.room is not None:
            client.room.leave(client)

    # -- the channel -------------------------------------------------------------------------
    def publish(self, process: str, message: dict) -> None:
        """Send ``message`` to ``process`` (in order, after everything published before)."""
        if self._out is not None:
            self._out.put_nowait(self.packed(process, message))

    def packed(self, process: str, message: dict) -> tuple[str, str]:
        """The channel of ``process`` and ``message`` as it goes on it."""
        return self.cluster.key("proc", process), json.dumps(message, ensure_ascii=False)

    def carried(self, frames) -> list[tuple[object, str, str]]:
        """Of ``frames`` (client, text), those of clients relayed here from other processes, each
        with the channel and the message that send it through the client's edge: for the script
        that writes their room to publish (``cluster.RedisRoomStore``), a round trip fewer."""
        return [(client, *self.packed(*client.ws.envelope(text))) for client, text in frames
                if isinstance(client.ws, RelaySocket) and client.ws.relay is self and not client.ws.closed]

    async def _publish(self) -> None:
        link = self.cluster.link
        lane = link.lane(quiet=True)
        while True:
            batch = [await self._out.get()]
            while not self._out.empty() and len(batch) < 500:
                batch.append(self._out.get_nowait())
            try:
                await link.call([("PUBLISH", channel, text) for channel, text in batch], lane)
            except Unavailable:  # lost with Redis (said once by the link): the relays start afresh
                await link.wait_up()
            except Exception:  # a bug must cost these messages, never the channel
                log.exception("cannot relay %d messages", len(batch))

    async def _listen(self, channel) -> None:
        """Take each message published to this process, read straight off its subscribed connection
        (``[kind, channel, data]``, in Redis's protocol: ``resp``), without the work redis-py's
        ``PubSub`` and parser do for each."""
        reader, _writer = streams(channel)
        try:
            while True:
                message = await reply(reader, refused)  # RESP3: a push; RESP2: an array
                if isinstance(message, list) and len(message) == 3 and message[0] == "message":
                    await self._take(message[2])
        except asyncio.CancelledError:
            raise
        except Exception as problem:  # the channel is lost with Redis: listened to again once it is back
            self.cluster.link.failed(problem)

    async def _take(self, text: str) -> None:
        try:
            data = json.loads(text)
        except ValueError:
            return
        if isinstance(data, dict):
            await self._dispatch(data)

    async def _dispatch(self, data: dict) -> None:
        """One message of the relay, from the channel or a direct link."""
        op, conn = data.get("op"), data.get("conn")
        try:
            if op == "open":
                await self._open(data)
            elif op == "frame" and conn in self.remote:
                client = self.remote[conn]
                if not await self.cluster.server.on_frame(client, data.get("frame")):
                    await client.ws.close(1000, "")
            elif op == "leave":
                self.forget(conn)
            elif op == "send" and conn in self.links:
                self.links[conn].client.send(data.get("text"))
            elif op == "close" and conn in self.links:
                link = self.links.pop(conn)
                code, reason = data.get("code"), data.get("reason")
                background(link.client.ws.close(code if isinstance(code, int) else 1011,
                                                reason if isinstance(reason, str) else ""))
        except Exception:  # one relayed message must not stop the channel
            log.exception("relayed message %r failed", op)
