"""The lines ``sos-tui server`` logs: one per event (a room created, a join, a move, a result, the
server's own start and stop), as text (``ROOM: what happened``, the default) or as JSON
(``--log-format json``: one object per line, ``{"time", "level", "event", "room"?}``, the time in
UTC). With JSON, the warnings and errors of Python's ``logging`` (ours and the ``websockets``
library's, on stderr) are JSON objects of the same shape too, so a log collector reads every line."""

from __future__ import annotations

import contextlib
import json
import logging
import sys
from collections.abc import Callable, Iterator
from datetime import UTC, datetime

FORMATS = ("text", "json")

Say = Callable[..., None]
"""``say(event, room=None, level="info")``: one event, of a room (its code) or of the server."""


def text_line(event: str, room: str | None = None, level: str = "info") -> str:
    return f"{room}: {event}" if room else event


def json_line(event: str, room: str | None = None, level: str = "info") -> str:
    fields = {
        "time": datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "level": level,
        "event": event,
    }
    if room is not None:
        fields["room"] = room
    return json.dumps(fields, ensure_ascii=False)


class JsonFormatter(logging.Formatter):
    """A ``logging`` record as ``json_line`` (a traceback, when there is one, inside ``event``)."""

    def format(self, record: logging.LogRecord) -> str:
        event = record.getMessage()
        if record.exc_info:
            event += "\n" + self.formatException(record.exc_info)
        return json_line(event, level=record.levelname.lower())


@contextlib.contextmanager
def logged_as(log_format: str = "text") -> Iterator[None]:
    """Inside: with ``json``, the warnings and errors of ``logging`` are JSON lines on stderr too.
    After, logging is as it was (``main`` may run in a process that goes on: a test, a script)."""
    root = logging.getLogger()
    if log_format != "json" or any(isinstance(h.formatter, JsonFormatter) for h in root.handlers):
        yield
        return
    handler, level = logging.StreamHandler(sys.stderr), root.level
    handler.setFormatter(JsonFormatter())
    root.addHandler(handler)
    root.setLevel(logging.WARNING)
    try:
        yield
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


def printer(log_format: str = "text") -> Say:
    """The ``say`` that prints each event on stdout in ``log_format`` (``logged_as`` makes
    ``logging``'s warnings and errors the same JSON lines)."""
    line = json_line if log_format == "json" else text_line

    def say(event: str, room: str | None = None, level: str = "info") -> None:
        print(line(event, room, level), flush=True)

    return say
