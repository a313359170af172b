"""Which game servers this process may connect to: any, except in a tab of ``sos-tui web``.

A tab is driven from a web page: it must not become a way into the networks its machine can
reach (join and the lobby tell "nothing listening" from "not a game server", which is a port
scanner). ``sos-tui web`` sets ``SERVERS_VAR`` for its tabs: they then connect only to this
computer (``localhost``, its loopback and its own addresses, where its tabs host their games) and
to the servers listed there (``--allow-server``). Without the variable nothing is limited."""

from __future__ import annotations

import contextlib
import ipaddress
import os
import socket

from .protocol import Address

SERVERS_VAR = "SOS_TUI_SERVERS"
"""Set for the tabs of ``sos-tui web``: the servers (``ws://HOST:PORT``, space-separated, as
``Address.server`` writes them) a tab may connect to besides this computer's."""


def may_connect(address: Address) -> bool:
    """Whether this process may open a connection to ``address``'s server."""
    allowed = os.environ.get(SERVERS_VAR)
    return allowed is None or address.server in allowed.split() or on_this_computer(address.host)


def on_this_computer(host: str) -> bool:
    """Whether ``host`` is ``localhost`` or an address of this computer (one a socket can be bound
    to). Any other name is not: what it names is up to whoever answers for it."""
    if host.lower() == "localhost":
        return True
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    if ip.is_loopback:
        return True
    family = socket.AF_INET if ip.version == 4 else socket.AF_INET6
    with contextlib.suppress(OSError), socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.bind((str(ip), 0))
        return True
    return False
