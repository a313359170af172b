"""Heuristic game-tree search for the hard and expert players.

Alpha-beta over a mutable copy of the board (write a letter, search, erase it), iterative
deepening, and a clock checked every few hundred nodes: when time or the node budget runs out,
the best move of the last finished depth (or a better one already proven at the unfinished
depth) is returned, and one is ready after the first root move is looked at.

With two players values are from the root player's side: their score minus the other's
(general), or +/-WIN (simple), searched by alpha-beta. With 3+ players each player is assumed
to play for itself (max^n): a node's value is every player's estimated score (or win mark), and
the player to move picks the child best for itself: its own score minus the best other one.

The branching factor is cut the way the game suggests:
- a scoring move keeps the turn, so scoring moves are searched first, and at the horizon the
  mover takes everything on offer greedily (a quiescence search of chains). With ``blocks``,
  a few moves that decline an SOS are searched too: the other letter in the offered cell,
  where it scores nothing and makes no threat. In the sacrifice phase that passes the duty to
  give something away back to the other player, which can be worth more than the SOS;
- otherwise only safe moves (no threat left behind), at most ``width`` of them;
- with no safe move, the least bad sacrifices: fewest threats handed over first. At the horizon
  the mover who must sacrifice is charged for it.
- a parity term: whoever faces a board without safe moves must give something away, so an odd
  number of safe cells left is good for the player to move. With ``playouts`` (expert, general
  mode, two players) the horizon instead averages the margin of a few seeded random games of
  reasonable moves (take an SOS on offer, else a safe move, else a cheap sacrifice) while more
  than ``playouts_above`` safe cells remain. With fewer, random safe moves are a worse guide to
  who will run out of them first than the count of safe cells itself.
"""

from __future__ import annotations

import time
from random import Random

from sos_tui.engine.rules import EMPTY, GameState, Mode, Move

from .exact import OutOfBudget, one_threat, random_move, safe_sets
from .tactics import gain, geometry, is_safe, neighbours, sacrifices, safe_moves, scoring_moves, threats_made

WIN = 10_000


class Search:
    """One search from one position; build a new one per move."""

    def __init__(self, state: GameState, *, max_depth: int, width: int, root_width: int,
                 deadline: float | None = None, max_nodes: int | None = None,
                 rng: Random | None = None, use_table: bool = False, sacrifices_too: int = 0,
                 parity: float = 0.5, playouts: int = 0, playout_plies: int = 60,
                 playout_weight: float = 1.0, playouts_above: int = 0, blocks: int = 0):
        self.geo = geometry(state.size)
        self.board = list(state.board)
        self.scores = list(state.scores)
        self.players = state.players
        self.root = state.to_move
        self.simple = state.mode is Mode.SIMPLE
        self.empty = state.empty_cells
        self.max_depth, self.width, self.root_width = max_depth, width, root_width
        self.deadline, self.max_nodes = deadline, max_nodes
        self.rng = rng or Random(0)
        self.table: dict | None = {} if use_table else None
        self.sacrifices_too = sacrifices_too
        self.blocks = 0 if self.simple else blocks
        self.parity = parity
        # General mode, two players: value the horizon by random reasonable continuations
        self.playouts = playouts if (state.players == 2 and not self.simple) else 0
        self.playout_plies = playout_plies
        self.playout_weight = playout_weight
        self.playouts_above = playouts_above if self.playouts else len(self.board)
        if self.playouts:  # (hard draws nothing more from its generator than before)
            self.seed = self.rng.getrandbits(32)
            size = state.size
            width = size + 2
            self.pwidth = width
            self.valid = sum(((1 << size) - 1) << (r * width) for r in range(size))
            self.dirs = (1, width, width + 1, width - 1)
            self.pbits = size * width
            self.ptable: dict = {}
        self.nodes = 0
        self.depth_reached = 0
        # a node costs about a scan of the board: look at the clock more often on big boards
        self.check_every = 255 if len(self.board) <= 100 else 15

    # -- making and unmaking moves --------------------------------------------------------
    def _play(self, i: int, letter: str, mover: int) -> int:
        points = gain(self.board, self.geo, i, letter)
        self.board[i] = letter
        self.scores[mover] += points
        self.empty -= 1
        return points

    def _undo(self, i: int, mover: int, points: int):
        self.board[i] = EMPTY
        self.scores[mover] -= points
        self.empty += 1

    def _tick(self):
        self.nodes += 1
        if self.nodes & self.check_every == 0 and (
            (self.deadline is not None and time.perf_counter() > self.deadline)
            or (self.max_nodes is not None and self.nodes > self.max_nodes)
        ):
            raise OutOfBudget

    # -- evaluation -----------------------------------------------------------------------
    def _margin(self) -> int:
        scores, root = self.scores, self.root
        return scores[root] - max(s for p, s in enumerate(scores) if p != root)

    def _side(self, mover: int) -> int:
        return 1 if mover == self.root else -1

    def _take_offers(self, mover: int) -> list[tuple[int, int]]:
        """The mover takes every SOS on offer, chains included; returns what to undo. After a
        move only the cells that share a line with it can change, so only those are looked at
        again."""
        board, geo = self.board, self.geo
        taken = []
        try:
            offers = [(i, letter) for _, i, letter in scoring_moves(board, geo)]
            while offers:
                i, letter = offers.pop()
                if board[i] != EMPTY or not gain(board, geo, i, letter):
                    continue
                self._tick()
                taken.append((i, self._play(i, letter, mover)))
                offers.extend((j, other) for j in neighbours(geo, i) if board[j] == EMPTY
                              for other in "SO" if gain(board, geo, j, other))
        except OutOfBudget:
            self._give_back(taken, mover)
            raise
        return taken

    def _give_back(self, taken: list[tuple[int, int]], mover: int):
        for i, points in reversed(taken):
            self._undo(i, mover, points)

    def _cheapest_sacrifice(self) -> int:
        return min(threats_made(self.board, self.geo, i, letter)
                   for i, here in enumerate(self.board) if here == EMPTY for letter in "SO")

    def _horizon(self, mover: int) -> float:
        """General mode: the mover takes what is on offer; then playouts, the parity of the safe
        cells, or the cheapest sacrifice if the mover has no safe move."""
        taken = self._take_offers(mover)
        try:
            value = float(self._margin())
            if self.empty:
                safe = safe_moves(self.board, self.geo)
                cells = len({i for i, _ in safe})
                if cells > self.playouts_above:
                    value += self._side(mover) * self.playout_weight * self._playout_value()
                elif safe:
                    value += self._side(mover) * (self.parity if cells % 2 else -self.parity)
                else:
                    value -= self._side(mover) * self._cheapest_sacrifice()
        finally:
            self._give_back(taken, mover)
        return value

    def _playout_value(self) -> float:
        """The mover's average future margin over a few seeded random games of reasonable moves
        from here (nothing on offer now): take an SOS on offer, else a random safe move, else a
        random move leaving one threat (any move, if none does); to the end or ``playout_plies``
        moves. Each playout move counts as a node."""
        board, width = self.board, self.pwidth
        sp = op = 0
        size = self.geo.size
        for i, here in enumerate(board):
            if here != EMPTY:
                bit = 1 << ((i // size) * width + i % size)
                if here == "S":
                    sp |= bit
                else:
                    op |= bit
        key = sp | (op << self.pbits)
        known = self.ptable.get(key)
        if known is not None:
            return known
        rng = Random(key ^ self.seed)
        valid, dirs, pbits = self.valid, self.dirs, self.pbits
        total = 0
        steps = 0
        for _ in range(self.playouts):
            s, o, me, margin = sp, op, True, 0  # margin: the starting mover's points minus the other's
            for _ply in range(self.playout_plies):
                empty = valid & ~(s | o)
                if not empty:
                    break
                steps += 1
                win_s = win_o = 0
                for d in dirs:
                    d2 = 2 * d
                    win_s |= (o >> d) & (s >> d2) | (o << d) & (s << d2)
                    win_o |= (s >> d) & (s << d)
                win_s &= empty
                win_o &= empty
                if win_s | win_o:
                    cells, is_s = (win_s, True) if win_s else (win_o, False)
                    bit = cells & -cells
                    if is_s:
                        pts = sum(bool((o >> d) & (s >> 2 * d) & bit) + bool((o << d) & (s << 2 * d) & bit)
                                  for d in dirs)
                        s |= bit
                    else:
                        pts = sum(bool((s >> d) & (s << d) & bit) for d in dirs)
                        o |= bit
                    margin += pts if me else -pts
                    continue
                safe_s, safe_o = safe_sets(s, o, empty, dirs)
                if safe_s | safe_o:
                    bit, is_s = random_move(safe_s, safe_o, rng, pbits)
                    if is_s:
                        s |= bit
                    else:
                        o |= bit
                else:  # a random move leaving one threat (any move, if none does)
                    one_s, one_o = one_threat(s, o, empty, dirs)
                    if one_s | one_o:
                        bit, is_s = random_move(one_s, one_o, rng, pbits)
                    else:
                        bit, is_s = random_move(empty, empty, rng, pbits)
                    if is_s:
                        s |= bit
                    else:
                        o |= bit
                me = not me
            total += margin
        self.nodes += steps
        if (self.deadline is not None and time.perf_counter() > self.deadline) or (
                self.max_nodes is not None and self.nodes > self.max_nodes):
            raise OutOfBudget
        value = total / self.playouts
        self.ptable[key] = value
        return value

    # -- move lists -----------------------------------------------------------------------
    def _moves(self, width: int) -> tuple[list[tuple[int, str]], bool]:
        """Candidate moves, and whether an SOS is on offer (then they score, but for any blocks);
        in simple mode, a scoring move ends it."""
        offer = scoring_moves(self.board, self.geo)
        if offer:
            moves = [(i, letter) for _, i, letter in offer[:max(2, width // 3)]]
            if self.blocks:
                moves += self._blocks(offer)
            return moves, True
        safe = safe_moves(self.board, self.geo)
        if safe:
            if len(safe) > width:
                safe = self.rng.sample(safe, width)
            if self.sacrifices_too and not self.simple:
                # a small sacrifice can hand the other player the last safe move, and with it the
                # first big sacrifice: a few of the cheapest real ones (not safe moves again)
                real = [m for m in sacrifices(self.board, self.geo) if m[0]]
                least = [(i, letter) for made, i, letter in real if made == real[0][0]]
                if len(least) > self.sacrifices_too:
                    least = self.rng.sample(least, self.sacrifices_too)
                safe += least
            return safe, False
        return [(i, letter) for _, i, letter in sacrifices(self.board, self.geo)[:width]], False

    def _blocks(self, offer: list[tuple[int, int, str]]) -> list[tuple[int, str]]:
        """Up to ``blocks`` moves that fill an offered cell with the letter that scores nothing
        there and makes no new threat. Declining an SOS this way passes the turn: once no safe
        move is left, the other player must then sacrifice again, which can be worth more than
        the SOS."""
        board, geo = self.board, self.geo
        found = []
        for i in dict.fromkeys(i for _, i, _ in offer):
            for letter in "SO":
                if not gain(board, geo, i, letter) and is_safe(board, geo, i, letter):
                    found.append((i, letter))
        if len(found) > self.blocks:
            found = self.rng.sample(found, self.blocks)
        return found

    # -- the search -----------------------------------------------------------------------
    def _search(self, depth: int, alpha: float, beta: float, mover: int) -> float:
        self._tick()
        if self.empty == 0:
            return 0 if self.simple else self._margin()
        if self.simple:
            return self._search_simple(depth, alpha, beta, mover)
        if depth <= 0:
            return self._horizon(mover)
        key = None
        first = None
        if self.table is not None:
            key = ("".join(self.board), mover, tuple(s - self.scores[self.root] for s in self.scores))
            entry = self.table.get(key)
            if entry is not None:
                stored_depth, lo, hi, first = entry
                if stored_depth >= depth:
                    if lo >= beta or lo == hi:
                        return lo
                    if hi <= alpha:
                        return hi
        moves, _ = self._moves(self.width)
        if first is not None and first in moves:
            moves.remove(first)
            moves.insert(0, first)
        maximising = mover == self.root
        a0, b0 = alpha, beta
        best, best_move = (-WIN * 10 if maximising else WIN * 10), moves[0]
        for i, letter in moves:
            points = self._play(i, letter, mover)
            after = mover if points else (mover + 1) % self.players
            value = self._search(depth - 1, alpha, beta, after)
            self._undo(i, mover, points)
            if maximising:
                if value > best:
                    best, best_move = value, (i, letter)
                    alpha = max(alpha, value)
            elif value < best:
                best, best_move = value, (i, letter)
                beta = min(beta, value)
            if alpha >= beta:
                break
        if key is not None:
            lo = best if best > a0 else -WIN * 10
            hi = best if best < b0 else WIN * 10
            self.table[key] = (depth, lo, hi, best_move)
        return best

    def _search_simple(self, depth: int, alpha: float, beta: float, mover: int) -> float:
        if scoring_moves(self.board, self.geo):
            return self._side(mover) * (WIN + depth)
        safe = safe_moves(self.board, self.geo)
        nxt = (mover + 1) % self.players
        if not safe:  # every move hands the next player an SOS
            return self._side(nxt) * (WIN + depth)
        if depth <= 0:
            cells = len({i for i, _ in safe})
            return self._side(mover) * (1 if cells % 2 else -1)
        if len(safe) > self.width:
            safe = self.rng.sample(safe, self.width)
        maximising = mover == self.root
        best = -WIN * 10 if maximising else WIN * 10
        for i, letter in safe:
            self._play(i, letter, mover)
            value = self._search(depth - 1, alpha, beta, nxt)
            self._undo(i, mover, 0)
            if maximising:
                best = max(best, value)
                alpha = max(alpha, value)
            else:
                best = min(best, value)
                beta = min(beta, value)
            if alpha >= beta:
                break
        return best

    # -- three or more players: max^n ----------------------------------------------------
    def _utility(self, values: list[float], player: int) -> float:
        """What ``player`` wants: its own (estimated) score minus the best other one."""
        return values[player] - max(v for p, v in enumerate(values) if p != player)

    def _maxn(self, depth: int, mover: int) -> list[float]:
        """Every player's estimated final score (general) or win mark (simple), where each
        player in turn picks the move best for itself (max^n search): no alpha-beta, so the
        budgets for 3+ players are smaller."""
        self._tick()
        n = self.players
        if self.empty == 0:
            return [0.0] * n if self.simple else [float(s) for s in self.scores]
        if self.simple:
            if scoring_moves(self.board, self.geo):
                return self._winner(mover, depth)
            moves = safe_moves(self.board, self.geo)
            if not moves:  # every move hands the next player an SOS
                return self._winner((mover + 1) % n, depth)
            if depth <= 0:  # whoever is to move when the safe moves run out hands over the win
                cells = len({i for i, _ in moves})
                values = [0.0] * n
                values[(mover + cells + 1) % n] = 1.0
                return values
            if len(moves) > self.width:
                moves = self.rng.sample(moves, self.width)
        elif depth <= 0:
            return self._horizon_scores(mover)
        else:
            moves, _ = self._moves(self.width)
        best, best_utility = None, None
        for i, letter in moves:
            points = self._play(i, letter, mover)
            try:
                values = self._maxn(depth - 1, mover if points else (mover + 1) % n)
            finally:
                self._undo(i, mover, points)
            utility = self._utility(values, mover)
            if best is None or utility > best_utility:
                best, best_utility = values, utility
        return best

    def _winner(self, player: int, depth: int) -> list[float]:
        values = [0.0] * self.players
        values[player] = float(WIN + depth)  # a sooner win is worth more
        return values

    def _horizon_scores(self, mover: int) -> list[float]:
        """General mode, 3+ players: the scores once the mover has taken what is on offer; the
        next player gains the cheapest sacrifice if the mover has no safe move, and otherwise
        whoever will run out of safe moves first (by their count) loses ``parity``."""
        taken = self._take_offers(mover)
        try:
            values = [float(s) for s in self.scores]
            if self.empty:
                safe = safe_moves(self.board, self.geo)
                if safe:
                    values[(mover + len({i for i, _ in safe})) % self.players] -= self.parity
                else:
                    values[(mover + 1) % self.players] += self._cheapest_sacrifice()
        finally:
            self._give_back(taken, mover)
        return values

    def _root_value(self, depth: int, alpha: float, after: int) -> float:
        """The root player's value of the position after a root move."""
        if self.players == 2:
            return self._search(depth, alpha, WIN * 10, after)
        return self._utility(self._maxn(depth, after), self.root)

    def choose(self) -> tuple[int, str]:
        """The best root move found within the depth, width, time and node limits."""
        mover = self.root
        moves, scoring = self._moves(self.root_width)
        if scoring and self.simple:
            return moves[0]
        best = moves[0]
        if len(moves) == 1:
            return best
        for depth in range(1, self.max_depth + 1):
            alpha = -WIN * 10
            found = None
            try:
                for i, letter in moves:
                    points = self._play(i, letter, mover)
                    try:
                        after = mover if points else (mover + 1) % self.players
                        value = self._root_value(depth - 1, alpha, after)
                    finally:
                        self._undo(i, mover, points)
                    if value > alpha:
                        alpha, found = value, (i, letter)
            except OutOfBudget:
                if found is not None:
                    best = found
                break
            best = found
            self.depth_reached = depth
            moves.remove(best)
            moves.insert(0, best)
            if alpha >= WIN or depth >= self.empty:  # a forced win, or the game's end is seen
                break
        return best


def search_move(state: GameState, **settings) -> Move:
    i, letter = Search(state, **settings).choose()
    return Move(i // state.size, i % state.size, letter)
