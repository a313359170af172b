"""Hosting one game on a server in this process, its room kept in the rooms database of the data
folder: the one way ``host --headless`` and the terminal app's host do it.

``Host(plan)``: ``open`` the rooms kept for this plan (the unfinished game it hosted before is
``kept``), ``start`` the server (restoring the kept game, or creating a new one), then either
``stop`` (the game stays on disk, to come back with the same code and seats) or ``end`` (the game
ends for everyone). Nothing here imports Textual or says anything: errors are raised as they are
(``OSError`` for a port that cannot be listened on, ``StorageError`` for the rooms database).
"""

from __future__ import annotations

import asyncio
import json

from sos_tui.engine import GameRecord, Seat
from sos_tui.engine.clock import TimeControl

from .limits import Limits
from .room import Room
from .seats import check_seats
from .server import Server
from .store import SqliteRoomStore, StoredRoom


def open_store(key: str | None = None) -> SqliteRoomStore:
    """The rooms of ``key`` (None: ``sos-tui server``'s; a hosted game's ``host_key``) in the
    rooms database of the data folder, written by this process alone; StorageError
    (RoomStoreError) to refuse it: damaged, someone else's, read-only, or in use by another
    process with the same rooms."""
    from sos_tui.storage.paths import rooms_db_path

    return SqliteRoomStore(rooms_db_path(), key=key)


def host_key(size, mode, seats, bind: str, port: int, clock: TimeControl | None = None) -> str:
    """What names a hosted game in the rooms database: the command's settings and address, so the
    same command run again finds its unfinished game."""
    size, mode, specs = check_seats(size, mode, seats)
    timed = {} if clock is None else {"clock": str(clock)}  # an untimed game's key as before clocks
    return json.dumps(
        {"size": size, "mode": str(mode), "seats": [s.to_dict() for s in specs], "bind": bind, "port": port}
        | timed,
        sort_keys=True,
    )


class Host:
    """One hosted game: the server in this process, its room and the rooms database it is kept in.

    ``size``, ``mode``, ``seats``, ``bind``, ``port`` and ``public`` are the command's settings
    (the same settings find the same kept game again); ``computer``, ``computer_delay`` and
    ``listeners`` go to the ``Server``."""

    def __init__(
        self,
        size: int,
        mode: str,
        seats: list[Seat] | tuple[Seat, ...],
        bind: str,
        port: int,
        *,
        public: bool = False,
        clock: TimeControl | None = None,
        computer=None,
        computer_delay: float = 0.5,
        listeners=(),
        claim_after: float | None = None,
    ) -> None:
        self.size, self.mode, self.seats = size, mode, list(seats)
        self.bind, self.port, self.public = bind, port, public
        self.clock = clock
        self.key = host_key(size, mode, self.seats, bind, port, clock)
        limits = Limits() if claim_after is None else Limits(claim_after=claim_after)
        self.server = Server(
            limits, computer=computer, computer_delay=computer_delay, listeners=list(listeners)
        )
        self.store: SqliteRoomStore | None = None
        self.kept: StoredRoom | None = None  # the game this plan hosted last, found on disk
        self._all_kept: list[StoredRoom] = []
        self.room: Room | None = None

    @classmethod
    def of(cls, plan, **options) -> Host:
        """The host of a ``run.HostPlan``."""
        return cls(
            plan.size,
            plan.mode,
            plan.seats,
            plan.bind,
            plan.port,
            public=plan.public,
            claim_after=plan.claim_after,
            clock=plan.clock,
            **options,
        )

    @property
    def unfinished(self) -> GameRecord | None:
        """The kept game's record, if it is a game under way (to offer to continue)."""
        kept = self.kept
        if kept is None or kept.record is None or kept.record.state.is_over:
            return None
        return kept.record

    async def open(self) -> None:
        """Open the rooms database (StorageError if it cannot be) and find the game kept for this plan."""
        self.store = await asyncio.to_thread(open_store, self.key)
        self.server.store = self.store
        self._all_kept = sorted(await asyncio.to_thread(self.store.load), key=lambda k: k.active)
        self.kept = self._all_kept[-1] if self._all_kept else None

    def forget(self) -> None:
        """Delete the games kept for this plan: the next ``start`` creates a new one."""
        for old in self._all_kept:
            self.store.delete(old.code)
        self._all_kept, self.kept = [], None

    async def start(self) -> Room:
        """Listen (OSError if the port cannot be had) with the kept game restored, or a new one
        created; returns once the room is on disk (StorageError if it cannot be kept)."""
        if self.store is None:
            await self.open()
        room = self.server.restore(self.kept) if self.kept is not None else None
        try:
            await self.server.start(self.bind, self.port)
        except OSError:
            await self.store.close()
            self.store = None
            raise
        if room is None:
            room = self.server.create_room(
                self.size, self.mode, self.seats, key=self.key, public=self.public, clock=self.clock
            )
        self.room = room
        await room.saved()
        return room

    def url(self, host: str | None = None) -> str:
        """The join URL of the game, with ``host`` for the server's address (else the bound one)."""
        return self.server.url(self.room, host)

    async def stop(self) -> None:
        """Stop serving, the game kept on disk as it stands (the same plan brings it back)."""
        try:
            await self.server.restart()
        finally:
            await self._close_store()

    async def end(self, why: str, /, **params) -> None:
        """The game ends for everyone (``why`` a template the clients are told) and the server stops."""
        try:
            for room in list(self.server.rooms.values()):
                if room.session is None or not room.session.state.is_over:
                    await self.server.close_room(room, why, **params)
            await self.server.stop()
        finally:
            await self._close_store()

    async def finish(self, why: str) -> None:
        """The game is over: close its room with ``why`` (once the last state reached everyone) and stop."""
        try:
            await asyncio.sleep(0.5)  # the last state reaches everyone before the server goes
            await self.server.close_room(self.room, why)
            await self.server.stop()
        finally:
            await self._close_store()

    async def _close_store(self) -> None:
        store, self.store = self.store, None
        if store is not None:
            await store.close()
