"""Redis's wire protocol (RESP2 and RESP3), the little of it that goes over sos-tui's own
connections to Redis (``redislink.Lane``: the rooms' writes; the relay's channel), for the one
command or message of every move. redis-py makes and greets each such connection (address, TLS,
AUTH, SELECT, HELLO); after that, commands go out as ``packed`` makes them and replies are read by
``reply``, straight off the connection's stream: a third of the CPU of redis-py's own packing and
parsing, measured in docs/protocol.md ("Measurements"). The pool's commands stay redis-py's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence


class Push(list):
    """A message Redis sends without being asked (RESP3's push): what a subscribed connection
    gets, and on any other a notice that answers no command (a lane skips it)."""


def packed(commands: Sequence[tuple]) -> bytes:
    """``commands`` as Redis reads them: each an array of bulk strings (text in UTF-8, numbers in
    decimal), byte for byte what redis-py sends for them."""
    out = []
    for command in commands:
        out.append(b"*%d\r\n" % len(command))
        for arg in command:
            data = arg if isinstance(arg, bytes) else str(arg).encode()
            out.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(out)


async def reply(reader: asyncio.StreamReader, refusal: Callable[[str], BaseException]) -> object:
    """The next reply on ``reader`` as redis-py gives it with ``decode_responses``: text as str,
    integers as int, arrays as lists (a push as a ``Push``), nulls as None; an error reply as
    ``refusal(its text)``, in its place. A connection that ends (or sends what is not RESP)
    raises ConnectionResetError, as a lost connection does."""
    try:
        return await _reply(reader, refusal)
    except ValueError as problem:  # a length or a number that is none, text that is not UTF-8
        raise ConnectionResetError(f"not a Redis reply ({problem})") from None


async def _reply(reader: asyncio.StreamReader, refusal: Callable[[str], BaseException]) -> object:
    line = await _read(reader.readuntil(b"\r\n"))
    kind, rest = line[:1], line[1:-2]
    if kind == b"+":
        return rest.decode()
    if kind == b"-":
        return refusal(rest.decode())
    if kind in (b":", b"("):
        return int(rest)
    if kind == b"_":
        return None
    if kind == b"#":
        return rest == b"t"
    if kind == b",":
        return float(rest)
    if kind in (b"$", b"=", b"!"):
        size = int(rest)
        if size < 0:
            return None
        text = (await _read(reader.readexactly(size + 2)))[:-2].decode()
        if kind == b"!":
            return refusal(text)
        return text[4:] if kind == b"=" else text  # verbatim text starts with its format: "txt:"
    if kind in (b"*", b">", b"~"):
        size = int(rest)
        items = None if size < 0 else [await _reply(reader, refusal) for _item in range(size)]
        return Push(items) if kind == b">" else items
    if kind == b"%":
        return {await _reply(reader, refusal): await _reply(reader, refusal) for _pair in range(int(rest))}
    raise ConnectionResetError(f"not a Redis reply: {line[:40]!r}")


async def _read(reading) -> bytes:
    try:
        return await reading
    except (asyncio.IncompleteReadError, asyncio.LimitOverrunError):
        raise ConnectionResetError("Redis closed the connection") from None
