"""The clocks of a timed game in progress (docs/clocks.md says the rules for players).

``Timing`` is part of ``GameSession`` (kept apart, as ``Endings`` is); the rules stay in the
engine's ``Clocks``. What the session adds:

- **When the clocks start**: the first seat's time runs from the moment the session is made (the
  game is shown), not from its first move: at one terminal every player is there from the start.
- **A move** stops the mover's time (its ``spent_ms`` goes into the record) and starts the next
  seat's; a move that keeps the turn is a move too (Fischer increment per move).
- **The flag** is applied by whoever notices it first: a front end's timer (``when_flag`` says
  when) or the next action (a move checks first). ``check_time`` drops the seat with
  ``Termination.TIME``: with two players the other wins on time, with more the others play on.
- **Pause** stops the running time; a move made while paused is made on a stopped clock.
- **No takebacks**: undo and redo are not offered in a timed game (``may`` says never), as in a
  rated game online; the record keeps one time per move, and an undo would give time back.
- **A computer** spends its own clock: its turn's time runs while it searches, and the search is
  capped by ``think_limit`` (a share of its time left).
- **Continued games** (an autosave, a saved file): the clocks are rebuilt from the record's
  ``clock`` and ``spent_ms``; each seat has its time as at the last move. The program closed is no
  time on anyone's clock, nor is the turn that was under way when it closed.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from sos_tui.engine import GameRecord, GameState, IllegalMoveError, Termination
from sos_tui.engine.clock import Clocks
from sos_tui.i18n import N_, _

from .change import Change

THINK_SHARE = 20
"""A computer thinks at most 1/THINK_SHARE of its time left on a move, plus its increment."""
THINK_LEAST_S = 0.05
"""...and never less than this (seconds): a search needs a moment to give any move."""

Now = Callable[[], int]

TENTHS_BELOW_MS = 10_000
"""Under ten seconds the time shows tenths."""


def clock_text(ms: int) -> str:
    """``ms`` of time as a clock shows it, rounded down (it reads 0 only when the time is up).

    >>> [clock_text(ms) for ms in (300_000, 59_999, 10_000, 9_999, 0, 3_723_000, 2 * 86_400_000)]
    ['5:00', '0:59', '0:10', '0:09.9', '0:00.0', '1:02:03', '2d 00:00']
    """
    ms = max(0, ms)
    if ms < TENTHS_BELOW_MS:
        return f"0:{ms // 1000:02d}.{ms % 1000 // 100}"
    minutes, seconds = divmod(ms // 1000, 60)
    hours, minutes = divmod(minutes, 60)
    if hours >= 24:
        days, hours = divmod(hours, 24)
        return _("{days}d {hours:02d}:{minutes:02d}").format(days=days, hours=hours, minutes=minutes)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


def next_change(ms: int) -> int | None:
    """Milliseconds until ``clock_text`` of a running time ``ms`` shows something else, or the time
    is up (under 0.1 s): when to draw it again (one timer, no polling). None once it is up."""
    if ms <= 0:
        return None
    if ms < 100:
        return ms
    if ms < TENTHS_BELOW_MS:
        return ms % 100 + 1
    step = 60_000 if ms >= 24 * 3_600_000 else 1_000
    return min(ms % step + 1, ms - TENTHS_BELOW_MS + 1)


def monotonic_ms() -> int:
    """The default time source: a monotonic clock in milliseconds (a local game's clocks live
    only in memory; the record keeps the times spent, not a moment)."""
    return time.monotonic_ns() // 1_000_000


class OutOfTimeError(IllegalMoveError):
    """A move from a seat whose time has run out (the flag is applied as it is refused)."""


def rebuilt(record: GameRecord, state: GameState) -> Clocks | None:
    """The clocks of ``record``'s game at ``state`` from its ``clock`` and ``spent_ms``, none
    running; None for an untimed game. A seat that ran out of time has none left."""
    control = record.clock
    if control is None:
        return None
    remaining = [control.initial_ms] * state.players
    for mover, spent in zip(state.movers, record.spent_ms or (), strict=False):
        if not control.per_move:
            remaining[mover] += control.increment_ms - spent
    for drop in state.drops:
        if drop.why is Termination.TIME:
            remaining[drop.seat] = 0
    return Clocks(
        control,
        tuple(max(0, ms) for ms in remaining),
        dropped=frozenset(d.seat for d in state.drops),
        spent_ms=tuple(record.spent_ms or ()),
    )


class Timing:
    """What ``GameSession`` adds for clocks. It uses the session's ``state``, ``seats``, ``drop``
    and ``_paused``; the session calls ``_start_clocks`` once and ``_clock_moved`` / ``_clocks_follow``
    as the state changes."""

    _clocks: Clocks | None
    _now: Now
    _warned: set[int]

    def _start_clocks(self, record: GameRecord, now: Now | None) -> None:
        self._now = now or monotonic_ms
        self._clocks = rebuilt(record, self.state)
        self._warned: set[int] = set()
        self._clocks_follow()

    @property
    def timed(self) -> bool:
        return self._clocks is not None

    def keep_clocks(self, clocks: Clocks) -> None:
        """Take up ``clocks`` as they were kept (a server's room brought back from its store: the
        turn under way goes on counting from when it started, a restart included), if they are
        this game's: the same control, seats and moves; else the clocks rebuilt from the record
        stay."""
        mine = self._clocks
        if (
            mine is None
            or clocks.control != mine.control
            or clocks.seats != mine.seats
            or len(clocks.spent_ms) != len(self.state.moves)
        ):
            return
        self._clocks = clocks
        self._clocks_follow()

    @property
    def clocks(self) -> Clocks | None:
        """Each seat's time (read it at ``now()``), or None in an untimed game."""
        return self._clocks

    def now(self) -> int:
        """The session's time source, in milliseconds."""
        return self._now()

    def when_flag(self) -> int | None:
        """Milliseconds until the seat to move runs out (0: it has, ``check_time`` applies it);
        None when no time runs (untimed, paused, over). A front end sets one timer for it."""
        if self._clocks is None or self.state.is_over:
            return None
        return self._clocks.when_flag(self._now())

    def check_time(self) -> Change | None:
        """Apply the flag if the seat to move has run out of time: it drops out (two players: the
        other wins on time). The change, or None if nobody has run out."""
        if self._clocks is None or self.state.is_over:
            return None
        seat = self._clocks.flagged(self._now())
        return None if seat is None else self.drop(seat, Termination.TIME)

    def low_time(self) -> int | None:
        """The seat to move if its time is low (10% of its budget or less) and nobody was told
        yet; told now: each seat is warned once (``--plain`` says it)."""
        clocks = self._clocks
        if clocks is None or self.state.is_over:
            return None
        seat = self.state.to_move
        if seat in self._warned or not clocks.low(seat, self._now()):
            return None
        self._warned.add(seat)
        return seat

    def when_low(self) -> int | None:
        """Milliseconds until the seat to move's time is low and it is yet to be told (None: no
        such moment ahead)."""
        clocks, wait = self._clocks, self.when_flag()
        if clocks is None or wait is None or self.state.to_move in self._warned:
            return None
        return max(0, wait - clocks.control.initial_ms // 10)

    def think_limit(self, most: float | None) -> float | None:
        """The seconds the computer to move may search, at most ``most``: in a timed game a share
        of its time left, plus its increment (never under THINK_LEAST_S)."""
        clocks = self._clocks
        if clocks is None or self.state.is_over:
            return most
        left = clocks.remaining(self.state.to_move, self._now())
        share = (left / THINK_SHARE + clocks.control.increment_ms) / 1000
        share = max(THINK_LEAST_S, min(share, left / 1000 / 2))
        return share if most is None else min(most, share)

    # -- called by the session --------------------------------------------------------------
    def _check_before_move(self) -> None:
        """Before a move: the flag, if the mover has run out (then the move is refused)."""
        if self._clocks is None or self.state.is_over:
            return
        seat = self.state.to_move
        if self.check_time() is not None:
            raise OutOfTimeError(N_("{name} has run out of time"), name=self.seats[seat].name)

    def _clock_moved(self, new: GameState, lag_ms: int = 0) -> None:
        """The seat to move moved, to ``new``: its time stops (less the lag credit), the next
        seat's runs."""
        clocks = self._clocks
        if clocks is None:
            return
        now = self._now()
        to_seat = new.to_move if not new.is_over else clocks.running
        clocks = clocks.resume(now).switch(to_seat, now, lag_ms)
        self._clocks = clocks.pause(now) if self._paused or new.is_over else clocks

    def _clocks_follow(self) -> None:
        """The clocks as the state and the pause say: a seat out has its time stopped, no time
        runs once the game is over or paused, and otherwise the seat to move's runs."""
        clocks = self._clocks
        if clocks is None:
            return
        now, state = self._now(), self.state
        for drop in state.drops:
            if drop.seat not in clocks.dropped:
                clocks = clocks.drop(drop.seat, now)
        if not state.is_over:
            if clocks.running is None:
                clocks = clocks.start(state.to_move, now)
            clocks = clocks.pause(now) if self._paused else clocks.resume(now)
        else:
            clocks = clocks.pause(now)
        self._clocks = clocks
