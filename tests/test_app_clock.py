"""The clock text a seat's time is shown in (sos_tui.app.widgets.clock), on a tiny app: the time
as the scoreboard shows it, low time marked by a sign and a colour legible in light and dark
themes. Then a timed game in the app (``SosApp(now=...)``): the scoreboard shows each seat's time,
the running one ticks by one timer, and the game ends on time. Time is given, never waited for
(one test waits, bounded, for the real timer to draw a new time)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from textual.app import App, ComposeResult
from textual.color import Color
from textual.widgets import Select

from sos_tui import i18n
from sos_tui.app import SosApp
from sos_tui.app.colours import TEXT, contrast
from sos_tui.app.screens.game_over import GameOverScreen
from sos_tui.app.widgets.clock import LOW_SIGN, ClockText, clock_text, next_change
from sos_tui.app.widgets.scoreboard import Scoreboard
from sos_tui.engine import GameRecord, Mode, Move, Seat
from sos_tui.engine.clock import DAY_MS, Clocks, TimeControl

from .support.helpers import FakeTime, recording, scoreboard_text, screen_lines, wait_for


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


# -- a timed game in the app --------------------------------------------------------------------
def timed_app(now=None, clock: str = "1+0", names=("Ana", "Bo"), size: int = 3) -> SosApp:
    record = GameRecord(
        size, Mode.GENERAL, tuple(Seat(n) for n in names), clock=TimeControl.parse(clock), spent_ms=()
    )
    return recording(SosApp(record, computer_delay=0, now=now))


def rows(app) -> list[str]:
    """The scoreboard's players' rows."""
    return [row.rstrip() for row in scoreboard_text(app).splitlines()[1 : 1 + len(app.session.seats)]]


async def test_the_scoreboard_shows_each_seats_time_and_the_runner_ticks():
    now = FakeTime()
    app = timed_app(now)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert [row.split()[-1] for row in rows(app)] == ["1:00", "1:00"]
        now.wait(3_000)
        app.game_screen.tick()  # what its timer does
        await pilot.pause()
        assert [row.split()[-1] for row in rows(app)] == ["0:57", "1:00"]
        app.game_screen.apply(Move(0, 0, "S"))
        now.wait(10_000)
        app.game_screen.tick()
        await pilot.pause()
        assert [row.split()[-1] for row in rows(app)] == ["0:57", "0:50"]
        assert app.game_screen.check_action("undo", ()) is False  # no takebacks on a clock


async def test_the_one_timer_draws_the_running_time_again_by_itself():
    """A real clock: the time shown changes with no key pressed (the timer set from next_change)."""
    app = timed_app(clock="0.1+0")  # under ten seconds: tenths
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        first = rows(app)[0]
        await wait_for(pilot, lambda: rows(app)[0] != first, seconds=5)
        assert rows(app)[1].split()[-1] == "0:06.0"  # Bo's time does not run


async def test_low_time_is_marked_and_a_pause_stops_the_time():
    now = FakeTime()
    app = timed_app(now)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        now.wait(54_500)
        app.game_screen.tick()
        await pilot.pause()
        assert rows(app)[0].endswith(f"{LOW_SIGN} 0:05.5") and LOW_SIGN not in rows(app)[1]
        scoreboard = app.game_screen.query_one(Scoreboard)
        [low] = [seg for seg in scoreboard.render_line(1) if LOW_SIGN in seg.text]
        [bo] = [seg for seg in scoreboard.render_line(2) if "1:00" in seg.text]
        assert low.style.bold and low.style.color != bo.style.color  # a colour, not only a sign
        await pilot.press("p")
        assert app.session.paused and "Paused" in scoreboard_text(app)
        now.wait(3_600_000)
        app.game_screen.tick()
        await pilot.pause()
        assert rows(app)[0].endswith(f"{LOW_SIGN} 0:05.5")
        await pilot.press("p")
        now.wait(5_500)
        app.game_screen.tick()
        await pilot.pause()
        assert app.session.state.is_over


async def test_the_game_ends_on_time_in_the_status_and_the_game_over_dialog():
    now = FakeTime()
    app = timed_app(now)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.game_screen.apply(Move(0, 0, "S"))
        now.wait(60_000)  # Bo's whole minute
        app.game_screen.tick()
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen), seconds=5)
        assert "Ana won on time" in "\n".join(screen_lines(app))
        await pilot.press("escape")
        text = scoreboard_text(app)
        assert "Game over: Ana wins" in text and "Ana won on time" in text
        assert app.session.record.to_dict()["termination"] == "time"


async def test_with_three_players_the_flagged_seat_drops_out_and_the_next_clock_runs():
    now = FakeTime()
    app = timed_app(now, clock="0.1+0", names=("Ana", "Bo", "Cy"), size=4)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        now.wait(6_000)
        app.game_screen.tick()
        await pilot.pause()
        assert not isinstance(app.screen, GameOverScreen) and app.session.state.is_out(0)
        assert rows(app)[0].startswith("✗") and rows(app)[1].startswith("▶")
        assert ("Ana ran out of time: the game goes on without them.", "warning") in [
            (notice.message, notice.severity) for notice in app.notices
        ]
        now.wait(2_500)
        app.game_screen.tick()
        await pilot.pause()
        assert [row.split()[-1] for row in rows(app)] == ["0:00.0", "0:03.5", "0:06.0"]


TWO = ("Ana", "Bo")
SIX_LONG = ("Alexandrina Long", "Bo", "Cy", "Dee", "Evangeline Name", "Flo")


# every size with every table in the nightly run; by default each size once and each table once
# (the six long names at the smaller size, where room is shortest)
@pytest.mark.parametrize(
    ("size", "names"),
    [
        pytest.param((80, 24), SIX_LONG, id="80x24-six-long"),
        pytest.param((100, 30), TWO, id="100x30-two"),
        pytest.param((80, 24), TWO, id="80x24-two", marks=pytest.mark.slow),
        pytest.param((100, 30), SIX_LONG, id="100x30-six-long", marks=pytest.mark.slow),
    ],
)
async def test_every_seats_time_is_whole_at_80x24_and_100x30(size, names):
    now = FakeTime()
    app = timed_app(now, clock="5+3", names=names, size=8)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        now.wait(1_000)
        app.game_screen.tick()
        await pilot.pause()
        shown = rows(app)
        assert [row.split()[-1] for row in shown] == ["4:59", *["5:00"] * (len(names) - 1)]
        for row, name in zip(shown, names, strict=True):
            assert name[:5] in row
        assert app.screen.query_one(Scoreboard).region.right <= size[0]
        assert "to move" in scoreboard_text(app)  # the status is still there, under the rows


# -- the setup screen's clock ---------------------------------------------------------------------
async def test_the_setup_screens_clock_starts_a_timed_game_and_is_remembered():
    from sos_tui.storage import load_settings

    app = SosApp(computer_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        clock = app.screen.query_one("#clock", Select)
        assert clock.value == "none"  # untimed by default
        clock.value = "3+2"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.session is not None, seconds=5)
        assert str(app.session.record.clock) == "3+2" and app.session.timed
        assert all(re.fullmatch(r"[23]:[0-5][0-9]", row.split()[-1]) for row in rows(app))  # real time
    app.keeper.wait(5)
    settings = load_settings()
    assert settings["setup"]["clock"] == "3+2"
    again = SosApp(computer_delay=0, settings=settings)
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert again.screen.query_one("#clock", Select).value == "3+2"
        again.screen.query_one("#clock", Select).value = "none"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: again.session is not None, seconds=5)
        assert again.session.record.clock is None and not again.session.timed
        assert "3:00" not in scoreboard_text(again)


async def test_a_clock_from_the_command_line_is_offered_on_the_setup_screen_and_hosted_with_it():
    from sos_tui.app.screens.host_dialog import HostDialog, default_places, plan_for

    app = timed_app(clock="0.2+0")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+n")
        await pilot.pause()
        clock = app.screen.query_one("#clock", Select)
        assert clock.value == "0.2+0"
        await pilot.click("#host")
        await wait_for(pilot, lambda: isinstance(app.screen, HostDialog), seconds=5)
        record = app.screen.record
        assert str(plan_for(record, default_places(record), "127.0.0.1", "0", "").clock) == "0.2+0"


def test_a_bad_remembered_clock_is_left_out():
    from sos_tui.app.screens.setup import remembered

    setup = {"size": 5, "mode": "general", "seats": [{"name": "Ana"}, {"name": "Bo"}]}
    assert str(remembered({**setup, "clock": "5+3"}).clock) == "5+3"
    assert remembered({**setup, "clock": "5+"}) is None and remembered({**setup, "clock": 7}) is None
    assert remembered({**setup, "clock": "2d"}).clock is None
    assert remembered(setup).clock is None
