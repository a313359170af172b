"""What happened to a game: a ``Change`` of some ``ChangeKind``, told to every listener."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from sos_tui.engine import GameRecord, GameState, Move


class ChangeKind(StrEnum):
    START = "start"
    MOVE = "move"
    UNDO = "undo"
    REDO = "redo"
    PAUSE = "pause"
    RESUME = "resume"
    SEEK = "seek"
    """A replay went to another move (nothing was played or taken back)."""
    DROP = "drop"
    """A seat dropped out (``Change.seat``): resigned, ran out of time or left; with two players
    still in, this ends the game."""
    END = "end"
    """The game was ended by hand: drawn by agreement or aborted (``state.termination`` says which)."""
    DRAW_OFFER = "draw_offer"
    """``Change.seat`` offers a draw; the other player still in answers."""
    DRAW_DECLINED = "draw_declined"
    """The draw offer of ``Change.seat`` was declined (an answer, or a move)."""


@dataclass(frozen=True, slots=True)
class Change:
    """What just happened to a session, and where it stands now."""

    kind: ChangeKind
    state: GameState
    record: GameRecord
    move: Move | None = None
    seat: int | None = None  # who dropped out, offered a draw or had it declined

    @property
    def finished(self) -> bool:
        """A move, a drop or an end just ended the game (not an undo or redo that walked back to
        the end)."""
        return self.kind in _ENDING_KINDS and self.state.is_over


_ENDING_KINDS = frozenset({ChangeKind.MOVE, ChangeKind.DROP, ChangeKind.END})


