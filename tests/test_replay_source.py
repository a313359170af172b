"""The replay's timeline without a screen: where it stands, going to the start, the end or move
i, stepping, what it offers, and the changes it reports."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sos_tui.engine import GameRecord, GameState, Mode, Move, PlayerInfo
from sos_tui.session import Action, ChangeKind, GameSession, GameSource, Replay

ANA, BO = PlayerInfo("Ana"), PlayerInfo("Bo")
SWEEP = ["S a1", "S c3", "S c1", "S a3", "O b2", "O b1", "O b3", "O a2", "O c2"]  # Ana wins 6-0


def game(moves=SWEEP) -> GameRecord:
    return GameRecord(3, Mode.GENERAL, (ANA, BO), tuple(Move.parse(m) for m in moves))


def heard(replay: Replay) -> list:
    changes: list = []
    replay.subscribe(changes.append)
    return changes


def test_a_replay_starts_at_the_end_or_where_asked_clamped():
    assert Replay(game()).position == 9 and Replay(game()).state == game().state
    assert Replay(game(), start_at=4).state == GameState.from_moves(SWEEP[:4], 3)
    assert Replay(game(), start_at=-3).position == 0 and Replay(game(), start_at=99).position == 9
    empty = Replay(game(()))
    assert (empty.position, empty.total, empty.state.move_count) == (0, 0, 0)


def test_going_to_the_start_the_end_and_move_i_reports_each_move_once():
    record = game()
    replay = Replay(record)
    changes = heard(replay)
    first = replay.first()
    assert replay.position == 0 and replay.state.move_count == 0
    assert first.kind is ChangeKind.SEEK and first.state == replay.state and not first.finished
    assert replay.first() is None  # already there: nothing to report
    replay.go_to(5)
    assert replay.state == GameState.from_moves(SWEEP[:5], 3)
    replay.last()
    assert replay.state == record.state and replay.state.is_over and replay.state.scores == (6, 0)
    assert replay.go_to(99) is None and replay.position == 9  # past the end: stays
    assert [(c.kind, c.state.move_count) for c in changes] == [
        (ChangeKind.SEEK, 0), (ChangeKind.SEEK, 5), (ChangeKind.SEEK, 9)]
    assert all(c.record is record for c in changes)  # the game replayed, whole, whatever is shown


def test_stepping_walks_one_move_at_a_time_and_stops_at_either_end():
    replay = Replay(game(), start_at=1)
    changes = heard(replay)
    assert replay.step(-1).state.move_count == 0
    assert replay.step(-1) is None and replay.position == 0
    replay.step(1)
    replay.step(2)
    assert replay.position == 3 and replay.state.last_move == Move.parse(SWEEP[2])
    assert [c.state.move_count for c in changes] == [0, 1, 3]


def test_announce_start_tells_every_listener_where_it_stands_and_unsubscribing_stops_it():
    replay = Replay(game(), start_at=2)
    one, two = [], []
    replay.subscribe(one.append)
    stop = replay.subscribe(two.append)
    replay.announce_start()
    assert [c.kind for c in one] == [ChangeKind.START] and one[0].state.move_count == 2
    stop()
    replay.step(1)
    assert len(one) == 2 and len(two) == 1


def test_a_replay_is_a_game_source_that_offers_only_to_play_on_from_an_unfinished_move():
    record = game()
    replay = Replay(record, start_at=4)
    assert isinstance(replay, GameSource)
    assert replay.seats == (ANA, BO) and replay.kind_to_move is None
    assert replay.may(Action.PLAY_ON) is True
    assert all(replay.may(action) is False for action in Action if action is not Action.PLAY_ON)
    played_on = replay.from_here()
    assert played_on.moves == record.moves[:4] and played_on.players == (ANA, BO)
    assert played_on.game_id != record.game_id and not played_on.state.is_over  # a new game
    replay.last()
    assert replay.may(Action.PLAY_ON) is None  # over at this move: not now, but not never


@given(st.lists(st.integers(-12, 12), max_size=20))
def test_any_walk_shows_the_position_after_that_many_moves(steps):
    replay = Replay(game(), start_at=0)
    expected = 0
    for delta in steps:
        replay.step(delta)
        expected = max(0, min(9, expected + delta))
        assert replay.position == expected
        assert replay.state == GameState.from_moves(SWEEP[:expected], 3)


def test_a_replay_shows_the_drops_and_playing_on_keeps_the_seats_out_by_then():
    state = GameState.from_moves(["S a1", "O b2"], 4, players=3).drop(2, "resign")
    state = state.play(Move.parse("S d4")).drop(0, "time")
    record = GameRecord.for_state(state, (PlayerInfo("Ana"), PlayerInfo("Bo"), PlayerInfo("Cy")))
    replay = Replay(record)
    assert replay.final == state and replay.final.termination == "time"
    assert [s.still_in for s in replay.states] == [(0, 1, 2), (0, 1, 2), (0, 1), (1,)]
    replay.go_to(2)
    game = GameSession(replay.from_here())
    assert game.state.is_out(2) and not game.state.is_over and game.state.to_move == 0
