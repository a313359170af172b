"""Protocol revision 2: a ``state`` after a move carries the move, not the game, to a client that
holds the game as it was (``since``); the client plays it on its own copy with the engine. The
whole record goes on connect, to old clients (revision 0 and 1) always, and to a client whose copy
does not match (it asks with ``sync``). Every server listens on 127.0.0.1, port 0."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sos_tui.engine import GameRecord, Move
from sos_tui.net.protocol import (
    PROTOCOL_MINOR,
    ProtocolError,
    StateMessage,
    SyncMessage,
    parse_client,
    parse_server,
)

from .support.helpers import Player, raw_client, running


async def _hello(raw, name: str, minor: int | None) -> None:
    hello = {"type": "hello", "protocol": 1, "name": name, "token": None}
    if minor is not None:
        hello["minor"] = minor
    await raw.send(hello)
    assert (await raw.recv())["type"] == "welcome"


async def _next_state(raw) -> dict:
    while (message := await raw.recv())["type"] != "state":
        pass
    return message


@pytest.mark.parametrize("minor", [None, 0, 1])
async def test_an_old_client_gets_the_whole_record_in_every_state(minor):
    async with running() as server:
        room = server.create_room(3, "general", [{"kind": "remote"}, {"kind": "remote"}])
        async with Player(server.url(room), "Ana") as ana, raw_client(server.url(room)) as old:
            await _hello(old, "Bo", minor)
            assert (await _next_state(old))["phase"] == "playing"
            for text, seat in (("S a1", ana), ("O b1", None), ("S c1", ana)):
                if seat is None:
                    await old.send({"type": "move", "move": text})
                else:
                    await ana.until(lambda: ana.game.state.to_move == 0)
                    await ana.game.play(Move.parse(text))
                state = await _next_state(old)
                assert "since" not in state and state["game"]["moves"][-1] == text
                assert GameRecord.from_dict(state["game"]).moves == room.session.record.moves


async def test_a_new_client_gets_each_move_alone_and_ends_with_the_servers_game():
    async with running() as server:
        room = server.create_room(4, "general", [{"kind": "remote"}, {"kind": "remote"}])
        url = server.url(room)
        async with Player(url, "Ana") as ana, raw_client(url) as bo:
            await _hello(bo, "Bo", PROTOCOL_MINOR)
            first = await _next_state(bo)  # on connect: the whole record
            assert first["game"]["moves"] == [] and "since" not in first
            game_id = first["game"]["id"]
            await ana.game.play(Move.parse("S a1"))
            moved = await _next_state(bo)
            assert moved["game"] is None and moved["change"] == "move" and moved["version"] == 2
            assert moved["since"] == {"id": game_id, "version": 1, "moves": ["S a1"],
                                      "updated": room.session.record.updated}
            await bo.send({"type": "move", "move": "O b1", "version": 2})
            assert (await _next_state(bo))["since"]["moves"] == ["O b1"]
            await ana.version(3)
            await ana.game.play(Move.parse("S d4"))
            assert (await _next_state(bo))["since"]["moves"] == ["S d4"]
            await bo.send({"type": "bye"})
            await bo.ws.close()
            await ana.until(lambda: ana.game.waiting_for == ("Bo",))
            assert ana.game.record == room.session.record and ana.game.state == room.session.state
            assert ana.game.record.updated == room.session.record.updated
            states = [m for m in ana.seen if isinstance(m, StateMessage)]
            assert [m.game is None for m in states] == [False] + [True] * (len(states) - 1)
            assert states[-1].change == "quit" and states[-1].since.moves == ()  # the game as it was


async def test_a_client_whose_copy_is_behind_asks_for_the_whole_record_and_catches_up():
    async with running() as server:
        room = server.create_room(3, "general", [{"kind": "remote"}, {"kind": "remote"}])
        url = server.url(room)
        async with Player(url, "Ana") as ana, Player(url, "Bo") as bo:
            await ana.game.play(Move.parse("S a1"))
            await bo.version(2)
            before = bo.game.record, bo.game.state, bo.game.version
            await bo.game.play(Move.parse("O b1"))
            await ana.version(3)
            await bo.version(3)
            # Bo's copy misses the last move (a message lost on the way): the next one is a gap
            bo.game.record, bo.game.state, bo.game.version = before
            seen = len(bo.seen)
            await ana.game.play(Move.parse("S c1"))
            await bo.version(4)
            assert bo.game.record.moves == room.session.record.moves
            assert bo.game.state == room.session.state and bo.game.state.scores == (1, 0)
            told = [m for m in bo.seen[seen:] if isinstance(m, StateMessage)]
            assert [m.game is not None for m in told] == [True]  # the move it could not apply was not shown
            assert told[0].change == "move" and told[0].move == Move.parse("S c1")
            # and it plays on with moves alone again
            await ana.game.play(Move.parse("O a2"))
            await bo.version(5)
            assert bo.seen[-1].game is None and bo.game.state == room.session.state


async def test_a_client_coming_back_gets_the_whole_record_then_moves(tmp_path):
    async with running() as server:
        room = server.create_room(3, "general", [{"kind": "remote"}, {"kind": "remote"}])
        url = server.url(room)
        async with Player(url, "Ana") as ana, Player(url, "Bo") as bo:
            await ana.game.play(Move.parse("S a1"))
            await bo.version(2)
            token = bo.game.token
            await bo.close()
            await ana.until(lambda: ana.game.waiting_for == ("Bo",))
            async with raw_client(url) as back:
                await back.send({"type": "hello", "protocol": 1, "minor": PROTOCOL_MINOR, "name": "Bo",
                                 "token": token})
                assert (await back.recv())["seats"] == [1]
                whole = await _next_state(back)
                assert whole["game"]["moves"] == ["S a1"] and "since" not in whole
                await back.send({"type": "move", "move": "O b1", "version": 2})
                assert (await _next_state(back))["since"]["moves"] == ["O b1"]
                await back.send({"type": "sync"})
                again = await _next_state(back)
                assert again["game"]["moves"] == ["S a1", "O b1"] and again["version"] == 3
                assert again["change"] == "move" and again["move"] == "O b1"  # the last change, whole


def test_a_state_with_moves_since_reads_and_a_broken_one_is_refused():
    seats = [{"name": "A", "kind": "human"}, {"name": "B", "kind": "human"}]
    message = {"type": "state", "seats": seats, "size": 3, "mode": "general", "version": 3,
               "phase": "playing", "change": "move", "move": "S b2", "game": None,
               "since": {"id": "g1", "version": 2, "moves": ["S b2"], "updated": "2026-01-01T00:00:00+00:00"}}
    state = parse_server(json.dumps(message))
    assert state.game is None and state.since.moves == (Move.parse("S b2"),)
    assert (state.since.game_id, state.since.version) == ("g1", 2)
    assert StateMessage.from_dict(json.loads(state.to_json())) == state
    for broken in ({"id": 5}, {"id": "g1", "version": "2", "moves": []}, [],
                   {"id": "g1", "version": 2, "moves": ["Z"], "updated": ""}):
        with pytest.raises(ProtocolError) as refused:
            parse_server(json.dumps(dict(message, since=broken)))
        assert refused.value.code == "bad-state"
    assert isinstance(parse_client(SyncMessage().to_json()), SyncMessage)


def test_the_mirror_benchmark_runs_and_both_ways_agree():
    bench = Path(__file__).resolve().parent.parent / "benchmarks" / "mirror.py"
    done = subprocess.run([sys.executable, str(bench), "--size", "4", "--from", "8", "--repeats", "1"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "Both clients end with the same record and state" in done.stdout
