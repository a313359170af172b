"""Network play speed, on loopback: the move round trip (a move sent until its new state comes
back), alone and with many rooms of scripted clients playing at once against one server process,
first with rooms in memory only, then with rooms on disk (``SqliteRoomStore``: every move committed
before it is broadcast) in the same run, and the ratio of the two; then the server with rooms on
disk is killed (SIGKILL) and started again on the same folder, and the time until every room has
both players back (by token) and a move played is measured.

    python benchmarks/net.py                      # 1 room, then 200 rooms, each way; the restart
    python benchmarks/net.py --rooms 50 --moves 20 --think 0.05
    python benchmarks/net.py --redis redis://127.0.0.1:6379/0 --processes 2 --repeat 5

With ``--redis URL``: one server process first, for the single-process figures of the same run
(rooms in memory, then rooms on disk: ``sos-tui server``'s default, which commits every move before
anyone is told, as the service does in Redis); then ``--processes`` server processes forming one
service on that Redis (its keys under a prefix of the run's own, deleted at the end: whatever else
is in that Redis is left alone and not in the way), every room created on one process and its
second player joining through the next. Each process has its own ``--public-url``
(``ws://127.0.0.1:PORT``), so that player is sent to the owner (``moved``, revision 7: the scripted
clients follow it, as sos-tui's do); with ``--relay`` the processes have none, and every move of that
player is relayed to the owner and its states back, as before revision 7. It prints the round trip
p50/p95 of each, their ratio and the p95s in yardsticks
(``yardstick.py``, timed in the same run), and the CPU time a move of the many rooms cost each
process and Redis against one process (which a busy machine moves far less than the times), and
how long each process waited for a core a move (it could run, both cores were busy: the kernel's
``schedstat``), the benchmark's clients included;
``--repeat N`` runs N such rounds in turn, each with the load average as it starts, and prints the
range of the ratios (a busy machine moves single runs a lot). Then it kills (SIGKILL) the first
process, mid-game, and prints the time until every room it owned has both players back (through the
other processes, by token) and a move played: the lease running out, the takeover and the
reconnects.

The server runs in a process of its own (``--serve``), as ``sos-tui server`` would; the scripted
clients share this one and read only what they need of each state (its version and whose turn),
so the figures are the server's and the wire's, not a client's drawing. They say the protocol
revision sos-tui's own client says (``--revision``, the current one by default: after a move each
gets the move alone, revision 2's ``since``, and keeps its board from the moves, as sos-tui does;
``--revision 0`` makes them clients of before revision 1, sent the whole game with every state, as
this benchmark's clients were until 2026-12-05); it prints which. Goals: p95 <= 20 ms for
one room, p95 <= 50 ms with 200 rooms.

With ``--redis`` and ``--profile DIR``, each server process (``--serve``) runs the many-room run of
each round under ``cProfile`` (from its first room to its last move; the 1-room runs and the
takeover are left out; on the clock, so a wait for a core counts where it falls) and dumps it as
``DIR/roundN-WHAT.prof`` (``one``: one process, rooms in memory;
``disk``: on disk; ``redis0``, ``redis1``...: the service's processes); the benchmark then prints
each process's top functions by their own time in µs a move (read the files further with
``python -m pstats``). Profiled, every figure of that run is slower: time the ratios without it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import json
import os
import pstats
import random
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from yardstick import Yardstick

from sos_tui.net import Limits, Server
from sos_tui.net.protocol import PROTOCOL_MINOR
from sos_tui.net.store import SqliteRoomStore

BENCH_LIMITS = Limits(max_rooms=2000, max_connections=10000, connections_per_address=10000,
                      rooms_per_address=2000, rate=1000, burst=1000, creates_per_minute=10**6,
                      create_burst=10**6, connects_per_second=10**6, connect_burst=10**6)


class _Profiling:
    """In a ``--serve`` process: SIGUSR1 starts profiling it, the next one dumps the profile to
    ``path`` (a file the parent waits for) and stops."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.profile: cProfile.Profile | None = None

    def toggle(self) -> None:
        if self.profile is None:
            self.profile = cProfile.Profile()
            self.profile.enable()
        else:
            self.profile.disable()
            self.profile.dump_stats(self.path + ".part")
            os.replace(self.path + ".part", self.path)  # whole, once there
            self.profile = None


async def serve(port: int, store_path: str | None, redis: str | None = None, lease: float = 3.0,
                prefix: str = "sos:", profile: str | None = None, public: str | None = None) -> None:
    store = SqliteRoomStore(Path(store_path)) if store_path else None
    cluster = None
    if redis is not None:
        from sos_tui.net.cluster import Cluster

        cluster = Cluster(redis, lease=lease, prefix=prefix, public=public)
    server = Server(BENCH_LIMITS, allow_create=True, store=store, cluster=cluster)
    if store is not None:
        for kept in store.load():
            server.restore(kept)
    await server.start("127.0.0.1", port)
    if profile is not None:
        asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, _Profiling(profile).toggle)
    print(server.port, flush=True)
    try:
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)  # until the parent goes
    finally:
        await server.stop()
        if store is not None:
            await store.close()


def spawn(port: int = 0, store: Path | None = None, redis: str | None = None, lease: float = 3.0,
          prefix: str = "sos:", profile: Path | None = None,
          public: bool = False) -> tuple[subprocess.Popen, int]:
    """A ``--serve`` process; its port. With ``public``, a process of the service on ``redis`` reached
    at its own ``ws://127.0.0.1:PORT`` (``--public-url``: clients are sent to it, not relayed)."""
    if public and not port:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
    command = [sys.executable, __file__, "--serve", "--port", str(port)]
    if store is not None:
        command += ["--store", str(store)]
    if redis is not None:
        command += ["--redis", redis, "--lease", str(lease), "--prefix", prefix]
    if public:
        command += ["--public-url", f"ws://127.0.0.1:{port}"]
    if profile is not None:
        command += ["--profile", str(profile)]
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    return child, int(child.stdout.readline())


async def create(base: str, size: int) -> str:
    async with connect(base, compression=None) as ws:
        await ws.send(json.dumps({"type": "create", "protocol": 1, "size": size, "mode": "general",
                                  "seats": [{"kind": "remote"}, {"kind": "remote"}]}))
        reply = json.loads(await ws.recv())
    return f"{base}/{reply['room']}"


class Seat:
    """A scripted player: joins, and on its turn plays a random empty cell. It says protocol
    revision ``minor`` (from 2 a state after a move carries the move alone: ``since``; from 7 it
    follows a ``moved`` to the room's owner, each time from its own ``url``)."""

    minor = PROTOCOL_MINOR

    def __init__(self, url: str, name: str) -> None:
        self.url, self.name = url, name
        self.token = None
        self.ws = None
        self.seat = -1
        self.version = 0
        self.turn = None
        self.board: set[str] = set()
        self.over = False
        self.changed = asyncio.Event()
        self.moved = False  # its last join was sent on to the owner (``moved``)

    async def join(self, patience: float = 0.0) -> None:
        """Take the seat (again, by token); for ``patience`` seconds, a refused or closed connection
        is tried again (a room being taken over sends its clients away, 1012, to come back)."""
        end = time.monotonic() + patience
        while True:
            try:
                welcome = await self.greet(self.url)
                self.seat, self.token = welcome["seats"][0], welcome["token"]
                return
            except (OSError, KeyError, IndexError, ConnectionClosed):
                if time.monotonic() > end:
                    raise
                await asyncio.sleep(0.1)

    async def greet(self, url: str) -> dict:
        """Say hello at ``url`` (then where ``moved`` sends it, at most 3 times): the welcome."""
        self.moved = False
        for _hop in range(4):
            self.ws = await connect(url, compression=None, max_size=2**20)
            await self.ws.send(json.dumps({"type": "hello", "protocol": 1, "minor": self.minor,
                                           "name": self.name, "token": self.token}))
            reply = json.loads(await self.ws.recv())
            if reply["type"] != "moved":
                return reply
            await self.ws.close()
            url, self.moved = reply["url"], True
        raise RuntimeError(f"{self.name}: moved more than 3 times")

    async def read(self) -> None:
        async for frame in self.ws:
            message = json.loads(frame)
            if message["type"] == "error":
                raise RuntimeError(f"{self.name}: {message}")
            if message["type"] != "state":
                continue
            since, game = message.get("since"), message["game"]
            if since is not None:  # the moves since the version it holds (none can be missed here)
                self.board.update(m.split()[1] for m in since["moves"])
            elif game is not None:
                self.board = {m.split()[1] for m in game["moves"]}
            else:
                continue  # the lobby: no game yet
            self.version = message["version"]
            self.over = message["phase"] == "over"
            self.turn = message["to_move"]
            self.changed.set()


async def play_room(base: str, size: int, moves: int, think: float, times: list[float],
                    start: asyncio.Event, seats: tuple[Seat, Seat] | None = None, other: str | None = None,
                    patience: float = 0.0) -> tuple[Seat, Seat]:
    """``moves`` moves in a new room (or the room of ``seats``, joined again by token); the second
    player joins through the server ``other`` when given (another process of the service)."""
    a, b = seats or (Seat(await create(base, size), "A"), Seat("", "B"))
    if seats is None:
        b.url = a.url if other is None else f"{other}/{a.url.rsplit('/', 1)[1]}"
        b.changed = a.changed  # the room's: a state to either
    await a.join(patience)
    await b.join(patience)
    readers = [asyncio.ensure_future(s.read()) for s in (a, b)]
    cells = [f"{'abcdefghijklmnopqrstuvwxyz'[c]}{r + 1}" for r in range(size) for c in range(size)]
    await start.wait()
    try:
        played = 0
        while played < moves and not a.over:
            while a.version == 0 or b.version != a.version:  # both have seen the newest state
                a.changed.clear()
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(1):
                        await a.changed.wait()  # set by either (one event: no task to wait on two)
            if a.over:  # the board is full (a small one)
                break
            mover = a if a.turn == a.seat else b
            if think:
                await asyncio.sleep(random.uniform(0, 2 * think))
            free = [c for c in cells if c not in mover.board]
            version = mover.version
            mover.changed.clear()
            sent = time.perf_counter()
            move = f"{random.choice('SO')} {random.choice(free)}"
            await mover.ws.send(json.dumps({"type": "move", "move": move, "version": version}))
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
    return a, b


def report(label: str, times: list[float]) -> float:
    """Print the figures of ``times``; their p95 in ms."""
    ms = sorted(t * 1000 for t in times)
    p95 = ms[int(0.95 * (len(ms) - 1))]
    print(f"{label}: {len(ms)} moves, median {statistics.median(ms):.2f} ms, p95 {p95:.2f} ms, "
          f"max {ms[-1]:.2f} ms", flush=True)
    return p95


async def run_rooms(base: str | list[str], rooms: int, size: int, moves: int, think: float,
                    seats: list | None = None, patience: float = 0.0) -> tuple[list[float], list]:
    """``rooms`` rooms played at once; with a list of servers (one service), room ``i`` is created
    on server ``i`` (round the list) and its second player joins through the next."""
    bases = [base] if isinstance(base, str) else base
    times: list[float] = []
    start = asyncio.Event()
    tasks = [asyncio.ensure_future(play_room(
        bases[i % len(bases)], size, moves, think, times, start, seats[i] if seats else None,
        bases[(i + 1) % len(bases)] if len(bases) > 1 else None, patience)) for i in range(rooms)]
    await asyncio.sleep(0.5 + rooms * 0.01)
    start.set()
    return times, await asyncio.gather(*tasks)


async def bench(args) -> None:
    print(f"the scripted clients say protocol revision {Seat.minor}", flush=True)
    p95s = {}
    with tempfile.TemporaryDirectory() as folder:
        store = Path(folder) / "rooms.sqlite3"
        for label, path in (("in memory", None), ("on disk", store)):
            child, port = spawn(store=path)
            base = f"ws://127.0.0.1:{port}"
            try:
                times, _ = await run_rooms(base, 1, args.size, 100, 0.0)
                report(f"{label}, 1 room, back to back", times)
                times, tables = await run_rooms(base, args.rooms, args.size, args.moves, args.think)
                p95s[label] = report(f"{label}, {args.rooms} rooms, think ~{args.think * 1000:.0f} ms", times)
            finally:
                if path is None:
                    child.stdin.close()
                    child.wait(10)
        print(f"p95 on disk / in memory, {args.rooms} rooms: {p95s['on disk'] / p95s['in memory']:.2f}x",
              flush=True)
        child.kill()  # SIGKILL, mid-game: then the same folder again
        child.wait(10)
        started = time.perf_counter()
        child, port = spawn(port, store)
        try:
            times, _ = await run_rooms(f"ws://127.0.0.1:{port}", args.rooms, args.size, 1, 0.0, tables)
            print(f"restart: {args.rooms} rooms playing again (both seats back by token, a move played) "
                  f"{time.perf_counter() - started:.2f} s after the new server was started", flush=True)
        finally:
            child.stdin.close()
            child.wait(10)


def median_p95(label: str, times: list[float]) -> tuple[float, float]:
    report(label, times)
    ms = sorted(t * 1000 for t in times)
    return statistics.median(ms), ms[int(0.95 * (len(ms) - 1))]


def stop_all(children: list) -> None:
    for child, _port in children:
        if child.poll() is None:
            child.stdin.close()
    for child, _port in children:
        try:
            child.wait(10)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait(10)


async def forget_keys(url: str, prefix: str) -> None:
    """Delete the keys a run's service left in Redis (every one under its own ``prefix``)."""
    import redis.asyncio as aioredis

    client = aioredis.Redis.from_url(url)
    try:
        async for key in client.scan_iter(match=f"{prefix}*", count=1000):
            await client.delete(key)
    finally:
        await client.aclose()


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) process ``pid`` has used so far; 0 where /proc is not there."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def waited_seconds(pid: int | str) -> float:
    """How long the main thread of process ``pid`` (``"self"``: this one) has waited so far for a
    core while it could run (the kernel's ``schedstat``); 0 where /proc does not say."""
    try:
        with open(f"/proc/{pid}/schedstat") as schedstat:
            return int(schedstat.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


async def redis_cpu_seconds(url: str) -> float:
    """The CPU time the Redis at ``url`` has used so far (INFO cpu)."""
    import redis.asyncio as aioredis

    client = aioredis.Redis.from_url(url)
    try:
        info = await client.info("cpu")
    finally:
        await client.aclose()
    return float(info["used_cpu_sys"]) + float(info["used_cpu_user"])


async def timed_cpu(children: list, run, redis: str | None = None,
                    profiles: list[Path] | None = None) -> tuple[object, list[float]]:
    """What ``run()`` (a coroutine function) returns, the CPU seconds each of ``children`` (then
    Redis, with ``redis``), then this process (the scripted clients) used meanwhile, and the
    seconds each of ``children``, then this process, waited for a core meanwhile (it could run,
    every core was busy); with ``profiles`` (``--profile``), each child is profiled meanwhile into
    its file of those."""
    pids = [child.pid for child, _port in children] + ["self"]
    waits = [waited_seconds(pid) for pid in pids]
    before = [cpu_seconds(child.pid) for child, _port in children]
    redis_before = await redis_cpu_seconds(redis) if redis else 0.0
    for (child, _port), path in zip(children, profiles or (), strict=False):
        path.unlink(missing_ok=True)
        child.send_signal(signal.SIGUSR1)  # start (``_Profiling``)
    own = time.process_time()
    result = await run()
    own = time.process_time() - own
    used = [cpu_seconds(child.pid) - b for (child, _port), b in zip(children, before, strict=True)]
    if redis:
        used.append(await redis_cpu_seconds(redis) - redis_before)
    used.append(own)
    waits = [waited_seconds(pid) - b for pid, b in zip(pids, waits, strict=True)]
    for (child, _port), path in zip(children, profiles or (), strict=False):
        child.send_signal(signal.SIGUSR1)  # dump
        for _try in range(1000):
            if path.exists():
                break
            await asyncio.sleep(0.01)
    return result, used, waits


def print_profile(path: Path, moves: int, top: int = 12) -> None:
    """The ``top`` functions of the profile at ``path`` by their own time, in µs a move."""
    # (file, line, name) -> (calls, primitive calls, own time, cumulative time, callers); the wait
    # for the sockets (epoll's poll) is the loop being idle, not work
    stats = {where: row for where, row in pstats.Stats(str(path)).stats.items() if "poll" not in where[2]}
    total = sum(own for _calls, _prim, own, _cum, _callers in stats.values())
    print(f"  {path.name}: {total * 1e6 / moves:.0f} µs a move profiled; the top by own time "
          "(µs a move, calls a move, function):", flush=True)
    ranked = sorted(stats.items(), key=lambda item: item[1][2], reverse=True)[:top]
    for (file, line, name), (calls, _prim, own, _cum, _callers) in ranked:
        where = f"{Path(file).name}:{line}" if line else file
        print(f"    {own * 1e6 / moves:7.1f} {calls / moves:6.2f}  {name} ({where})", flush=True)


async def redis_round(args, stick: Yardstick, number: int, last: bool) -> dict[str, tuple[float, float]]:
    """One process, then ``args.processes`` on Redis (keys under a prefix of this round's own, so
    nothing left in Redis by another run is in the way); with ``last``, then an owner killed.
    Round ``number``'s profiles (``--profile``) are named after it."""
    figures = {}

    def profiles(*whats: str) -> list[Path] | None:
        if args.profile is None:
            return None
        return [Path(args.profile) / f"round{number + 1}-{what}.prof" for what in whats]
    with tempfile.TemporaryDirectory() as folder:
        # one process as it is run: rooms in memory, then on disk (sos-tui server's default, every
        # move committed before anyone is told, as the service commits it to Redis)
        for key, store in (("one", None), ("disk", Path(folder) / "rooms.sqlite3")):
            how = "rooms in memory" if store is None else "rooms on disk"
            paths = profiles(key)
            child, port = spawn(store=store, profile=paths[0] if paths else None)
            base = f"ws://127.0.0.1:{port}"
            try:
                times, _ = await run_rooms(base, 1, args.size, 100, 0.0)
                figures[f"{key}, 1 room"] = median_p95(f"1 process, {how}, 1 room, back to back", times)
                (times, _), cpu, waits = await timed_cpu([(child, port)], lambda base=base: run_rooms(
                    base, args.rooms, args.size, args.moves, args.think), profiles=paths)
                figures[key] = median_p95(f"1 process, {how}, {args.rooms} rooms, think "
                                          f"~{args.think * 1000:.0f} ms", times)
                for path in paths or ():
                    print_profile(path, len(times))
                if store is None:
                    one_cpu = [seconds * 1000 / len(times) for seconds in cpu]
                    one_waits = [seconds * 1000 / len(times) for seconds in waits]
            finally:
                stop_all([(child, port)])
    prefix = f"sos-bench-{secrets.token_hex(4)}:"
    paths = profiles(*(f"redis{i}" for i in range(args.processes)))
    children = [spawn(redis=args.redis, lease=args.lease, prefix=prefix, profile=paths[i] if paths else None,
                      public=not args.relay) for i in range(args.processes)]
    bases = [f"ws://127.0.0.1:{port}" for _child, port in children]
    try:
        times, _ = await run_rooms(bases[:2], 1, args.size, 100, 0.0)
        sent = "relayed" if args.relay else "moved to the owner"
        figures["many, 1 room"] = median_p95(
            f"{args.processes} processes on Redis, 1 room, players joining through two processes ({sent}), "
            "back to back", times)
        (times, tables), many_cpu, many_waits = await timed_cpu(children, lambda: run_rooms(
            bases, args.rooms, args.size, args.moves, args.think), args.redis, paths)
        figures["many"] = median_p95(
            f"{args.processes} processes on Redis, {args.rooms} rooms, players joining through different "
            f"processes ({sent}), think ~{args.think * 1000:.0f} ms", times)
        print(f"{args.rooms} rooms: {sum(b.moved for _a, b in tables)} of the {len(tables)} players joining "
              "through another process than the owner were moved to it", flush=True)
        for path in paths or ():
            print_profile(path, len(times))
        many_cpu = [seconds * 1000 / len(times) for seconds in many_cpu]
        print(f"{args.rooms} rooms, CPU a move: {sum(many_cpu[:-1]):.3f} ms on Redis (processes "
              f"{' + '.join(f'{ms:.3f}' for ms in many_cpu[:-2])}, Redis {many_cpu[-2]:.3f}) vs "
              f"{one_cpu[0]:.3f} ms on one process; the benchmark's clients {many_cpu[-1]:.3f} vs "
              f"{one_cpu[1]:.3f} ms", flush=True)
        many_waits = [seconds * 1000 / len(times) for seconds in many_waits]
        print(f"{args.rooms} rooms, waiting for a core a move: processes "
              f"{' + '.join(f'{ms:.3f}' for ms in many_waits[:-1])} ms on Redis vs {one_waits[0]:.3f} ms "
              f"on one process; the benchmark's clients {many_waits[-1]:.3f} vs {one_waits[1]:.3f} ms",
              flush=True)
        stick.again()
        for key in ("1 room", ""):
            one, many = figures[f"one, {key}" if key else "one"], figures[f"many, {key}" if key else "many"]
            print(f"{key or f'{args.rooms} rooms'}: p50 {many[0]:.2f} ms vs {one[0]:.2f} ms on one process "
                  f"({many[0] / one[0]:.2f}x), p95 {many[1]:.2f} ms vs {one[1]:.2f} ms "
                  f"({many[1] / one[1]:.2f}x); p95 in yardsticks {stick.ratio(many[1] / 1000):.2f} vs "
                  f"{stick.ratio(one[1] / 1000):.2f}", flush=True)
            disk = figures[f"disk, {key}" if key else "disk"]
            print(f"{key or f'{args.rooms} rooms'}, against one process with rooms on disk: p50 "
                  f"{many[0] / disk[0]:.2f}x, p95 {many[1] / disk[1]:.2f}x ({disk[1]:.2f} ms)", flush=True)
        if last:
            await takeover(args, children, bases, tables)
    finally:
        stop_all(children)
        await forget_keys(args.redis, prefix)
    return figures


async def takeover(args, children: list, bases: list[str], tables: list) -> None:
    """Kill (SIGKILL) the first process mid-game; time until every room it owned plays again."""
    owned = [i for i in range(args.rooms) if i % len(bases) == 0]  # created (owned) on the first
    children[0][0].kill()
    children[0][0].wait(10)
    killed = time.perf_counter()
    survivor = bases[1]
    seats = []
    for i in owned:
        a, b = tables[i]
        code = a.url.rsplit("/", 1)[1]
        a.url = b.url = f"{survivor}/{code}"  # behind a proxy: the same address, another process
        seats.append((a, b))
    await run_rooms(survivor, len(seats), args.size, 1, 0.0, seats, patience=30.0)
    print(f"takeover: {len(seats)} rooms of the killed owner playing again (both seats back by token "
          f"through another process, a move played) {time.perf_counter() - killed:.2f} s after the "
          f"SIGKILL (lease {args.lease:g} s)", flush=True)


async def bench_redis(args) -> None:
    """``args.repeat`` rounds of one process against the service on Redis, in turn; the ranges."""
    stick = Yardstick()
    print(stick, flush=True)
    print(f"the scripted clients say protocol revision {Seat.minor}", flush=True)
    print("the service's processes relay the players of other processes' rooms (--relay: no public URLs)"
          if args.relay else "each of the service's processes has its own public URL: players are sent to "
          "the owner of their room (moved), not relayed", flush=True)
    rounds = []
    for number in range(args.repeat):
        if args.repeat > 1:
            print(f"-- round {number + 1} of {args.repeat} (load average {os.getloadavg()[0]:.2f})",
                  flush=True)
        rounds.append(await redis_round(args, stick, number, number == args.repeat - 1))
    if args.repeat > 1:
        for key, label in (("1 room", "1 room"), ("", f"{args.rooms} rooms")):
            for one, how in (("one", ""), ("disk", " with rooms on disk")):
                ratios = sorted(r[f"many, {key}" if key else "many"][1]
                                / r[f"{one}, {key}" if key else one][1] for r in rounds)
                print(f"{label}: p95 on Redis / one process{how} over {len(rounds)} rounds: "
                      f"{ratios[0]:.2f}x to {ratios[-1]:.2f}x (median {statistics.median(ratios):.2f}x)")
    print(f"{stick} (taken again after each round)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--store", help=argparse.SUPPRESS)
    parser.add_argument("--prefix", default="sos:", help=argparse.SUPPRESS)
    parser.add_argument("--profile", metavar="DIR",
                        help="with --redis: profile each server process's many-room run into DIR (cProfile)")
    parser.add_argument("--redis", metavar="URL",
                        help="measure a service of --processes servers on this Redis")
    parser.add_argument("--processes", type=int, default=2, help="server processes with --redis (default 2)")
    parser.add_argument("--lease", type=float, default=3.0, help="the rooms' lease with --redis, in seconds")
    parser.add_argument("--relay", action="store_true",
                        help="with --redis: no public URLs: players of other processes' rooms are relayed")
    parser.add_argument("--public-url", help=argparse.SUPPRESS)
    parser.add_argument("--repeat", type=int, default=1,
                        help="with --redis: rounds of one process then the service, in turn (default 1)")
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--moves", type=int, default=30, help="moves per room in the many-room run")
    parser.add_argument("--size", type=int, default=20, help="board size (big enough for the moves)")
    parser.add_argument("--think", type=float, default=0.1,
                        help="mean pause before a move in the many-room run, in seconds")
    parser.add_argument("--revision", type=int, default=PROTOCOL_MINOR,
                        help=f"the protocol revision the scripted clients say (default {PROTOCOL_MINOR}, "
                             "sos-tui's; 0: sent the whole game with every state)")
    args = parser.parse_args()
    Seat.minor = args.revision
    if args.serve:
        asyncio.run(serve(args.port, args.store, args.redis, args.lease, args.prefix, args.profile,
                          args.public_url))
    elif args.redis:
        if args.profile is not None:
            Path(args.profile).mkdir(parents=True, exist_ok=True)
        asyncio.run(bench_redis(args))
    else:
        asyncio.run(bench(args))


if __name__ == "__main__":
    main()
