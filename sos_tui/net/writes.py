"""A room's changes kept before anyone hears of them: a room hands its store (``store.RoomStore``)
the room as it is now with the frames that tell it, and the frames go out once it is kept."""

from __future__ import annotations

import asyncio
from typing import Protocol

from .member import Member
from .store import RoomStore, RoomStoreError, StoredRoom

Frames = list[tuple[Member, str]]
"""Each client with the text to send it."""


class Keeping(Protocol):
    """What the writes need of the server that holds the room (``server.Server``)."""

    store: RoomStore | None  # every change is kept here before anyone is told (None: not kept)

    def unkept(self, room) -> None:
        """The store could not keep a change of ``room``: nobody is told of it."""


class Kept(Protocol):
    """What the writes need of their room (``room.Room``)."""

    def stored(self) -> StoredRoom:
        """The room as it is now, to keep."""


class Writes:
    """The writes of ``room``, held by ``server``."""

    def __init__(self, server: Keeping, room: Kept) -> None:
        self.server, self.room = server, room

    def tell(self, frames: Frames, *, state: bool = True) -> None:
        """Keep the room as it is now (with a store), then send each client its frame of
        ``frames``: whatever a client is told of the room is on disk first. In order: frames go
        out as they were asked. The store may send some itself (``RoomStore.save``: the Redis
        store, a relayed client's). A ``state`` tells each client the room: it may hear presence
        from then on. A change the store could not keep is told to nobody (``Server.unkept``)."""
        store = self.server.store
        if store is None:
            _tell(frames, (), state)
        else:
            saving = store.save(self.room.stored(), frames)
            saving.add_done_callback(lambda done: self._kept(done, frames, state))

    def _kept(self, done: asyncio.Future, frames: Frames, state: bool) -> None:
        if done.cancelled():
            return
        problem = done.exception()
        if problem is None:
            _tell(frames, done.result() or (), state)
        elif isinstance(problem, RoomStoreError):
            self.server.unkept(self.room)
        # any other (a lost Redis lease): the cluster sends the room's clients away itself

    async def saved(self) -> None:
        """Return once the room as it is now is on disk (at once without a store); the store's
        error if it could not be kept (a Redis store whose lease on the room was lost)."""
        if self.server.store is not None:
            await self.server.store.save(self.room.stored())


def _tell(frames: Frames, sent, state: bool) -> None:
    """Send each client its frame, but those ``sent`` already; after a ``state``, each has the room."""
    for client, text in frames:
        if client not in sent:
            client.send(text)
        if state:
            client.ready = True
