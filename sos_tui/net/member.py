"""What a room knows of a connection in it (``server.Client``, a relayed ``relay.RelayClient``)."""

from __future__ import annotations

import asyncio
from typing import Protocol

from .protocol import Message


class Member(Protocol):
    """A connection in a room: the seats it holds by its token, what its hello said, and how to
    send to it or close it."""

    room: object | None  # the ``room.Room`` it is in
    seats: tuple[int, ...]
    name: str | None
    token: str | None
    bye: bool  # said it leaves on purpose
    minor: int  # the protocol revision its hello said it understands
    ready: bool  # it has had a state of its room
    latency: float  # seconds: the round trip of its last WebSocket ping (0 before the first)

    def send(self, message: Message | str) -> None:
        """Queue ``message`` without waiting."""

    async def close(self, code: int, reason: str) -> None:
        """Close the connection with ``code`` and ``reason`` (a word of ``errors.CloseReason``)."""


_TASKS: set[asyncio.Task] = set()


def background(coroutine) -> None:
    """Run ``coroutine`` on its own, keeping a reference until it ends."""
    task = asyncio.ensure_future(coroutine)
    _TASKS.add(task)
    task.add_done_callback(_TASKS.discard)
