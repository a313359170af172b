"""A node and time budget shared by the searches: count nodes, stop with OutOfBudget.

Time is the CPU time of the process the search runs in (``clock``, ``time.process_time``), not
the wall clock: the app runs the computer in a process of its own, and the arena plays each game
in one process, so a move's time is what the search itself used. On a busy machine a move then
plays the same as on an idle one (it only takes longer to arrive), and a timed match measures
the players rather than the other work on the machine.
"""

from __future__ import annotations

import time


def clock() -> float:
    """CPU seconds used by this process: the searches' clock."""
    return time.process_time()


class OutOfBudget(Exception):
    """The search ran past its deadline or node budget."""


class Budget:
    """``tick()`` once per node. Past ``max_nodes`` nodes or the ``deadline`` (a ``clock()``
    value: CPU seconds of this process) it raises OutOfBudget; the clock is read every ``every + 1``
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
                self.deadline is not None and clock() > self.deadline):
            raise OutOfBudget
