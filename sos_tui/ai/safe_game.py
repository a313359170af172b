"""The guides of hard and expert in two-player simple mode: searches of the safe-move game.

In simple mode a move that leaves a threat loses at once, so the game is one of safe moves:
whoever has none left must hand over an SOS and loses (on a board without a threat nothing
scores, so the last safe move wins); a full board is a draw. Two searches of that game, both
full width (every safe move) on padded bitmask boards, both valuing a position by seeded random
games of safe moves (``safe_playout``):

- ``SafeGameSearch`` (hard): alpha-beta with iterative deepening and a table keyed by the board;
  a leaf is valued by a few playouts, and a win or loss met on the way is exact (+/-SURE).
- ``MonteCarloSearch`` (expert): a Monte Carlo tree search (UCT) that grows the tree where the
  playouts say the game is decided, and proves results on the way (an MCTS-Solver: a position
  with a move to a lost position is won; one whose every move reaches a won position is lost).
  A few playouts at a fixed depth only count the parity of what random play leaves; thousands
  of playouts steered by their own statistics weigh each move by how the whole game goes on. On
  6x6, as the first player against hard, it raised expert's score from 52.5% to 90.0% over 100
  games (docs/ai.md).
"""

from __future__ import annotations

import math
from random import Random

from .bitboard import cell_moves, grid, place, safe_playout, safe_sets
from .budget import Budget, OutOfBudget
from .table import Table

SURE = 1000  # a proven win; a leaf's estimate is at most PLAYOUTS
PLAYOUTS = 3


class SafeGameSearch:
    """One search, for boards of ``size``; ``seed`` seeds the playouts (with the position)."""

    def __init__(self, size: int, seed: int = 0, deadline: float | None = None,
                 max_nodes: int | None = None):
        self.grid = grid(size)
        self.seed = seed
        self.budget = Budget(deadline, max_nodes)
        self.table = Table(SURE + 1)
        self.estimates: dict[int, int] = {}

    def best(self, board: str, max_depth: int) -> tuple[int, int, str] | None:
        """``(value, cell, letter)`` of the best safe move on a board without a threat, or None
        if no move is safe. Within the budget the best move so far is kept (OutOfBudget only if
        not even one root move was searched); a proven loss keeps the move of the last depth
        that still had hope."""
        g = self.grid
        s, o = g.masks(board)
        empty = g.empty(s, o)
        moves = cell_moves(*safe_sets(s, o, empty, g.dirs))
        if not moves:
            return None
        best = None
        for depth in range(1, max_depth + 1):
            alpha, found = -SURE - 1, None
            try:
                for bit, is_s in moves:
                    v = -self._search(*place(s, o, bit, is_s), depth - 1, -SURE - 1, -alpha)
                    if v > alpha:
                        alpha, found = v, (v, bit, is_s)
            except OutOfBudget:
                if found is not None and (best is None or found[0] > -SURE):
                    best = found
                if best is None:
                    raise
                break
            if found[0] <= -SURE and best is not None:
                break  # every move loses against perfect play: keep the last hopeful choice
            best = found
            moves.remove(found[1:])
            moves.insert(0, found[1:])
            if abs(found[0]) >= SURE or depth >= empty.bit_count():
                break
        value, bit, is_s = best
        return value, g.cell(bit), "S" if is_s else "O"

    def _estimate(self, s: int, o: int, key: int) -> int:
        """The sum over PLAYOUTS random games of safe moves from here of +1 (the mover made the
        last safe move: the opponent must hand over an SOS), -1 (the other way round) or 0 (the
        board filled up). On 6x6 this predicted the exact result of positions with 16-24 safe
        moves about 4 times in 5; the parity of the number of safe cells, about half the time."""
        known = self.estimates.get(key)
        if known is not None:
            return known
        rng = Random(key ^ self.seed)
        total = steps = 0
        for _ in range(PLAYOUTS):
            made, filled = safe_playout(s, o, self.grid, rng)
            steps += made
            if not filled:
                total += 1 if made & 1 else -1
        self.budget.charge(steps)  # a playout move costs about what a search node does
        self.estimates[key] = total
        return total

    def _search(self, s: int, o: int, depth: int, alpha: int, beta: int) -> int:
        self.budget.tick()
        g = self.grid
        empty = g.empty(s, o)
        if not empty & (empty - 1):
            return 0  # the last cell: a draw
        key = s | (o << g.bits)
        known, alpha, beta, first = self.table.probe(key, depth, alpha, beta)
        if known is not None:
            return known
        safe_s, safe_o = safe_sets(s, o, empty, g.dirs)
        if not safe_s | safe_o:
            return -SURE
        if depth <= 0:
            return self._estimate(s, o, key)
        a0 = alpha
        best, best_move = -SURE - 1, None
        order = cell_moves(safe_s, safe_o)
        if first is not None:
            order.insert(0, first)
        for move in order:
            v = -self._search(*place(s, o, *move), depth - 1, -beta, -alpha)
            if v > best:
                best, best_move = v, move
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        # a proven result holds at any depth
        self.table.store(key, 999 if abs(best) >= SURE else depth, best, a0, beta, best_move)
        return best


def _codes(cells_s: int, cells_o: int) -> list[int]:
    """The moves of ``cell_moves``, in its order, each as one int: twice the bit's position, plus
    one for an S. A tree holds thousands of these lists: small ints take a tenth of the memory
    of (bit, letter) pairs."""
    return [2 * (bit.bit_length() - 1) + is_s for bit, is_s in cell_moves(cells_s, cells_o)]


class _Node:
    """A position of the Monte Carlo tree: ``wins`` sums the playout results (+1 won, -1 lost,
    0 drawn) for the player to move here over ``visits``; ``proven`` is +/-SURE or 0 once the
    result under perfect play is known, else None. Moves are ``_codes``."""

    __slots__ = ("s", "o", "untried", "children", "visits", "wins", "proven")

    def __init__(self, s: int, o: int, search: MonteCarloSearch):
        g = search.grid
        self.s, self.o = s, o
        self.children: list[tuple[int, _Node]] = []
        self.visits, self.wins = 0, 0
        self.proven: int | None = None
        empty = g.empty(s, o)
        self.untried = _codes(*safe_sets(s, o, empty, g.dirs)) if empty else []
        if not empty:
            self.proven = 0  # full: a draw (the last cell is always safe: no threat is left)
        elif not self.untried:
            self.proven = -SURE  # no safe move: the mover hands over an SOS
        search.rng.shuffle(self.untried)


class MonteCarloSearch:
    """One Monte Carlo tree search for boards of ``size``: every iteration walks down the tree by
    UCB1 (``exploration`` weighs the less visited moves), adds one position, plays one random game
    of safe moves from it and counts the result on the way back. The budget counts an iteration
    and each playout move as a node; within it the result depends only on ``seed`` and the board."""

    def __init__(self, size: int, seed: int = 0, deadline: float | None = None,
                 max_nodes: int | None = None, exploration: float = 0.6):
        self.grid = grid(size)
        self.rng = Random(seed)
        self.budget = Budget(deadline, max_nodes)
        self.exploration = exploration

    def best(self, board: str) -> tuple[float, int, str] | None:
        """``(value, cell, letter)`` of the chosen safe move on a board without a threat, or None
        if no move is safe. The value is SURE for a proven win, -SURE if every move loses against
        perfect play (then the most tried one, which random play lost least often), else the
        mean playout result for the mover, from -1 to 1. The chosen move is a proven win if one
        is found, else the most tried move not proven to lose."""
        root = _Node(*self.grid.masks(board), self)
        if not root.untried:
            return None
        try:
            while root.proven is None:
                self._iterate(root)
        except OutOfBudget:
            pass
        if not root.children:
            move, value = root.untried[-1], 0.0
        else:
            def rank(child: tuple[int, _Node]) -> tuple:
                node = child[1]
                return node.proven == -SURE, node.proven != SURE, node.visits, -node.wins
            move, node = max(root.children, key=rank)
            if node.proven is not None:
                value = -node.proven
            else:
                value = -node.wins / node.visits if node.visits else 0.0
        return value, self.grid.cell(1 << (move >> 1)), "S" if move & 1 else "O"

    def _iterate(self, root: _Node):
        path, node = [root], root
        while node.proven is None and not node.untried:  # down the tree, by UCB1
            log_visits, best, chosen = math.log(node.visits), -math.inf, None
            for _, child in node.children:
                if child.proven == SURE:
                    continue  # a move to a position the other player wins
                if not child.visits:
                    chosen = child
                    break
                ucb = -child.wins / child.visits + self.exploration * math.sqrt(log_visits / child.visits)
                if ucb > best:
                    best, chosen = ucb, child
            node = chosen
            path.append(node)
        if node.proven is None:  # a new position
            move = node.untried.pop()
            child = _Node(*place(node.s, node.o, 1 << (move >> 1), move & 1), self)
            node.children.append((move, child))
            node = child
            path.append(node)
        self.budget.tick()
        if node.proven is not None:
            result = (node.proven > 0) - (node.proven < 0)
        else:
            made, filled = safe_playout(node.s, node.o, self.grid, self.rng)
            self.budget.charge(made)
            result = 0 if filled else (1 if made & 1 else -1)  # the last safe move wins
        for step in reversed(path):  # each result for the player to move at its node
            step.visits += 1
            step.wins += result
            result = -result
        for step in reversed(path[:-1]):  # what the new result proves, bottom up
            if step.proven is not None:
                break
            values = [child.proven for _, child in step.children]
            if -SURE in values:
                step.proven = SURE
            elif step.untried or None in values:
                break
            else:
                step.proven = max(-value for value in values)
