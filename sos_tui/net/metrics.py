"""What a ``server.Server`` tells its operator over HTTP, on the game's own port: ``GET /healthz``
and ``GET /metrics`` (docs/deploy.md).

- ``/healthz``: 200 ``ok`` while the server accepts games, 503 ``stopping`` once it is stopping
  (``sos-tui server`` keeps answering for a moment after SIGTERM, so a load balancer sees it go);
- ``/metrics``: the Prometheus text format, from a registry of this server's own (two servers in
  one process count apart): the rooms and connections now, the moves played and the games
  finished, the refusals sent by error code, and a histogram of the time a move message takes to
  handle, from its arrival to its answer queued.

The port is public, so the metrics are counts only: no room code, name, address or message text is
ever a label (the one label, ``code``, is an error code of this program, checked as such). Both
answers go through the same door as the page (``webpage.answer``: the per-address limits, GET and
HEAD only, bounded requests).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
from http import HTTPStatus

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from sos_tui.session import Change, ChangeKind

from .protocol import ClientMessage, MoveMessage
from .webpage import Route

TEXT = "text/plain; charset=utf-8"
MOVE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)
"""Seconds: handling a move is a fraction of a millisecond on an idle server."""
_CODE = re.compile(r"[a-z][a-z-]{0,23}")
"""What an error code of this program looks like; anything else is counted as ``other``."""


class ServerMetrics:
    """The counters of one server; ``rooms`` and ``connections`` are read when scraped."""

    def __init__(self, rooms: Callable[[], int], connections: Callable[[], int]) -> None:
        self.registry = registry = CollectorRegistry()
        self.stopping = False
        Gauge("sos_rooms", "Rooms held by this server process", registry=registry).set_function(rooms)
        Gauge(
            "sos_connections", "WebSocket connections open to this server process", registry=registry
        ).set_function(connections)
        Gauge(
            "sos_stopping", "1 while the server is stopping (GET /healthz answers 503)", registry=registry
        ).set_function(lambda: float(self.stopping))
        self.moves = Counter(
            "sos_moves", "Moves played in this process's rooms, by every kind of seat", registry=registry
        )
        self.games = Counter(
            "sos_games_finished", "Games played to their end in this process's rooms", registry=registry
        )
        self.errors = Counter(
            "sos_errors",
            "Refusals sent to clients (error messages), by error code",
            ["code"],
            registry=registry,
        )
        self.move_seconds = Histogram(
            "sos_move_handling_seconds",
            "Time to handle a move message, from its arrival to its answer queued",
            buckets=MOVE_BUCKETS,
            registry=registry,
        )

    @property
    def routes(self) -> dict[str, Route]:
        """The HTTP answers by path, for ``webpage.answer``."""
        return {"/healthz": self.health, "/metrics": self.exposition}

    def health(self) -> tuple[HTTPStatus, bytes, str]:
        if self.stopping:
            return HTTPStatus.SERVICE_UNAVAILABLE, b"stopping\n", TEXT
        return HTTPStatus.OK, b"ok\n", TEXT

    def exposition(self) -> tuple[HTTPStatus, bytes, str]:
        return HTTPStatus.OK, generate_latest(self.registry), CONTENT_TYPE_LATEST

    def on_change(self, change: Change) -> None:
        """A room's session changed (subscribed to every room's, as the server's listeners are)."""
        if change.kind is ChangeKind.MOVE:
            self.moves.inc()
        if change.finished:
            self.games.inc()

    def handling(self, message: ClientMessage) -> contextlib.AbstractContextManager:
        """Around handling ``message``: a move's time goes into the histogram."""
        return self.move_seconds.time() if isinstance(message, MoveMessage) else contextlib.nullcontext()

    def refused(self, code: str) -> None:
        self.errors.labels(code if _CODE.fullmatch(code) else "other").inc()
