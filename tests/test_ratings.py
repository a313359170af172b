"""Ratings (sos_tui/ratings.py): they move the right way, ties share, nothing becomes NaN."""

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from sos_tui.ratings import RatingTable, Skill, Standing, ranking, rate, shown_rating

STRONG, WEAK = Skill(32.0, 4.0), Skill(18.0, 4.0)
ME = Skill(25.0, 4.0)


def test_a_new_player_starts_at_1500_provisional():
    new = Standing("Ana")
    assert (new.rating, new.provisional, new.rating_text) == (1500, True, "1500?")
    assert shown_rating(Skill()) == (1500, 491)


def test_a_win_against_a_stronger_player_gains_more_than_against_a_weaker_one():
    beat_strong = rate([ME, STRONG], [1, 2])[0].mu - ME.mu
    beat_weak = rate([ME, WEAK], [1, 2])[0].mu - ME.mu
    assert beat_strong > beat_weak > 0


def test_a_loss_to_a_weaker_player_costs_more_than_to_a_stronger_one():
    lost_to_weak = ME.mu - rate([ME, WEAK], [2, 1])[0].mu
    lost_to_strong = ME.mu - rate([ME, STRONG], [2, 1])[0].mu
    assert lost_to_weak > lost_to_strong > 0


def test_three_tied_winners_share_the_change_and_gain_less_than_a_sole_winner():
    tied = rate([ME, ME, ME, ME], [1, 1, 1, 2])
    gains = [after.mu - ME.mu for after in tied[:3]]
    assert gains[0] == gains[1] == gains[2] > 0
    sole = rate([ME, ME, ME, ME], [1, 2, 2, 2])[0].mu - ME.mu
    assert sole > gains[0]
    assert tied[3].mu < ME.mu


def test_a_draw_between_equals_moves_nobody():
    after = rate([ME, ME, ME], [1, 1, 1])
    assert all(math.isclose(s.mu, ME.mu) for s in after)


def test_ranking_by_score_with_ties_and_three_players():
    assert ranking((3, 7, 3), (1,)) == (2, 1, 2)
    assert ranking((4, 4), (0, 1)) == (1, 1)
    assert ranking((1, 2, 3, 4, 5, 6), (5,)) == (6, 5, 4, 3, 2, 1)


def test_an_aborted_game_rates_nobody_and_a_dropped_seat_ranks_last():
    assert ranking((3, 1), (), "abort") is None
    assert ranking((9, 1, 2), (1, 2), "resign", dropped=(0,)) == (3, 1, 1)  # the leader resigned
    assert ranking((9, 1, 2), (2,), "time", dropped=(0, 1)) == (3, 2, 1)  # the first to go is last


def test_a_game_of_one_or_seven_seats_rates_nobody():
    assert ranking((3,), (0,)) is None
    assert ranking((0,) * 7, tuple(range(7))) is None


def test_a_table_counts_wins_draws_losses_and_the_last_game():
    table = RatingTable()
    table.add_game(("Ana", "Bo"), (1, 2), "general", "2026-01-01")
    table.add_game(("ana", "Bo", "Cy"), (1, 1, 3), "general", "2026-01-02")
    table.add_game(("Ana", "Bo"), None, "general", "2026-01-03")  # unrated: no change
    ana, bo, cy = sorted(table.standings("general"), key=lambda s: s.name)
    assert (ana.name, ana.games, ana.wins, ana.draws, ana.losses, ana.last_played) == (
        "Ana",
        2,
        1,
        1,
        0,
        "2026-01-02",
    )
    assert (bo.games, bo.wins, bo.draws, bo.losses) == (2, 0, 1, 1)
    assert (cy.name, cy.losses) == ("Cy", 1)
    assert table.standings("simple") == []


def test_one_player_in_two_seats_is_not_rated():
    table = RatingTable()
    assert not table.add_game(("Ana", "ANA"), (1, 2))
    assert len(table) == 0


def _sound(skills):
    return all(math.isfinite(s.mu) and math.isfinite(s.sigma) and s.sigma > 0 for s in skills)


def test_a_long_winning_streak_stays_finite():
    table = RatingTable()
    for _ in range(5000):
        table.add_game(("Ana", "Bo"), (1, 2))
    ana, bo = table.standings()
    assert _sound([ana.skill, bo.skill])
    assert ana.rating > bo.rating and not ana.provisional


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.lists(st.integers(1, 6), min_size=2, max_size=6), min_size=1, max_size=40), st.integers(0, 5)
)
def test_ratings_never_become_nan_or_infinite(games, ties):
    table = RatingTable()
    names = [f"P{i}" for i in range(6)]
    for places in games:
        table.add_game(names[: len(places)], places)
    for _ in range(ties * 20):  # 6-player ties, again and again
        table.add_game(names, (1,) * 6)
    assert _sound([s.skill for s in table.standings()])
    assert all(isinstance(s.rating, int) for s in table.standings())


def test_extreme_skills_give_back_the_old_ones_rather_than_nan():
    huge = Skill(1e308, 1e-300)
    after = rate([huge, Skill()], [2, 1])
    assert _sound(after)
