"""A room's clocks on the server, which is their truth (docs/protocol.md, "Clocks"; the rules are
the engine's ``Clocks``, docs/clocks.md).

- **Time**: a room's session runs on the server's monotonic clock (``ServerTime.now``); what the
  store keeps is on Unix time (``ServerTime.wall``), so that a room brought back after a restart
  has counted the time the server was down against the seat to move (``stored_clocks`` / ``restored_clocks``).
- **The flag**: one timer per room (``FlagTimer``), set after every change for the moment the seat
  to move runs out; it applies the flag (``GameSession.check_time``), which everyone is told as a
  ``state`` like any change. A room brought back sets it again (a correspondence game's days run
  across restarts).
- **Lag**: a move is credited its transit, half the round trip of the connection's last
  WebSocket ping (``lag_ms``), at most ``clock.LAG_BOUND_MS``.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace

from sos_tui.engine.clock import Clocks
from sos_tui.session.timing import monotonic_ms

from .protocol import ClockView


class ServerTime:
    """The server's time: ``now`` (monotonic ms: the rooms' clocks), ``wall`` (Unix ms: what the
    store keeps) and ``delay`` (the event loop's seconds for ``ms`` of that time). Tests give one
    that runs faster, or that they move by hand."""

    def now(self) -> int:
        return monotonic_ms()

    def wall(self) -> int:
        return time.time_ns() // 1_000_000

    def delay(self, ms: int) -> float:
        return ms / 1000


def stored_clocks(clocks: Clocks, clock: ServerTime) -> dict:
    """``clocks`` as the store keeps them: the running seat's start on Unix time."""
    data = clocks.to_dict()
    if data["since"] is not None:
        data["since"] += clock.wall() - clock.now()
    return data


def restored_clocks(data, clock: ServerTime) -> Clocks:
    """The clocks ``stored_clocks`` wrote, on this process's monotonic time (ClockError if not clocks)."""
    clocks = Clocks.from_dict(data)
    if clocks.since is None:
        return clocks
    return replace(clocks, since=clocks.since - (clock.wall() - clock.now()))


def clock_view(room) -> ClockView | None:
    """The clocks a state of ``room`` (a ``room.Room``) carries: its game's as they stand, in the
    lobby every seat's whole time (none running); None in an untimed room."""
    session, control = room.session, room.clock
    if session is not None and session.timed:
        return ClockView.of(session.clocks, session.now())
    if control is None:
        return None
    return ClockView(control, (control.initial_ms,) * len(room.seats), None)


def idle_after(room, seconds: float) -> float | None:
    """How long ``room`` may go with no move or join before it is closed, for a limit of
    ``seconds``: None while a clock runs (its flag ends the game); a correspondence room waits at
    least its days per move (its players come when they like)."""
    session, control = room.session, room.clock
    if session is not None and session.when_flag() is not None:
        return None
    if control is not None and control.per_move:
        return max(seconds, control.initial_ms / 1000)
    return seconds


def lag_ms(latency: float | None) -> int:
    """A move's transit, from the connection's round trip ``latency`` in seconds (its last
    WebSocket ping): half of it (the credit is bounded by ``lag_credit``)."""
    return max(0, int((latency or 0.0) * 1000) // 2)


class FlagTimer:
    """One timer for a room: at the moment the seat to move runs out, the flag is applied."""

    def __init__(self, room) -> None:
        self.room = room  # a ``room.Room``
        self._handle: asyncio.TimerHandle | None = None

    def set(self) -> None:
        """Set for the room's game as it stands now (cancelled when no time runs)."""
        self.cancel()
        session = self.room.session
        wait = session.when_flag() if session is not None and not self.room.closed else None
        if wait is not None:
            delay = self.room.server.time.delay(wait)
            self._handle = asyncio.get_running_loop().call_later(delay, self._fire)

    def _fire(self) -> None:
        self._handle = None
        session = self.room.session
        if self.room.closed or session is None:
            return
        if session.check_time() is None:  # woken a moment early: the room's change sets it otherwise
            self.set()

    def cancel(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
