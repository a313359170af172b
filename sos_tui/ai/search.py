"""Heuristic game-tree search for the hard and expert players.

The board being searched is a padded bitmask board (``bitboard.py``; write a letter, search, erase
it): a ``SearchBoard`` holds it with the scores, and generates the moves. Two small searches use it:
``TwoPlayerSearch`` (alpha-beta; values are the root player's score minus the other's in general
mode, +/-WIN in simple mode) and ``MaxNSearch`` for three or more players (every player is
assumed to play for itself: a node's value is every player's estimated score, or win mark, and
the player to move picks the child best for itself: its own value minus the best other one).
Both deepen iteratively and keep the best move of the last finished depth (or a better one
already proven at the unfinished depth) when the budget runs out.

The branching factor is cut the way the game suggests:
- a scoring move keeps the turn, so scoring moves are searched first, and at the horizon the
  mover takes everything on offer greedily (a quiescence search of chains). With ``blocks``,
  a few moves that decline an SOS are searched too: the other letter in the offered cell,
  where it scores nothing and makes no threat;
- otherwise only safe moves (no threat left behind), at most ``width`` of them, and with
  ``sacrifices_too`` a few of the cheapest real sacrifices;
- with no safe move, the least bad sacrifices first: those handing over the shortest greedy
  chain (``bitboard.sacrifice_costs``). At the horizon the mover who must sacrifice is charged
  that chain.
- a parity term: whoever faces a board without safe moves must give something away, so an odd
  number of safe cells left is good for the player to move. With ``playouts`` (general mode, two
  players) the horizon instead adds ``playout_weight`` times the average margin of a few seeded
  random games of reasonable moves (``bitboard.general_playout``) while more than
  ``playouts_above`` cells have a safe letter.
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random

from sos_tui.engine.rules import GameState, Mode, Move

from .bitboard import (
    cell_moves,
    fewest_threats,
    general_playout,
    grid,
    neighbours,
    points,
    sacrifice_costs,
    safe_sets,
    scoring,
    wins,
)
from .budget import Budget, OutOfBudget
from .table import Table

WIN = 10_000
INFINITY = WIN * 10
PARITY = 0.5  # the value of having an odd number of safe cells to move on


@dataclass(frozen=True)
class SearchSettings:
    """How far and how wide a level searches. A time limit may cut the budgets short."""

    max_depth: int
    max_nodes: int
    width: int  # safe moves searched at a node (sampled when there are more)
    root_width: int  # the same at the root
    sacrifices_too: int = 0  # real sacrifices searched beside the safe moves (general mode)
    blocks: int = 0  # moves declining an SOS on offer (general mode)
    playouts: int = 0  # random games valuing a horizon (general mode, two players)
    playout_weight: float = 1.0
    playouts_above: int = 0  # only while more than this many cells have a safe letter


class SearchBoard:
    """The board a search writes into (a bitboard: ``s`` and ``o``), the scores, the budget,
    and the moves to search. A move is ``(cell bit, is it an S)``."""

    def __init__(self, state: GameState, settings: SearchSettings, rng: Random, deadline: float | None):
        self.settings, self.rng = settings, rng
        self.grid = grid(state.size)
        self.near = neighbours(state.size)
        self.s, self.o = self.grid.masks(state.board)
        self.scores = list(state.scores)
        self.players = state.players
        self.simple = state.mode is Mode.SIMPLE
        self.empty = state.empty_cells
        # a node costs about a scan of the board: look at the clock more often on big boards
        self.budget = Budget(deadline, settings.max_nodes, 255 if state.size <= 10 else 15)
        self.costs: dict[int, list[tuple[int, int, bool]]] = {}

    @property
    def key(self) -> int:
        """The board as one int."""
        return self.s | (self.o << self.grid.bits)

    def move(self, bit: int, is_s: bool) -> Move:
        """The engine's move for a search move."""
        return Move(*divmod(self.grid.cell(bit), self.grid.size), "S" if is_s else "O")

    def bits(self, move: Move) -> tuple[int, bool]:
        """The search move for an engine move."""
        return self.grid.bit(move.row * self.grid.size + move.col), move.letter == "S"

    def play(self, bit: int, is_s: bool, mover: int) -> int:
        gained = points(self.s, self.o, bit, is_s, self.grid.dirs)
        if is_s:
            self.s |= bit
        else:
            self.o |= bit
        self.scores[mover] += gained
        self.empty -= 1
        return gained

    def undo(self, bit: int, mover: int, gained: int):
        self.s &= ~bit
        self.o &= ~bit
        self.scores[mover] -= gained
        self.empty += 1

    def on_offer(self) -> bool:
        """Whether anything scores now."""
        return any(wins(self.s, self.o, self.grid.empty(self.s, self.o), self.grid.dirs))

    def take_offers(self, mover: int) -> list[tuple[int, int]]:
        """The mover takes every SOS on offer, chains included; returns what to give back.
        After a move only the cells that share a line with it can change, and a letter that
        scores still scores while its cell is empty."""
        taken = []
        try:
            scores_now = scoring(self.s, self.o, self.grid.empty(self.s, self.o), self.grid.dirs)
            offers = [(bit, is_s) for _, bit, is_s in scores_now]
            while offers:
                bit, is_s = offers.pop()
                if (self.s | self.o) & bit:
                    continue
                self.budget.tick()
                taken.append((bit, self.play(bit, is_s, mover)))
                near = self.grid.empty(self.s, self.o) & self.near[bit]
                offers += cell_moves(*wins(self.s, self.o, near, self.grid.dirs))
        except OutOfBudget:
            self.give_back(taken, mover)
            raise
        return taken

    def give_back(self, taken: list[tuple[int, int]], mover: int):
        for bit, gained in reversed(taken):
            self.undo(bit, mover, gained)

    def sacrifices(self) -> list[tuple[int, int, bool]]:
        """Every ``(cost, bit, is_s)``, cheapest first: the greedy chain each hands over.
        Kept per board; each move looked at counts as a node."""
        known = self.costs.get(self.key)
        if known is None:
            known = self.costs[self.key] = sacrifice_costs(self.s, self.o, self.grid)
            self.budget.nodes += len(known)  # checked at the next node, never at the root
        return known

    def cheapest_sacrifice(self) -> int:
        return self.sacrifices()[0][0]

    def safe_cells(self) -> tuple[list[tuple[int, bool]], int]:
        """The safe moves, and how many cells have a safe letter."""
        safe_s, safe_o = safe_sets(self.s, self.o, self.grid.empty(self.s, self.o), self.grid.dirs)
        return cell_moves(safe_s, safe_o), (safe_s | safe_o).bit_count()

    def safe_cell_count(self) -> int:
        """How many cells have a safe letter (none: no safe move), without listing the moves."""
        safe_s, safe_o = safe_sets(self.s, self.o, self.grid.empty(self.s, self.o), self.grid.dirs)
        return (safe_s | safe_o).bit_count()

    def moves(self, width: int) -> tuple[list[tuple[int, bool]], bool]:
        """Candidate moves, and whether an SOS is on offer (then they score, but for blocks)."""
        s, o, g = self.s, self.o, self.grid
        empty = g.empty(s, o)
        offer = scoring(s, o, empty, g.dirs)
        if offer:
            moves = [(bit, is_s) for _, bit, is_s in offer[:max(2, width // 3)]]
            if self.settings.blocks and not self.simple:
                moves += self._blocks(offer, empty)
            return moves, True
        safe = cell_moves(*safe_sets(s, o, empty, g.dirs))
        if safe:
            if len(safe) > width:
                safe = self.rng.sample(safe, width)
            if self.settings.sacrifices_too and not self.simple:
                # a small sacrifice can hand the other player the last safe move, and with it the
                # first big sacrifice: a few of the cheapest real ones (not safe moves again)
                least = cell_moves(*fewest_threats(s, o, empty, g.dirs))
                if len(least) > self.settings.sacrifices_too:
                    least = self.rng.sample(least, self.settings.sacrifices_too)
                safe += least
            return safe, False
        return [(bit, is_s) for _, bit, is_s in self.sacrifices()[:width]], False

    def _blocks(self, offer: list[tuple[int, int, bool]], empty: int) -> list[tuple[int, bool]]:
        """Up to ``blocks`` moves that fill an offered cell with the letter that scores nothing
        there and makes no new threat. Declining an SOS this way passes the turn: once no safe
        move is left, the other player must then sacrifice, which can be worth more."""
        s, o, dirs = self.s, self.o, self.grid.dirs
        win_s, win_o = wins(s, o, empty, dirs)
        safe_s, safe_o = safe_sets(s, o, empty, dirs)
        allowed = {True: safe_s & ~win_s, False: safe_o & ~win_o}
        found = [(bit, is_s) for bit in dict.fromkeys(bit for _, bit, _ in offer) for is_s in (True, False)
                 if allowed[is_s] & bit]
        if len(found) > self.settings.blocks:
            found = self.rng.sample(found, self.settings.blocks)
        return found


class _Deepening:
    """The root loop both searches share: iterative deepening over the root moves."""

    def __init__(self, state: GameState, settings: SearchSettings, rng: Random, deadline: float | None):
        self.pos = SearchBoard(state, settings, rng, deadline)
        self.root = state.to_move
        self.max_depth = settings.max_depth
        self.root_width = settings.root_width

    def root_value(self, depth: int, alpha: float, mover: int) -> float:
        raise NotImplementedError

    def choose(self) -> tuple[int, str]:
        """The best root move found within the depth, width, time and node limits."""
        pos, mover = self.pos, self.root
        moves, scoring = pos.moves(self.root_width)
        if scoring and pos.simple:
            return moves[0]
        best = moves[0]
        if len(moves) == 1:
            return best
        for depth in range(1, self.max_depth + 1):
            alpha, found = -INFINITY, None
            try:
                for bit, is_s in moves:
                    gained = pos.play(bit, is_s, mover)
                    try:
                        value = self.root_value(depth - 1, alpha, mover if gained else self.next(mover))
                    finally:
                        pos.undo(bit, mover, gained)
                    if value > alpha:
                        alpha, found = value, (bit, is_s)
            except OutOfBudget:
                if found is not None:
                    best = found
                break
            best = found
            moves.remove(best)
            moves.insert(0, best)
            if alpha >= WIN or depth >= pos.empty:  # a forced win, or the game's end is seen
                break
        return best

    def next(self, mover: int) -> int:
        return (mover + 1) % self.pos.players


class TwoPlayerSearch(_Deepening):
    """Alpha-beta; values are the root player's (margin in general mode, +/-WIN in simple)."""

    def __init__(self, state: GameState, settings: SearchSettings, rng: Random, deadline: float | None):
        super().__init__(state, settings, rng, deadline)
        self.table = Table(INFINITY)
        self.playouts = 0 if self.pos.simple else settings.playouts
        if self.playouts:
            self.seed = rng.getrandbits(32)
            self.estimates: dict[int, float] = {}

    def root_value(self, depth: int, alpha: float, mover: int) -> float:
        return self.search(depth, alpha, INFINITY, mover)

    def side(self, mover: int) -> int:
        return 1 if mover == self.root else -1

    def margin(self) -> int:
        scores = self.pos.scores
        return scores[self.root] - scores[1 - self.root]

    def search(self, depth: int, alpha: float, beta: float, mover: int) -> float:
        pos = self.pos
        pos.budget.tick()
        if pos.empty == 0:
            return 0 if pos.simple else self.margin()
        if pos.simple:
            return self.search_simple(depth, alpha, beta, mover)
        if depth <= 0:
            return self.horizon(mover)
        key = (pos.key, mover, pos.scores[1 - self.root] - pos.scores[self.root])
        known, _, _, first = self.table.probe(key, depth, alpha, beta)
        if known is not None:
            return known
        moves, _ = pos.moves(self.pos.settings.width)
        if first is not None and first in moves:
            moves.remove(first)
            moves.insert(0, first)
        maximising = mover == self.root
        a0, b0 = alpha, beta
        best, best_move = (-INFINITY if maximising else INFINITY), moves[0]
        for bit, is_s in moves:
            gained = pos.play(bit, is_s, mover)
            try:
                value = self.search(depth - 1, alpha, beta, mover if gained else 1 - mover)
            finally:
                pos.undo(bit, mover, gained)
            if maximising:
                if value > best:
                    best, best_move = value, (bit, is_s)
                    alpha = max(alpha, value)
            elif value < best:
                best, best_move = value, (bit, is_s)
                beta = min(beta, value)
            if alpha >= beta:
                break
        self.table.store(key, depth, best, a0, b0, best_move)
        return best

    def search_simple(self, depth: int, alpha: float, beta: float, mover: int) -> float:
        pos = self.pos
        if pos.on_offer():
            return self.side(mover) * (WIN + depth)
        safe, cells = pos.safe_cells()
        if not safe:  # every move hands the other player an SOS
            return -self.side(mover) * (WIN + depth)
        if depth <= 0:
            return self.side(mover) * (1 if cells % 2 else -1)
        if len(safe) > pos.settings.width:
            safe = pos.rng.sample(safe, pos.settings.width)
        maximising = mover == self.root
        best = -INFINITY if maximising else INFINITY
        for bit, is_s in safe:
            pos.play(bit, is_s, mover)
            try:
                value = self.search(depth - 1, alpha, beta, 1 - mover)
            finally:
                pos.undo(bit, mover, 0)
            if maximising:
                best = max(best, value)
                alpha = max(alpha, value)
            else:
                best = min(best, value)
                beta = min(beta, value)
            if alpha >= beta:
                break
        return best

    def horizon(self, mover: int) -> float:
        """General mode: the mover takes what is on offer; then playouts, the parity of the safe
        cells, or the greedy chain the mover must hand over if no move is safe."""
        pos = self.pos
        taken = pos.take_offers(mover)
        try:
            value = float(self.margin())
            if pos.empty:
                cells = pos.safe_cell_count()
                if self.playouts and cells > pos.settings.playouts_above:
                    value += self.side(mover) * pos.settings.playout_weight * self.playout_value()
                elif cells:
                    value += self.side(mover) * (PARITY if cells % 2 else -PARITY)
                else:
                    value -= self.side(mover) * pos.cheapest_sacrifice()
        finally:
            pos.give_back(taken, mover)
        return value

    def playout_value(self) -> float:
        """The mover's average margin over a few seeded random games from here (nothing on
        offer now). Each playout move counts as a node."""
        pos = self.pos
        key = pos.key
        known = self.estimates.get(key)
        if known is not None:
            return known
        rng = Random(key ^ self.seed)
        total = steps = 0
        for _ in range(self.playouts):
            margin, moves = general_playout(pos.s, pos.o, pos.grid, rng)
            total += margin
            steps += moves
        pos.budget.charge(steps)
        value = self.estimates[key] = total / self.playouts
        return value


class MaxNSearch(_Deepening):
    """Three or more players: max^n, no alpha-beta (so the budgets for 3+ players are smaller)."""

    def root_value(self, depth: int, alpha: float, mover: int) -> float:
        return self.utility(self.search(depth, mover), self.root)

    @staticmethod
    def utility(values: list[float], player: int) -> float:
        """What ``player`` wants: its own (estimated) score minus the best other one."""
        return values[player] - max(v for p, v in enumerate(values) if p != player)

    def search(self, depth: int, mover: int) -> list[float]:
        """Every player's estimated final score (general) or win mark (simple), where each
        player in turn picks the move best for itself."""
        pos = self.pos
        pos.budget.tick()
        n = pos.players
        if pos.empty == 0:
            return [0.0] * n if pos.simple else [float(s) for s in pos.scores]
        if pos.simple:
            if pos.on_offer():
                return self.winner(mover, depth)
            moves, cells = pos.safe_cells()
            if not moves:  # every move hands the next player an SOS
                return self.winner(self.next(mover), depth)
            if depth <= 0:  # whoever is to move when the safe moves run out hands over the win
                values = [0.0] * n
                values[(mover + cells + 1) % n] = 1.0
                return values
            if len(moves) > pos.settings.width:
                moves = pos.rng.sample(moves, pos.settings.width)
        elif depth <= 0:
            return self.horizon(mover)
        else:
            moves, _ = pos.moves(pos.settings.width)
        best, best_utility = None, None
        for bit, is_s in moves:
            gained = pos.play(bit, is_s, mover)
            try:
                values = self.search(depth - 1, mover if gained else self.next(mover))
            finally:
                pos.undo(bit, mover, gained)
            utility = self.utility(values, mover)
            if best is None or utility > best_utility:
                best, best_utility = values, utility
        return best

    def winner(self, player: int, depth: int) -> list[float]:
        values = [0.0] * self.pos.players
        values[player] = float(WIN + depth)  # a sooner win is worth more
        return values

    def horizon(self, mover: int) -> list[float]:
        """The scores once the mover has taken what is on offer; the next player gains the
        cheapest sacrifice if the mover has no safe move, and otherwise whoever will run out of
        safe moves first (by their count) loses PARITY."""
        pos = self.pos
        taken = pos.take_offers(mover)
        try:
            values = [float(s) for s in pos.scores]
            if pos.empty:
                cells = pos.safe_cell_count()
                if cells:
                    values[(mover + cells) % pos.players] -= PARITY
                else:
                    values[self.next(mover)] += pos.cheapest_sacrifice()
        finally:
            pos.give_back(taken, mover)
        return values


def search_move(state: GameState, settings: SearchSettings, rng: Random,
                deadline: float | None = None) -> Move:
    """The move the search picks: TwoPlayerSearch for two players, MaxNSearch for more (counting
    the seats still in: the searches take turns in seat order)."""
    state, _seats = state.among_still_in()
    kind = TwoPlayerSearch if state.players == 2 else MaxNSearch
    search = kind(state, settings, rng, deadline)
    return search.pos.move(*search.choose())
