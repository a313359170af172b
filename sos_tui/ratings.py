"""Ratings: how strong each player is, from the games they finished, for 2 to 6 players with ties.

The model is OpenSkill's Plackett-Luce (the ``openskill`` package, Weng and Lin 2011): each
player has a skill ``mu`` (25 at the start) and an uncertainty ``sigma`` (25/3), and every
finished game moves them by the places the players took, ties sharing a place. Pure: no storage,
no printing; the history (``storage/history/ratings.py``) and the arena's ladder feed it games.

**The number shown** is ``rating = 1500 + SCALE * (mu - 25)``, with ``± 2 * SCALE * sigma`` (95%)
beside it. ``SCALE`` makes a gap of 200 points mean what it means in Elo between two settled
players (about 76% of the games won): ``SCALE = 400 / (ln 10 * beta * sqrt 2)``, about 29.5. A
rating is *provisional* (shown with "?", as lichess does) while ``sigma`` is above three quarters
of its start (about the first 10 games against equals) or the player has fewer than
``SETTLED_GAMES`` games.

>>> table = RatingTable()
>>> table.add_game(("Ana", "Bo"), (1, 2), when="2026-01-01")
True
>>> ana, bo = table.standings()
>>> ana.name, ana.rating > 1500 > bo.rating, ana.provisional, ana.wins, bo.losses
('Ana', True, True, 1, 1)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

__all__ = [
    "MAX_PLAYERS", "MIN_PLAYERS", "RatingTable", "Skill", "Standing", "ranking", "rate", "shown_rating",
]  # fmt: skip

MIN_PLAYERS, MAX_PLAYERS = 2, 6
START_MU = 25.0
START_SIGMA = START_MU / 3
BETA = START_SIGMA / 2  # openskill's default
SCALE = 400 / (math.log(10) * BETA * math.sqrt(2))
START_RATING = 1500
SETTLED_GAMES = 5
PROVISIONAL_SIGMA = START_SIGMA * 3 / 4
UNRATED = ("abort",)
"""The terminations of a game that rates nobody: an aborted game has no result."""


@dataclass(frozen=True, slots=True)
class Skill:
    """A player's skill and its uncertainty, in the model's units."""

    mu: float = START_MU
    sigma: float = START_SIGMA

    @property
    def is_sound(self) -> bool:
        """Finite, with a positive uncertainty: what a cache may hand back."""
        return math.isfinite(self.mu) and math.isfinite(self.sigma) and self.sigma > 0


def shown_rating(skill: Skill) -> tuple[int, int]:
    """``(rating, plus_minus)`` as people read them: ``(1500, 491)`` at the start."""
    return round(START_RATING + SCALE * (skill.mu - START_MU)), round(2 * SCALE * skill.sigma)


_model = None


def _plackett_luce():
    global _model
    if _model is None:
        from openskill.models import PlackettLuce  # here: ~13 ms, only where ratings are computed

        _model = PlackettLuce(mu=START_MU, sigma=START_SIGMA, beta=BETA)
    return _model


def rate(skills: Sequence[Skill], places: Sequence[int]) -> tuple[Skill, ...]:
    """The players' skills after a game where each took ``places[i]`` (1 = first; equal places
    for a tie). A result that would not be finite (never seen, but a cache must not learn it)
    leaves every skill as it was, and so does one the model cannot compute (an overflow from
    skills no real games give). ValueError for fewer than 2 or more than 6 players."""
    if not MIN_PLAYERS <= len(skills) == len(places) <= MAX_PLAYERS:
        raise ValueError(f"a rated game has {MIN_PLAYERS} to {MAX_PLAYERS} players, each with a place")
    model = _plackett_luce()
    teams = [[model.create_rating([s.mu, s.sigma])] for s in skills]
    try:
        after = tuple(Skill(team[0].mu, team[0].sigma) for team in model.rate(teams, ranks=list(places)))
    except (ArithmeticError, ValueError):
        return tuple(skills)
    return after if all(s.is_sound for s in after) else tuple(skills)


def ranking(
    scores: Sequence[int], winners: Sequence[int], termination: str | None = None, dropped: Sequence[int] = ()
) -> tuple[int, ...] | None:
    """Each seat's place in a finished game (1 = first, ties share a place), or None when the
    game rates nobody: fewer than 2 or more than 6 seats, or aborted (``termination``).

    Seats still in come first: by score when the game ran to its end (``termination`` None or
    ``"normal"``), the winners before the others otherwise (a resignation: the score did not
    decide). Seats that ``dropped`` out (in the order they left) come last, an earlier drop below
    a later one.

    >>> ranking((5, 3, 5), (0, 2))
    (1, 3, 1)
    >>> ranking((0, 4), (0,), "resign", dropped=(1,))
    (1, 2)
    >>> ranking((2, 2), (), "abort") is None
    True
    """
    seats = len(scores)
    if termination in UNRATED or not MIN_PLAYERS <= seats <= MAX_PLAYERS:
        return None
    by_score = termination in (None, "normal")
    gone = [seat for seat in dict.fromkeys(dropped) if 0 <= seat < seats]
    won = set(winners)
    strength = [(seat in won, scores[seat] if by_score else 0) for seat in range(seats)]
    still_in = [strength[seat] for seat in range(seats) if seat not in gone]
    places = [1 + sum(other > mine for other in still_in) for mine in strength]
    for later, seat in enumerate(reversed(gone)):
        places[seat] = len(still_in) + later + 1
    return tuple(places)


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's rating and record. ``name`` is as first met (people) or ``computer:LEVEL``;
    ``mode`` the game mode it is for (``""`` when the table does not split by mode)."""

    name: str
    mode: str = ""
    skill: Skill = Skill()
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    last_played: str = ""

    @property
    def rating(self) -> int:
        return shown_rating(self.skill)[0]

    @property
    def deviation(self) -> int:
        """The ± shown beside the rating (95%)."""
        return shown_rating(self.skill)[1]

    @property
    def provisional(self) -> bool:
        return self.games < SETTLED_GAMES or self.skill.sigma > PROVISIONAL_SIGMA

    @property
    def rating_text(self) -> str:
        """``"1623"``, or ``"1623?"`` while provisional."""
        return f"{self.rating}?" if self.provisional else str(self.rating)

    def to_dict(self) -> dict:
        """For ``--json``: the numbers as numbers, provisional as its own flag."""
        return {
            "name": self.name,
            "mode": self.mode or None,
            "rating": self.rating,
            "deviation": self.deviation,
            "provisional": self.provisional,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "last_played": self.last_played or None,
            "mu": self.skill.mu,
            "sigma": self.skill.sigma,
        }


class RatingTable:
    """Ratings built up game by game, in the order the games are added. Players are told apart by
    their name ignoring case (names in one game differ ignoring case) and the mode; the first
    spelling met is shown."""

    def __init__(self, standings: Sequence[Standing] = ()) -> None:
        self._players: dict[tuple[str, str], Standing] = {}
        for standing in standings:
            self._players[self._key(standing.name, standing.mode)] = standing

    @staticmethod
    def _key(name: str, mode: str) -> tuple[str, str]:
        return name.casefold(), mode

    def add_game(
        self, names: Sequence[str], places: Sequence[int] | None, mode: str = "", when: str = ""
    ) -> bool:
        """Rate one finished game: ``names[i]`` took ``places[i]`` (``ranking``). False, and no
        change, for an unrated game (``places`` None, or two seats of one player)."""
        keys = [self._key(name, mode) for name in names]
        if places is None or len(set(keys)) != len(keys) or len(places) != len(keys):
            return False
        before = [
            self._players.get(key) or Standing(name, mode) for key, name in zip(keys, names, strict=True)
        ]
        after = rate([s.skill for s in before], places)
        best, tied = min(places), places.count(min(places)) > 1
        for key, standing, skill, place in zip(keys, before, after, places, strict=True):
            won = place == best
            self._players[key] = replace(
                standing,
                skill=skill,
                games=standing.games + 1,
                wins=standing.wins + (won and not tied),
                draws=standing.draws + (won and tied),
                losses=standing.losses + (not won),
                last_played=max(standing.last_played, when),
            )
        return True

    def standings(self, mode: str | None = None) -> list[Standing]:
        """Every player (of ``mode`` if given), mode by mode, highest rating first; equal ratings by
        name."""
        chosen = [s for s in self._players.values() if mode is None or s.mode == mode]
        return sorted(chosen, key=lambda s: (s.mode, -s.skill.mu, s.name.casefold()))

    def __len__(self) -> int:
        return len(self._players)
