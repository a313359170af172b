"""What browser players cost one ``sos-tui server`` process, beside what ``sos-tui web`` costs for one
tab, measured in the same run (issue 44).

    .venv/bin/python benchmarks/page.py [--connections 2000] [--moves 4] [--think 2.0]

Starts one server process (rooms on disk, as ``sos-tui server`` keeps them; the per-address limits
of benchmarks/net.py, since every simulated browser comes from 127.0.0.1), then N simulated
browsers, N/2 games of 6x6: each GETs its room's page (``/CODE``, as a browser opening the link;
the page's scripts and styles are cached for good, so a browser asks for them once) and opens the
WebSocket the page opens (``hello`` with ``minor`` 2, the page's revision), then each game plays
2 x ``--moves`` moves, a player thinking ``--think`` seconds (0.5x to 1.5x, at random) before each.
Prints the server's resident memory (VmRSS) before, with every browser connected and after the
moves, its growth per connection, and the move round trip (sent until the mover's own state with
it is back: median and p95). Then starts ``sos-tui web`` and one tab of it (benchmarks/web.py's
``one_tab``) and prints that tab's process's memory: what each browser player costs there.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from websockets.asyncio.client import connect

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from net import spawn  # noqa: E402  (benchmarks/net.py: a server process with the bench limits)
from web import SOS, one_tab, rss_mib, serving  # noqa: E402

from tests.support.helpers import free_port  # noqa: E402

SIZE = 6


class Browser:
    """One simulated browser tab of the server's page: its WebSocket, and the game as it sees it."""

    def __init__(self, base: str, code: str, name: str, times: list[float]) -> None:
        self.base, self.code, self.name, self.times = base, code, name, times
        self.seats: list[int] = []
        self.taken: set[str] = set()
        self.sent: tuple[str, float] | None = None
        self.ws = None
        self.joined = asyncio.Event()

    async def open(self) -> None:
        page = f"http://{self.base.split('://', 1)[1]}/{self.code}"
        await asyncio.to_thread(lambda: urllib.request.urlopen(page, timeout=30).read())
        self.ws = await connect(f"{self.base}/{self.code}", compression=None, max_size=2**16)
        await self.ws.send(
            json.dumps(
                {
                    "type": "hello",
                    "protocol": 1,
                    "minor": 2,
                    "name": self.name,
                    "token": None,
                    "client": "benchmarks/page.py",
                }
            )
        )

    async def play(self, moves: int, think: float, started: asyncio.Event) -> None:
        async for frame in self.ws:
            message = json.loads(frame)
            if message["type"] == "welcome":
                self.seats = message["seats"]
                self.joined.set()
            elif message["type"] == "state":
                record = message.get("game")
                since = message.get("since")
                moves_told = record["moves"] if record else since["moves"] if since else []
                self.taken |= {move.split()[1] for move in moves_told}
                if self.sent and message.get("move") == self.sent[0]:
                    self.times.append(time.perf_counter() - self.sent[1])
                    self.sent = None
                if message["phase"] == "over" or len(self.taken) >= 2 * moves:
                    return  # the game played its moves (a scorer moves again: the two share them)
                if message["phase"] == "playing" and message["to_move"] in self.seats:
                    await started.wait()
                    await asyncio.sleep(think * random.uniform(0.5, 1.5))
                    await self.move(message["version"])

    async def move(self, version: int) -> None:
        cells = [f"{c}{r}" for c in "abcdef"[:SIZE] for r in range(1, SIZE + 1)]
        move = f"{random.choice('SO')} {random.choice([c for c in cells if c not in self.taken])}"
        self.sent = (move, time.perf_counter())
        await self.ws.send(json.dumps({"type": "move", "move": move, "version": version}))


async def create(base: str) -> str:
    async with connect(base, compression=None) as ws:
        await ws.send(
            json.dumps(
                {
                    "type": "create",
                    "protocol": 1,
                    "size": SIZE,
                    "mode": "general",
                    "seats": [{"kind": "remote"}, {"kind": "remote"}],
                }
            )
        )
        return json.loads(await ws.recv())["room"]


async def browsers(base: str, pid: int, args) -> None:
    rooms = args.connections // 2
    before = rss_mib(pid)
    codes = []
    for start in range(0, rooms, 100):
        codes += await asyncio.gather(*(create(base) for _ in range(min(100, rooms - start))))
    times: list[float] = []
    tabs = [Browser(base, code, name, times) for code in codes for name in ("Ana", "Bo")]
    opened = time.monotonic()
    for start in range(0, len(tabs), 200):
        await asyncio.gather(*(tab.open() for tab in tabs[start : start + 200]))
    started = asyncio.Event()
    playing = [asyncio.create_task(tab.play(args.moves, args.think, started)) for tab in tabs]
    await asyncio.gather(*(tab.joined.wait() for tab in tabs))
    connected = rss_mib(pid)
    print(f"{len(tabs)} browsers in {rooms} games connected in {time.monotonic() - opened:.1f} s")
    started.set()
    await asyncio.wait_for(asyncio.gather(*playing), 60 + 4 * args.moves * args.think)
    after = rss_mib(pid)
    for tab in tabs:
        await tab.ws.close()
    times.sort()
    print(
        f"server process RSS: {before:.1f} MiB idle, {connected:.1f} MiB with {len(tabs)} browsers "
        f"connected, {after:.1f} MiB after {len(times)} moves "
        f"({(after - before) * 1024 / len(tabs):.1f} KiB per browser)"
    )
    print(
        f"move round trip: median {statistics.median(times) * 1000:.1f} ms, "
        f"p95 {times[int(len(times) * 0.95)] * 1000:.1f} ms ({len(times)} moves)"
    )


def textual_serve_tab() -> float:
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "SOS_TUI_DATA_DIR": f"{folder}/data", "SOS_TUI_CONFIG_DIR": f"{folder}/config"}
        port = free_port()
        server = serving([SOS, "web", "--port", str(port)], port, env)
        try:
            _start, memory = asyncio.run(one_tab(port, server.pid))
        finally:
            server.send_signal(signal.SIGINT)
            server.wait(30)
    return memory


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=2000)
    parser.add_argument("--moves", type=int, default=4, help="moves of each game, per player")
    parser.add_argument("--think", type=float, default=2.0, help="seconds before each move (0.5x-1.5x)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        child, port = spawn(store=Path(folder) / "rooms.sqlite3")
        try:
            asyncio.run(browsers(f"ws://127.0.0.1:{port}", child.pid, args))
        finally:
            child.stdin.close()
            child.wait(60)
    memory = textual_serve_tab()
    print(
        f"sos-tui web (textual-serve): one tab's own process {memory:.1f} MiB; "
        f"{args.connections} tabs would be about {memory * args.connections / 1024:.1f} GiB"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
