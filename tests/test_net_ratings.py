"""Ratings on a server (issue 45, item 4; protocol revision 5): the player key, rated rooms, the
ratings told at the end of a rated game and kept in the rooms database, the leaderboard, and the
games that rate nobody."""

from __future__ import annotations

import logging
import stat

import pytest

from sos_tui.net import TokenStore
from sos_tui.net.client import create_room, leaderboard
from sos_tui.net.playerkey import KEY_NAME, check_key, player_key
from sos_tui.net.rating import ServerRatings
from sos_tui.net.store import SqliteRoomStore

from .support.helpers import FirstMove, Player, play, raw_client, running

ANA_KEY, BO_KEY, EVE_KEY = "a" * 43, "b" * 43, "e" * 43
TWO = [{"kind": "remote"}, {"kind": "remote"}]


async def keyed(url: str, name: str, key: str | None) -> Player:
    """A player seated at ``url`` as ``name``, sending ``key`` (None: an old client, no key)."""
    player = Player(url, name, TokenStore())
    player.game.player_key = key
    return await player.__aenter__()


async def finished(players, ending) -> None:
    """Ana and Bo (``players``) each move twice, then ``ending`` (a coroutine function of Bo's game)
    ends the game; every player waits for the end."""
    ana, bo = players
    for _turn in range(2):
        for mover in (ana, bo):
            await play(mover, [p for p in players if p is not mover], str(mover.game.state.legal_moves()[0]))
    await ending(bo.game)
    for p in players:
        await p.until(lambda p=p: p.game.state.is_over)


async def test_a_rated_game_moves_both_ratings_the_right_way_and_the_store_keeps_them(tmp_path):
    path = tmp_path / "rooms.sqlite3"
    store = SqliteRoomStore(path)
    async with running(store=store, ratings=ServerRatings(path), allow_create=True) as server:
        address = f"ws://127.0.0.1:{server.port}"
        url, _token, _seats = await create_room(address, 4, "general", TWO, rated=True)
        ana, bo = await keyed(url, "Ana", ANA_KEY), await keyed(url, "Bo", BO_KEY)
        await finished((ana, bo), lambda game: game.resign())
        await ana.until(lambda: ana.game.ratings)
        won, lost = ana.game.ratings
        assert won.change > 0 > lost.change and won.rating > 1500 > lost.rating
        assert bo.game.ratings == ana.game.ratings and won.provisional
        leaders = await leaderboard(address, count=5)
        assert [(p.name, p.games) for p in leaders] == [("Ana", 1), ("Bo", 1)]
        assert leaders[0].rating == won.rating
        await ana.close()
        await bo.close()
    await store.close()
    again = ServerRatings(path)  # the server started again on the same data folder
    assert [(p.name, p.rating) for p in again.leaders()] == [("Ana", won.rating), ("Bo", lost.rating)]


@pytest.mark.parametrize("why", ["computer", "old client", "one move each", "abort", "casual"])
async def test_games_that_rate_nobody(tmp_path, why):
    ratings = ServerRatings(tmp_path / "rooms.sqlite3")
    async with running(ratings=ratings, computer=FirstMove()) as server:
        seats = [{"kind": "remote"}, {"kind": "computer", "level": "easy"}] if why == "computer" else TWO
        room = server.create_room(4, "general", seats, rated=why != "casual")
        url = server.url(room)
        ana = await keyed(url, "Ana", ANA_KEY)
        players = [ana]
        if why != "computer":
            players.append(await keyed(url, "Bo", None if why == "old client" else BO_KEY))
        if why == "computer":
            await ana.game.resign()
        elif why == "one move each":
            await play(ana, players[1:], str(ana.game.state.legal_moves()[0]))
            await play(players[1], [ana], str(ana.game.state.legal_moves()[0]))
            await players[1].game.resign()
        elif why == "abort":
            await players[1].game.abort()
        else:
            await finished(players, lambda game: game.resign())
        await ana.until(lambda: ana.game.state.is_over)
        assert ana.game.ratings == () and ratings.leaders() == ()
        for p in players:
            await p.close()


async def test_a_key_of_the_wrong_shape_is_refused_with_bad_key():
    async with running() as server:
        room = server.create_room(3, "general", TWO)
        async with raw_client(server.url(room)) as raw:
            await raw.send({"type": "hello", "protocol": 1, "minor": 5, "name": "Ana", "key": "short!"})
            refused = await raw.recv()
            await raw.ws.wait_closed()
            closed = raw.ws.close_code
    assert refused["type"] == "error" and refused["code"] == "bad-key" and closed == 4003
    assert "player key" in refused["message"]


async def test_a_name_belongs_to_the_first_key_that_used_it_in_rated_rooms(tmp_path):
    ratings = ServerRatings(tmp_path / "rooms.sqlite3")
    async with running(ratings=ratings) as server:
        first = server.create_room(3, "general", TWO, rated=True)
        ana = await keyed(server.url(first), "Ana", ANA_KEY)
        rated, casual = (server.create_room(3, "general", TWO, rated=r) for r in (True, False))
        impostor = Player(server.url(rated), "ana", TokenStore())
        impostor.game.player_key = EVE_KEY
        with pytest.raises(Exception, match="belongs to another player"):
            await impostor.game.connect()
        keyless = Player(server.url(rated), "Ana", TokenStore())
        with pytest.raises(Exception, match="belongs to another player"):
            await keyless.game.connect()
        again = await keyed(server.url(rated), "ANA", ANA_KEY)  # the same key: the same person
        elsewhere = await keyed(server.url(casual), "Ana", EVE_KEY)  # a casual room: any name
        for p in (ana, again, elsewhere):
            await p.close()


async def test_a_rated_room_is_refused_where_the_server_rates_nothing():
    async with running(allow_create=True) as server:
        with pytest.raises(Exception, match="does not rate games"):
            await create_room(f"ws://127.0.0.1:{server.port}", 3, "general", TWO, rated=True)


async def test_a_rated_room_stays_rated_in_the_store(tmp_path):
    path = tmp_path / "rooms.sqlite3"
    store = SqliteRoomStore(path)
    async with running(store=store) as server:
        room = server.create_room(3, "general", TWO, rated=True)
        await room.saved()
    await store.close()
    store = SqliteRoomStore(path)
    try:
        assert [kept.rated for kept in store.load()] == [True]
    finally:
        await store.close()


def test_the_player_key_is_made_once_private_and_made_anew_when_corrupt(tmp_path, caplog):
    key = player_key(tmp_path)
    path = tmp_path / KEY_NAME
    assert check_key(key) and player_key(tmp_path) == key
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    path.write_text("not a key\n")
    with caplog.at_level(logging.WARNING):
        new = player_key(tmp_path)
    assert check_key(new) and new != key and "damaged" in caplog.text
    assert player_key(tmp_path) == new


def test_a_client_sends_a_key_of_its_own_for_each_server_made_from_the_kept_one_none_without_a_folder(
    tmp_path,
):
    from sos_tui.net import RemoteGame

    tokens = TokenStore(tmp_path / "net-seats.json")
    kept = RemoteGame("ws://127.0.0.1:1/7f3kq-x9m2c", "Ana", tokens=tokens)
    other = RemoteGame("ws://127.0.0.1:1/abcde-fghjk", "Bo", tokens=tokens)
    elsewhere = RemoteGame("ws://192.0.2.1:1/7f3kq-x9m2c", "Ana", tokens=tokens)
    assert check_key(kept.player_key) and kept.player_key == other.player_key  # one server: one key
    assert elsewhere.player_key != kept.player_key != player_key(tmp_path)  # the secret is never sent
    assert RemoteGame("ws://127.0.0.1:1/7f3kq-x9m2c", "Ana", tokens=TokenStore()).player_key is None


async def test_the_lobby_lists_a_rated_room_with_the_ratings_of_the_people_waiting(tmp_path):
    from sos_tui.engine import Mode
    from sos_tui.net.client import list_rooms
    from sos_tui.net.protocol import token_hash
    from sos_tui.plain import words

    ratings = ServerRatings(tmp_path / "rooms.sqlite3")
    (ana_rating, _bo) = ratings.rate(
        ("Ana", "Bo"), (token_hash(ANA_KEY), token_hash(BO_KEY)), (1, 2), Mode.GENERAL
    )
    async with running(ratings=ratings) as server:
        rated = server.create_room(4, "general", [*TWO, {"kind": "remote"}], public=True, rated=True)
        casual = server.create_room(4, "general", TWO, public=True)
        ana = await keyed(server.url(rated), "Ana", ANA_KEY)
        eve = await keyed(server.url(rated), "Eve", EVE_KEY)
        listed = {room.room: room for room in await list_rooms(f"ws://127.0.0.1:{server.port}")}
        assert listed[rated.code].rated and listed[rated.code].ratings == (ana_rating.rating, None)
        assert listed[rated.code].people == [f"Ana ({ana_rating.rating})", "Eve"]
        assert not listed[casual.code].rated
        line = words.lobby_room(1, listed[rated.code])
        assert line.endswith(f"Ana ({ana_rating.rating}) and Eve waiting. Rated game."), line
        for p in (ana, eve):
            await p.close()


def test_the_line_mode_says_the_new_ratings():
    from sos_tui.engine import Seat
    from sos_tui.net.protocol import SeatRating
    from sos_tui.plain import words

    seats = (Seat("Ana"), Seat("Bo"))
    told = (SeatRating(1562, 62, True), SeatRating(1438, -62, False))
    assert words.ratings(seats, told) == "Rated: Ana 1562? (+62), Bo 1438 (-62)."


async def test_the_game_over_dialog_shows_each_seats_new_rating():
    from sos_tui.app.screens.game_over import GameOverScreen
    from sos_tui.engine import GameRecord, Mode, Move, Seat
    from sos_tui.net.protocol import SeatRating

    from .support.helpers import ScreenHost, screen_text

    moves = ("S a1", "O b2", "S c3", "S a3", "S c1", "O a2", "O c2", "S b1", "S b3")  # Bo wins 3-2
    record = GameRecord(3, Mode.GENERAL, (Seat("Ana"), Seat("Bo")), tuple(map(Move.parse, moves)))
    state = record.state
    assert state.is_over
    told = (SeatRating(1562, 62, True), SeatRating(1438, -62, True))
    app = ScreenHost(lambda: GameOverScreen(state, record.players, told))
    async with app.run_test(size=(80, 24)):
        text = screen_text(app)
    assert "rating 1562? (+62)" in text and "rating 1438? (-62)" in text


async def test_the_host_dialogs_rated_box_asks_for_a_server_and_makes_a_rated_plan():
    from textual.widgets import Checkbox, Input

    from sos_tui.app.screens.host_dialog import HostDialog
    from sos_tui.engine import GameRecord, Mode, Seat

    from .support.helpers import on_a_game, screen_text

    record = GameRecord(4, Mode.GENERAL, (Seat("Ana"), Seat("Bo")))
    plans = []
    app = on_a_game()
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(HostDialog(record), plans.append)
        await pilot.pause()
        box = app.screen.query_one("#rated", Checkbox)
        box.focus()
        await pilot.press("space")
        await pilot.press("ctrl+s")
        await pilot.pause()
        text = screen_text(app)
        assert "A rated game is played on a sos-tui server" in text and "Cancel" in text  # it all fits
        app.screen.query_one("#server", Input).value = "ws://127.0.0.1:48600"
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert plans and plans[0].rated and plans[0].server_url == "ws://127.0.0.1:48600"
