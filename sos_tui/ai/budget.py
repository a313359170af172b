"""A node and time budget shared by the searches: count nodes, stop with OutOfBudget."""

from __future__ import annotations

import time


class OutOfBudget(Exception):
    """The search ran past its deadline or node budget."""


class Budget:
    """``tick()`` once per node. Past ``max_nodes`` nodes or the ``deadline`` (a
    ``time.perf_counter()`` value) it raises OutOfBudget; the clock is read every ``every + 1``
    nodes (``every`` is a power of two minus one). None: no limit."""

    def __init__(self, deadline: float | None = None, max_nodes: int | None = None, every: int = 1023):
        self.deadline, self.max_nodes, self.every = deadline, max_nodes, every
        self.nodes = 0

    def tick(self):
        self.nodes += 1
        if self.nodes & self.every == 0:
            self.check()

    def charge(self, nodes: int):
        """Count ``nodes`` at once (the moves of a playout) and check the limits."""
        self.nodes += nodes
        self.check()

    def check(self):
        if (self.max_nodes is not None and self.nodes > self.max_nodes) or (
                self.deadline is not None and time.perf_counter() > self.deadline):
            raise OutOfBudget
