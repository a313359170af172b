"""One game, wherever it is played: what a screen needs of it.

A local ``GameSession``, the network client's mirror of a room (``sos_tui.net.RemoteGame``) and a
replay (a ``Replay``: a recorded game, stepped through) all present this protocol, so
one game view shows any of them and a screen offers exactly what the person at this terminal may
do there: ``may(action)`` answers for the actions a screen binds (a key that is not offered is
not bound, not bound only to say "not here").
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Protocol, runtime_checkable

from sos_tui.engine import GameRecord, GameState, Seat, SeatKind

from .session import Change


class Action(StrEnum):
    """What a person may ask of a game (the screens' action names)."""

    MOVE = "move"
    UNDO = "undo"
    REDO = "redo"
    HINT = "hint"
    PAUSE = "pause"
    REMATCH = "rematch"
    REPLAY = "replay"
    PLAY_ON = "play_from_here"
    """Go on playing a replayed game from the move shown, as a new game."""
    RESIGN = "resign"
    ABORT = "abort"
    """End the game with no result, before every person here has moved."""
    OFFER_DRAW = "offer_draw"
    CLAIM = "claim"
    """Claim the win (or drop the seat) of a network player gone too long."""


@runtime_checkable
class GameSource(Protocol):
    @property
    def state(self) -> GameState | None:
        """The position shown (None before a network game has one)."""

    @property
    def seats(self) -> tuple[Seat, ...]:
        """Who sits where, from this terminal's side: its own people ``human``."""

    @property
    def record(self) -> GameRecord | None:
        """The game as it stands."""

    @property
    def kind_to_move(self) -> SeatKind | None:
        """Who is to move: a person here, a computer, a person elsewhere; None when over."""

    def may(self, action: Action) -> bool | None:
        """May the person here do ``action`` now: True; not now (the key is shown, dimmed): None;
        never in this game (the key is not offered): False."""

    def subscribe(self, listener: Callable[[Change], None]) -> Callable[[], None]:
        """Call ``listener`` with every change of the game; returns a function that unsubscribes."""
