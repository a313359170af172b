"""Computer seats in the app: they move by themselves, off the UI thread, and stop cleanly."""

from __future__ import annotations

import multiprocessing
import sys
from pathlib import Path

import pytest

from sos_tui.app import SosApp
from sos_tui.app.screens.game_over import GameOverScreen
from sos_tui.app.screens.setup import SetupScreen
from sos_tui.app.widgets.board import Board
from sos_tui.app.widgets.move_log import MoveLog
from sos_tui.engine import GameRecord, GameState, Mode, Move, Seat, SeatKind
from sos_tui.session.computer import trust_engine

from .support.helpers import alive, board_of, click_offset, make_app, recording, scoreboard_text, wait_for


async def wait_for_human(app, pilot, seconds: float = 20) -> None:
    def a_person_is_to_move_or_the_game_is_over():
        state = app.state
        return state.is_over or not app.game.players[state.to_move].is_computer

    await wait_for(pilot, a_person_is_to_move_or_the_game_is_over, seconds)


def searching(app) -> list:
    """The computer's searches running now (workers of the group "computer")."""
    return [w for w in app.workers if w.group == "computer" and w.is_running]


async def test_human_plays_a_whole_game_against_the_computer():
    app = make_app(size=3, names=("Ana", "computer:medium"), seed=3, time_limit=None)
    async with app.run_test(size=(100, 30)) as pilot:
        while not app.state.is_over:
            empty = next(i for i, ch in enumerate(app.state.board) if ch == ".")
            before = app.state.move_count
            board_of(app).cursor = divmod(empty, 3)
            await pilot.press("o")
            assert app.state.move_count > before
            await wait_for_human(app, pilot)
        await pilot.pause()
        movers = set(app.state.movers)
        assert movers == {0, 1}  # both seats really moved
        assert isinstance(app.screen, GameOverScreen)
    assert multiprocessing.active_children() == []  # no search process outlives the app


async def test_computer_plays_its_whole_chain_one_move_at_a_time():
    # S.S / ... / S.S: after Ana's S b2 the computer chains O b1, O a2, O c2 and O b3.
    app = make_app(size=3, names=("Ana", "computer:medium"), seed=1, time_limit=None)
    async with app.run_test(size=(100, 30)) as pilot:
        start = GameState.from_moves(["S a1", "S c1", "S a3", "S c3"], size=3)
        app.game_screen.start(app.game.with_state(start))
        await pilot.press("down", "right", "s")  # Ana's S b2 scores nothing: the computer's turn
        await wait_for_human(app, pilot)
        computer_moves = app.state.moves[5:]
        assert set(app.state.movers[5:]) == {1}
        assert app.state.scores == (0, 4) and len(computer_moves) == 4 and app.state.is_over
        log = app.game_screen.query_one(MoveLog)
        assert log.row_count == app.state.move_count  # each chained move has its own log row


async def test_new_game_cancels_a_thinking_computer_and_undo_returns_to_the_human():
    app = make_app(size=5, names=("Ana", "computer:hard"), seed=2, time_limit=None)
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.press("s")
        await wait_for_human(app, pilot)
        assert app.state.move_count >= 2 and app.state.to_move == 0
        await pilot.press("u")  # back to Ana's previous turn: the computer's reply goes too
        assert app.state.move_count == 0 and app.state.to_move == 0
        await pilot.press("r")
        assert app.state.move_count >= 2 and app.state.to_move == 0
        app.game_screen.computer_delay = 5  # the computer now takes its time...
        await pilot.press("right", "o")
        await wait_for(pilot, lambda: searching(app))  # ...and is thinking
        board = board_of(app)
        cursor = board.cursor
        await pilot.press("down")  # the UI answers while it thinks
        assert board.cursor == (cursor[0] + 1, cursor[1])
        assert "is thinking" in scoreboard_text(app)
        await pilot.press("question_mark")
        assert type(app.screen).__name__ == "HelpScreen"
        await pilot.press("escape")
        await pilot.press("ctrl+n")  # new game: the search is dropped
        assert isinstance(app.screen, SetupScreen)
        await wait_for(pilot, lambda: not searching(app))


async def test_hint_shows_a_move_without_playing_it():
    app = make_app(size=3, names=("Ana", "Bo"))
    async with app.run_test(size=(100, 30)) as pilot:
        app.game_screen.start(app.game.with_state(GameState.from_moves(["S a1", "S c1"], size=3)))
        await pilot.pause()
        await pilot.press("H")
        await wait_for(pilot, lambda: board_of(app).hint is not None)
        assert board_of(app).hint == Move(0, 1, "O")  # the SOS on offer
        assert app.state.move_count == 2  # shown, not played
        assert board_of(app).cursor == (0, 1)  # the cursor is on the hinted cell
        await pilot.press("o")
        assert app.state.scores == (1, 0)


async def test_all_computer_games_play_themselves_and_pause():
    # each computer move takes at least 0.2 s, so the game is still going when p is pressed
    app = make_app(size=3, names=("computer:easy", "computer:medium"), seed=5, time_limit=None,
                   computer_delay=0.2)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.state.move_count >= 2)  # they play by themselves
        assert not app.state.is_over
        await pilot.press("p")
        paused_at = app.state.move_count
        assert app.session.paused
        assert app.session.computer_level is None  # no computer is to think...
        await wait_for(pilot, lambda: not searching(app))  # ...and the search under way is dropped
        assert "paused" in scoreboard_text(app).lower()
        assert app.state.move_count == paused_at and not app.state.is_over
        await pilot.press("p")  # resume: they play on to the end
        assert not app.session.paused and app.session.computer_level is not None
        await wait_for(pilot, lambda: app.state.is_over, 40)
        assert app.state.move_count == 9


async def test_a_second_hint_for_the_same_position_is_not_searched_again():
    app = make_app(size=3, names=("Ana", "Bo"))
    async with app.run_test(size=(100, 30)) as pilot:
        app.game_screen.start(app.game.with_state(GameState.from_moves(["S a1", "S c1"], size=3)))
        searched = []
        pool = app.game_screen.computer
        run = pool.run

        async def counted(fn, *args, **kwargs):
            searched.append(args[1].moves)
            return await run(fn, *args, **kwargs)

        pool.run = counted
        for _ in range(2):
            board_of(app).hint = None
            await pilot.press("H")
            await wait_for(pilot, lambda: board_of(app).hint is not None)
            assert board_of(app).hint == Move(0, 1, "O")
        assert len(searched) == 1  # the second hint came from memory


@pytest.mark.parametrize("keys", [["enter"], ["space"], "click"])
async def test_enter_or_a_click_after_a_hint_plays_the_hinted_letter_not_the_selected_one(keys):
    app = make_app(size=3, names=("Ana", "Bo"))
    async with app.run_test(size=(100, 30)) as pilot:
        app.game_screen.start(app.game.with_state(GameState.from_moves(["S a1", "S c1"], size=3)))
        await pilot.pause()
        assert board_of(app).letter == "S"
        await pilot.press("H")
        await wait_for(pilot, lambda: board_of(app).hint is not None)
        assert board_of(app).hint == Move(0, 1, "O")
        if keys == "click":
            await pilot.click(Board, offset=click_offset(board_of(app), 0, 1))
        else:
            await pilot.press(*keys)
        await pilot.pause()
        assert app.state.moves[-1] == Move(0, 1, "O"), keys  # the hint, not the selected S
        assert app.state.scores == (1, 0)


ENGINES = Path(__file__).parent / "engines"


def engine_app(command: str) -> SosApp:
    trust_engine(command)
    seats = (Seat("Ana"), Seat("Random", SeatKind.COMPUTER, None, command))
    return recording(SosApp(GameRecord(3, Mode.GENERAL, seats), computer_delay=0, time_limit=0.5))


async def test_a_person_plays_an_engine_program_in_the_app_and_its_process_ends_with_the_app():
    app = engine_app(f"{sys.executable} {ENGINES / 'rand.py'}")
    async with app.run_test(size=(100, 30)) as pilot:
        while not app.state.is_over:
            empty = next(i for i, ch in enumerate(app.state.board) if ch == ".")
            board_of(app).cursor = divmod(empty, 3)
            await pilot.press("o")
            await wait_for_human(app, pilot)
        assert set(app.state.movers) == {0, 1} and "Random" in scoreboard_text(app)
        engines = app.computer.engine_pids()
    assert engines and not any(alive(pid) for pid in engines)  # stopped with the app


async def test_an_engine_that_plays_an_illegal_move_loses_the_game_saying_why():
    app = engine_app(f"{sys.executable} {ENGINES / 'misbehave.py'} illegal")
    async with app.run_test(size=(100, 30)) as pilot:
        board_of(app).cursor = (0, 0)
        await pilot.press("s")
        await wait_for(pilot, lambda: app.notices and app.notices[-1].severity == "error")
        notice = app.notices[-1]
        assert notice.title == "Computer stopped"
        assert "engine Misbehave illegal played an illegal move Sa1" in notice.message
        assert "loses" in notice.message
        await wait_for(pilot, lambda: app.state.is_over)
        assert app.state.winners == (0,) and app.state.move_count == 1
        assert app.state.termination == "abandon"
