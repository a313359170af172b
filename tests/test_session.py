"""The game session without a screen: timeline, undo and redo, turns, pause, late computer moves,
the keeper's writes, and the computer's process pool."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from sos_tui.engine import (
    EndingError,
    GameRecord,
    GameState,
    IllegalMoveError,
    Mode,
    Move,
    PlayerInfo,
    Termination,
)
from sos_tui.session import (
    ChangeKind,
    ComputerFailed,
    ComputerPool,
    GameSession,
    Keeper,
    NotYourTurnError,
    SeatKind,
)

from .support.examples import nightly
from .support.helpers import wait_for

ANA, BO = PlayerInfo("Ana"), PlayerInfo("Bo")
BOT = PlayerInfo("Bot", "computer", "easy")


def record(*seats, size=3, mode="general", moves=()) -> GameRecord:
    return GameRecord(size, Mode(mode), tuple(seats or (ANA, BO)), tuple(Move.parse(m) for m in moves))


def test_importing_the_session_leaves_textual_out():
    # The search process imports sos_tui.ai, and (spawned from the sos-tui script) sos_tui.cli
    code = "import sys, sos_tui.session, sos_tui.ai, sos_tui.cli; print('textual' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_play_undo_redo_walk_one_timeline_and_report_each_change():
    session = GameSession(record())
    seen = []
    session.subscribe(seen.append)
    session.play(Move.parse("S a1"))
    session.play(Move.parse("O b1"))
    assert session.undo().state.moves == (Move.parse("S a1"),)
    assert session.redo().state.moves == (Move.parse("S a1"), Move.parse("O b1"))
    assert session.redo() is None
    assert [c.kind for c in seen] == [ChangeKind.MOVE, ChangeKind.MOVE, ChangeKind.UNDO, ChangeKind.REDO]
    assert seen[-1].record.moves == session.state.moves


def test_a_new_move_after_undo_drops_the_redo_branch():
    session = GameSession(record())
    session.play(Move.parse("S a1"))
    session.undo()
    session.play(Move.parse("O c3"))
    assert session.state.moves == (Move.parse("O c3"),)
    assert not session.can_redo


def test_a_loaded_game_can_be_undone_back_to_the_empty_board():
    session = GameSession(record(moves=["S a1", "O b1"]))
    assert session.position == 2
    session.undo()
    session.undo()
    assert session.state.moves == () and session.record.moves == ()
    assert not session.can_undo


def test_occupied_cells_and_finished_games_are_refused_by_the_engine_and_nothing_changes():
    session = GameSession(record(moves=["S a1"]))
    version = session.version
    with pytest.raises(IllegalMoveError, match="already holds S"):
        session.play(Move.parse("O a1"))
    assert session.version == version and session.state.move_count == 1


def test_a_seat_can_only_move_on_its_turn():
    session = GameSession(record())
    with pytest.raises(NotYourTurnError, match="Ana's turn"):
        session.play(Move.parse("S a1"), by=(1,))
    session.play(Move.parse("S a1"), by=(0,))
    assert session.state.to_move == 1


def test_a_move_is_refused_unless_one_of_the_senders_seats_holds_the_turn():
    cy = PlayerInfo("Cy")
    session = GameSession(record(ANA, BO, cy))
    with pytest.raises(NotYourTurnError, match=r"^it is Ana's turn$"):
        session.play(Move.parse("S a1"), by=(1, 2))  # a host holding two seats, neither to move
    with pytest.raises(NotYourTurnError, match=r"^it is Ana's turn$"):
        session.play(Move.parse("S a1"), by=())  # nobody's seat: a spectator
    assert session.version == 0 and session.state.move_count == 0
    session.play(Move.parse("S a1"), by=(2, 0))
    session.play(Move.parse("O b1"), by=(1, 2))
    assert session.state.movers == (0, 1) and session.state.to_move == 2


def test_a_person_cannot_move_for_the_computer():
    session = GameSession(record(BOT, ANA))
    assert session.kind_to_move is SeatKind.COMPUTER and session.computer_level == "easy"
    with pytest.raises(NotYourTurnError, match="wait for Bot"):
        session.play_human(Move.parse("S a1"))


def test_a_computer_move_for_an_older_position_is_dropped():
    session = GameSession(record(ANA, BOT))
    session.play_human(Move.parse("S a1"))
    asked = session.version  # the computer starts thinking here
    session.undo()  # ... and the player takes the move back
    assert session.play_computer(Move.parse("O b1"), asked) is None
    assert session.state.moves == ()
    session.play_human(Move.parse("S a1"))
    assert session.play_computer(Move.parse("O b1"), session.version) is not None


def test_pause_holds_the_computer_and_a_late_answer_is_dropped():
    session = GameSession(record(BOT, ANA))
    asked = session.version
    session.pause()
    assert session.paused and session.computer_level is None
    assert session.play_computer(Move.parse("S a1"), asked) is None
    session.resume()
    assert session.computer_level == "easy"


def test_nothing_to_pause_without_a_computer():
    session = GameSession(record())
    assert session.pause() is None and not session.paused


def test_undo_against_a_computer_goes_back_to_the_previous_human_turn():
    session = GameSession(record(ANA, BOT, size=4))
    session.play_human(Move.parse("S a1"))
    session.play_computer(Move.parse("O d4"), session.version)
    session.play_human(Move.parse("S c3"))
    session.undo()  # Ana's S c3 taken back: Ana to move again
    assert session.state.moves == (Move.parse("S a1"), Move.parse("O d4"))
    session.undo()  # past the computer's O d4, and Ana's S a1
    assert session.state.moves == ()
    session.redo()
    assert session.state.moves == (Move.parse("S a1"), Move.parse("O d4"))


def test_the_game_over_change_is_flagged_once_and_redo_to_the_end_is_not_a_new_finish():
    moves = ["S a1", "O b1", "S c1"]  # a 3x3 simple game: the first SOS wins
    session = GameSession(record(mode="simple"))
    changes = []
    session.subscribe(changes.append)
    for text in moves[:-1]:
        session.play(Move.parse(text))
    session.play(Move.parse(moves[-1]))
    assert changes[-1].finished and session.state.is_over
    session.undo()
    session.redo()
    assert not changes[-1].finished and changes[-1].state.is_over


def test_a_rematch_keeps_the_settings_and_alternates_who_starts():
    session = GameSession(record(ANA, BO, size=5, mode="simple", moves=["S a1"]))
    again = session.rematch()
    assert (again.size, again.mode, again.moves) == (5, Mode.SIMPLE, ())
    assert again.players == (BO, ANA)
    assert again.game_id != session.game_id


class SessionMachine(RuleBasedStateMachine):
    """Random play, undo, redo, pause, new games and computer answers that arrive late: the log
    always equals a replay of the moves through the engine."""

    @initialize(size=st.integers(3, 5), mode=st.sampled_from(["general", "simple"]),
                computer=st.booleans())
    def start(self, size, mode, computer):
        self.session = GameSession(record(ANA, BOT if computer else BO, size=size, mode=mode))
        self.changes = []
        self.session.subscribe(self.changes.append)
        self.asked: list[int] = []

    @precondition(lambda self: not self.session.state.is_over)
    @rule(data=st.data())
    def play(self, data):
        state = self.session.state
        move = data.draw(st.sampled_from(state.legal_moves()))
        if self.session.kind_to_move is SeatKind.COMPUTER:
            self.asked.append(self.session.version)
            self.session.play_computer(move, self.session.version)
        else:
            self.session.play_human(move)

    @rule(data=st.data())
    def late_computer_answer(self, data):
        if not self.asked:
            return
        version = data.draw(st.sampled_from(self.asked))
        state, before = self.session.state, self.session.version
        if state.is_over:
            return
        played = self.session.play_computer(state.legal_moves()[0], version)
        if version != before:
            assert played is None and self.session.state is state

    @rule()
    def undo(self):
        self.session.undo()

    @rule()
    def redo(self):
        self.session.redo()

    @rule()
    def pause(self):
        self.session.toggle_pause()

    @rule()
    def rematch(self):
        self.start_from(self.session.rematch())

    def start_from(self, rec):
        self.session = GameSession(rec)
        self.session.subscribe(self.changes.append)
        self.asked = []

    @invariant()
    def log_is_a_replay_through_the_engine(self):
        session = self.session
        state = session.state
        replay = GameState.from_moves(session.record.moves, state.size, state.mode, state.players)
        assert replay == state
        assert session.timeline[session.position] is state
        assert GameRecord.from_json(session.record.to_json()).moves == state.moves

    @invariant()
    def listeners_saw_the_current_state(self):
        if self.changes and self.changes[-1].record.game_id == self.session.game_id:
            assert self.changes[-1].state == self.session.state


TestSessionMachine = SessionMachine.TestCase
# 25 runs of 40 steps on every run; the full 150 under the Hypothesis profile "slow" (pytest --runslow)
TestSessionMachine.settings = settings(
    max_examples=150 if nightly() else 25, stateful_step_count=40, deadline=None)


# -- the keeper ------------------------------------------------------------------------------
class FakeStore:
    def __init__(self, fail_history: int = 0, fail_autosave: bool = False):
        self.autosaves: dict[str, GameRecord] = {}
        self.history: dict[str, GameRecord] = {}
        self.pending: list[GameRecord] = []
        self.fail_history = fail_history
        self.fail_autosave = fail_autosave
        self.settings = None
        self.gate = threading.Event()
        self.gate.set()

    def autosave(self, rec):
        self.gate.wait(5)
        if self.fail_autosave:
            raise OSError("the disk is full")
        if rec.moves:
            self.autosaves[rec.game_id] = rec
        else:
            self.autosaves.pop(rec.game_id, None)

    def clear_autosave(self, rec):
        self.autosaves.pop(rec.game_id, None)

    def record_finished(self, rec):
        self.pending = [p for p in self.pending if p.game_id != rec.game_id] + [rec]
        self.flush()

    def flush(self):
        if self.fail_history:
            self.fail_history -= 1
            raise OSError("the history database is busy")
        for rec in self.pending:
            self.history[rec.game_id] = rec
        done, self.pending = len(self.pending), []
        return done

    def save_settings(self, data):
        self.settings = data

    def lost(self):
        return []


def test_the_autosave_follows_the_position_and_is_gone_when_no_move_stands():
    store = FakeStore()
    keeper = Keeper(store)
    session = GameSession(record())
    session.subscribe(keeper.on_change)
    session.play(Move.parse("S a1"))
    keeper.wait(5)
    assert store.autosaves[session.game_id].moves == (Move.parse("S a1"),)
    session.undo()
    keeper.wait(5)
    assert session.game_id not in store.autosaves  # nothing to "Continue"
    keeper.close()


def test_autosaves_queued_behind_a_slow_disk_are_coalesced_to_the_newest():
    store = FakeStore()
    written = []
    real = store.autosave
    store.autosave = lambda rec: (written.append(rec.moves), real(rec))
    store.gate.clear()
    keeper = Keeper(store, flush_at_start=False)
    session = GameSession(record(size=5))
    session.subscribe(keeper.on_change)
    for text in ["S a1", "O b1", "S c1", "O d1"]:
        session.play(Move.parse(text))
    store.gate.set()
    keeper.wait(5)
    assert len(written) <= 2 and written[-1] == session.state.moves
    keeper.close()


def test_a_game_undone_and_finished_differently_is_one_history_entry():
    store = FakeStore()
    keeper = Keeper(store)
    session = GameSession(record(mode="simple"))
    session.subscribe(keeper.on_change)
    for text in ["S a1", "O b1", "S c1"]:
        session.play(Move.parse(text))
    session.undo()
    session.play(Move.parse("O c1"))
    for text in ["S a2", "O b2", "S c2"]:
        session.play(Move.parse(text))
    keeper.wait(5)
    assert list(store.history) == [session.game_id]
    assert store.history[session.game_id].moves == session.state.moves
    assert store.autosaves == {}
    keeper.close()


def test_a_failed_history_write_is_reported_kept_and_written_later():
    store = FakeStore(fail_history=1)
    errors = []
    keeper = Keeper(store, on_error=errors.append, flush_at_start=False)
    session = GameSession(record(mode="simple"))
    session.subscribe(keeper.on_change)
    for text in ["S a1", "O b1", "S c1"]:
        session.play(Move.parse(text))
    keeper.wait(5)
    assert errors and "history database is busy" in errors[0] and "kept" in errors[0]
    assert store.history == {} and store.pending
    assert store.autosaves[session.game_id].state.is_over  # the last resort copy
    keeper.close()  # quitting retries
    assert list(store.history) == [session.game_id] and not store.pending


def test_a_failing_autosave_is_reported_once_while_it_keeps_failing():
    store = FakeStore(fail_autosave=True)
    errors = []
    keeper = Keeper(store, on_error=errors.append, flush_at_start=False)
    session = GameSession(record())
    session.subscribe(keeper.on_change)
    session.play(Move.parse("S a1"))
    keeper.wait(5)
    session.play(Move.parse("O b1"))
    keeper.wait(5)
    assert len(errors) == 1 and "disk is full" in errors[0]  # one notice, not one per move
    keeper.close()


# -- the computer's process pool ---------------------------------------------------------------
def test_the_pool_answers_with_a_legal_move():
    pool = ComputerPool(time_limit=None, seed=1)
    state = GameState.from_moves(["S a1", "O b1"], size=3)
    try:
        move = asyncio.run(pool.choose("medium", state))
        assert move == Move.parse("S c1")  # the SOS on offer
    finally:
        pool.shutdown()


def test_a_killed_search_process_is_replaced_and_the_search_tried_again():
    pool = ComputerPool(time_limit=None, seed=1)
    state = GameState.new(8)
    retries = []

    async def run():
        task = asyncio.ensure_future(pool.choose("expert", state, on_retry=retries.append))
        pids = await wait_for(None, pool.pids, what="the search process")
        os.kill(pids[0], signal.SIGKILL)  # as the OOM killer would
        return await asyncio.wait_for(task, 60)

    try:
        move = asyncio.run(run())
        assert state.is_legal(move)
        assert retries == ["the computer's process stopped; starting it again"]
    finally:
        pool.shutdown()


def test_a_search_that_cannot_answer_fails_with_a_message_instead_of_hanging():
    pool = ComputerPool(time_limit=None, seed=1)
    try:
        with pytest.raises(ComputerFailed, match="level must be one of"):
            asyncio.run(asyncio.wait_for(pool.choose("godlike", GameState.new(3)), 60))
    finally:
        pool.shutdown()


async def _until_running(pool: ComputerPool) -> list[int]:
    return await wait_for(None, pool.pids, what="the search process")


def test_cancelling_a_search_stops_its_process():
    pool = ComputerPool(time_limit=None, seed=1)

    async def run():
        task = asyncio.ensure_future(pool.choose("expert", GameState.new(10)))
        pids = await _until_running(pool)
        task.cancel()  # the task awaiting a search is its handle
        with pytest.raises(asyncio.CancelledError):
            await task
        return pids

    pids = asyncio.run(run())
    assert pids and not pool.busy
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    pool.shutdown()


def test_one_owner_cancelling_its_search_leaves_another_owners_search_to_answer():
    pool = ComputerPool(time_limit=None, seed=1)
    state = GameState.from_moves(["S a1", "O b1"], size=3)

    async def run():
        # the game screen's search runs; a hosted room's waits its turn; the screen cancels its own
        screen = asyncio.ensure_future(pool.run(time.sleep, 60))
        room = asyncio.ensure_future(pool.choose("medium", state))
        await _until_running(pool)
        screen.cancel()
        move = await asyncio.wait_for(room, 60)
        # and the other way round: the room's search runs, a queued review is cancelled
        running = asyncio.ensure_future(pool.run(time.sleep, 0.5))
        pids = await _until_running(pool)
        queued = asyncio.ensure_future(pool.choose("medium", state))
        await asyncio.sleep(0.05)
        queued.cancel()
        await asyncio.wait_for(running, 60)
        assert queued.cancelled() and pool.pids() == pids  # the running search's process lived on
        return move

    try:
        assert asyncio.run(run()) == Move.parse("S c1")
        assert not pool.busy
    finally:
        pool.shutdown()


def test_seats_can_say_who_moves_while_the_record_keeps_people_and_computers():
    remote = PlayerInfo("Bo", "remote")
    session = GameSession(record(ANA, BO, BOT), seats=(PlayerInfo("Ana", "remote"), remote, BOT))
    assert session.kind_to_move is SeatKind.REMOTE
    with pytest.raises(NotYourTurnError):
        session.play_human(Move.parse("S a1"))
    with pytest.raises(NotYourTurnError):
        session.play(Move.parse("S a1"), by=(1,))
    session.play(Move.parse("S a1"), by=(0,))
    assert session.record.players == (ANA, BO, BOT)  # the record holds no "remote" kind
    assert session.seat_to_move == remote
    assert session.rematch().players == (BO, BOT, ANA)
    with pytest.raises(ValueError, match="name the record's players"):
        GameSession(record(ANA, BO), seats=(ANA, PlayerInfo("Cy", "remote")))


def test_a_local_game_and_a_network_game_are_both_game_sources_that_say_what_may_be_done():
    from sos_tui.engine import GameRecord, Mode, PlayerInfo
    from sos_tui.net import RemoteGame, TokenStore
    from sos_tui.session import Action, GameSource

    people = GameSession(GameRecord(3, Mode.GENERAL, (PlayerInfo("Ana"), PlayerInfo("Bo"))))
    computers = GameSession(GameRecord(3, Mode.GENERAL, (PlayerInfo("C1", "computer", "easy"),
                                                         PlayerInfo("C2", "computer", "easy"))))
    remote = RemoteGame("ws://127.0.0.1:9/7f3kq-x9m2c", "Cy", tokens=TokenStore())
    assert all(isinstance(game, GameSource) for game in (people, computers, remote))
    assert people.may(Action.MOVE) and people.may(Action.UNDO) is None  # nothing to undo yet
    assert people.may(Action.PAUSE) is False and computers.may(Action.PAUSE)
    assert computers.may(Action.HINT) is False and people.may(Action.HINT)
    # not connected, no seat: a spectator of a network game may do nothing of a game's own
    assert all(remote.may(action) is False for action in Action)


# -- resign, abort, draw offers ----------------------------------------------------------------
CY = PlayerInfo("Cy")


def test_resign_with_two_players_ends_the_game_the_other_wins_and_undo_cannot_take_it_back():
    session = GameSession(record())
    seen = []
    session.subscribe(seen.append)
    session.play(Move.parse("S a1"))
    assert session.may("resign") is True and session.person_seat == 1
    change = session.resign(0)
    assert change.kind is ChangeKind.DROP and change.seat == 0 and change.finished
    assert change.state.winners == (1,) and change.state.termination is Termination.RESIGN
    assert change.record.termination is Termination.RESIGN
    assert not session.can_undo and session.undo() is None
    assert session.may("resign") is None and session.may("abort") is None
    with pytest.raises(EndingError, match="the game is already over"):
        session.resign(1)


def test_resign_with_three_players_the_game_goes_on_without_the_resigner():
    session = GameSession(record(ANA, BO, CY, size=4))
    session.play(Move.parse("S a1"))
    change = session.resign(1)  # Bo, to move
    assert not change.finished and change.state.to_move == 2 and change.state.is_out(1)
    session.play(Move.parse("O d4"))
    assert session.state.to_move == 0
    assert GameSession(session.record).state == session.state  # the autosave resumes it
    assert session.undo().state.is_out(1)  # back to the resign, not past it
    assert session.undo() is None


def test_a_computer_seat_a_seat_already_out_and_no_seat_cannot_resign():
    session = GameSession(record(ANA, BOT))
    with pytest.raises(EndingError, match="Bot is not played at this terminal"):
        session.resign(1)
    with pytest.raises(EndingError, match="7 is not a seat"):
        session.resign(7)
    three = GameSession(record(ANA, BO, CY))
    three.resign(2)
    with pytest.raises(EndingError, match="Cy is already out"):
        three.resign(2)
    assert three.state.drops[0].seat == 2 and len(three.state.drops) == 1


def test_abort_before_every_person_moved_and_not_after():
    session = GameSession(record())
    session.play(Move.parse("S a1"))
    assert session.may("abort") is True
    change = session.abort()
    assert change.kind is ChangeKind.END and change.finished and not change.state.outcome.has_result
    later = GameSession(record())
    later.play(Move.parse("S a1"))
    later.play(Move.parse("O b2"))
    assert later.may("abort") is None
    with pytest.raises(EndingError, match="too late to abort"):
        later.abort()
    assert not later.state.is_over
    against = GameSession(record(ANA, BOT))
    assert against.may("abort") is True  # Ana has not moved
    assert GameSession(record(BOT, PlayerInfo("Bot2", "computer"))).may("abort") is False


def test_a_draw_offer_accepted_ends_the_game_drawn_and_a_move_declines_one():
    session = GameSession(record())
    seen = []
    session.subscribe(seen.append)
    assert session.may("offer_draw") is True
    session.offer_draw(0)
    assert session.draw_offer == 0 and session.may("offer_draw") is None
    with pytest.raises(EndingError, match="only the other player"):
        session.accept_draw(0)
    change = session.accept_draw(1)
    assert change.kind is ChangeKind.END and change.state.termination is Termination.AGREEMENT
    assert change.state.is_draw and change.finished
    declined = GameSession(record())
    declined.subscribe(seen.append)
    declined.offer_draw(0)
    declined.play(Move.parse("S a1"))
    assert declined.draw_offer is None
    assert [c.kind for c in seen][-3:] == [ChangeKind.DRAW_OFFER, ChangeKind.DRAW_DECLINED, ChangeKind.MOVE]
    with pytest.raises(EndingError, match="nobody offered a draw"):
        declined.decline_draw(1)


def test_no_draw_offers_with_three_players_or_against_a_computer():
    three = GameSession(record(ANA, BO, CY))
    assert three.may("offer_draw") is None
    with pytest.raises(EndingError, match="two players only, not 3"):
        three.offer_draw(0)
    three.resign(2)
    assert three.may("offer_draw") is True  # two left
    assert GameSession(record(ANA, BOT)).may("offer_draw") is False


def test_an_aborted_game_loses_its_autosave_and_goes_into_no_history():
    store = FakeStore()
    keeper = Keeper(store, flush_at_start=False)
    session = GameSession(record())
    session.subscribe(keeper.on_change)
    session.play(Move.parse("S a1"))
    keeper.wait(5)
    assert session.game_id in store.autosaves
    session.abort()
    keeper.wait(5)
    assert session.game_id not in store.autosaves and session.game_id not in store.history
    resigned = GameSession(record())
    resigned.subscribe(keeper.on_change)
    resigned.play(Move.parse("S a1"))
    resigned.resign(1)
    keeper.wait(5)
    assert store.history[resigned.game_id].termination is Termination.RESIGN
    keeper.close()
