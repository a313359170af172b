"""The transposition table shared by the searches: bounds of a position's value, and its best move."""

from __future__ import annotations


class Table:
    """``key -> (depth, low, high, best move)``: the value searched to ``depth`` lies in
    [low, high]. ``infinity`` bounds every value. With ``narrow``, a probe that cannot cut the
    search off still narrows its window (sound when a value does not depend on the depth, as in
    the exact solver)."""

    def __init__(self, infinity: float, narrow: bool = False):
        self.entries: dict = {}
        self.infinity, self.narrow = infinity, narrow

    def probe(self, key, depth: int, alpha: float, beta: float):
        """``(value or None, alpha, beta, best move or None)``: a value when the stored bounds
        settle the question for this window."""
        entry = self.entries.get(key)
        if entry is None:
            return None, alpha, beta, None
        stored, low, high, move = entry
        if stored >= depth:
            if low >= beta or low == high:
                return low, alpha, beta, move
            if high <= alpha:
                return high, alpha, beta, move
            if self.narrow:
                alpha, beta = max(alpha, low), min(beta, high)
        return None, alpha, beta, move

    def store(self, key, depth: int, value: float, alpha: float, beta: float, move):
        """Store what a search of window (alpha, beta) found; ``depth`` may be large for a
        proven value that holds at any depth."""
        low = value if value > alpha else -self.infinity
        high = value if value < beta else self.infinity
        self.entries[key] = (depth, low, high, move)

    def __len__(self) -> int:
        return len(self.entries)
