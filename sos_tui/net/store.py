"""Rooms on disk, so a game outlives its server: ``RoomStore`` (what a server needs) and
``SqliteRoomStore``, the embedded default (``<data>/rooms.sqlite3``, WAL).

A room is stored whole (``StoredRoom``): its code, board, seats with their tokens *hashed*
(``token_hash``; a token itself is never written), the game record (``GameRecord.to_dict``) and
the session's ``version``. ``save`` and ``delete`` return at once with a future that is done when
the change is committed; one writer thread commits them in the order they were asked (many rooms'
changes in one transaction when they queue up), so the event loop never waits on the disk and a
room's changes reach the disk in order. A server broadcasts a change only once its future is done.

``synchronous = NORMAL`` in WAL mode: a commit survives the server's process being killed (the
case this store is for); a power cut may lose the last commits (``FULL`` would fsync each batch:
about 3x the p95 move round trip with 200 games on a 2-core machine, against ~1x; see
benchmarks/net.py).

An existing file is first looked at read-only: a file that is not a database, someone else's
database or one from a newer sos-tui is refused with ``RoomStoreError`` and left as it was. A
0-byte file (what SQLite makes of a new database) is a new, empty store. A store that cannot be
written (read-only to this user) is refused when opened, not found out at the first move.

One writer: a store is the rooms of one ``sos-tui server`` (``key`` None) or of one hosted game
(its key, ``host --headless`` and the app's host), and while it is open its process holds a lock
(``flock``) on a file of its own in ``<path>.locks/``: a second process opening the same rooms is
refused (``RoomStoreError``) instead of bringing them back too and losing moves to the other one.
The lock goes with the process, so a server that was killed is started again at once. (Where
there is no ``flock``, on Windows, there is no lock.)

A save that cannot be committed (the disk is full, another program holds the database) fails
with ``RoomStoreError``; the server then tells nobody of that change (``server.Server.unkept``).

Schema (``PRAGMA application_id`` marks the file as ours, ``user_version`` is its version)::

    rooms (code TEXT PRIMARY KEY, size, mode, host_key TEXT, creator TEXT, created_at REAL,
           active_at REAL, version INTEGER, record TEXT,       -- record: JSON, NULL in the lobby
           public INTEGER,                                   -- 1: listed in the lobby (schema 2)
           clock TEXT, clocks TEXT,                          -- a timed room (schema 3): its
                                                             -- control ("5+3", "2d") and clocks
           rated INTEGER)                                    -- 1: a rated room (schema 4)
    seats (code, seat INTEGER, kind, name, level, token_hash,   -- PRIMARY KEY (code, seat)
           bot INTEGER)                                      -- 1: a bot sits there (schema 5)

``host_key`` is set on a ``sos-tui host --headless`` room (its settings and address, so the same
command finds it again) and NULL on a ``sos-tui server`` room.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import queue
import sqlite3
import stat
import threading
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol
from urllib.request import pathname2url

try:
    import fcntl
except ImportError:  # Windows: no lock (see the module's doc)
    fcntl = None

from sos_tui.engine import GameRecord, Mode, Seat
from sos_tui.engine.clock import TimeControl
from sos_tui.engine.text import Phrase
from sos_tui.i18n import N_
from sos_tui.storage.errors import StorageError, describe, shown_path

log = logging.getLogger(__name__)

APPLICATION_ID = 0x534F5352  # "SOSR"
SCHEMA_VERSION = 5
SCHEMA = """
CREATE TABLE rooms (
    code       TEXT PRIMARY KEY,
    size       INTEGER NOT NULL,
    mode       TEXT NOT NULL,
    host_key   TEXT,
    creator    TEXT,
    created_at REAL NOT NULL,
    active_at  REAL NOT NULL,
    version    INTEGER NOT NULL,
    record     TEXT,
    public     INTEGER NOT NULL DEFAULT 0,
    clock      TEXT,
    clocks     TEXT,
    rated      INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX rooms_host_key ON rooms (host_key);
CREATE TABLE seats (
    code       TEXT NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
    seat       INTEGER NOT NULL,
    kind       TEXT NOT NULL,
    name       TEXT,
    level      TEXT,
    token_hash TEXT,
    bot        INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (code, seat)
);
"""
TABLES = {"rooms", "seats"}
MIGRATIONS = {1: "ALTER TABLE rooms ADD COLUMN public INTEGER NOT NULL DEFAULT 0",
              2: "ALTER TABLE rooms ADD COLUMN clock TEXT; ALTER TABLE rooms ADD COLUMN clocks TEXT",
              3: "ALTER TABLE rooms ADD COLUMN rated INTEGER NOT NULL DEFAULT 0",
              4: "ALTER TABLE seats ADD COLUMN bot INTEGER NOT NULL DEFAULT 0"}
"""From a schema version to the next: what a store of that version is changed with when opened."""


class RoomStoreError(StorageError):
    """The rooms database cannot be used; the message names the file and says why."""


@dataclass(frozen=True, slots=True)
class StoredSeat:
    """A room's seat as it is kept: who sits there and the hash of the token that holds it. Kept
    as a row ``(kind, name, level, token_hash)`` (a table's columns in SQLite, a list in Redis),
    and a fifth column, 1, where a bot sits (``Seat.bot``): every other seat's row is the same as
    before bots, so an older process of a Redis service still reads it."""

    seat: Seat
    token_hash: str | None = None

    def to_row(self) -> tuple:
        row = (self.seat.kind, self.seat.name, self.seat.level, self.token_hash)
        return (*row, 1) if self.seat.bot else row

    def to_columns(self) -> tuple:
        """The row as the SQLite table's five columns (``bot`` 0 or 1)."""
        return (*self.to_row(), 0)[:5]

    @classmethod
    def from_row(cls, row) -> StoredSeat:
        """The seat ``to_row`` wrote (or an older sos-tui's, without ``bot``); ValueError (a
        ``SeatError`` naming an unknown kind) or TypeError if ``row`` is not one."""
        kind, name, level, token_hash, *bot = row
        if len(bot) > 1:
            raise ValueError(f"a seat of {len(row)} columns")
        return cls(Seat(name, kind, level, bot=bool(bot and bot[0])), token_hash)


@dataclass(frozen=True, slots=True)
class StoredRoom:
    """A room as it is kept: everything needed to open it again with the same code and seats."""

    code: str
    size: int
    mode: str
    seats: tuple[StoredSeat, ...]
    record: GameRecord | None  # None in the lobby
    version: int
    created: float  # wall-clock seconds
    active: float
    key: str | None = None  # a hosted room's key (host --headless); None on a server
    creator: str | None = None  # the address (or /64) that created it over the network
    public: bool = False  # listed in the server's lobby while seats are open
    clock: TimeControl | None = None  # the time control of a timed room
    clocks: dict | None = None  # its game's clocks (``roomclock.stored_clocks``: Unix time)
    rated: bool = False  # a finished game between keyed people rates them (``rating``)


def lobby_entry(room: StoredRoom):
    """``room`` as the lobby lists it (a ``protocol.LobbyRoom``), or None: only a public room
    whose game has not started and that has a seat open is listed."""
    if not room.public or room.record is not None:  # a move's write: at once
        return None
    free = sum(1 for s in room.seats if s.seat.is_open)
    if not free:
        return None
    from .protocol import LobbyRoom

    return LobbyRoom(room.code, room.size, Mode(room.mode), len(room.seats), free,
                     tuple(s.seat.name for s in room.seats if s.seat.name and s.seat.person), room.rated)


class RoomStore(Protocol):
    """What a ``Server`` needs to keep its rooms (SQLite here; a Redis store would do the same)."""

    def load(self, code: str | None = None) -> list[StoredRoom]:
        """The rooms kept in this store (only the one of ``code``, if given). Blocking: call
        before serving, or in a thread."""

    def save(self, room: StoredRoom, frames=()) -> asyncio.Future[Collection[object] | None]:
        """Keep ``room`` (replacing what was kept under its code); done once committed, or failed
        with the store's error if it could not be. ``frames`` (client, text) are for the caller to
        send once it is committed; the store may send some itself, with the write (the Redis store:
        a relayed client's), and the future's result names the clients it sent to (None: none)."""

    def delete(self, code: str) -> asyncio.Future[None]:
        """Forget the room ``code``; done once committed."""

    async def flush(self) -> None:
        """Return once everything asked so far is committed."""

    async def close(self) -> None:
        """Commit everything asked so far, then let go of the store."""


class SqliteRoomStore:
    """The rooms of ``key`` (None: a ``sos-tui server``'s; a hosted game's key) in an SQLite
    file, written by one thread of its own and one process at a time (see the module's doc)."""

    def __init__(self, path: Path, *, key: str | None = None, timeout: float = 10.0) -> None:
        self.path, self.key = path, key
        self._conn = _connect(path, timeout)
        try:
            self._lock = _hold(path, key)
        except RoomStoreError:
            self._conn.close()
            raise
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._seats: dict[str, list] = {}  # the seats last written, by room: the writer thread's own
        self._thread = threading.Thread(target=self._write, name="sos-rooms-writer", daemon=True)
        self._thread.start()

    # -- reading -----------------------------------------------------------------------------
    def load(self, code: str | None = None) -> list[StoredRoom]:
        conn = sqlite3.connect(self.path, timeout=10.0)
        try:
            rows = conn.execute("SELECT code, size, mode, host_key, creator, created_at, active_at, "
                                "version, record, public, clock, clocks, rated FROM rooms "
                                "WHERE host_key IS ? AND (code = ? OR ? IS NULL)",
                                (self.key, code, code)).fetchall()
            rooms = []
            for (code, size, mode, host_key, creator, created, active, version, record, public, clock, clocks,
                 rated) in rows:
                rows = conn.execute("SELECT kind, name, level, token_hash, bot FROM seats WHERE code = ? "
                                    "ORDER BY seat", (code,)).fetchall()
                try:
                    seats = tuple(map(StoredSeat.from_row, rows))
                except (ValueError, TypeError) as problem:
                    log.warning("room %s: its seats cannot be read (%s); left out", code, problem)
                    continue
                try:
                    game = GameRecord.from_dict(json.loads(record)) if record is not None else None
                    control = TimeControl.parse(clock) if clock is not None else None
                    clocks = json.loads(clocks) if clocks is not None else None
                except (ValueError, TypeError, RecursionError) as problem:
                    log.warning("room %s: its game cannot be read (%s); left out", code, problem)
                    continue
                rooms.append(StoredRoom(code, size, mode, seats, game, version, created, active, host_key,
                                        creator, bool(public), control, clocks, bool(rated)))
            return rooms
        except sqlite3.Error as error:
            raise RoomStoreError(N_("cannot read the rooms {path}: {reason}"), path=shown_path(self.path),
                                 reason=_why(error)) from None
        finally:
            conn.close()

    # -- writing -----------------------------------------------------------------------------
    def save(self, room: StoredRoom, frames=()) -> asyncio.Future[None]:
        return self._ask(room)

    def delete(self, code: str) -> asyncio.Future[None]:
        return self._ask(code)

    async def flush(self) -> None:
        """Wait until everything asked so far is committed."""
        await self._ask(None)

    async def close(self) -> None:
        if self._conn is None:
            return
        await self.flush()
        self._jobs.put(STOP)
        await asyncio.to_thread(self._thread.join)
        self._conn = None
        if self._lock is not None:
            os.close(self._lock)  # the lock goes with it
            self._lock = None

    def _ask(self, job) -> asyncio.Future[None]:
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self._jobs.put((job, future, loop))
        return future

    def _write(self) -> None:
        conn = self._conn
        while True:
            batch = [self._jobs.get()]
            while len(batch) < 1000:
                try:
                    batch.append(self._jobs.get_nowait())
                except queue.Empty:
                    break
            stop = STOP in batch
            batch = [job for job in batch if job is not STOP]
            failed = None
            try:
                _commit(conn, [job for job, _future, _loop in batch], self._seats)
            except (sqlite3.Error, ValueError) as problem:  # its saves fail: nobody is told of them
                log.error("cannot write the rooms %s: %s", self.path, problem)
                failed = _refuse(self.path, N_("cannot write the rooms database {path}: {reason}"),
                                 reason=_why(problem))
            for job, future, loop in batch:  # a delete or a flush that failed is only logged
                with contextlib.suppress(RuntimeError):  # a loop already closed
                    loop.call_soon_threadsafe(_settle, future,
                                              failed if isinstance(job, StoredRoom) else None)
            if stop:
                conn.close()
                return


STOP = object()


def _settle(future: asyncio.Future, problem: Exception | None) -> None:
    if future.done():
        return
    if problem is None:
        future.set_result(None)
    else:
        future.set_exception(problem)


def _commit(conn: sqlite3.Connection, jobs: list, seats: dict) -> None:
    """Write ``jobs`` (StoredRoom to keep, code to delete, None to only wait) in one transaction;
    of several versions of one room in the batch, only the newest is written, and its seats only
    when they changed since ``seats`` (code -> the seats last written, kept by the writer)."""
    latest: dict[str, StoredRoom | None] = {}
    for job in jobs:
        if isinstance(job, StoredRoom):
            latest[job.code] = job
        elif isinstance(job, str):
            latest[job] = None
    if not latest:
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        for code, room in latest.items():
            if room is None:
                conn.execute("DELETE FROM seats WHERE code = ?", (code,))
                conn.execute("DELETE FROM rooms WHERE code = ?", (code,))
                seats.pop(code, None)
                continue
            record = None if room.record is None else json.dumps(room.record.to_dict(), ensure_ascii=False)
            clocks = None if room.clocks is None else json.dumps(room.clocks)
            conn.execute(
                "INSERT INTO rooms (code, size, mode, host_key, creator, created_at, active_at, version, "
                "record, public, clock, clocks, rated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (code) DO UPDATE SET active_at = excluded.active_at, "
                "version = excluded.version, record = excluded.record, clocks = excluded.clocks",
                (code, room.size, room.mode, room.key, room.creator, room.created, room.active, room.version,
                 record, int(room.public), None if room.clock is None else str(room.clock), clocks,
                 int(room.rated)))
            rows = [(code, i, *s.to_columns()) for i, s in enumerate(room.seats)]
            if seats.get(code) != rows:  # a join, a rematch: most saves are a move, seats unchanged
                conn.execute("DELETE FROM seats WHERE code = ?", (code,))
                conn.executemany(
                    "INSERT INTO seats (code, seat, kind, name, level, token_hash, bot) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    rows)
        conn.execute("COMMIT")
    except BaseException:
        seats.clear()  # not written after all: write them again next time
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
        raise
    for code, room in latest.items():
        if room is not None:
            seats[code] = [(code, i, *s.to_columns()) for i, s in enumerate(room.seats)]


# -- opening -----------------------------------------------------------------------------------
def _refuse(path: Path, template: str, **params) -> RoomStoreError:
    return RoomStoreError(template, path=shown_path(path), **params)


_READ_ONLY = 8  # SQLITE_READONLY
_IN_USE = (5, 6)  # SQLITE_BUSY, SQLITE_LOCKED


def _sqlite_code(error: BaseException) -> int | None:
    """The primary SQLite result code of ``error`` (None for any other error)."""
    code = getattr(error, "sqlite_errorcode", None)
    return None if code is None else code & 0xFF


def _why(error: BaseException) -> str:
    """Why the rooms database could not be used, in a player's words (``describe``'s, but for the
    rooms: its SQLite words name the history)."""
    code = _sqlite_code(error)
    if code == _READ_ONLY:
        return Phrase("it is read-only")
    if code in _IN_USE:
        return Phrase("another program holds it")
    return describe(error)


def _hold(path: Path, key: str | None) -> int | None:
    """Take the lock that makes this process the one writer of ``key``'s rooms in the store at
    ``path``: the open descriptor that holds it (None where there is no ``flock``).
    RoomStoreError if another process holds it, or it cannot be made."""
    if fcntl is None:
        return None
    name = "server" if key is None else hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    lock = path.with_name(path.name + ".locks") / name
    try:
        lock.parent.mkdir(exist_ok=True)
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as error:
        raise _refuse(path, N_("the rooms database {path} cannot be written: {reason}"),
                      reason=describe(error)) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise _refuse(path, N_("the rooms database {path} is in use by another sos-tui with the same "
                               "rooms (a server, or a host of the same game): stop it first, or use "
                               "another data folder (SOS_TUI_DATA_DIR)")) from None
    except OSError as error:  # no locks on this file system: no telling whether another writes
        os.close(fd)
        raise _refuse(path, N_("the rooms database {path} cannot be written: {reason}"),
                      reason=describe(error)) from None
    return fd


def _check_ours(path: Path, timeout: float) -> None:
    """Look at an existing, non-empty file read-only; RoomStoreError unless it is our rooms store."""
    info = path.stat()
    if not stat.S_ISREG(info.st_mode):
        raise _refuse(path, N_("the rooms database {path} is not a regular file; it was left as it is"))
    conn = sqlite3.connect(f"file:{pathname2url(str(path))}?mode=ro", uri=True, timeout=timeout)
    try:
        application = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = {row[0] for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")}
    except sqlite3.DatabaseError:
        raise _refuse(path, N_("the rooms database {path} is damaged or is not an SQLite database; it was "
                               "left as it is")) from None
    finally:
        conn.close()
    if application == 0 and version == 0 and not tables:
        return  # an empty database: ours to fill
    if application != APPLICATION_ID or not tables >= TABLES:
        raise _refuse(path, N_("the rooms database {path} is an SQLite database but not sos-tui's rooms; it "
                               "was left as it is"))
    if version > SCHEMA_VERSION:
        raise _refuse(path, N_("the rooms database {path} was written by a newer sos-tui (schema {version}); "
                               "it was left as it is"), version=version)


def _connect(path: Path, timeout: float) -> sqlite3.Connection:
    """Open (or create) the store at ``path`` for the writer thread; RoomStoreError if refused."""
    try:
        if path.exists() and path.stat().st_size > 0:
            _check_ours(path, timeout)
        conn = sqlite3.connect(path, timeout=timeout, isolation_level=None, check_same_thread=False)
    except OSError as error:
        raise _refuse(path, N_("cannot open the rooms database {path}: {reason}"), reason=_why(error)) \
            from None
    except sqlite3.Error as error:
        raise _refuse(path, N_("cannot open the rooms database {path}: {reason}"), reason=_why(error)) \
            from None
    try:
        conn.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("BEGIN IMMEDIATE")
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version == 0:
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    conn.execute(statement)
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        while 0 < version < SCHEMA_VERSION:  # an older sos-tui's store: brought up to date
            for statement in MIGRATIONS[version].split(";"):
                conn.execute(statement)
            version += 1
            conn.execute(f"PRAGMA user_version = {version}")
        conn.execute("UPDATE rooms SET code = code WHERE 0")  # writes nothing; fails if it cannot write
        conn.execute("COMMIT")
    except sqlite3.Error as error:
        conn.close()
        if _sqlite_code(error) == _READ_ONLY:
            raise _refuse(path, N_("the rooms database {path} cannot be written: {reason}"),
                          reason=_why(error)) from None
        raise _refuse(path, N_("cannot open the rooms database {path}: {reason}"), reason=_why(error)) \
            from None
    return conn
