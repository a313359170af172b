"""Rooms that outlive their server: the rooms database (tokens hashed, a move on disk before anyone
sees it), ``sos-tui server`` and ``host --headless`` killed with SIGKILL mid-game and started again
on the same data folder, a stop closing with 1012, resent moves, the abuse limits and a damaged or
foreign rooms database. Servers listen on 127.0.0.1 and are stopped by the test that starts them."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sqlite3
import subprocess

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from sos_tui.cli import main
from sos_tui.engine import Move
from sos_tui.net import Limits, NetError, RemoteGame, SeatKey, Server, TokenStore, create_room
from sos_tui.net.door import source
from sos_tui.net.protocol import ErrorMessage, ProtocolError, UndoResultMessage
from sos_tui.net.store import RoomStoreError, SqliteRoomStore

from .support.helpers import WAIT, FirstMove, Player, Process, free_port, play, seated, send_raw, wait_for


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
        for name, store in tokens.items():
            assert store.find(SeatKey.player(url, name)).encode() not in data  # only hashes are kept
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
        for kept in store.load():
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
        for kept in store.load():
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
        for kept in store.load():
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
async def gone(server: Server, *urls: str, back: bool = False) -> None:
    """Wait (bounded) until none of the rooms at ``urls`` is on ``server`` (``back``: all are)."""
    codes = {url.rsplit("/", 1)[1] for url in urls}

    def done() -> bool:
        return codes <= set(server.rooms) if back else not codes & set(server.rooms)

    try:
        await wait_for(None, done, 5)
    except AssertionError:
        left = codes ^ set(server.rooms) & codes
        raise AssertionError(f"{'not' if back else 'still'} open: {left}") from None


HOST_SEATS = [{"kind": "human", "name": "Ana"}, {"kind": "remote"}]


async def test_a_room_counts_as_played_once_two_people_sat_or_a_person_moved():
    """A creator taking its own seat once (with the created token), then leaving, does not keep
    its room: unplayed rooms close minutes after they were made, whoever comes and goes."""
    limits = Limits(unplayed_idle=0.4, reap_every=0.05)
    async with Server(limits, allow_create=True, computer=FirstMove()) as server:
        await server.start("127.0.0.1", 0)
        base = f"ws://127.0.0.1:{server.port}"
        lonely, token, _seats = await create_room(base, 3, "general", HOST_SEATS)
        ana = await seated(lonely, "Ana", TokenStore(), token)  # its creator sits, and goes
        await ana.close()
        unjoined, _token, _seats = await create_room(base, 3, "general", [{"kind": "remote"}] * 2)
        computer_first, token, _seats = await create_room(
            base, 3, "general", [{"kind": "computer", "level": "easy"}, {"kind": "human", "name": "Ana"}])
        ana = await seated(computer_first, "Ana", TokenStore(), token)  # the computer moves; Ana does not
        await ana.until(lambda: len(ana.game.state.moves) == 1)
        await ana.close()
        two, token, _seats = await create_room(base, 3, "general", HOST_SEATS)
        against, token_against, _seats = await create_room(
            base, 3, "general", [{"kind": "human", "name": "Ana"}, {"kind": "computer", "level": "easy"}])
        hosted = server.create_room(3, "general", [{"kind": "remote"}] * 2)  # its host's own: not abuse
        async with Player(two, "Bo"):
            ana = await seated(two, "Ana", TokenStore(), token)
            await ana.close()  # two people sat: played, though nobody moved
        ana = await seated(against, "Ana", TokenStore(), token_against)
        await play(ana, [], "S a1")  # a person's move
        await ana.close()
        await gone(server, lonely, unjoined, computer_first)
        assert set(server.rooms) == {two.rsplit("/", 1)[1], against.rsplit("/", 1)[1], hosted.code}
        with pytest.raises(NetError, match="no game with that code"):
            await RemoteGame(lonely, "Bo", tokens=TokenStore()).connect()


async def test_a_room_brought_back_is_played_only_if_it_was(tmp_path):
    store = SqliteRoomStore(tmp_path / "rooms.sqlite3")
    async with Server(allow_create=True, store=store) as server:
        await server.start("127.0.0.1", 0)
        base = f"ws://127.0.0.1:{server.port}"
        lonely, token, _seats = await create_room(base, 3, "general", HOST_SEATS)
        ana = await seated(lonely, "Ana", TokenStore(), token)
        await ana.close()
        two, token, _seats = await create_room(base, 3, "general", HOST_SEATS)
        ana, bo = await seated(two, "Ana", TokenStore(), token), await seated(two, "Bo", TokenStore())
        await play(ana, [bo], "S a1")
        await ana.close()
        await bo.close()
        await server.restart()
    limits = Limits(unplayed_idle=0.0, reap_every=0.05)
    async with Server(limits, allow_create=True, store=store) as server:
        for kept in store.load():
            server.restore(kept)
        await server.start("127.0.0.1", 0)
        await gone(server, lonely)
        assert set(server.rooms) == {two.rsplit("/", 1)[1]}
    await store.close()


async def test_an_address_holds_at_most_its_rooms_for_their_whole_life(tmp_path):
    """Every room an address created counts against it until it closes: played or not, finished,
    and brought back after a restart."""
    path = tmp_path / "rooms.sqlite3"
    limits = Limits(rooms_per_address=2)
    store = SqliteRoomStore(path)
    async with Server(limits, allow_create=True, store=store) as server:
        await server.start("127.0.0.1", 0)
        base = f"ws://127.0.0.1:{server.port}"
        played, token, _seats = await create_room(base, 3, "general", HOST_SEATS)
        async with Player(played, "Bo") as bo:
            ana = await seated(played, "Ana", TokenStore(), token)
            await play(ana, [bo], "S a1")
            await ana.close()
        await create_room(base, 3, "general", HOST_SEATS)
        with pytest.raises(NetError, match="as many open games") as refused:
            await create_room(base, 3, "general", HOST_SEATS)
        assert refused.value.code == "busy"
        await server.restart()
    async with Server(limits, allow_create=True, store=store) as server:
        for kept in store.load():
            server.restore(kept)
        await server.start("127.0.0.1", 0)
        with pytest.raises(NetError, match="as many open games"):
            await create_room(f"ws://127.0.0.1:{server.port}", 3, "general", HOST_SEATS)
        assert len(server.rooms) == 2
    await store.close()


async def test_junk_rooms_from_100_addresses_leave_room_for_a_real_host():
    """The documented limits: 100 addresses each holding every room it may still leave the table
    open to a real host, who creates and plays."""
    limits = Limits()
    async with Server(limits, allow_create=True) as server:
        await server.start("127.0.0.1", 0)
        for i in range(100):
            creator = source(f"2001:db8:{i:x}::1")
            for _ in range(limits.rooms_per_address):
                server.create_room(3, "general", HOST_SEATS, creator=creator)
            with pytest.raises(ProtocolError, match="as many open games"):
                server.create_room(3, "general", HOST_SEATS, creator=creator)
        assert len(server.rooms) == 100 * limits.rooms_per_address >= 1000
        url, token, _seats = await create_room(f"ws://127.0.0.1:{server.port}", 3, "general", HOST_SEATS)
        async with Player(url, "Bo") as bo:
            ana = await seated(url, "Ana", TokenStore(), token)
            await play(ana, [bo], "S a1")
            await ana.close()


@pytest.mark.slow
async def test_junk_rooms_from_100_addresses_over_the_network_leave_room_for_a_real_host():
    """The attack as it was made: 100 addresses (127.0.1.x) each create every room the default
    limits let them, over the network at the allowed rate (about half a minute), and each creator
    takes its own seat once; a real host then still creates and plays."""
    limits = Limits()
    async with Server(limits, allow_create=True) as server:
        await server.start("127.0.0.1", 0)
        base = f"ws://127.0.0.1:{server.port}"

        async def junk(address: str) -> int:
            made = 0
            while True:
                async with connect(base, local_addr=(address, 0)) as ws:
                    await ws.send(json.dumps({"type": "create", "protocol": 1, "size": 3, "mode": "general",
                                              "seats": HOST_SEATS}))
                    reply = json.loads(await ws.recv())
                if reply["type"] == "error" and "as many open games" in reply["message"]:
                    return made
                if reply["type"] == "error":  # created too fast: the allowed rate
                    await asyncio.sleep(1)
                    continue
                async with connect(f"{base}/{reply['room']}", local_addr=(address, 0)) as ws:
                    await ws.send(json.dumps({"type": "hello", "protocol": 1, "name": "Junk",
                                              "token": reply["token"]}))
                    assert json.loads(await ws.recv())["type"] == "welcome"
                made += 1

        made = await asyncio.gather(*(junk(f"127.0.1.{i}") for i in range(1, 101)))
        assert made == [limits.rooms_per_address] * 100 and len(server.rooms) >= 1000
        url, token, _seats = await create_room(base, 3, "general", HOST_SEATS)
        async with Player(url, "Bo") as bo:
            ana = await seated(url, "Ana", TokenStore(), token)
            await play(ana, [bo], "S a1")
            await ana.close()


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
            room.votes.undo_declined[0] -= Limits().undo_cooldown  # the while has passed
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
        assert store.load() == []
    finally:
        await store.close()
    again = SqliteRoomStore(path)  # and is ours from then on
    await again.close()


async def test_a_room_saved_again_keeps_its_newest_seats_and_moves(tmp_path):
    # most saves are a move (the seats are not written again); a join or a rematch changes them
    from sos_tui.engine import Seat
    from sos_tui.net.store import StoredRoom, StoredSeat

    def room(version: int, names: tuple[str | None, str | None]) -> StoredRoom:
        seats = tuple(StoredSeat(Seat(name), name and f"hash-{name}") for name in names)
        return StoredRoom("7f3kq-x9m2c", 3, "general", seats, None, version, 1.0, 2.0)

    store = SqliteRoomStore(tmp_path / "rooms.sqlite3")
    try:
        for saved in (room(1, ("Ana", None)), room(2, ("Ana", None)), room(3, ("Ana", "Bo")),
                      room(4, ("Ana", "Bo")), room(5, ("Bo", "Ana"))):
            await store.save(saved)
        [kept] = store.load()
        assert kept.version == 5 and [s.seat.name for s in kept.seats] == ["Bo", "Ana"]
        assert [s.token_hash for s in kept.seats] == ["hash-Bo", "hash-Ana"]
    finally:
        await store.close()


# -- one writer, and only what is written -------------------------------------------------------
async def test_a_rooms_store_has_one_writer_at_a_time(tmp_path):
    path = tmp_path / "rooms.sqlite3"
    store = SqliteRoomStore(path)
    try:
        with pytest.raises(RoomStoreError, match="in use by another sos-tui"):
            SqliteRoomStore(path)
        hosted = SqliteRoomStore(path, key="a hosted game")  # another hosted game's rooms: its own writer
        with pytest.raises(RoomStoreError, match="in use by another sos-tui"):
            SqliteRoomStore(path, key="a hosted game")
        await hosted.close()
    finally:
        await store.close()
    again = SqliteRoomStore(path)  # free once the first has let go
    await again.close()


def test_a_second_sos_tui_server_on_the_same_data_folder_is_refused_at_start(tmp_path):
    first, second = Process("server", "--port", "0", env_dir=tmp_path), None
    try:
        base = first.line("ws://")
        url, token, _seats = asyncio.run(create_room(base, 3, "general", HOST_SEATS))
        second = Process("server", "--port", "0", env_dir=tmp_path)
        assert second.process.wait(20) == 2
        assert len(second.lines) == 1 and second.lines[0].startswith("sos-tui server: "), second.lines
        assert "in use by another sos-tui" in second.lines[0]

        async def the_first_plays_on() -> None:
            bo = await seated(url, "Bo", TokenStore())
            ana = await seated(url, "Ana", TokenStore(), token)
            await play(ana, [bo], "S a1")
            await ana.close()
            await bo.close()

        asyncio.run(asyncio.wait_for(the_first_plays_on(), 20))
    finally:
        for server in (first, second):
            if server is not None:
                server.stop()


def test_two_headless_hosts_share_a_data_folder_but_not_a_game(tmp_path):
    # Two games (their sizes differ), each on a port of its own choosing: two ports probed free one
    # after the other can be the same, and another test's server can take one before the host does.
    hosts = [Process("host", "--headless", "--port", "0", "--size", size, env_dir=tmp_path) for size in "34"]
    try:
        assert all(host.line("ws://") for host in hosts)  # two games: each its own writer
    finally:
        for host in hosts:
            host.stop()


@contextlib.contextmanager
def read_only(path):
    """``path`` read-only: to its owner by its mode, and to root (who writes any file whatever its
    mode) as an immutable file (``chattr +i``) for as long as the block runs."""
    path.chmod(0o444)
    if os.geteuid() != 0:
        yield
        return
    if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode != 0:
        pytest.skip("root, on a file system without chattr +i: no file is read-only to root here")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


def test_a_rooms_database_that_cannot_be_written_is_refused_at_start(tmp_path):
    path = tmp_path / "data" / "rooms.sqlite3"
    path.parent.mkdir()
    asyncio.run(SqliteRoomStore(path).close())
    with read_only(path):
        server = Process("server", "--port", "0", env_dir=tmp_path)
        try:
            assert server.process.wait(20) == 2, server.lines
        finally:
            server.stop()
    assert len(server.lines) == 1 and server.lines[0].startswith("sos-tui server: "), server.lines
    assert "cannot be written" in server.lines[0] and "read-only" in server.lines[0]


@contextlib.contextmanager
def held(path):
    """Another program holds the rooms database (a backup, say): nothing else can write it."""
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()


async def test_a_move_that_cannot_be_written_is_refused_and_told_to_nobody(tmp_path):
    path = tmp_path / "rooms.sqlite3"
    store = SqliteRoomStore(path, timeout=0.2)
    server = Server(store=store)
    try:
        await server.start("127.0.0.1", 0)
        room = server.create_room(3, "general", [{"kind": "remote"}] * 2)
        url, tokens = server.url(room), {"Ana": TokenStore(), "Bo": TokenStore()}
        ana, bo = await seated(url, "Ana", tokens["Ana"]), await seated(url, "Bo", tokens["Bo"])
        await ana.until(lambda: ana.game.phase == "playing")
        version = await play(ana, [bo], "S a1")
        with held(path):
            await bo.game.play(Move.parse("O b1"))
            await bo.error("unavailable")
            refusal = next(m for m in bo.seen if isinstance(m, ErrorMessage) and m.code == "unavailable")
            assert "could not be kept" in refusal.message
            for player in (ana, bo):  # sent away, to come back in a moment
                await player.until(lambda player=player: player.lost is not None)
                assert player.game.version == version and player.lost.retry
        await gone(server, url, back=True)  # brought back as the store has it
        ana, bo = await seated(url, "Ana", tokens["Ana"]), await seated(url, "Bo", tokens["Bo"])
        assert bo.game.version == version and bo.game.record.moves == (Move.parse("S a1"),)
        assert [k.version for k in store.load()] == [version]
        await play(bo, [ana], "O b1")  # written now, and told
        await ana.close()
        await bo.close()
    finally:
        await server.stop()
        await store.close()


async def test_a_room_that_cannot_be_written_is_not_created(tmp_path):
    path = tmp_path / "rooms.sqlite3"
    store = SqliteRoomStore(path, timeout=0.2)
    server = Server(store=store, allow_create=True)
    try:
        await server.start("127.0.0.1", 0)
        with held(path):
            with pytest.raises(NetError, match="could not be kept") as refused:
                await create_room(f"ws://127.0.0.1:{server.port}", 3, "general", HOST_SEATS)
            assert refused.value.code == "unavailable" and refused.value.retry
        await store.flush()
        assert server.rooms == {} and store.load() == []
    finally:
        await server.stop()
        await store.close()


async def test_a_hosted_game_brought_back_from_the_store_keeps_its_engine_seats_program():
    from dataclasses import replace

    from sos_tui.engine import GameRecord, Mode, Seat, SeatKind
    from sos_tui.net.store import StoredRoom, StoredSeat

    engine = Seat("Bot", SeatKind.COMPUTER, None, "python3 bot.py")
    record = GameRecord(3, Mode.GENERAL, (Seat("Ana"), engine))
    kept = StoredRoom("abc234", 3, "general", (StoredSeat(Seat("Ana", SeatKind.REMOTE), "h"),
                                               StoredSeat(replace(engine, engine=None))),  # as a row keeps it
                      record, 0, 0.0, 0.0, key="hosted")
    server = Server(computer=FirstMove())
    room = server.restore(kept)
    assert room.session.seats[1].engine == "python3 bot.py"
    assert room.seats[1].seat.engine == "python3 bot.py"
