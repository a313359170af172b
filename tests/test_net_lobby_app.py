"""The lobby in the app, at 80x24: the Join screen lists a server's open public games (names shown
literally), enter on one takes a seat in it, and the Host dialog's checkbox makes a game public.
Servers listen on 127.0.0.1, port 0, and are stopped by the test."""

from __future__ import annotations

from textual.widgets import Checkbox, DataTable

from sos_tui.app import SosApp
from sos_tui.app.dialogs import JoinDialog
from sos_tui.app.screens.host_dialog import HostDialog
from sos_tui.app.screens.net_game import NetGameScreen
from sos_tui.engine import GameRecord, Mode, PlayerInfo
from sos_tui.net import Server

from .support.helpers import FirstMove, on_a_game, screen_text, wait_for


async def test_the_join_screen_lists_open_public_games_and_enter_takes_a_seat():
    server = Server(computer=FirstMove(), allow_create=True)
    await server.start("127.0.0.1", 0)
    try:
        room = server.create_room(5, "simple", [{"kind": "human", "name": "[b]Ana[/b]"}, {"kind": "remote"},
                                                {"kind": "remote"}], public=True)
        hidden = server.create_room(4, "general", [{"kind": "human", "name": "Hidden"}, {"kind": "remote"}])
        app = on_a_game()
        async with app.run_test(size=(80, 24)) as pilot:
            app.action_join()
            await wait_for(pilot, lambda: isinstance(app.screen, JoinDialog))
            dialog = app.screen
            dialog.query_one("#name").value = "Bo"
            dialog.query_one("#server").focus()
            dialog.query_one("#server").value = f"ws://127.0.0.1:{server.port}"
            await pilot.press("enter")  # list the server's games; the list takes the keys
            table = dialog.query_one("#lobby", DataTable)
            await wait_for(pilot, lambda: table.row_count == 1)
            shown = screen_text(app)
            assert room.code in shown and "5x5 simple" in shown and "2/3" in shown
            assert "[b]Ana[/b]" in shown  # a name is shown as it was given, never as markup
            assert hidden.code not in shown and "Hidden" not in shown
            assert "1 open game on ws://127.0.0.1:" in shown
            assert table.has_focus
            await pilot.press("enter")  # take a seat
            await wait_for(pilot, lambda: isinstance(app.screen, NetGameScreen)
                           and app.screen.game is not None and app.screen.game.my_seats == (1,))
            assert room.seats[1].seat.name == "Bo"
    finally:
        await server.stop()


async def test_the_lobby_says_when_a_server_has_no_open_game_and_f5_asks_again():
    server = Server(computer=FirstMove(), allow_create=True)
    await server.start("127.0.0.1", 0)
    try:
        app = on_a_game()
        async with app.run_test(size=(80, 24)) as pilot:
            app.push_screen(JoinDialog("Bo", f"ws://127.0.0.1:{server.port}"))
            await wait_for(pilot, lambda: "No open games on" in screen_text(app))
            room = server.create_room(3, "general", [{"kind": "human", "name": "Cy"}, {"kind": "remote"}],
                                      public=True)
            await pilot.press("f5")
            await wait_for(pilot, lambda: room.code in screen_text(app))
    finally:
        await server.stop()


async def test_the_host_dialogs_checkbox_makes_the_game_public():
    record = GameRecord(4, Mode("general"), (PlayerInfo("Ana"), PlayerInfo("Bo")))
    plans = []
    app = on_a_game()
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(HostDialog(record), plans.append)
        await pilot.pause()
        box = app.screen.query_one("#public", Checkbox)
        assert "List it in the lobby" in screen_text(app) and not box.value
        box.focus()
        await pilot.press("space")
        assert box.value and "Listed in the lobby" in screen_text(app)
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert plans and plans[0].public


async def test_sos_tui_join_with_a_servers_address_opens_its_lobby_and_escape_quits():
    from sos_tui.net.run import LobbyPlan

    server = Server(computer=FirstMove(), allow_create=True)
    await server.start("127.0.0.1", 0)
    try:
        room = server.create_room(4, "general", [{"kind": "human", "name": "Ana"}, {"kind": "remote"}],
                                  public=True)
        app = SosApp(network=LobbyPlan(f"ws://127.0.0.1:{server.port}", "Bo"))
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(
                pilot, lambda: isinstance(app.screen, JoinDialog) and room.code in screen_text(app)
            )
            await pilot.press("escape")
            await wait_for(pilot, lambda: not app.is_running)
    finally:
        await server.stop()


async def _bot_on(server: Server):
    """The bot Randy (the random engine) in the lobby of ``server``, in the background."""
    import asyncio
    import sys
    from pathlib import Path

    from sos_tui.net.bot import run_bot

    engine = f"{sys.executable} {Path(__file__).parent / 'engines' / 'rand.py'}"
    bot = asyncio.ensure_future(
        run_bot(f"ws://127.0.0.1:{server.port}", "Randy", engine, lambda _line: None, 2, 50, "Random")
    )
    await wait_for(None, lambda: server.bots.bots, what="the bot listed")
    return bot


async def test_the_join_screen_lists_bots_under_the_open_games_and_enter_plays_one_at_the_setups_size():
    server = Server(computer=FirstMove(), allow_create=True)
    await server.start("127.0.0.1", 0)
    bot = await _bot_on(server)
    try:
        server.create_room(5, "general", [{"kind": "human", "name": "Cy"}, {"kind": "remote"}], public=True)
        app = on_a_game()
        async with app.run_test(size=(80, 24)) as pilot:
            setup = {"size": 4, "mode": "simple"}  # the setup screen's last game
            app.push_screen(JoinDialog("Bo", f"ws://127.0.0.1:{server.port}", setup), app.play_network)
            await pilot.pause()
            table = app.screen.query_one("#lobby", DataTable)
            await wait_for(pilot, lambda: table.row_count == 2)
            shown = screen_text(app)
            assert "1 open game on ws://127.0.0.1:" in shown
            assert "bot           4x4 simple        2/2     Randy (bot) · Random" in shown  # under the game
            assert "Against a bot: 4 x 4" in shown
            table.focus()
            await pilot.press("down", "enter")
            await wait_for(pilot, lambda: isinstance(app.screen, NetGameScreen)
                           and app.screen.game is not None and app.screen.game.my_seats == (0,))
            room = next(r for r in server.rooms.values() if r.seats[1].seat.bot)
            assert (room.size, room.mode.value, room.public) == (4, "simple", False)
            await wait_for(pilot, lambda: "Randy (bot)" in screen_text(app), what="the bot marked")
            assert "Friends join with" not in screen_text(app)  # no seat left for friends
    finally:
        bot.cancel()
        await server.stop()


async def test_a_click_on_a_bot_plays_it_at_the_size_chosen_under_the_list():
    server = Server(computer=FirstMove(), allow_create=True)
    await server.start("127.0.0.1", 0)
    bot = await _bot_on(server)
    try:
        app = on_a_game()
        async with app.run_test(size=(80, 24)) as pilot:
            app.push_screen(JoinDialog("Bo", f"ws://127.0.0.1:{server.port}"), app.play_network)
            await pilot.pause()
            table = app.screen.query_one("#lobby", DataTable)
            await wait_for(pilot, lambda: table.row_count == 1)
            assert "6x6 general" in screen_text(app)  # no setup yet: the setup screen's defaults
            app.screen.query_one("#bot-size").value = 3
            await wait_for(pilot, lambda: "3x3 general" in screen_text(app))
            await pilot.click(DataTable, offset=(4, 1))
            await wait_for(pilot, lambda: isinstance(app.screen, NetGameScreen)
                           and app.screen.game is not None)
            (room,) = server.rooms.values()
            assert room.size == 3 and room.seats[1].seat.name == "Randy"
    finally:
        bot.cancel()
        await server.stop()
