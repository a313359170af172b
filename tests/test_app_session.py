"""The app on the game session: computer failures, late answers, what is kept on disk, and keys
that mean one thing per view. Each test was written against a defect of the app before the
session layer, and fails there."""

from __future__ import annotations

import asyncio
import functools
import os
import signal
import sqlite3

from sos_tui.app import SosApp
from sos_tui.app.screens.game_over import GameOverScreen
from sos_tui.app.screens.help import HelpScreen
from sos_tui.app.screens.setup import SetupScreen
from sos_tui.engine import GameRecord, Mode, Move, PlayerInfo
from sos_tui.storage import History, history_db_path

from .support.helpers import board_of, make_app, recording, scoreboard_text, wait_for

SIMPLE_WIN = ["s", "right", "o", "right", "s"]  # 3x3 simple: S a1, O b1, S c1 wins for Ana



async def test_a_killed_search_process_is_replaced_and_the_computer_moves():
    app = make_app(size=8, names=("Ana", "computer:expert"), seed=1)
    async with app.run_test(size=(100, 30)) as pilot:
        for _turn in range(5):  # a busy machine can let a search end before the kill: kill the next
            moves = app.state.move_count
            board_of(app).cursor = divmod(app.state.board.index("."), 8)
            await pilot.press("s")
            pid = (await wait_for(pilot, app.computer.pids))[0]
            searching = app.state.move_count == moves + 1
            os.kill(pid, signal.SIGKILL)  # as the OOM killer would
            await wait_for(pilot, lambda: app.state.move_count >= moves + 2, 60)  # noqa: B023
            assert app.state.movers[moves + 1] == 1
            if searching and any("process stopped" in n.message for n in app.notices):
                break
        else:
            raise AssertionError("no kill landed while the computer searched, in five turns")
        assert "is thinking" not in scoreboard_text(app)


async def test_a_computer_that_cannot_move_pauses_its_seat_with_a_key_to_try_again():
    bad = PlayerInfo("Bot", "computer", "godlike")  # an unknown level, as from a foreign file
    app = recording(SosApp(GameRecord(3, Mode.GENERAL, (PlayerInfo("Ana"), bad),
                                      (Move.parse("S a1"),)), computer_delay=0))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.session.paused)
        [notice] = [n for n in app.notices if n.severity == "error"]
        assert "Bot could not move" in notice.message and "Press p to try again" in notice.message
        assert "Paused — p to resume" in scoreboard_text(app)
        await pilot.press("s")  # a person still cannot move for it
        assert app.state.move_count == 1


async def test_undo_while_the_computer_thinks_drops_its_search_and_the_next_one_answers():
    app = make_app(size=6, names=("Ana", "computer:expert"), seed=4)
    app.game_screen.computer_delay = 0
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("s")
        await wait_for(pilot, lambda: app.computer.busy)
        await pilot.press("u")  # taken back while the computer searches
        assert app.state.move_count == 0 and not app.computer.busy
        await pilot.press("right", "o")
        await wait_for(pilot, lambda: app.state.move_count >= 2, 60)
        assert app.state.moves[0] == Move.parse("O b1")  # the old search's move never landed
        assert app.state.movers[1] == 1


async def test_undo_to_the_empty_board_leaves_nothing_to_continue():
    first = make_app(size=4)
    async with first.run_test(size=(100, 30)) as pilot:
        await pilot.press("s", "right", "o", "u", "u")
        assert first.state.move_count == 0
    again = SosApp(computer_delay=0)
    async with again.run_test(size=(100, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(again.screen, SetupScreen))
        await again.workers.wait_for_complete()  # the look for an autosave has ended
        await pilot.pause()
        assert isinstance(again.screen, SetupScreen)
        assert not again.screen.query_one("#resume").display


async def test_a_game_undone_and_finished_differently_is_one_history_entry():
    app = make_app(mode="simple")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press(*SIMPLE_WIN)  # Ana wins 1-0
        await pilot.press("escape", "u", "u")  # back to S a1 only
        await pilot.press("left", "left", "down", "o")  # Bo: O a2
        assert not app.state.is_over
        await pilot.press("down", "s")  # Ana: S a3, the column this time
        assert app.state.is_over and app.state.moves[-1] == Move.parse("S a3")
    with History() as history:
        games = history.games()
    assert len(games) == 1
    assert games[0].record.moves == app.state.moves


async def test_a_finished_game_survives_a_locked_history_and_lands_later(monkeypatch):
    from sos_tui import storage

    # the app's recorder gives up on a locked history after 0.2 s, not the shipped 5 s: the
    # same path through the app, without the wait
    monkeypatch.setattr(storage, "Recorder", functools.partial(storage.Recorder, timeout=0.2))
    path = history_db_path()
    with History():
        pass  # create it
    blocker = sqlite3.connect(path, timeout=0)
    blocker.execute("BEGIN EXCLUSIVE")
    app = make_app(mode="simple")
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press(*SIMPLE_WIN)
            await wait_for(pilot, lambda: any(n.severity == "error" for n in app.notices), 30)
            assert isinstance(app.screen, GameOverScreen)  # the screen never froze on the write
            [notice] = [n for n in app.notices if n.severity == "error"]
            assert "kept" in notice.message
            blocker.rollback()  # the other process lets go before this one quits
    finally:
        blocker.close()
    with History() as history:
        [game] = history.games()
    assert game.record.moves == app.state.moves


async def test_redo_pressed_once_too_often_after_the_game_over_dialog_is_no_rematch():
    app = make_app(mode="simple")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press(*SIMPLE_WIN)
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        finished = app.state
        await pilot.press("escape", "u", "u", "r", "r", "r")
        await pilot.pause()
        assert app.state == finished  # still the finished game: no rematch
        assert app.screen is app.game_screen


async def test_the_game_over_dialog_uses_the_game_screen_keys_for_rematch_and_new():
    app = make_app(mode="simple")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press(*SIMPLE_WIN)
        await pilot.pause()
        await pilot.press("r", "n", "space")  # none of these clears the board here
        assert app.state.is_over and isinstance(app.screen, GameOverScreen)
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert app.state.move_count == 0 and app.screen is app.game_screen
        assert [p.name for p in app.game.players] == ["Bo", "Ana"]  # the rematch: Bo starts


async def test_help_lists_the_keys_of_the_view_it_was_opened_from():
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        keys = dict((what, key) for key, what in app.screen.keys)
        assert keys["Undo"] == "u ^z" and keys["Hint"] == "H" and keys["Rematch"] == "^r"
        assert "Move the cursor" in keys


async def test_the_palette_has_no_window_commands_that_make_no_sense_here():
    app = make_app()
    async with app.run_test(size=(100, 30)):
        titles = {command.title for command in app.get_system_commands(app.screen)}
        assert "Maximize" not in titles and {"Rematch", "Undo", "Theme"} <= titles


async def test_the_last_setup_and_the_theme_are_remembered():
    from sos_tui.storage import load_settings

    app = SosApp(computer_delay=0)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        app.screen.query_one("#name-0").value = "Zoe"
        app.screen.query_one("#size").value = 5
        await pilot.press("ctrl+s")
        await pilot.pause()
        app.theme = "textual-light"
        await pilot.pause()
    app.keeper.wait(5)
    settings = load_settings()
    assert settings["theme"] == "textual-light"
    again = SosApp(computer_delay=0, settings=settings)
    async with again.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        assert again.theme == "textual-light"
        assert again.screen.query_one("#name-0").value == "Zoe"
        assert again.screen.query_one("#size").value == 5


async def test_one_move_is_one_move():
    first = make_app(size=4)
    async with first.run_test(size=(100, 30)) as pilot:
        await pilot.press("s")
    again = SosApp(computer_delay=0)
    async with again.run_test(size=(100, 40)) as pilot:
        await wait_for(pilot, lambda: again.screen.query_one("#resume").display, 10)
        preview = str(again.screen.query_one("#resume-preview").render())
        assert "4x4, 1 move —" in preview


def test_no_search_process_outlives_a_finished_app():
    import multiprocessing

    async def play():
        app = make_app(size=5, names=("Ana", "computer:hard"), seed=1)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press("s")
            await wait_for(pilot, lambda: app.computer.busy or app.state.move_count > 1)

    asyncio.run(play())
    assert multiprocessing.active_children() == []
