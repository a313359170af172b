"""A timed game in a session, on an injected time source (no test sleeps): the increment, each
move's time in the record, the flag with two players and with three, pause, a computer's own
clock, no takebacks, and an autosaved timed game continued."""

from __future__ import annotations

import asyncio

import pytest

from sos_tui.engine import GameRecord, Mode, Move, Seat, SeatKind, Termination
from sos_tui.engine.clock import TimeControl
from sos_tui.session import ChangeKind, GameSession, OutOfTimeError, computer_move

from .support.helpers import FakeTime

ANA, BO, CY = Seat("Ana"), Seat("Bo"), Seat("Cy")
BOT = Seat("Bot", SeatKind.COMPUTER, "easy")


def timed(clock: str = "1+2", seats=(ANA, BO), size: int = 4, mode: Mode = Mode.GENERAL) -> GameRecord:
    return GameRecord(size, mode, tuple(seats), clock=TimeControl.parse(clock), spent_ms=())


def session_of(record: GameRecord, now: FakeTime) -> GameSession:
    session = GameSession(record, now=now)
    session.announce_start()
    return session


def test_each_move_takes_its_time_and_gets_the_increment():
    now = FakeTime()
    session = session_of(timed("1+2"), now)
    now.wait(10_000)
    session.play(Move(0, 0, "S"))  # Ana: 60 - 10 + 2
    now.wait(4_000)
    clocks = session.clocks
    assert clocks.remaining(0, now()) == 52_000
    assert clocks.remaining(1, now()) == 56_000  # Bo's time runs
    session.play(Move(0, 1, "O"))
    assert session.record.spent_ms == (10_000, 4_000)
    assert session.record.to_dict()["spent_ms"] == [10_000, 4_000]


def test_a_move_that_keeps_the_turn_is_a_move_with_its_own_increment():
    now = FakeTime()
    session = session_of(timed("1+2", size=3), now)
    for move in (Move(0, 0, "S"), Move(0, 1, "O")):
        session.play(move)
    now.wait(5_000)
    session.play(Move(0, 2, "S"))  # Ana scores: her turn again
    assert session.state.to_move == 0
    assert session.clocks.remaining(0, now()) == 60_000 + 2_000 - 5_000 + 2_000


def test_the_flag_ends_a_two_player_game_on_time():
    now = FakeTime()
    session = session_of(timed("0.1+0"), now)
    changes = []
    session.subscribe(changes.append)
    assert session.when_flag() == 6_000
    now.wait(5_999)
    assert session.check_time() is None
    now.wait(1)
    change = session.check_time()
    assert change.kind is ChangeKind.DROP and change.finished
    state = session.state
    assert state.termination is Termination.TIME and state.winners == (1,)
    assert session.record.ending_text() == "Bo won on time"
    assert session.record.to_dict()["termination"] == "time"
    assert session.when_flag() is None and session.check_time() is None
    assert [c.kind for c in changes] == [ChangeKind.DROP]


def test_a_move_after_the_flag_is_refused_and_the_flag_applied():
    now = FakeTime()
    session = session_of(timed("0.1+0"), now)
    now.wait(7_000)
    with pytest.raises(OutOfTimeError, match="Ana has run out of time"):
        session.play(Move(0, 0, "S"))
    assert session.state.is_over and not session.state.moves
    assert session.state.winners == (1,)


def test_the_flag_drops_one_of_three_and_the_others_play_on():
    now = FakeTime()
    session = session_of(timed("0.1+0", seats=(ANA, BO, CY)), now)
    session.play(Move(0, 0, "S"))
    now.wait(6_000)  # Bo runs out
    change = session.check_time()
    assert change.kind is ChangeKind.DROP and not change.finished
    state = session.state
    assert not state.is_over and state.is_out(1) and state.to_move == 2
    assert session.when_flag() == 6_000  # Cy's time runs now, Bo's stands at 0
    now.wait(1_000)
    session.play(Move(0, 1, "O"))  # Cy
    assert session.state.to_move == 0  # Bo's turns are skipped
    assert session.clocks.remaining(1, now()) == 0
    assert session.record.spent_ms == (0, 1_000)


def test_a_pause_stops_the_time_across_any_wait():
    now = FakeTime()
    session = session_of(timed("0.1+0"), now)
    now.wait(2_000)
    assert session.may("pause")
    session.pause()
    assert session.when_flag() is None
    now.wait(3_600_000)
    assert session.check_time() is None
    session.resume()
    assert session.when_flag() == 4_000
    session.pause()
    session.play(Move(0, 0, "S"))  # moved while paused: Bo's time stays stopped
    now.wait(60_000)
    assert session.clocks.remaining(1, now()) == 6_000
    assert session.record.spent_ms == (2_000,)


def test_resigning_stops_the_clocks():
    now = FakeTime()
    session = session_of(timed("0.1+0", seats=(ANA, BO, CY)), now)
    session.resign(0)
    assert session.when_flag() == 6_000  # Bo's turn now
    now.wait(1_000)
    assert session.clocks.remaining(0, now()) == 6_000
    session.resign(1)
    assert session.state.is_over and session.when_flag() is None


def test_a_timed_game_has_no_takebacks():
    now = FakeTime()
    session = session_of(timed(), now)
    session.play(Move(0, 0, "S"))
    assert session.may("undo") is False and session.may("redo") is False
    assert session.undo() is None
    assert session.state.moves


def test_an_untimed_game_is_as_before():
    session = GameSession(GameRecord(3, Mode.GENERAL, (ANA, BO)))
    assert not session.timed and session.when_flag() is None and session.check_time() is None
    session.play(Move(0, 0, "S"))
    assert session.may("undo") and session.may("pause") is False
    assert session.record.spent_ms is None and "spent_ms" not in session.record.to_dict()


def test_the_rematch_keeps_the_clock():
    now = FakeTime()
    session = session_of(timed("5+3"), now)
    session.play(Move(0, 0, "S"))
    rematch = session.rematch()
    assert str(rematch.clock) == "5+3" and rematch.spent_ms == ()


def test_a_continued_game_has_each_seats_time_as_at_the_last_move():
    now = FakeTime()
    session = session_of(timed("1+2", seats=(ANA, BO, CY)), now)
    for wait, move in ((10_000, Move(0, 0, "S")), (20_000, Move(0, 1, "O")), (59_000, Move(1, 1, "S"))):
        now.wait(wait)
        session.play(move)
    now.wait(60_000)  # Ana runs out, and the game goes on
    session.check_time()
    now.wait(1_000)
    saved = GameRecord.from_json(session.record.to_json())  # as the autosave writes it

    later = FakeTime()
    later.ms = 999_999_999  # another run of the program: another time line
    again = GameSession(saved, now=later)
    assert again.state.to_move == 1 and again.state.is_out(0)
    clocks = again.clocks
    assert [clocks.remaining(seat, later()) for seat in range(3)] == [0, 42_000, 3_000]
    assert again.when_flag() == 42_000  # Bo's turn: the 1 s before the save is not counted
    later.wait(42_000)
    assert again.check_time().kind is ChangeKind.DROP
    assert again.state.winners == (2,) and again.record.ending_text() == "Ana ran out of time; Cy won on time"


class FakePool:
    """A computer that thinks for ``thinks`` ms of the fake time, and says what limit it got."""

    def __init__(self, now: FakeTime, thinks: int, time_limit: float | None = 2.0) -> None:
        self.now, self.thinks, self.limits, self.time_limit = now, thinks, [], time_limit

    async def choose(self, level, state, on_retry=None, time_limit=None):
        self.limits.append(time_limit)
        self.now.wait(self.thinks)
        return next(
            Move(r, c, "S") for r in range(state.size) for c in range(state.size) if state.cell(r, c) is None
        )


def test_a_computer_spends_its_own_clock_and_thinks_within_it():
    now = FakeTime()
    session = session_of(timed("0.5+1", seats=(ANA, BOT)), now)
    session.play(Move(0, 0, "S"))
    pool = FakePool(now, thinks=1_500, time_limit=None)
    move = asyncio.run(computer_move(session, pool))
    assert session.play_computer(move, session.version) is not None
    assert session.record.spent_ms == (0, 1_500)
    assert session.clocks.remaining(1, now()) == 30_000 - 1_500 + 1_000
    assert pool.limits == [pytest.approx(30 / 20 + 1)]  # a share of its 30 s, plus its increment
    pool = FakePool(now, thinks=100)
    asyncio.run(computer_move(session, pool))  # no computer to move: nothing asked
    assert pool.limits == []


def test_a_computer_low_on_time_thinks_less_than_its_time():
    now = FakeTime()
    session = session_of(timed("0.1+0", seats=(ANA, BOT)), now)
    session.play(Move(0, 0, "S"))
    now.wait(5_900)  # the computer has 100 ms
    assert 0 < session.think_limit(2.0) < 0.1
    assert session.think_limit(None) < 0.1


def test_a_computer_move_after_its_flag_is_dropped():
    now = FakeTime()
    session = session_of(timed("0.1+0", seats=(ANA, BOT)), now)
    session.play(Move(0, 0, "S"))
    version = session.version
    now.wait(6_000)
    assert session.play_computer(Move(1, 1, "S"), version) is None
    assert session.state.termination is Termination.TIME and session.state.winners == (0,)


def test_the_low_time_warning_comes_once_per_seat():
    now = FakeTime()
    session = session_of(timed("1+0"), now)
    assert session.when_low() == 54_000 and session.low_time() is None
    now.wait(54_000)
    assert session.low_time() == 0
    assert session.low_time() is None and session.when_low() is None
