"""The ladder: the four levels play each other round robin, and their games rate them.

Every pair of levels plays a ``Match`` of ``games`` games (``arena.py``: seeds by game number,
first move alternating). The games are played round by round, game k of every pair before game
k + 1 of any, so a ladder cut short has played every pair about as often. Each game rates the
two levels (``sos_tui.ratings``: a win puts the winner first, a draw ties them).

>>> ladder = Ladder(size=3, games=1)
>>> table = LadderTable()
>>> for match, result in play(ladder):
...     table.add(match, result)
>>> sorted(s.name for s in table.standings()), table.games
(['easy', 'expert', 'hard', 'medium'], 6)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations

from sos_tui.ratings import RatingTable, Standing

from . import arena
from .arena import GameResult, Match
from .levels import LEVELS

__all__ = ["Ladder", "LadderTable", "play"]


@dataclass(frozen=True)
class Ladder:
    """The levels, the board and how many games each pair plays. ValueError (in the player's
    language, from ``Match``) for bad settings."""

    size: int = 6
    mode: str = "general"
    games: int = 10
    seed: int = 0
    time_limit: float | None = None
    levels: tuple[str, ...] = tuple(LEVELS)

    def __post_init__(self):
        self.matches()  # checks the settings

    def matches(self) -> list[Match]:
        """One match per pair of levels, the weaker level (earlier in ``levels``) as A."""
        return [
            Match(a, b, self.size, self.mode, self.games, self.seed, self.time_limit)
            for a, b in combinations(self.levels, 2)
        ]

    def schedule(self) -> list[tuple[Match, int]]:
        """Every game, round by round."""
        matches = self.matches()
        return [(match, number) for number in range(self.games) for match in matches]

    @property
    def total(self) -> int:
        return len(self.schedule())


def play(ladder: Ladder, jobs: int = 1) -> Iterator[tuple[Match, GameResult]]:
    """Each game with its match as it finishes (``arena.play``: ``jobs`` processes, closing the
    iterator stops them)."""
    return arena.play(ladder.schedule(), jobs)


class LadderTable:
    """The levels' ratings from the games added so far."""

    def __init__(self) -> None:
        self._table = RatingTable()
        self.games = 0

    def add(self, match: Match, game: GameResult) -> None:
        places = {1.0: (1, 2), 0.5: (1, 1), 0.0: (2, 1)}[game.result]  # A's result
        self._table.add_game((match.level_a, match.level_b), places, match.mode)
        self.games += 1

    def standings(self) -> list[Standing]:
        """The levels, highest rating first."""
        return self._table.standings()
