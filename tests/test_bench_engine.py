"""benchmarks/engine.py --against REV: another revision's engine, loaded beside this one, must play
the same games to the same end before the two are raced."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

import sos_tui.engine
from sos_tui.engine import GameState, Move

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"


def in_git() -> bool:
    try:
        return subprocess.run(["git", "-C", str(BENCH.parent), "rev-parse", "--verify", "HEAD"],
                              capture_output=True).returncode == 0
    except OSError:
        return False


pytestmark = pytest.mark.skipif(not in_git(), reason="needs the git history of the project")


@pytest.fixture(scope="module")
def bench():
    sys.path.insert(0, str(BENCH))  # engine.py imports its neighbour yardstick.py
    try:
        spec = importlib.util.spec_from_file_location("bench_engine", BENCH / "engine.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.path.remove(str(BENCH))


def test_the_engine_of_a_revision_is_a_package_of_its_own_that_plays_alike(bench):
    other = bench.load_engine("HEAD")
    assert other.__name__.startswith("sos_engine_at_") and other.revision
    assert other.GameState is not GameState and other.Move is not Move
    assert sys.modules["sos_tui.engine"] is sos_tui.engine
    games = bench.make_games(5, 4, seed=1)
    bench.check_agree({"here": sos_tui.engine, "HEAD": other}, 5, games)  # raises if they differ
    state = bench.engine_player(other, 5)(bench.engine_games(other, games)[0])
    assert isinstance(state, other.GameState) and state.is_over and state.move_count == 25
    assert bench.load_engine("HEAD") is other  # loaded once per revision


def test_engines_that_end_a_game_differently_are_refused(bench):
    three_players = SimpleNamespace(Move=Move, GameState=SimpleNamespace(
        new=lambda size, mode, players: GameState.new(size, mode, players + 1)))
    with pytest.raises(AssertionError, match=r"^game 0: here ends"):
        bench.check_agree({"here": sos_tui.engine, "liar": three_players}, 4, bench.make_games(4, 2, seed=1))


def test_a_revision_git_does_not_know_is_a_value_error(bench):
    with pytest.raises(ValueError, match="cannot extract sos_tui/engine at 'no-such-revision'"):
        bench.load_engine("no-such-revision")


def test_the_race_times_every_engine_in_every_round(bench):
    engines = {"here": sos_tui.engine, "HEAD": bench.load_engine("HEAD")}
    rates = bench.race(engines, 4, bench.make_games(4, 3, seed=1), rounds=3)
    assert list(rates) == ["here", "HEAD"] and all(len(r) == 3 and min(r) > 0 for r in rates.values())


def test_the_command_races_against_a_revision_and_prints_the_ratio():
    run = subprocess.run([sys.executable, str(BENCH / "engine.py"), "--against", "HEAD", "--only-against",
                          "--games", "3", "--rounds", "2", "--expect", "0.01"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "final scores, turns and lines identical" in run.stdout
    assert "Speed-up of this tree over HEAD: " in run.stdout and "Expected >= 0.01x: met" in run.stdout
    assert "moves/yardstick" in run.stdout
    bad = subprocess.run([sys.executable, str(BENCH / "engine.py"), "--against", "no-such-revision",
                          "--only-against"], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "cannot extract sos_tui/engine at 'no-such-revision'" in bad.stderr
