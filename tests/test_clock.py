"""Tests for game clocks (sos_tui.engine.clock): time controls, Fischer increment, flags, pauses,
lag credit, restarts and correspondence. Time is always given: nothing here sleeps."""

from __future__ import annotations

import json
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sos_tui import i18n
from sos_tui.cli.common import Parser, UsageError, time_control
from sos_tui.engine.clock import (
    DAY_MS,
    LAG_BOUND_MS,
    MAX_INCREMENT_S,
    MAX_INITIAL_MS,
    ClockError,
    Clocks,
    TimeControl,
    TimeUpError,
    lag_credit,
)
from sos_tui.engine.text import RuleError

FIVE_THREE = TimeControl.parse("5+3")

# -- time controls --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "initial", "increment", "shown"),
    [
        ("5+3", 300_000, 3_000, "5+3"),
        ("0.5+0", 30_000, 0, "0.5+0"),
        ("0.1+2", 6_000, 2_000, "0.1+2"),
        ("0.25+0", 15_000, 0, "0.25+0"),
        ("1440+180", MAX_INITIAL_MS, 180_000, "1440+180"),
        ("05+03", 300_000, 3_000, "5+3"),
        ("  5+3 ", 300_000, 3_000, "5+3"),
        ("10.50+1", 630_000, 1_000, "10.5+1"),
    ],
)
def test_a_time_control_is_read_and_written_back(text, initial, increment, shown):
    control = TimeControl.parse(text)
    assert (control.initial_ms, control.increment_ms, control.per_move, control.days) == (
        initial,
        increment,
        False,
        None,
    )
    assert str(control) == shown
    assert TimeControl.parse(str(control)) == control
    assert TimeControl.from_dict(control.to_dict()) == control == TimeControl.from_dict(shown)


@pytest.mark.parametrize("days", [1, 2, 3, 7])
def test_a_correspondence_control_is_days_per_move(days):
    control = TimeControl.parse(f"{days}d")
    assert (control.days, control.per_move, control.initial_ms, control.increment_ms) == (
        days,
        True,
        days * DAY_MS,
        0,
    )
    assert str(control) == f"{days}d"
    assert control.to_dict() == {"days": days}
    assert TimeControl.from_dict(control.to_dict()) == control == TimeControl.parse(f"{days}D")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5+", "the increment is missing after '+'"),
        ("+3", "the minutes are missing before '+'"),
        ("-1+0", "the minutes cannot be negative"),
        ("5+-3", "the increment cannot be negative"),
        ("abc", "expected minutes+increment like 5+3 or 0.5+0, or days per move like 2d, not 'abc'"),
        ("", "expected minutes+increment"),
        ("5", "expected minutes+increment"),
        ("5+3+1", "expected minutes+increment"),
        ("0+0", "the minutes must be from 0.1 to 1440 (24 hours), with at most two decimals, not 0"),
        ("0.05+0", "the minutes must be from 0.1 to 1440"),
        ("0.123+0", "with at most two decimals, not 0.123"),
        ("1e9+0", "the minutes must be a number like 5 or 0.5, not '1e9'"),
        ("1000000000+0", "the minutes must be from 0.1 to 1440 (24 hours)"),
        ("1440.5+0", "the minutes must be from 0.1 to 1440 (24 hours)"),
        ("9" * 5000 + "+0", "the minutes must be from 0.1 to 1440"),
        ("nan+0", "the minutes must be a number like 5 or 0.5, not 'nan'"),
        ("inf+0", "not 'inf'"),
        ("5+NaN", "the increment must be a number like 5 or 0.5, not 'NaN'"),
        ("5+3.5", "the increment must be whole seconds from 0 to 180, not 3.5"),
        ("5+181", "the increment must be whole seconds from 0 to 180, not 181"),
        ("5+" + "9" * 5000, "the increment must be whole seconds from 0 to 180"),
        ("5 + 3", "a time control has no spaces"),
        ("5+\t3", "a time control has no spaces"),
        ("\ud800", r"not '\ud800'"),
        ("5\ud800+3", r"not '5\ud800'"),
        ("\x1b[2J+3", r"not '\x1b[2J'"),
        ("\uff15+3", "the minutes must be a number like 5 or 0.5"),
        ("4d", "days per move must be one of 1, 2, 3, 7, not 4"),
        ("0d", "days per move must be one of 1, 2, 3, 7, not 0"),
        ("9" * 5000 + "d", "expected minutes+increment"),
    ],
)
def test_a_bad_time_control_says_what_is_expected(text, expected):
    with pytest.raises(ClockError) as caught:
        TimeControl.parse(text)
    message = str(caught.value)
    assert expected in message
    assert message.isprintable() and len(message) < 200
    assert isinstance(caught.value, RuleError) and isinstance(caught.value, ValueError)


@pytest.mark.parametrize(
    "data",
    [
        None,
        5,
        [],
        {},
        {"days": 4},
        {"days": True},
        {"days": 2, "x": 1},
        {"initial_ms": 300_000},
        {"initial_ms": 1, "increment_ms": 0},
        {"initial_ms": 300_000, "increment_ms": -1000},
        {"initial_ms": 300_000.0, "increment_ms": 0},
        {"initial_ms": 300_000, "increment_ms": True},
        {"initial_ms": 300_001, "increment_ms": 0},
        {"initial_ms": 300_000, "increment_ms": 1500},
        "5+",
    ],
)
def test_a_bad_stored_time_control_is_a_clock_error(data):
    with pytest.raises(ClockError):
        TimeControl.from_dict(data)


def test_a_time_control_that_is_not_text_is_a_clock_error():
    with pytest.raises(ClockError, match="a time control must be text, not int"):
        TimeControl.parse(5)


controls = st.one_of(
    st.builds(
        lambda hundredths, seconds: TimeControl(hundredths * 600, seconds * 1000),
        st.integers(10, 144_000),
        st.integers(0, MAX_INCREMENT_S),
    ),
    st.sampled_from([TimeControl.parse(f"{d}d") for d in (1, 2, 3, 7)]),
)


@given(controls)
def test_every_time_control_reads_back_from_its_text_and_its_dict(control):
    assert TimeControl.parse(str(control)) == control
    assert TimeControl.from_dict(json.loads(json.dumps(control.to_dict()))) == control


# -- clocks ---------------------------------------------------------------------------------------


def test_fischer_increment_is_added_after_the_move():
    clocks = Clocks.new(FIVE_THREE, 2).start(0, now=1_000)
    clocks = clocks.switch(1, now=11_000)  # seat 0 took 10 s
    assert clocks.remaining(0, now=99_000) == 300_000 - 10_000 + 3_000
    assert clocks.remaining(1, now=11_000) == 300_000
    assert clocks.remaining(1, now=15_000) == 296_000
    assert clocks.spent_ms == (10_000,)


def test_a_move_that_keeps_the_turn_gets_its_increment_too():
    clocks = Clocks.new(FIVE_THREE, 2).start(0, now=0)
    clocks = clocks.switch(0, now=4_000)  # scored: seat 0 moves again
    assert (clocks.running, clocks.remaining(0, now=4_000)) == (0, 299_000)
    clocks = clocks.switch(1, now=5_000)
    assert clocks.remaining(0, now=5_000) == 301_000
    assert clocks.spent_ms == (4_000, 1_000)


def test_only_the_running_seat_loses_time_and_flags_when_it_reaches_zero():
    clocks = Clocks.new(TimeControl.parse("0.1+0"), 3).start(1, now=100)
    assert clocks.when_flag(now=100) == 6_000
    assert clocks.flagged(now=6_099) is None and clocks.remaining(1, now=6_099) == 1
    assert clocks.flagged(now=6_100) == 1 and clocks.remaining(1, now=6_100) == 0
    assert clocks.remaining(1, now=60_000) == 0 and clocks.when_flag(now=60_000) == 0
    assert clocks.remaining(0, now=60_000) == clocks.remaining(2, now=60_000) == 6_000


def test_a_move_after_the_flag_is_refused_even_with_lag():
    clocks = Clocks.new(TimeControl.parse("0.1+5"), 2).start(0, now=0)
    with pytest.raises(TimeUpError) as caught:
        clocks.switch(1, now=6_000, lag_ms=400)
    assert caught.value.seat == 0
    assert str(caught.value) == "seat 1 has run out of time"
    assert clocks.switch(1, now=5_999, lag_ms=400).remaining(0, now=5_999) == 1 + 400 + 5_000


def test_pause_stops_the_time_and_resume_runs_it_again():
    clocks = Clocks.new(FIVE_THREE, 2).start(0, now=0).pause(now=10_000)
    assert clocks.paused and clocks.when_flag(now=10_000) is None and clocks.flagged(now=10**12) is None
    assert clocks.remaining(0, now=10**12) == 290_000
    assert clocks.pause(now=50_000) == clocks  # already paused
    running = clocks.resume(now=500_000)
    assert not running.paused and running.remaining(0, now=501_000) == 289_000
    assert running.resume(now=600_000) == running  # already running


def test_a_pause_after_the_time_ran_out_saves_no_one():
    clocks = Clocks.new(TimeControl.parse("0.1+0"), 2).start(0, now=0).pause(now=7_000)
    assert clocks.flagged(now=7_000) == 0 and clocks.resume(now=8_000).flagged(now=8_000) == 0


def test_a_dropped_seat_stands_still_and_is_never_started_again():
    clocks = Clocks.new(FIVE_THREE, 3).start(0, now=0).switch(1, now=1_000)
    clocks = clocks.drop(1, now=3_000)
    assert clocks.running is None and clocks.dropped == {1}
    assert clocks.remaining(1, now=10**9) == 298_000
    with pytest.raises(ValueError, match="dropped out"):
        clocks.start(1, now=3_000)
    clocks = clocks.start(2, now=3_000).drop(0, now=4_000)
    assert clocks.running == 2 and clocks.dropped == {0, 1}
    with pytest.raises(ValueError, match="dropped out"):
        clocks.switch(0, now=5_000)


def test_low_time_is_a_tenth_of_the_budget_or_less():
    clocks = Clocks.new(TimeControl.parse("1+0"), 2).start(0, now=0)
    assert not clocks.low(0, now=53_999)
    assert clocks.low(0, now=54_000) and clocks.low(0, now=10**9)
    assert not clocks.low(1, now=10**9)


def test_a_correspondence_seat_gets_the_whole_budget_at_each_move():
    clocks = Clocks.new(TimeControl.parse("2d"), 2).start(0, now=0)
    clocks = clocks.switch(1, now=DAY_MS)  # a day to move
    assert clocks.remaining(1, now=DAY_MS) == clocks.remaining(0, now=DAY_MS) == 2 * DAY_MS
    clocks = clocks.switch(0, now=DAY_MS + 5)
    assert clocks.remaining(0, now=DAY_MS + 5) == 2 * DAY_MS
    assert clocks.spent_ms == (DAY_MS, 5)
    assert clocks.flagged(now=3 * DAY_MS + 5) == 0


def test_misuse_is_a_value_error():
    clocks = Clocks.new(FIVE_THREE, 2)
    with pytest.raises(ValueError, match="no seat is running"):
        clocks.switch(1, now=0)
    with pytest.raises(ValueError, match="no seat 2"):
        clocks.start(2, now=0)
    with pytest.raises(ValueError, match="is running"):
        clocks.start(0, now=0).start(1, now=0)
    with pytest.raises(ValueError, match="at least 2"):
        Clocks.new(FIVE_THREE, 1)


def test_clocks_are_values():
    one = Clocks.new(FIVE_THREE, 2).start(0, now=0).switch(1, now=5)
    two = Clocks.new(FIVE_THREE, 2).start(0, now=0).switch(1, now=5)
    assert one == two and hash(one) == hash(two) and pickle.loads(pickle.dumps(one)) == one
    with pytest.raises(AttributeError):
        one.running = 0


# -- properties -----------------------------------------------------------------------------------

steps = st.lists(
    st.tuples(
        st.sampled_from(["move", "pause", "resume", "wait"]),
        st.integers(0, 200_000),
        st.integers(0, 3),
        st.integers(0, 2_000),
    ),
    max_size=40,
)


@given(st.integers(2, 6), st.sampled_from(["0.1+0", "1+2", "5+3", "3+0", "0.5+10"]), steps)
def test_time_is_conserved(seats, text, steps):
    """What a seat has + what its moves took + what its turn has used = its initial time + its
    increments, whatever moves, pauses and lag come, until a flag ends it."""
    control = TimeControl.parse(text)
    now, clocks = 0, Clocks.new(control, seats).start(0, now=0)
    used = 0  # by the running seat's turn so far
    movers: list[int] = []
    for action, wait, seat, lag in steps:
        if not clocks.paused:
            used += wait
        now += wait
        if clocks.flagged(now) is not None:
            assert clocks.remaining(clocks.running, now) == 0
            assert used >= clocks.remaining_ms[clocks.running] > 0
            return
        if action == "move":
            clocks = clocks.resume(now)
            mover = clocks.running
            clocks = clocks.switch(seat % seats, now, lag_ms=lag)
            movers.append(mover)
            used = 0
        elif action == "pause":
            clocks = clocks.pause(now)
        elif action == "resume":
            clocks = clocks.resume(now)
        for s in range(seats):
            moves = [spent for mover, spent in zip(movers, clocks.spent_ms, strict=True) if mover == s]
            turn = used if s == clocks.running else 0
            earned = control.initial_ms + control.increment_ms * len(moves)
            assert clocks.remaining(s, now) + sum(moves) + turn == earned


@given(st.integers(1, DAY_MS), st.integers(0, 10**9), st.integers(0, 3 * DAY_MS))
def test_a_flag_happens_exactly_when_the_time_reaches_zero(budget, start, after):
    clocks = Clocks((FIVE_THREE), (budget, 300_000)).start(0, now=start)
    now = start + after
    assert clocks.remaining(0, now) == max(0, budget - after)
    assert (clocks.flagged(now) == 0) == (after >= budget) == (clocks.remaining(0, now) == 0)
    assert clocks.when_flag(now) == clocks.remaining(0, now)
    assert clocks.flagged(start + clocks.when_flag(start)) == 0


@given(st.integers(0, 10**6), st.integers(0, 10**6), st.integers(0, 10**12), st.integers(0, 10**6))
def test_a_paused_clock_loses_no_time(before, pause_at, later, after_resume):
    clocks = Clocks.new(TimeControl.parse("30+0"), 2).start(1, now=before).pause(now=before + pause_at)
    frozen = clocks.remaining(1, now=before + pause_at)
    assert clocks.remaining(1, now=before + pause_at + later) == frozen
    resumed = clocks.resume(now=before + pause_at + later)
    assert resumed.remaining(1, now=before + pause_at + later + after_resume) == max(0, frozen - after_resume)


@given(st.integers(0, 170_000), st.integers(0, 10**6), st.integers(0, 10**7), st.booleans())
def test_a_restored_clock_counts_the_downtime_unless_paused(switched, saved_after, downtime, paused):
    """Stored ``saved_after`` seat 2's turn began and read back ``downtime`` later (a restart):
    seat 2 has lost the downtime too, as if the process had never stopped; paused, nothing."""
    clocks = Clocks.new(TimeControl.parse("3+2"), 3).start(0, now=0).switch(2, now=switched)
    saved_at = switched + saved_after
    if paused:
        clocks = clocks.pause(now=saved_at)
    restored = Clocks.from_dict(json.loads(json.dumps(clocks.to_dict())))
    assert restored == clocks
    now = saved_at + downtime
    expected = max(0, 180_000 - saved_after) if paused else max(0, 180_000 - saved_after - downtime)
    assert restored.remaining(2, now) == expected
    assert restored.flagged(now) == (None if expected else 2)  # paused after running out: still out


@given(st.integers(-(10**6), 10**6), st.integers(0, 10**7))
def test_lag_credit_never_exceeds_the_bound_or_the_move_time(lag, took):
    credit = lag_credit(lag, took)
    assert 0 <= credit <= min(LAG_BOUND_MS, took)
    assert credit == max(0, min(lag, LAG_BOUND_MS, took))


@given(st.integers(0, 10**6), st.integers(0, 290_000))
def test_a_move_is_charged_its_time_less_the_bounded_lag(lag, took):
    clocks = Clocks.new(FIVE_THREE, 2).start(0, now=0).switch(1, now=took, lag_ms=lag)
    spent = clocks.spent_ms[-1]
    assert took - LAG_BOUND_MS <= spent <= took and spent == took - min(lag, LAG_BOUND_MS, took)
    assert clocks.remaining(0, now=took) == 300_000 - spent + 3_000


# -- stored clocks --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "change",
    [
        {"control": "5+"},
        {"control": None},
        {"remaining_ms": [1]},
        {"remaining_ms": "12"},
        {"remaining_ms": [1, -1]},
        {"remaining_ms": [1, 2.5]},
        {"running": 2},
        {"running": True},
        {"running": "0"},
        {"since": "now"},
        {"since": 1.5},
        {"dropped": [5]},
        {"dropped": [0]},
        {"spent_ms": None},
        {"running": None},
        {"used_ms": -1},
        {"used_ms": "1"},
    ],
)
def test_bad_stored_clocks_are_a_clock_error(change):
    data = Clocks.new(FIVE_THREE, 2).start(0, now=10).to_dict()
    data.update(change)
    with pytest.raises(ClockError) as caught:
        Clocks.from_dict(data)
    assert str(caught.value).isprintable()


def test_stored_clocks_that_are_not_an_object_are_a_clock_error():
    with pytest.raises(ClockError, match="bad clocks: expected an object"):
        Clocks.from_dict([1, 2])


# -- the command line's --clock -------------------------------------------------------------------


def clock_option(args: list[str]):
    parser = Parser(prog="sos-tui")
    parser.add_argument("--clock", type=time_control)
    return parser.parse_args(args).clock


def test_the_clock_option_takes_minutes_and_increment():
    assert clock_option(["--clock", "0.5+0"]) == TimeControl(30_000, 0)
    assert clock_option(["--clock", "5+3"]) == FIVE_THREE


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5+", "argument --clock: the increment is missing after '+'"),
        ("-1+0", "argument --clock: the minutes cannot be negative"),
        ("1e9+0", "argument --clock: the minutes must be a number like 5 or 0.5, not '1e9'"),
        ("2d", "argument --clock: days per move (2d) are for correspondence rooms on a server"),
        ("\x1b[2J", r"not '\x1b[2J'"),
    ],
)
def test_a_bad_clock_option_is_one_clear_line(text, expected):
    with pytest.raises(UsageError) as caught:
        clock_option([f"--clock={text}"])  # argparse takes "--clock -1+0" for two options
    assert expected in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize("text", ["5+", "0+0", "abc", "5 + 3", "2d", "4d", "5+1000", "-1+0", "nan+0"])
def test_a_bad_clock_option_is_said_in_malay(text):
    i18n.set_language("ms")
    with pytest.raises(UsageError) as caught:
        clock_option([f"--clock={text}"])
    message = str(caught.value)
    for english in ("missing", "minutes", "expected", "spaces", "days per move", "increment must"):
        assert english not in message, message
