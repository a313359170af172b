"""Network play speed, on loopback: the move round trip (a move sent until its new state comes
back), alone and with many rooms of scripted clients playing at once against one server process.

    python benchmarks/net.py                      # 1 room, then 200 rooms
    python benchmarks/net.py --rooms 50 --moves 20 --think 0.05

The server runs in a process of its own (``--serve``), as ``sos-tui server`` would; the scripted
clients share this one and read only what they need of each state (its version and whose turn),
so the figures are the server's and the wire's, not a client's drawing. Goals: p95 <= 20 ms for
one room, p95 <= 50 ms with 200 rooms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import time

from websockets.asyncio.client import connect

from sos_tui.net import Limits, Server

BENCH_LIMITS = Limits(max_rooms=2000, max_connections=10000, connections_per_address=10000,
                      rooms_per_address=2000, rate=1000, burst=1000)


async def serve(port: int) -> None:
    server = Server(BENCH_LIMITS, allow_create=True)
    await server.start("127.0.0.1", port)
    print(server.port, flush=True)
    try:
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)  # until the parent goes
    finally:
        await server.stop()


async def create(base: str, size: int) -> str:
    async with connect(base, compression=None) as ws:
        await ws.send(json.dumps({"type": "create", "protocol": 1, "size": size, "mode": "general",
                                  "seats": [{"kind": "remote"}, {"kind": "remote"}]}))
        reply = json.loads(await ws.recv())
    return f"{base}/{reply['room']}"


class Seat:
    """A scripted player: joins, and on its turn plays a random empty cell."""

    def __init__(self, url: str, name: str) -> None:
        self.url, self.name = url, name
        self.ws = None
        self.seat = -1
        self.version = 0
        self.turn = None
        self.board: set[str] = set()
        self.over = False
        self.changed = asyncio.Event()

    async def join(self) -> None:
        self.ws = await connect(self.url, compression=None, max_size=2**20)
        await self.ws.send(json.dumps({"type": "hello", "protocol": 1, "name": self.name}))
        welcome = json.loads(await self.ws.recv())
        self.seat = welcome["seats"][0]

    async def read(self) -> None:
        async for frame in self.ws:
            message = json.loads(frame)
            if message["type"] == "error":
                raise RuntimeError(f"{self.name}: {message}")
            if message["type"] == "state" and message["game"] is not None:
                game = message["game"]
                self.version = message["version"]
                self.board = {m.split()[1] for m in game["moves"]}
                self.over = game["result"]["over"]
                self.turn = message["to_move"]
                self.changed.set()


async def play_room(base: str, size: int, moves: int, think: float, times: list[float],
                    start: asyncio.Event) -> None:
    url = await create(base, size)
    a, b = Seat(url, "A"), Seat(url, "B")
    await a.join()
    await b.join()
    readers = [asyncio.ensure_future(s.read()) for s in (a, b)]
    cells = [f"{'abcdefghijklmnopqrstuvwxyz'[c]}{r + 1}" for r in range(size) for c in range(size)]
    await start.wait()
    try:
        played = 0
        while played < moves and not a.over:
            while a.version == 0 or b.version != a.version:  # both have seen the newest state
                for seat in (a, b):
                    seat.changed.clear()
                waits = [asyncio.ensure_future(seat.changed.wait()) for seat in (a, b)]
                await asyncio.wait(waits, timeout=1, return_when=asyncio.FIRST_COMPLETED)
                for wait in waits:
                    wait.cancel()
            mover = a if a.turn == a.seat else b
            if think:
                await asyncio.sleep(random.uniform(0, 2 * think))
            free = [c for c in cells if c not in mover.board]
            version = mover.version
            mover.changed.clear()
            sent = time.perf_counter()
            move = f"{random.choice('SO')} {random.choice(free)}"
            await mover.ws.send(json.dumps({"type": "move", "move": move}))
            while mover.version <= version:
                mover.changed.clear()
                await mover.changed.wait()
            times.append(time.perf_counter() - sent)
            played += 1
    finally:
        for task in readers:
            task.cancel()
        await a.ws.close()
        await b.ws.close()


def report(label: str, times: list[float]) -> None:
    ms = sorted(t * 1000 for t in times)
    p95 = ms[int(0.95 * (len(ms) - 1))]
    print(f"{label}: {len(ms)} moves, median {statistics.median(ms):.2f} ms, p95 {p95:.2f} ms, "
          f"max {ms[-1]:.2f} ms")


async def bench(args) -> None:
    child = subprocess.Popen([sys.executable, __file__, "--serve"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    try:
        port = int(child.stdout.readline())
        base = f"ws://127.0.0.1:{port}"
        for rooms, think in ((1, 0.0), (args.rooms, args.think)):
            times: list[float] = []
            start = asyncio.Event()
            tasks = [asyncio.ensure_future(play_room(base, args.size, args.moves if rooms > 1 else 300,
                                                     think, times, start)) for _ in range(rooms)]
            await asyncio.sleep(0.5 + rooms * 0.01)
            start.set()
            await asyncio.gather(*tasks)
            report(f"{rooms} room{'s' if rooms > 1 else ''}" + (f", think ~{think * 1000:.0f} ms" if think
                                                               else ", back to back"), times)
    finally:
        child.stdin.close()
        child.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--moves", type=int, default=30, help="moves per room in the many-room run")
    parser.add_argument("--size", type=int, default=20, help="board size (big enough for the moves)")
    parser.add_argument("--think", type=float, default=0.1,
                        help="mean pause before a move in the many-room run, in seconds")
    args = parser.parse_args()
    if args.serve:
        asyncio.run(serve(0))
    else:
        asyncio.run(bench(args))


if __name__ == "__main__":
    main()
