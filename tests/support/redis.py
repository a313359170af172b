"""A redis-server of a test's own (Debian's ``redis-server``), for the tests of a service on Redis."""

from __future__ import annotations

import contextlib
import errno
import socket
import subprocess
from pathlib import Path

import pytest

from sos_tui.net import Server
from sos_tui.net.cluster import Cluster

from .helpers import free_port, until


class RedisServer:
    """A redis-server of a test's own on 127.0.0.1, a free port; with ``folder`` it keeps an
    append-only file there (synced on every write), so a restart brings its data back; without,
    no persistence (a restart comes back empty)."""

    def __init__(self, folder: Path | None = None) -> None:
        self.port, self.folder = free_port(), folder
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        keep = ["--appendonly", "yes", "--appendfsync", "always", "--dir", str(self.folder)] if self.folder \
            else ["--appendonly", "no"]
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", *keep,
             "--protected-mode", "yes", "--loglevel", "warning"], stdout=subprocess.DEVNULL)
        def listening() -> bool:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), 0.2):
                return True
            return self.process.poll() is not None  # it ended: no use waiting

        until(listening, "redis-server to listen", 10)
        if self.process.poll() is not None:
            pytest.fail("redis-server did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)
            self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def __enter__(self) -> RedisServer:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


@contextlib.asynccontextmanager
async def service(url: str, count: int = 2, lease: float = 1.0, public: bool | str = False):
    """``count`` servers in this process forming one service on ``url``, each on a free port of its
    own; with ``public`` True each has its own public URL (``--public-url``), with a string every
    one has that one. Redis unreachable is tried again after 20 ms, then at most every 100 ms."""
    servers: list[Server] = []
    try:
        for _i in range(count):
            servers.append(await _started(url, lease, public))
        yield servers
    finally:
        for server in servers:
            await server.stop()


async def _started(url: str, lease: float, public: bool | str) -> Server:
    """One server of the service, started on a free port. Its public URL names its port before it
    binds, so the port is probed first; another test's server can take it meanwhile, and then
    another port is probed."""
    for _attempt in range(5):
        port = free_port()
        server = Server(allow_create=True, cluster=Cluster(
            url, lease=lease, backoff=(0.02, 0.1),
            public=public if isinstance(public, str) else f"ws://127.0.0.1:{port}" if public else None))
        try:
            await server.start("127.0.0.1", port)
        except OSError as error:
            if error.errno != errno.EADDRINUSE:
                raise
            continue
        return server
    raise AssertionError("no free port in 5 tries")


def address(server: Server, code: str | None = None) -> str:
    """The ws:// address of ``server`` (in this process), or of its room ``code``."""
    return f"ws://127.0.0.1:{server.port}" + (f"/{code}" if code else "")
