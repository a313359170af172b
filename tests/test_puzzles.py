"""Puzzles: the bundled set re-proved by the solver, played right and wrong (the run, line mode
through a pipe, the app through Pilot), the count and streak on disk, ``puzzle --json``."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sos_tui.ai.puzzles import DATA, bundled, keeps, move_class, prove, quiet
from sos_tui.ai.solver import Solver
from sos_tui.app import SosApp
from sos_tui.engine import Mode, Move
from sos_tui.session.puzzle import PuzzleRun
from sos_tui.storage.puzzle_score import PuzzleScore, load_score, save_score, score_path

from .support.helpers import wait_for

SOS = str(Path(sys.executable).with_name("sos-tui"))


def reprove(puzzle) -> None:
    """The puzzle is what it says: one move up to symmetry keeps ``value``, the recorded one;
    every move of the player in the line keeps the value, every defence is a best reply."""
    state, solver = puzzle.state(), Solver(puzzle.size, puzzle.mode)
    value, move = prove(state, solver)
    assert value == puzzle.value
    assert move_class(state, move) == move_class(state, puzzle.solution[0])
    player = state.to_move
    for step in puzzle.solution:
        best = solver.value(state.board)
        cell = step.row * state.size + step.col
        assert solver.child_value(state.board, cell, step.letter) == best, (puzzle.id, str(step))
        if state.to_move == player:
            assert keeps(solver, state, step)
        state = state.play(step)


def wrong_move(puzzle) -> Move:
    """A legal move of the puzzle's position that does not keep its value."""
    state, solver = puzzle.state(), Solver(puzzle.size, puzzle.mode)
    return next(m for m in state.legal_moves() if not keeps(solver, state, m))


def test_the_bundled_set_has_500_puzzles_of_every_kind_numbered_from_1():
    puzzles = bundled()
    assert len(puzzles) >= 500
    assert [p.id for p in puzzles] == list(range(1, len(puzzles) + 1))
    kinds = {(p.size, p.mode) for p in puzzles}
    assert {
        (4, Mode.SIMPLE),
        (4, Mode.GENERAL),
        (5, Mode.SIMPLE),
        (5, Mode.GENERAL),
        (6, Mode.SIMPLE),
    } <= kinds
    assert DATA.stat().st_size < 100_000
    assert all(
        p.line() == line
        for p, line in zip(
            puzzles, [x for x in DATA.read_text().splitlines() if not x.startswith("#")], strict=True
        )
    )


@pytest.mark.parametrize("kind", sorted({(p.size, p.mode.value) for p in bundled()}), ids=str)
def test_every_bundled_puzzle_is_reproved_by_the_solver(kind):
    # the whole set takes about 2 s of CPU: every puzzle, every run
    for puzzle in bundled():
        if (puzzle.size, puzzle.mode.value) == kind:
            reprove(puzzle)


def test_a_position_with_two_winning_moves_up_to_symmetry_is_no_puzzle():
    # a symmetric 3x3 board: S a1 / S c1 are images of each other; O b1 wins at once (not quiet)
    from sos_tui.engine import GameState

    state = GameState.from_moves(["S a1", "S c1"], 3, "simple")
    assert prove(state) is None  # an SOS is on offer: no puzzle
    assert move_class(GameState.from_moves(["O b2"], 3, "simple"), Move(0, 0, "S")) == move_class(
        GameState.from_moves(["O b2"], 3, "simple"), Move(2, 2, "S")
    )


@pytest.mark.parametrize("mode", ["simple", "general"])
def test_a_puzzle_played_right_to_the_end_and_wrong_on_the_way(mode):
    puzzle = next(p for p in bundled() if p.size == 4 and p.mode == mode)
    run = PuzzleRun(puzzle)
    wrong = run.play(wrong_move(puzzle))
    assert not wrong.right and wrong.value < wrong.best and wrong.refutation
    assert run.state == puzzle.state()  # a wrong move is not kept: try again
    while not run.solved:
        step = run.play(run.hint())
        assert step.right
    assert run.state.to_move == puzzle.state().to_move or run.state.is_over
    assert run.mistakes == 1 and not run.clean


def test_the_score_file_is_kept_and_a_corrupt_one_starts_afresh_with_a_message():
    score = PuzzleScore()
    score.record(3, clean=True)
    score.record(4, clean=True)
    save_score(score)
    loaded, problem = load_score()
    assert problem is None and loaded.solved == {3, 4} and loaded.streak == 2
    loaded.record(5, clean=False)
    assert loaded.streak == 0 and loaded.best_streak == 2
    score_path().write_text("{not json")
    fresh, problem = load_score()
    assert fresh == PuzzleScore() and "not a puzzle record" in str(problem)


def plain(*args, lines=()):
    done = subprocess.run(
        [SOS, "puzzle", *args, "--lang", "en"],
        input="".join(x + "\n" for x in lines).encode(),
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr.decode()
    assert b"\x1b" not in done.stdout
    return done.stdout.decode().splitlines()


def test_line_mode_plays_a_puzzle_wrong_then_right_and_counts_it(data_dir):
    puzzle = next(p for p in bundled() if p.size == 4 and p.mode == "simple")
    wrong, run = wrong_move(puzzle), PuzzleRun(puzzle)
    moves = []
    while not run.solved:
        move = run.hint()
        moves.append(str(move))
        run.play(move)
    out = plain("--plain", "--id", str(puzzle.id), lines=[str(wrong), *moves, "quit"])
    assert out[0].startswith(f"Puzzle {puzzle.id} of {len(bundled())}: 4 by 4, simple mode.")
    assert any(line.endswith(("loses.", "only draws.")) for line in out)
    assert any(line.startswith("The refutation: ") for line in out)
    assert "Solved!" in out
    assert "Puzzles solved: 1. Streak: 0 (best 0)." in out  # a wrong move on the way: no streak
    assert json.loads((data_dir / "puzzles.json").read_text())["solved"] == [puzzle.id]


def test_line_mode_says_a_corrupt_record_and_plays_on(data_dir):
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / "puzzles.json").write_text("[1, 2")
    out = plain("--plain", "--id", "1", lines=["quit"])
    assert "is not a puzzle record: the puzzle count starts afresh" in out[0]
    assert out[1].startswith("Puzzle 1 of ")


def test_puzzle_json_prints_one_puzzle_for_scripts():
    out = subprocess.run([SOS, "puzzle", "--json", "--id", "2"], capture_output=True, timeout=60)
    found = json.loads(out.stdout)
    assert found == bundled()[1].to_dict()
    assert {"id", "size", "mode", "moves", "solution", "difficulty"} <= set(found)
    bad = subprocess.run([SOS, "puzzle", "--id", "0"], capture_output=True, timeout=60)
    assert bad.returncode == 2 and b"there is no puzzle 0" in bad.stderr and b"Traceback" not in bad.stderr


async def test_the_app_plays_a_puzzle_wrong_then_right():
    from sos_tui.app.screens.puzzle import PuzzleScreen
    from sos_tui.app.widgets.board import Board

    puzzle = next(p for p in bundled() if p.size == 4 and p.mode == "general")
    wrong = wrong_move(puzzle)
    app = SosApp(puzzle=puzzle.id)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, PuzzleScreen))
        screen = app.screen
        board = screen.query_one(Board)
        board.post_message(Board.CellChosen(wrong.row, wrong.col, wrong.letter))
        await wait_for(pilot, lambda: "Try again" in screen.text)
        assert "leaves a margin of" in screen.text and board.state == puzzle.state()
        while not screen.run.solved:
            await pilot.press("H")
            hint = board.hint
            assert hint is not None
            board.post_message(Board.CellChosen(hint.row, hint.col, hint.letter))
            await wait_for(pilot, lambda: not screen.busy)
        assert "Solved!" in screen.text and "Puzzles solved: 1." in screen.text
        await pilot.press("n")
        assert screen.run.puzzle.id == puzzle.id + 1
        await pilot.press("escape")
        await wait_for(pilot, lambda: not app.is_running)


async def test_the_setup_screen_opens_the_puzzles_and_escape_comes_back():
    from textual.widgets import Button

    from sos_tui.app.screens.puzzle import PuzzleScreen
    from sos_tui.app.screens.setup import SetupScreen

    app = SosApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen))
        app.screen.query_one("#puzzles", Button).press()
        await wait_for(pilot, lambda: isinstance(app.screen, PuzzleScreen))
        assert app.screen.run.puzzle.id == 1  # nothing solved yet: the first puzzle
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen))
        assert app.is_running


async def test_the_puzzle_screen_follows_a_switch_of_language():
    from textual.widgets import Label

    from sos_tui.app.screens.puzzle import PuzzleScreen
    from sos_tui.app.widgets.scoreboard import Scoreboard

    app = SosApp(puzzle=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, PuzzleScreen))
        app.switch_language("ms")
        screen = app.screen

        def malay() -> bool:
            title = str(screen.query_one("#puzzle-title", Label).render())
            return title.startswith("Teka-teki 1 daripada") and "Giliran" in screen.text

        await wait_for(pilot, malay)
        board = screen.query_one(Scoreboard)
        assert "Pemain 1" in "\n".join(board.render_line(y).text for y in range(board.size.height))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False), st.sampled_from(["simple", "general"]))
def test_a_position_is_a_puzzle_exactly_when_one_move_up_to_symmetry_keeps_its_value(rng, mode):
    from sos_tui.engine import GameState

    state = GameState.new(4, mode)
    while state.empty_cells > 8 and not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))
    assume(not state.is_over)
    solver = Solver(4, mode)
    value = solver.value(state.board)
    right = {move_class(state, m) for m in state.legal_moves() if keeps(solver, state, m)}
    proof = prove(state, solver)
    if proof is None:
        assert not quiet(state) or len(right) > 1 or (mode == "simple" and value != 1)
    else:
        assert quiet(state) and proof[0] == value and right == {move_class(state, proof[1])}
