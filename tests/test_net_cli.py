"""The host, join and server commands: one-line refusals (exit 2), and real processes on
127.0.0.1 with a free port: ``server`` with ``host --headless --server`` running a game to its
end, and ctrl+c ending ``host --headless`` and ``server`` cleanly."""

from __future__ import annotations

import asyncio
import signal

import pytest

from sos_tui.cli import main
from sos_tui.net import NetError, RemoteGame, TokenStore

from .support.helpers import Process, wait_for


@pytest.mark.parametrize(("argv", "message"), [
    (["host", "--players", "Ana,Bo"], "name at least one seat 'remote'"),
    (["host", "--players", "Ana,remote,ana"], "two players are called"),
    (["host", "--players", "Ana,remote:x"], "seat 2"),
    (["host", "--headless", "--players", "Ana,remote"], "--headless has no seat at this terminal"),
    (["host", "--port", "70000"], "--port"),
    (["host", "--server", "http://example.org"], "starts with ws://"),
    (["join", "example.org/7f3kq-x9m2c"], "starts with ws://"),
    (["join", "ws://127.0.0.1:7531/nope"], "not a room code"),
    (["join", "ws://127.0.0.1:7531/7f3kq-x9m2c", "--name", "Bo\x1b[2J"], "control character"),
    (["join", "ws://127.0.0.1:7531/7f3kq-x9m2c", "--name", "Bo"], "needs a terminal"),
    (["host", "--players", "Ana,remote"], "needs a terminal"),
    (["host", "--headless", "--clock", "5+"], "the increment is missing"),
    (["host", "--headless", "--clock", "2d"], "days per move are for correspondence games"),
])
def test_refusals_are_one_line_and_exit_2(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "\x1b" not in err


def test_plain_join_at_a_server_nobody_runs_says_so_in_one_line(capsys):
    assert main(["join", "ws://127.0.0.1:9", "--plain", "--name", "Bo"]) == 2  # its lobby, in line mode
    out = capsys.readouterr().out
    assert "cannot reach ws://127.0.0.1:9" in out and out.count("\n") == 1 and "\x1b" not in out


def test_host_headless_on_a_server_nobody_runs_says_so_in_one_line(capsys):
    assert main(["host", "--headless", "--server", "ws://127.0.0.1:9", "--size", "3"]) == 2
    err = capsys.readouterr().err
    assert "cannot reach ws://127.0.0.1:9" in err and err.count("\n") == 1


async def play_two(url: str) -> str:
    players = [RemoteGame(url, name, tokens=TokenStore()) for name in ("Ana", "Bo")]
    for player in players:
        await player.connect()
    readers = [asyncio.ensure_future(_drain(p)) for p in players]
    try:
        ana = players[0]
        await wait_for(None, lambda: ana.state is not None and ana.phase == "playing")
        while not ana.state.is_over:
            mover = next(p for p in players if ana.state.to_move in p.my_seats)
            version = ana.version
            if mover.version == version:
                await mover.play(mover.state.legal_moves()[0])
                await wait_for(None, lambda version=version: ana.version != version)
            else:  # the mover has not seen the last move yet (or Ana has not)
                await wait_for(None, lambda v=version, m=mover: ana.version != v or m.version == v)
        return ana.record.result_text()
    finally:
        for player in players:
            await player.close()
        for reader in readers:
            reader.cancel()


async def _drain(player: RemoteGame) -> None:
    try:
        async for _ in player.updates():
            pass
    except NetError:
        pass


def test_a_long_lived_server_runs_a_game_created_by_host_headless_server(tmp_path):
    server = Process("server", "--port", "0", env_dir=tmp_path / "server")
    host = None
    try:
        base = server.line("ws://")
        host = Process("host", "--headless", "--server", base, "--size", "3", env_dir=tmp_path / "host")
        url = host.line("ws://")
        assert url.startswith(base + "/")
        result = asyncio.run(asyncio.wait_for(play_two(url), 30))
        assert host.process.wait(20) == 0, host.lines
        assert f"game over: {result}" in host.lines
        assert any("Ana joined" in line for line in server.lines)
        server.process.send_signal(signal.SIGINT)  # ctrl+c
        assert server.process.wait(10) == 0
        server.line("stopped")  # the output is read by a thread: it may come a moment after the exit
        assert server.lines[-1] == "stopped"
    finally:
        server.stop()
        if host is not None:
            host.stop()


def test_ctrl_c_ends_host_headless_cleanly_and_tells_the_players(tmp_path):
    host = Process("host", "--headless", "--port", "0", "--size", "3", env_dir=tmp_path)
    try:
        url = host.line("ws://")

        async def join_then_interrupt() -> str:
            ana = RemoteGame(url, "Ana", tokens=TokenStore())
            await ana.connect()
            host.process.send_signal(signal.SIGINT)
            with pytest.raises(NetError) as lost:
                async for _ in ana.updates():
                    pass
            return str(lost.value)

        # the game stays on disk for the same command to bring back: the players are told to come back
        assert "restarting" in asyncio.run(asyncio.wait_for(join_then_interrupt(), 20))
        assert host.process.wait(10) == 130
        host.line("stopped")  # the output is read by a thread: it may come a moment after the exit
        assert host.lines[-1] == "stopped"
    finally:
        host.stop()


def test_listening_beyond_this_machine_prints_a_warning(capsys):
    from sos_tui.cli.net import _warn_bind
    from sos_tui.net.run import reachable_host

    for bind in ("127.0.0.1", "localhost", "::1"):
        _warn_bind("host", bind)
    assert capsys.readouterr().err == ""
    _warn_bind("server", "0.0.0.0")
    err = capsys.readouterr().err
    assert err.startswith("sos-tui server: warning: listening on 0.0.0.0") and err.count("\n") == 1
    assert reachable_host("127.0.0.1") == "127.0.0.1" and reachable_host("0.0.0.0")


def test_join_with_nobody_listening_says_so_in_the_players_words_and_exits_2(monkeypatch, capsys):
    import socket

    from sos_tui.app import SosApp
    from sos_tui.cli import net

    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setattr(net, "has_terminal", lambda: True)
    run = SosApp.run
    monkeypatch.setattr(SosApp, "run", lambda app, **kwargs: run(app, headless=True, size=(100, 30)))
    assert main(["join", f"ws://127.0.0.1:{port}/7f3kq-x9m2c", "--name", "Bo"]) == 2
    err = capsys.readouterr().err
    assert err == (f"sos-tui join: cannot reach ws://127.0.0.1:{port}: nothing is listening there "
                   "(is the game still hosted?)\n")


async def test_host_on_a_server_that_goes_away_says_it_lost_the_server_instead_of_a_traceback():
    from sos_tui.engine import Seat, SeatKind
    from sos_tui.net import Server
    from sos_tui.net.headless import host_on_server
    from sos_tui.net.run import HostPlan

    server = Server(allow_create=True)
    port = await server.start("127.0.0.1", 0)
    said: list[str] = []
    remote = Seat(None, SeatKind.REMOTE)
    plan = HostPlan(3, "general", (remote, remote), server_url=f"ws://127.0.0.1:{port}")
    watching = asyncio.ensure_future(host_on_server(plan, said.append))
    await wait_for(None, lambda: len(said) >= 2)
    await server.restart()  # gone, mid-game, as a killed server is
    assert await asyncio.wait_for(watching, 10) == 1
    assert said[-1].startswith("lost the server")


async def test_host_on_a_server_says_each_move_and_the_result_then_ends_and_stops_on_ctrl_c():
    from sos_tui.engine import Seat, SeatKind
    from sos_tui.net import Server
    from sos_tui.net.headless import host_on_server
    from sos_tui.net.run import HostPlan

    async with Server(allow_create=True) as server:
        base = f"ws://127.0.0.1:{await server.start('127.0.0.1', 0)}"
        remote = Seat(None, SeatKind.REMOTE)
        plan = HostPlan(3, "general", (remote, remote), server_url=base)
        said: list[str] = []
        watching = asyncio.ensure_future(host_on_server(plan, said.append))
        await wait_for(None, lambda: len(said) >= 2)
        assert said[0].startswith(base + "/") and said[1].endswith(f"{said[0]} --name NAME")
        result = await asyncio.wait_for(play_two(said[0]), 30)
        assert await asyncio.wait_for(watching, 10) == 0
        moves = [line for line in said if line.startswith("move: ")]
        assert len(moves) >= 5 and said[-1] == f"game over: {result}"

        stop, said = asyncio.Event(), []
        watching = asyncio.ensure_future(host_on_server(plan, said.append, stop))
        await wait_for(None, lambda: len(said) >= 2)
        stop.set()  # ctrl+c: the game stays on the server
        assert await asyncio.wait_for(watching, 10) == 130
