"""Game clocks on immutable values: a time control, and each seat's time as the game goes on.

Time is never read here: every operation is given ``now``, a number of milliseconds on one time
line. A clock kept only in memory may use a monotonic clock; one that is stored and read back by
another process (a room store, an autosave) must use the same time line in both, such as Unix
time in milliseconds, so the time between them (a restart) is counted.

The rules, all in this module (docs/clocks.md says them for players):

- **Fischer increment**: a seat's time runs from its turn's start; when it moves, the time it
  took is taken off and the increment is added, after the move. A move that scores and keeps
  the turn (general mode) is a move: it takes its time and gets its increment, as lichess does.
- **Flag**: a seat has run out (``flagged``) exactly when its time reads 0. A move made after
  that is refused (``TimeUpError``): the lag credit does not bring a flagged seat back.
- **Lag**: a move's measured network transit (``lag_ms``) is given back to the mover, at most
  ``LAG_BOUND_MS`` per move and never more than the move took (``lag_credit``).
- **Pause** stops the running seat's time; **drop** takes a seat out (it resigned, flagged or
  left): its time stands still from then on and it is never started again.
- **Restart**: a stored clock keeps when the running seat started, not what it had then, so a
  clock read back after a restart has counted the time the process was down against that seat,
  unless the clock was paused.
- **Correspondence** (``TimeControl.days``): each move has a budget of whole days; a seat's time
  is reset to it when it has moved and when its turn starts, and there is no increment.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation

from .rules import MIN_PLAYERS
from .text import Phrase, RuleError, printable, shorten

MINUTE_MS = 60_000
DAY_MS = 24 * 60 * MINUTE_MS
MIN_INITIAL_MS = 6_000
"""The shortest time control: 0.1 minute (6 seconds)."""
MAX_INITIAL_MS = DAY_MS
"""The longest: 24 hours (1440 minutes). Longer games are correspondence games (days per move)."""
MINUTE_STEP_MS = 600
"""Minutes are given to at most two decimals (0.25 = 15 s): a whole number of 0.01 minute."""
MAX_INCREMENT_S = 180
"""The largest increment, in whole seconds (as lichess)."""
DAYS = (1, 2, 3, 7)
"""The correspondence budgets: days per move."""
LAG_BOUND_MS = 500
"""The most network lag given back to a move (as lichess's lag compensation)."""
LOW_SHARE = 10
"""A seat's time is low at 1/LOW_SHARE (10%) of its budget or less."""

_NUMBER = re.compile(r"[0-9]+(\.[0-9]+)?", re.ASCII)
_DAYS = re.compile(r"([0-9]{1,3})d", re.ASCII | re.IGNORECASE)
_FORMS = Phrase("minutes+increment like 5+3 or 0.5+0, or days per move like 2d")


class ClockError(RuleError):
    """A time control that is not one (``TimeControl.parse``, ``from_dict``), or clocks read back
    that cannot be right (``Clocks.from_dict``)."""


class TimeUpError(ClockError):
    """A move from a seat whose time has run out: ``seat`` is its index."""

    @property
    def seat(self) -> int:
        return self.params["seat"]


def _shown(text: str) -> str:
    return shorten(printable(repr(text)), 40)


@dataclass(frozen=True, slots=True)
class TimeControl:
    """How much time a seat has: ``initial_ms`` to start with and ``increment_ms`` added after each
    of its moves (Fischer), or, when ``per_move``, ``initial_ms`` for each move (correspondence).

    >>> control = TimeControl.parse("5+3")
    >>> control
    TimeControl(initial_ms=300000, increment_ms=3000, per_move=False)
    >>> str(control), control.to_dict()
    ('5+3', {'initial_ms': 300000, 'increment_ms': 3000})
    >>> str(TimeControl.parse("0.5+0")), TimeControl.parse("2d").days
    ('0.5+0', 2)
    """

    initial_ms: int
    increment_ms: int = 0
    per_move: bool = False

    def __post_init__(self) -> None:
        for name in ("initial_ms", "increment_ms"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise ClockError(
                    "a time control's {name} must be a whole number of milliseconds, not {value}",
                    name=name,
                    value=_shown(value),
                )
        if not isinstance(self.per_move, bool):
            raise ClockError(
                "a time control's per_move must be true or false, not {value}", value=_shown(self.per_move)
            )
        if self.per_move:
            if self.initial_ms not in {days * DAY_MS for days in DAYS} or self.increment_ms:
                raise ClockError(
                    "days per move must be one of {days}, with no increment", days=", ".join(map(str, DAYS))
                )
            return
        if not MIN_INITIAL_MS <= self.initial_ms <= MAX_INITIAL_MS or self.initial_ms % MINUTE_STEP_MS:
            raise ClockError(
                "the minutes must be from 0.1 to 1440 (24 hours), with at most two decimals, not {minutes}",
                minutes=_decimal(self.initial_ms, MINUTE_MS),
            )
        if not 0 <= self.increment_ms <= MAX_INCREMENT_S * 1000 or self.increment_ms % 1000:
            raise ClockError(
                "the increment must be whole seconds from 0 to {most}, not {seconds}",
                most=MAX_INCREMENT_S,
                seconds=_decimal(self.increment_ms, 1000),
            )

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """Read ``"5+3"`` (minutes, fractional down to 0.1, then whole seconds of increment) or
        ``"2d"`` (days per move: 1, 2, 3 or 7). Spaces around it are ignored; ClockError says
        what is expected otherwise."""
        if not isinstance(text, str):
            raise ClockError("a time control must be text, not {kind}", kind=type(text).__name__)
        text = text.strip()
        days = _DAYS.fullmatch(text)
        if days:
            number = int(days.group(1))
            if number not in DAYS:
                raise ClockError(
                    "days per move must be one of {days}, not {number}",
                    days=", ".join(map(str, DAYS)),
                    number=number,
                )
            return cls(number * DAY_MS, 0, per_move=True)
        if any(char.isspace() for char in text):
            raise ClockError(
                "a time control has no spaces: write {forms}, not {text}", forms=_FORMS, text=_shown(text)
            )
        minutes, plus, seconds = text.partition("+")
        if not plus or "+" in seconds:
            raise ClockError("expected {forms}, not {text}", forms=_FORMS, text=_shown(text))
        if not minutes:
            raise ClockError("the minutes are missing before '+': write {forms}", forms=_FORMS)
        if not seconds:
            raise ClockError(
                "the increment is missing after '+': write whole seconds, like 5+3 (or 5+0 for none)"
            )
        initial = _number(minutes, Phrase("the minutes"))
        if not Decimal("0.1") <= initial <= 1440 or initial != round(initial, 2):
            raise ClockError(
                "the minutes must be from 0.1 to 1440 (24 hours), with at most two decimals, not {minutes}",
                minutes=shorten(minutes, 20),
            )
        increment = _number(seconds, Phrase("the increment"))
        if not 0 <= increment <= MAX_INCREMENT_S or increment != int(increment):
            raise ClockError(
                "the increment must be whole seconds from 0 to {most}, not {seconds}",
                most=MAX_INCREMENT_S,
                seconds=shorten(seconds, 20),
            )
        return cls(int(initial * MINUTE_MS), int(increment) * 1000)

    @property
    def days(self) -> int | None:
        """Days per move of a correspondence control, else None."""
        return self.initial_ms // DAY_MS if self.per_move else None

    def __str__(self) -> str:
        if self.per_move:
            return f"{self.days}d"
        return f"{_decimal(self.initial_ms, MINUTE_MS)}+{self.increment_ms // 1000}"

    def to_dict(self) -> dict:
        if self.per_move:
            return {"days": self.days}
        return {"initial_ms": self.initial_ms, "increment_ms": self.increment_ms}

    @classmethod
    def from_dict(cls, data) -> TimeControl:
        """The control ``to_dict`` wrote, or its text (``"5+3"``, ``"2d"``); ClockError if not."""
        if isinstance(data, str):
            return cls.parse(data)
        if isinstance(data, dict) and set(data) == {"days"}:
            days = data["days"]
            if type(days) is not int or days not in DAYS:
                raise ClockError(
                    "days per move must be one of {days}, not {number}",
                    days=", ".join(map(str, DAYS)),
                    number=_shown(days),
                )
            return cls(days * DAY_MS, 0, per_move=True)
        if isinstance(data, dict) and set(data) == {"initial_ms", "increment_ms"}:
            return cls(data["initial_ms"], data["increment_ms"])
        raise ClockError("expected a time control ({forms}), not {value}", forms=_FORMS, value=_shown(data))


def _number(text: str, what: Phrase) -> Decimal:
    """A plain decimal number (``5``, ``0.5``): no sign, exponent, NaN or infinity."""
    if not _NUMBER.fullmatch(text):
        if text.startswith("-"):
            raise ClockError("{what} cannot be negative: write {forms}", what=what, forms=_FORMS)
        raise ClockError("{what} must be a number like 5 or 0.5, not {text}", what=what, text=_shown(text))
    try:
        return Decimal(text)
    except InvalidOperation:  # pragma: no cover - the pattern admits only plain decimals
        raise ClockError(
            "{what} must be a number like 5 or 0.5, not {text}", what=what, text=_shown(text)
        ) from None


def _decimal(ms: int, unit: int) -> str:
    """``ms`` in ``unit`` as a time control writes it: 300000 ms in minutes is ``"5"``, 30000 is
    ``"0.5"``."""
    if ms % unit == 0:
        return str(ms // unit)
    return format(Decimal(ms) / unit, "f").rstrip("0").rstrip(".")


def lag_credit(lag_ms: int, took_ms: int) -> int:
    """The time given back to a move for network lag: the measured ``lag_ms`` (the server's
    estimate of the move's transit, from the client's round trips), at most ``LAG_BOUND_MS`` and
    at most the ``took_ms`` the move took by the server's clock; never negative."""
    return max(0, min(lag_ms, LAG_BOUND_MS, took_ms))


@dataclass(frozen=True, slots=True)
class Clocks:
    """Each seat's time in a game under ``control``; every operation returns a new value.

    ``remaining_ms[seat]`` is the seat's time, for the ``running`` seat as it was when its turn
    began; that turn has used ``used_ms`` before ``since``, when its time last started running
    (None while paused, or before the clock starts). ``spent_ms`` is the time
    each move took, in order (after lag credit): what the game record keeps.

    >>> clocks = Clocks.new(TimeControl.parse("1+2"), 2).start(0, now=0)
    >>> clocks.remaining(0, now=10_000), clocks.when_flag(now=10_000)
    (50000, 50000)
    >>> clocks = clocks.switch(1, now=10_000)
    >>> clocks.remaining(0, now=20_000), clocks.remaining(1, now=20_000), clocks.spent_ms
    (52000, 50000, (10000,))
    """

    control: TimeControl
    remaining_ms: tuple[int, ...]
    running: int | None = None
    since: int | None = None
    used_ms: int = 0
    dropped: frozenset[int] = frozenset()
    spent_ms: tuple[int, ...] = field(default=())

    @classmethod
    def new(cls, control: TimeControl, seats: int) -> Clocks:
        """Every seat with the control's whole time, none running."""
        if seats < MIN_PLAYERS:
            raise ValueError(f"a clock for {seats} seats: at least {MIN_PLAYERS}")
        return cls(control, (control.initial_ms,) * seats)

    @property
    def seats(self) -> int:
        return len(self.remaining_ms)

    @property
    def paused(self) -> bool:
        """Whether a seat is to move but its time is stopped."""
        return self.running is not None and self.since is None

    def remaining(self, seat: int, now: int) -> int:
        """``seat``'s time at ``now``, in ms: 0 once it has run out, never less."""
        left = self.remaining_ms[seat]
        if seat == self.running:
            left -= self._used(now)
        return max(0, left)

    def _used(self, now: int) -> int:
        """The time the running seat's turn has used by ``now``, pauses left out."""
        return self.used_ms + (max(0, now - self.since) if self.since is not None else 0)

    def flagged(self, now: int) -> int | None:
        """The seat whose time has run out at ``now`` (only the running seat's time runs), else None.
        A clock paused after the time ran out still says so: a pause saves no one."""
        seat = self.running
        if seat is not None and self.remaining(seat, now) == 0:
            return seat
        return None

    def when_flag(self, now: int) -> int | None:
        """Milliseconds from ``now`` until the running seat runs out (0 if it has); None if no
        time runs. A front end sets one timer for it instead of polling."""
        if self.running is None or self.since is None:
            return None
        return self.remaining(self.running, now)

    def low(self, seat: int, now: int) -> bool:
        """Whether ``seat`` has 10% of its budget (the initial time, or the time per move) or less."""
        return self.remaining(seat, now) * LOW_SHARE <= self.control.initial_ms

    def start(self, seat: int, now: int) -> Clocks:
        """``seat``'s time starts running at ``now`` (the first turn, or the turn after a seat
        dropped out while running). A correspondence seat gets its whole budget."""
        self._check_seat(seat)
        if self.running is not None:
            raise ValueError(f"seat {self.running} is running: switch, or drop it first")
        return self._run(seat, now, self.remaining_ms)

    def switch(self, to_seat: int, now: int, lag_ms: int = 0) -> Clocks:
        """The running seat moved at ``now``: its time stops, less up to ``lag_ms`` of lag credit
        (``lag_credit``), its increment is added, and ``to_seat`` starts (the same seat again after
        a move that keeps the turn). TimeUpError if the mover's time had already run out."""
        seat = self.running
        if seat is None or self.since is None:
            raise ValueError("no seat is running: start one (or resume) first")
        self._check_seat(to_seat)
        if self.flagged(now) is not None:
            raise TimeUpError("seat {number} has run out of time", seat=seat, number=seat + 1)
        took = self._used(now)
        spent = took - lag_credit(lag_ms, took)
        remaining = list(self.remaining_ms)
        if self.control.per_move:
            remaining[seat] = self.control.initial_ms  # its next move has the whole budget again
        else:
            remaining[seat] += self.control.increment_ms - spent
        stopped = replace(self, spent_ms=(*self.spent_ms, spent))
        return stopped._run(to_seat, now, tuple(remaining))

    def pause(self, now: int) -> Clocks:
        """The running seat's time stops at ``now`` (no change if it is stopped already)."""
        if self.running is None or self.since is None:
            return self
        return replace(self, used_ms=self._used(now), since=None)

    def resume(self, now: int) -> Clocks:
        """The paused seat's time runs again from ``now`` (no change if it is not paused)."""
        return replace(self, since=now) if self.paused else self

    def drop(self, seat: int, now: int) -> Clocks:
        """``seat`` is out of the game (resigned, flagged, left): its time stops at ``now`` and it
        is never started again. If it was running, no seat runs until ``start``."""
        self._check_seat(seat)
        remaining = list(self.remaining_ms)
        remaining[seat] = self.remaining(seat, now)
        clocks = replace(self, remaining_ms=tuple(remaining), dropped=self.dropped | {seat})
        return replace(clocks, running=None, since=None, used_ms=0) if seat == self.running else clocks

    def _run(self, seat: int, now: int, remaining: tuple[int, ...]) -> Clocks:
        if self.control.per_move:
            remaining = (*remaining[:seat], self.control.initial_ms, *remaining[seat + 1 :])
        return replace(self, remaining_ms=remaining, running=seat, since=now, used_ms=0)

    def _check_seat(self, seat: int) -> None:
        if not 0 <= seat < self.seats:
            raise ValueError(f"no seat {seat} in a {self.seats}-seat clock")
        if seat in self.dropped:
            raise ValueError(f"seat {seat} has dropped out")

    # -- stored -------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        """The clocks as JSON: read back by ``from_dict``, which counts the time since ``since``
        (a restart's downtime too) against the running seat, unless paused."""
        return {
            "control": self.control.to_dict(),
            "remaining_ms": list(self.remaining_ms),
            "running": self.running,
            "since": self.since,
            "used_ms": self.used_ms,
            "dropped": sorted(self.dropped),
            "spent_ms": list(self.spent_ms),
        }

    @classmethod
    def from_dict(cls, data) -> Clocks:
        """Clocks that ``to_dict`` wrote; ClockError naming what is wrong otherwise."""
        if not isinstance(data, dict):
            raise ClockError("bad clocks: expected an object, not {value}", value=_shown(data))
        control = TimeControl.from_dict(data.get("control"))
        remaining = _whole_numbers(data, "remaining_ms")
        spent = _whole_numbers(data, "spent_ms")
        dropped = _whole_numbers(data, "dropped")
        running, since, used = data.get("running"), data.get("since"), data.get("used_ms", 0)
        seats = range(len(remaining))
        if len(remaining) < MIN_PLAYERS or any(seat not in seats for seat in dropped):
            raise ClockError(
                "bad clocks: {count} seats, dropped {dropped}", count=len(remaining), dropped=_shown(dropped)
            )
        if running is not None and (type(running) is not int or running not in seats or running in dropped):
            raise ClockError("bad clocks: the running seat is {value}", value=_shown(running))
        if since is not None and (type(since) is not int or running is None):
            raise ClockError("bad clocks: the running seat started at {value}", value=_shown(since))
        if type(used) is not int or used < 0 or (used and running is None):
            raise ClockError("bad clocks: the running seat's turn has used {value}", value=_shown(used))
        return cls(control, remaining, running, since, used, frozenset(dropped), spent)


def _whole_numbers(data: dict, name: str) -> tuple[int, ...]:
    values = data.get(name)
    if not isinstance(values, list) or any(type(v) is not int or v < 0 for v in values):
        raise ClockError(
            'bad clocks: "{name}" must be a list of whole numbers, not {value}',
            name=name,
            value=_shown(values),
        )
    return tuple(values)
