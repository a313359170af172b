"""One service of many server processes on Redis: ``sos-tui server --redis redis://HOST:PORT/DB``.

The shape is lila-ws's and Colyseus's: every process holds sockets; each room has one *owner*
process at a time, which runs its game; Redis holds the rooms and joins the processes.

- **State**: a room (``StoredRoom``: record, version, seats with *hashed* tokens) is one JSON
  string at ``sos:room:CODE``; ``sos:rooms`` is the set of codes; ``sos:lobby`` maps the code of an
  open public room to its ``LobbyRoom``.
- **Ownership**: ``sos:lease:CODE`` holds the owner's id and expires after ``lease`` seconds; the
  owner renews it every ``lease / 3``. Every write of a room is a Lua script that first checks the
  lease is still its writer's (a fence): a process paused past its lease cannot overwrite the room
  another process took over, and it drops the room (its clients are closed with 1012 and come
  back). A process that finds a room with no lease (its owner died) takes it over, at once when a
  client asks for it, else within a second by a scan.
- **Relay**: a client that connects to a process which does not own its room stays on that
  process (its *edge*); the edge forwards its frames to the owner on the owner's channel
  ``sos:proc:ID`` and the owner sends what it has for the client back on the edge's channel. One
  task per process publishes, in order, so a channel's messages arrive in the order they were
  sent. The owner sees the relayed client as an ordinary ``Client`` whose socket is a
  ``RelaySocket``. Each process keeps ``sos:alive:ID`` while it lives: an owner forgets the clients
  of an edge that died, an edge closes (1012) its clients of a room whose owner changed, so they
  reconnect (to any process) with their tokens.

Rooms are written by one task per process in the order they change; a client is told of a change
only once Redis has it (as with SQLite). With Redis persistence off, a Redis restart loses every
room; see docs/protocol.md, "One service on Redis".
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import os
import secrets
import socket
from dataclasses import dataclass

from sos_tui.engine import GameRecord, printable
from sos_tui.i18n import N_, _
from sos_tui.storage.errors import StorageError

from .errors import ProtocolError
from .protocol import MAX_LOBBY, ErrorMessage, HelloMessage, LobbyRoom, Message, decode, parse_client
from .room import Room, background
from .server import _CLOSE_CODES, _STRIKES, Allowance, Client, Server
from .store import StoredRoom, StoredSeat, lobby_entry

log = logging.getLogger(__name__)

# KEYS: lease, room, rooms, lobby; ARGV: id, room json, code, lobby entry or "", claim ("1": a new
# room, taken only if nobody has it), lease in ms
_SAVE = """
local owner = redis.call('GET', KEYS[1])
if owner ~= ARGV[1] then
  if owner or ARGV[5] ~= '1' or redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[6])
end
redis.call('SET', KEYS[2], ARGV[2])
redis.call('SADD', KEYS[3], ARGV[3])
if ARGV[4] == '' then
  redis.call('HDEL', KEYS[4], ARGV[3])
else
  redis.call('HSET', KEYS[4], ARGV[3], ARGV[4])
end
return 1
"""
# KEYS: lease, room, rooms, lobby; ARGV: id, code
_DELETE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('SREM', KEYS[3], ARGV[2])
redis.call('HDEL', KEYS[4], ARGV[2])
return 1
"""
# KEYS: lease; ARGV: id, lease in ms (0: let it go)
_RENEW = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] == '0' then redis.call('DEL', KEYS[1]) else redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 1
"""


POOL = 32
"""Connections to Redis per process at most (one more is the relay channel's)."""


class ClusterError(StorageError):
    """Redis cannot be used (no ``redis`` package, a bad URL, nothing answering): said in one line."""


class LeaseLost(Exception):
    """A room's write was refused: another process owns it now."""


# -- rooms as JSON -----------------------------------------------------------------------------
def dump_room(room: StoredRoom) -> str:
    return json.dumps({
        "code": room.code, "size": room.size, "mode": room.mode,
        "seats": [[s.kind, s.name, s.level, s.token_hash] for s in room.seats],
        "record": room.record.to_dict() if room.record is not None else None, "version": room.version,
        "created": room.created, "active": room.active, "key": room.key, "creator": room.creator,
        "public": room.public,
    }, ensure_ascii=False, separators=(",", ":"))  # fmt: skip


def load_room(text: str) -> StoredRoom:
    """A room as ``dump_room`` wrote it; ValueError (or TypeError, KeyError) if it is not one."""
    data = json.loads(text)
    record = GameRecord.from_dict(data["record"]) if data["record"] is not None else None
    return StoredRoom(data["code"], int(data["size"]), str(data["mode"]),
                      tuple(StoredSeat(*seat) for seat in data["seats"]), record, int(data["version"]),
                      float(data["created"]), float(data["active"]), data["key"], data["creator"],
                      bool(data["public"]))


# -- the store ---------------------------------------------------------------------------------
class RedisRoomStore:
    """A ``RoomStore`` in Redis, every write fenced by the room's lease (see the module's doc).
    ``load`` finds nothing: a process gets its rooms by taking them over (``Cluster``)."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self._jobs: asyncio.Queue | None = None
        self._writer: asyncio.Task | None = None

    def load(self, code: str | None = None) -> list[StoredRoom]:
        return []

    def save(self, room: StoredRoom) -> asyncio.Future[None]:
        return self._ask(room)

    def delete(self, code: str) -> asyncio.Future[None]:
        return self._ask(code)

    async def flush(self) -> None:
        await self._ask(None)

    async def close(self) -> None:
        if self._writer is None:
            return
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.flush(), 5)
        self._writer.cancel()
        await asyncio.gather(self._writer, return_exceptions=True)
        self._writer = None

    def _ask(self, job) -> asyncio.Future[None]:
        if self._writer is None:
            self._jobs = asyncio.Queue()
            self._writer = asyncio.ensure_future(self._write())
        future = asyncio.get_running_loop().create_future()
        self._jobs.put_nowait((job, future))
        return future

    async def _write(self) -> None:
        while True:
            batch = [await self._jobs.get()]
            while not self._jobs.empty() and len(batch) < 500:
                batch.append(self._jobs.get_nowait())
            try:
                lost = await self._commit([job for job, _future in batch])
            except Exception as problem:  # Redis went away: nobody is told of what was not kept
                log.error("cannot write the rooms to Redis: %s", problem)
                for _job, future in batch:
                    if not future.done():
                        future.set_exception(LeaseLost(str(problem)))
                continue
            for job, future in batch:
                code = job.code if isinstance(job, StoredRoom) else job
                if future.done():
                    continue
                if code in lost:
                    future.set_exception(LeaseLost(code))
                else:
                    future.set_result(None)
            for code in lost:
                self.cluster.lost(code)

    async def _commit(self, jobs: list) -> set[str]:
        """Write the newest of each room in ``jobs``; the codes whose lease was not ours."""
        cluster = self.cluster
        latest: dict[str, StoredRoom | None] = {}
        for job in jobs:
            if isinstance(job, StoredRoom):
                latest[job.code] = job
            elif isinstance(job, str):
                latest[job] = None
        if not latest:
            return set()
        lease_ms = str(int(cluster.lease * 1000))
        async with cluster.redis.pipeline(transaction=False) as pipe:
            for code, room in latest.items():
                keys = [cluster.key("lease", code), cluster.key("room", code), cluster.key("rooms"),
                        cluster.key("lobby")]
                if room is None:
                    pipe.evalsha(cluster.scripts["delete"], len(keys), *keys, cluster.id, code)
                    continue
                entry = lobby_entry(room)
                claim = "0" if code in cluster.owned else "1"
                pipe.evalsha(cluster.scripts["save"], len(keys), *keys, cluster.id, dump_room(room), code,
                             json.dumps(entry.to_dict()) if entry is not None else "", claim, lease_ms)
            results = await pipe.execute()
        lost = set()
        for (code, room), done in zip(latest.items(), results, strict=True):
            if room is None:
                cluster.owned.discard(code)
            elif done:
                cluster.owned.add(code)
            else:
                lost.add(code)
        return lost


# -- the relay ---------------------------------------------------------------------------------
class RelaySocket:
    """On the owner: the socket of a client connected to another process (``edge``), as much of a
    ``ServerConnection`` as a ``Client`` uses."""

    transport = None

    def __init__(self, cluster: Cluster, edge: str, conn: str) -> None:
        self.cluster, self.edge, self.conn = cluster, edge, conn
        self.client: Client | None = None
        self.closed = False

    def send_text(self, text: str) -> None:
        if not self.closed:
            self.cluster.publish(self.edge, {"op": "send", "conn": self.conn, "text": text})

    async def close(self, code: int = 1000, reason: str = "") -> None:
        if self.closed:
            return
        self.closed = True
        self.cluster.publish(self.edge, {"op": "close", "conn": self.conn, "code": code, "reason": reason})
        self.cluster.forget(self.conn)


class RelayClient(Client):
    """On the owner: a client connected to another process, seen through its ``RelaySocket``."""

    def send(self, message: Message | str) -> None:
        self.ws.send_text(message if isinstance(message, str) else message.to_json())


def relay_client(cluster: Cluster, edge: str, conn: str, address: str) -> RelayClient:
    ws = RelaySocket(cluster, edge, conn)
    client = ws.client = RelayClient(ws, address, Allowance(math.inf, math.inf))  # the edge counts
    return client


@dataclass(eq=False)
class Link:
    """On an edge: one of its clients, relayed to the process that owns its room."""

    client: Client
    owner: str
    code: str


class Cluster:
    """This process's part in the service at ``url`` (see the module's doc). ``connect`` first
    (ClusterError: a clear line), then a ``Server(cluster=...)`` starts it."""

    def __init__(self, url: str, *, lease: float = 3.0, prefix: str = "sos:") -> None:
        self.url, self.lease, self.prefix = url, lease, prefix
        self.every = lease / 3
        self.id = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self.store = RedisRoomStore(self)
        self.owned: set[str] = set()
        self.links: dict[str, Link] = {}  # as an edge: our clients, relayed
        self.remote: dict[str, Client] = {}  # as an owner: other processes' clients in our rooms
        self.server: Server | None = None
        self.redis = None
        self.scripts: dict[str, str] = {}
        self._out: asyncio.Queue | None = None
        self._tasks: list[asyncio.Task] = []
        self.takeovers = 0

    def key(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    # -- lifetime ----------------------------------------------------------------------------
    async def connect(self, timeout: float = 5.0) -> None:
        """Reach Redis; ClusterError saying what is wrong in one line."""
        if self.redis is not None:
            return
        try:
            import redis.asyncio as aioredis
            from redis.exceptions import RedisError
        except ImportError:
            raise ClusterError(N_("--redis needs the redis package: pip install 'sos-tui[redis]'")) \
                from None
        shown = printable(self.url)[:100]
        try:  # a bounded pool that makes a burst of commands wait their turn, never fail
            pool = aioredis.BlockingConnectionPool.from_url(
                self.url, max_connections=POOL, timeout=30, decode_responses=True,
                socket_connect_timeout=timeout, health_check_interval=30)
            client = aioredis.Redis.from_pool(pool)
        except ValueError as problem:
            raise ClusterError(N_("--redis {url}: {reason}"), url=shown,
                               reason=printable(str(problem))[:200]) from None
        try:
            await asyncio.wait_for(client.ping(), timeout)
            for name, script in (("save", _SAVE), ("delete", _DELETE), ("renew", _RENEW)):
                self.scripts[name] = await client.script_load(script)
        except (RedisError, OSError, TimeoutError) as problem:
            await client.aclose()
            raise ClusterError(N_("cannot reach Redis at {url}: {reason}"), url=shown,
                               reason=printable(str(problem) or type(problem).__name__)[:200]) from None
        self.redis = client

    async def start(self, server: Server) -> None:
        await self.connect()
        self.server = server
        self._out = asyncio.Queue()
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(self.key("proc", self.id))
        await self.redis.set(self.key("alive", self.id), "1", px=int(self.lease * 1000))
        self._tasks = [asyncio.ensure_future(job) for job in (self._listen(), self._publish(), self._tend())]

    async def release(self, codes) -> None:
        """Let go of ``codes`` (a stopping server): another process may take them over at once."""
        with contextlib.suppress(Exception):
            async with self.redis.pipeline(transaction=False) as pipe:
                for code in codes:
                    pipe.evalsha(self.scripts["renew"], 1, self.key("lease", code), self.id, "0")
                await pipe.execute()
        self.owned.difference_update(codes)

    async def stop(self) -> None:
        if self.redis is None:
            return
        await self.store.close()
        for link in list(self.links.values()):
            with contextlib.suppress(Exception):
                await link.client.ws.close(1012, "the server is restarting: come back in a moment")
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._drain(), 2)
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.release(list(self.owned))
        with contextlib.suppress(Exception):
            await self.redis.delete(self.key("alive", self.id))
            await self._pubsub.aclose()
        await self.redis.aclose()
        self.redis = None

    async def _drain(self) -> None:
        while self._out is not None and not self._out.empty():
            await asyncio.sleep(0.01)

    # -- finding a room ----------------------------------------------------------------------
    async def locate(self, code: str) -> Room | str | None:
        """The room ``code`` for a client here: taken over by this process (a Room), owned by
        another (its id), or None (no such room)."""
        owner = await self.redis.get(self.key("lease", code))
        if owner is None:
            room = await self.takeover(code)
            if room is not None:
                return room
            owner = await self.redis.get(self.key("lease", code))
        if owner is None or owner == self.id:
            return self.server.rooms.get(code)
        return owner

    async def takeover(self, code: str) -> Room | None:
        """Take ``code`` over if nobody owns it; the room brought back, or None."""
        server = self.server
        if code in server.rooms or len(server.rooms) >= server.limits.max_rooms:
            return server.rooms.get(code)
        if not await self.redis.set(self.key("lease", code), self.id, nx=True, px=int(self.lease * 1000)):
            return None
        text = await self.redis.get(self.key("room", code))
        try:
            kept = load_room(text) if text is not None else None
        except (ValueError, TypeError, KeyError) as problem:
            log.warning("room %s: cannot be read from Redis (%s); left out", code, problem)
            kept = None
        if kept is None or code in server.rooms:
            await self.release([code])
            if text is None:
                await self.redis.srem(self.key("rooms"), code)
            return server.rooms.get(code)
        self.owned.add(code)
        self.takeovers += 1
        room = server.restore(kept)
        if room is not None:
            room.log(_("room taken over by this process"))
        return room

    async def lobby(self) -> tuple[LobbyRoom, ...]:
        """The open public games of every process, from Redis."""
        rooms = []
        for text in await self.redis.hvals(self.key("lobby")):
            with contextlib.suppress(ValueError, TypeError):
                entry = LobbyRoom.from_dict(json.loads(text))
                if entry is not None:
                    rooms.append(entry)
            if len(rooms) >= MAX_LOBBY:
                break
        return tuple(rooms)

    def lost(self, code: str) -> None:
        """Another process owns ``code`` now: drop it here, sending its clients away (1012) to
        come back to the owner."""
        self.owned.discard(code)
        room = self.server.rooms.pop(code, None) if self.server is not None else None
        if room is None:
            return
        log.warning("room %s: another process owns it now; dropped here", code)
        room.freeze()
        for client in list(room.clients):
            background(client.ws.close(1012, "the game moved: come back in a moment"))

    # -- the relay: as an edge ---------------------------------------------------------------
    async def relay(self, client: Client, owner: str, code: str, first: str) -> None:
        """Relay ``client`` (its hello: ``first``) to the room's owner until either side closes."""
        conn = secrets.token_hex(8)
        link = self.links[conn] = Link(client, owner, code)
        self.publish(owner, {"op": "open", "conn": conn, "edge": self.id, "code": code,
                             "address": client.address, "frame": first})
        limits = self.server.limits
        try:
            async for frame in client.ws:
                try:
                    if not client.allowance.take():
                        raise ProtocolError("flood", N_("too many messages: at most {rate} a second"),
                                            rate=f"{limits.rate:g}")
                    decode(frame)
                except ProtocolError as problem:
                    client.send(ErrorMessage.refusing(problem))
                    client.strikes += problem.code in _STRIKES
                    if client.strikes >= limits.strikes:
                        await self.server._refuse(
                            client, ProtocolError("closing", N_("too many refused messages")))
                        return
                    continue
                self.publish(link.owner, {"op": "frame", "conn": conn, "frame": frame})
        finally:
            self.links.pop(conn, None)
            self.publish(link.owner, {"op": "leave", "conn": conn})

    # -- the relay: as an owner --------------------------------------------------------------
    async def _open(self, data: dict) -> None:
        conn, edge, code, address, frame = (data.get(k) for k in ("conn", "edge", "code", "address", "frame"))
        if not all(isinstance(v, str) for v in (conn, edge, code, address, frame)):
            return
        client = relay_client(self, edge, conn, address)
        self.remote[conn] = client
        server = self.server
        room = server.rooms.get(code)
        if room is None or room.closed:
            await client.ws.close(1012, "the game moved: come back in a moment")
            return
        try:
            hello = parse_client(frame, first=True)
            if not isinstance(hello, HelloMessage):
                raise ProtocolError("bad-message", N_("the first message must be hello (or create)"))
            server.seat(client, room, hello)
        except ProtocolError as problem:
            client.send(ErrorMessage.refusing(problem))
            background(client.ws.close(_CLOSE_CODES.get(problem.code, 1008), problem.args[0][:100]))
            return
        room.joined(client)

    def forget(self, conn: str) -> None:
        """The relayed client ``conn`` is gone: out of its room."""
        client = self.remote.pop(conn, None)
        if client is not None and client.room is not None:
            client.room.leave(client)

    # -- tasks -------------------------------------------------------------------------------
    def publish(self, process: str, message: dict) -> None:
        """Send ``message`` to ``process`` (in order, after everything published before)."""
        if self._out is not None:
            self._out.put_nowait((self.key("proc", process), json.dumps(message, ensure_ascii=False)))

    async def _publish(self) -> None:
        while True:
            batch = [await self._out.get()]
            while not self._out.empty() and len(batch) < 500:
                batch.append(self._out.get_nowait())
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for channel, text in batch:
                        pipe.publish(channel, text)
                    await pipe.execute()
            except Exception as problem:
                log.error("cannot reach Redis to relay: %s", problem)
                await asyncio.sleep(0.5)

    async def _listen(self) -> None:
        while True:
            try:
                async for message in self._pubsub.listen():
                    if message.get("type") == "message":
                        await self._take(message["data"])
            except asyncio.CancelledError:
                raise
            except Exception as problem:
                log.error("lost the relay channel: %s", problem)
                await asyncio.sleep(0.5)

    async def _take(self, text: str) -> None:
        try:
            data = json.loads(text)
        except ValueError:
            return
        op, conn = data.get("op"), data.get("conn")
        try:
            if op == "open":
                await self._open(data)
            elif op == "frame" and conn in self.remote:
                client = self.remote[conn]
                if not await self.server.on_frame(client, data.get("frame")):
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

    async def _tend(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            try:
                await self._tend_once()
            except asyncio.CancelledError:
                raise
            except Exception as problem:
                log.error("cannot reach Redis: %s", problem)

    async def _tend_once(self) -> None:
        """Renew this process's leases and its sign of life; forget the clients of dead edges;
        send away (1012) the relayed clients of a room whose owner changed; take over rooms
        nobody owns."""
        lease_ms = int(self.lease * 1000)
        owned = list(self.owned)
        edges = sorted({client.ws.edge for client in self.remote.values()})
        links = list(self.links.values())
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(self.key("alive", self.id), "1", px=lease_ms)
            for code in owned:
                pipe.evalsha(self.scripts["renew"], 1, self.key("lease", code), self.id, str(lease_ms))
            for edge in edges:
                pipe.exists(self.key("alive", edge))
            for link in links:
                pipe.get(self.key("lease", link.code))
            pipe.smembers(self.key("rooms"))
            results = await pipe.execute()
        renewed = results[1:1 + len(owned)]
        alive = results[1 + len(owned):1 + len(owned) + len(edges)]
        owners = results[1 + len(owned) + len(edges):-1]
        for code, kept in zip(owned, renewed, strict=True):
            if not kept:
                self.lost(code)
        dead = {edge for edge, live in zip(edges, alive, strict=True) if not live}
        for conn, client in list(self.remote.items()):
            if client.ws.edge in dead:
                self.forget(conn)
        for link, owner in zip(links, owners, strict=True):
            if owner != link.owner:
                background(link.client.ws.close(1012, "the game moved: come back in a moment"))
        orphans = [code for code in results[-1] if code not in self.server.rooms]
        if orphans:
            async with self.redis.pipeline(transaction=False) as pipe:
                for code in orphans:
                    pipe.exists(self.key("lease", code))
                held = await pipe.execute()
            for code, owned_elsewhere in zip(orphans, held, strict=True):
                if not owned_elsewhere:
                    await self.takeover(code)
