"""The one place where an engine's misbehaviour ends its game.

An engine that breaks the protocol, plays an illegal move, runs out of time, hangs or crashes
loses the game it was playing (``docs/engine-protocol.md``). ``forfeit`` says so as a value:
who lost, why, and who wins. When the engine's rules learn to end a game early (a seat that
drops out), this is the function that asks them to; every caller goes through it.
"""

from __future__ import annotations

from dataclasses import dataclass

from sos_tui.engine import GameState

from .client import EngineError


@dataclass(frozen=True)
class Forfeit:
    """Seat ``seat`` lost the game at ``state`` because of ``reason``; the others win."""

    state: GameState
    seat: int
    reason: EngineError

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(seat for seat in range(self.state.players) if seat != self.seat)


def forfeit(state: GameState, seat: int, reason: EngineError) -> Forfeit:
    """Seat ``seat``'s engine loses the game at ``state`` for ``reason``."""
    return Forfeit(state, seat, reason)
