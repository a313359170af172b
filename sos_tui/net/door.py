"""Who may come in to a ``server.Server``: connections in all and from one address, and how many
new connections and new rooms one address may make a second (``Limits``). An IPv6 address counts
as its /64, which one machine usually holds whole (``source``)."""

from __future__ import annotations

import ipaddress
import math
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from http import HTTPStatus

from websockets.asyncio.server import ServerConnection

from .limits import Limits
from .webpage import Route
from .webpage import answer as page_answer


@dataclass(eq=False)
class Allowance:
    """How many of something may happen now: refilled at ``rate`` a second up to ``burst``."""

    rate: float
    burst: float
    left: float = math.inf
    stamp: float = field(default_factory=time.monotonic)

    def take(self) -> bool:
        """Use one; False (nothing used) when none is left."""
        now = time.monotonic()
        self.left = min(float(self.burst), self.left + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.left < 1:
            return False
        self.left -= 1
        return True

    @property
    def idle(self) -> bool:
        """Full again: nothing to remember."""
        return self.left + (time.monotonic() - self.stamp) * self.rate >= self.burst


class Allowances:
    """One ``Allowance`` per address, forgotten once full again (``prune``)."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self._by: dict[str, Allowance] = {}

    def take(self, address: str) -> bool:
        allowance = self._by.get(address)
        if allowance is None:
            allowance = self._by[address] = Allowance(self.rate, self.burst)
        return allowance.take()

    def prune(self) -> None:
        self._by = {address: a for address, a in self._by.items() if not a.idle}


class Door:
    """The connections in, by address, and the allowances of each address."""

    def __init__(self, limits: Limits, routes: Mapping[str, Route] | None = None) -> None:
        self.limits = limits
        self.routes = routes  # HTTP answers beside the page's (webpage.answer)
        self.connections: Counter[str] = Counter()
        self._connects = Allowances(limits.connects_per_second, limits.connect_burst)
        self._creates = Allowances(limits.creates_per_minute / 60, limits.create_burst)

    def admit(self, connection: ServerConnection, request):
        """The websockets library's ``process_request``: None lets the connection in, else the
        HTTP answer that refuses it, or a page the browser asked for."""
        address, limits = address_of(connection), self.limits
        if sum(self.connections.values()) >= limits.max_connections:
            return connection.respond(HTTPStatus.SERVICE_UNAVAILABLE, "the server is full\n")
        if self.connections[address] >= limits.connections_per_address:
            return connection.respond(HTTPStatus.TOO_MANY_REQUESTS,
                                      "too many connections from your address\n")
        if not self._connects.take(source(address)):
            return connection.respond(HTTPStatus.TOO_MANY_REQUESTS,
                                      "too many new connections from your address: wait a moment\n")
        return page_answer(request, self.routes)  # page, /healthz, /metrics (webpage.py); None: WebSocket

    def entered(self, address: str) -> None:
        self.connections[address] += 1

    def left(self, address: str) -> None:
        self.connections[address] -= 1
        if self.connections[address] <= 0:
            del self.connections[address]

    def may_create(self, creator: str) -> bool:
        """One more room created by ``creator`` (a ``source``) now; False (none used) if it may not."""
        return self._creates.take(creator)

    def prune(self) -> None:
        """Forget the addresses whose allowances are full again."""
        self._connects.prune()
        self._creates.prune()


def address_of(connection: ServerConnection) -> str:
    remote = connection.remote_address
    return str(remote[0]) if remote else "?"


def source(address: str) -> str:
    """Whom the per-address limits count: the address, or for IPv6 its /64 (one machine's, often)."""
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return address
    if ip.version == 6:
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)
