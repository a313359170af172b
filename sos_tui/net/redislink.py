"""One process's link to Redis, for ``cluster.Cluster``: its connections, the Lua scripts, and
whether Redis can be used now.

- ``call`` sends commands in one round trip, on the pool (any task) or on a ``Lane`` (a connection
  of one task's own: the rooms' writer, the relay's publisher). A script Redis has forgotten
  (NOSCRIPT: Redis restarted, ``SCRIPT FLUSH``) is loaded again and the commands are sent again,
  once: here, and nowhere else.
- A command that cannot be carried out (Redis refused, reset, silent past ``timeout``, loading its
  data, refusing writes) takes the link *down*: one log line, and ``Unavailable`` (the error code
  ``unavailable``: clients try again) for every request until Redis is back. A task of its own
  tries Redis again after a pause that doubles from ``backoff[0]`` to ``backoff[1]`` seconds; once
  Redis answers (a PING, a write, the scripts loaded), ``on_back`` (the cluster's recovery) runs,
  and only then is the link *up* again, with one more log line saying how long it was away.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from collections.abc import Awaitable, Callable, Sequence

from sos_tui.engine import printable
from sos_tui.engine.text import shorten
from sos_tui.i18n import N_
from sos_tui.storage.errors import StorageError

from .errors import UNAVAILABLE, ProtocolError
from .resp import Push, packed, reply

log = logging.getLogger(__name__)

POOL = 32
"""Connections to Redis per process at most on the pool (besides the relay channel's and the lanes')."""


class ClusterError(StorageError):
    """Redis cannot be used (no ``redis`` package, a bad URL, nothing answering): said in one line."""


class Unavailable(ProtocolError):
    """Redis cannot be used now: a request is refused with ``unavailable`` (a client tries again)."""

    def __init__(self) -> None:
        super().__init__("unavailable", UNAVAILABLE)


def _why(problem: BaseException) -> str:
    return shorten(printable(str(problem) or type(problem).__name__), 200)


def refused(text: str) -> BaseException:
    """Redis's error reply ``text`` as redis-py's exception: NoScriptError for a script it has
    forgotten, else ResponseError."""
    from redis.exceptions import NoScriptError, ResponseError

    return (NoScriptError if text.startswith("NOSCRIPT ") else ResponseError)(text)


def streams(conn) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """The streams of the redis-py connection ``conn``, connected and greeted: what ``resp`` reads
    and writes (redis-py keeps them as ``_reader`` and ``_writer``, from 5.0 to 8.x)."""
    return conn._reader, conn._writer


class Lane:
    """A connection to Redis of one task's own: each ``send`` writes its commands at once and reads
    their replies, in Redis's protocol (``resp``): without the pool's and a pipeline object's work
    (about half the CPU of a pooled pipeline), nor redis-py's packing and parsing (two thirds of
    what was left). A *quiet* lane asks Redis for no replies at all (``CLIENT REPLY OFF``: the relay's
    PUBLISH, whose reply says nothing it needs), which spares a read here and a write in Redis for
    every batch. Each ``send`` has ``timeout`` seconds; broken by an error, the lane connects
    again on the next ``send``."""

    def __init__(self, pool, timeout: float, quiet: bool = False) -> None:
        self._pool, self.timeout, self.quiet = pool, timeout, quiet
        self._conn = None
        self._closing: asyncio.Future | None = None

    async def send(self, commands: Sequence[tuple]) -> list:
        """The replies of ``commands`` (an error reply as the exception, in its place); none from a
        quiet lane."""
        conn = self._conn
        try:
            async with asyncio.timeout(self.timeout):
                if conn is None:
                    conn = self._conn = self._pool.make_connection()
                    conn.socket_timeout = None  # the timeout above, without a task for every write
                    await conn.connect()
                    if self.quiet:
                        await conn.send_packed_command(conn.pack_command("CLIENT", "REPLY", "OFF"),
                                                       check_health=False)
                reader, writer = streams(conn)
                writer.write(packed(commands))
                await writer.drain()
                replies = []
                while len(replies) < (0 if self.quiet else len(commands)):
                    answer = await reply(reader, refused)
                    if not isinstance(answer, Push):  # a notice Redis pushed unasked answers nothing
                        replies.append(answer)
                return replies
        except BaseException:
            self._conn = None
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.disconnect(nowait=True)
            raise

    def drop(self) -> None:
        """Let the connection go (closed in the background): the next ``send`` makes a new one."""
        conn, self._conn = self._conn, None
        if conn is not None:
            self._closing = asyncio.ensure_future(conn.disconnect(nowait=True))

    async def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.disconnect(nowait=True)


class RedisLink:
    """This process's link to the Redis at ``url`` (see the module's doc); ``scripts`` are the Lua
    scripts by name (``script`` makes a command of one)."""

    def __init__(self, url: str, scripts: dict[str, str], *, timeout: float = 5.0,
                 backoff: tuple[float, float] = (0.1, 2.0)) -> None:
        self.url, self.scripts, self.timeout, self.backoff = url, scripts, timeout, backoff
        self.sha = {name: hashlib.sha1(text.encode()).hexdigest() for name, text in scripts.items()}
        self.redis = None  # the client on the pool, once connected
        self.up = False
        self.on_back: Callable[[], Awaitable[None]] | None = None
        self._back: asyncio.Event | None = None
        self._away_since = 0.0
        self._retry: asyncio.Task | None = None
        self._lanes: list[Lane] = []
        self.errors: tuple[type[BaseException], ...] = (OSError,)
        self._noscript: type[BaseException] = Exception

    @property
    def shown(self) -> str:
        return printable(self.url)[:100]

    async def connect(self) -> None:
        """Reach Redis and load the scripts; ClusterError saying what is wrong in one line."""
        if self.redis is not None:
            return
        try:
            import redis.asyncio as aioredis
            from redis.exceptions import NoScriptError, RedisError
        except ImportError:
            raise ClusterError(N_("--redis needs the redis package: pip install 'sos-tui[redis]'")) \
                from None
        self.errors, self._noscript = (RedisError, OSError), NoScriptError
        try:  # a bounded pool that makes a burst of commands wait their turn, never fail
            pool = aioredis.BlockingConnectionPool.from_url(
                self.url, max_connections=POOL, timeout=30, decode_responses=True,
                socket_connect_timeout=self.timeout, socket_timeout=self.timeout, health_check_interval=30)
            client = aioredis.Redis.from_pool(pool)
        except ValueError as problem:
            raise ClusterError(N_("--redis {url}: {reason}"), url=self.shown, reason=_why(problem)) from None
        try:
            await asyncio.wait_for(client.ping(), self.timeout)
            await self._load_scripts(client)
        except (*self.errors, TimeoutError) as problem:
            await client.aclose()
            raise ClusterError(N_("cannot reach Redis at {url}: {reason}"), url=self.shown,
                               reason=_why(problem)) from None
        self.redis = client
        self._back = asyncio.Event()
        self._back.set()
        self.up = True

    async def close(self) -> None:
        if self._retry is not None:
            self._retry.cancel()
            await asyncio.gather(self._retry, return_exceptions=True)
        for lane in self._lanes:
            await lane.close()
        if self.redis is not None:
            with contextlib.suppress(Exception):
                await self.redis.aclose()
        self.redis, self.up = None, False

    def lane(self, quiet: bool = False) -> Lane:
        """A connection of one task's own (see ``Lane``)."""
        lane = Lane(self.redis.connection_pool, self.timeout, quiet)
        self._lanes.append(lane)
        return lane

    def script(self, name: str, keys: Sequence[str], *args) -> tuple:
        """The command that runs the script ``name`` on ``keys`` with ``args``."""
        return ("EVALSHA", self.sha[name], len(keys), *keys, *args)

    def check(self) -> None:
        """Unavailable while Redis cannot be used."""
        if not self.up:
            raise Unavailable()

    async def wait_up(self) -> None:
        await self._back.wait()

    # -- commands -----------------------------------------------------------------------------
    async def call(self, commands: Sequence[tuple], lane: Lane | None = None) -> list:
        """The replies of ``commands``, sent in one round trip (on ``lane``, else on the pool);
        Unavailable (and the link down) when Redis cannot carry them out."""
        try:
            replies = await self._send(commands, lane)
            if any(isinstance(reply, self._noscript) for reply in replies):  # Redis forgot them: once more
                await self._load_scripts(self.redis)
                replies = await self._send(commands, lane)
            refused = next((reply for reply in replies if isinstance(reply, Exception)), None)
            if refused is not None:  # out of memory, read-only, ...: Redis cannot be used now
                raise refused
        except self.errors as problem:
            self.failed(problem)
            raise Unavailable() from None
        return replies

    async def _send(self, commands: Sequence[tuple], lane: Lane | None) -> list:
        if lane is not None:
            return await lane.send(commands)
        async with self.redis.pipeline(transaction=False) as pipe:
            for command in commands:
                pipe.execute_command(*command)
            return await pipe.execute(raise_on_error=False)

    async def _load_scripts(self, client) -> None:
        for text in self.scripts.values():
            await client.script_load(text)

    # -- away and back ------------------------------------------------------------------------
    def failed(self, problem: BaseException) -> None:
        """Redis could not be used (``problem``): the link is down until Redis answers again."""
        if not self.up:
            return
        self.up = False
        self._back.clear()
        self._away_since = time.monotonic()
        for lane in self._lanes:  # their connections may be Redis's dead ones: new ones next time
            lane.drop()
        log.warning("Redis unreachable at %s (%s); games wait for it, trying again", self.shown,
                    _why(problem))
        self._retry = asyncio.ensure_future(self._come_back())

    async def _come_back(self) -> None:
        pause = self.backoff[0]
        while True:
            await asyncio.sleep(pause)
            try:
                await self._send([("PING",)], None)
                await self._load_scripts(self.redis)
                if self.on_back is not None:
                    await self.on_back()
                break
            except (*self.errors, Unavailable):
                pass
            except Exception:  # a bug in coming back must not leave the service down for good
                log.exception("coming back to Redis failed")
            pause = min(pause * 2, self.backoff[1])
        self.up = True
        self._back.set()
        log.warning("Redis back after %.1f s", time.monotonic() - self._away_since)
