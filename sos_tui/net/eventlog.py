"""The lines ``sos-tui server`` logs: one per event (a room created, a join, a move, a result, the
server's own start and stop), as text (``ROOM: what happened``, the default) or as JSON
(``--log-format json``: one object per line, ``{"time", "level", "event", "room"?}``, the time in
UTC). With JSON, the warnings and errors of Python's ``logging`` (ours and the ``websockets``
library's, on stderr) are JSON objects of the same shape too, so a log collector reads every line."""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Callable
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


def printer(log_format: str = "text") -> Say:
    """The ``say`` that prints each event on stdout in ``log_format``; for ``json``, the warnings
    and errors of ``logging`` become JSON lines on stderr too."""
    line = json_line if log_format == "json" else text_line
    root = logging.getLogger()
    if log_format == "json" and not any(isinstance(h.formatter, JsonFormatter) for h in root.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(JsonFormatter())
        root.addHandler(handler)
        root.setLevel(logging.WARNING)

    def say(event: str, room: str | None = None, level: str = "info") -> None:
        print(line(event, room, level), flush=True)

    return say
