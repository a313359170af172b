"""A seat's time as the scoreboard shows it: ``4:59``, ``1:02:03``, tenths under ten seconds
(``0:09.4``), days for a correspondence game (``2d 03:15``), and low time marked by a sign and a
colour (``! 0:09.4`` in the theme's error text colour, legible in light and dark themes)."""

from __future__ import annotations

from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget

from sos_tui.engine.clock import Clocks
from sos_tui.session.timing import TENTHS_BELOW_MS, clock_text, next_change

__all__ = ["LOW_SIGN", "TENTHS_BELOW_MS", "ClockText", "clock_label", "clock_text", "next_change"]

LOW_SIGN = "!"
"""Before a low time, so it is seen without colour."""


def clock_label(ms: int, low: bool) -> str:
    """A seat's time as shown: ``4:59``, or ``! 0:09.4`` when low."""
    shown = clock_text(ms)
    return f"{LOW_SIGN} {shown}" if low else shown


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
        return clock_label(self.remaining_ms, self.low)

    def render(self) -> Content:
        return Content(self.text)
