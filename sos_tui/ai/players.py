"""The four computer players and the one function that runs them.

A player is a frozen dataclass of settings (level, seed, time limit), so it pickles and can be
sent to another process; ``choose_move`` is a pure function of those settings and the state: its
random choices come from a generator seeded with the seed *and* the position. Hard and expert
search within fixed depth and node budgets; a time limit only cuts a search short, so the result
is independent of the clock unless the limit is reached (never, with ``time_limit=None``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from random import Random

from sos_tui.engine.rules import GameState, Mode, Move

from .book import book_move
from .exact import OutOfBudget, Solver, masks
from .search import search_move
from .tactics import geometry, sacrifices, safe_moves, scoring_moves

LEVELS = ("easy", "medium", "hard", "expert")

# Search settings: widths, and depth and node budgets (a time limit may cut these short).
_SEARCH = {
    "hard": dict(width=10, root_width=30, use_table=True, sacrifices_too=0),
    "expert": dict(width=12, root_width=48, use_table=True, sacrifices_too=2, blocks=2, playouts=4,
                   playout_weight=0.5, playouts_above=12),
}
_FIXED = {"hard": dict(max_depth=6, max_nodes=12_000), "expert": dict(max_depth=8, max_nodes=120_000)}
# With 3+ players (max^n search, no alpha-beta), smaller budgets: there is no exact endgame.
_FIXED_MANY = {"hard": dict(max_depth=4, max_nodes=2_500), "expert": dict(max_depth=6, max_nodes=10_000)}
# With two players, hard and expert solve exactly once this few cells are empty (general) or this
# few safe moves are left (simple: only safe moves are searched there), within a node budget.
_EXACT_EMPTIES = {"hard": 12, "expert": 17}
_EXACT_SAFE = {"hard": 12, "expert": 16}
_EXACT_NODES = {"hard": 60_000, "expert": 400_000}
# Expert, simple mode, two players: when the exact solve fails, a full-width search of the
# safe-move game on bitmask boards (exact.Solver.simple_search) instead of the sampled search.
_SIMPLE_DEPTH = 40
_SIMPLE_NODES = 500_000
# Expert's search budget after its exact solve ran out of nodes (a few seconds already spent).
_AFTER_FAILED_SOLVE = 15_000


def _move(state: GameState, i: int, letter: str) -> Move:
    return Move(i // state.size, i % state.size, letter)


def _rng(seed: int, state: GameState) -> Random:
    return Random(f"{seed}|{state.size}|{state.board}|{state.to_move}|{state.scores}")


def _easy(state: GameState, rng: Random) -> Move:
    offer = scoring_moves(state.board, geometry(state.size))
    if offer and rng.random() < 0.8:
        _, i, letter = rng.choice(offer)
        return _move(state, i, letter)
    return rng.choice(state.legal_moves())


def _medium(state: GameState, rng: Random) -> Move:
    geo = geometry(state.size)
    offer = scoring_moves(state.board, geo)
    if offer:
        most = offer[0][0]
        _, i, letter = rng.choice([m for m in offer if m[0] == most])
        return _move(state, i, letter)
    safe = safe_moves(state.board, geo)
    if safe:
        return _move(state, *rng.choice(safe))
    options = sacrifices(state.board, geo)
    least = options[0][0]
    _, i, letter = rng.choice([m for m in options if m[0] == least])
    return _move(state, i, letter)


def _solve(state: GameState, deadline: float | None, max_nodes: int | None,
           keep_losses: bool = True) -> Move | None:
    """The exact best move; None for a lost simple-mode position unless ``keep_losses`` (then the
    heuristic search, which hopes for a mistake, is the better guide)."""
    value, i, is_s = Solver(state.size, state.mode, deadline, max_nodes).best_move(*masks(state.board))
    if value < 0 and state.mode is Mode.SIMPLE and not keep_losses:
        return None
    return _move(state, i, "S" if is_s else "O")


def _endgame(level: str, state: GameState) -> bool:
    """Few enough cells (general) or safe moves (simple) left to try an exact solve."""
    if state.mode is Mode.GENERAL:
        return state.empty_cells <= _EXACT_EMPTIES[level]
    geo = geometry(state.size)
    if scoring_moves(state.board, geo):
        return False  # a win on the spot: the search takes it
    return len(safe_moves(state.board, geo)) <= _EXACT_SAFE[level]


def _search(level: str, state: GameState, rng: Random, time_limit: float | None) -> Move:
    # Fixed depth and node budgets; a time limit only cuts them short: half of it for an exact
    # solve, 85% of it in all.
    start = time.perf_counter()
    limits = dict(_FIXED[level] if state.players == 2 else _FIXED_MANY[level])
    solve_by = None
    if time_limit is not None:
        limits["deadline"] = start + 0.85 * time_limit
        solve_by = start + 0.5 * time_limit
    if level == "expert" and state.players == 2 and state.size <= 4:
        # must be perfect here: book, then an exact solve (about a second)
        return book_move(state) or _solve(state, None, None)
    if level == "expert" and state.players == 2 and state.mode is Mode.SIMPLE:
        move = _expert_simple(state, rng.getrandbits(32), solve_by, limits.get("deadline"))
        if move is not None:
            return move
    if level in _EXACT_NODES and state.players == 2 and _endgame(level, state) \
            and not (level == "expert" and state.mode is Mode.SIMPLE):  # done above
        try:
            move = _solve(state, solve_by, _EXACT_NODES[level], False)
            if move is not None:
                return move
        except OutOfBudget:
            if level == "expert":  # keep the whole move within seconds
                limits["max_nodes"] = _AFTER_FAILED_SOLVE
    return search_move(state, rng=rng, **_SEARCH[level], **limits)


def _expert_simple(state: GameState, seed: int, solve_by: float | None,
                   deadline: float | None) -> Move | None:
    """Expert in two-player simple mode: exact when few safe moves are left, else a full-width
    search of the safe-move game. None: something scores, or nothing is safe (the search then)."""
    geo = geometry(state.size)
    if scoring_moves(state.board, geo):
        return None
    if _endgame("expert", state):
        try:
            move = _solve(state, solve_by, _EXACT_NODES["expert"], False)
            if move is not None:
                return move
        except OutOfBudget:
            pass
    solver = Solver(state.size, state.mode, deadline, _SIMPLE_NODES)
    try:
        found = solver.simple_search(*masks(state.board), _SIMPLE_DEPTH, seed)
    except OutOfBudget:
        return None
    return None if found is None else _move(state, found[1], "S" if found[2] else "O")


@dataclass(frozen=True, slots=True)
class ComputerPlayer:
    """A computer opponent. ``time_limit``: at most this many seconds per move (None: no limit;
    the fixed search budgets alone bound the move)."""

    level: str = "medium"
    seed: int = 0
    time_limit: float | None = None

    def __post_init__(self):
        if self.level not in LEVELS:
            raise ValueError(f"level must be one of {', '.join(LEVELS)}, not {self.level!r}")
        if self.time_limit is not None and not self.time_limit > 0:
            raise ValueError(f"time limit must be a positive number of seconds, not {self.time_limit!r}")

    def choose_move(self, state: GameState) -> Move:
        """A legal move for ``state.to_move``. Raises ValueError if the game is over."""
        if state.is_over:
            raise ValueError("the game is over: there is no move to choose")
        rng = _rng(self.seed, state)
        if self.level == "easy":
            return _easy(state, rng)
        if self.level == "medium":
            return _medium(state, rng)
        return _search(self.level, state, rng, self.time_limit)


def computer_player(level: str, seed: int = 0, time_limit: float | None = None) -> ComputerPlayer:
    """The computer player for ``level`` (one of LEVELS)."""
    return ComputerPlayer(level, seed, time_limit)


def choose_move(level: str, state: GameState, seed: int = 0, time_limit: float | None = None) -> Move:
    """``computer_player(level, seed, time_limit).choose_move(state)``, as a top-level function
    for ``ProcessPoolExecutor.submit``."""
    return ComputerPlayer(level, seed, time_limit).choose_move(state)
