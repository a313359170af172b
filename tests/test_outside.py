"""The outside-style bots (ai/outside.py) do what their descriptions say, and the ladder's
behaviour fingerprint (benchmarks/behaviour.py) follows what a level plays, not its source."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from sos_tui.ai import LEVELS
from sos_tui.ai.arena import Match, play_game
from sos_tui.ai.outside import OUTSIDE, Board, Negamax, SafeGreedy, _Negamax, outside_player
from sos_tui.engine import GameState, Move

from .support.games import position

BENCH = Path(__file__).parent.parent / "benchmarks"


def gained(state: GameState, move: Move) -> int:
    return state.play(move).scores[state.to_move] - state.scores[state.to_move]


def random_states(count: int, seed: int = 1):
    rng = random.Random(seed)
    while count:
        state = GameState.new(rng.choice([4, 5, 6]), "general")
        for _ in range(rng.randrange(state.size ** 2)):
            state = state.play(rng.choice(state.legal_moves()))
        if not state.is_over:
            count -= 1
            yield state


def test_the_bots_board_scores_as_the_engine_does():
    for state in random_states(60):
        board = Board(state.size, state.board)
        assert all(board.gain(m.row * state.size + m.col, m.letter) == gained(state, m)
                   for m in state.legal_moves())


def test_safe_greedy_takes_the_most_points_else_offers_nothing_else_the_least_chain():
    for k, state in enumerate(random_states(40, seed=2)):
        move = SafeGreedy(k).choose_move(state)
        moves = state.legal_moves()
        most = max(gained(state, m) for m in moves)
        if most:
            assert gained(state, move) == most
            continue
        after = state.play(move)

        def offers(s: GameState) -> int:
            return max((gained(s, m) for m in s.legal_moves()), default=0)

        if any(not offers(state.play(m)) for m in moves):
            assert not offers(after)  # a quiet move was there: it played one
        else:
            chains = {m: Board(state.size, state.play(m).board).greedy_chain() for m in moves}
            assert chains[move] == min(chains.values())


def test_greedy_chain_takes_the_best_move_while_anything_scores():
    # S a1 O b1 . c1 O d1 . e1: S c1 scores, then S e1 scores: a chain of two
    board = Board(5, "SO.O." + "." * 20)
    assert board.greedy_chain() == 2 and board.cells == list("SO.O." + "." * 20)  # and put back


def test_negamax_counts_the_extra_turn():
    # the only SOS on offer, S c1, gives another (S e1) to the same player: worth 2 at depth 2
    state = position(["SO.O.", ".....", ".....", ".....", "....."], to_move=1)
    board = Board(5, state.board)
    assert _Negamax(False).after(board, 2, "S", 2, -10_000, 10_000) == 2
    assert _Negamax(False).after(board, 2, "S", 1, -10_000, 10_000) == 1
    assert Negamax(3, seed=5).choose_move(state) == Move.parse("S c1")


def test_negamax_does_not_hand_over_an_sos_when_it_need_not():
    for k, state in enumerate(random_states(25, seed=3)):
        if any(gained(state, m) for m in state.legal_moves()):
            continue
        after = state.play(Negamax(3, k).choose_move(state))
        quiet = [m for m in state.legal_moves()
                 if not any(gained(state.play(m), r) for r in state.play(m).legal_moves())]
        if quiet:
            assert not any(gained(after, r) for r in after.legal_moves())


def test_outside_bots_play_in_the_arena_and_are_seeded():
    for name in OUTSIDE:
        match = Match(name, "medium", size=4, games=2, seed=1)
        assert play_game(match, 1)[:4] == play_game(match, 1)[:4]
    with pytest.raises(ValueError):
        outside_player("outside:perfect")
    with pytest.raises(ValueError):
        Match("outside:perfect", "hard")


# -- the ladder's behaviour fingerprint -------------------------------------------------------
@pytest.fixture(scope="module")
def behaviour():
    sys.path.insert(0, str(BENCH))
    try:
        import behaviour
    finally:
        sys.path.remove(str(BENCH))
    return behaviour


def test_the_fingerprint_changes_with_what_a_level_plays(behaviour, monkeypatch):
    assert len(behaviour.positions()) >= 30
    before = behaviour.compute("medium")
    assert behaviour.compute("medium") == before != behaviour.compute("easy")
    monkeypatch.setitem(LEVELS, "medium", replace(LEVELS["medium"], greedy=replace(LEVELS["medium"].greedy,
                                                                                   take=0.5)))
    assert behaviour.compute("medium") != before


def test_the_fingerprint_ignores_comments(behaviour, tmp_path):
    package = Path(behaviour.PACKAGE)
    copy = tmp_path / "sos_tui"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__"))
    players = copy / "ai" / "players.py"
    players.write_text(players.read_text().replace('"""Computer players:', '"""The computer players:') +
                       "\n# a comment\n")
    code = (f"import sys; sys.path.insert(0, {str(BENCH)!r}); import behaviour; "
            "print(behaviour.compute('medium'), behaviour.sources())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=tmp_path, env={"PYTHONPATH": str(tmp_path)}).stdout.split()
    assert out[0] == behaviour.compute("medium")  # the same moves: the same key
    assert out[1] != behaviour.sources()  # though the sources differ


def test_the_arena_command_loads_the_outside_bots(capsys):
    from sos_tui.cli import main

    assert main(["arena", "medium", "outside:negamax2", "--size", "4", "--games", "2", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["level_b"] == "outside:negamax2" and summary["games"] == 2
