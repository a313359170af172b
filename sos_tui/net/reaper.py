"""The rooms a server closes by itself (``Limits``): a room nobody played minutes after it was made
(``room.Room.played``), a game over after a while, and a room without a move for long (never one
whose clock runs, and a correspondence room only after its days per move: ``roomclock.idle_after``)."""

from __future__ import annotations

import asyncio
import time
from typing import Protocol

from sos_tui.i18n import N_

from .door import Door
from .limits import Limits
from .roomclock import idle_after


class Reaped(Protocol):
    """What the reaper needs of its server (``server.Server``)."""

    limits: Limits
    rooms: dict  # code -> ``room.Room``
    door: Door

    async def close_room(self, room, why: str, **params) -> None: ...


async def reap(server: Reaped) -> None:
    """Every ``Limits.reap_every`` seconds, close the rooms whose time is up; forget the addresses
    whose allowances are full again."""
    limits = server.limits
    while True:
        await asyncio.sleep(limits.reap_every)
        now = time.monotonic()
        server.door.prune()
        for room in list(server.rooms.values()):
            unplayed, idle = idle_after(room, limits.unplayed_idle), idle_after(room, limits.room_idle)
            if room.creator is not None and not room.played and unplayed is not None and \
                    time.time() - room.created > unplayed:
                await server.close_room(room, N_("closed after {minutes} minutes without a move"),
                                        minutes=int(unplayed // 60))
            elif room.finished_at is not None and now - room.finished_at > limits.finished_linger:
                await server.close_room(room, N_("the game is over"))
            elif idle is not None and now - room.active > idle:
                await server.close_room(room, N_("closed after {minutes} minutes without a move"),
                                        minutes=int(idle // 60))
