"""Keypress-to-frame cost on a 26x26 board: what a key costs the app, up to the terminal.

Run: .venv/bin/python benchmarks/ui.py [--size 26] [--moves 150]

The app runs on a stand-in terminal: a driver that takes each frame exactly as a real terminal
would get it (the escape codes rendered in full, which Textual's headless test driver skips) and
notes the process's CPU clock when each frame arrives. A key is sent the way the terminal driver
sends one; its cost is the CPU time from the key to the last frame it causes (all the app's
threads: the autosave's too), and the wall time to that frame. Pilot is used only to start the
app: its wait for every widget's queue after each key (about 12 ms of CPU with this screen's
widgets) is test machinery a player never pays, so no key is sent through it.

Prints the median and 95th percentile per kind of key: a cursor key, and a letter written on the
board (which also updates the scoreboard, the move log and the autosave). Saves and history go to
a temporary folder.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time

from textual import events
from textual.drivers.headless_driver import HeadlessDriver

SETTLE = 0.05  # a key's frames are over when none came for this long


class Terminal(HeadlessDriver):
    """A terminal of a fixed size that discards what it is sent, after noting when it came."""

    frames: list[float] = []  # the CPU clock at each write
    sent = 0  # bytes

    @property
    def is_headless(self) -> bool:
        return False  # so the app renders every frame to escape codes, as for a real terminal

    def write(self, data: str) -> None:
        Terminal.frames.append(time.process_time())
        Terminal.sent += len(data)

    def flush(self) -> None:
        pass


async def press(app, key: str) -> tuple[float, float]:
    """Send ``key``; wait for its last frame. Returns (wall, CPU) seconds from key to that frame."""
    frames = Terminal.frames
    before = len(frames)
    start, cpu = time.perf_counter(), time.process_time()
    event = events.Key(key, key if len(key) == 1 else None)
    event.set_sender(app)
    app._driver.send_message(event)
    last_count, last_wall = before, start
    while True:
        await asyncio.sleep(0.002)
        now = time.perf_counter()
        if len(frames) != last_count:
            last_count, last_wall = len(frames), now
        elif last_count > before and now - last_wall > SETTLE:
            return last_wall - start, frames[-1] - cpu
        elif now - start > 5:
            raise RuntimeError(f"no frame after {key!r}")


async def measure(size: int, moves: int) -> dict[str, list[float]]:
    from sos_tui.app import SosApp
    from sos_tui.engine import GameRecord, Mode, PlayerInfo

    app = SosApp(GameRecord(size, Mode.GENERAL, (PlayerInfo("A"), PlayerInfo("B"))), computer_delay=0)
    app.driver_class = Terminal
    samples: dict[str, list[float]] = {"cursor": [], "letter": [], "cursor cpu": [], "letter cpu": []}
    async with app.run_test(headless=False, size=(120, 40)) as pilot:
        await pilot.pause(0.5)
        for i in range(moves):  # a letter, then the cursor to the next cell, row by row in a snake
            across = "right" if (i // size) % 2 == 0 else "left"
            for kind, key in (("letter", "s" if i % 3 else "o"),
                              ("cursor", "down" if i % size == size - 1 else across)):
                wall, cpu = await press(app, key)
                samples[kind].append(wall)
                samples[f"{kind} cpu"].append(cpu)
        played = app.screen.session.state.move_count
    if played != moves:
        raise RuntimeError(f"{played} moves played, not {moves}")
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=26)
    parser.add_argument("--moves", type=int, default=150)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        os.environ["SOS_TUI_DATA_DIR"] = folder
        os.environ["SOS_TUI_CONFIG_DIR"] = folder
        samples = asyncio.run(measure(args.size, args.moves))
    print(f"keypress to last frame, {args.size}x{args.size} board, {args.moves} moves "
          f"({Terminal.sent // len(Terminal.frames)} bytes a frame on average)")
    for kind, times in samples.items():
        times.sort()
        p95 = times[int(0.95 * (len(times) - 1))]
        print(f"  {kind:10} median {statistics.median(times) * 1000:6.1f} ms   p95 {p95 * 1000:6.1f} ms"
              f"   ({len(times)} presses)")


if __name__ == "__main__":
    main()
