"""Network play: a game server holding rooms of ``GameSession`` (``server``), a client that mirrors
a remote game (``client``) and the wire format they share (``protocol``, see docs/protocol.md).
Built on the ``websockets`` library's asyncio API; nothing here imports Textual."""

from .client import NetError, RemoteGame, TokenStore, Update, create_room
from .protocol import (
    DEFAULT_PORT,
    MAX_FRAME,
    PROTOCOL,
    Address,
    ProtocolError,
    new_code,
    normal_code,
    parse_url,
)
from .server import Limits, Room, SeatSpec, Server

__all__ = [
    "DEFAULT_PORT", "MAX_FRAME", "PROTOCOL", "Address", "Limits", "NetError", "ProtocolError",
    "RemoteGame", "Room", "SeatSpec", "Server", "TokenStore", "Update", "create_room", "new_code",
    "normal_code", "parse_url",
]  # fmt: skip
