"""``sos-tui bot``: an engine program listed in a server's lobby as a bot (revision 6), picked by
people who each get a game against it (several at once), marked as a bot on its seat; refusals of
a name taken, a bot unknown or full; the bot connecting again when its server comes back."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import pytest

from sos_tui.cli import main
from sos_tui.engine import Seat, SeatKind
from sos_tui.net import NetError, RemoteGame, Server, TokenStore, create_room
from sos_tui.net.bot import run_bot
from sos_tui.net.client import read_lobby
from sos_tui.net.protocol import PROTOCOL, CreateMessage, ProtocolError, RoomsMessage, parse_client

from .support.helpers import alive, children, raw_client, wait_for

ENGINES = Path(__file__).parent / "engines"
RAND = f"{sys.executable} {ENGINES / 'rand.py'}"
AGAINST_A_BOT = [Seat("Ana"), Seat(None, SeatKind.REMOTE)]


def engines() -> list[int]:
    found = []
    for pid in children(os.getpid()):
        try:
            if b"tests/engines" in Path(f"/proc/{pid}/cmdline").read_bytes() and alive(pid):
                found.append(pid)
        except OSError:
            pass
    return found


def standing(base: str, name: str = "Randy", games: int = 4, **options) -> asyncio.Task:
    """The bot ``name`` (the random engine) standing in the lobby of ``base``, in the background."""
    return asyncio.ensure_future(
        run_bot(base, name, RAND, options.pop("said", []).append, games, 100, "Random", **options)
    )


async def stopped(*tasks: asyncio.Task) -> None:
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def listed(base: str, name: str = "Randy"):
    """The lobby's entry of the bot ``name``, once it is there."""

    async def entry():
        return next((b for b in (await read_lobby(base)).bots if b.name == name), None)

    for _ in range(100):
        if (found := await entry()) is not None:
            return found
        await asyncio.sleep(0.05)
    raise AssertionError(f"{name} never listed")


async def play_person(url: str, token: str) -> RemoteGame:
    """Ana plays the first legal move each turn to the game's end; her game."""
    game = RemoteGame(url, "Ana", token=token, tokens=TokenStore())
    await game.connect()
    updates = game.updates()
    while not (game.state is not None and game.state.is_over):
        if game.my_turn:
            await game.play(game.state.legal_moves()[0])
        await anext(updates)
    await game.leave()
    return game


async def test_a_bot_is_listed_in_the_lobby_with_its_engine_and_its_free_games():
    async with Server(allow_create=True) as server:
        base = f"ws://127.0.0.1:{await server.start()}"
        bot = standing(base, games=3)
        try:
            entry = await listed(base)
        finally:
            await stopped(bot)
        assert (entry.name, entry.engine, entry.free, entry.games) == ("Randy", "Random", 3, 3)
        await wait_for(None, lambda: not server.bots.bots, what="the bot gone from the lobby")
        assert (await read_lobby(base)).bots == ()


async def test_two_people_each_play_the_same_bot_at_once_and_its_seat_is_marked_as_a_bot():
    async with Server(allow_create=True) as server:
        base = f"ws://127.0.0.1:{await server.start()}"
        said: list[str] = []
        bot = asyncio.ensure_future(run_bot(base, "Randy", RAND, said.append, 2, 100, "Random", until=2))
        await listed(base)
        made = [await create_room(base, size, "general", AGAINST_A_BOT, bot="Randy") for size in (3, 4)]
        assert (await listed(base)).free == 0  # both games at once
        games = await asyncio.wait_for(
            asyncio.gather(*(play_person(url, token) for url, token, _ in made)), 20
        )
        assert await asyncio.wait_for(bot, 20) == 2
    for game in games:
        assert game.state.is_over
        assert [seat.bot for seat in game.record.players] == [False, True]  # in the record, from the wire
        assert game.seats[1] == Seat("Randy", SeatKind.REMOTE, bot=True)
    assert sum(": seated" in line for line in said) == 2 and sum(": over, " in line for line in said) == 2
    assert engines() == []


async def test_sos_tui_games_marks_the_bot_of_a_game_in_progress():
    from sos_tui.cli.games import line
    from sos_tui.net.games import standings

    mine = TokenStore()
    async with Server(allow_create=True) as server:
        base = f"ws://127.0.0.1:{await server.start()}"
        bot = standing(base)
        await listed(base)
        url, token, _seats = await create_room(base, 3, "general", AGAINST_A_BOT, bot="Randy")
        ana = RemoteGame(url, "Ana", token=token, tokens=mine, host=True)
        await ana.connect()
        await wait_for(None, lambda: ana.seat_views[1].connected, what="the bot seated")
        (found,) = await standings(mine, timeout=3)
        await ana.close()
        await stopped(bot)
    assert line(found, 0).startswith("Ana vs Randy (bot) · 3x3 general · your move")
    assert found.to_dict(0)["bots"] == [False, True]


async def test_a_bot_declines_an_undo_at_once():
    from sos_tui.net.protocol import UndoResultMessage

    async with Server(allow_create=True) as server:
        base = f"ws://127.0.0.1:{await server.start()}"
        bot = standing(base)
        await listed(base)
        url, token, _seats = await create_room(base, 4, "general", AGAINST_A_BOT, bot="Randy")
        ana = await first_moves(url, token)
        updates = ana.updates()
        await ana.request_undo()
        while not isinstance(message := await asyncio.wait_for(anext(updates), 5), UndoResultMessage):
            pass
        await ana.close()
        await stopped(bot)
    assert not message.accepted and message.reason == "Randy declined"


async def test_a_bot_whose_engine_plays_an_illegal_move_resigns_that_game_saying_why():
    async with Server(allow_create=True) as server:
        base = f"ws://127.0.0.1:{await server.start()}"
        said: list[str] = []
        illegal = f"{sys.executable} {ENGINES / 'misbehave.py'} illegal"
        bot = asyncio.ensure_future(run_bot(base, "Bad", illegal, said.append, 2, 100, until=1))
        await listed(base, "Bad")
        url, token, _seats = await create_room(base, 3, "general", AGAINST_A_BOT, bot="Bad")
        game = await asyncio.wait_for(play_person(url, token), 10)
        assert await asyncio.wait_for(bot, 10) == 1
    assert game.state.winners == (0,) and str(game.state.termination) == "resign"
    assert any(
        "the engine loses this game: engine Misbehave illegal played an illegal move" in line for line in said
    )
    assert engines() == []


async def test_a_bot_agrees_to_a_rematch_and_leaves_once_the_person_has():
    async with Server(allow_create=True) as server:
        base = f"ws://127.0.0.1:{await server.start()}"
        said: list[str] = []
        bot = asyncio.ensure_future(run_bot(base, "Randy", RAND, said.append, 1, 50, until=1))
        await listed(base)
        url, token, _seats = await create_room(base, 3, "general", AGAINST_A_BOT, bot="Randy")
        game = RemoteGame(url, "Ana", token=token, tokens=TokenStore())
        await game.connect()
        updates = game.updates()
        for rematch in (True, False):  # the game, then its rematch
            while not game.state.is_over:
                if game.my_turn:
                    await game.play(game.state.legal_moves()[0])
                await asyncio.wait_for(anext(updates), 5)
            assert (await listed(base)).free == 1  # over: its slot is free meanwhile
            if rematch:
                await game.offer_rematch()
                while game.state.is_over:
                    await asyncio.wait_for(anext(updates), 5)
                assert (await listed(base)).free == 0
        await game.leave()
        assert await asyncio.wait_for(bot, 10) == 1  # the bot left with the person
    assert sum(": over, " in line for line in said) == 2
    assert engines() == []


async def test_picking_a_bot_that_is_unknown_full_or_gone_is_refused_in_one_line():
    async with Server(allow_create=True) as server:
        base = f"ws://127.0.0.1:{await server.start()}"
        with pytest.raises(NetError) as unknown:
            await create_room(base, 3, "general", AGAINST_A_BOT, bot="Nobody")
        assert unknown.value.code == "no-bot"
        assert str(unknown.value) == (
            "no bot called Nobody is connected to this server: pick one from the lobby"
        )
        bot = standing(base, games=1)
        await listed(base)
        await create_room(base, 3, "general", AGAINST_A_BOT, bot="randy")  # its name, any case
        with pytest.raises(NetError) as full:
            await create_room(base, 3, "general", AGAINST_A_BOT, bot="Randy")
        assert full.value.code == "bot-full"
        assert "Randy is playing as many games as it can" in str(full.value)
        await stopped(bot)
        await wait_for(None, lambda: not server.bots.bots, what="the bot gone")
        with pytest.raises(NetError) as gone:
            await create_room(base, 3, "general", AGAINST_A_BOT, bot="Randy")
        assert gone.value.code == "no-bot"
    assert engines() == []


async def test_a_second_bot_with_the_same_name_is_refused_and_gives_up():
    async with Server(allow_create=True) as server:
        base = f"ws://127.0.0.1:{await server.start()}"
        first = standing(base)
        await listed(base)
        with pytest.raises(NetError) as taken:
            await asyncio.wait_for(run_bot(base, "RANDY", RAND, print, engine="Random"), 5)
        await stopped(first)
    assert taken.value.code == "bot-taken"
    assert str(taken.value) == "a bot called RANDY is already connected to this server: pick another --name"


async def test_a_bot_name_is_checked_like_a_players_and_its_connection_takes_only_ping():
    async with Server(allow_create=True) as server:
        base = f"ws://127.0.0.1:{await server.start()}"
        async with raw_client(base) as bad:
            await bad.send({"type": "bot", "protocol": PROTOCOL, "name": "x" * 40, "games": 2})
            assert (await bad.recv())["code"] == "bad-name"
        async with raw_client(base) as bot:
            await bot.send({"type": "bot", "protocol": PROTOCOL, "name": "Raw", "engine": None, "games": 2})
            assert await bot.recv() == {"type": "listed", "name": "Raw"}
            await bot.send({"type": "ping", "id": 7})
            assert (await bot.recv())["type"] == "pong"
            await bot.send({"type": "move", "move": "S a1"})
            assert (await bot.recv())["message"] == "a bot's connection only takes ping"


async def test_the_bot_connects_again_when_its_server_comes_back():
    server = Server(allow_create=True)
    port = await server.start()
    base = f"ws://127.0.0.1:{port}"
    said: list[str] = []
    bot = standing(base, said=said, wait=0.05)
    try:
        await listed(base)
        await server.stop()
        async with Server(allow_create=True) as again:
            await again.start("127.0.0.1", port)
            await listed(base)
    finally:
        await stopped(bot)
    assert any("trying again in" in line for line in said)


async def test_a_bot_that_never_reaches_its_server_gives_up_after_its_tries():
    async with Server() as server:
        port = await server.start()
    said: list[str] = []
    with pytest.raises(NetError):
        await asyncio.wait_for(
            run_bot(f"ws://127.0.0.1:{port}", "Randy", RAND, said.append, tries=3, wait=0.01), 5
        )
    assert [line.endswith(("0.01 s", "0.02 s")) for line in said] == [True, True]


async def test_a_client_of_revision_5_still_reads_the_lobby_with_bots():
    """It reads ``rooms`` alone: each room as revision 5 wrote it, the bots beside them."""
    async with Server(allow_create=True) as server:
        base = f"ws://127.0.0.1:{await server.start()}"
        bot = standing(base)
        await listed(base)
        await create_room(base, 3, "general", [{"kind": "remote"}, {"kind": "remote"}], public=True)
        async with raw_client(base) as old:
            await old.send({"type": "lobby", "protocol": PROTOCOL})
            answer = await old.recv()
        await stopped(bot)
    (room,) = answer["rooms"]
    assert set(room) == {"room", "size", "mode", "seats", "free", "waiting", "rated", "ratings"}
    assert [b["name"] for b in answer["bots"]] == ["Randy"]
    assert len(RoomsMessage.from_dict({"type": "rooms", "rooms": answer["rooms"]}).rooms) == 1


def test_a_game_against_a_bot_needs_an_open_seat_and_is_never_rated():
    create = CreateMessage(3, "general", (Seat("Ana"), Seat("Bo")), bot="Randy").to_json()
    with pytest.raises(ProtocolError, match="a game with a bot needs an open seat for it"):
        parse_client(create, first=True)
    assert parse_client(
        CreateMessage(3, "general", tuple(AGAINST_A_BOT), bot="Randy").to_json(), first=True
    ).bot


async def test_a_rated_game_against_a_bot_is_refused():
    async with Server(allow_create=True) as server:
        base = f"ws://127.0.0.1:{await server.start()}"
        with pytest.raises(NetError, match="games against bots are not rated"):
            await create_room(base, 3, "general", AGAINST_A_BOT, rated=True, bot="Randy")


def test_a_seat_says_it_is_a_bot_in_the_record_and_on_the_wire():
    seat = Seat("Randy", SeatKind.REMOTE, bot=True)
    assert seat.recorded == Seat("Randy", bot=True)
    assert Seat.from_dict(seat.recorded.to_dict()).bot
    assert Seat("Ana").to_dict() == {"name": "Ana", "kind": "human"}  # nothing new for a person


def test_bot_says_in_one_line_what_is_wrong_with_its_command_line(capsys):
    assert main(["bot", "http://example.com", "--engine", RAND]) == 2
    assert capsys.readouterr().err.startswith("sos-tui bot: ")
    assert main(["bot", "ws://127.0.0.1:47890", "--engine", "no-such-engine-anywhere"]) == 2
    assert capsys.readouterr().err == (
        "sos-tui bot: engine no-such-engine-anywhere could not start: No such file or directory\n"
    )


async def first_moves(url: str, token: str) -> RemoteGame:
    """Ana joins with ``token``, plays a move and waits for the bot's answer; her game, left open."""
    ana = RemoteGame(url, "Ana", token=token, tokens=TokenStore())
    await ana.connect()
    updates = ana.updates()
    while not ana.my_turn:
        await asyncio.wait_for(anext(updates), 5)
    await ana.play(ana.state.legal_moves()[0])
    while not (ana.my_turn and len(ana.state.moves) == 2):  # the bot has answered
        await asyncio.wait_for(anext(updates), 5)
    return ana


async def test_after_a_server_restart_the_bot_comes_back_to_its_game_still_marked_and_plays_it_on(tmp_path):
    from sos_tui.net.store import SqliteRoomStore

    path = tmp_path / "rooms.sqlite3"
    store = SqliteRoomStore(path)
    server = Server(allow_create=True, store=store)
    port = await server.start("127.0.0.1", 0)
    base = f"ws://127.0.0.1:{port}"
    said: list[str] = []
    bot = standing(base, games=3, said=said, wait=0.05, tokens=TokenStore(tmp_path / "net-seats.json"))
    try:
        await listed(base)
        url, token, _seats = await create_room(base, 4, "general", AGAINST_A_BOT, bot="Randy")
        await (await first_moves(url, token)).close()
        await asyncio.wait_for(server.restart(), 5)
        await store.close()
        store = SqliteRoomStore(path)
        server = Server(allow_create=True, store=store)
        for kept in store.load():
            server.restore(kept)
        (room,) = server.rooms.values()
        assert room.seats[1].seat == Seat("Randy", SeatKind.REMOTE, bot=True)  # the mark is kept
        await server.start("127.0.0.1", port)
        assert (await listed(base)).free == 2  # the game it comes back to counts
        game = await asyncio.wait_for(play_person(url, token), 20)
    finally:
        await stopped(bot)
        await server.stop()
        await store.close()
    assert game.state.is_over and [seat.bot for seat in game.record.players] == [False, True]
    assert any("back to this game when the server is" in line for line in said)
    assert engines() == []


async def test_a_bot_started_again_takes_up_its_unfinished_game_and_forgets_it_once_over(tmp_path):
    seats = tmp_path / "net-seats.json"
    async with Server(allow_create=True) as server:
        base = f"ws://127.0.0.1:{await server.start()}"
        first = standing(base, games=2, tokens=TokenStore(seats))
        await listed(base)
        url, token, _seats = await create_room(base, 4, "general", AGAINST_A_BOT, bot="Randy")
        await (await first_moves(url, token)).close()
        await stopped(first)
        await wait_for(None, lambda: not server.bots.bots, what="the first bot gone")
        said: list[str] = []
        again = standing(base, games=2, said=said, tokens=TokenStore(seats))
        try:
            assert (await listed(base)).free == 1  # the game it takes up counts
            game = await asyncio.wait_for(play_person(url, token), 20)
            await wait_for(None, lambda: not TokenStore(seats).seats(), what="the token forgotten")
        finally:
            await stopped(again)
    assert game.state.is_over and any("taking this game up again" in line for line in said)
    assert engines() == []


async def test_a_bot_forgets_the_token_of_a_game_that_is_gone_saying_so(tmp_path):
    from sos_tui.net.tokens import SeatKey

    seats = TokenStore(tmp_path / "net-seats.json")
    async with Server(allow_create=True) as server:
        base = f"ws://127.0.0.1:{await server.start()}"
        gone = SeatKey.player(f"{base}/zzzzz-zzzzz", "Randy")
        seats.keep(gone, "a-token-of-a-game-long-over")
        said: list[str] = []
        bot = standing(base, said=said, tokens=seats)
        try:
            await listed(base)
            await wait_for(None, lambda: not seats.seats(), what="the token forgotten")
        finally:
            await stopped(bot)
    assert any(line.startswith(f"{base}/zzzzz-zzzzz: no game with that code here") for line in said)


@pytest.mark.parametrize("name", ["Randy (bot)", "Randy(BOT)", "  Randy ( bot ) "])
def test_a_person_cannot_take_a_name_that_reads_like_a_bots(name):
    """The server marks a bot's seat itself: a person named "Randy (bot)" would look like one."""
    hello = {"type": "hello", "protocol": PROTOCOL, "name": name}
    with pytest.raises(ProtocolError) as refused:
        parse_client(json.dumps(hello), first=True)
    assert refused.value.code == "bad-name" and "(bot)" in str(refused.value)
    seats = [{"kind": "human", "name": name}, {"kind": "remote"}]
    create = {"type": "create", "protocol": PROTOCOL, "size": 3, "mode": "general", "seats": seats}
    with pytest.raises(ProtocolError) as refused:
        parse_client(json.dumps(create), first=True)
    assert refused.value.code == "bad-room" and "(bot)" in str(refused.value)
    assert parse_client(json.dumps({**hello, "name": "Robot Bob"}), first=True).name == "Robot Bob"
