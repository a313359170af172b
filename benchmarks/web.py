"""One browser tab of ``sos-tui web``: how long its app takes to start, and its memory.

    .venv/bin/python benchmarks/web.py [--tabs N]

Starts ``sos-tui web`` on a free loopback port with a temporary data folder, then opens N tabs
one after another through ``/ws`` (as the page does): the start-up time runs from the WebSocket
opening to the setup screen drawn; the memory is the tab process's resident set (VmRSS, Linux's
/proc) once the setup screen is up. Prints the median and the largest of each.
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

from tests.test_web import ESCAPE, SETUP, children, free_port, until  # noqa: E402

SOS = str(Path(sys.executable).with_name("sos-tui"))


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


async def one_tab(port: int, server: int) -> tuple[float, float]:
    started = time.monotonic()
    async with connect(f"ws://127.0.0.1:{port}/ws?width=100&height=30") as socket:
        await socket.send(json.dumps(["resize", {"width": 100, "height": 30}]))
        text = ""
        async with asyncio.timeout(30):
            while SETUP not in text:
                data = await socket.recv()
                text += ESCAPE.sub("", data.decode("utf-8", "replace") if isinstance(data, bytes) else data)
        seconds = time.monotonic() - started
        (app,) = children(server)
        memory = rss_mib(app)
    until(lambda: not children(server), "the tab's process to end")
    return seconds, memory


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tabs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "SOS_TUI_DATA_DIR": f"{folder}/data", "SOS_TUI_CONFIG_DIR": f"{folder}/config"}
        port = free_port()
        server = subprocess.Popen([SOS, "web", "--port", str(port)], env=env, stdout=subprocess.PIPE,
                                  text=True)
        try:
            assert "Serving SOS" in server.stdout.readline()
            results = [asyncio.run(one_tab(port, server.pid)) for _ in range(args.tabs)]
        finally:
            server.send_signal(signal.SIGINT)
            server.wait(30)
    starts, memories = zip(*results, strict=True)
    print(f"start-up (WebSocket open -> setup screen drawn): median {statistics.median(starts):.2f} s, "
          f"max {max(starts):.2f} s over {args.tabs} tabs")
    print(f"memory of one tab's process (VmRSS): median {statistics.median(memories):.0f} MiB, "
          f"max {max(memories):.0f} MiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
