"""The yardstick every CPU-bound benchmark divides by: a fixed piece of pure Python, timed in the
same run, so a figure survives a machine that runs 3x slower under load.

    from yardstick import Yardstick
    stick = Yardstick()                    # times the workload once now
    ...                                    # the benchmark's own timings
    print(stick.describe(seconds))         # "0.84 s = 12.3 yardsticks"

The workload is what the engine and the searches spend their time on: tuple and dict building,
integer arithmetic, attribute reads and small function calls. It is timed as the best of a few
runs before and after the benchmark (``stick.again()``), and the figure is the benchmark's time
divided by that best: a unitless number to compare across machines and runs.
"""

from __future__ import annotations

import time


def _workload(rounds: int = 20_000) -> int:
    """About 10 ms on a quiet machine; its result is returned so nothing is optimised away."""
    table: dict[tuple[int, int], int] = {}
    total = 0
    for i in range(rounds):
        key = (i & 255, i >> 8)
        total += table.get(key, i) ^ (i * 2654435761 & 0xFFFF)
        table[key] = total & 0xFFFFFF
        cells = tuple(range(i & 7))
        total += len(cells) + _step(i, total)
    return total


def _step(a: int, b: int) -> int:
    return (a + b) & 0xFF


class Yardstick:
    """The best of ``runs`` timings of the workload, taken at creation and again on request."""

    def __init__(self, runs: int = 15) -> None:
        self.runs = runs
        self.seconds = float("inf")
        self.again()

    def again(self) -> float:
        """Time the workload ``runs`` times more; keep the best of all timings so far."""
        for _ in range(self.runs):
            start = time.perf_counter()
            _workload()
            self.seconds = min(self.seconds, time.perf_counter() - start)
        return self.seconds

    def ratio(self, seconds: float) -> float:
        return seconds / self.seconds

    def describe(self, seconds: float) -> str:
        return f"{seconds:.3f} s = {self.ratio(seconds):,.1f} yardsticks"

    def __str__(self) -> str:
        return f"yardstick (fixed pure-Python workload, best of its runs): {self.seconds * 1000:.2f} ms"


if __name__ == "__main__":
    stick = Yardstick()
    print(stick)
