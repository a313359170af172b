"""Pit two computer levels against each other: the games and the tally of their results.

Pure: no argument parsing and no printing (``sos-tui arena`` in ``cli/arena.py`` does both).

>>> match = Match("medium", "easy", size=3, games=2, seed=1)
>>> tally = Tally(match)
>>> for result in run(match):
...     tally.add(result)
>>> tally.games, tally.summary()["games"]
(2, 2)

A player is one of our levels, an outside-style bot (``outside.py``) or an engine program,
``engine:COMMAND`` (``engines/``): an engine that misbehaves loses that game by forfeit (the
reason is in the result) and the match goes on.

Game ``k`` of a match has seed ``match.seed + k``, and A moves first in the even games, so a
game's result depends only on its number: a run cut short and a longer one agree on the games
both played.
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing
import os
import signal
import statistics
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import NamedTuple

from sos_tui.engine import engine_command
from sos_tui.engine.rules import MAX_SIZE, MIN_SIZE, GameState, Mode
from sos_tui.i18n import _

from .engines.client import EngineError, EnginePlayer, stop_all
from .engines.forfeit import forfeit
from .levels import LEVELS
from .outside import OUTSIDE, outside_player
from .players import ComputerPlayer
from .processes import terminate

MAX_GAMES = 100_000
ENGINE_MOVETIME = 1000
"""Milliseconds per move for an engine program when the match has no time limit."""


@dataclass(frozen=True)
class Match:
    """Who plays, where, and how many games. Raises ValueError (one line, in the player's
    language) for bad settings."""

    level_a: str
    level_b: str
    size: int = 6
    mode: str = "general"
    games: int = 20
    seed: int = 0
    time_limit: float | None = None

    def __post_init__(self):
        for level in (self.level_a, self.level_b):
            if level not in LEVELS and level not in OUTSIDE and engine_command(level) is None:
                raise ValueError(_("unknown level {level!r} (choose {levels})").format(
                    level=level, levels=", ".join((*LEVELS, *OUTSIDE))))
        if not MIN_SIZE <= self.size <= MAX_SIZE:
            raise ValueError(_("--size must be from {low} to {high}, not {size}").format(
                low=MIN_SIZE, high=MAX_SIZE, size=self.size))
        Mode(self.mode)
        if not 1 <= self.games <= MAX_GAMES:
            raise ValueError(_("--games must be from 1 to {most:,}, not {games}").format(
                most=MAX_GAMES, games=self.games))
        if self.time_limit is not None and not self.time_limit > 0:
            raise ValueError(_("--time-limit must be a positive number of seconds"))


class GameResult(NamedTuple):
    number: int
    a_first: bool
    result: float  # for A: win 1, draw 1/2, loss 0
    scores: tuple[int, int]  # A's, B's
    a_seconds: tuple[float, ...]  # CPU seconds of each of A's moves (an engine's: wall-clock seconds)
    b_seconds: tuple[float, ...]
    forfeit: str | None = None  # "a" or "b": that player's engine lost the game by misbehaving
    reason: EngineError | None = None  # why


def player(level: str, seed: int, time_limit: float | None):
    """One of our levels (with the time limit), an outside-style bot (``outside.py``, which
    keeps no clock) or an engine program (``engine:COMMAND``, given the time limit per move)."""
    command = engine_command(level)
    if command is not None:
        movetime = ENGINE_MOVETIME if time_limit is None else max(1, round(time_limit * 1000))
        return EnginePlayer(command, movetime)
    if level in OUTSIDE:
        return outside_player(level, seed)
    return ComputerPlayer(level, seed, time_limit)


def play_game(match: Match, number: int) -> GameResult:
    """Game ``number`` of ``match``."""
    seed, a_first = match.seed + number, number % 2 == 0
    a = player(match.level_a, seed * 2, match.time_limit)
    b = player(match.level_b, seed * 2 + 1, match.time_limit)
    seats = (a, b) if a_first else (b, a)
    times: tuple[list[float], list[float]] = ([], [])
    state, lost = GameState.new(match.size, match.mode, 2), None
    try:
        while not state.is_over:
            seat = state.to_move
            # CPU seconds, as the players' clock (budget.py): not the load; an engine's are elsewhere
            clock = time.perf_counter if isinstance(seats[seat], EnginePlayer) else time.process_time
            start = clock()
            try:
                move = seats[seat].choose_move(state)
            except EngineError as error:
                lost = forfeit(state, seat, error)
                break
            times[seat].append(clock() - start)
            state = state.play(move)
    finally:
        for each in (a, b):
            if isinstance(each, EnginePlayer):
                each.close()
    a_seat = 0 if a_first else 1
    if lost is not None:
        result = 1.0 if a_seat in lost.winners else 0.0
    else:
        result = 0.5 if state.is_draw else (1.0 if state.winners == (a_seat,) else 0.0)
    return GameResult(number, a_first, result, (state.scores[a_seat], state.scores[1 - a_seat]),
                      tuple(times[a_seat]), tuple(times[1 - a_seat]),
                      None if lost is None else ("a" if lost.seat == a_seat else "b"),
                      None if lost is None else lost.reason)


def _watch_parent(parent: int):
    """In a worker: ignore ctrl+c (the parent stops the run) and exit as soon as the parent
    is gone, however it died (SIGTERM, SIGKILL), or when told to (SIGTERM); its engine programs
    are stopped first (they run in sessions of their own: nothing else would stop them)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def end(*_args):
        stop_all(then=lambda: os._exit(1))

    signal.signal(signal.SIGTERM, end)

    def watch():
        while os.getppid() == parent:
            time.sleep(0.1)
        end()

    threading.Thread(target=watch, daemon=True).start()


def max_jobs(games: int) -> int:
    return max(1, min(os.cpu_count() or 1, games))


def run(match: Match, jobs: int = 1, numbers: Sequence[int] | None = None) -> Iterator[GameResult]:
    """Each game's result as soon as it finishes (in ``jobs`` worker processes if more than one,
    so not in order): all the match's games, or only those ``numbers``. Raises ValueError
    unless 1 <= jobs <= the cores and the games. Closing the iterator (or an exception while
    waiting) stops the workers at once; a worker that dies mid-game raises GameProcessDied."""
    numbers = range(match.games) if numbers is None else numbers
    return _results(play(((match, number) for number in numbers), jobs, match.games))


def _results(games: Iterator[tuple[Match, GameResult]]) -> Iterator[GameResult]:
    with contextlib.closing(games):  # closed: its workers stop at once
        for _match, result in games:
            yield result


def play(games: Iterable[tuple[Match, int]], jobs: int = 1, planned: int | None = None
         ) -> Iterator[tuple[Match, GameResult]]:
    """Game ``number`` of each ``(match, number)`` in ``games``, with its match, as ``run`` plays
    them (``planned``: how many games there are, for the check of ``jobs``; default all)."""
    games = list(games)
    planned = len(games) if planned is None else planned
    if not 1 <= jobs <= max_jobs(planned):
        raise ValueError(_("--jobs must be from 1 to {most} (the cores, and no more than the games), "
                           "not {jobs}").format(most=max_jobs(planned), jobs=jobs))
    return _serial(games) if jobs == 1 else _parallel(games, jobs)


def _serial(games: Sequence[tuple[Match, int]]) -> Iterator[tuple[Match, GameResult]]:
    for match, number in games:
        yield match, play_game(match, number)


class GameProcessDied(RuntimeError):
    """A process playing the match's games ended in the middle of one (killed, out of memory)."""


def _parallel(games: Sequence[tuple[Match, int]], jobs: int) -> Iterator[tuple[Match, GameResult]]:
    """The games on ``jobs`` processes, each result as soon as its game ends. A process that dies
    breaks the pool: ``GameProcessDied``, rather than a wait for its game that never ends."""
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(jobs, mp_context=context, initializer=_watch_parent, initargs=(os.getpid(),))
    try:
        pending = {pool.submit(play_game, match, number): match for match, number in games}
        while pending:  # wait in short steps, so that ctrl+c is noticed at once
            done, _waiting = wait(pending, timeout=0.1, return_when=FIRST_COMPLETED)
            for future in done:
                match = pending.pop(future)
                try:
                    result = future.result()
                except BrokenProcessPool as error:
                    raise GameProcessDied(str(error)) from None
                yield match, result
    finally:
        terminate(pool)


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate (draws count as half a success).

    >>> [round(x, 3) for x in wilson(154, 200)]
    [0.707, 0.823]
    """
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Tally:
    """A's results so far: wins, draws, losses, score rate with its interval, move times."""

    match: Match
    wins: int = 0
    draws: int = 0
    losses: int = 0
    a_seconds: list[float] = field(default_factory=list)
    b_seconds: list[float] = field(default_factory=list)
    forfeits: list[dict] = field(default_factory=list)  # {"game", "player" ("a" or "b"), "reason"}

    def add(self, game: GameResult):
        if game.forfeit is not None:
            self.forfeits.append({"game": game.number + 1, "player": game.forfeit,
                                  "reason": str(game.reason)})
        if game.result == 1:
            self.wins += 1
        elif game.result == 0.5:
            self.draws += 1
        else:
            self.losses += 1
        self.a_seconds += game.a_seconds
        self.b_seconds += game.b_seconds

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        return self.wins + self.draws / 2

    @property
    def rate(self) -> float | None:
        return self.points / self.games if self.games else None

    def interval(self) -> tuple[float, float]:
        return wilson(self.points, self.games)

    def summary(self) -> dict:
        """Everything about the run so far, as JSON-able values."""
        m = self.match

        def seconds(times: list[float]) -> dict | None:
            return {"median": statistics.median(times), "max": max(times)} if times else None

        return {
            "level_a": m.level_a, "level_b": m.level_b, "size": m.size, "mode": m.mode, "seed": m.seed,
            "time_limit": m.time_limit, "games_planned": m.games, "games": self.games,
            "wins": self.wins, "draws": self.draws, "losses": self.losses,
            "score_rate": self.rate, "ci95": list(self.interval()),
            "a_seconds_per_move": seconds(self.a_seconds), "b_seconds_per_move": seconds(self.b_seconds),
            "forfeits": self.forfeits,
        }  # fmt: skip
