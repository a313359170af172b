"""The history's ratings (storage/history/ratings.py): derived from the games in order, cached,
rebuilt whenever the cache is not of these games or is damaged."""

from __future__ import annotations

import json
import sqlite3

import pytest

from sos_tui.engine import PlayerInfo
from sos_tui.storage import History

from .support.games import ANA, BO, EASY, HARD, P1_SWEEP, P2_SWEEP, SIMPLE_P1, make_record, sample_games

DAY = "2026-02-{:02}T10:00:00+00:00".format


def _table(standings) -> list[tuple]:
    return [
        (s.name, s.mode, s.rating, s.deviation, s.games, s.wins, s.draws, s.losses, s.last_played)
        for s in standings
    ]


@pytest.fixture
def history(tmp_path):
    with History(tmp_path / "history.db") as database:
        yield database


def test_every_finished_game_rates_its_people_and_its_levels_per_mode(history):
    for record in sample_games():
        history.record_game(record)
    general = {s.name: s for s in history.ratings("general")}
    simple = {s.name: s for s in history.ratings("simple")}
    assert set(general) == {"Ana", "Bo", "computer:easy"} and set(simple) == {
        "Ana",
        "computer:easy",
        "computer:hard",
    }
    assert (general["Ana"].games, general["Ana"].wins, general["Ana"].draws, general["Ana"].losses) == (
        3,
        1,
        1,
        1,
    )
    assert (simple["computer:hard"].games, simple["computer:hard"].losses) == (1, 1)
    assert general["computer:easy"].wins == 1 and general["computer:easy"].last_played.startswith(
        "2026-01-02"
    )
    assert len(history.ratings()) == 6


def test_two_wins_put_ana_above_bo(history):
    for day in (1, 2):
        history.record_game(make_record(P1_SWEEP, players=(ANA, BO), when=DAY(day)))
    ana, bo = history.ratings()
    assert (ana.name, bo.name, ana.games, bo.games) == ("Ana", "Bo", 2, 2)
    assert ana.rating > 1500 > bo.rating and ana.provisional


def _games(count: int, start: int = 1):
    """``count`` games on consecutive days, winners and seats varied."""
    seats = [(ANA, BO), (BO, EASY), (ANA, HARD), (EASY, HARD)]
    return [
        make_record(P1_SWEEP if n % 3 else P2_SWEEP, players=seats[n % 4], when=DAY(n))
        for n in range(start, start + count)
    ]


def test_ratings_brought_up_to_date_game_by_game_equal_a_rebuild(history, tmp_path):
    for record in _games(4):
        history.record_game(record)
        history.ratings()  # the cache follows each game
    for record in _games(5, start=5):
        history.record_game(record)
    incremental = _table(history.ratings())
    assert incremental == _table(history.ratings(rebuild=True))
    with History(tmp_path / "fresh.db") as fresh:
        for record in _games(9):
            fresh.record_game(record)
        assert _table(fresh.ratings()) == incremental


def test_a_replaced_game_rebuilds_the_ratings(history):
    games = _games(4)
    for record in games:
        history.record_game(record)
    before = _table(history.ratings())
    # the first game undone and finished the other way: the same game id, another result
    again = make_record(P2_SWEEP, players=(BO, EASY), when=DAY(1), game_id=games[0].game_id)
    history.record_game(again)
    after = _table(history.ratings())
    assert after != before and after == _table(history.ratings(rebuild=True))


CORRUPTIONS = [
    "UPDATE rating_cache SET mu = 'nonsense'",
    "UPDATE rating_cache SET sigma = -1.0",
    "UPDATE rating_cache SET mu = 9e999",
    "UPDATE rating_cache SET wins = wins + 1",
    "UPDATE rating_cache_state SET fingerprint = 'x'",
    "UPDATE rating_cache_state SET covered = 99",
    "INSERT INTO rating_cache_state VALUES (1, 'two states')",
    "DROP TABLE rating_cache",
    "DROP TABLE rating_cache_state",
    "ALTER TABLE rating_cache DROP COLUMN last_played",
]


@pytest.mark.parametrize("damage", CORRUPTIONS)
def test_a_damaged_cache_is_rebuilt_from_the_games(history, damage):
    for record in _games(6):
        history.record_game(record)
    right = _table(history.ratings())
    with sqlite3.connect(history.path) as conn:
        conn.execute(damage)
    assert _table(history.ratings()) == right
    with sqlite3.connect(history.path) as conn:  # and the cache is whole again
        assert conn.execute("SELECT covered FROM rating_cache_state").fetchall() == [(6,)]


def test_an_aborted_game_rates_nobody_where_the_history_says_how_games_ended(history):
    for record in _games(3):
        history.record_game(record)
    before = _table(history.ratings())
    history.record_game(make_record(P1_SWEEP, players=(ANA, BO), when=DAY(20)))
    with sqlite3.connect(history.path) as conn:  # (the history itself refuses an aborted game)
        conn.execute("UPDATE games SET termination = 'abort' WHERE finished_at LIKE '2026-02-20%'")
    assert _table(history.ratings()) == before


def test_a_seat_that_dropped_out_ranks_last(history):
    history.record_game(make_record(P1_SWEEP, players=(ANA, BO), when=DAY(1)))  # Ana ahead 6-0...
    with sqlite3.connect(history.path) as conn:  # ... but she resigned (a newer record says so)
        record = json.loads(conn.execute("SELECT record FROM games").fetchone()[0])
        record["drops"] = [{"seat": 0, "why": "resign", "after": 9}]
        conn.execute(
            "UPDATE games SET record = ?, termination = 'resign', winners = '[1]'", (json.dumps(record),)
        )
    bo, ana = history.ratings()
    assert (bo.name, bo.wins, ana.name, ana.losses) == ("Bo", 1, "Ana", 1)


def test_a_damaged_row_rates_nobody_and_the_others_still_count(history):
    for record in _games(3):
        history.record_game(record)
    with sqlite3.connect(history.path) as conn:
        conn.execute("UPDATE games SET players = 'not json' WHERE finished_at LIKE '2026-02-01%'")
    assert sum(s.games for s in history.ratings()) == 4  # two games of two players


def test_a_game_between_two_seats_of_one_level_rates_nobody(history):
    other_hard = PlayerInfo("Deep", "computer", "hard")
    history.record_game(make_record(SIMPLE_P1, mode="simple", players=(HARD, other_hard)))
    assert history.ratings() == []


def test_a_name_that_is_not_utf8_is_rated_and_cached(history):
    history.record_game(make_record(P1_SWEEP, players=(PlayerInfo("An\udce9"), BO), when=DAY(1)))
    assert [s.name for s in history.ratings()] == ["An\udce9", "Bo"]
    with sqlite3.connect(history.path) as conn:
        assert conn.execute("SELECT covered FROM rating_cache_state").fetchall() == [(1,)]
    assert [s.name for s in history.ratings()] == ["An\udce9", "Bo"]  # read back from the cache

