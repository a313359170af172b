"""Clients sent to the process that owns their room (protocol revision 7), as Redis Cluster's
``MOVED`` sends a client to the node that holds a key: a process of a Redis service started with
``--public-url ws://HOST:PORT`` registers it (``sos:public:ID``, beside ``sos:alive:ID``); a client
of revision 7 whose ``hello`` reaches a process that does not own its room is answered ``moved``
with the owner's public URL and the room's code, and the connection is closed with ``MOVED_CLOSE``.
The client connects there with the same ``hello``. Everything else (an older client, an owner with
no public URL, the page) is relayed as before (``relay``).

The URL comes only from the owner's own registration in Redis, never from a client; a client
follows at most ``MAX_MOVES`` in a row, only to the same room, and never from ``wss://`` to ``ws://``.
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit

from sos_tui.engine import printable
from sos_tui.i18n import _

from .protocol import PROTOCOL_MINOR, Address, parse_url
from .reach import SERVERS_VAR

MOVED_CLOSE = 4005
"""The close code after a ``moved`` message (the reason: ``vocabulary.CloseReason.ELSEWHERE``)."""
MOVED_MINOR = 7
"""The first protocol revision whose clients follow a ``moved``."""
MAX_MOVES = 3
"""How many ``moved`` in a row a client follows before it gives up."""


def spoken_minor() -> int:
    """The revision a client says in its ``hello``: this sos-tui's, except in a tab of ``sos-tui
    web``, which may connect only to the servers it was allowed (``reach``), not wherever a
    ``moved`` sends it: it says the revision before, and is relayed."""
    return PROTOCOL_MINOR if os.environ.get(SERVERS_VAR) is None else MOVED_MINOR - 1


def public_url(text: str) -> str:
    """``--public-url``: ``ws://HOST:PORT`` or ``wss://HOST[:PORT]``, as this process is reached from
    outside (no path, query or credentials), without a trailing slash; ValueError saying what is wrong."""
    try:
        parts = urlsplit(text.strip())
        parts.port  # noqa: B018 (a port that is not a number raises here)
    except ValueError as error:
        raise ValueError(_("not a public address: {error}").format(error=printable(str(error)))) from None
    if parts.scheme not in ("ws", "wss"):
        raise ValueError(_("a public address starts with ws:// or wss://, like ws://203.0.113.5:7531"))
    if not parts.hostname:
        raise ValueError(_("the public address has no host"))
    if parts.username is not None or parts.password is not None:
        raise ValueError(_("the public address may not hold a user name or a password"))
    if parts.path.strip("/") or parts.query or parts.fragment:
        raise ValueError(_("the public address is the server's own, with no path or query: ws://HOST:PORT"))
    return f"{parts.scheme}://{parts.netloc}"


def followed(current: Address, url: str) -> Address:
    """Where a ``moved`` from ``current`` sends a client: ``url``, the same room elsewhere;
    ValueError (in the player's language) for an address that is not one, another room, or a step
    from ``wss://`` down to ``ws://``."""
    try:
        target = parse_url(url)
    except ValueError as error:
        raise ValueError(_("the server sent this game to an address that is not one: {error}").format(
            error=error)) from None
    if target.code != current.code:
        raise ValueError(_("the server sent this game to another game's address"))
    if current.scheme == "wss" and target.scheme != "wss":
        raise ValueError(_("the server sent this game from a secure address (wss://) to one that is not "
                           "(ws://): not followed"))
    return target
