"""One service of many server processes on Redis (``sos_tui.net.cluster``), against a real
``redis-server``: each test starts its own on a free port of 127.0.0.1, without persistence (or
with an append-only file in the test's folder, to restart it with its data), and stops it (skipped
where Debian's redis-server is not installed). Moves relayed between processes, a lease that runs
out (the old owner fenced off), an owner killed with SIGKILL mid-game, the lobby across processes,
the one-line refusals of a bad or unreachable Redis, and Redis going away mid-game: its scripts
flushed, requests refused with ``unavailable`` while it is away, restarted with its data (the game
goes on) or empty (the players are told their game is gone), the log a line per change."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sos_tui.cli import main
from sos_tui.engine import Move
from sos_tui.i18n import _
from sos_tui.net import NetError, SeatKey, Server, TokenStore, create_room
from sos_tui.net.client import list_rooms
from sos_tui.net.cluster import Cluster
from sos_tui.net.errors import GONE
from sos_tui.net.protocol import PROTOCOL_MINOR, ClosedMessage, MoveMessage

from .support.helpers import WAIT, Player, Process, free_port, play, seated, wait_for
from .support.redis import RedisServer, address, service

pytestmark = pytest.mark.skipif(
    shutil.which("redis-server") is None, reason="needs redis-server (Debian package redis-server; .ci/run "
    "installs it)")


@pytest.fixture
def redis_server():
    server = RedisServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def redis_url(redis_server):
    """A redis-server of this test's own: 127.0.0.1, a free port, no persistence."""
    return redis_server.url


async def two_players(one: Server, two: Server, public: bool = False):
    """A 4x4 game created on ``one``: Ana plays through ``one``, Bo through ``two``."""
    url, token, _seats = await create_room(address(one), 4, "general",
                                           [{"kind": "human", "name": "Ana"}, {"kind": "remote"}])
    code = url.rsplit("/", 1)[1]
    tokens = {"Ana": TokenStore(), "Bo": TokenStore()}
    ana = await seated(address(one, code), "Ana", tokens["Ana"], token)
    bo = await seated(address(two, code), "Bo", tokens["Bo"])
    await ana.until(lambda: ana.game.phase == "playing" and not ana.game.waiting_for)
    return code, ana, bo, tokens


async def test_moves_made_through_one_process_reach_players_on_the_other(redis_url):
    async with service(redis_url) as (one, two):
        code, ana, bo, _tokens = await two_players(one, two)
        try:
            assert code in one.rooms and code not in two.rooms  # one owner; two relays
            assert (ana.game.my_seats, bo.game.my_seats) == ((0,), (1,))
            await play(ana, [bo], "S a1")
            await play(bo, [ana], "O b1")  # relayed to the owner, its state relayed back
            await bo.game._send(MoveMessage(ana.game.state.legal_moves()[0]))  # not Bo's turn: the owner says

            await bo.error("not-your-turn")
            watcher = await seated(address(two, code), None, TokenStore())
            assert watcher.game.record.moves == ana.game.record.moves and watcher.game.my_seats == ()
            await watcher.close()
        finally:
            await ana.close()
            await bo.close()


async def test_redis_pys_parser_never_reads_the_relays_channel_so_nothing_is_left_in_its_buffer(
        redis_url, monkeypatch):
    """The relay reads its channel off the connection's stream (``net/resp.py``). Had redis-py's
    parser read there too (the subscription's reply), a parser that reads ahead (hiredis, a
    4096-byte read) could keep a message published just after in a buffer of its own, never seen."""
    from redis.asyncio.connection import Connection

    read_by_redis_py = []
    read_response = Connection.read_response

    async def spied(self, *args, **kwargs):
        answer = await read_response(self, *args, **kwargs)
        read_by_redis_py.append((self, answer))
        return answer

    monkeypatch.setattr(Connection, "read_response", spied)
    async with service(redis_url) as (one, two):
        channels = {server.cluster.relays._channel for server in (one, two)}
        _code, ana, bo, _tokens = await two_players(one, two)
        try:
            await play(ana, [bo], "S a1")
            await play(bo, [ana], "O b1")  # relayed through the channels
        finally:
            await ana.close()
            await bo.close()
    subscribed = [answer for conn, answer in read_by_redis_py  # its greeting is redis-py's: the rest not
                  if conn in channels and isinstance(answer, list)
                  and answer[:1] in (["subscribe"], ["message"])]
    assert subscribed == []


async def test_a_timed_room_on_the_service_tells_its_clocks_through_the_relay_and_answers_a_peek(redis_url):
    from sos_tui.engine.clock import TimeControl
    from sos_tui.net.client import peek_room

    async with service(redis_url) as (one, two):
        url, _token, _seats = await create_room(address(one), 3, "general", [{"kind": "remote"}] * 2,
                                                clock=TimeControl.parse("2d"))
        code = url.rsplit("/", 1)[1]
        ana = await seated(address(one, code), "Ana", TokenStore())
        bo_tokens = TokenStore()
        bo = await seated(address(two, code), "Bo", bo_tokens)  # relayed to the owner
        try:
            await bo.until(lambda: bo.game.phase == "playing" and bo.game.clocks is not None)
            assert bo.game.clocks.running == 0 and str(bo.game.clocks.control) == "2d"
            await play(ana, [bo], "S a1")
            assert bo.game.record.spent_ms is not None and len(bo.game.record.spent_ms) == 1
            token = bo_tokens.find(SeatKey.player(address(two, code), "Bo"))
            seats, state = await peek_room(address(two, code), token)  # asked through the relay
            assert seats == (1,) and state.to_move == 1 and state.clocks.running == 1
            assert bo.game.connected and bo.lost is None  # the peek took nobody's seat
        finally:
            await ana.close()
            await bo.close()


@contextlib.asynccontextmanager
async def redis_calls(server: Server, ana: Player, bo: Player):
    """The names of the commands of each call ``server`` makes to Redis meanwhile; closes both
    players after."""
    link, calls = server.cluster.link, []
    sent = link.call

    async def counted(commands, lane=None):
        calls.append([command[0] for command in commands])
        return await sent(commands, lane)

    link.call = counted
    try:
        yield calls
    finally:
        link.call = sent
        await ana.close()
        await bo.close()


FOUR_MOVES = (("ana", "bo", "S a1"), ("bo", "ana", "S c1"), ("ana", "bo", "S a3"), ("bo", "ana", "S c3"))


async def test_a_relayed_players_state_goes_out_with_the_write_of_its_room_one_round_trip_a_move(redis_url):
    async with service(redis_url, lease=30.0) as (one, two):  # a long lease: no renewals meanwhile
        _code, ana, bo, _tokens = await two_players(one, two)
        players = {"ana": ana, "bo": bo}
        async with redis_calls(one, ana, bo) as calls:
            for number, (mover, watcher, move) in enumerate(FOUR_MOVES, 1):
                await play(players[mover], [players[watcher]], move)
                assert len(calls) == number  # the owner's one write, which also tells Bo's process
            assert all(names == ["EVALSHA"] for names in calls)
            assert bo.game.record.moves == ana.game.record.moves and len(bo.game.record.moves) == 4


async def test_a_relayed_players_moves_go_straight_to_the_owner_not_through_redis(redis_url):
    async with service(redis_url, lease=30.0) as (one, two):  # a long lease: no renewals meanwhile
        _code, ana, bo, _tokens = await two_players(one, two)
        players = {"ana": ana, "bo": bo}
        async with redis_calls(two, ana, bo) as calls:  # two relays Bo to one, the owner
            for mover, watcher, move in FOUR_MOVES:
                await play(players[mover], [players[watcher]], move)
            assert calls == []  # Bo's moves went over the link between the processes
            assert bo.game.record.moves == ana.game.record.moves and len(bo.game.record.moves) == 4


async def test_a_link_between_processes_without_the_services_secret_is_closed_unheard(redis_url):
    async with service(redis_url) as (one, two):
        code, ana, bo, _tokens = await two_players(one, two)
        try:
            host, port = one.cluster.address.rsplit(":", 1)
            hello = json.dumps({"type": "hello", "protocol": 1, "name": "Eve"})
            for secret in ("", "not-the-secret", two.cluster.secret[:-1]):
                reader, writer = await asyncio.open_connection(host, int(port))
                writer.write(f"{secret}\n".encode() + json.dumps({
                    "op": "open", "conn": "eve", "edge": two.cluster.id, "code": code,
                    "address": "203.0.113.9", "frame": hello}).encode() + b"\n")
                assert await asyncio.wait_for(reader.read(), WAIT) == b""  # closed, nothing said
                writer.close()
                assert "eve" not in one.cluster.relays.remote
            await play(ana, [bo], "S a1")
            assert [s.name for s in ana.game.record.players] == ["Ana", "Bo"]
        finally:
            await ana.close()
            await bo.close()


async def test_a_process_started_after_the_services_secret_changed_relays_to_the_others_all_the_same(
        redis_url):
    import redis.asyncio as aioredis

    async with service(redis_url) as (one, two):
        client = aioredis.Redis.from_url(redis_url)
        try:
            await client.set("sos:secret", "changed")  # by hand, or by a process that found none
        finally:
            await client.aclose()
        await wait_for(None, lambda: one.cluster.secret == two.cluster.secret == "changed", WAIT)
        three = Server(allow_create=True, cluster=Cluster(redis_url, lease=1.0, backoff=(0.02, 0.1)))
        await three.start("127.0.0.1", 0)
        try:
            _code, ana, bo, _tokens = await two_players(one, three)  # Bo's messages: three -> one
            try:
                await play(ana, [bo], "S a1")
                await play(bo, [ana], "O b1")
                assert bo.lost is None and all(link.route is not None  # over the link, not sent away
                                               for link in three.cluster.relays.links.values())
            finally:
                await ana.close()
                await bo.close()
        finally:
            await three.stop()


async def test_a_broken_link_to_the_owner_sends_its_players_away_and_they_come_back_through_redis(
        redis_url):
    async with service(redis_url, lease=5.0) as (one, two):
        code, ana, bo, tokens = await two_players(one, two)
        try:
            await play(ana, [bo], "S a1")
            await one.cluster.relays.listener.stop()  # one takes no link any more (and drops two's)
            await bo.until(lambda: bo.lost is not None)  # sent away (1012), to come back
            await bo.close()
            bo = await seated(address(two, code), "Bo", tokens["Bo"])  # relayed through Redis now
            assert bo.game.my_seats == (1,) and code in one.rooms and code not in two.rooms
            await ana.until(lambda: not ana.game.waiting_for)
            await play(bo, [ana], "O b1")
            await play(ana, [bo], "S c3")
            assert ana.lost is None and len(bo.game.record.moves) == 3
        finally:
            await ana.close()
            await bo.close()


async def test_an_owner_whose_lease_ran_out_is_fenced_off_and_the_game_goes_on_elsewhere(redis_url):
    async with service(redis_url) as (one, two):
        code, ana, bo, tokens = await two_players(one, two)
        try:
            await play(ana, [bo], "S a1")
            await play(bo, [ana], "O b1")
            for task in one.cluster._tasks:  # process one stops renewing, as if paused
                task.cancel()
            # its lease (1 s) runs out; two's scan takes the room
            await wait_for(None, lambda: code in two.rooms, 10)
            # one cannot write the room any more: its first write since (Bo's leave, when two sends
            # Bo away to come back to it, heard over the direct link; else Ana's move) sends Ana away
            with contextlib.suppress(NetError):
                await ana.game.play(ana.game.state.legal_moves()[0])
            await asyncio.wait_for(ana._task, 5)
            assert code not in one.rooms and ana.lost is not None  # sent away, to come back
            assert len(bo.game.record.moves) == 2  # the move one could not keep was never shown
        finally:
            await ana.close()
            await bo.close()
        # her token was kept for the first process's address (behind a proxy: the same address)
        kept = tokens["Ana"].find(SeatKey.player(address(one, code), "Ana"))
        ana = await seated(address(two, code), "Ana", tokens["Ana"], kept)
        bo = await seated(address(two, code), "Bo", tokens["Bo"])
        try:
            assert ana.game.my_seats == (0,) and len(ana.game.record.moves) == 2
            await ana.until(lambda: not ana.game.waiting_for)
            await play(ana, [bo], "S d4")
        finally:
            await ana.close()
            await bo.close()


async def test_a_rooms_moves_are_written_one_by_one_and_an_undo_and_a_takeover_keep_the_game_whole(
        redis_url):
    """A room is kept in Redis as its JSON without its game's moves, and those moves as a list that
    a move's write adds that one move to: the room's JSON is no longer at the third move than at
    the first. An undo drops the last from the list; the process that takes the room over reads
    the game whole."""
    from redis.asyncio import from_url

    redis = from_url(redis_url, decode_responses=True)
    async with service(redis_url) as (one, two):
        code, ana, bo, _tokens = await two_players(one, two)
        keys = one.cluster.key("room", code), one.cluster.key("moves", code)
        try:
            await play(ana, [bo], "S a1")
            first = await redis.get(keys[0])
            await play(bo, [ana], "S d4")
            await play(ana, [bo], "S a4")
            assert await redis.lrange(keys[1], 0, -1) == ["S a1", "S d4", "S a4"]
            third = json.loads(await redis.get(keys[0]))
            assert "moves" not in third["record"] and size(third) == size(json.loads(first))
            await bo.game.request_undo()
            await ana.until(lambda: ana.game.undo_request is not None)
            await ana.game.answer_undo(True)
            await bo.until(lambda: len(bo.game.state.moves) == 2)
            assert await redis.lrange(keys[1], 0, -1) == ["S a1", "S d4"]
            for task in one.cluster._tasks:  # process one stops renewing; two takes the room over
                task.cancel()
            await wait_for(None, lambda: code in two.rooms, 10)
            assert two.rooms[code].session.record.moves == (Move.parse("S a1"), Move.parse("S d4"))
        finally:
            await ana.close()
            await bo.close()
            await redis.aclose()


def size(room: dict) -> int:
    """The length of a room's JSON as kept in Redis, but for its two times of day."""
    return len(json.dumps({**room, "active": 0, "record": {**room["record"], "updated": ""}}))


def test_a_rooms_write_keeps_what_redis_holds_of_the_same_game_and_rewrites_another_whole():
    from sos_tui.engine import GameRecord, GameState
    from sos_tui.net.cluster import _Kept

    state = GameState.new(4)
    for move in ("S a1", "S d4", "S a4"):
        state = state.play(Move.parse(move))
    game = GameRecord.for_state(state)
    kept = _Kept.of(game.with_state(GameState.from_moves(state.moves[:2], 4)))
    assert kept.kept(game) == 2  # moved on: the third move alone is written
    assert kept.kept(game.with_state(GameState.from_moves(state.moves[:1], 4))) == 1  # an undo
    other = GameState.from_moves((state.moves[0], Move.parse("O b2")), 4)
    assert kept.kept(game.with_state(other)) == 0  # moved back and on otherwise: whole
    assert kept.kept(GameRecord.for_state(GameState.from_moves(state.moves[:2], 4))) == 0  # a rematch
    assert kept.kept(None) == 0


# two server processes and two clients, one server killed (5 s): the lease test above checks the same
# takeover in one process
@pytest.mark.slow
def test_an_owner_killed_mid_game_is_taken_over_and_the_players_carry_on(redis_url, tmp_path):
    # each on a port of its own choosing (two ports probed free one after the other can be the same)
    servers = [Process("server", "--port", "0", "--redis", redis_url, env_dir=tmp_path / str(i))
               for i in range(2)]
    ports = [int(re.search(r"ws://127\.0\.0\.1:(\d+)", server.line("ws://")).group(1)) for server in servers]
    tokens = {"Ana": TokenStore(), "Bo": TokenStore()}

    async def first_half():
        url, token, _seats = await create_room(f"ws://127.0.0.1:{ports[0]}", 4, "general",
                                               [{"kind": "human", "name": "Ana"}, {"kind": "remote"}])
        code = url.rsplit("/", 1)[1]
        ana = await seated(f"ws://127.0.0.1:{ports[1]}/{code}", "Ana", tokens["Ana"], token)
        bo = await seated(f"ws://127.0.0.1:{ports[1]}/{code}", "Bo", tokens["Bo"])
        await ana.until(lambda: ana.game.phase == "playing")
        await play(ana, [bo], "S a1")
        await play(bo, [ana], "O a2")
        return code, ana, bo

    async def second_half(code: str, ana: Player, bo: Player):
        started = time.monotonic()
        try:  # both are relayed by the second process: the owner's death sends them back (1012)
            await asyncio.wait_for(asyncio.gather(ana._task, bo._task), 15)
        finally:
            await ana.close()
            await bo.close()
        url = f"ws://127.0.0.1:{ports[1]}/{code}"
        while True:  # a client's reconnect loop: the room is taken over within the lease (3 s)
            try:
                ana = await seated(url, "Ana", tokens["Ana"])
                break
            except Exception:
                assert time.monotonic() - started < 15
                await asyncio.sleep(0.2)
        bo = await seated(url, "Bo", tokens["Bo"])
        try:
            assert ana.game.my_seats == (0,) and bo.game.my_seats == (1,)
            assert [str(m) for m in ana.game.record.moves] == ["S a1", "O a2"]
            await ana.until(lambda: not ana.game.waiting_for)
            await play(ana, [bo], "S a3")  # the game goes on
            assert bo.game.state.scores[0] == 1
        finally:
            await ana.close()
            await bo.close()

    try:
        for server in servers:
            server.line("ws://")
        async def run():
            code, ana, bo = await first_half()
            servers[0].process.send_signal(signal.SIGKILL)
            await second_half(code, ana, bo)

        asyncio.run(asyncio.wait_for(run(), 40))
        assert any("room taken over" in line for line in servers[1].lines)
    finally:
        for server in servers:
            server.stop()


async def test_the_lobby_lists_public_rooms_with_open_seats_of_every_process(redis_url):
    async with service(redis_url) as (one, two):
        url, _token, _seats = await create_room(address(one), 5, "simple",
                                                [{"kind": "human", "name": "Ana"}, {"kind": "remote"},
                                                 {"kind": "remote"}], public=True)
        await create_room(address(two), 3, "general",
                          [{"kind": "human", "name": "Secret"}, {"kind": "remote"}])  # private
        code = url.rsplit("/", 1)[1]
        for server in (one, two):
            listed = await list_rooms(address(server))
            assert [(r.room, r.size, str(r.mode), r.seats, r.free, r.waiting) for r in listed] == \
                [(code, 5, "simple", 3, 2, ("Ana",))]
        bo = await seated(address(two, code), "Bo", TokenStore())
        await bo.until(lambda: bo.game.open_seats == 1)
        assert [r.free for r in await list_rooms(address(one))] == [1]
        cy = await seated(address(two, code), "Cy", TokenStore())  # the last seat: off the list
        await cy.until(lambda: cy.game.phase == "playing")
        assert await list_rooms(address(one)) == ()
        await bo.close()
        await cy.close()


def test_server_redis_refuses_a_bad_url_or_an_unreachable_redis_in_one_line(capsys):
    assert main(["server", "--port", "0", "--redis", "http://127.0.0.1:1"]) != 0
    err = capsys.readouterr().err.strip()
    assert "--redis" in err and "\n" not in err and "Traceback" not in err
    assert main(["server", "--port", "0", "--redis", f"redis://127.0.0.1:{free_port()}/0"]) != 0
    err = capsys.readouterr().err.strip()
    assert "cannot reach Redis at redis://127.0.0.1:" in err and "\n" not in err


async def test_a_burst_of_requests_waits_for_a_redis_connection_instead_of_failing(redis_url):
    async with service(redis_url, count=1) as (one,):
        answers = await asyncio.gather(*(one.cluster.lobby() for _i in range(300)))
        assert answers == [()] * 300


# -- Redis away, and back ------------------------------------------------------------------------
def flush_scripts(url: str) -> None:
    port = url.rsplit(":", 1)[1].split("/")[0]
    subprocess.run(["redis-cli", "-p", port, "SCRIPT", "FLUSH"], check=True, capture_output=True)


async def answering(*servers: Server) -> None:
    """Wait, bounded, until each of ``servers`` lists its lobby again (Redis is back for it)."""
    for server in servers:
        end = time.monotonic() + WAIT
        while True:
            try:
                await list_rooms(address(server))
                break
            except NetError:
                assert time.monotonic() < end, "the service did not come back"
                await asyncio.sleep(0.02)


async def refused(coroutine) -> NetError:
    with pytest.raises(NetError) as caught:
        await coroutine
    return caught.value


async def test_scripts_flushed_from_redis_are_loaded_again_and_the_game_goes_on(redis_url):
    async with service(redis_url) as (one, two):
        code, ana, bo, _tokens = await two_players(one, two)
        try:
            await play(ana, [bo], "S a1")
            flush_scripts(redis_url)  # Redis forgot the scripts (as a restart does): NOSCRIPT
            await play(bo, [ana], "O b1")
            await play(ana, [bo], "S c1")
            assert ana.lost is None and bo.lost is None and code in one.rooms
        finally:
            await ana.close()
            await bo.close()


async def test_while_redis_is_away_requests_are_refused_as_unavailable_and_the_log_says_it_once(
        redis_server, caplog):
    caplog.set_level(logging.WARNING, logger="sos_tui")
    async with service(redis_server.url) as (one, two):
        code, ana, bo, _tokens = await two_players(one, two)
        try:
            await play(ana, [bo], "S a1")
            redis_server.stop()
            for server in (one, two):  # each request answered at once, with a typed refusal
                for request in (create_room(address(server), 4, "general", [{"kind": "human", "name": "Cy"},
                                                                           {"kind": "remote"}]),
                                list_rooms(address(server)),
                                seated(address(server, code), "Dee", TokenStore())):
                    problem = await refused(request)
                    assert problem.code == "unavailable" and problem.retry, problem
                    assert str(problem) == _("the server cannot reach its games database just now: try "
                                             "again in a moment")
            await bo.game.play(Move.parse("O b1"))  # relayed: its process says so itself
            await bo.error("unavailable")
            await ana.game.request_undo()  # on the process that owns the game
            await ana.error("unavailable")
            assert len(ana.game.record.moves) == len(bo.game.record.moves) == 1  # nothing played
            redis_server.start()
            await answering(one, two)
            url, _token, _seats = await create_room(address(two), 4, "general",
                                                    [{"kind": "human", "name": "Cy"}, {"kind": "remote"}])
            assert url.startswith(address(two))
        finally:
            await ana.close()
            await bo.close()
    lines = [record for record in caplog.records if record.levelno >= logging.WARNING]
    assert not [record for record in lines if record.exc_info], "a traceback was logged"
    texts = [record.getMessage() for record in lines]
    assert sum("Redis unreachable" in text for text in texts) == 2, texts  # once per process
    assert sum("Redis back after" in text for text in texts) == 2, texts
    assert len(texts) <= 6, texts


async def test_redis_restarted_with_its_data_mid_game_plays_on_without_restarting_a_server(tmp_path):
    redis = RedisServer(tmp_path)
    redis.start()
    try:
        async with service(redis.url, lease=5.0) as (one, two):
            code, ana, bo, tokens = await two_players(one, two)
            try:
                await play(ana, [bo], "S a1")
                await play(bo, [ana], "O b1")
                redis.restart()
                # Bo, relayed through the other process, is sent away (1012) to come back with
                # his token; Ana, on the process that owns the game, stays connected
                await bo.until(lambda: bo.lost is not None)
                await answering(one, two)
                await bo.close()
                bo = await seated(address(two, code), "Bo", tokens["Bo"])
                assert bo.game.my_seats == (1,) and [str(m) for m in bo.game.record.moves] == ["S a1", "O b1"]
                await ana.until(lambda: not ana.game.waiting_for)
                await play(ana, [bo], "S d4")
                await play(bo, [ana], "O c3")
                assert ana.lost is None and ana.game.state.scores == bo.game.state.scores
            finally:
                await ana.close()
                await bo.close()
    finally:
        redis.stop()


async def test_redis_restarted_empty_tells_the_players_their_game_is_gone_and_new_games_play(
        redis_server):
    async with service(redis_server.url) as (one, two):
        code, ana, bo, tokens = await two_players(one, two)
        try:
            await play(ana, [bo], "S a1")
            redis_server.restart()  # no persistence: the game is gone from Redis
            for player in (ana, bo):  # on the owner's process and relayed: told why, not left hanging
                await player.until(lambda p=player: p.lost is not None)
                closed = [m for m in player.seen if isinstance(m, ClosedMessage)]
                assert [m.template for m in closed] == [GONE] and player.game.ended
                assert str(player.lost) == _("this game is lost: the server's games database restarted empty")
            await answering(one, two)
            for server in (one, two):  # coming back with a token: the same answer, typed
                problem = await refused(seated(address(server, code), "Ana", tokens["Ana"]))
                assert problem.code == "gone" and not problem.retry
            _code, cy, dee, _tokens = await two_players(two, one)  # the service plays on, no restart
            try:
                await play(cy, [dee], "S a1")
                await play(dee, [cy], "O a2")
            finally:
                await cy.close()
                await dee.close()
        finally:
            await ana.close()
            await bo.close()


@pytest.mark.slow
def test_the_net_benchmark_on_redis_profiles_each_server_process_and_says_what_waited_for_a_core(
        redis_url, tmp_path):
    """``benchmarks/net.py --redis``, tiny: its clients say sos-tui's protocol revision and keep
    their boards from the moves (a cell taken twice would be refused and stop it), each server
    process's many-room run is profiled into a file of its own, and the CPU and the waits for a
    core a move are said."""
    bench = Path(__file__).resolve().parent.parent / "benchmarks" / "net.py"
    done = subprocess.run([sys.executable, str(bench), "--redis", redis_url, "--rooms", "3", "--moves", "8",
                           "--size", "4", "--think", "0", "--lease", "1", "--profile", str(tmp_path)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    said = done.stdout
    assert f"the scripted clients say protocol revision {PROTOCOL_MINOR}" in said
    assert "3 rooms, CPU a move:" in said and "3 rooms, waiting for a core a move: processes" in said
    assert "takeover: 2 rooms of the killed owner playing again" in said
    profiles = ["round1-disk.prof", "round1-one.prof", "round1-redis0.prof", "round1-redis1.prof"]
    assert sorted(path.name for path in tmp_path.iterdir()) == profiles
    assert said.count("µs a move profiled; the top by own time") == 4
