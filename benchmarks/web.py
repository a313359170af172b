"""One browser tab of ``sos-tui web``: how long its app takes to start, and its memory, against a
bare Textual app (one Label) served by textual-serve the same way in the same run.

    .venv/bin/python benchmarks/web.py [--tabs N]

Starts ``sos-tui web`` on a free loopback port with a temporary data folder, and textual-serve
serving the bare app on another, then opens N tabs of each through ``/ws`` (as the page does),
alternating, so load on the machine falls on both alike: the start-up time runs from the WebSocket
opening to the first screen drawn (the setup screen; the bare app's label); the memory is the tab
process's resident set (VmRSS, Linux's /proc) once that screen is up. Prints the median and the
largest of each, and sos-tui's medians as ratios to the bare app's: the figures to compare across
machines and loads.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support.helpers import children, free_port  # noqa: E402
from tests.support.webpage import ESCAPE, SETUP, until  # noqa: E402

SOS = str(Path(sys.executable).with_name("sos-tui"))
BARE_APP = '''
from textual.app import App
from textual.widgets import Label

class Bare(App):
    def compose(self):
        yield Label("bare app ready")

Bare().run()
'''
BARE_READY = "bare app ready"
BARE_SERVER = """
import sys
from textual_serve.server import Server
Server(sys.argv[1], host="127.0.0.1", port=int(sys.argv[2])).serve()
"""


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


async def one_tab(port: int, server: int, ready: str = SETUP) -> tuple[float, float]:
    started = time.monotonic()
    # as the page does, from its own origin: sos-tui web refuses any other (403)
    origin = f"http://127.0.0.1:{port}"
    async with connect(f"ws://127.0.0.1:{port}/ws?width=100&height=30", origin=origin) as socket:
        await socket.send(json.dumps(["resize", {"width": 100, "height": 30}]))
        text = ""
        async with asyncio.timeout(30):
            while ready not in text:
                data = await socket.recv()
                text += ESCAPE.sub("", data.decode("utf-8", "replace") if isinstance(data, bytes) else data)
        seconds = time.monotonic() - started
        (app,) = children(server)
        memory = rss_mib(app)
    until(lambda: not children(server), "the tab's process to end")
    return seconds, memory


def serving(command: list[str], port: int, env: dict) -> subprocess.Popen:
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def listening() -> bool:
        import socket

        with socket.socket() as probe:
            return probe.connect_ex(("127.0.0.1", port)) == 0

    until(listening, f"a server on port {port}")
    return process


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tabs", type=int, default=5)
    args = parser.parse_args()
    results: dict[str, list[tuple[float, float]]] = {"sos-tui": [], "bare": []}
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "SOS_TUI_DATA_DIR": f"{folder}/data", "SOS_TUI_CONFIG_DIR": f"{folder}/config"}
        bare = Path(folder) / "bare.py"
        bare.write_text(BARE_APP)
        port, bare_port = free_port(), free_port()
        servers = [serving([SOS, "web", "--port", str(port)], port, env),
                   serving([sys.executable, "-c", BARE_SERVER, f"exec {sys.executable} {bare}",
                            str(bare_port)], bare_port, env)]
        try:
            for _ in range(args.tabs):
                results["bare"].append(asyncio.run(one_tab(bare_port, servers[1].pid, BARE_READY)))
                results["sos-tui"].append(asyncio.run(one_tab(port, servers[0].pid)))
        finally:
            for server in servers:
                server.send_signal(signal.SIGINT)
                server.wait(30)
    medians = {}
    for name, runs in results.items():
        starts, memories = zip(*runs, strict=True)
        medians[name] = statistics.median(starts), statistics.median(memories)
        print(f"{name}: start-up (WebSocket open -> first screen drawn) median {medians[name][0]:.2f} s, "
              f"max {max(starts):.2f} s; memory of the tab's process (VmRSS) median "
              f"{medians[name][1]:.0f} MiB, max {max(memories):.0f} MiB  ({args.tabs} tabs)")
    (start, memory), (bare_start, bare_memory) = medians["sos-tui"], medians["bare"]
    print(f"sos-tui / bare Textual app: start-up {start / bare_start:.2f}x, "
          f"memory {memory / bare_memory:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
