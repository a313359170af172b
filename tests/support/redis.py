"""A redis-server of a test's own (Debian's ``redis-server``), for the tests of a service on Redis."""

from __future__ import annotations

import contextlib
import socket
import subprocess
from pathlib import Path

import pytest

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
