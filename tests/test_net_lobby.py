"""The lobby on one server process (no Redis): ``create`` with ``public``, the ``lobby`` message and
its ``rooms`` answer, what a client makes of a hostile answer, and the public flag kept in the
rooms database (schema 2; a schema-1 database is brought up to date)."""

from __future__ import annotations

import json
import sqlite3
import sys

from websockets.asyncio.client import connect

from sos_tui.net import Server, TokenStore, create_room
from sos_tui.net.client import list_rooms
from sos_tui.net.protocol import ErrorMessage, RoomsMessage, parse_server
from sos_tui.net.store import SCHEMA_VERSION, SqliteRoomStore

from .support.helpers import seated


async def first_reply(url: str, message: dict):
    async with connect(url) as ws:
        await ws.send(json.dumps(message))
        return parse_server(await ws.recv())


SEATS = [{"kind": "human", "name": "Ana"}, {"kind": "remote"}]


async def test_the_lobby_lists_only_public_rooms_with_a_seat_open():
    async with Server(allow_create=True) as server:
        port = await server.start()
        base = f"ws://127.0.0.1:{port}"
        url, _token, _seats = await create_room(base, 6, "general", SEATS, public=True)
        await create_room(base, 4, "simple", [{"kind": "human", "name": "Hidden"}, {"kind": "remote"}])
        code = url.rsplit("/", 1)[1]
        listed = await list_rooms(base)
        assert [(r.room, r.size, str(r.mode), r.seats, r.free, r.waiting) for r in listed] == \
            [(code, 6, "general", 2, 1, ("Ana",))]
        bo = await seated(url, "Bo", TokenStore())
        await bo.until(lambda: bo.game.phase == "playing")
        assert await list_rooms(base) == ()  # full: off the list
        await bo.close()


async def test_the_lobby_is_asked_at_the_servers_own_address_and_public_must_be_a_boolean():
    async with Server(allow_create=True) as server:
        port = await server.start()
        url, _token, _seats = await create_room(f"ws://127.0.0.1:{port}", 3, "general", SEATS)
        message = await first_reply(url, {"type": "lobby", "protocol": 1})
        assert isinstance(message, ErrorMessage) and message.code == "bad-message"
        create = {"type": "create", "protocol": 1, "size": 3, "mode": "general", "seats": SEATS, "public": 1}
        message = await first_reply(f"ws://127.0.0.1:{port}", create)
        assert isinstance(message, ErrorMessage) and message.code == "bad-room"


def test_a_client_keeps_only_well_formed_listed_games_with_printable_names():
    good = {"room": "7F3KQ-X9M2C", "size": 5, "mode": "simple", "seats": 3, "free": 1,
            "waiting": ["Ana\x1b[31m", 7, "x" * 100]}
    bad = [{"room": "nope", "size": 5, "mode": "simple", "seats": 3, "free": 1, "waiting": []},
           {**good, "size": 99}, {**good, "free": 0}, {**good, "mode": "chess"}, {**good, "seats": True}, "x"]
    message = parse_server(json.dumps({"type": "rooms", "rooms": [good, *bad]}))
    assert isinstance(message, RoomsMessage) and len(message.rooms) == 1
    room = message.rooms[0]
    assert room.room == "7f3kq-x9m2c" and room.waiting[0].startswith("Ana") and "\x1b" not in room.waiting[0]
    assert len(room.waiting) == 2 and len(room.waiting[1]) == 24


async def test_a_public_room_stays_public_in_the_rooms_database(tmp_path):
    store = SqliteRoomStore(tmp_path / "rooms.sqlite3")
    async with Server(allow_create=True, store=store) as server:
        room = server.create_room(4, "general", SEATS, public=True)
        await room.saved()
    await store.close()
    store = SqliteRoomStore(tmp_path / "rooms.sqlite3")
    try:
        (kept,) = store.load(None)
        assert kept.public
        async with Server(allow_create=True, store=store) as server:
            server.restore(kept)
            assert [r.room for r in await server.lobby()] == [kept.code]
    finally:
        await store.close()


def test_a_schema_1_rooms_database_is_brought_up_to_date(tmp_path):
    path = tmp_path / "rooms.sqlite3"
    conn = sqlite3.connect(path)
    conn.executescript("""
        CREATE TABLE rooms (code TEXT PRIMARY KEY, size INTEGER NOT NULL, mode TEXT NOT NULL, host_key TEXT,
            creator TEXT, created_at REAL NOT NULL, active_at REAL NOT NULL, version INTEGER NOT NULL,
            record TEXT);
        CREATE TABLE seats (code TEXT NOT NULL, seat INTEGER NOT NULL, kind TEXT NOT NULL, name TEXT,
            level TEXT, token_hash TEXT, PRIMARY KEY (code, seat));
        INSERT INTO rooms VALUES ('7f3kq-x9m2c', 4, 'general', NULL, NULL, 1.0, 1.0, 0, NULL);
        INSERT INTO seats VALUES ('7f3kq-x9m2c', 0, 'human', 'Ana', NULL, 'ab');
        INSERT INTO seats VALUES ('7f3kq-x9m2c', 1, 'remote', NULL, NULL, NULL);
        PRAGMA application_id = 1397707602;
        PRAGMA user_version = 1;
    """)
    conn.close()
    store = SqliteRoomStore(path)
    (kept,) = store.load(None)
    assert kept.code == "7f3kq-x9m2c" and not kept.public and not kept.rated
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_server_redis_without_the_redis_package_says_how_to_install_it(monkeypatch, capsys):
    from sos_tui.cli import main

    monkeypatch.setitem(sys.modules, "redis", None)  # as if not installed
    monkeypatch.setitem(sys.modules, "redis.asyncio", None)
    assert main(["server", "--port", "0", "--redis", "redis://127.0.0.1:6379/0"]) != 0
    err = capsys.readouterr().err.strip()
    assert "pip install 'sos-tui[redis]'" in err and "\n" not in err and "Traceback" not in err


def test_a_full_lobby_of_the_longest_names_fits_in_one_server_frame():
    from sos_tui.engine import Mode
    from sos_tui.net.protocol import MAX_LOBBY, MAX_SERVER_FRAME, LobbyRoom

    name = "\U0001f600" * 24  # 4 bytes each in UTF-8
    rooms = tuple(LobbyRoom("7f3kq-x9m2c", 26, Mode("general"), 6, 1, (name,) * 5) for _i in range(500))
    frame = RoomsMessage(rooms).to_json()
    assert len(frame.encode()) <= MAX_SERVER_FRAME
    assert len(parse_server(frame).rooms) == MAX_LOBBY
