"""The one place where an engine's misbehaviour ends its game.

An engine that breaks the protocol, plays an illegal move, runs out of time, hangs or crashes
loses the game it was playing (``docs/engine-protocol.md``). ``forfeit`` says so as a value:
who lost, why, and the game after it: the seat dropped out by the rules (``GameState.drop``),
on time when it ran over its time, as having left otherwise. With two players the other one
wins; with more, the others play on without it. Every caller goes through it.
"""

from __future__ import annotations

from dataclasses import dataclass

from sos_tui.engine import GameState, Termination

from .client import EngineError, Failure


@dataclass(frozen=True)
class Forfeit:
    """Seat ``seat`` lost the game at ``state`` because of ``reason``: ``after`` is the game with
    the seat dropped out (``why``)."""

    state: GameState
    seat: int
    reason: EngineError

    @property
    def why(self) -> Termination:
        return Termination.TIME if self.reason.failure is Failure.TIME else Termination.ABANDON

    @property
    def after(self) -> GameState:
        return self.state.drop(self.seat, self.why)

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats that win at once (two players), or the seats still in that play on."""
        after = self.after
        return after.winners if after.is_over else after.still_in


def forfeit(state: GameState, seat: int, reason: EngineError) -> Forfeit:
    """Seat ``seat``'s engine loses the game at ``state`` for ``reason``."""
    return Forfeit(state, seat, reason)
