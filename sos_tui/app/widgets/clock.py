"""A seat's time as the scoreboard shows it: ``4:59``, ``1:02:03``, tenths under ten seconds
(``0:09.4``), days for a correspondence game (``2d 03:15``), and low time marked by a sign and a
colour (``! 0:09.4`` in the theme's error text colour, legible in light and dark themes)."""

from __future__ import annotations

from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget

from sos_tui.engine.clock import Clocks
from sos_tui.i18n import _

TENTHS_BELOW_MS = 10_000
"""Under ten seconds the time shows tenths."""
LOW_SIGN = "!"
"""Before a low time, so it is seen without colour."""


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


class ClockText(Widget):
    """One seat's time, set from the clocks by ``show``; it reads no clock itself.

    ``-running`` while the seat's time runs, ``-low`` at 10% of its budget or less."""

    DEFAULT_CSS = """
    ClockText { width: auto; height: 1; }
    ClockText.-running { text-style: bold; }
    ClockText.-low { color: $text-error; text-style: bold; }
    """

    remaining_ms: reactive[int] = reactive(0, layout=True)
    low: reactive[bool] = reactive(False, layout=True)
    running: reactive[bool] = reactive(False)

    def show(self, clocks: Clocks, seat: int, now: int) -> None:
        """Show ``seat``'s time in ``clocks`` at ``now`` (ms, on the clocks' time line)."""
        self.remaining_ms = clocks.remaining(seat, now)
        self.low = clocks.low(seat, now)
        self.running = clocks.running == seat and not clocks.paused

    def watch_low(self, low: bool) -> None:
        self.set_class(low, "-low")

    def watch_running(self, running: bool) -> None:
        self.set_class(running, "-running")

    @property
    def text(self) -> str:
        """What it shows: the time, after ``LOW_SIGN`` when low."""
        shown = clock_text(self.remaining_ms)
        return f"{LOW_SIGN} {shown}" if self.low else shown

    def render(self) -> Content:
        return Content(self.text)
