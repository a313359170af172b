"""Computer players: ``choose_move`` runs a level's pipeline of strategies.

A player is a frozen dataclass of settings (level, seed, time limit), so it pickles and can be
sent to another process; ``choose_move`` is a pure function of those settings and the state: its
random choices come from a generator seeded with the seed *and* the position. The searches have
fixed depth and node budgets; a time limit only cuts them short, so the result is independent
of the clock unless the limit is reached (never, with ``time_limit=None``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from random import Random

from sos_tui.engine.rules import GameState, Mode, Move

from .bitboard import cell_moves, grid, points, sacrifice_costs, safe_sets, scoring, wins
from .budget import Budget, OutOfBudget, clock
from .levels import LEVELS, Level
from .mirror import mirror_move
from .safe_game import MonteCarloSearch, SafeGameSearch
from .search import search_move
from .solver import Solver


@dataclass
class Turn:
    """What the strategies know about the move being chosen."""

    level: Level
    state: GameState
    rng: Random
    time_limit: float | None
    start: float
    solve_failed: bool = False

    def by(self, share: float) -> float | None:
        """The deadline for a strategy that may use ``share`` of the time limit."""
        return None if self.time_limit is None else self.start + share * self.time_limit

    @property
    def two_players(self) -> bool:
        return self.state.players == 2


def _move(state: GameState, cell: int, letter: str) -> Move:
    return Move(cell // state.size, cell % state.size, letter)


def _bit_move(state: GameState, bit: int, is_s: bool) -> Move:
    return _move(state, grid(state.size).cell(bit), "S" if is_s else "O")


def _quiet_and_safe(state: GameState) -> tuple[bool, int, int]:
    """Whether nothing scores now, and the cells (bitboard masks) where an S, and where an O,
    is safe."""
    g = grid(state.size)
    s, o = g.masks(state.board)
    empty = g.empty(s, o)
    return not any(wins(s, o, empty, g.dirs)), *safe_sets(s, o, empty, g.dirs)


def _few_safe(state: GameState, early: tuple[int, int] | None) -> bool:
    """Whether at most ``early`` = (empty cells, safe moves) are left."""
    if early is None or state.empty_cells > early[0]:
        return False
    _, safe_s, safe_o = _quiet_and_safe(state)
    return safe_s.bit_count() + safe_o.bit_count() <= early[1]


# -- the strategies: each returns a move or None (pass) ---------------------------------------
def opening_book(turn: Turn) -> Move | None:
    if turn.level.book and turn.two_players:
        from .book import book_move  # here, so that `python -m sos_tui.ai.book` runs it fresh

        return book_move(turn.state)
    return None


def small_board(turn: Turn) -> Move | None:
    """Perfect play where an exact solve takes about a second at most."""
    state = turn.state
    if turn.two_players and state.size <= turn.level.perfect_up_to:
        _, cell, letter = Solver(state.size, state.mode).best_move(state.board)
        return _move(state, cell, letter)
    return None


def greedy(turn: Turn) -> Move | None:
    settings, state, rng = turn.level.greedy, turn.state, turn.rng
    if settings is None:
        return None
    g = grid(state.size)
    s, o = g.masks(state.board)
    empty = g.empty(s, o)
    offers = scoring(s, o, empty, g.dirs)
    if offers and rng.random() < settings.take:
        if settings.careful:
            offers = [m for m in offers if m[0] == offers[0][0]]
        _, bit, is_s = rng.choice(offers)
        return _bit_move(state, bit, is_s)
    if not settings.careful:
        return rng.choice(state.legal_moves())
    safe = cell_moves(*safe_sets(s, o, empty, g.dirs))
    if safe:
        return _bit_move(state, *rng.choice(safe))
    costs = sacrifice_costs(s, o, g)
    _, bit, is_s = rng.choice([m for m in costs if m[0] == costs[0][0]])
    return _bit_move(state, bit, is_s)


_KEPT: dict[tuple[str, int, str], tuple[str, Solver]] = {}
KEEP_AT_MOST = 800_000  # table entries (about 150 MB): past that, a fresh table


def forget():
    """Drop the solver tables kept between moves (``_solver``)."""
    _KEPT.clear()


def _solver(turn: Turn, deadline: float | None, max_nodes: int) -> Solver:
    """The level's exact solver with a fresh budget. Its table is kept while the boards it is
    asked about follow one another (every letter of the last board still there, as in one game),
    so the solves of a game's endgame share their work: a position solved, or bounded, by one
    move's solve is known to the next. A solve's value and move do not depend on the table
    (the first move of the best value, in the solver's order); only whether it fits the budget
    does, and that depends on the game's earlier positions alone."""
    state = turn.state
    key = (turn.level.name, state.size, state.mode.value)
    kept = _KEPT.get(key)
    if kept is not None and len(kept[1].table) < KEEP_AT_MOST and all(
            was in (".", now) for was, now in zip(kept[0], state.board, strict=True)):
        solver = kept[1]
        solver.budget = Budget(deadline, max_nodes)
    else:
        solver = Solver(state.size, state.mode, deadline, max_nodes)
    _KEPT[key] = (state.board, solver)
    return solver


def exact_endgame(turn: Turn) -> Move | None:
    exact, state = turn.level.exact, turn.state
    if exact is None or not turn.two_players:
        return None
    if state.mode is Mode.GENERAL:
        if state.empty_cells > exact.empties and not _few_safe(state, exact.early):
            return None
    else:
        quiet, safe_s, safe_o = _quiet_and_safe(state)
        if not quiet or safe_s.bit_count() + safe_o.bit_count() > exact.safe:
            return None  # a win on the spot (the search takes it), or too many safe moves
    try:
        solver = _solver(turn, turn.by(exact.time_share), exact.max_nodes)
        if not exact.swindle:
            value, cell, letter = solver.best_move(state.board)
        else:
            value, best = solver.best_moves(state.board)
            if value < 0 and state.mode is Mode.SIMPLE:
                return None  # as below
            cell, letter = _swindle(solver, state, value, best)
    except OutOfBudget:
        turn.solve_failed = True
        return None
    if value < 0 and state.mode is Mode.SIMPLE:
        return None  # lost against perfect play: the search keeps the fight going
    return _move(state, cell, letter)


def _swindle(solver: Solver, state: GameState, value: int, best: list[tuple[int, str]]) -> tuple[int, str]:
    """Of the optimal moves, the one that leaves the other player the most chances to go wrong
    (``Solver.chances``); the first (the solver's choice) when one of them scores (it keeps the
    turn) or the budget runs out while they are compared."""
    if len(best) == 1 or _scores(state, *best[0]):
        return best[0]
    found, most = best[0], -1.0
    try:
        for cell, letter in best:
            share = solver.chances(state.board, cell, letter, value)
            if share > most:
                found, most = (cell, letter), share
    except OutOfBudget:
        pass
    return found


def _scores(state: GameState, cell: int, letter: str) -> bool:
    g = grid(state.size)
    s, o = g.masks(state.board)
    return points(s, o, g.bit(cell), letter == "S", g.dirs) > 0


def mirror(turn: Turn) -> Move | None:
    """Never lose a simple game: answer a safe move with its mirror image (``mirror.py``)."""
    state = turn.state
    if not turn.level.mirror or not turn.two_players or state.mode is not Mode.SIMPLE:
        return None
    found = mirror_move(state.board, state.size)
    if found is None:
        return None
    quiet, safe_s, safe_o = _quiet_and_safe(state)
    if not quiet:
        return None  # the last move handed over an SOS: the search takes it
    cell, letter = found
    safe = safe_s if letter == "S" else safe_o
    return _move(state, cell, letter) if grid(state.size).bit(cell) & safe else None


def safe_game(turn: Turn) -> Move | None:
    settings, state = turn.level.safe_game, turn.state
    if settings is None or not turn.two_players or state.mode is not Mode.SIMPLE:
        return None
    if not _quiet_and_safe(state)[0]:
        return None  # a win on the spot, which the search takes
    seed, deadline, nodes = turn.rng.getrandbits(32), turn.by(0.85), settings.max_nodes
    try:
        if settings.monte_carlo:
            found = MonteCarloSearch(state.size, seed, deadline, nodes).best(state.board)
        else:
            found = SafeGameSearch(state.size, seed, deadline, nodes).best(state.board, settings.max_depth)
    except OutOfBudget:
        return None
    return None if found is None else _move(state, found[1], found[2])


def heuristic_search(turn: Turn) -> Move | None:
    level = turn.level
    settings = level.search if turn.two_players else level.search_many
    if settings is None:
        return None
    if turn.solve_failed and level.exact.after_failure is not None:
        settings = replace(settings, max_nodes=level.exact.after_failure)
    return search_move(turn.state, settings, turn.rng, turn.by(0.85))


PIPELINE = (opening_book, small_board, greedy, exact_endgame, mirror, safe_game, heuristic_search)


@dataclass(frozen=True, slots=True)
class ComputerPlayer:
    """A computer opponent. ``time_limit``: at most this many seconds of CPU time per move (None:
    no limit; the fixed search budgets alone bound the move)."""

    level: str = "medium"
    seed: int = 0
    time_limit: float | None = None

    def __post_init__(self):
        if self.level not in LEVELS:
            raise ValueError(f"level must be one of {', '.join(LEVELS)}, not {self.level!r}")
        if self.time_limit is not None and not self.time_limit > 0:
            raise ValueError(f"time limit must be a positive number of seconds, not {self.time_limit!r}")

    def choose_move(self, state: GameState) -> Move:
        """A legal move for ``state.to_move``. Raises ValueError if the game is over. Once a seat
        has dropped out, the strategies (which take turns in seat order) see the game of the seats
        still in (``GameState.among_still_in``): the same board, so the same move."""
        if state.is_over:
            raise ValueError("the game is over: there is no move to choose")
        state, _seats = state.among_still_in()
        rng = Random(f"{self.seed}|{state.size}|{state.board}|{state.to_move}|{state.scores}")
        level, limit = LEVELS[self.level], self.time_limit
        if limit is not None and level.most_seconds is not None:
            limit = min(limit, level.most_seconds)  # hard: half a second, whatever the app allows
        turn = Turn(level, state, rng, limit, clock())
        for strategy in PIPELINE:
            move = strategy(turn)
            if move is not None:
                return move
        raise AssertionError("the last strategy of every level returns a move")


def computer_player(level: str, seed: int = 0, time_limit: float | None = None) -> ComputerPlayer:
    """The computer player for ``level`` (one of LEVELS)."""
    return ComputerPlayer(level, seed, time_limit)


def choose_move(level: str, state: GameState, seed: int = 0, time_limit: float | None = None) -> Move:
    """``computer_player(level, seed, time_limit).choose_move(state)``, as a top-level function
    for ``ProcessPoolExecutor.submit``."""
    return ComputerPlayer(level, seed, time_limit).choose_move(state)
