"""Ending a network game early in the app, as a player does it: g asks "Resign?" and opens on
"Play on", A asks before aborting, a draw offered by the other player is asked in a dialog that
closes by itself once the offer is gone, and c claims the win from a player gone longer than the
server allows (its gone-time set small). Servers listen on 127.0.0.1, port 0, and are stopped by
the test."""

from __future__ import annotations

from contextlib import asynccontextmanager

from sos_tui.app import SosApp
from sos_tui.app.dialogs import Choice
from sos_tui.app.screens.game_over import GameOverScreen
from sos_tui.app.screens.net_game import NetGameScreen
from sos_tui.engine import Termination
from sos_tui.net import Limits, Server
from sos_tui.net.run import JoinPlan

from .support.helpers import FirstMove, Player, footer_shows, recording, wait_for


def status(app) -> str:
    screen = next(s for s in app.screen_stack if isinstance(s, NetGameScreen))
    return str(screen.query_one("#net-status").render())


@asynccontextmanager
async def ana_here_bo_there(limits: Limits | None = None):
    """Ana plays in the app, Bo from a client of his own, on a server of two remote seats."""
    server = Server(limits, computer=FirstMove())
    await server.start("127.0.0.1", 0)
    try:
        room = server.create_room(3, "general", [{"kind": "remote"}, {"kind": "remote"}])
        app = recording(SosApp(network=JoinPlan(server.url(room), "Ana")))
        async with app.run_test(size=(100, 32)) as pilot:
            await wait_for(
                pilot,
                lambda: (
                    isinstance(app.screen, NetGameScreen)
                    and app.screen.game is not None
                    and app.screen.game.my_seats
                ),
            )
            async with Player(server.url(room), "Bo") as bo:
                await wait_for(pilot, lambda: app.screen.game.phase == "playing")
                yield app, pilot, bo, room
    finally:
        await server.stop()


async def test_resign_is_asked_first_enter_plays_on_and_yes_resigns_for_everyone():
    async with ana_here_bo_there() as (app, pilot, bo, room):
        screen = app.screen
        footer = await footer_shows(pilot, app, "Resign")
        assert "Claim" not in footer, footer  # nobody has gone
        await pilot.press("g")
        await wait_for(pilot, lambda: isinstance(app.screen, Choice))
        assert app.screen.text == "Ana, resign this game?"
        await pilot.press("enter")  # the safe answer: play on
        await wait_for(pilot, lambda: app.screen is screen)
        assert not room.session.state.is_over
        await pilot.press("g")
        await wait_for(pilot, lambda: isinstance(app.screen, Choice))
        await pilot.click("#yes")
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await bo.until(lambda: bo.game.state.is_over)
        assert bo.game.state.termination is Termination.RESIGN and bo.game.state.winners == (1,)
        assert "Ana resigned" in " ".join(str(label.render()) for label in app.screen.query("Label"))
        assert "Game over: Bo wins (Ana resigned)" in status(app)


async def test_a_draw_offer_is_asked_and_its_dialog_closes_by_itself_when_the_offer_is_gone():
    async with ana_here_bo_there() as (app, pilot, bo, _room):
        screen = app.screen
        await bo.game.offer_draw()
        await wait_for(pilot, lambda: isinstance(app.screen, Choice))
        assert app.screen.text == "Bo offers a draw. Ana, do you accept?"
        assert app.screen.focused.id == "no"  # "Play on" in reach
        await bo.game.resign()  # the offer goes with the game
        await wait_for(pilot, lambda: not isinstance(app.screen, Choice))
        assert screen.game.state.termination is Termination.RESIGN


async def test_a_draw_offer_accepted_in_the_dialog_ends_the_game_drawn():
    async with ana_here_bo_there() as (app, pilot, bo, room):
        await bo.game.offer_draw()
        await wait_for(pilot, lambda: isinstance(app.screen, Choice))
        await pilot.click("#yes")
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen))
        assert room.session.state.termination is Termination.AGREEMENT
        assert "A draw" in " ".join(str(label.render()) for label in app.screen.query("Label"))


async def test_abort_is_asked_first_and_ends_the_game_with_no_result():
    async with ana_here_bo_there() as (app, pilot, _bo, room):
        await pilot.press("A")
        await wait_for(pilot, lambda: isinstance(app.screen, Choice))
        assert app.screen.text == "Abort this game? It ends with no result and goes into no history."
        await pilot.click("#yes")
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen))
        assert room.session.state.termination is Termination.ABORT


async def test_a_player_gone_long_enough_is_shown_with_the_time_and_c_claims_the_win():
    async with ana_here_bo_there(Limits(claim_after=0.2)) as (app, pilot, bo, room):
        await bo.close()
        await wait_for(pilot, lambda: "press c to claim the win" in status(app))
        assert "Bo has been gone 0:0" in status(app)
        await footer_shows(pilot, app, "Claim")
        offered = {command.title for command in app.get_system_commands(app.screen)}
        assert {"Claim", "Resign", "Offer a draw"} <= offered, offered  # the command palette too
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen))
        assert room.session.state.termination is Termination.ABANDON
        assert app.screen is not None and room.session.state.winners == (0,)
