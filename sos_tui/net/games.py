"""This player's network games in progress (``sos-tui games``, the setup screen's count): one for
each seat token kept in the data folder (``tokens.TokenStore``, across servers and hosts), each
server asked at once how its game stands (a ``peek``: the seats are not taken, nobody is told),
each in a bounded time. A game that is over, gone or no longer the token's is left out; one whose
server does not answer is kept with the reason.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from sos_tui.engine.clock import Clocks
from sos_tui.i18n import N_, explain
from sos_tui.session.timing import monotonic_ms

from .client import NetError, peek_room
from .protocol import StateMessage
from .tokens import HOST, SeatKey, TokenStore
from .vocabulary import Phase

ASK_TIMEOUT = 5.0
"""Seconds each server has to say how its game stands."""
GONE_CODES = frozenset({"no-room", "gone"})
"""The answers of a server whose game is no more: the token is left out."""


@dataclass(frozen=True)
class Standing:
    """How the game of a kept seat token stands: its ``key`` (address, whose seats), the ``seats``
    the token holds and the server's ``state`` (``received`` at this process's monotonic ms, its
    clocks counting from then); or, when the server could not be asked, ``problem``."""

    key: SeatKey
    seats: tuple[int, ...] = ()
    state: StateMessage | None = None
    received: int = 0
    problem: str | None = None

    @property
    def url(self) -> str:
        return self.key.address

    @property
    def names(self) -> tuple[str, ...]:
        state = self.state
        return tuple(view.seat.name or "?" for view in state.seats) if state is not None else ()

    @property
    def bots(self) -> tuple[bool, ...]:
        """Which seats are bots' (revision 6), as ``names`` lists them."""
        state = self.state
        return tuple(view.seat.bot for view in state.seats) if state is not None else ()

    @property
    def player(self) -> str | None:
        """The name of the first seat the token holds (who plays it here)."""
        names = self.names
        return names[self.seats[0]] if self.seats and self.seats[0] < len(names) else None

    @property
    def to_move(self) -> str | None:
        """Who is to move (None in the lobby, or when not known)."""
        state = self.state
        if state is None or state.phase != Phase.PLAYING or state.to_move is None:
            return None
        return self.names[state.to_move] if state.to_move < len(self.names) else None

    @property
    def your_turn(self) -> bool:
        """One of this player's seats is to move: the game waits for them."""
        state = self.state
        return state is not None and state.phase == Phase.PLAYING and state.to_move in self.seats

    @property
    def clocks(self) -> Clocks | None:
        state = self.state
        return state.clocks.clocks(self.received) if state is not None and state.clocks else None

    def time_left(self, now: int) -> int | None:
        """The time left of the seat to move at ``now`` (ms), in a timed game under way."""
        clocks, state = self.clocks, self.state
        if clocks is None or state is None or state.to_move is None or state.phase != Phase.PLAYING:
            return None
        return clocks.remaining(state.to_move, now)

    def to_dict(self, now: int) -> dict:
        """As ``sos-tui games --json`` writes it."""
        state = self.state
        return {
            "url": self.url,
            "host": self.key.role == HOST,
            "player": self.player,
            "players": list(self.names),
            "bots": list(self.bots),
            "phase": state.phase if state is not None else None,
            "size": state.size if state is not None else None,
            "mode": str(state.mode) if state is not None else None,
            "clock": str(state.clocks.control) if state is not None and state.clocks else None,
            "to_move": self.to_move,
            "your_turn": self.your_turn,
            "time_left_ms": self.time_left(now),
            "problem": self.problem,
        }


async def standings(tokens: TokenStore, timeout: float = ASK_TIMEOUT) -> list[Standing]:
    """The games in progress of every seat token kept in ``tokens``, the newest first, each
    server asked at once and given ``timeout`` seconds."""
    asked = await asyncio.gather(*(_ask(key, token, timeout) for key, token in tokens.seats()))
    return [standing for standing in asked if standing is not None]


async def _ask(key: SeatKey, token: str, timeout: float) -> Standing | None:
    try:
        seats, state = await asyncio.wait_for(peek_room(key.address, token, timeout), timeout)
    except TimeoutError:
        return Standing(key, problem=explain(NetError(N_("the server did not answer"))))
    except (NetError, ValueError) as problem:
        if getattr(problem, "code", None) in GONE_CODES:
            return None
        return Standing(key, problem=explain(problem))
    if not seats or state.phase == Phase.OVER:
        return None  # not this player's game any more, or over
    return Standing(key, seats, state, monotonic_ms())


def waiting_for_you(found: list[Standing]) -> int:
    """How many of the games ``found`` wait for this player's move."""
    return sum(standing.your_turn for standing in found)
