"""Line mode's two streams: lines in from standard input (a pipe, a file or a terminal), sentences
out to standard output, one per line, flushed at once."""

from __future__ import annotations

import asyncio
import os
import sys
import textwrap
import threading

MAX_LINE = 200
"""The longest line written: a longer sentence goes on as the next line."""
MAX_INPUT = 1000
"""The longest input line read as a command; a longer one is refused as a whole."""


class BadLine(str):
    """An input line that is not a command: ``"long"`` (over MAX_INPUT bytes) or ``"bytes"`` (not UTF-8)."""


def say(text: str) -> None:
    """Write ``text`` as lines of at most MAX_LINE characters, and flush."""
    for line in textwrap.wrap(text, MAX_LINE, break_long_words=True, break_on_hyphens=False) or [""]:
        sys.stdout.write(line + "\n")
    sys.stdout.flush()


def read_lines(fd: int | None = None) -> asyncio.Queue:
    """A queue of the input's lines (str, or BadLine), then None at the end. A daemon thread reads
    with ``os.read``, which holds no lock that could hang the interpreter's exit."""
    fd = sys.stdin.fileno() if fd is None else fd
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue = asyncio.Queue()

    def put(item) -> bool:
        """Hand ``item`` to the line mode; False once it is gone (its loop closed): stop reading."""
        try:
            loop.call_soon_threadsafe(queue.put_nowait, item)
        except RuntimeError:  # the event loop is closed
            return False
        return True

    def run() -> None:
        pending, skipping = b"", False
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                if pending and not skipping:
                    put(_decode(pending))
                put(None)
                return
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                if skipping:
                    skipping = False
                elif not put(_decode(line)):
                    return
            if len(pending) > MAX_INPUT and not skipping:  # a long line: refuse it, drop the rest of it
                if not put(BadLine("long")):
                    return
                pending, skipping = b"", True
            elif skipping:
                pending = b""

    threading.Thread(target=run, name="sos-tui stdin", daemon=True).start()
    return queue


def _decode(line: bytes) -> str:
    if len(line) > MAX_INPUT:
        return BadLine("long")
    try:
        return line.decode("utf-8").rstrip("\r")
    except UnicodeDecodeError:
        return BadLine("bytes")
