"""Rooms that outlive their server: the rooms database (tokens hashed, a move on disk before anyone
sees it), ``sos-tui server`` and ``host --headless`` killed with SIGKILL mid-game and started again
on the same data folder, a stop closing with 1012, resent moves, the abuse limits and a damaged or
foreign rooms database. Servers listen on 127.0.0.1 and are stopped by the test that starts them."""

from __future__ import annotations

import asyncio
import json
import signal
import sqlite3

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from sos_tui.cli import main
from sos_tui.engine import Move
from sos_tui.net import Limits, NetError, RemoteGame, Server, TokenStore, create_room
from sos_tui.net.protocol import ErrorMessage, UndoResultMessage
from sos_tui.net.server import source
from sos_tui.net.store import RoomStoreError, SqliteRoomStore

from .helpers import WAIT, FirstMove, Player, Process, free_port, play, seated, send_raw


# -- restart -------------------------------------------------------------------------------------
def test_sos_tui_server_killed_mid_game_brings_the_game_back_with_its_seats(tmp_path):
    port = free_port()
    tokens = {"Ana": TokenStore(), "Bo": TokenStore()}

    async def first_half() -> tuple[str, tuple, int]:
        url, token, _seats = await create_room(f"ws://127.0.0.1:{port}", 4, "general",
                                               [{"kind": "human", "name": "Ana"}, {"kind": "remote"}])
        ana = await seated(url, "Ana", tokens["Ana"], token)
        bo = await seated(url, "Bo", tokens["Bo"])
        await ana.until(lambda: ana.game.phase == "playing")
        for mover, other, move in ((ana, bo, "S a1"), (bo, ana, "S b3"), (ana, bo, "S c1")):
            version = await play(mover, [other], move)
        return url, ana.game.record.moves, version  # not closed: the server dies under them

    async def second_half(url: str, moves: tuple, version: int) -> None:
        ana = await seated(url, "Ana", tokens["Ana"])
        bo = await seated(url, "Bo", tokens["Bo"])
        try:
            assert (ana.game.my_seats, bo.game.my_seats) == ((0,), (1,))
            assert ana.game.record.moves == moves and ana.game.version == version
            await bo.until(lambda: bo.game.phase == "playing" and not bo.game.waiting_for)
            await play(bo, [ana], "S d4")  # the game goes on
            stranger = await seated(url, "Ana", TokenStore())  # a name is not a seat
            assert stranger.game.my_seats == ()
            await stranger.close()
        finally:
            await ana.close()
            await bo.close()

    server = Process("server", "--port", str(port), env_dir=tmp_path)
    try:
        server.line("ws://")
        url, moves, version = asyncio.run(asyncio.wait_for(first_half(), 20))
        server.process.send_signal(signal.SIGKILL)
        server.process.wait(10)
        data = (tmp_path / "data" / "rooms.sqlite3").read_bytes()
        for store in tokens.values():
            assert store.get(url).encode() not in data  # only hashes are kept
        server = Process("server", "--port", str(port), env_dir=tmp_path)
        server.line("ws://")
        assert any("room brought back" in line for line in server.lines)
        asyncio.run(asyncio.wait_for(second_half(url, moves, version), 20))
    finally:
        server.stop()


def test_host_headless_killed_mid_game_and_run_again_resumes_with_the_same_url(tmp_path):
    port = free_port()
    command = ("host", "--headless", "--port", str(port), "--size", "4")
    tokens = {"Ana": TokenStore(), "Bo": TokenStore()}

    async def first_half(url: str) -> tuple[tuple, int]:
        ana = await seated(url, "Ana", tokens["Ana"])
        bo = await seated(url, "Bo", tokens["Bo"])
        await ana.until(lambda: ana.game.phase == "playing")
        await play(ana, [bo], "S a1")
        version = await play(bo, [ana], "O b1")
        return ana.game.record.moves, version

    async def second_half(url: str, moves: tuple, version: int) -> None:
        ana = await seated(url, "Ana", tokens["Ana"])
        bo = await seated(url, "Bo", tokens["Bo"])
        try:
            assert (ana.game.my_seats, bo.game.my_seats) == ((0,), (1,))
            assert bo.game.record.moves == moves and bo.game.version == version
            await ana.until(lambda: not ana.game.waiting_for)
            await play(ana, [bo], "S c1")
        finally:
            await ana.close()
            await bo.close()

    host = Process(*command, env_dir=tmp_path)
    try:
        url = host.line("ws://")
        moves, version = asyncio.run(asyncio.wait_for(first_half(url), 20))
        host.process.send_signal(signal.SIGKILL)
        host.process.wait(10)
        host = Process(*command, env_dir=tmp_path)
        assert host.line("ws://") == url  # the same code, the same port
        asyncio.run(asyncio.wait_for(second_half(url, moves, version), 20))
    finally:
        host.stop()


async def test_a_stop_closes_with_1012_and_a_new_server_brings_the_room_back(tmp_path):
    path = tmp_path / "rooms.sqlite3"
    store = SqliteRoomStore(path)
    server = Server(computer=FirstMove(), store=store)
    await server.start("127.0.0.1", 0)
    room = server.create_room(3, "general", [{"kind": "remote"}, {"kind": "computer", "level": "easy"}])
    url, tokens = server.url(room), TokenStore()
    ana = await seated(url, "Ana", tokens)
    await ana.game.play(Move.parse("S b2"))
    await ana.until(lambda: len(ana.game.record.moves) == 2)  # the computer answered
    version = ana.game.version
    await asyncio.wait_for(server.restart(), WAIT)
    await ana.until(lambda: ana.lost is not None)
    assert "restarting" in str(ana.lost)
    await store.close()

    store = SqliteRoomStore(path)
    server = Server(computer=FirstMove(), store=store)
    try:
        for kept in store.load(None):
            server.restore(kept)
        await server.start("127.0.0.1", int(url.split(":")[2].split("/")[0]))
        async with connect(url) as ws:  # a raw client, to see the close code
            await ws.send(json.dumps({"type": "hello", "protocol": 1, "name": None}))
            await ws.recv()
            stopping = asyncio.ensure_future(server.restart())
            await asyncio.wait_for(ws.wait_closed(), WAIT)
            await stopping
            assert ws.close_code == 1012
    finally:
        await server.stop()
        await store.close()
    store = SqliteRoomStore(path)
    server = Server(computer=FirstMove(), store=store)
    try:
        for kept in store.load(None):
            server.restore(kept)
        await server.start("127.0.0.1", int(url.split(":")[2].split("/")[0]))
        ana = await seated(url, "Ana", tokens)
        assert ana.game.my_seats == (0,) and ana.game.version == version
        await ana.game.play(ana.game.state.legal_moves()[0])  # and the computer seat plays again
        await ana.until(lambda: len(ana.game.record.moves) == 4)
        await ana.close()
    finally:
        await server.stop()
        await store.close()


async def test_a_move_resent_after_a_restart_with_its_version_is_not_applied_twice(tmp_path):
    path = tmp_path / "rooms.sqlite3"
    store = SqliteRoomStore(path)
    server = Server(store=store)
    await server.start("127.0.0.1", 0)
    room = server.create_room(3, "general", [{"kind": "remote"}, {"kind": "remote"}])
    url, port = server.url(room), server.port
    tokens, bo_tokens = TokenStore(), TokenStore()
    ana, bo = await seated(url, "Ana", tokens), await seated(url, "Bo", bo_tokens)
    await ana.until(lambda: ana.game.phase == "playing")
    chosen_in = ana.game.version
    await play(ana, [bo], "S a1")
    await bo.close()
    await server.restart()
    await store.close()

    store = SqliteRoomStore(path)
    server = Server(store=store)
    try:
        for kept in store.load(None):
            server.restore(kept)
        await server.start("127.0.0.1", port)
        ana, bo = await seated(url, "Ana", tokens), await seated(url, "Bo", bo_tokens)
        await ana.until(lambda: not ana.game.waiting_for)
        version = ana.game.version
        await send_raw(ana.game, {"type": "move", "move": "S a1", "version": chosen_in})  # sent again
        await ana.error("stale")
        assert ana.game.version == version == server.rooms[room.code].session.version
        assert server.rooms[room.code].session.record.moves == (Move.parse("S a1"),)
        await ana.close()
        await bo.close()
    finally:
        await server.stop()
        await store.close()


# -- abuse ---------------------------------------------------------------------------------------
async def test_a_room_nobody_joined_closes_after_minutes_not_an_hour():
    limits = Limits(unjoined_idle=0.2, reap_every=0.05)
    async with Server(limits, allow_create=True) as server:
        await server.start("127.0.0.1", 0)
        base = f"ws://127.0.0.1:{server.port}"
        unjoined, _token, _seats = await create_room(base, 3, "general", [{"kind": "remote"}] * 2)
        joined, _token, _seats = await create_room(base, 3, "general", [{"kind": "remote"}] * 2)
        hosted = server.create_room(3, "general", [{"kind": "remote"}] * 2)  # its host's own: not abuse
        async with Player(joined, "Ana"):
            for _ in range(100):
                if unjoined.rsplit("/", 1)[1] not in server.rooms:
                    break
                await asyncio.sleep(0.05)
            assert set(server.rooms) == {joined.rsplit("/", 1)[1], hosted.code}
        with pytest.raises(NetError, match="no game with that code"):
            await RemoteGame(unjoined, "Bo", tokens=TokenStore()).connect()


async def test_room_creation_is_rate_limited_per_address():
    limits = Limits(create_burst=2, creates_per_minute=0.01, rooms_per_address=100)
    async with Server(limits, allow_create=True) as server:
        await server.start("127.0.0.1", 0)
        base = f"ws://127.0.0.1:{server.port}"
        for _ in range(2):
            await create_room(base, 3, "general", [{"kind": "remote"}] * 2)
        with pytest.raises(NetError, match="too many games created from your address"):
            await create_room(base, 3, "general", [{"kind": "remote"}] * 2)
        assert len(server.rooms) == 2


def test_an_ipv6_address_counts_as_its_64_for_the_limits():
    assert source("2001:db8:1:2::1") == source("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert source("2001:db8:1:3::1") != source("2001:db8:1:2::1")
    assert source("203.0.113.7") == "203.0.113.7" and source("::ffff:203.0.113.7") == "203.0.113.7"
    assert source("?") == "?"


async def test_open_rooms_per_address_count_a_whole_ipv6_64():
    async with Server(Limits(rooms_per_address=2)) as server:
        for address in ("2001:db8::1", "2001:db8::2"):
            server.create_room(3, "general", [{"kind": "remote"}] * 2, creator=source(address))
        with pytest.raises(Exception, match="as many open games"):
            server.create_room(3, "general", [{"kind": "remote"}] * 2, creator=source("2001:db8::3"))


async def test_new_connections_per_second_per_address_are_limited():
    async with Server(Limits(connect_burst=3, connects_per_second=0.01)) as server:
        await server.start("127.0.0.1", 0)
        room = server.create_room(3, "general", [{"kind": "remote"}] * 2)
        for _ in range(3):
            async with connect(server.url(room)):
                pass
        with pytest.raises(InvalidStatus) as refused:
            async with connect(server.url(room)):
                pass
        assert refused.value.response.status_code == 429


async def test_an_undo_declined_cannot_be_asked_again_for_a_while():
    async with Server() as server:
        await server.start("127.0.0.1", 0)
        room = server.create_room(3, "general", [{"kind": "remote"}] * 2)
        async with Player(server.url(room), "Ana") as ana, Player(server.url(room), "Bo") as bo:
            await ana.until(lambda: ana.game.phase == "playing")
            await play(ana, [bo], "S a1")
            await ana.game.request_undo()
            await bo.until(lambda: bo.game.undo_request is not None)
            await bo.game.answer_undo(False)
            await ana.until(lambda: any(isinstance(m, UndoResultMessage) for m in ana.seen))
            await ana.game.request_undo()
            await ana.error("cannot-undo")
            refusal = next(m for m in ana.seen if isinstance(m, ErrorMessage) and m.code == "cannot-undo")
            assert "ask again in" in refusal.message
            room.undo_declined[0] -= Limits().undo_cooldown  # the while has passed
            bo.game.undo_request = None
            await ana.game.request_undo()
            await bo.until(lambda: bo.game.undo_request is not None)


@pytest.mark.parametrize("change", [
    {"seats": None}, {"seats": 3}, {"seats": "ab"}, {"seats": {"kind": "remote"}}, {"seats": [None, 1]},
    {"seats": [{"kind": None}, {"kind": "remote"}]}, {"seats": [{"kind": ["human"]}, {"kind": "remote"}]},
    {"seats": [{"kind": "computer", "level": 0}, {"kind": "remote"}]},
    {"seats": [{"kind": "computer", "level": []}, {"kind": "remote"}]},
    {"seats": [{"kind": "computer", "level": {"a": 1}}, {"kind": "remote"}]},
    {"seats": [{"kind": "human", "name": {"a": 1}}, {"kind": "remote"}]},
    {"size": None}, {"size": 3.0}, {"size": True}, {"size": 10**40}, {"mode": None}, {"mode": ["general"]},
])
async def test_every_malformed_create_gets_bad_room(change):
    async with Server(allow_create=True) as server:
        await server.start("127.0.0.1", 0)
        message = {"type": "create", "protocol": 1, "size": 3, "mode": "general",
                   "seats": [{"kind": "remote"}, {"kind": "remote"}], **change}
        async with connect(f"ws://127.0.0.1:{server.port}") as ws:
            await ws.send(json.dumps(message))
            reply = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
        assert (reply["type"], reply["code"]) == ("error", "bad-room") and not server.rooms


async def test_a_create_without_seats_gets_bad_room():
    async with Server(allow_create=True) as server:
        await server.start("127.0.0.1", 0)
        async with connect(f"ws://127.0.0.1:{server.port}") as ws:
            await ws.send(json.dumps({"type": "create", "protocol": 1, "size": 3, "mode": "general"}))
            reply = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
        assert reply["code"] == "bad-room"


# -- the database --------------------------------------------------------------------------------
def _foreign(path):
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (text TEXT)")
    conn.commit()
    conn.close()


@pytest.mark.parametrize(("make", "says"), [
    (lambda path: path.write_bytes(b"not a database at all\n" * 100), "damaged or is not an SQLite database"),
    (lambda path: path.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000), "damaged or is not an SQLite"),
    (_foreign, "not sos-tui's rooms"),
])
def test_a_damaged_or_foreign_rooms_database_is_refused_and_left_as_it_is(tmp_path, monkeypatch, capsys,
                                                                         make, says):
    path = tmp_path / "rooms.sqlite3"
    make(path)
    before = path.read_bytes()
    with pytest.raises(RoomStoreError, match=says):
        SqliteRoomStore(path)
    monkeypatch.setenv("SOS_TUI_DATA_DIR", str(tmp_path))
    assert main(["server", "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1 and err.startswith("sos-tui server: ")
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rooms.sqlite3"]  # no -wal, no -shm


async def test_an_empty_file_is_a_new_rooms_database(tmp_path):
    path = tmp_path / "rooms.sqlite3"
    path.touch()
    store = SqliteRoomStore(path)
    try:
        assert store.load(None) == []
    finally:
        await store.close()
    again = SqliteRoomStore(path)  # and is ours from then on
    await again.close()


async def test_a_room_saved_again_keeps_its_newest_seats_and_moves(tmp_path):
    # most saves are a move (the seats are not written again); a join or a rematch changes them
    from sos_tui.net.store import StoredRoom, StoredSeat

    def room(version: int, names: tuple[str | None, str | None]) -> StoredRoom:
        seats = tuple(StoredSeat("human", name, None, name and f"hash-{name}") for name in names)
        return StoredRoom("7f3kq-x9m2c", 3, "general", seats, None, version, 1.0, 2.0)

    store = SqliteRoomStore(tmp_path / "rooms.sqlite3")
    try:
        for saved in (room(1, ("Ana", None)), room(2, ("Ana", None)), room(3, ("Ana", "Bo")),
                      room(4, ("Ana", "Bo")), room(5, ("Bo", "Ana"))):
            await store.save(saved)
        [kept] = store.load(None)
        assert kept.version == 5 and [s.name for s in kept.seats] == ["Bo", "Ana"]
        assert [s.token_hash for s in kept.seats] == ["hash-Bo", "hash-Ana"]
    finally:
        await store.close()
