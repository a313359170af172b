"""Tournaments of levels, bots and engine programs: round robin or Swiss, the standings with
their tie-breaks, and a crosstable. Pure: no argument parsing, no printing, no files
(``sos-tui tournament`` in ``cli/tournament.py`` does those).

A tournament is a list of *pairings*, each ``games_per_pair`` games of the arena (``arena.py``)
between two entrants, the first mover alternating within the pairing and the first game's
first mover chosen so that every entrant moves first as often as the others. Game ``n`` (counted
over the whole tournament, from 0) has seed ``seed + n``, so a game's result depends only on the
tournament and its number: a tournament resumed from the results of its first games plays the
same games as one never interrupted.

- **Round robin**: every entrant meets every other (the circle method: ``n - 1`` rounds, or
  ``n`` with one entrant resting in each round when ``n`` is odd). Tie-break: Sonneborn-Berger,
  the sum over an entrant's games of its result times that opponent's points.
- **Ratings**: each entrant's rating (``ratings.py``, OpenSkill as everywhere in sos-tui), built up
  from nothing over the tournament's games in the order they were numbered; shown beside the
  standings, which rank by points.
- **Swiss**: ``rounds`` rounds (default: log2 of the entrants, rounded up). Each round pairs
  the entrants in order of points (then of the list), each with the next one it has not met yet
  (going back on a choice that would force a rematch further down);
  with an odd number, the lowest one without a bye yet rests and scores a win for each game of a
  pairing. Whoever has moved first less often so far moves first. Tie-break: Buchholz, the sum
  of the points of the opponents met (once per round).

>>> t = Tournament("round-robin", ("easy", "medium", "hard"), size=3, games_per_pair=1)
>>> [(p.round, p.a, p.b) for p in t.pairings([])]
[(1, 1, 2), (2, 2, 0), (3, 0, 1)]
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from sos_tui.engine import MAX_SIZE, MIN_SIZE, Mode, engine_command
from sos_tui.i18n import _
from sos_tui.ratings import RatingTable, Standing

from .arena import MAX_GAMES, Match, play_game
from .levels import LEVELS
from .outside import OUTSIDE

FORMATS = ("round-robin", "swiss")
MAX_ENTRANTS = 64


@dataclass(frozen=True)
class Pairing:
    """Game ``game`` (0, 1, ...) of the pairing of entrants ``a`` and ``b`` in round ``round``:
    the tournament's game ``number``; ``a`` moves first when ``game`` is even."""

    number: int
    round: int
    a: int
    b: int
    game: int


@dataclass(frozen=True)
class Played:
    """A game's result: ``result`` is ``a``'s (1 win, 1/2 draw, 0 loss); ``forfeit`` is the
    entrant (``a`` or ``b``'s index) whose engine lost it by misbehaving, ``reason`` why."""

    pairing: Pairing
    result: float
    scores: tuple[int, int]
    forfeit: int | None = None
    reason: str | None = None

    def to_dict(self) -> dict:
        p = self.pairing
        return {"number": p.number, "round": p.round, "a": p.a, "b": p.b, "game": p.game,
                "result": self.result, "scores": list(self.scores), "forfeit": self.forfeit,
                "reason": self.reason}

    @classmethod
    def from_dict(cls, data: dict) -> Played:
        """KeyError, TypeError or ValueError for a line that is not a game."""
        pairing = Pairing(*(_whole(data[key]) for key in ("number", "round", "a", "b", "game")))
        result = data["result"]
        if result not in (0, 0.5, 1) or isinstance(result, bool):
            raise ValueError(result)
        scores = tuple(_whole(score) for score in data["scores"])
        forfeit, reason = data.get("forfeit"), data.get("reason")
        if len(scores) != 2 or (forfeit is not None and forfeit not in (pairing.a, pairing.b)):
            raise ValueError(data)
        return cls(pairing, float(result), scores, forfeit, None if reason is None else str(reason))


def _whole(value) -> int:
    if type(value) is not int or value < 0:
        raise ValueError(value)
    return value


def _entrant_key(entrant: str) -> str:
    command = engine_command(entrant)
    return entrant.strip().lower() if command is None else "engine:" + " ".join(command.split())


@dataclass(frozen=True)
class Tournament:
    """Who, where and how. Raises ValueError (one line, in the player's language) for bad settings."""

    format: str
    entrants: tuple[str, ...]
    size: int = 6
    mode: str = "general"
    games_per_pair: int = 2
    rounds: int | None = None  # Swiss only; None: log2 of the entrants, rounded up
    seed: int = 0
    time_limit: float | None = None

    def __post_init__(self):
        if self.format not in FORMATS:
            raise ValueError(_("--format must be round-robin or swiss, not {format!r}").format(
                format=self.format))
        if not 2 <= len(self.entrants) <= MAX_ENTRANTS:
            raise ValueError(_("a tournament needs 2 to {most} entrants, not {count}").format(
                most=MAX_ENTRANTS, count=len(self.entrants)))
        seen = set()
        for entrant in self.entrants:
            command = engine_command(entrant)
            if command is None and entrant not in LEVELS and entrant not in OUTSIDE:
                raise ValueError(_("unknown entrant {entrant!r} (choose {levels}, or engine:COMMAND)").format(
                    entrant=entrant, levels=", ".join((*LEVELS, *OUTSIDE))))
            if _entrant_key(entrant) in seen:
                raise ValueError(_("{entrant!r} is entered twice").format(entrant=entrant))
            seen.add(_entrant_key(entrant))
        if not 1 <= self.games_per_pair <= MAX_GAMES:
            raise ValueError(_("--games-per-pair must be from 1 to {most:,}, not {games}").format(
                most=MAX_GAMES, games=self.games_per_pair))
        most = len(self.entrants) - 1
        if self.rounds is not None and (self.format != "swiss" or not 1 <= self.rounds <= most):
            raise ValueError(_("--rounds is for a Swiss tournament, from 1 to {most} (the entrants less one)")
                             .format(most=most))
        if not MIN_SIZE <= self.size <= MAX_SIZE:
            raise ValueError(_("--size must be from {low} to {high}, not {size}").format(
                low=MIN_SIZE, high=MAX_SIZE, size=self.size))
        Mode(self.mode)
        Match(self.entrants[0], self.entrants[1], self.size, self.mode, 1, self.seed, self.time_limit)

    @property
    def swiss_rounds(self) -> int:
        return self.rounds or max(1, math.ceil(math.log2(len(self.entrants))))

    @property
    def planned(self) -> int:
        """How many games the tournament plays."""
        n = len(self.entrants)
        pairs = n * (n - 1) // 2 if self.format == "round-robin" else self.swiss_rounds * (n // 2)
        return pairs * self.games_per_pair

    def identity(self) -> dict:
        """What makes two runs the same tournament (the results file's first line)."""
        return {"format": self.format, "entrants": list(self.entrants), "size": self.size, "mode": self.mode,
                "games_per_pair": self.games_per_pair, "rounds": self.rounds, "seed": self.seed,
                "time_limit": self.time_limit}

    # -- the pairings -------------------------------------------------------------------------
    def pairings(self, played: Sequence[Played]) -> list[Pairing]:
        """Every game of the tournament known once the games ``played`` (in order) are: all of
        a round robin, and a Swiss tournament's rounds up to the first one not finished."""
        rounds = self._round_robin() if self.format == "round-robin" else self._swiss(played)
        found, number = [], 0
        for round_number, pairs in enumerate(rounds, 1):
            for a, b in pairs:
                for game in range(self.games_per_pair):
                    found.append(Pairing(number, round_number, a, b, game))
                    number += 1
        return found

    def _round_robin(self) -> list[list[tuple[int, int]]]:
        """The circle method's rounds, each pair in the order of who moves first (``_first``)."""
        n = len(self.entrants)
        ring: list[int | None] = [*range(n), *([None] if n % 2 else [])]
        rounds = []
        for _r in range(len(ring) - 1):
            pairs = [(a, b) if _first(a, b, n) else (b, a)
                     for a, b in zip(ring[: len(ring) // 2], reversed(ring[len(ring) // 2 :]), strict=True)
                     if a is not None and b is not None]
            rounds.append(pairs)
            ring = [ring[0], ring[-1], *ring[1:-1]]
        return rounds

    def _swiss(self, played: Sequence[Played]) -> Iterator[list[tuple[int, int]]]:
        per_round = (len(self.entrants) // 2) * self.games_per_pair
        for r in range(self.swiss_rounds):
            if len(played) < r * per_round:
                return  # the round before is not finished: this one's pairings are not known yet
            yield self._swiss_round(played[: r * per_round], r)

    def _swiss_round(self, played: Sequence[Played], r: int) -> list[tuple[int, int]]:
        table = Standings(self, played)
        order = sorted(range(len(self.entrants)), key=lambda i: (-table.points[i], i))
        if len(order) % 2:
            rested = {i for i in range(len(self.entrants)) if table.byes[i]}
            order.remove(next(i for i in reversed(order) if i not in rested))
        pairs = _unmet_pairs(order, table.met)
        if pairs is None:  # no pairing without a rematch: each with the next one down
            pairs = list(zip(order[::2], order[1::2], strict=True))
        return [(top, other) if table.firsts[top] < table.firsts[other] or (
                    table.firsts[top] == table.firsts[other] and r % 2 == 0) else (other, top)
                for top, other in pairs]

    def play(self, pairing: Pairing) -> Played:
        """Play the game ``pairing``."""
        a, b = self.entrants[pairing.a], self.entrants[pairing.b]
        match = Match(a, b, self.size, self.mode, MAX_GAMES, self.seed + pairing.number - pairing.game,
                      self.time_limit)
        game = play_game(match, pairing.game)  # A moves first in even games, as a pairing's a does
        forfeit = {"a": pairing.a, "b": pairing.b}.get(game.forfeit)
        reason = None if game.reason is None else str(game.reason)
        return Played(pairing, game.result, game.scores, forfeit, reason)


def run(tournament: Tournament, played: Sequence[Played] = ()) -> Iterator[Played]:
    """The games not yet ``played``, each as soon as it ends, in order."""
    done = list(played)
    while True:
        pending = [p for p in tournament.pairings(done) if p.number >= len(done)]
        if not pending:
            return
        for pairing in pending:
            if tournament.format == "swiss" and pairing.round != pending[0].round:
                break  # the next round's pairings wait for this one's results
            game = tournament.play(pairing)
            done.append(game)
            yield game


def _unmet_pairs(order: list[int], met: list[set[int]]) -> list[tuple[int, int]] | None:
    """``order`` paired off, each from the top with the next one it has not met, going back
    on a choice that leaves the rest with no such pairing; None if there is none."""
    if not order:
        return []
    top, rest = order[0], order[1:]
    for other in rest:
        if other not in met[top]:
            after = _unmet_pairs([i for i in rest if i != other], met)
            if after is not None:
                return [(top, other), *after]
    return None


def _first(a: int, b: int, n: int) -> bool:
    """Whether ``a`` moves first against ``b`` in the first game of their pairing, so that in a
    round robin of ``n`` everyone moves first as often as the others, give or take one: on an
    odd number ``m`` of entrants, ``a`` moves first against the (m - 1) / 2 entrants after it
    around a circle; an even field's last entrant moves first against the even-numbered others."""
    m = n if n % 2 else n - 1
    if a < m and b < m:
        return 0 < (b - a) % m <= (m - 1) // 2
    if a == m:
        return b % 2 == 0
    return not _first(b, a, n)


class Standings:
    """Points, tie-breaks and the crosstable from the games ``played``."""

    def __init__(self, tournament: Tournament, played: Sequence[Played]):
        n = len(tournament.entrants)
        self.tournament = tournament
        self.points = [0.0] * n
        self.games = [0] * n
        self.wins, self.draws, self.losses = [0] * n, [0] * n, [0] * n
        self.firsts = [0] * n
        self.byes = [0] * n
        self.met: list[set[int]] = [set() for _i in range(n)]
        self.against = [[0.0] * n for _i in range(n)]  # against[i][j]: i's points in its games with j
        rounds: dict[int, set[int]] = {}
        for game in played:
            p = game.pairing
            self.firsts[p.a if p.game % 2 == 0 else p.b] += 1
            self.met[p.a].add(p.b)
            self.met[p.b].add(p.a)
            rounds.setdefault(p.round, set()).update((p.a, p.b))
            for me, result in ((p.a, game.result), (p.b, 1 - game.result)):
                self.points[me] += result
                self.games[me] += 1
                (self.wins if result == 1 else self.draws if result == 0.5 else self.losses)[me] += 1
            self.against[p.a][p.b] += game.result
            self.against[p.b][p.a] += 1 - game.result
        if tournament.format == "swiss" and n % 2:
            per_round = (n // 2) * tournament.games_per_pair
            for r, seated in rounds.items():
                if sum(1 for g in played if g.pairing.round == r) == per_round:  # a finished round
                    for rested in set(range(n)) - seated:
                        self.byes[rested] += 1
                        self.points[rested] += tournament.games_per_pair
        round_robin = tournament.format == "round-robin"
        self.tie_break = self._sonneborn_berger() if round_robin else self._buchholz(played)
        self.ratings = _ratings(played)

    def _sonneborn_berger(self) -> list[float]:
        n = len(self.points)
        return [sum(self.against[i][j] * self.points[j] for j in range(n) if j != i) for i in range(n)]

    def _buchholz(self, played: Sequence[Played]) -> list[float]:
        seen = {(g.pairing.round, g.pairing.a, g.pairing.b) for g in played}
        total = [0.0] * len(self.points)
        for _round, a, b in seen:
            total[a] += self.points[b]
            total[b] += self.points[a]
        return total

    @property
    def tie_break_name(self) -> str:
        return "sonneborn_berger" if self.tournament.format == "round-robin" else "buchholz"

    def ranking(self) -> list[int]:
        """The entrants' indices, best first: points, then the tie-break, then wins, then the list."""
        return sorted(range(len(self.points)),
                      key=lambda i: (-self.points[i], -self.tie_break[i], -self.wins[i], i))

    def rows(self) -> list[dict]:
        """The standings as JSON-able rows, best first; ``crosstable`` holds the points scored
        against each entrant, by rank (None: not met; the entrant's own place is None too)."""
        order = self.ranking()
        return [{
            "rank": place, "entrant": self.tournament.entrants[i], "points": self.points[i],
            self.tie_break_name: self.tie_break[i], "games": self.games[i], "wins": self.wins[i],
            "draws": self.draws[i], "losses": self.losses[i], "byes": self.byes[i],
            **_rating_fields(self.ratings.get(i)),
            "crosstable": [self.against[i][j] if j in self.met[i] else None for j in order],
        } for place, i in enumerate(order, 1)]  # fmt: skip


def _ratings(played: Sequence[Played]) -> dict[int, Standing]:
    """Each entrant's rating (by its index) after the games ``played``, rated in their order."""
    table = RatingTable()
    for game in sorted(played, key=lambda game: game.pairing.number):
        places = (1, 1) if game.result == 0.5 else (1, 2) if game.result == 1 else (2, 1)
        table.add_game((str(game.pairing.a), str(game.pairing.b)), places)
    return {int(standing.name): standing for standing in table.standings()}


def _rating_fields(standing: Standing | None) -> dict:
    """An entrant's rating for its row (None for all three before its first game)."""
    if standing is None:
        return {"rating": None, "deviation": None, "provisional": None}
    return {"rating": standing.rating, "deviation": standing.deviation, "provisional": standing.provisional}
