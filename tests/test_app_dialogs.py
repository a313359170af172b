"""The app's dialogs as a keyboard player meets them: the arrow keys move between a dialog's
buttons (stopping at the first and the last), and each dialog opens on its safe answer, so that
enter never leaves, deletes or ends anything the player did not move to. A dialog's text field
keeps its arrow keys."""

from __future__ import annotations

import os
import time

from textual import events
from textual.widgets import Button, Input

from sos_tui.app import SosApp
from sos_tui.app.dialogs import Choice, JoinDialog
from sos_tui.app.screens.game_over import GameOverScreen
from sos_tui.app.screens.history import HistoryScreen
from sos_tui.app.screens.host_dialog import HostDialog
from sos_tui.app.screens.net_game import NetGameScreen
from sos_tui.app.screens.open_dialog import ConfirmDelete, OlderSave, OpenDialog
from sos_tui.app.screens.save_dialog import SaveDialog
from sos_tui.app.screens.setup import SetupScreen
from sos_tui.app.widgets.scoreboard import Scoreboard
from sos_tui.engine import GameRecord, GameState, Mode, Move, PlayerInfo, Seat, SeatKind
from sos_tui.net import RemoteGame, Server, TokenStore
from sos_tui.net.run import HostPlan, JoinPlan
from sos_tui.storage import save_record, saves_dir

from .support.helpers import make_app, wait_for

# 3x3, general: the last move fills the board.
MOVES = ["S a1", "S c3", "S c1", "S a3", "O b2", "O b1", "O b3", "O a2"]


class FirstMove:
    """The server's computer: the first legal move."""

    async def choose(self, level, state, on_retry=None):
        return state.legal_moves()[0]


def focused_id(app) -> str | None:
    focused = app.screen.focused
    return None if focused is None else focused.id


async def walk(pilot, app, keys: str) -> list[str | None]:
    """Press each key of ``keys`` (space-separated) and say where the focus went after each."""
    where = []
    for key in keys.split():
        await pilot.press(key)
        await pilot.pause()
        where.append(focused_id(app))
    return where


def playing(app) -> bool:
    """A network game is on screen, its connection made."""
    return isinstance(app.screen, NetGameScreen) and app.screen.game is not None


async def shown(pilot, app, kind) -> None:
    await wait_for(pilot, lambda: isinstance(app.screen, kind))
    await pilot.pause()


async def test_right_and_enter_on_a_seat_taken_up_elsewhere_stays_in_the_game():
    """The bug report: "Your seat is played from another terminal now [Leave] [Stay]", right,
    enter: it left, and ended the game for both."""
    server = Server(computer=FirstMove())
    await server.start("127.0.0.1", 0)
    try:
        room = server.create_room(3, "general", [{"kind": "remote"}, {"kind": "computer", "level": "easy"}])
        app = SosApp(network=JoinPlan(server.url(room), "Ana"), computer_delay=0)
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_for(pilot, lambda: playing(app))
            game_screen = app.screen
            elsewhere = RemoteGame(server.url(room), "Ana", token=game_screen.game.token, tokens=TokenStore())
            await elsewhere.connect()  # the same player, from another terminal
            try:
                await shown(pilot, app, Choice)
                assert "played from another terminal now" in app.screen.text
                await pilot.press("right", "enter")
                await wait_for(pilot, lambda: app.screen is game_screen)
                assert app.is_running
                await pilot.pause(0.3)
                assert app.screen is game_screen  # stayed: the game screen is still there to look at
            finally:
                await elsewhere.close()
    finally:
        await server.stop()


async def test_a_question_opens_on_its_safe_answer_and_the_arrows_move_between_its_answers():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        answers = []
        app.push_screen(Choice("Leave this network game?", "Leave", "Stay"), answers.append)
        await shown(pilot, app, Choice)
        assert focused_id(app) == "no"
        assert await walk(pilot, app, "right left left right") == ["no", "yes", "yes", "no"]
        await pilot.press("left", "enter")
        await pilot.pause()
        assert answers == [True]  # the player moved to Leave: it leaves
        app.push_screen(Choice("Leave this network game?", "Leave", "Stay"), answers.append)
        await shown(pilot, app, Choice)
        await pilot.press("up", "down", "enter")  # one row of answers: up and down do not move
        await pilot.pause()
        assert answers == [True, False]
        # the unfinished game still kept: continuing it is the safe answer, the other deletes it
        app.push_screen(Choice("Your unfinished network game is still here.", "Continue", "New game",
                               safe=True), answers.append)
        await shown(pilot, app, Choice)
        assert focused_id(app) == "yes"
        await pilot.press("escape")
        await pilot.pause()
        assert answers == [True, False, True]  # escape too keeps the game


async def test_escape_on_a_crashed_hosts_offer_continues_its_game_rather_than_deleting_it():
    import socket

    with socket.socket() as probe:  # the same command twice: the same, free, port
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    plan = HostPlan(3, "general", (Seat("Ana"), Seat(None, SeatKind.REMOTE)), port=port)
    first = SosApp(network=plan, computer_delay=0)
    async with first.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: playing(first))
        screen = first.screen
        bo = RemoteGame(screen.net.join_url, "Bo", tokens=TokenStore())
        await bo.connect()
        await wait_for(pilot, lambda: screen.game.phase == "playing")
        await pilot.press("s")
        await wait_for(pilot, lambda: len(screen.state.moves) == 1)
        host, screen.net.host = screen.net.host, None  # the process dies: nothing is ended on purpose
        await host.stop()
        await bo.close()
    again = SosApp(network=plan, computer_delay=0)
    async with again.run_test(size=(100, 30)) as pilot:
        await shown(pilot, again, Choice)
        assert again.screen.text.startswith("Your unfinished network game is still here (1 move)")
        assert focused_id(again) == "yes"  # Continue; enter too continues it
        await pilot.press("escape")
        await wait_for(pilot, lambda: playing(again) and again.screen.game.state is not None)
        assert len(again.screen.game.state.moves) == 1  # the same game, not a new one


async def test_the_game_over_dialog_opens_on_board_and_the_arrows_walk_its_buttons():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.game_screen.start(app.game.with_state(GameState.from_moves(MOVES, size=3)))
        await pilot.pause()
        app.game_screen.apply(Move.parse("O c2"))
        await shown(pilot, app, GameOverScreen)
        assert focused_id(app) == "board"
        assert await walk(pilot, app, "right left left left left right right right right") == [
            "board", "review", "new", "rematch", "rematch", "new", "review", "board", "board"]
        await pilot.press("enter")  # back on Board: the dialog closes, nothing else happens
        await pilot.pause()
        assert not isinstance(app.screen, GameOverScreen) and app.state.is_over


def a_save() -> object:
    record = GameRecord.for_state(GameState.from_moves(MOVES, size=3), (PlayerInfo("Ana"), PlayerInfo("Bo")))
    path = save_record(record, saves_dir() / "kept.json")
    stamp = time.time() - 60
    os.utime(path, (stamp, stamp))
    return path


async def test_deleting_a_file_asks_on_keep_and_right_enter_keeps_it():
    path = a_save()
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.action_open()
        await wait_for(pilot, lambda: isinstance(app.screen, OpenDialog) and app.screen.loaded)
        await pilot.press("tab", "tab")  # to the buttons: Open is the default, Cancel the other
        await pilot.pause()
        assert focused_id(app) == "open"
        assert await walk(pilot, app, "right right left") == ["cancel", "cancel", "open"]
        app.screen.query_one("#saves").focus()
        await pilot.press("delete")
        await shown(pilot, app, ConfirmDelete)
        assert focused_id(app) == "keep"
        assert await walk(pilot, app, "right left right") == ["keep", "delete", "keep"]
        await pilot.press("enter")
        await shown(pilot, app, OpenDialog)
        assert path.exists()
        await pilot.press("delete")
        await shown(pilot, app, ConfirmDelete)
        await pilot.press("left", "enter")  # the player moved to Delete
        await wait_for(pilot, lambda: not path.exists())


async def test_an_older_save_asks_on_opening_it_separately_and_the_arrows_reach_cancel():
    record = GameRecord.for_state(GameState.from_moves(MOVES, size=3), (PlayerInfo("Ana"), PlayerInfo("Bo")))
    older = GameRecord(3, Mode.GENERAL, record.players, record.moves[:2], game_id=record.game_id)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        answers = []
        app.push_screen(OlderSave(older, record), answers.append)
        await shown(pilot, app, OlderSave)
        assert focused_id(app) == "separate"
        assert await walk(pilot, app, "left right right") == ["separate", "cancel", "cancel"]
        await pilot.press("enter")
        await pilot.pause()
        assert answers == [False]


async def test_the_save_dialogs_path_keeps_its_arrow_keys_and_its_buttons_take_them():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.save_game(app.game)
        await shown(pilot, app, SaveDialog)
        path = app.screen.query_one("#path", Input)
        assert focused_id(app) == "path"
        path.cursor_position = 0
        await pilot.press("right", "right", "left")
        assert focused_id(app) == "path" and path.cursor_position == 1  # the cursor moved
        await pilot.press("tab")
        assert await walk(pilot, app, "right right left right") == ["cancel", "cancel", "save", "cancel"]
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, SaveDialog)
        assert not saves_dir().exists() or not any(saves_dir().iterdir())  # cancelled: nothing written


async def test_the_host_and_join_dialogs_buttons_take_the_arrows_and_their_fields_keep_theirs():
    app = SosApp(computer_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await shown(pilot, app, SetupScreen)
        app.host_game(GameRecord(3, Mode.GENERAL, (PlayerInfo("Ana"), PlayerInfo("Bo"))))
        await shown(pilot, app, HostDialog)
        assert focused_id(app) == "host"
        assert await walk(pilot, app, "left right right") == ["host", "cancel", "cancel"]
        await pilot.press("enter")
        await shown(pilot, app, SetupScreen)  # cancelled: nothing listens
        app.action_join()
        await shown(pilot, app, JoinDialog)
        url = app.screen.query_one("#url", Input)
        assert focused_id(app) == "url"
        await pilot.press("a", "b", "left")
        assert focused_id(app) == "url" and url.cursor_position == 1
        app.screen.query_one("#join", Button).focus()
        assert await walk(pilot, app, "right right left") == ["cancel", "cancel", "join"]


async def test_the_setup_and_history_screens_buttons_take_the_arrows():
    app = SosApp(computer_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await shown(pilot, app, SetupScreen)
        assert focused_id(app) == "start"
        assert await walk(pilot, app, "left right right right right right") == [
            "start", "open", "history", "puzzles", "quit", "quit"]
        app.screen.query_one("#host", Button).focus()
        assert await walk(pilot, app, "right right left") == ["join", "join", "host"]
        app.action_history()
        await shown(pilot, app, HistoryScreen)
        app.screen.query_one("#replay", Button).focus()
        assert await walk(pilot, app, "right right right left") == ["review", "back", "back", "review"]



async def test_arrow_keys_typed_in_a_burst_each_move_the_focus():
    """Two keys in one read from the terminal (typed fast, or a key held down): the second moves
    on from where the first put the focus."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        answers = []
        app.push_screen(Choice("Leave this network game?", "Leave", "Stay"), answers.append)
        await shown(pilot, app, Choice)
        for key in ("left", "right"):  # as the terminal's reader hands them over: no pause between
            app.post_message(events.Key(key, None))
        await pilot.pause()
        assert focused_id(app) == "no"
        await pilot.press("enter")
        await pilot.pause()
        assert answers == [False]


# -- resign, draw offers, abort ----------------------------------------------------------------------
async def test_resign_asks_first_enter_plays_on_and_resigning_ends_the_game_for_the_other():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.game_screen.apply(Move.parse("S a1"))
        await pilot.press("g")
        await shown(pilot, app, Choice)
        assert app.screen.text == "Bo, resign this game?" and focused_id(app) == "no"
        await pilot.press("enter")  # the safe answer: play on
        await wait_for(pilot, lambda: not isinstance(app.screen, Choice))
        assert not app.state.is_over
        await pilot.press("g")
        await shown(pilot, app, Choice)
        await pilot.press("left", "enter")
        await shown(pilot, app, GameOverScreen)
        labels = [str(label.content) for label in app.screen.query("Label")]
        assert "Ana wins!" in labels and "Bo resigned" in labels and "▲ Bo: 0 ✗" in labels
        assert app.state.winners == (0,) and app.state.termination == "resign"


async def test_a_draw_offer_asks_the_other_player_who_may_decline_or_accept():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("d")
        await shown(pilot, app, Choice)
        assert app.screen.text == "Ana offers a draw. Bo, do you accept?" and focused_id(app) == "no"
        await pilot.press("escape")  # declined
        await wait_for(pilot, lambda: app.game_screen.session.draw_offer is None)
        assert not app.state.is_over and any("Draw declined" in n.message for n in app.notices)
        await pilot.press("d")
        await shown(pilot, app, Choice)
        await pilot.press("left", "enter")
        await shown(pilot, app, GameOverScreen)
        assert app.state.is_draw and app.state.termination == "agreement"


async def test_abort_is_asked_and_offered_only_until_every_person_has_moved():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.game_screen.apply(Move.parse("S a1"))
        assert app.game_screen.check_action("abort", ()) is True
        await pilot.press("A")
        await shown(pilot, app, Choice)
        assert focused_id(app) == "no"
        await pilot.press("left", "enter")
        await shown(pilot, app, GameOverScreen)
        assert str(app.screen.query_one("#result").content) == "Game aborted: no result."
        await pilot.press("ctrl+r")  # a rematch: Bo starts
        await wait_for(pilot, lambda: not app.state.is_over)
        app.game_screen.apply(Move.parse("S a1"))
        app.game_screen.apply(Move.parse("O b1"))
        await pilot.pause()
        assert app.game_screen.check_action("abort", ()) is None  # dimmed: everyone has moved
        await pilot.press("A")
        await pilot.pause()
        assert not isinstance(app.screen, Choice) and not app.state.is_over
        assert any("too late to abort" in n.message for n in app.notices)


async def test_a_seat_that_resigned_is_marked_out_on_the_scoreboard_and_the_others_play_on():
    app = make_app(size=4, names=("Ana", "Bo", "Cy"))
    async with app.run_test(size=(100, 30)) as pilot:
        app.game_screen.apply(Move.parse("S a1"))
        app.game_screen.session.resign(1)
        await pilot.pause()
        rows = [line.plain for line in app.screen.query_one(Scoreboard).lines(40)]
        assert rows[2].startswith("✗ ▲ Bo") and rows[3].startswith("▶ ■ Cy")
        assert app.game_screen.check_action("offer_draw", ()) is True  # two players are left


async def test_a_resign_confirmed_after_the_computer_moved_meanwhile_still_resigns():
    app = make_app(names=("Ana", "computer:easy"), computer_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        app.game_screen.apply(Move.parse("S a1"))
        await pilot.press("g")
        await shown(pilot, app, Choice)
        await wait_for(pilot, lambda: app.state.move_count == 2)  # the computer moved under the question
        await pilot.press("left", "enter")
        await shown(pilot, app, GameOverScreen)
        assert app.state.termination == "resign" and app.state.winners == (1,)
