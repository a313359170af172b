"""A recorded game, stepped through: the replay's timeline, with no screen.

``Replay`` is a read-only ``GameSource``: nothing is played or taken back, but the position moves
(to the start, the end, move ``i``, a step either way) and every move of it is reported to the
subscribers as a ``Change`` of kind ``SEEK``, as a ``GameSession`` reports its moves. A screen
shows whatever the last change says; a test steps it with no screen at all.
"""

from __future__ import annotations

from collections.abc import Callable

from sos_tui.engine import GameRecord, GameState, Seat, SeatKind

from .session import Change, ChangeKind, GameSession, Listener
from .source import Action


class Replay:
    """``record`` shown after ``start_at`` of its moves (default: all of them; clamped)."""

    def __init__(self, record: GameRecord, start_at: int | None = None) -> None:
        self._record = record
        self.states: tuple[GameState, ...] = GameSession(record).timeline
        """``states[i]`` is the position after ``i`` moves."""
        self._position = self.total if start_at is None else self._clamp(start_at)
        self._listeners: list[Listener] = []

    # -- what it holds ----------------------------------------------------------------------
    @property
    def record(self) -> GameRecord:
        """The game replayed, whole (whatever move is shown)."""
        return self._record

    @property
    def seats(self) -> tuple[Seat, ...]:
        return self._record.players

    @property
    def total(self) -> int:
        """How many moves the game has."""
        return len(self.states) - 1

    @property
    def position(self) -> int:
        """How many moves are shown (0: the empty board, ``total``: the end)."""
        return self._position

    @property
    def state(self) -> GameState:
        """The position shown."""
        return self.states[self._position]

    @property
    def final(self) -> GameState:
        """The position at the end of the game."""
        return self.states[-1]

    @property
    def kind_to_move(self) -> SeatKind | None:
        """No one moves in a replay."""
        return None

    def may(self, action: Action | str) -> bool | None:
        """A replay offers only to play on from the move shown: not now (None) where the game is
        over, as it is at the end of a finished game."""
        if action == Action.PLAY_ON:
            return None if self.state.is_over else True
        return False

    def from_here(self) -> GameRecord:
        """A new game of the same board and players, with the moves shown so far (and the seats
        that had dropped out by then)."""
        record, position = self._record, self._position
        drops = tuple(drop for drop in record.drops if drop.after <= position)
        return GameRecord(record.size, record.mode, record.players, record.moves[:position], drops=drops)

    # -- moving through it ------------------------------------------------------------------
    def go_to(self, position: int) -> Change | None:
        """Show the game after ``position`` moves (clamped to 0..total); None if already there."""
        position = self._clamp(position)
        if position == self._position:
            return None
        self._position = position
        return self._changed(ChangeKind.SEEK)

    def step(self, delta: int) -> Change | None:
        return self.go_to(self._position + delta)

    def first(self) -> Change | None:
        return self.go_to(0)

    def last(self) -> Change | None:
        return self.go_to(self.total)

    def _clamp(self, position: int) -> int:
        return max(0, min(self.total, position))

    # -- listening --------------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(change)`` after every change; returns a function that unsubscribes."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def announce_start(self) -> None:
        """Tell the listeners where the replay stands (once they have all subscribed)."""
        self._changed(ChangeKind.START)

    def _changed(self, kind: ChangeKind) -> Change:
        change = Change(kind, self.state, self._record)
        for listener in list(self._listeners):
            listener(change)
        return change
