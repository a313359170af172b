"""Redis's wire protocol as sos-tui's own connections to Redis speak it (``sos_tui.net.resp``): the
commands packed byte for byte as redis-py packs them, every kind of reply read as redis-py gives
it, error replies in their place, and a connection that ends or sends what is not Redis's protocol
taken as a lost connection."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sos_tui.net.redislink import Lane, refused, streams
from sos_tui.net.resp import Push, packed, reply

redis = pytest.importorskip("redis")

from redis.asyncio.connection import Connection  # noqa: E402 (after the skip)
from redis.exceptions import NoScriptError, ResponseError  # noqa: E402

arguments = st.one_of(st.text(), st.integers(), st.binary())
names = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=1, max_size=8)  # a command's, one word
commands = st.lists(
    st.tuples(names, st.lists(arguments, max_size=6)).map(lambda c: (c[0], *c[1])), max_size=4
)


@given(commands)
def test_commands_are_packed_as_redis_py_packs_them(sent):
    assert packed(sent) == b"".join(Connection().pack_commands(sent))


def read(data: bytes, count: int = 1) -> list:
    """The first ``count`` replies of ``data``, then the connection ends."""

    async def reading():
        reader = asyncio.StreamReader()
        reader.feed_data(data)
        reader.feed_eof()
        return [await reply(reader, refused) for _i in range(count)]

    return asyncio.run(reading())


def encoded(value) -> bytes:
    """``value`` as Redis sends it (RESP3)."""
    match value:
        case None:
            return b"_\r\n"
        case bool():
            return b"#t\r\n" if value else b"#f\r\n"
        case int():
            return b":%d\r\n" % value
        case str():
            data = value.encode()
            return b"$%d\r\n%s\r\n" % (len(data), data)
        case list():
            return b"*%d\r\n" % len(value) + b"".join(map(encoded, value))
    raise AssertionError(value)


replies = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4),
    max_leaves=12,
)


@given(replies)
def test_every_reply_reads_back_as_it_was_sent(value):
    assert read(encoded(value)) == [value]


def test_simple_null_and_pushed_replies_and_errors_in_their_place():
    said = read(
        b"+OK\r\n$-1\r\n*-1\r\n,1.5\r\n(12345678901234567890\r\n=8\r\ntxt:Ana!\r\n"
        b'>3\r\n$7\r\nmessage\r\n$6\r\nsos:p1\r\n$8\r\n{"op":1}\r\n%1\r\n+a\r\n:1\r\n'
        b"-NOSCRIPT No matching script\r\n-OOM command not allowed\r\n",
        10,
    )
    assert said[:8] == [
        "OK",
        None,
        None,
        1.5,
        12345678901234567890,
        "Ana!",
        Push(["message", "sos:p1", '{"op":1}']),
        {"a": 1},
    ]
    assert isinstance(said[8], NoScriptError) and str(said[8]) == "NOSCRIPT No matching script"
    assert type(said[9]) is ResponseError and "OOM" in str(said[9])


@pytest.mark.parametrize(
    "data", [b"", b":12", b"$5\r\nab", b"*2\r\n:1\r\n", b"?what\r\n", b":twelve\r\n", b"$2\r\n\xff\xfe\r\n"]
)
def test_a_connection_that_ends_or_is_not_redis_is_a_lost_connection(data):
    with pytest.raises(ConnectionResetError):
        read(data)


class Wire:
    """A redis-py connection as a lane uses it, its replies given and its commands kept."""

    def __init__(self, replies: bytes) -> None:
        self._reader = asyncio.StreamReader()
        self._reader.feed_data(replies)
        self._writer = self
        self.sent = b""

    def make_connection(self):  # the pool's, too
        return self

    async def connect(self) -> None:
        pass

    def write(self, data: bytes) -> None:
        self.sent += data

    async def drain(self) -> None:
        pass


def test_a_lane_sends_its_commands_at_once_and_skips_a_notice_redis_pushed_unasked():
    commands = [("EVALSHA", "abc", 1, "sos:lease:x", "Ana"), ("GET", "sos:epoch")]

    async def sending():
        wire = Wire(b">2\r\n$10\r\ninvalidate\r\n_\r\n:1\r\n-NOSCRIPT No matching script\r\n")
        return wire, await Lane(wire, 5.0).send(commands)

    wire, replies = asyncio.run(sending())
    assert wire.sent == packed(commands)
    assert replies[0] == 1 and isinstance(replies[1], NoScriptError)


def test_the_installed_redis_py_keeps_a_connections_streams_where_streams_reads_them():
    """``redislink.streams`` reads redis-py's own attributes (pyproject.toml bounds redis-py to the
    versions that have them): a version that renamed them fails here, not in a live service."""
    connection = Connection()
    assert streams(connection) == (None, None)  # not connected yet: the attributes exist, empty
