"""Keypress-to-refresh time on a 26x26 board, measured through Pilot.

Run: .venv/bin/python benchmarks/ui.py [--size 26] [--moves 150]

Each sample is one `pilot.press(...)` of a cursor key or a letter, timed until the app has
processed it and repainted (Pilot waits for the screen to settle). Two clocks: wall time (what a
player waits, including Pilot's own waiting for the next frame) and the CPU time the process spent
(the work the key caused; steady even when other programs load the machine). Prints median and
95th percentile per kind of key. Saves and history go to a temporary folder.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time


async def measure(size: int, moves: int) -> dict[str, list[float]]:
    from sos_tui.app import SosApp
    from sos_tui.engine import GameRecord, Mode, PlayerInfo

    app = SosApp(GameRecord(size, Mode.GENERAL, (PlayerInfo("A"), PlayerInfo("B"))), computer_delay=0)
    samples: dict[str, list[float]] = {"cursor": [], "letter": [], "cursor cpu": [], "letter cpu": []}
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        for i in range(moves):
            for kind, key in (("cursor", "right" if (i // size) % 2 == 0 else "left"),
                              ("letter", "s" if i % 3 else "o")):
                start, cpu = time.perf_counter(), time.process_time()
                await pilot.press(key)
                await pilot.wait_for_scheduled_animations()
                samples[kind].append(time.perf_counter() - start)
                samples[f"{kind} cpu"].append(time.process_time() - cpu)
            if i % size == size - 1:
                await pilot.press("down")
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=26)
    parser.add_argument("--moves", type=int, default=150)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        os.environ["SOS_TUI_DATA_DIR"] = folder
        samples = asyncio.run(measure(args.size, args.moves))
    print(f"keypress to refresh, {args.size}x{args.size} board, {args.moves} moves")
    for kind, times in samples.items():
        times.sort()
        p95 = times[int(0.95 * (len(times) - 1))]
        print(f"  {kind:10} median {statistics.median(times) * 1000:6.1f} ms   p95 {p95 * 1000:6.1f} ms"
              f"   ({len(times)} presses)")


if __name__ == "__main__":
    main()
