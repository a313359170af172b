"""The clock text a seat's time is shown in (sos_tui.app.widgets.clock), on a tiny app: the time
as the scoreboard will show it, low time marked by a sign and a colour legible in light and dark
themes. Time is given, never waited for."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from textual.app import App, ComposeResult
from textual.color import Color

from sos_tui import i18n
from sos_tui.app.colours import TEXT, contrast
from sos_tui.app.widgets.clock import LOW_SIGN, ClockText, clock_text, next_change
from sos_tui.engine.clock import DAY_MS, Clocks, TimeControl


class ClockApp(App):
    def compose(self) -> ComposeResult:
        yield ClockText(id="ana")
        yield ClockText(id="bo")


def drawn(widget: ClockText):
    """The text drawn on the widget's line, and its non-blank segments."""
    strip = widget.render_line(0)
    return strip.text.rstrip(), [segment for segment in strip if segment.text.strip()]


@pytest.mark.parametrize(
    ("ms", "shown"),
    [
        (300_000, "5:00"),
        (299_001, "4:59"),
        (60_000, "1:00"),
        (10_000, "0:10"),
        (9_999, "0:09.9"),
        (9_400, "0:09.4"),
        (99, "0:00.0"),
        (0, "0:00.0"),
        (-5, "0:00.0"),
        (3_723_000, "1:02:03"),
        (DAY_MS - 1, "23:59:59"),
        (DAY_MS, "1d 00:00"),
        (7 * DAY_MS, "7d 00:00"),
        (2 * DAY_MS + 3_900_000, "2d 01:05"),
    ],
)
def test_the_time_reads_as_a_clock(ms, shown):
    assert clock_text(ms) == shown


def test_days_are_said_in_malay():
    i18n.set_language("ms")
    assert clock_text(2 * DAY_MS) == "2 hari 00:00"


@given(st.integers(1, 8 * DAY_MS))
def test_the_text_changes_exactly_when_next_change_says(ms):
    wait = next_change(ms)
    assert wait is not None and wait >= 1
    assert clock_text(ms - wait + 1) == clock_text(ms)
    assert clock_text(ms - wait) != clock_text(ms) or ms - wait == 0  # changed, or the time is up


def test_a_time_that_is_up_changes_no_more():
    assert next_change(0) is None


async def test_the_running_seat_ticks_and_low_time_gets_a_sign_and_a_colour():
    app = ClockApp()
    clocks = Clocks.new(TimeControl.parse("1+0"), 2).start(0, now=0)
    async with app.run_test(size=(40, 4)) as pilot:
        ana, bo = app.query_one("#ana", ClockText), app.query_one("#bo", ClockText)
        ana.show(clocks, 0, now=1_500)
        bo.show(clocks, 1, now=1_500)
        await pilot.pause()
        assert drawn(ana)[0] == "0:58" and ana.has_class("-running") and not ana.has_class("-low")
        assert drawn(bo)[0] == "1:00" and not bo.has_class("-running")
        normal = drawn(bo)[1][0].style.color
        ana.show(clocks, 0, now=54_000)  # 6 s of 60 left: 10%
        await pilot.pause()
        text, segments = drawn(ana)
        assert text == f"{LOW_SIGN} 0:06.0" and ana.has_class("-low")
        assert all(segment.style.color != normal and segment.style.bold for segment in segments)
        ana.show(clocks.pause(now=54_000), 0, now=99_000)
        await pilot.pause()
        assert drawn(ana)[0] == f"{LOW_SIGN} 0:06.0" and not ana.has_class("-running")


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
async def test_low_time_is_legible_in_light_and_dark_themes(theme):
    app = ClockApp()
    clocks = Clocks.new(TimeControl.parse("0.1+0"), 2).start(1, now=0)
    async with app.run_test(size=(40, 4)) as pilot:
        app.theme = theme
        await pilot.pause()
        bo = app.query_one("#bo", ClockText)
        bo.show(clocks, 1, now=5_500)
        await pilot.pause()
        text, segments = drawn(bo)
        assert text == f"{LOW_SIGN} 0:00.5"
        for segment in segments:
            fg, bg = Color(*segment.style.color.triplet), Color(*segment.style.bgcolor.triplet)
            assert contrast(fg, bg) >= TEXT, (theme, segment.text, fg.hex, bg.hex)
