"""One service of many server processes on Redis: ``sos-tui server --redis redis://HOST:PORT/DB``.

The shape is lila-ws's and Colyseus's: every process holds sockets; each room has one *owner*
process at a time, which runs its game; Redis holds the rooms and joins the processes.

- **State**: a room (``StoredRoom``: record, version, seats with *hashed* tokens) is one JSON
  string at ``sos:room:CODE``, but for its game's moves: those are the list ``sos:moves:CODE``, to
  which a move's write adds that move alone (so a write costs the same at the first move and the
  last); ``sos:rooms`` is the set of codes; ``sos:lobby`` maps the code of an open public room to
  its ``LobbyRoom``.
- **Ownership**: ``sos:lease:CODE`` holds the owner's id and expires after ``lease`` seconds; the
  owner renews it every ``lease / 3``. Every write of a room is a Lua script that first checks the
  lease is still its writer's (a fence): a process paused past its lease cannot overwrite the room
  another process took over, and it drops the room (its clients are closed with 1012 and come
  back). A process that finds a room with no lease (its owner died) takes it over, at once when a
  client asks for it, else within a second by a scan.
- **Relay** (``relay.Relay``): a client whose room another process owns stays where it connected
  and is relayed to the owner: its messages over a link straight to the owner (``direct``), the
  owner's back over Redis pub/sub. Each process keeps ``sos:alive:ID`` (where it listens for
  links) while it lives: an owner forgets the clients of an edge that died, an edge closes (1012)
  its clients of a room whose owner changed, so they reconnect (to any process) with their tokens.
- **Moved** (``moved``, revision 7): a process started with a public URL registers it too
  (``sos:public:ID``); a client that can follow is sent there (``moved``) instead of being relayed.
- **Redis away** (``redislink.RedisLink``): every request is refused with ``unavailable`` (moves,
  joins, creating, the lobby) and the games wait; changes not yet written are written once Redis
  is back (a client is told of them then). When it is back, the relays start afresh and the
  leases are renewed (a room whose lease ran out meanwhile is dropped here and taken over again
  from Redis, by whichever process a client reaches first). ``sos:epoch`` tells a Redis that came
  back *empty* (no persistence): its games are lost, and their players are told so (``closed``,
  ``gone``); ``sos:gone:CODE`` answers ``gone`` to those who come back later, for ``room_idle``.

Rooms are written by one task per process in the order they change; a client is told of a change
only once Redis has it (as with SQLite). See docs/protocol.md, "One service on Redis".
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
from dataclasses import dataclass

from sos_tui.engine import GameRecord
from sos_tui.engine.clock import TimeControl
from sos_tui.i18n import N_, _

from .errors import GONE, ProtocolError
from .member import background
from .moved import MOVED_CLOSE, MOVED_MINOR
from .protocol import MAX_LOBBY, HelloMessage, LobbyRoom, MovedMessage
from .redislink import ClusterError, RedisLink, Unavailable
from .relay import Relay
from .room import Room
from .server import Client, Server
from .store import StoredRoom, StoredSeat, lobby_entry
from .vocabulary import CloseReason

__all__ = ["Cluster", "ClusterError", "LeaseLost", "RedisRoomStore", "Unavailable"]

log = logging.getLogger(__name__)

# KEYS: lease, room, rooms, lobby, moves; ARGV: id, the room's JSON without its moves, code, lobby
# entry or "", claim ("1": a new room, taken only if nobody has it), lease in ms, the count of moves
# already kept to keep (the rest are dropped: an undo), the count of moves that follow, those moves,
# then channel and message pairs to publish once the room is written (the states of its relayed
# clients: no round trip of their own). -1: fewer moves are kept than the writer thought
_SAVE = """
local owner = redis.call('GET', KEYS[1])
if owner ~= ARGV[1] then
  if owner or ARGV[5] ~= '1' or redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[6])
end
local keep, added = tonumber(ARGV[7]), tonumber(ARGV[8])
if keep == 0 then
  redis.call('DEL', KEYS[5])
else
  local held = redis.call('LLEN', KEYS[5])
  if held < keep then return -1 end
  if held > keep then redis.call('LTRIM', KEYS[5], 0, keep - 1) end
end
for i = 9, 8 + added do redis.call('RPUSH', KEYS[5], ARGV[i]) end
redis.call('SET', KEYS[2], ARGV[2])
redis.call('SADD', KEYS[3], ARGV[3])
if ARGV[4] == '' then
  redis.call('HDEL', KEYS[4], ARGV[3])
else
  redis.call('HSET', KEYS[4], ARGV[3], ARGV[4])
end
for i = 9 + added, #ARGV - 1, 2 do redis.call('PUBLISH', ARGV[i], ARGV[i + 1]) end
return 1
"""
# KEYS: lease, room, rooms, lobby, moves; ARGV: id, code, then channel and message pairs (as _SAVE's)
_DELETE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[5])
redis.call('SREM', KEYS[3], ARGV[2])
redis.call('HDEL', KEYS[4], ARGV[2])
for i = 3, #ARGV - 1, 2 do redis.call('PUBLISH', ARGV[i], ARGV[i + 1]) end
return 1
"""
# KEYS: leases; ARGV: id, lease in ms (0: let them go). For each lease, 1 if it was ours.
_RENEW = """
local kept = {}
for i, lease in ipairs(KEYS) do
  kept[i] = 0
  if redis.call('GET', lease) == ARGV[1] then
    if ARGV[2] == '0' then redis.call('DEL', lease) else redis.call('PEXPIRE', lease, ARGV[2]) end
    kept[i] = 1
  end
end
return kept
"""
# KEYS: rooms; ARGV: the leases' prefix. The rooms nobody owns (no lease).
_ORPHANS = """
local orphans = {}
for _, code in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if redis.call('EXISTS', ARGV[1] .. code) == 0 then orphans[#orphans + 1] = code end
end
return orphans
"""
SCRIPTS = {"save": _SAVE, "delete": _DELETE, "renew": _RENEW, "orphans": _ORPHANS}


class LeaseLost(Unavailable):
    """A room's write was refused: another process owns it now (a creator is told to try again)."""


# -- rooms as JSON -----------------------------------------------------------------------------
def dump_room(room: StoredRoom, *, moves: bool = True) -> str:
    """``room`` as JSON; without ``moves``, its game record lacks them (the store keeps them apart:
    ``load_room``'s ``moves``)."""
    return json.dumps({
        "code": room.code, "size": room.size, "mode": room.mode,
        "seats": [list(s.to_row()) for s in room.seats],
        "record": room.record.to_dict(moves=moves) if room.record is not None else None,
        "version": room.version,
        "created": room.created, "active": room.active, "key": room.key, "creator": room.creator,
        "public": room.public, "clock": None if room.clock is None else str(room.clock),
        "clocks": room.clocks, "rated": room.rated,
    }, ensure_ascii=False, separators=(",", ":"))  # fmt: skip


def load_room(text: str, moves: list[str] | None = None) -> StoredRoom:
    """A room as ``dump_room`` wrote it, its record's ``moves`` given apart where it was written
    without them; ValueError (or TypeError, KeyError) if it is not one."""
    data = json.loads(text)
    kept = data["record"]
    if kept is not None and "moves" not in kept:
        if moves is None:
            raise ValueError("its moves are kept apart and were not read")
        kept["moves"] = moves
    record = GameRecord.from_dict(kept) if kept is not None else None
    return StoredRoom(data["code"], int(data["size"]), str(data["mode"]),
                      tuple(map(StoredSeat.from_row, data["seats"])), record, int(data["version"]),
                      float(data["created"]), float(data["active"]), data["key"], data["creator"],
                      bool(data["public"]),
                      TimeControl.parse(data["clock"]) if data.get("clock") is not None else None,
                      data.get("clocks"), data.get("rated") is True)


# -- the store ---------------------------------------------------------------------------------
class RedisRoomStore:
    """A ``RoomStore`` in Redis, every write fenced by the room's lease (see the module's doc).
    ``load`` finds nothing: a process gets its rooms by taking them over (``Cluster``). While Redis
    is away, the writes asked wait for it; a new room's (never written) is refused instead, so its
    creator hears ``unavailable``. The frames of a save that go to relayed clients are published by
    the script that writes the room (``Relay.carried``): the room's owner tells them in the same
    round trip as the write, once it is written."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self._jobs: asyncio.Queue | None = None
        self._writer: asyncio.Task | None = None
        self.written: dict[str, _Kept] = {}  # what Redis holds of each room's moves, written here

    def load(self, code: str | None = None) -> list[StoredRoom]:
        return []

    def save(self, room: StoredRoom, frames=()) -> asyncio.Future[frozenset]:
        return self._ask(room, self.cluster.relays.carried(frames))

    def delete(self, code: str) -> asyncio.Future[None]:
        return self._ask(code)

    async def flush(self) -> None:
        """Return once everything asked so far is in Redis (at once while Redis is away: nobody
        was told of what is not)."""
        if self.cluster.link.up:
            await self._ask(None)

    async def close(self) -> None:
        if self._writer is None:
            return
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.flush(), 5)
        self._writer.cancel()
        await asyncio.gather(self._writer, return_exceptions=True)
        self._writer = None

    def _ask(self, job, carried=()) -> asyncio.Future:
        if self._writer is None:
            self._jobs = asyncio.Queue()
            self._writer = asyncio.ensure_future(self._write())
        future = asyncio.get_running_loop().create_future()
        self._jobs.put_nowait(_Job(job, future, tuple(carried)))
        return future

    async def _write(self) -> None:
        cluster = self.cluster
        lane = cluster.link.lane()
        while True:
            batch = [await self._jobs.get()]
            while not self._jobs.empty() and len(batch) < 500:
                batch.append(self._jobs.get_nowait())
            while True:
                try:
                    lost = await self._commit(batch, lane)
                    break
                except Unavailable:  # said once by the link; written when Redis is back
                    batch = self._refuse_new(batch)
                    await cluster.link.wait_up()
                except Exception:  # a bug must cost these writes (nobody told of them), never the writer
                    log.exception("cannot write %d rooms to Redis", len(batch))
                    lost = {job.code for job in batch if job.code is not None}
                    break
            for job in batch:
                if job.future.done():
                    continue
                if job.code in lost:
                    job.future.set_exception(LeaseLost())
                elif isinstance(job.room, StoredRoom):
                    job.future.set_result(frozenset(client for client, _channel, _text in job.carried))
                else:
                    job.future.set_result(None)
            for code in lost:
                cluster.lost(code)

    def _refuse_new(self, batch: list[_Job]) -> list[_Job]:
        """``batch`` without the writes of rooms never written (new rooms): those are dropped and
        their writes refused (Unavailable), so a creator is told at once."""
        cluster = self.cluster
        new = {job.code for job in batch
               if isinstance(job.room, StoredRoom) and job.code not in cluster.owned}
        kept = []
        for job in batch:
            if job.code not in new:
                kept.append(job)
            elif not job.future.done():
                job.future.set_exception(Unavailable())
        for code in new:
            cluster.drop(code)
        return kept

    async def _commit(self, jobs: list[_Job], lane) -> set[str]:
        """Write the newest of each room in ``jobs``, publishing the frames each carries; the codes
        whose lease was not ours (or that this process no longer holds)."""
        cluster = self.cluster
        latest: dict[str, StoredRoom | None] = {}
        carried: dict[str, list[str]] = {}
        for job in jobs:
            if job.code is not None:
                latest[job.code] = job.room if isinstance(job.room, StoredRoom) else None
                carried.setdefault(job.code, []).extend(
                    part for _client, *sent in job.carried for part in sent)
        held = cluster.server.rooms
        gone = {code for code, room in latest.items() if room is not None and code not in held}
        for code in gone:  # dropped here meanwhile (lost, or Redis came back empty): not written again
            del latest[code]
            self.written.pop(code, None)
        lost = set(gone)
        for _pass in range(2):  # again, whole, for a room whose kept moves were fewer than thought
            if not latest:
                break
            results = await cluster.link.call(
                [self._command(code, room, carried[code]) for code, room in latest.items()], lane)
            again = {}
            for (code, room), done in zip(latest.items(), results, strict=True):
                if room is None:
                    cluster.owned.discard(code)
                    self.written.pop(code, None)
                elif done == 1:
                    cluster.owned.add(code)
                    self.written[code] = _Kept.of(room.record)
                elif done == -1:
                    log.warning("room %s: Redis kept fewer of its moves than written; writing it whole",
                                code)
                    self.written.pop(code, None)
                    again[code] = room
                else:
                    self.written.pop(code, None)
                    lost.add(code)
            latest = again
        return lost | set(latest)

    def _command(self, code: str, room: StoredRoom | None, carried: list[str]) -> tuple:
        """The script that writes ``room`` (deletes it, if None): its JSON without the moves, and
        of its moves only those Redis does not have yet (``written``)."""
        cluster, link = self.cluster, self.cluster.link
        keys = (cluster.key("lease", code), cluster.key("room", code), cluster.key("rooms"),
                cluster.key("lobby"), cluster.key("moves", code))
        if room is None:
            return link.script("delete", keys, cluster.id, code, *carried)
        moves = room.record.moves if room.record is not None else ()
        written = self.written.get(code) if code in cluster.owned else None
        keep = written.kept(room.record) if written is not None else 0
        entry = lobby_entry(room)
        return link.script("save", keys, cluster.id, dump_room(room, moves=False), code,
                           json.dumps(entry.to_dict()) if entry is not None else "",
                           "0" if code in cluster.owned else "1", str(int(cluster.lease * 1000)),
                           str(keep), str(len(moves) - keep), *map(str, moves[keep:]), *carried)


@dataclass(frozen=True, slots=True)
class _Kept:
    """What Redis holds of a room's game, as this process wrote it: the game and its moves."""

    game: str | None
    moves: tuple

    @classmethod
    def of(cls, record: GameRecord | None) -> _Kept:
        return cls(None, ()) if record is None else cls(record.game_id, record.moves)

    def kept(self, record: GameRecord | None) -> int:
        """How many of ``record``'s moves Redis holds already, in order: all of these when it
        moved on, as many as are left when it moved back (an undo); 0 for another game."""
        if record is None or record.game_id != self.game:
            return 0
        count = min(len(record.moves), len(self.moves))
        return count if record.moves[:count] == self.moves[:count] else 0


@dataclass(frozen=True, slots=True)
class _Job:
    """A write asked of ``RedisRoomStore``: a room to save, a code to delete, or None (a flush);
    ``carried``: the relayed clients' frames its script publishes (client, channel, message)."""

    room: StoredRoom | str | None
    future: asyncio.Future
    carried: tuple = ()

    @property
    def code(self) -> str | None:
        return self.room.code if isinstance(self.room, StoredRoom) else self.room


class Cluster:
    """This process's part in the service at ``url`` (see the module's doc). ``connect`` first
    (ClusterError: a clear line), then a ``Server(cluster=...)`` starts it. ``timeout``: seconds
    Redis may stay silent before it counts as away; ``backoff``: the first and the longest pause
    between tries to reach it again; ``public``: this process's own address from outside
    (``ws://HOST:PORT``, checked by ``moved.public_url``), where clients of the others are sent
    (None: they are relayed here)."""

    def __init__(self, url: str, *, lease: float = 3.0, prefix: str = "sos:", timeout: float = 5.0,
                 backoff: tuple[float, float] = (0.1, 2.0), public: str | None = None) -> None:
        self.url, self.lease, self.prefix, self.public = url, lease, prefix, public
        self.every = lease / 3
        self.id = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self.link = RedisLink(url, SCRIPTS, timeout=timeout, backoff=backoff)
        self.link.on_back = self._back
        self.store = RedisRoomStore(self)
        self.relays = Relay(self)
        self.owned: set[str] = set()
        self.server: Server | None = None
        self.epoch: str | None = None  # ``sos:epoch`` as this process knows it
        self.secret: str | None = None  # ``sos:secret``: a direct link starts with it (``direct``)
        self.address = "1"  # where this process listens for direct links (``sos:alive:ID``)
        self._tasks: list[asyncio.Task] = []
        self.takeovers = 0

    def key(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    def check(self) -> None:
        """Unavailable (a ProtocolError: ``unavailable``) while Redis is away."""
        self.link.check()

    # -- lifetime ----------------------------------------------------------------------------
    async def connect(self) -> None:
        """Reach Redis; ClusterError saying what is wrong in one line."""
        await self.link.connect()

    async def start(self, server: Server) -> None:
        await self.connect()
        self.server = server
        self.address = await self.relays.open(server.host or "")
        try:
            await self._register(secrets.token_hex(8))
            await self.relays.start()
        except Unavailable:  # gone again since ``connect``: said as ``connect`` says it
            await self.relays.listener.stop()
            raise ClusterError(N_("cannot reach Redis at {url}: {reason}"), url=self.link.shown,
                               reason=_("no answer in time")) from None
        self._tasks = [asyncio.ensure_future(self._tend()), *self.relays.tasks.values()]

    async def _register(self, epoch: str) -> None:
        """Say this process is alive and where it listens, and learn ``sos:epoch`` (set to
        ``epoch`` if Redis has none) and ``sos:secret`` (made if Redis has none)."""
        *_done, self.epoch, self.secret = await self.link.call([
            *self._alive(int(self.lease * 1000)),
            ("SET", self.key("epoch"), epoch, "NX"), ("SET", self.key("secret"), secrets.token_hex(16), "NX"),
            ("GET", self.key("epoch")), ("GET", self.key("secret"))])

    def _alive(self, lease_ms: int) -> list[tuple]:
        """The commands that say this process is alive: where it listens for direct links and,
        with a public URL, where clients reach it (both expire with it)."""
        said = [("SET", self.key("alive", self.id), self.address, "PX", lease_ms)]
        if self.public is not None:
            said.append(("SET", self.key("public", self.id), self.public, "PX", lease_ms))
        return said

    async def release(self, codes) -> None:
        """Let go of ``codes`` (a stopping server): another process may take them over at once."""
        codes = list(codes)
        if codes:
            with contextlib.suppress(Unavailable):
                await self.link.call([self.link.script("renew", [self.key("lease", c) for c in codes],
                                                       self.id, "0")])
        self.owned.difference_update(codes)

    async def stop(self) -> None:
        if self.link.redis is None:
            return
        await self.store.close()
        await self.relays.stop()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.release(list(self.owned))
        with contextlib.suppress(Unavailable):
            await self.link.call([("DEL", self.key("alive", self.id), self.key("public", self.id))])
        await self.link.close()

    # -- finding a room ----------------------------------------------------------------------
    async def relay(self, client: Client, owner: str, code: str, first: str, hello=None) -> None:
        """Send ``client`` (its first message: ``first``, parsed: ``hello``) to ``owner``, the process
        that owns ``code``: to its public URL (``moved``) if it has one and the client can follow,
        else relayed to it (also where that URL is this process's own: every process given the load
        balancer's address would send the client round in circles)."""
        url = None
        if isinstance(hello, HelloMessage) and hello.minor >= MOVED_MINOR:
            url = (await self.link.call([("GET", self.key("public", owner))]))[0]
        if url is None or url == self.public:
            await self.relays.edge(client, owner, code, first)
            return
        client.send(MovedMessage(f"{url}/{code}"))
        await client.close(MOVED_CLOSE, CloseReason.ELSEWHERE)

    async def locate(self, code: str) -> Room | str | None:
        """The room ``code`` for a client here: taken over by this process (a Room), owned by
        another (its id), or None (no such room). ProtocolError ``gone`` for a game Redis lost."""
        owner, gone = await self.link.call([("GET", self.key("lease", code)),
                                            ("GET", self.key("gone", code))])
        if gone is not None:
            raise ProtocolError("gone", GONE)
        if owner is None:
            room = await self.takeover(code)
            if room is not None:
                return room
            owner = (await self.link.call([("GET", self.key("lease", code))]))[0]
        if owner is None or owner == self.id:
            return self.server.rooms.get(code)
        return owner

    async def takeover(self, code: str) -> Room | None:
        """Take ``code`` over if nobody owns it; the room brought back, or None."""
        server = self.server
        if code in server.rooms or len(server.rooms) >= server.limits.max_rooms:
            return server.rooms.get(code)
        taken, text, moves = await self.link.call([
            ("SET", self.key("lease", code), self.id, "NX", "PX", int(self.lease * 1000)),
            ("GET", self.key("room", code)), ("LRANGE", self.key("moves", code), 0, -1)])
        if not taken:
            return None
        try:
            kept = load_room(text, moves) if text is not None else None
        except (ValueError, TypeError, KeyError) as problem:
            log.warning("room %s: cannot be read from Redis (%s); left out", code, problem)
            kept = None
        if kept is None or code in server.rooms:
            await self.release([code])
            if text is None:
                await self.link.call([("SREM", self.key("rooms"), code)])
            return server.rooms.get(code)
        self.owned.add(code)
        self.takeovers += 1
        if kept.record is not None and len(kept.record.moves) == len(moves):  # kept apart, as written now
            self.store.written[code] = _Kept.of(kept.record)
        room = server.restore(kept)
        if room is not None:
            room.log(_("room taken over by this process"))
        return room

    async def lobby(self) -> tuple[LobbyRoom, ...]:
        """The open public games of every process, from Redis."""
        rooms = []
        for text in (await self.link.call([("HVALS", self.key("lobby"))]))[0]:
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
        if self.drop(code):
            log.warning("room %s: another process owns it now; dropped here", code)

    def drop(self, code: str) -> Room | None:
        """Let go of the room ``code`` here (its clients sent away with 1012); the room, if it was here."""
        self.owned.discard(code)
        self.store.written.pop(code, None)
        room = self.server.rooms.pop(code, None) if self.server is not None else None
        if room is not None:
            room.freeze()
            for client in list(room.clients):
                background(client.close(1012, CloseReason.MOVED))
        return room

    # -- keeping up --------------------------------------------------------------------------
    async def _tend(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            if self.link.up:
                with contextlib.suppress(Unavailable):  # said once by the link, which comes back by itself
                    await self._tend_once()

    async def _tend_once(self) -> None:
        """Renew this process's leases and its sign of life (and learn the service's secret again,
        should it have changed); forget the clients of dead edges;
        send away (1012) the relayed clients of a room whose owner changed; take over rooms
        nobody owns. A Redis that lost its games meanwhile (``sos:epoch`` changed): ``_gone``."""
        relays, link = self.relays, self.link
        lease_ms = int(self.lease * 1000)
        owned = list(self.owned)
        edges = sorted({client.ws.edge for client in relays.remote.values()})
        links = list(relays.links.values())
        alive = self._alive(lease_ms)
        commands = [*alive, ("GET", self.key("epoch")),
                    ("SET", self.key("secret"), secrets.token_hex(16), "NX"), ("GET", self.key("secret")),
                    link.script("renew", [self.key("lease", code) for code in owned], self.id, lease_ms),
                    link.script("orphans", [self.key("rooms")], self.key("lease", "")),
                    *(("EXISTS", self.key("alive", edge)) for edge in edges),
                    *(("GET", self.key("lease", relayed.code)) for relayed in links)]
        epoch, _made, self.secret, renewed, orphans, *rest = (await link.call(commands))[len(alive):]
        if epoch != self.epoch:
            await self._gone()
            return
        for code, kept in zip(owned, renewed, strict=True):
            if not kept:
                self.lost(code)
        dead = {edge for edge, live in zip(edges, rest[:len(edges)], strict=True) if not live}
        for conn, client in list(relays.remote.items()):
            if client.ws.edge in dead:
                relays.forget(conn)
        for relayed, owner in zip(links, rest[len(edges):], strict=True):
            if owner != relayed.owner:
                background(relayed.client.close(1012, CloseReason.MOVED))
        for code in orphans:
            if code not in self.server.rooms:
                await self.takeover(code)

    async def _back(self) -> None:
        """Redis answers again (the link is up once this returns): listen again; a Redis that
        came back empty loses its games (``_gone``), else the relays start afresh and the leases
        are renewed."""
        await self.relays.listen()
        epoch = (await self.link.call([("GET", self.key("epoch"))]))[0]
        if epoch != self.epoch:
            await self._gone()
        else:
            self.relays.reset()
        await self._tend_once()

    async def _gone(self) -> None:
        """Redis lost every game (it came back empty): each one this process held or relayed
        ends, its players told so (``closed``); ``sos:gone:CODE`` answers ``gone`` to those who
        come back; this process registers again, in the new ``sos:epoch``."""
        server = self.server
        rooms = list(server.rooms.values())
        codes = {room.code for room in rooms} | set(self.relays.end(GONE))
        log.warning("Redis came back without its games: %d games lost here", len(codes))
        self.owned.clear()
        self.store.written.clear()
        server.rooms.clear()
        await asyncio.gather(*(room.close(GONE) for room in rooms), return_exceptions=True)
        for_s = int(server.limits.room_idle)
        await self.link.call([("SET", self.key("gone", code), "1", "EX", for_s) for code in codes])
        await self._register(secrets.token_hex(8))
