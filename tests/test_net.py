"""The game server and its client in one process over loopback: whole games, three players, a
computer seat, reconnecting, spectators, refusals (wrong code, wrong seat, illegal moves, bad names,
old protocol), hostile clients while a game goes on, limits, undo by agreement, and a server that
stops mid-game. Every server listens on 127.0.0.1, port 0, and is stopped by its test."""

from __future__ import annotations

import asyncio
import json

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from sos_tui.engine import GameRecord, IllegalMoveError, Move
from sos_tui.net import (
    Limits,
    NetError,
    RemoteGame,
    SeatKey,
    Server,
    TokenStore,
    create_room,
    normal_code,
    parse_url,
)
from sos_tui.net.protocol import (
    MAX_FRAME,
    ErrorMessage,
    ProtocolError,
    RematchResultMessage,
    StateMessage,
    UndoResultMessage,
    new_code,
    parse_server,
)
from sos_tui.session import NotYourTurnError, SeatKind

from .support.helpers import WAIT, FirstMove, Player, raw_client, running, send_raw


async def play_out(players: list[Player]) -> None:
    """Each player moves on its turn (the first legal move) until the game is over."""
    by_seat = {seat: p for p in players for seat in p.game.my_seats}
    game = players[0].game
    while game.state is None or not game.state.is_over:
        await players[0].until(lambda: game.state is not None and not game.waiting_for)
        if game.state.is_over:
            break
        mover = by_seat.get(game.state.to_move)
        version = game.version
        if mover is not None:
            await mover.game.play(mover.game.state.legal_moves()[0])
        await players[0].version(version + 1)
    for p in players:
        await p.until(lambda p=p: p.game.state is not None and p.game.state.is_over)


async def test_two_players_play_a_whole_game_and_see_the_same_result():
    async with running() as server:
        room = server.create_room(3, "general", [{"kind": "remote"}, {"kind": "remote"}])
        url = server.url(room)
        async with Player(url, "Ana") as ana, Player(url, "Bo") as bo:
            await ana.until(lambda: ana.game.phase == "playing")
            assert ana.game.my_seats == (0,) and bo.game.my_seats == (1,)
            assert [s.kind for s in ana.game.seats] == ["human", "remote"]
            assert ana.game.kind_to_move is SeatKind.HUMAN and bo.game.kind_to_move is SeatKind.REMOTE
            await play_out([ana, bo])
            assert room.finished.is_set()
            assert ana.game.record.moves == bo.game.record.moves == room.session.record.moves
            assert ana.game.record.game_id == room.session.game_id
            assert ana.game.record.result_text() == bo.game.record.result_text()
            assert [p.kind for p in room.session.record.players] == ["human", "human"]


async def test_three_players_with_a_computer_seat_played_by_the_server():
    async with running() as server:
        room = server.create_room(4, "general", [{"kind": "remote"}, {"kind": "computer", "level": "easy"},
                                                 {"kind": "remote"}])
        url = server.url(room)
        async with Player(url, "Ana") as ana, Player(url, "Cy") as cy:
            await ana.until(lambda: ana.game.phase == "playing")
            assert [s.kind for s in cy.game.seats] == ["remote", "computer", "human"]
            await play_out([ana, cy])
            state = room.session.state
            assert state.is_over and set(state.movers) == {0, 1, 2}


async def test_a_dropped_player_gets_the_seat_back_with_the_token_and_the_game_waits(tmp_path):
    async with running() as server:
        room = server.create_room(3, "general", [{"kind": "remote"}, {"kind": "remote"}])
        url = server.url(room)
        bo_tokens = TokenStore(tmp_path / "bo-seats.json")
        async with Player(url, "Ana") as ana:
            bo = Player(url, "Bo", bo_tokens)
            await bo.__aenter__()
            await ana.game.play(Move.parse("S a1"))
            await bo.version(2)
            await bo.close()  # the terminal closes
            await ana.until(lambda: ana.game.waiting_for == ("Bo",))
            assert [s.connected for s in ana.game.seat_views] == [True, False]
            # the game waits: nobody plays for Bo, and Ana cannot move either
            with pytest.raises(NotYourTurnError, match="waiting for Bo"):
                await ana.game.play(Move.parse("O b1"))
            await send_raw(ana.game, {"type": "move", "move": "O b1"})  # a client that ignores the wait
            await ana.error("waiting")
            # the same join command from the same account: the same seat
            assert TokenStore(tmp_path / "bo-seats.json").find(SeatKey.player(url, "Bo"))
            async with Player(url, "Bo", TokenStore(tmp_path / "bo-seats.json")) as back:
                assert back.game.my_seats == (1,)
                await ana.until(lambda: ana.game.waiting_for == ())
                await back.game.play(Move.parse("O b1"))
                await ana.until(lambda: len(ana.game.state.moves) == 2)


async def test_a_second_terminal_of_the_same_account_takes_the_open_seat_not_the_one_in_play(tmp_path):
    """Two terminals (or two ``sos-tui web`` tabs) share one data folder: the one joining must not
    pick up the seat token the other is playing with, which took that seat from it."""
    async with running() as server:
        room = server.create_room(3, "general", [{"kind": "remote"}, {"kind": "remote"}])
        url = server.url(room)
        async with (Player(url, "Ana", TokenStore(tmp_path / "seats.json")) as ana,
                    Player(url, "Bo", TokenStore(tmp_path / "seats.json")) as bo):
            assert (ana.game.my_seats, bo.game.my_seats) == ((0,), (1,))
            await ana.game.play(Move.parse("S a1"))
            await bo.version(2)
            assert ana.lost is None and ana.game.my_seats == (0,)
        # both closed: the next join from this account resumes the seat of the newest token (Bo's)
        async with Player(url, "Bo", TokenStore(tmp_path / "seats.json")) as back:
            assert back.game.my_seats == (1,)


async def test_a_room_brought_back_gives_its_host_exactly_its_own_seats_whatever_token_was_kept(tmp_path):
    """The process hosting a room holds its own seats by right: brought back after a restart, the
    token it kept is checked, and one that is not the host's (a joiner's, kept in its place by an
    older sos-tui on the same data folder) or none gets a new token for exactly those seats."""
    async with running() as server:
        room = server.create_room(3, "general", [{"kind": "human", "name": "Ann"}, {"kind": "remote"}])
        url = server.url(room)
        own = room.host_token(None)
        assert own == room.owner_token
        async with Player(url, "Bo") as bo:
            bo_token = bo.game.token
        kept = room.stored()
        assert server.restore(kept).host_token(own) == own  # its own, kept: the same seats
        brought = server.restore(kept)
        token = brought.host_token(bo_token)
        assert token not in (own, bo_token) and brought.host_token(bo_token) == token
        async with (Player(url, "Ann", TokenStore(tmp_path / "seats.json")) as ann,
                    Player(url, "Bo", TokenStore(tmp_path / "seats.json")) as bo):
            assert ann.game.my_seats == () and bo.game.my_seats == ()  # no token: watching
        host = RemoteGame(url, "Ann", token=token, tokens=TokenStore(tmp_path / "seats.json"), host=True)
        await host.connect()
        back = RemoteGame(url, "Bo", token=bo_token, tokens=TokenStore(tmp_path / "seats.json"))
        await back.connect()
        try:
            assert (host.my_seats, back.my_seats) == ((0,), (1,))
            assert server.restore(brought.stored()).host_token(None) not in (token, own, bo_token)
        finally:
            await host.close()
            await back.close()


async def test_a_connection_replaced_by_the_same_token_is_not_reconnected_by_itself():
    async with running() as server:
        room = server.create_room(3, "general", [{"kind": "remote"}, {"kind": "remote"}])
        url = server.url(room)
        async with Player(url, "Ana") as ana, Player(url, "Bo") as bo:
            again = RemoteGame(url, "Bo", token=bo.game.token, tokens=TokenStore())
            await again.connect()  # Bo's seat, from another terminal with Bo's token, on purpose
            try:
                await bo.until(lambda: bo.lost is not None)
                assert bo.lost.retry is False and bo.lost.code == "replaced"
                assert "another connection" in str(bo.lost)
                assert again.my_seats == (1,) and ana.lost is None
            finally:
                await again.close()


async def test_spectators_watch_and_cannot_move():
    async with running() as server:
        room = server.create_room(3, "simple", [{"kind": "remote"}, {"kind": "remote"}])
        url = server.url(room)
        async with Player(url, "Ana") as ana, Player(url, "Bo") as bo, Player(url, "Cy") as cy:
            assert cy.game.role == "spectator" and cy.game.my_seats == ()
            assert all(s.kind == "remote" for s in cy.game.seats)
            await ana.until(lambda: ana.game.spectators == 1)
            with pytest.raises(NotYourTurnError):
                await cy.game.play(Move.parse("S a1"))
            async with raw_client(url) as raw:  # a spectator that ignores the rules
                await raw.send({"type": "hello", "protocol": 1, "name": None})
                assert (await raw.recv())["role"] == "spectator"
                await raw.send({"type": "move", "move": "S a1"})
                while (reply := await raw.recv())["type"] != "error":
                    pass
                assert reply["code"] == "spectator"
            await ana.game.play(Move.parse("S a1"))
            await cy.until(lambda: cy.game.state is not None and len(cy.game.state.moves) == 1)
            assert bo.game.state.moves == cy.game.state.moves


async def test_a_wrong_or_expired_code_and_an_old_protocol_are_refused_clearly():
    async with running() as server:
        room = server.create_room(3, "general", [{"kind": "remote"}, {"kind": "remote"}])
        with pytest.raises(NetError, match="no game with that code") as refused:
            wrong = f"ws://127.0.0.1:{server.port}/{new_code()}"
            await RemoteGame(wrong, "Ana", tokens=TokenStore()).connect()
        assert refused.value.code == "no-room" and not refused.value.retry
        with pytest.raises(ValueError, match="not a room code"):
            parse_url(f"ws://127.0.0.1:{server.port}/nope")
        async with connect(server.url(room)) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": True, "name": "Ana"}))
            reply = json.loads(await ws.recv())
            assert reply["code"] == "protocol" and "protocol 1" in reply["message"]
            with pytest.raises(ConnectionClosed):
                await ws.recv()
        async with connect(server.url(room)) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": 2, "name": "Ana"}))
            reply = json.loads(await ws.recv())
            assert reply["code"] == "protocol" and "your client 2" in reply["message"]
            with pytest.raises(ConnectionClosed):
                await ws.recv()
        await server.close_room(room, "the game is over")
        with pytest.raises(NetError, match="no game with that code"):
            await RemoteGame(server.url(room), "Ana", tokens=TokenStore()).connect()
    assert normal_code(" 7F3KQ x9m2c ") == "7f3kq-x9m2c" and normal_code("oil00-00000") == "011" + "00-00000"


async def test_names_follow_the_engine_rules_and_must_differ():
    async with running() as server:
        room = server.create_room(3, "general", [{"kind": "human", "name": "Ana"}, {"kind": "remote"},
                                                 {"kind": "remote"}])
        url = server.url(room)
        with pytest.raises(NetError, match="control character"):
            await RemoteGame(url, "Bo\x1b[2J", tokens=TokenStore()).connect()
        with pytest.raises(NetError, match="already called"):
            await RemoteGame(url, "ANA", tokens=TokenStore()).connect()
        watcher = RemoteGame(url, None, tokens=TokenStore())  # no name: watching, even with seats open
        await watcher.connect()
        assert watcher.role == "spectator" and room.open_seats == 2
        await watcher.close()


async def test_a_client_moves_only_for_its_own_seat_on_its_turn_and_only_legal_moves():
    async with running() as server:
        room = server.create_room(3, "general", [{"kind": "remote"}, {"kind": "remote"}])
        url = server.url(room)
        async with Player(url, "Ana") as ana, Player(url, "Bo") as bo:
            await bo.until(lambda: bo.game.phase == "playing")
            with pytest.raises(NotYourTurnError):
                await bo.game.play(Move.parse("S a1"))
            await send_raw(bo.game, {"type": "move", "move": "S a1"})  # past the client's own check
            await bo.error("not-your-turn")
            await ana.game.play(Move.parse("S a1"))
            await bo.version(2)
            with pytest.raises(IllegalMoveError):
                await bo.game.play(Move.parse("O a1"))
            for text, code in [("O a1", "illegal-move"), ("O z9", "illegal-move"), ("X b1", "bad-move"),
                               (7, "bad-message")]:
                await send_raw(bo.game, {"type": "move", "move": text})
                await bo.error(code)
            await send_raw(bo.game, {"type": "move", "move": "O b1", "version": 1})
            await bo.error("stale")
            assert room.session.state.moves == (Move.parse("S a1"),)
            assert bo.game.connected  # game-level refusals do not close the connection


async def test_hostile_clients_are_refused_and_closed_while_games_go_on():
    async with running(Limits(strikes=3)) as server:
        room = server.create_room(3, "general", [{"kind": "remote"}, {"kind": "remote"}])
        other = server.create_room(3, "general", [{"kind": "remote"}, {"kind": "remote"}])
        url = server.url(room)
        async with Player(url, "Ana") as ana, Player(url, "Bo") as bo, \
                Player(server.url(other), "Cy") as cy, Player(server.url(other), "Di") as di:
            await ana.game.play(Move.parse("S a1"))

            async def hostile(frames, first=True):
                async with connect(url, max_size=None) as ws:
                    if first:
                        await ws.send(json.dumps({"type": "hello", "protocol": 1, "name": None}))
                        assert json.loads(await ws.recv())["role"] == "spectator"
                    replies = []
                    with pytest.raises(ConnectionClosed):
                        for frame in frames:
                            await ws.send(frame)
                        while True:
                            replies.append(json.loads(await asyncio.wait_for(ws.recv(), WAIT)))
                    return [r.get("code") for r in replies if r.get("type") == "error"]

            assert "bad-json" in await hostile(["{nope", "[1,2", "\x00\xff"])
            assert "too-big" in await hostile(["x" * (MAX_FRAME + 1)] * 3)
            assert "unknown-type" in await hostile([json.dumps({"type": "shutdown"})] * 3)
            assert "bad-frame" in await hostile([b"\x00" * 10] * 3)
            assert "flood" in await hostile([json.dumps({"type": "ping"})] * 200)
            assert "hello-first" in await hostile([json.dumps({"type": "move", "move": "S b2"})],
                                                  first=False)
            # beyond what the library reads at all: closed at once (1009), no reply
            assert await hostile(["y" * 100_000], first=False) == []
            # the games went on for everyone else
            await bo.game.play(Move.parse("O b1"))
            await ana.version(3)
            await cy.game.play(Move.parse("S c3"))
            await di.until(lambda: di.game.state is not None and len(di.game.state.moves) == 1)
            assert all(p.game.connected for p in (ana, bo, cy, di))
            assert not any(isinstance(m, ErrorMessage) for p in (ana, bo, cy, di) for m in p.seen)


async def test_the_server_bounds_connections_per_address_rooms_and_the_time_to_say_hello():
    async with running(Limits(connections_per_address=2, max_rooms=1, hello_timeout=0.3)) as server:
        room = server.create_room(3, "general", [{"kind": "remote"}, {"kind": "remote"}])
        with pytest.raises(Exception, match="as many games"):
            server.create_room(3, "general", [{"kind": "remote"}, {"kind": "remote"}])
        async with connect(server.url(room)) as silent:
            reply = json.loads(await asyncio.wait_for(silent.recv(), WAIT))
            assert reply["code"] == "timeout"
        async with Player(server.url(room), "Ana"), Player(server.url(room), "Bo"):
            with pytest.raises(NetError, match="too many connections"):
                await RemoteGame(server.url(room), None, tokens=TokenStore()).connect()


async def test_an_idle_room_is_closed_and_its_players_told():
    async with running(Limits(room_idle=0.3, reap_every=0.05)) as server:
        room = server.create_room(3, "general", [{"kind": "remote"}, {"kind": "remote"}])
        async with Player(server.url(room), "Ana") as ana:
            await ana.until(lambda: ana.lost is not None)
            assert "without a move" in str(ana.lost)
            assert room.code not in server.rooms


async def test_undo_is_a_request_the_other_people_accept_or_decline():
    async with running(Limits(undo_cooldown=0)) as server:
        room = server.create_room(3, "general", [{"kind": "remote"}, {"kind": "remote"}])
        url = server.url(room)
        async with Player(url, "Ana") as ana, Player(url, "Bo") as bo:
            await ana.game.play(Move.parse("S a1"))
            await ana.version(2)
            await ana.game.request_undo()
            await bo.until(lambda: bo.game.undo_request is not None)
            assert bo.game.undo_request.name == "Ana" and bo.game.undo_request.vote
            await bo.game.answer_undo(False)
            await ana.until(lambda: any(isinstance(m, UndoResultMessage) for m in ana.seen))
            assert room.session.state.moves == (Move.parse("S a1"),)
            await ana.game.request_undo()
            await bo.until(lambda: bo.game.undo_request is not None)
            await send_raw(ana.game, {"type": "undo-answer", "accept": True})  # not Ana's to answer
            await ana.error("no-undo")
            await bo.game.answer_undo(True)
            await ana.until(lambda: ana.game.state.moves == ())
            assert room.session.state.moves == ()
            # a move instead of an answer declines it
            version = ana.game.version
            await ana.game.play(Move.parse("S a1"))
            await bo.version(version + 1)
            await ana.game.request_undo()
            await bo.until(lambda: bo.game.undo_request is not None)
            await bo.game.play(Move.parse("O b1"))
            await ana.until(lambda: any(isinstance(m, UndoResultMessage) and "move was played" in m.reason
                                        for m in ana.seen))
            assert len(room.session.state.moves) == 2 and room.votes.vote is None


async def test_host_creates_a_room_on_a_long_lived_server():
    async with running(allow_create=True) as server:
        url, token, seats = await create_room(f"ws://127.0.0.1:{server.port}", 3, "general",
                                              [{"kind": "human", "name": "Ana"}, {"kind": "remote"}])
        assert seats == [0] and token
        with pytest.raises(NetError, match="size must be"):
            await create_room(f"ws://127.0.0.1:{server.port}", 99, "general", [{"kind": "remote"}] * 2)
        async with Player(url, "Bo") as bo:
            host = RemoteGame(url, "Ana", token=token, tokens=TokenStore())
            await host.connect()
            assert host.my_seats == (0,)
            await bo.until(lambda: bo.game.phase == "playing")
            await host.close()
    async with running() as server:  # a host's own server runs only its game
        with pytest.raises(NetError, match="only runs its own game"):
            await create_room(f"ws://127.0.0.1:{server.port}", 3, "general", [{"kind": "remote"}] * 2)


@pytest.mark.parametrize("seats", ["missing", None, 3, "remote", [None, None], [{"kind": ["x"]}] * 2])
async def test_a_create_with_bad_seats_is_refused_as_a_bad_room_and_the_server_logs_no_error(seats, caplog):
    create = {"type": "create", "protocol": 1, "size": 3, "mode": "general"}
    if seats != "missing":
        create["seats"] = seats
    async with running(allow_create=True) as server:
        async with raw_client(f"ws://127.0.0.1:{server.port}") as raw:
            await raw.send(create)
            reply = await raw.recv()
            assert reply["type"] == "error" and reply["code"] == "bad-room", reply
            with pytest.raises(ConnectionClosed) as closed:
                await raw.recv()
            assert closed.value.rcvd.code == 1008  # refused, not a server error (1011)
        assert server.rooms == {}
    assert not [r for r in caplog.records if r.levelname == "ERROR"]


async def test_a_server_stopped_mid_game_ends_every_client_with_a_clear_message():
    server = Server(computer=FirstMove())
    await server.start("127.0.0.1", 0)
    room = server.create_room(3, "general", [{"kind": "remote"}, {"kind": "remote"}])
    async with Player(server.url(room), "Ana") as ana, Player(server.url(room), "Bo") as bo:
        await ana.game.play(Move.parse("S a1"))
        await bo.version(2)
        await asyncio.wait_for(server.stop(), WAIT)
        await ana.until(lambda: ana.lost is not None)
        await bo.until(lambda: bo.lost is not None)
        assert "server stopped" in str(ana.lost) and not ana.game.connected
        with pytest.raises(NetError, match="cannot reach"):
            await RemoteGame(server.url(room), "Ana", tokens=TokenStore()).connect()


async def test_a_connection_that_never_asks_for_anything_does_not_hold_up_the_servers_stop():
    """A browser opens a spare connection to a page's server ahead of need (a preconnect) and
    may never send a request on it: the server's stop (ctrl+c, a restart) must not wait for it to
    time out (10 s)."""
    server = Server(computer=FirstMove())
    port = await server.start("127.0.0.1", 0)
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        loop = asyncio.get_running_loop()
        started = loop.time()
        await asyncio.wait_for(server.stop(), WAIT)
        assert loop.time() - started < 2
        assert await asyncio.wait_for(reader.read(), WAIT) == b""  # the connection was closed
    finally:
        writer.close()


def test_the_state_a_client_gets_replays_through_the_engine():
    record = GameRecord.from_dict({"format": "sos-game", "version": 1, "size": 3, "mode": "general",
                                   "players": [{"name": "A"}, {"name": "B"}], "moves": ["S a1"]})
    message = {"type": "state", "seats": [{"name": "A", "kind": "human"}, {"name": "B", "kind": "human"}],
               "game": record.to_dict(), "version": 2, "phase": "playing"}
    state = parse_server(json.dumps(message))
    assert isinstance(state, StateMessage) and state.game.state.moves == record.moves
    bad = dict(message, game=dict(record.to_dict(), moves=["S a1", "O a1"]))
    with pytest.raises(ProtocolError, match="does not replay") as refused:
        parse_server(json.dumps(bad))
    assert refused.value.code == "bad-state"  # RemoteGame.updates ends with a NetError saying so


async def test_a_late_state_of_the_biggest_board_reaches_the_client_whole():
    async with running() as server:
        room = server.create_room(26, "general", [{"kind": "remote"}, {"kind": "remote"}])
        url = server.url(room)
        async with Player(url, "Ana"), Player(url, "Bo"):
            pass  # both seated, then gone: the server alone plays on below
        session = room.session
        for _ in range(600):
            session.play(session.state.legal_moves()[-1], by=(session.state.to_move,))
        text = room.state_message().to_json()
        assert len(text) > MAX_FRAME  # bigger than any client may send
        async with Player(url, None) as watcher:
            assert len(watcher.game.state.moves) == 600
            assert watcher.game.waiting_for == ("Ana", "Bo")


async def test_a_rematch_is_offered_to_the_other_people_and_the_seats_swap_who_starts():
    async with running() as server:
        room = server.create_room(3, "general", [{"kind": "remote"}, {"kind": "remote"}])
        url = server.url(room)
        async with Player(url, "Ana") as ana, Player(url, "Bo") as bo, Player(url, "Cy") as cy:
            await ana.until(lambda: ana.game.phase == "playing")
            await ana.game.offer_rematch()  # not before the game is over
            await ana.error("not-over")
            await play_out([ana, bo])
            first = room.session.game_id
            await cy.game.offer_rematch()  # a spectator has no say
            await cy.error("spectator")
            await bo.game.offer_rematch()
            await ana.until(lambda: ana.game.rematch_request is not None)
            assert ana.game.rematch_request.name == "Bo" and ana.game.rematch_request.vote
            await cy.until(lambda: cy.game.rematch_request is not None)
            assert not cy.game.rematch_request.vote  # told, not asked
            await ana.game.answer_rematch(False)  # declined: nothing changes
            await bo.until(lambda: any(isinstance(m, RematchResultMessage) and not m.accepted
                                       for m in bo.seen))
            assert room.session.game_id == first and room.phase == "over"
            await ana.game.offer_rematch()  # asked again the other way, and accepted
            await bo.until(lambda: bo.game.rematch_request is not None)
            await bo.game.offer_rematch()  # offering too is agreeing
            for p in (ana, bo, cy):
                await p.until(lambda p=p: p.game.phase == "playing" and p.game.record.game_id != first)
            assert [s.name for s in room.session.record.players] == ["Bo", "Ana"]  # Bo starts now
            assert ana.game.my_seats == (1,) and bo.game.my_seats == (0,) and cy.game.my_seats == ()
            assert ana.game.state.moves == () and bo.game.my_turn and not ana.game.my_turn
            await bo.game.play(Move.parse("S a1"))
            await ana.until(lambda: ana.game.state.moves == (Move.parse("S a1"),))


async def test_a_player_who_leaves_on_purpose_is_told_as_a_quit_and_keeps_the_seat():
    async with running() as server:
        room = server.create_room(3, "general", [{"kind": "remote"}, {"kind": "remote"}])
        url = server.url(room)
        async with Player(url, "Ana") as ana:
            bo = Player(url, "Bo")
            await bo.__aenter__()
            await ana.until(lambda: ana.game.phase == "playing")
            await bo.game.leave()
            await ana.until(lambda: any(isinstance(m, StateMessage) and m.change == "quit" for m in ana.seen))
            assert ana.game.waiting_for == ("Bo",)
            async with Player(url, "Bo", tokens=bo.game.tokens) as again:  # the same token: back in the seat
                await again.until(lambda: again.game.my_seats == (1,))
                await ana.until(lambda: ana.game.waiting_for == ())
            await bo.close()


# -- what a client sends is quoted escaped and typed strictly; spectators are a headcount --------
@pytest.mark.parametrize("text", ["\udcff", "S b\udcff", "\udcff\ud800 a1", "\x1b[2J\udcff"])
async def test_a_move_holding_a_lone_surrogate_is_refused_with_the_text_escaped(text, caplog):
    async with running() as server:
        room = server.create_room(3, "general", [{"kind": "remote"}, {"kind": "remote"}])
        async with Player(server.url(room), "Ana") as ana, Player(server.url(room), "Bo"):
            await ana.until(lambda: ana.game.phase == "playing")
            await send_raw(ana.game, {"type": "move", "move": text})
            await ana.error("bad-move")
            refusal = next(m for m in ana.seen if isinstance(m, ErrorMessage))
            json.dumps(refusal.to_dict(), ensure_ascii=False).encode("utf-8")  # no lone surrogate left
            assert "\x1b" not in refusal.message and "\\udcff" in refusal.message
            await ana.game.play(Move.parse("S a1"))  # still seated, still playing
            await ana.version(2)
    assert not [r for r in caplog.records if r.levelname == "ERROR"]


def test_every_error_text_quotes_client_input_through_one_escaping_helper():
    from sos_tui.net.errors import quoted

    assert quoted("Ana") == "Ana"
    assert quoted("\udcff\x1b[2J") == "\\udcff\\x1b[2J"
    assert len(quoted("x" * 5000)) == 200
    refused = ProtocolError("bad-move", "{text!r} is not a move: the letter must be S or O", text="\udcff")
    assert refused.params == {"text": "\\udcff"} and str(refused).encode("utf-8")
    said = ErrorMessage.refusing(refused).to_json()
    assert said.encode("utf-8") and "\\\\udcff" in said


@pytest.mark.parametrize("field", [
    {"token": 5}, {"token": ["t"]}, {"token": {"a": 1}}, {"token": True}, {"name": 5}, {"name": ["Ana"]},
    {"client": 7}, {"client": {"x": 1}}, {"minor": "1"}, {"minor": 1.5}, {"minor": True},
])
async def test_a_hello_with_a_wrongly_typed_field_is_refused_as_bad_message(field):
    async with running() as server:
        room = server.create_room(3, "general", [{"kind": "remote"}, {"kind": "remote"}])
        async with raw_client(server.url(room)) as raw:
            await raw.send({"type": "hello", "protocol": 1, "name": "Ana", "token": None, **field})
            reply = await raw.recv()
            assert (reply["type"], reply["code"]) == ("error", "bad-message"), reply
            with pytest.raises(ConnectionClosed) as closed:
                await raw.recv()
            assert closed.value.rcvd.code == 1008
        assert room.open_seats == 2 and not room.clients  # nobody was seated, nobody watches


@pytest.mark.parametrize("message", [
    {"type": "move", "move": 7}, {"type": "move", "move": ["S", "a1"]},
    {"type": "move", "move": "S a1", "version": "1"}, {"type": "move", "move": "S a1", "version": 1.0},
    {"type": "ping", "id": "x"}, {"type": "ping", "id": [1]}, {"type": "undo-answer", "accept": "yes"},
])
async def test_a_wrongly_typed_field_in_a_game_is_bad_message_and_a_strike(message):
    async with running() as server:
        room = server.create_room(3, "general", [{"kind": "remote"}, {"kind": "remote"}])
        async with Player(server.url(room), "Ana") as ana, Player(server.url(room), "Bo"):
            await ana.until(lambda: ana.game.phase == "playing")
            await send_raw(ana.game, message)
            await ana.error("bad-message")
            assert room.session.state.moves == () and not any(
                m.type == "pong" for m in ana.seen)
            assert next(c for c in room.clients if c.name == "Ana").strikes == 1


async def test_spectators_coming_and_going_reach_the_players_as_a_few_small_presence_messages():
    """20 addresses of spectators joining and leaving: each player gets a headcount at most twice a
    second, never a full state per spectator; a client of before the presence message (protocol
    1.0) gets nothing of it and plays on."""
    from sos_tui.net.protocol import PresenceMessage

    async with running() as server:
        room = server.create_room(3, "general", [{"kind": "remote"}] * 3)
        url = server.url(room)
        async with Player(url, "Ana") as ana, Player(url, "Bo") as bo, raw_client(url) as old:
            await old.send({"type": "hello", "protocol": 1, "name": "Cy", "token": None})  # no "minor"
            assert (await old.recv())["type"] == "welcome"
            while (await old.recv()).get("phase") != "playing":
                pass
            await ana.until(lambda: ana.game.phase == "playing")
            seen, started = len(ana.seen), asyncio.get_running_loop().time()

            async def watch(address: str, stay: bool):
                ws = await connect(url, local_addr=(address, 0))
                await ws.send(json.dumps({"type": "hello", "protocol": 1, "minor": 1, "name": None}))
                assert json.loads(await ws.recv())["role"] == "spectator"
                assert json.loads(await ws.recv())["type"] == "state"  # its own, whole
                if not stay:
                    await ws.close()
                return ws

            for _round in range(5):
                await asyncio.gather(*(watch(f"127.0.0.{2 + i}", False) for i in range(20)))
            staying = await asyncio.gather(*(watch(f"127.0.0.{2 + i}", True) for i in range(3)))
            elapsed = asyncio.get_running_loop().time() - started
            await ana.until(lambda: ana.game.spectators == 3)
            await bo.until(lambda: bo.game.spectators == 3)
            told = ana.seen[seen:]
            assert not [m for m in told if isinstance(m, StateMessage)]  # 103 spectators came: no state
            presence = [m for m in told if isinstance(m, PresenceMessage)]
            assert 1 <= len(presence) <= elapsed / 0.5 + 2
            assert all(len(m.to_json()) < 100 for m in presence)
            # the old client heard none of it, and plays on
            await ana.game.play(Move.parse("S a1"))
            while (state := await old.recv())["type"] != "state":
                assert state["type"] != "presence"
            assert state["version"] == 2 and state["spectators"] == 3
            for ws in staying:
                await ws.close()
            await bo.until(lambda: bo.game.spectators == 0)


async def test_the_server_closes_a_connection_with_a_word_not_a_sentence():
    async with running() as server:
        room = server.create_room(3, "general", [{"kind": "remote"}, {"kind": "remote"}])
        async with connect(f"ws://127.0.0.1:{server.port}/{new_code()}") as ws:  # an error, then the word
            await ws.send(json.dumps({"type": "hello", "protocol": 1, "name": "Ana"}))
            assert json.loads(await ws.recv())["code"] == "no-room"
            with pytest.raises(ConnectionClosed) as refused:
                await ws.recv()
            assert (refused.value.rcvd.code, refused.value.rcvd.reason) == (4004, "refused")
        async with connect(server.url(room)) as ws:  # the room ends: closed, then the word
            await ws.send(json.dumps({"type": "hello", "protocol": 1, "name": None}))
            while json.loads(await ws.recv())["type"] != "state":
                pass
            await server.close_room(room, "the game is over")
            while json.loads(await ws.recv())["type"] != "closed":
                pass
            with pytest.raises(ConnectionClosed) as ended:
                await ws.recv()
            assert (ended.value.rcvd.code, ended.value.rcvd.reason) == (1001, "room-closed")


@pytest.mark.parametrize(("reason", "shown"), [
    ("restarting", "pelayan sedang dimulakan semula"),  # a word: said in the player's language
    ("the server is restarting: come back in a moment",  # an older server's sentence: shown as it is
     "the server is restarting: come back in a moment"),
    ("replaced by a new connection", "replaced by a new connection"),
    ("[b]bold\x1b[31m", "[b]bold"),  # anything else: as data, made printable
])
async def test_a_close_reason_is_said_in_the_players_language_or_shown_as_it_is(reason, shown):
    from websockets.asyncio.server import serve

    from sos_tui import i18n

    async def close_at_once(ws) -> None:
        await ws.recv()
        await ws.close(1012, reason)

    async with serve(close_at_once, "127.0.0.1", 0) as old:
        port = old.sockets[0].getsockname()[1]
        i18n.set_language("ms")
        with pytest.raises(NetError) as lost:
            await RemoteGame(f"ws://127.0.0.1:{port}/{new_code()}", "Ana", tokens=TokenStore()).connect()
    assert shown in str(lost.value) and "\x1b" not in str(lost.value)
