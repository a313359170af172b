"""The four levels, each defined in one place: ``LEVELS[name]`` holds everything a level does.

A move is chosen by a pipeline of strategies (``players.PIPELINE``); each one reads its part of
the level's settings and either returns a move or passes (a setting of None means "pass").
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .search import SearchSettings


@dataclass(frozen=True)
class Greedy:
    """No look-ahead. Takes an SOS on offer with probability ``take`` (the one completing the
    most lines if ``careful``); otherwise, if ``careful``, a random safe move, else the
    sacrifice that hands the next player the shortest greedy chain; if not careful, any move."""

    take: float
    careful: bool


@dataclass(frozen=True)
class Exact:
    """Two players: solve exactly once ``empties`` cells are empty (general mode) or ``safe``
    safe moves are left (simple mode), within ``max_nodes``; if that runs out, the search gets
    ``after_failure`` nodes (None: its usual budget). In general mode ``early`` (empty cells,
    safe moves) also solves sooner, once few safe moves are left: the tree is small then,
    whatever the number of empty cells. A simple-mode position found lost is left to the
    search, which hopes for a mistake."""

    empties: int
    safe: int
    max_nodes: int
    after_failure: int | None = None
    early: tuple[int, int] | None = None
    time_share: float = 0.5  # of a time limit, for the solve
    swindle: bool = False  # of the optimal moves, the one leaving the most chances to go wrong


@dataclass(frozen=True)
class SafeGame:
    """Two players, simple mode: a full-width search of the safe-move game (``safe_game.py``)
    within ``max_nodes``: alpha-beta to ``max_depth``, or with ``monte_carlo`` a Monte Carlo
    tree search (which has no depth)."""

    max_nodes: int
    max_depth: int = 40
    monte_carlo: bool = False


@dataclass(frozen=True)
class Level:
    name: str
    greedy: Greedy | None = None
    book: bool = False  # two players on 3x3 and 4x4: the opening book
    perfect_up_to: int = 0  # two players on boards up to this size: an exact solve, no limits
    most_seconds: float | None = None  # a time limit above this is cut to it (no limit: none)
    exact: Exact | None = None
    safe_game: SafeGame | None = None
    mirror: bool = False  # two players, simple mode: keep the board point-symmetric (mirror.py)
    search: SearchSettings | None = None  # two players
    search_many: SearchSettings | None = None  # three or more players

    def __post_init__(self):
        if self.greedy is None and (self.search is None or self.search_many is None):
            raise ValueError(f"level {self.name!r} needs a greedy strategy or both searches")


_HARD = SearchSettings(max_depth=6, max_nodes=12_000, width=10, root_width=30)
_EXPERT = SearchSettings(max_depth=8, max_nodes=120_000, width=12, root_width=48, sacrifices_too=2,
                         blocks=2, playouts=4, playout_weight=0.5, playouts_above=12)

LEVELS: dict[str, Level] = {level.name: level for level in (
    Level("easy", greedy=Greedy(take=0.8, careful=False)),
    Level("medium", greedy=Greedy(take=1.0, careful=True)),
    Level("hard", most_seconds=0.5,
          exact=Exact(empties=12, safe=12, max_nodes=60_000, time_share=0.6, swindle=True),
          safe_game=SafeGame(max_nodes=60_000, monte_carlo=True),
          search=_HARD, search_many=replace(_HARD, max_depth=4, max_nodes=2_500)),
    Level("expert", book=True, perfect_up_to=4, mirror=True,
          exact=Exact(empties=17, safe=16, max_nodes=400_000, after_failure=15_000, early=(21, 8),
                      time_share=0.7, swindle=True),
          safe_game=SafeGame(max_nodes=500_000, monte_carlo=True),
          search=_EXPERT, search_many=replace(_EXPERT, max_depth=6, max_nodes=10_000)),
)}
