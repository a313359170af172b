"""Game review: for every move of a game, the best move in that position and what the played one
cost, exact where the solver can afford it and estimated by the heuristic search otherwise.

Values are the mover's, counted from the position before the move:

- general mode, two players: the points the mover will still make minus the opponent's, from
  here to the end under perfect play. A move's value includes the points it scores and, when it
  scores, the same player's continuation (``Solver.child_value``);
- simple mode, two players: +1 (win), 0 (draw) or -1 (loss) under perfect play;
- three or more players: each player maximises their own final score (a max^n search); a
  move's value is the points the mover will still make (general) or +1/0/-1 (simple). Such
  verdicts are always estimates: perfect play is not unique when players' interests differ.

``loss = best value - played value`` (>= 0): in general mode with two players a loss in
*margin* (the swing in the final score difference), with three or more a loss in the mover's own
points; in simple mode in result steps.

**Honest verdicts.** An exact loss is marked as it is. An estimate is marked only when its loss is
beyond the estimate's noise (``ESTIMATE_NOISE``): in general mode the mark of the loss less the
noise (a loss of 5 estimated is marked as 3, a mistake; 2 or less gets no mark); in simple mode a
mark only when the move hands the next player an SOS at once while another move did not (the
loss is seen, not guessed: a depth-limited, width-limited search cannot prove a later loss).
So the first moves on a big empty board, where nothing is handed over, get no mark. An estimate
that is marked is shown as one (``~``).

**Accuracy** (``accuracies``): each player's share of moves that kept the value: moves with no
mark, so exact where the solver reached (every move kept the solved value) and, elsewhere, the
share of moves whose estimated loss is within the noise; and the number of inaccuracies,
mistakes and blunders. ``review_move(game, index, budget)`` reviews one
move, a pure function of its arguments (picklable: the app sends one move at a time to its
computer process); ``review(game, budget)`` yields every move's review in game order.

>>> from sos_tui.engine import GameState
>>> game = GameState.from_moves(["S a1", "O b1", "O b2"], size=3)
>>> [(r.index, str(r.move), str(r.best), r.points, r.mark, r.exact) for r in review(game)]
[(0, 'S a1', 'S a1', 0, '!', True), (1, 'O b1', 'S b1', 1, '?!', True), (2, 'O b2', 'S c1', 7, '??', True)]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from random import Random

from sos_tui.engine.record import GameRecord
from sos_tui.engine.rules import GameState, Mode, Move
from sos_tui.i18n import _, ngettext

from .bitboard import points, safe_sets, wins
from .budget import Budget, OutOfBudget, clock
from .review_table import known_value
from .search import INFINITY, WIN, MaxNSearch, SearchSettings, TwoPlayerSearch
from .solver import Solver

# -- marks ------------------------------------------------------------------------------------
BEST, INACCURACY, MISTAKE, BLUNDER = "best", "inaccuracy", "mistake", "blunder"
SYMBOLS = {BEST: "!", INACCURACY: "?!", MISTAKE: "?", BLUNDER: "??"}
GENERAL_THRESHOLDS = ((4, BLUNDER), (2, MISTAKE), (1, INACCURACY), (0, BEST))
"""General mode, by the loss in points (rounded): 0 best, 1 inaccuracy, 2-3 mistake, 4+ blunder."""
SIMPLE_THRESHOLDS = ((2, BLUNDER), (1, MISTAKE), (0, BEST))
"""Simple mode, by the result given away: none best; win to draw or draw to loss a mistake;
win to loss a blunder (results change in whole steps, so there is no inaccuracy)."""


def rounded(loss: float) -> int:
    """A loss as a whole number: halves round up (0.5 -> 1)."""
    return max(0, math.floor(loss + 0.5))


ESTIMATE_NOISE = 4
"""How far an estimated loss may exceed the exact one (general mode): on 250 positions of 5x5
with 12-13 empty cells, where both can be had, it did by at most 3 (p95 1;
``benchmarks/review_noise.py``, docs/ai.md "Game review"); one more for the bigger boards, which
nothing measures."""


def judge(loss: float, mode: Mode | str) -> str:
    """The name of the mark a move of this loss gets (``BEST`` ... ``BLUNDER``)."""
    whole = rounded(loss)
    for threshold, name in GENERAL_THRESHOLDS if Mode(mode) is Mode.GENERAL else SIMPLE_THRESHOLDS:
        if whole >= threshold:
            return name
    return BEST


# -- budgets and results ----------------------------------------------------------------------
@dataclass(frozen=True)
class ReviewBudget:
    """How hard the review works on one move. Two players on boards up to ``always_exact``
    are always solved exactly, without limits. On bigger boards an exact solve is tried once at
    most ``exact_empties`` cells are empty (general) or ``exact_safe`` safe moves are left
    (simple), within ``exact_nodes``; otherwise, or if that runs out, the move is estimated by
    the heuristic search with ``search`` (two players) or ``search_many`` (three or more).
    ``time_limit`` (seconds per move, None: none) cuts the search short; a time-limited review
    depends on the clock."""

    always_exact: int = 4
    exact_empties: int = 13
    exact_safe: int = 16
    exact_nodes: int = 120_000
    search: SearchSettings = field(default_factory=lambda: SearchSettings(
        max_depth=4, max_nodes=5_000, width=8, root_width=16))
    search_many: SearchSettings = field(default_factory=lambda: SearchSettings(
        max_depth=3, max_nodes=3_000, width=6, root_width=12))
    time_limit: float | None = None


@dataclass(frozen=True)
class MoveReview:
    """The verdict on move ``index`` (from 0) of a game, by ``player`` (from 0)."""

    index: int
    player: int
    move: Move
    best: Move
    played_value: float  # the mover's value of the played move
    best_value: float  # ... and of the best move
    exact: bool
    mode: Mode
    advantage: float  # after the move, from the first player's side: final margin (general,
    # two players), result (simple), own score minus the best other (three or more)
    players: int = 2
    hands_over: bool = False  # the move leaves the next player an SOS, and another move did not

    @property
    def loss(self) -> float:
        return max(0.0, self.best_value - self.played_value)

    @property
    def points(self) -> int:
        """The loss as a whole number (points in general mode, result steps in simple)."""
        return rounded(self.loss)

    @property
    def sure_loss(self) -> float:
        """The loss beyond doubt: all of an exact one; an estimate's less its noise (general) or
        all of it only when the move handed an SOS over (simple)."""
        if self.exact:
            return self.loss
        if self.mode is Mode.GENERAL:
            return max(0.0, self.loss - ESTIMATE_NOISE)
        return self.loss if self.hands_over else 0.0

    @property
    def judgement(self) -> str:
        return judge(self.sure_loss, self.mode)

    @property
    def mark(self) -> str:
        return SYMBOLS[self.judgement]

    def to_dict(self) -> dict:
        return {"index": self.index, "player": self.player, "move": str(self.move), "best": str(self.best),
                "loss": self.points, "exact": self.exact, "mark": self.mark}


@dataclass(frozen=True)
class Accuracy:
    """One player's accuracy over their reviewed moves: ``kept`` of ``moves`` had no mark."""

    player: int
    moves: int
    kept: int
    inaccuracies: int
    mistakes: int
    blunders: int
    exact: bool  # every one of the moves was judged exactly

    @property
    def percent(self) -> float:
        return 100.0 * self.kept / self.moves if self.moves else 100.0

    def to_dict(self) -> dict:
        return {"player": self.player, "accuracy": round(self.percent, 1), "moves": self.moves,
                "exact": self.exact, "inaccuracies": self.inaccuracies, "mistakes": self.mistakes,
                "blunders": self.blunders}


def accuracies(reviews, players: int) -> list[Accuracy]:
    """Each player's ``Accuracy`` (see the module's doc)."""
    found = []
    for player in range(players):
        own = [r for r in reviews if r.player == player]
        count = {name: sum(r.judgement == name for r in own) for name in (BEST, INACCURACY, MISTAKE, BLUNDER)}
        found.append(Accuracy(player, len(own), count[BEST], count[INACCURACY], count[MISTAKE],
                              count[BLUNDER], all(r.exact for r in own)))
    return found


# -- one move ---------------------------------------------------------------------------------
Game = GameRecord | GameState

_SOLVERS: dict[tuple[int, str], Solver] = {}
MAX_TABLE = 2_000_000  # solver entries kept between moves in one process


def _solver(size: int, mode: Mode) -> Solver:
    """One solver per board size and mode per process: its table carries from move to move."""
    solver = _SOLVERS.get((size, mode.value))
    if solver is None or len(solver.table) > MAX_TABLE:
        solver = _SOLVERS[(size, mode.value)] = Solver(size, mode)
    return solver


def final_state(game: Game) -> GameState:
    return game.state if isinstance(game, GameRecord) else game


def review_move(game: Game, index: int, budget: ReviewBudget | None = None) -> MoveReview:
    """The review of move ``index`` (from 0) of ``game`` (a record or its state)."""
    budget = budget or ReviewBudget()
    whole = final_state(game)
    if not 0 <= index < whole.move_count:
        raise IndexError(f"the game has {whole.move_count} moves, not a move {index + 1}")
    before = GameState.from_moves(whole.moves[:index], whole.size, whole.mode, whole.players,
                                  [drop for drop in whole.drops if drop.after <= index])
    # the searches take turns in seat order: once seats dropped out, the game of those still in
    state, seats = before.among_still_in()
    move = whole.moves[index]
    deadline = None if budget.time_limit is None else clock() + budget.time_limit
    if state.players == 2:
        found = _exact(state, move, budget, deadline) or _estimate_two(state, index, move, budget, deadline)
    else:
        found = _estimate_many(state, index, move, budget, deadline)
    return found if seats[found.player] == found.player else replace(found, player=seats[found.player])


def review(game: Game, budget: ReviewBudget | None = None,
           progress: Callable[[int, int], None] | None = None) -> Iterator[MoveReview]:
    """Every move's review, in game order; ``progress(done, total)`` after each."""
    total = final_state(game).move_count
    for index in range(total):
        yield review_move(game, index, budget)
        if progress is not None:
            progress(index + 1, total)


def _cell(state: GameState, move: Move) -> int:
    return move.row * state.size + move.col


def _advantage(state: GameState, mover: int, played: float) -> float:
    """Two players: the first player's final margin (general) or result (simple) after a move
    of mover's value ``played``."""
    if state.mode is Mode.GENERAL:
        played += state.scores[mover] - state.scores[1 - mover]
    return played if mover == 0 else -played


# -- exact, two players -----------------------------------------------------------------------
def _should_solve(state: GameState, budget: ReviewBudget) -> bool:
    if state.size <= budget.always_exact:
        return True
    if state.mode is Mode.GENERAL:
        return state.empty_cells <= budget.exact_empties
    g = _solver(state.size, state.mode).grid
    s, o = g.masks(state.board)
    empty = g.empty(s, o)
    if any(wins(s, o, empty, g.dirs)):
        return True  # a win on the spot: the solve is quick
    safe_s, safe_o = safe_sets(s, o, empty, g.dirs)
    return safe_s.bit_count() + safe_o.bit_count() <= budget.exact_safe


def _exact(state: GameState, move: Move, budget: ReviewBudget, deadline: float | None) -> MoveReview | None:
    """The exact verdict, or None if it is not tried or runs out of budget."""
    if not _should_solve(state, budget):
        return None
    solver = _solver(state.size, state.mode)
    unlimited = state.size <= budget.always_exact
    solver.budget = Budget(None if unlimited else deadline, None if unlimited else budget.exact_nodes)
    try:
        best_value = _board_value(solver, state, state.board)
        played = _move_value(solver, state, _cell(state, move), move.letter)
        best = move if played >= best_value else _a_best_move(solver, state, best_value)
    except OutOfBudget:
        return None
    mover = state.to_move
    return MoveReview(state.move_count, mover, move, best, played, best_value, True, state.mode,
                      _advantage(state, mover, played), state.players)


def _board_value(solver: Solver, state: GameState, board: str) -> int:
    """The solved value of ``board`` for the player to move (looked up where stored)."""
    if "." not in board:
        return 0
    known = known_value(board, state.size, state.mode.value)
    return solver.value(board) if known is None else known


def _move_value(solver: Solver, state: GameState, cell: int, letter: str) -> int:
    """The mover's solved value of ``letter`` at ``cell``: as ``Solver.child_value``, with the
    value of the board after it looked up where stored."""
    g = solver.grid
    s, o = g.masks(state.board)
    gained = points(s, o, g.bit(cell), letter == "S", g.dirs)
    after = state.board[:cell] + letter + state.board[cell + 1:]
    if state.mode is Mode.SIMPLE:
        if gained:
            return 1
        return -_board_value(solver, state, after)
    if gained:
        return gained + _board_value(solver, state, after)
    return -_board_value(solver, state, after)


def _a_best_move(solver: Solver, state: GameState, best_value: int) -> Move:
    """The first move, in the solver's order, worth ``best_value``: a null-window test each,
    or the stored value of the board after it."""
    g = solver.grid
    s, o = g.masks(state.board)
    for cell, letter in solver.moves(state.board):
        after = state.board[:cell] + letter + state.board[cell + 1:]
        if known_value(after, state.size, state.mode.value) is not None:
            value = _move_value(solver, state, cell, letter)
        else:
            value = solver._after(s, o, g.bit(cell), letter == "S", best_value - 1, best_value)
        if value >= best_value:
            return Move(cell // state.size, cell % state.size, letter)
    raise AssertionError("some move reaches the board's value")


def hands_over(state: GameState, move: Move) -> bool:
    """Does ``move`` (scoring nothing) leave the next player an SOS, when some move did not?"""
    g = _solver(state.size, state.mode).grid
    s, o = g.masks(state.board)
    empty = g.empty(s, o)
    bit = g.bit(_cell(state, move))
    if points(s, o, bit, move.letter == "S", g.dirs):
        return False
    if not (any(safe_sets(s, o, empty, g.dirs)) or any(wins(s, o, empty, g.dirs))):
        return False  # every move scores nothing and leaves a threat: nothing better was there
    s2, o2 = (s | bit, o) if move.letter == "S" else (s, o | bit)
    return any(wins(s2, o2, g.empty(s2, o2), g.dirs))


# -- estimates --------------------------------------------------------------------------------
def _rng(state: GameState) -> Random:
    return Random(f"review|{state.size}|{state.board}|{state.to_move}|{state.scores}")


def _root_moves(pos, settings: SearchSettings, played: tuple[int, bool]) -> list[tuple[int, bool]]:
    """The candidate moves, the played one first (so every other is compared with it)."""
    moves, _safe = pos.moves(settings.root_width)
    return [played] + [m for m in moves if m != played]


def _deepen(pos, moves, evaluate, max_depth: int) -> dict[tuple[int, bool], object]:
    """Iterative deepening over the root moves: each depth evaluates every move
    (``evaluate(move, depth)``); returns the values of the last depth finished. Depth 1 is
    always finished, whatever the budget."""
    found: dict = {}
    for depth in range(1, max_depth + 1):
        values = {}
        limits = pos.budget.deadline, pos.budget.max_nodes
        if depth == 1:
            pos.budget.deadline = pos.budget.max_nodes = None
        try:
            for move in moves:
                values[move] = evaluate(move, depth)
        except OutOfBudget:
            break
        finally:
            pos.budget.deadline, pos.budget.max_nodes = limits
        found = values
        if depth >= pos.empty:  # the game's end is seen
            break
    return found


def _estimate_two(state: GameState, index: int, move: Move, budget: ReviewBudget,
                  deadline: float | None) -> MoveReview:
    """Two players: the heuristic search's value of the played move and of the best of its
    candidate moves, each searched with a full window to the same depth."""
    settings = budget.search
    search = TwoPlayerSearch(state, settings, _rng(state), deadline)
    pos, mover = search.pos, state.to_move
    played = pos.bits(move)
    base = state.scores[mover] - state.scores[1 - mover]

    def evaluate(candidate, depth):
        bit, is_s = candidate
        gained = pos.play(bit, is_s, mover)
        try:
            if pos.simple and gained:
                return WIN + depth
            return search.search(depth - 1, -INFINITY, INFINITY, mover if gained else 1 - mover)
        finally:
            pos.undo(bit, mover, gained)

    values = _deepen(pos, _root_moves(pos, settings, played), evaluate, settings.max_depth)

    def value_of(raw: float) -> float:
        if pos.simple:
            return 1.0 if raw >= WIN else -1.0 if raw <= -WIN else 0.0
        return raw - base

    best_move = max(values, key=lambda m: values[m])  # the played move first among equals
    played_value, best_value = value_of(values[played]), value_of(values[best_move])
    if best_value <= played_value:
        best_move, best_value = played, played_value
    return MoveReview(index, mover, move, pos.move(*best_move), played_value, best_value, False,
                      state.mode, _advantage(state, mover, played_value), 2, hands_over(state, move))


class _OwnScore(MaxNSearch):
    """max^n where each player maximises their own final score (or win mark)."""

    @staticmethod
    def utility(values: list[float], player: int) -> float:
        return values[player]


def _estimate_many(state: GameState, index: int, move: Move, budget: ReviewBudget,
                   deadline: float | None) -> MoveReview:
    """Three or more players: the max^n search's value of each candidate move for the mover."""
    settings = budget.search_many
    search = _OwnScore(state, settings, _rng(state), deadline)
    pos, mover, n = search.pos, state.to_move, state.players
    played = pos.bits(move)

    def evaluate(candidate, depth):
        bit, is_s = candidate
        gained = pos.play(bit, is_s, mover)
        try:
            if pos.simple and gained:
                return search.winner(mover, depth)
            if pos.empty == 0:
                return [0.0] * n if pos.simple else [float(s) for s in pos.scores]
            return search.search(depth - 1, mover if gained else (mover + 1) % n)
        finally:
            pos.undo(bit, mover, gained)

    vectors = _deepen(pos, _root_moves(pos, settings, played), evaluate, settings.max_depth)

    def value_of(values: list[float]) -> float:
        if pos.simple:
            if values[mover] > 0:
                return 1.0
            return -1.0 if any(v > 0 for p, v in enumerate(values) if p != mover) else 0.0
        return values[mover] - state.scores[mover]

    best_move = max(vectors, key=lambda m: value_of(vectors[m]))
    played_value, best_value = value_of(vectors[played]), value_of(vectors[best_move])
    if best_value <= played_value:
        best_move, best_value = played, played_value
    after = vectors[played]
    if pos.simple:
        advantage = 1.0 if after[0] > 0 else -1.0 if any(v > 0 for v in after[1:]) else 0.0
    else:
        advantage = after[0] - max(after[1:])
    return MoveReview(index, mover, move, pos.move(*best_move), played_value, best_value, False,
                      state.mode, advantage, n, hands_over(state, move))


# -- text -------------------------------------------------------------------------------------
def key_moments(reviews, count: int = 3) -> list[MoveReview]:
    """The ``count`` marked moves that gave away the most, biggest first, earliest first among
    equals."""
    costly = [r for r in reviews if r.judgement != BEST]
    return sorted(costly, key=lambda r: (-r.loss, r.index))[:count]


def legend(mode: Mode | str, players: int = 2) -> str:
    """What the marks mean, in the player's language."""
    if Mode(mode) is Mode.GENERAL and players == 2:
        return _("Marks: ! best, ?! inaccuracy (the margin, your score minus the other's, drops by 1), "
                 "? mistake (by 2-3), ?? blunder (by 4 or more); ~ an estimate, marked only beyond "
                 "its noise")
    if Mode(mode) is Mode.GENERAL:
        return _("Marks: ! best, ?! inaccuracy (loses 1 of your points), ? mistake (2-3), "
                 "?? blunder (4 or more); ~ an estimate, marked only beyond its noise")
    return _("Marks: ! best, ? mistake (win to draw, or draw to loss), ?? blunder (win to loss); "
             "~ an estimate, marked only when the move hands over an SOS")


def loss_words(review: MoveReview) -> str:
    """``loses 3 in margin``, ``loses ~2 points``, ``loses 1 result step``: the loss in its unit."""
    n, approx = review.points, "" if review.exact else "~"
    if review.mode is Mode.GENERAL and review.players == 2:
        text = _("loses {approx}{n} in margin")
    elif review.mode is Mode.GENERAL:
        text = ngettext("loses {approx}{n} point", "loses {approx}{n} points", n)
    else:
        text = ngettext("loses {approx}{n} result step", "loses {approx}{n} result steps", n)
    return text.format(approx=approx, n=n)


def describe(review: MoveReview) -> str:
    """``"?  loses 2 in margin, best O c3"``, ``"!"``, with ``~`` before an estimated loss; an
    estimate within its noise gets no mark and says so; in the player's language (the mark and
    the move are notation)."""
    if not review.points:
        return review.mark
    if review.judgement == BEST:  # an estimate within its noise
        return "   " + _("unclear: {loss}, best {best}?").format(loss=loss_words(review), best=review.best)
    return f"{review.mark:<2} " + _("{loss}, best {best}").format(loss=loss_words(review), best=review.best)


def annotated_transcript(record: GameRecord, reviews) -> str:
    """The game's transcript (``engine.transcript``) with each move's mark, loss and best move,
    and the key moments, in the player's language. Names are printed as data (``printable``)."""
    from sos_tui.engine import printable, transcript

    reviews = {r.index: r for r in reviews}
    plain = transcript(record, tr=_).splitlines()
    started = _("Started: {time}").format(time=record.started)
    state = record.state
    shown = [printable(p.name) for p in record.players]
    width = len(str(len(record.moves)))
    out, number = [], 0
    for line in plain:
        if number < len(record.moves) and line.startswith(f"{number + 1:>{width}}. "):
            review = reviews.get(number)
            out.append(f"{line:<{width + 24}} {describe(review)}" if review else line)
            number += 1
        else:
            out.append(line)
        if line == started:
            out.append(legend(record.mode, state.players))
    moments = key_moments(reviews.values())
    out.append(_("Key moments:") if moments else _("Key moments: none, every move was best"))
    out += [f"  {r.index + 1}. {shown[r.player]}: {r.move}  {describe(r)}" for r in moments]
    out += [accuracy_line(shown[a.player], a) for a in accuracies(reviews.values(), state.players) if a.moves]
    missing = state.move_count - len(reviews)
    if missing:
        # Translators: {moves} is "{n} move" / "{n} moves"
        moves = ngettext("{n} move", "{n} moves", missing).format(n=missing)
        out.append(_("({moves} not reviewed)").format(moves=moves))
    return "\n".join(out) + "\n"


def accuracy_line(name: str, accuracy: Accuracy) -> str:
    """``Accuracy of Ana: 92% (1 inaccuracy, 0 mistakes, 1 blunder)``, ``~92%`` when estimated."""
    percent = f"{'' if accuracy.exact else '~'}{accuracy.percent:.0f}%"
    n = accuracy.inaccuracies, accuracy.mistakes, accuracy.blunders
    return _("Accuracy of {name}: {percent} ({inaccuracies}, {mistakes}, {blunders})").format(
        name=name, percent=percent,
        inaccuracies=ngettext("{n} inaccuracy", "{n} inaccuracies", n[0]).format(n=n[0]),
        mistakes=ngettext("{n} mistake", "{n} mistakes", n[1]).format(n=n[1]),
        blunders=ngettext("{n} blunder", "{n} blunders", n[2]).format(n=n[2]))


def review_json(reviews, players: int | None = None) -> dict:
    """The ``sos-review`` document of the CLI's ``--json``: every move, and each player's accuracy
    (``players``, added without a new version: readers of version 1 skip it)."""
    reviews = list(reviews)
    players = players or 1 + max((r.player for r in reviews), default=1)
    return {"format": "sos-review", "version": 1, "moves": [r.to_dict() for r in reviews],
            "players": [a.to_dict() for a in accuracies(reviews, players)]}
