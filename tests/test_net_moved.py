"""Clients sent to the process that owns their room (``moved``, protocol revision 7) on a real
``redis-server`` (skipped where Debian's is not installed), and the client's side of it against
small fake servers: a ``moved`` loop, a move to another room, ``wss://`` down to ``ws://``."""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import socket

import pytest
from websockets.asyncio.server import serve

from sos_tui.cli import main
from sos_tui.net import NetError, RemoteGame, Server, TokenStore, create_room
from sos_tui.net.moved import MAX_MOVES, MOVED_CLOSE, followed, public_url
from sos_tui.net.protocol import parse_url
from sos_tui.net.reach import SERVERS_VAR

from .support.helpers import WAIT, Player, free_port, play, seated
from .support.redis import RedisServer, address
from .support.redis import service as any_service

needs_redis = pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server")


@pytest.fixture
def redis_url():
    with RedisServer() as server:
        yield server.url


def service(url: str, count: int = 2, public: bool | str = True):
    """The service of ``support.redis``, each process with its own public URL unless told."""
    return any_service(url, count, public=public)


@needs_redis
async def test_a_service_whose_probed_port_another_process_took_starts_on_another(redis_url, monkeypatch):
    """The tests' service probes a port for each server's public URL before it binds: a port taken
    meanwhile (another test's server) is probed again, not a failed test."""
    from .support import redis

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        probes = [taken.getsockname()[1]]
        monkeypatch.setattr(redis, "free_port", lambda: probes.pop() if probes else free_port())
        async with service(redis_url, count=1) as (one,):
            assert not probes and one.port != taken.getsockname()[1]
            assert one.cluster.public == f"ws://127.0.0.1:{one.port}"


def on(player: Player) -> int:
    """The port of the process ``player`` is connected to."""
    return player.game.ws.remote_address[1]


async def game_on(one: Server):
    """A 4x4 game created on ``one``, Ana seated there: its code, Ana, the tokens."""
    url, token, _seats = await create_room(address(one), 4, "general",
                                           [{"kind": "human", "name": "Ana"}, {"kind": "remote"}])
    code = url.rsplit("/", 1)[1]
    tokens = {"Ana": TokenStore(), "Bo": TokenStore()}
    return code, await seated(address(one, code), "Ana", tokens["Ana"], token), tokens


async def hello(url: str, minor: int) -> tuple[object, dict]:
    """A raw client saying ``hello`` of revision ``minor`` at ``url``: the socket, its first reply."""
    from websockets.asyncio.client import connect

    ws = await connect(url)
    await ws.send(json.dumps({"type": "hello", "protocol": 1, "minor": minor, "name": "Bo", "token": None}))
    return ws, json.loads(await asyncio.wait_for(ws.recv(), WAIT))


@needs_redis
async def test_a_client_joining_through_another_process_is_moved_to_the_owner_and_plays(redis_url):
    async with service(redis_url) as (one, two):
        code, ana, tokens = await game_on(one)
        bo = await seated(address(two, code), "Bo", tokens["Bo"])
        watcher = await seated(address(two, code), None, TokenStore())
        try:
            assert on(bo) == one.port and on(watcher) == one.port  # on the owner: nothing relayed
            assert not two.cluster.relays.links and not one.cluster.relays.remote
            await ana.until(lambda: ana.game.phase == "playing" and not ana.game.waiting_for)
            await play(ana, [bo, watcher], "S a1")
            await play(bo, [ana, watcher], "O b1")
            assert bo.game.my_seats == (1,) and bo.game.url == address(two, code)  # its address kept
        finally:
            for player in (ana, bo, watcher):
                await player.close()


@needs_redis
async def test_a_client_of_an_older_revision_is_relayed_even_where_the_owner_has_a_public_url(redis_url):
    async with service(redis_url) as (one, two):
        code, ana, _tokens = await game_on(one)
        ws, reply = await hello(address(two, code), 6)
        try:
            assert reply["type"] == "welcome" and reply["seats"] == [1]
            assert len(two.cluster.relays.links) == 1
            await ana.until(lambda: ana.game.phase == "playing")
        finally:
            await ws.close()
            await ana.close()


async def relayed_both_ways(url: str, public: bool | str = True) -> None:
    """Bo joins Ana's game through the process that does not own it: he is relayed there (not
    moved), and the moves go both ways."""
    async with service(url, public=public) as (one, two):
        code, ana, tokens = await game_on(one)
        bo = await seated(address(two, code), "Bo", tokens["Bo"])
        try:
            assert on(bo) == two.port and len(two.cluster.relays.links) == 1
            await ana.until(lambda: ana.game.phase == "playing" and not ana.game.waiting_for)
            await play(ana, [bo], "S a1")
            await play(bo, [ana], "O b1")
        finally:
            await ana.close()
            await bo.close()


@needs_redis
async def test_a_tab_of_sos_tui_web_is_relayed_as_it_may_not_connect_where_a_move_sends_it(
        redis_url, monkeypatch):
    monkeypatch.setenv(SERVERS_VAR, "ws://127.0.0.1:1")  # allowed: this computer, and that one
    await relayed_both_ways(redis_url)


@pytest.mark.parametrize("public", [False, "ws://127.0.0.1:7700"], ids=["none", "the same for every process"])
@needs_redis
async def test_a_process_without_a_public_url_of_its_own_relays_a_client_that_could_follow(redis_url, public):
    await relayed_both_ways(redis_url, public)


@needs_redis
async def test_a_moved_client_whose_owner_stopped_comes_back_through_its_own_address_to_the_new_owner(
        redis_url):
    async with service(redis_url, count=3) as (one, two, three):
        code, ana, tokens = await game_on(one)
        bo = await seated(address(two, code), "Bo", tokens["Bo"])  # moved to one
        await ana.until(lambda: ana.game.phase == "playing" and not ana.game.waiting_for)
        await play(ana, [bo], "S a1")
        await one.restart()  # the owner stops: its clients are sent away (1012)
        await asyncio.wait_for(asyncio.gather(ana._task, bo._task), WAIT)
        await ana.close()
        ana = await seated(address(three, code), "Ana", tokens["Ana"], ana.game.token)  # three takes it over
        await bo.game.connect()  # as the app does: to the game's own address (two), sent to three
        bo._task = asyncio.ensure_future(bo._read())
        try:
            assert code in three.rooms and on(bo) == three.port and on(ana) == three.port
            assert [str(m) for m in bo.game.record.moves] == ["S a1"]
            await play(bo, [ana], "O b1")  # the game goes on
        finally:
            await ana.close()
            await bo.close()


# -- the client against servers that move it -----------------------------------------------------
@contextlib.asynccontextmanager
async def mover(where):
    """A fake server that answers every hello with ``moved`` to ``where(port, path)``, closing with
    MOVED_CLOSE; yields (its port, the paths it was asked)."""
    asked: list[str] = []

    async def handle(ws):
        await ws.recv()
        asked.append(ws.request.path)
        await ws.send(json.dumps({"type": "moved", "url": where(port, ws.request.path)}))
        await ws.close(MOVED_CLOSE, "elsewhere")

    async with serve(handle, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        yield port, asked


async def test_a_moved_loop_is_a_clear_error_after_three_moves():
    async with mover(lambda port, path: f"ws://127.0.0.1:{port}{path}") as (port, asked):
        game = RemoteGame(f"ws://127.0.0.1:{port}/7f3kq-x9m2c", "Bo", tokens=TokenStore())
        with pytest.raises(NetError) as caught:
            await game.connect()
    assert len(asked) == MAX_MOVES + 1  # the address, then three moves
    assert "more than 3 times" in str(caught.value) and not caught.value.retry


async def test_a_move_to_another_games_address_is_not_followed():
    async with mover(lambda port, path: f"ws://127.0.0.1:{port}/8g4kq-x9m2d") as (port, asked):
        game = RemoteGame(f"ws://127.0.0.1:{port}/7f3kq-x9m2c", "Bo", tokens=TokenStore())
        with pytest.raises(NetError, match="another game's address"):
            await game.connect()
    assert asked == ["/7f3kq-x9m2c"]


def test_a_move_from_wss_down_to_ws_is_refused_and_up_or_across_is_followed():
    secure = parse_url("wss://example.org/7f3kq-x9m2c")
    with pytest.raises(ValueError, match="wss://"):
        followed(secure, "ws://example.org:7531/7f3kq-x9m2c")
    across = "wss://b.example.org:8443/7f3kq-x9m2c"
    assert str(followed(secure, across)) == across
    plain = parse_url("ws://example.org:7531/7f3kq-x9m2c")
    assert followed(plain, "wss://example.org/7f3kq-x9m2c").scheme == "wss"


@pytest.mark.parametrize(("text", "problem"), [
    ("http://example.org:7531", "ws://"), ("ws://:7531", "no host"),
    ("ws://ana:pw@example.org:7531", "password"),
    ("ws://example.org:7531/7f3kq-x9m2c", "no path"), ("ws://example.org:7531?x=1", "no path"),
    ("ws://example.org:port", "not a public address")])
def test_a_public_url_is_a_servers_own_ws_address(text, problem):
    with pytest.raises(ValueError, match=problem):
        public_url(text)
    assert public_url(" ws://example.org:7531/ ") == "ws://example.org:7531"


def test_server_refuses_a_bad_public_url_or_one_without_redis_in_one_line(capsys):
    bad = ["--redis", "redis://127.0.0.1:1/0", "--public-url", "http://x:1"]
    assert main(["server", "--port", "0", *bad]) != 0
    err = capsys.readouterr().err.strip()
    assert "--public-url" in err and "ws://" in err and "Traceback" not in err
    assert main(["server", "--port", "0", "--public-url", "ws://127.0.0.1:7701"]) != 0
    err = capsys.readouterr().err.strip()
    assert "--public-url is for a service on Redis" in err and "\n" not in err
