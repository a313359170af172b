"""sos-tui server as a service: ``GET /healthz`` and ``GET /metrics`` on the game's own port
(``sos_tui/net/metrics.py``), the event lines as JSON (``--log-format json``), and a stop on
SIGTERM that answers 503 until it is gone."""

from __future__ import annotations

import asyncio
import json
import logging
import signal
import sys
import time

import pytest
from prometheus_client.parser import text_string_to_metric_families

from sos_tui.net import NetError, create_room
from sos_tui.net.eventlog import JsonFormatter, json_line, printer

from .support.helpers import WAIT, Player, Process, fetch, get, running, send_raw, until


def samples(text: str) -> dict[tuple[str, tuple], float]:
    """The Prometheus text as {(sample name, labels): value}."""
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


async def scrape(port: int) -> dict[tuple[str, tuple], float]:
    status, headers, body = await fetch(port, get("/metrics"))
    assert status == 200 and headers["content-type"].startswith("text/plain; version=")
    assert headers["cache-control"] == "no-store"
    return samples(body.decode())


async def test_healthz_says_ok_while_the_server_takes_games_and_503_once_it_is_stopping():
    async with running(allow_create=True) as server:
        status, headers, body = await fetch(server.port, get("/healthz"))
        assert (status, body) == (200, b"ok\n") and headers["content-security-policy"]
        assert (await fetch(server.port, get("/healthz", "HEAD")))[:1] == (200,)
        assert (await fetch(server.port, get("/metrics", "POST")))[0] == 405  # behind the page's bounds
        server.stop_taking_games()
        assert (await fetch(server.port, get("/healthz")))[::2] == (503, b"stopping\n")
        with pytest.raises(NetError, match="stopping"):  # and it takes no new game
            await create_room(f"ws://127.0.0.1:{server.port}", 3, "general", [{"kind": "remote"}] * 2)
        assert (await scrape(server.port))[("sos_stopping", ())] == 1


async def test_metrics_count_the_rooms_connections_moves_errors_and_move_time_of_a_game():
    async with running() as server:
        before = await scrape(server.port)
        assert before[("sos_rooms", ())] == 0 and before[("sos_moves_total", ())] == 0
        room = server.create_room(
            3, "general", [{"kind": "remote", "name": None}, {"kind": "computer", "level": "easy"}]
        )
        async with Player(server.url(room), "Ana") as ana:
            await send_raw(ana.game, {"type": "no-such-thing"})  # refused: counted by its code
            while not (ana.game.state is not None and ana.game.state.is_over):
                await ana.until(
                    lambda: (
                        ana.game.state is not None
                        and (ana.game.state.is_over or ana.game.state.to_move in ana.game.my_seats)
                    )
                )
                if not ana.game.state.is_over:
                    version = ana.game.version
                    await ana.game.play(ana.game.state.legal_moves()[0])
                    await ana.version(version + 1)
            during = await scrape(server.port)
        after = await scrape(server.port)
    assert during[("sos_rooms", ())] == 1 and during[("sos_connections", ())] == 1
    assert after[("sos_moves_total", ())] == 9 and after[("sos_games_finished_total", ())] == 1
    assert after[("sos_errors_total", (("code", "unknown-type"),))] == 1
    mine = (9 + 1) // 2  # Ana moves first on a 3x3 board, and again after each SOS she makes
    assert after[("sos_move_handling_seconds_count", ())] >= mine
    assert (
        after[("sos_move_handling_seconds_bucket", (("le", "+Inf"),))]
        == after[("sos_move_handling_seconds_count", ())]
    )


async def test_the_metrics_name_no_room_code_player_or_address():
    async with running() as server:
        room = server.create_room(3, "general", [{"kind": "remote"}, {"kind": "remote"}])
        async with Player(server.url(room), "Zanzibar"), Player(server.url(room), "Quixote") as bo:
            await bo.until(lambda: bo.game.phase == "playing")
            text = (await fetch(server.port, get("/metrics")))[2].decode()
    for secret in (room.code, room.code.replace("-", ""), "Zanzibar", "Quixote", "127.0.0.1"):
        assert secret not in text


def test_a_json_line_is_one_object_with_the_time_the_level_the_event_and_the_room():
    line = json_line('Ana: S a1 "quoted"\nnext', room="7f3kq-x9m2c")
    assert "\n" not in line
    fields = json.loads(line)
    assert fields.pop("time").endswith("Z")
    assert fields == {"level": "info", "event": 'Ana: S a1 "quoted"\nnext', "room": "7f3kq-x9m2c"}
    try:
        raise ValueError("boom")
    except ValueError:
        record = logging.LogRecord("sos_tui", logging.ERROR, __file__, 1, "failed: %s", ("x",), True)
        record.exc_info = sys.exc_info()
    logged = json.loads(JsonFormatter().format(record))
    assert logged["level"] == "error" and logged["event"].startswith("failed: x\nTraceback")


def test_the_text_lines_are_as_before(capsys):
    say = printer("text")
    say("ws://127.0.0.1:7531")
    say("Ana: S a1", room="7f3kq-x9m2c")
    assert capsys.readouterr().out == "ws://127.0.0.1:7531\n7f3kq-x9m2c: Ana: S a1\n"


def test_with_json_logs_the_warning_and_a_failure_to_start_are_json_lines_too(capsys):
    import socket

    from sos_tui.cli import main

    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["server", "--bind", "0.0.0.0", "--port", str(port), "--log-format", "json"]) == 2
    out, err = capsys.readouterr()
    warning, error = map(json.loads, out.splitlines())
    assert warning["level"] == "warning" and "listening on 0.0.0.0" in warning["event"]
    assert error["level"] == "error" and f"cannot listen on 0.0.0.0:{port}" in error["event"] and err == ""


def test_json_logs_end_with_the_server_command_that_asked_for_them(capsys):
    """``main`` run in a process that goes on (a test, a script): once ``server --log-format
    json`` has returned, logging is as it was. Its JSON handler stayed on the root logger, bound
    to the stderr of that moment, and swallowed the warnings of whatever ran next."""
    import logging
    import socket

    from sos_tui.cli import main

    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["server", "--port", str(port), "--log-format", "json"]) == 2
    capsys.readouterr()
    assert (root.handlers, root.level) == (handlers, level)


def test_the_server_logs_json_lines_answers_503_after_sigterm_and_exits_within_seconds(tmp_path):
    server = Process("server", "--port", "0", "--log-format", "json", env_dir=tmp_path)
    try:
        url = json.loads(until(lambda: server.lines, "the first line")[0])["event"]
        port = int(url.rsplit(":", 1)[1])
        join_url, _token, _seats = asyncio.run(create_room(url, 3, "general", [{"kind": "remote"}] * 2))
        until(lambda: any("room" in json.loads(line) for line in server.lines), "a room's event line")
        assert asyncio.run(fetch(port, get("/healthz")))[0] == 200
        server.process.send_signal(signal.SIGTERM)
        signalled = time.monotonic()
        until(lambda: len(server.lines) >= 5, "the stopping line")  # 3 at the start, the room's, stopping
        assert asyncio.run(fetch(port, get("/healthz")))[0] == 503
        assert server.process.wait(WAIT) == 0
        assert time.monotonic() - signalled < 5
    finally:
        server.stop()
    events = [json.loads(line) for line in server.lines]  # every line, stderr's too, is one object
    assert events[-1]["event"] == "stopped" and all(e["level"] == "info" for e in events)
    assert any(e.get("room") == join_url.rsplit("/", 1)[1] and "room created" in e["event"] for e in events)
