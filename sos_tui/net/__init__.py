"""Network play: a game server holding rooms of ``GameSession`` (``server``), a client that mirrors
a remote game (``client``) and the wire format they share (``protocol``: typed messages, see
docs/protocol.md; ``errors``: refusals and what a server says; ``seats``: the seats of a room to
create; ``tokens``: the seat tokens kept in the data folder). Built on the ``websockets``
library's asyncio API; nothing here imports Textual."""

from .client import NetError, RemoteGame, create_room
from .errors import ProtocolError
from .protocol import DEFAULT_PORT, MAX_FRAME, PROTOCOL, Address, new_code, normal_code, parse_url
from .room import Room
from .server import Limits, Server
from .tokens import SeatKey, TokenStore

__all__ = [
    "DEFAULT_PORT", "MAX_FRAME", "PROTOCOL", "Address", "Limits", "NetError", "ProtocolError",
    "RemoteGame", "Room", "SeatKey", "Server", "TokenStore", "create_room", "new_code",
    "normal_code", "parse_url",
]  # fmt: skip
