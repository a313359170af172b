"""The game review in the app: from the replay (v) and the game-over dialog, filled in move by
move by the computer's process, and stopped without leaving a process behind."""

from __future__ import annotations

import multiprocessing
import os

import pytest

from sos_tui.ai.review import review
from sos_tui.app.screens.game_over import GameOverScreen
from sos_tui.app.screens.replay import AdvantageChart, ReplayScreen
from sos_tui.app.widgets.board import Board
from sos_tui.app.widgets.move_log import MoveLog
from sos_tui.engine import GameRecord, GameState, PlayerInfo

from .support.helpers import make_app, wait_for

# A 3x3 game with an inaccuracy, a mistake and blunders (exact verdicts: see test_review.py).
MOVES = ["O a2", "S c1", "O b2", "O b3", "O a3", "O a1", "S c3", "S b1", "O c2"]


def known_game() -> GameRecord:
    state = GameState.from_moves(MOVES, size=3)
    return GameRecord.for_state(state, (PlayerInfo("Ana"), PlayerInfo("Bo")))


def running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def wait_review(screen: ReplayScreen, pilot, seconds: float = 60) -> None:
    def review_done() -> bool:
        return not screen.reviewing and len(screen.reviews) == screen.total

    await wait_for(pilot, review_done, seconds)


async def test_the_replay_shows_the_review_of_a_known_game():
    record = known_game()
    expected = [r.to_dict() for r in review(record)]
    app = make_app()
    async with app.run_test(size=(110, 34)) as pilot:
        app.replay(record)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("v")
        await wait_review(screen, pilot)
        assert [screen.reviews[i].to_dict() for i in range(len(MOVES))] == expected
        log = screen.query_one(MoveLog)
        assert [log.row_cells(i)[2] for i in range(len(MOVES))] == [
            f"{m} {e['mark']}" for m, e in zip(MOVES, expected, strict=True)]
        chart = screen.query_one(AdvantageChart)
        assert len(chart.data) == len(MOVES) and chart.data[-1] == 1  # Ana wins by 1
        # each player's accuracy: the share of moves with no mark, and the marks given
        accuracy = str(screen.query_one("#review-accuracy").render())
        assert accuracy.startswith("Accuracy: Ana ") and "; Bo " in accuracy and "??" in accuracy
        # the key moments: the biggest losses first; choosing one jumps to it
        moments = screen.query_one("#review-moments")
        assert moments.option_count == 3 and moments.get_option_at_index(0).id == "3"
        moments.focus()
        moments.highlighted = 0
        await pilot.press("enter")
        await pilot.pause()
        assert screen.position == 4  # after move 4 (O b3 ??, best S a3)
        verdict = str(screen.query_one("#review-verdict").render())
        assert "4. Bo: O b3" in verdict and "??" in verdict and "best S a3" in verdict
        board = screen.query_one(Board)
        assert board.best is not None and str(board.best) == "S a3"
        lines = [board.render_line(y).text for y in range(board.size.height)]
        assert any("[S]" in line for line in lines)  # the best move: drawn in brackets
        # clicking the chart jumps to the move under the mouse
        await pilot.click(AdvantageChart, offset=(0, 1))
        await pilot.pause()
        assert screen.position == 1


async def test_game_over_review_opens_the_replay_with_the_review_running():
    app = make_app()
    async with app.run_test(size=(110, 34)) as pilot:
        state = GameState.from_moves(MOVES[:-1], size=3)
        app.game_screen.start(app.game.with_state(state))
        await pilot.pause()
        app.game_screen.board.cursor = (1, 2)  # c2
        await pilot.press("o")
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.click("#review")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen) and screen.record.moves == app.game.moves
        await wait_review(screen, pilot)
        assert all(screen.reviews[i].exact for i in range(len(MOVES)))


async def test_stopping_a_review_leaves_no_process_behind():
    state = GameState.new(8)
    while not state.is_over:  # a long game on a big board: its first moves take a while
        state = state.play(next(m for m in state.legal_moves()[::7] + state.legal_moves()))
    record = GameRecord.for_state(state)
    app = make_app()
    async with app.run_test(size=(110, 34)) as pilot:
        app.replay(record)
        await pilot.pause()
        screen = app.screen
        await pilot.press("v")
        await wait_for(pilot, lambda: app.computer.pids() and app.computer.busy)
        pids = app.computer.pids()
        assert pids and screen.reviewing
        await pilot.press("v")  # stop
        await wait_for(pilot, lambda: not app.computer.pids() and not any(map(running, pids)))
        assert not screen.reviewing and not app.computer.busy and app.computer.pids() == []
        for pid in pids:
            with pytest.raises(ProcessLookupError):
                os.kill(pid, 0)
        assert len(screen.reviews) < screen.total
        await pilot.press("escape")
    assert multiprocessing.active_children() == []


async def test_history_review_opens_the_replay_with_the_review_running():
    from sos_tui.app.screens.history import HistoryScreen
    from sos_tui.storage import History

    from .support.helpers import ScreenHost, loaded

    with History() as history:
        assert history.record_game(known_game())
    app = ScreenHost(HistoryScreen)
    async with app.run_test(size=(100, 32)) as pilot:
        await loaded(pilot, app)
        await pilot.press("v")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen) and screen.record.moves == known_game().moves
        await wait_review(screen, pilot)
        expected = [r.to_dict() for r in review(known_game())]
        assert [screen.reviews[i].to_dict() for i in range(len(MOVES))] == expected
        await pilot.press("escape")
        await pilot.pause()
    assert multiprocessing.active_children() == []
