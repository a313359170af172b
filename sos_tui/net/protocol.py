"""The wire format shared by the server and the client: JSON text frames, one object each, with a
``type``. docs/protocol.md describes every message; this module holds the constants and the few
functions both sides use to read and write them. No Textual, no websockets.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from urllib.parse import urlsplit

PROTOCOL = 1
"""The major protocol version, sent by the client in ``hello`` and ``create`` and by the server in
``welcome``. Additions that old peers can ignore (new fields, new optional messages) keep it;
anything else raises it, and a server refuses a client whose number differs."""

DEFAULT_PORT = 7531
MAX_FRAME = 4096
"""The largest message a server accepts from a client, in bytes (UTF-8)."""
MAX_SERVER_FRAME = 64 * 1024
"""The largest message a client accepts from a server (a state holds a whole game record)."""

CODE_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"
"""Crockford's base 32: no i, l, o or u, so a code read aloud is not misheard."""
CODE_LENGTH = 10  # 50 bits
_READ_AS = str.maketrans({"i": "1", "l": "1", "o": "0", "-": None, " ": None})


class ProtocolError(ValueError):
    """A message that is not what the protocol allows; the text says why, for the sender."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def new_code() -> str:
    """A room code: 50 random bits from ``secrets``, as two groups of five (``7f3kq-x9m2c``)."""
    chars = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    return f"{chars[:5]}-{chars[5:]}"


def normal_code(text: str) -> str | None:
    """``text`` as a room code in its written form, or None if it cannot be one. Case, spaces and
    dashes do not matter; ``i``/``l`` read as 1 and ``o`` as 0."""
    chars = text.strip().lower().translate(_READ_AS)
    if len(chars) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in chars):
        return None
    return f"{chars[:5]}-{chars[5:]}"


def new_token() -> str:
    """A seat token: 128 random bits. Whoever holds it plays that seat."""
    return secrets.token_urlsafe(16)


@dataclass(frozen=True, slots=True)
class Address:
    """A parsed ``ws://HOST:PORT/CODE`` (or ``wss://``); ``code`` is None for a server's own URL."""

    scheme: str
    host: str
    port: int
    code: str | None

    @property
    def server(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{self.scheme}://{host}:{self.port}"

    def __str__(self) -> str:
        return f"{self.server}/{self.code}" if self.code else self.server


def parse_url(text: str, need_code: bool = True) -> Address:
    """``ws://HOST:PORT/CODE`` -> Address; ValueError saying what is wrong."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError as error:
        raise ValueError(f"not a game address: {error}") from None
    if parts.scheme not in ("ws", "wss"):
        raise ValueError("a game address starts with ws:// (or wss://), like ws://192.168.1.5:7531/7f3kq-x9m2c")
    if not parts.hostname:
        raise ValueError("the game address has no host")
    if port is None:
        port = DEFAULT_PORT if parts.scheme == "ws" else 443
    path = parts.path.strip("/")
    code = None
    if path:
        code = normal_code(path)
        if code is None:
            raise ValueError(f"{path!r} is not a room code (ten letters and digits, like 7f3kq-x9m2c)")
    elif need_code:
        raise ValueError("the game address has no room code: ws://HOST:PORT/CODE")
    return Address(parts.scheme, parts.hostname, port, code)


def encode(message: dict) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


def decode(frame, limit: int = MAX_FRAME) -> dict:
    """One received frame -> its message; ProtocolError for anything the protocol does not allow
    at this level (binary, over ``limit`` bytes, not JSON, not an object with a string ``type``)."""
    if not isinstance(frame, str):
        raise ProtocolError("bad-frame", "send text frames holding JSON, not binary")
    if len(frame) > limit or len(frame.encode("utf-8", "surrogatepass")) > limit:
        raise ProtocolError("too-big", f"a message can be at most {limit} bytes")
    try:
        message = json.loads(frame)
    except (ValueError, RecursionError):
        raise ProtocolError("bad-json", "not valid JSON") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise ProtocolError("bad-message", "a message is a JSON object with a \"type\"")
    return message


def error(code: str, message: str, **extra) -> dict:
    return {"type": "error", "code": code, "message": message, **extra}
