"""The computer players: tactics, safety, perfect small boards, determinism, processes, arena."""

from __future__ import annotations

import pickle
import random
from concurrent.futures import ProcessPoolExecutor

import pytest

from sos_tui.ai import LEVELS, choose_move, computer_player
from sos_tui.ai.arena import main as arena_main
from sos_tui.ai.book import BOOK, book_move
from sos_tui.ai.exact import SURE, Solver, masks
from sos_tui.ai.tactics import canonical, geometry, is_safe, symmetries
from sos_tui.engine import GameState, Move


def position(rows: list[str], mode: str = "general", players: int = 2, to_move: int = 0) -> GameState:
    """A state with these letters on the board, played alternately without scoring (order: row-major)."""
    size = len(rows)
    letters = [(r, c, ch) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "."]
    state = GameState.new(size, mode, players)
    for r, c, ch in letters:
        state = state.play(Move(r, c, ch))
    assert sum(state.scores) == 0, "test positions must not contain an SOS"
    while state.to_move != to_move:  # not needed by the positions below, kept honest
        raise AssertionError(f"position has player {state.to_move} to move")
    return state


def play_out(state: GameState, seats) -> GameState:
    while not state.is_over:
        move = seats[state.to_move].choose_move(state)
        assert state.is_legal(move)
        state = state.play(move)
    return state


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("mode", ["general", "simple"])
def test_every_level_takes_an_obvious_sos(level, mode):
    state = position(["S.S..", ".....", ".....", ".....", "....."], mode)
    took = sum(computer_player(level, seed=s).choose_move(state) == Move(0, 1, "O") for s in range(5))
    assert took >= (3 if level == "easy" else 5)


@pytest.mark.parametrize("level", ["medium", "hard", "expert"])
def test_general_mode_takes_the_move_completing_most(level):
    # O at b2 completes both diagonals; O at b1, a2, c2 or b3 completes only one line
    state = position(["S.S...", "......", "S.S...", "......", "......", "......"])
    assert computer_player(level).choose_move(state) == Move(1, 1, "O")


@pytest.mark.parametrize("level", ["medium", "hard", "expert"])
@pytest.mark.parametrize("mode", ["general", "simple"])
@pytest.mark.parametrize("seed", range(4))
def test_never_hands_over_an_sos_when_a_safe_move_exists(level, mode, seed):
    state = position(["S....", ".O...", ".....", "...O.", "....S"], mode)
    geo = geometry(state.size)
    move = computer_player(level, seed=seed).choose_move(state)
    assert is_safe(state.board, geo, move.row * state.size + move.col, move.letter)
    after = state.play(move)
    assert not any(after.completes(m) for m in after.legal_moves())


@pytest.mark.parametrize("level", ["medium", "hard", "expert"])
@pytest.mark.parametrize("seed", range(3))
def test_simple_mode_never_leaves_s_gap_s(level, seed):
    # Only a few cells are safe here; most moves leave S_S, SO_ or _OS behind.
    state = position(["S.S.S", ".....", "S.S.S", ".....", "....."], "simple")
    move = computer_player(level, seed=seed).choose_move(state)
    after = state.play(move)
    assert not after.is_over or after.winners == (0,)
    assert not any(after.completes(m) for m in after.legal_moves())


def test_exact_values_of_the_empty_3x3_board():
    assert Solver(3, "general").value(0, 0) == 0
    assert Solver(3, "simple").value(0, 0) == 0


def test_book_openings_agree_with_solved_facts():
    # 4x4 simple: only an O on one of the 12 non-central cells holds the draw.
    first = book_move(GameState.new(4, "simple"))
    assert first.letter == "O" and (first.row, first.col) not in {(1, 1), (1, 2), (2, 1), (2, 2)}
    # 4x4 general: an S on any border cell loses by 1, so the opening is not one.
    first = book_move(GameState.new(4, "general"))
    assert first.letter == "O" or (first.row, first.col) in {(1, 1), (1, 2), (2, 1), (2, 2)}
    # the solver's best move keeps the value it promises (a 12-empty board)
    state = GameState.from_moves(["S b1", "O a1", "O d4", "S c4"], size=4)
    solver = Solver(4, "general")
    value, cell, is_s = solver.best_move(*masks(state.board))
    after = state.play(Move(cell // 4, cell % 4, "S" if is_s else "O"))
    sign = 1 if after.to_move == state.to_move else -1
    gained = sum(after.scores) - sum(state.scores)
    assert value == gained + sign * solver.value(*masks(after.board))


def _minimax(state: GameState) -> int:
    """The mover's best final margin (general), by plain minimax through the engine."""
    if state.is_over:
        return 0
    best = -99
    for move in state.legal_moves():
        after = state.play(move)
        gained = after.scores[state.to_move] - state.scores[state.to_move]
        rest = _minimax(after)
        best = max(best, gained + (rest if after.to_move == state.to_move else -rest))
    return best


@pytest.mark.parametrize("seed", range(12))
def test_general_solver_agrees_with_plain_minimax(seed):
    # random 4x4 and 5x5 positions with 6 empty cells, scores and threats on the board included
    rng = random.Random(seed)
    size = 4 if seed % 2 else 5
    state = GameState.new(size, "general")
    while state.empty_cells > 6:
        state = state.play(rng.choice(state.legal_moves()))
    solver = Solver(size, "general")
    assert solver.value(*masks(state.board)) == _minimax(state)
    value, cell, is_s = solver.best_move(*masks(state.board))
    after = state.play(Move(cell // size, cell % size, "S" if is_s else "O"))
    gained = after.scores[state.to_move] - state.scores[state.to_move]
    rest = _minimax(after)
    assert value == gained + (rest if after.to_move == state.to_move else -rest) == _minimax(state)


@pytest.mark.parametrize("mode", ["general", "simple"])
def test_deepest_book_moves_are_optimal(mode):
    solver = Solver(4, mode)
    deepest = sorted(image for image in BOOK[(4, mode)] if image.count(".") == 13)[:3]
    assert deepest
    for image in deepest:
        cell, letter = BOOK[(4, mode)][image]
        best = solver.value(*masks(image))
        assert solver.child_value(*masks(image), cell, letter == "S") == best


@pytest.mark.parametrize("mode", ["general", "simple"])
@pytest.mark.parametrize("size", [3, 4])
@pytest.mark.parametrize("opponent", ["easy", "medium", "hard"])
def test_expert_never_loses_small_boards(size, mode, opponent):
    games = 2 if size == 4 else 4
    for game in range(games):
        expert = computer_player("expert", seed=game)
        other = computer_player(opponent, seed=100 + game)
        seats = (expert, other) if game % 2 == 0 else (other, expert)
        final = play_out(GameState.new(size, mode), seats)
        assert (game % 2) in final.winners


def test_canonical_board_is_the_same_for_every_symmetry():
    board = "S..O....."
    images = {canonical("".join(board[k] for k in perm), 3)[0] for perm in symmetries(3)}
    assert len(images) == 1


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("mode", ["general", "simple"])
def test_three_player_games_finish_with_legal_moves(level, mode):
    seats = [computer_player(level, seed=s) for s in range(3)]
    final = play_out(GameState.new(5, mode, players=3), seats)
    assert final.is_over


@pytest.mark.parametrize("level", LEVELS)
def test_choose_move_is_deterministic_for_a_seed(level):
    state = GameState.from_moves(["S a1", "O c3", "S e5", "O b4"], size=6)
    moves = {computer_player(level, seed=3).choose_move(state) for _ in range(2)}
    assert len(moves) == 1
    assert choose_move(level, state, seed=3) in moves


def test_players_pickle_and_run_in_another_process():
    player = computer_player("hard", seed=7, time_limit=0.5)
    assert pickle.loads(pickle.dumps(player)) == player
    state = GameState.from_moves(["S a1", "O b2"], size=6)
    with ProcessPoolExecutor(1) as pool:
        move = pool.submit(choose_move, "hard", state, 7, None).result(timeout=60)
    assert move == choose_move("hard", state, 7, None)


def test_a_move_is_ready_even_when_the_time_is_already_up():
    # Whether the clock is kept is measured in benchmarks/ai.py (timing); here: a limit too short
    # for any search still gives a legal, sensible move, on the largest board, mid-game.
    rng = random.Random(26)
    state = GameState.new(26)
    for _ in range(300):
        state = state.play(rng.choice(state.legal_moves()))
    for level in ("hard", "expert"):
        move = computer_player(level, seed=1, time_limit=1e-9).choose_move(state)
        assert state.is_legal(move)
        assert state.completes(move)  # with SOSs on offer it still takes one


def test_bad_level_and_finished_game_are_refused():
    with pytest.raises(ValueError, match="level"):
        computer_player("grandmaster")
    state = GameState.from_moves(["S a1", "O b1", "S c1"], size=3, mode="simple")
    with pytest.raises(ValueError, match="over"):
        computer_player("easy").choose_move(state)


def test_arena_prints_its_report(capsys):
    assert arena_main(["medium", "easy", "--size", "4", "--games", "4", "--seed", "1", "--jobs", "1"]) == 0
    out, err = capsys.readouterr()
    assert "medium: " in out and "wins" in out and "draws" in out and "losses" in out
    assert "score rate" in out and "95% CI" in out
    assert "medium (A) seconds per move: median" in out and "easy (B)" in out
    assert "4/4" in err


@pytest.mark.parametrize("argv", [
    ["wizard", "easy"], ["easy"], ["easy", "hard", "--size", "2"], ["easy", "hard", "--games", "0"],
    ["easy", "hard", "--mode", "silly"], ["easy", "hard", "--time-limit", "-1"],
])
def test_arena_bad_arguments_exit_2_with_one_line(argv, capsys):
    assert arena_main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("sos-tui arena: error:")


@pytest.mark.parametrize("level", ["hard", "expert"])
@pytest.mark.parametrize("seed", range(3))
def test_hard_solves_a_simple_endgame_exactly(level, seed):
    # 9 safe moves are left and only S d3 wins: the parity of the safe moves decides it.
    moves = ["O a5", "S d2", "O a4", "O c4", "S a3", "O e2", "S c2", "O c5", "O b5", "O e3", "S e1",
             "O c1", "O d4", "O d5"]
    state = GameState.from_moves(moves, size=5, mode="simple")
    assert computer_player(level, seed=seed).choose_move(state) == Move.parse("S d3")


def test_safe_move_search_proves_the_simple_endgame():
    # the same endgame: expert's search of the safe-move game (its guide in simple mode before
    # the exact endgame) proves that S d3 wins, and is deterministic
    moves = ["O a5", "S d2", "O a4", "O c4", "S a3", "O e2", "S c2", "O c5", "O b5", "O e3", "S e1",
             "O c1", "O d4", "O d5"]
    state = GameState.from_moves(moves, size=5, mode="simple")
    results = {Solver(5, "simple", None, 100_000).simple_search(*masks(state.board), 40, 1) for _ in range(2)}
    assert results == {(SURE, 13, True)}


def test_general_playout_estimate_is_deterministic_and_exact_at_the_end():
    from random import Random

    from sos_tui.ai.search import Search

    rng = random.Random(5)
    state = GameState.new(6, "general")
    for _ in range(14):
        state = state.play(rng.choice(state.legal_moves()))
    values = {Search(state, max_depth=1, width=12, root_width=12, rng=Random(3), playouts=4)._playout_value()
              for _ in range(2)}
    assert len(values) == 1
    # one empty cell, where an O completes two lines (a diagonal and a column): the playout takes it
    last = position(["SSO", "O.O", "OSS"])
    search = Search(last, max_depth=1, width=12, root_width=12, playouts=2)
    assert search._playout_value() == 2


@pytest.mark.parametrize(("level", "moves"), [("hard", 47), ("expert", 10), ("expert", 47)])
def test_a_time_limit_cuts_the_search_short_on_8x8(level, moves, monkeypatch):
    # 10 moves in: mid-game; 47: 17 cells left, expert's exact endgame. A fake clock moves 1 ms
    # each time it is read, so the test does not depend on the machine's speed (real seconds
    # per move are measured in benchmarks/ai.py --clock).
    import time

    state = GameState.new(8, "general")
    rng = random.Random(2)
    for _ in range(moves):
        state = state.play(rng.choice(state.legal_moves()))
    now = [0.0]

    def clock() -> float:
        now[0] += 0.001
        return now[0]

    monkeypatch.setattr(time, "perf_counter", clock)
    computer_player(level, seed=1, time_limit=10.0).choose_move(state)  # the budgets decide
    needed, now[0] = now[0], 0.0
    assert needed > 0.015
    move = computer_player(level, seed=1, time_limit=needed / 2).choose_move(state)
    assert state.is_legal(move)
    assert now[0] <= needed / 2  # stopped within the limit


def test_expert_gives_one_sos_away_to_win_the_general_endgame():
    # 6x6 general, 15 cells empty, three safe moves left (O d1, S f5, O f5). Handing over one
    # SOS with S d1 leaves the opponent the last safe move and with it the big sacrifices: +6
    # for the mover under perfect play; every other move loses by 7 or more.
    state = position(["SS..OO", "S...SO", "S...SS", "SS..S.", "OS..S.", "OSOO.S"], to_move=1)
    solver = Solver(6, "general")
    sm, om = masks(state.board)
    assert solver.child_value(sm, om, 3, True) == 6
    others = [solver.child_value(sm, om, i, s) for _, _, i, s in solver.moves(sm, om) if (i, s) != (3, True)]
    assert len(others) == 29 and max(others) == -7
    assert computer_player("expert", seed=4).choose_move(state) == Move.parse("S d1")


def test_expert_search_declines_an_sos_by_blocking_it():
    # 6x6 general, 13 cells empty, no safe move left and one SOS on offer: O e4. Taking it means
    # moving again and sacrificing: -4 for the mover. Writing S there scores nothing and makes
    # no threat, so the opponent must sacrifice instead: +5. Expert's search (below its exact
    # endgame, it runs on bigger boards) blocks; without blocks it could only take.
    from random import Random

    from sos_tui.ai import players
    from sos_tui.ai.search import search_move

    state = position(["OO.O.O", "OOOSS.", ".O..SO", "S.O...", "S..SS.", "SSOOOS"], to_move=1)
    solver = Solver(6, "general")
    sm, om = masks(state.board)
    assert solver.value(sm, om) == solver.child_value(sm, om, 22, True) == 5
    assert solver.child_value(sm, om, 22, False) == -4
    settings = {**players._SEARCH["expert"], **players._FIXED["expert"]}
    assert search_move(state, rng=Random(1), **settings) == Move.parse("S e4")
    assert search_move(state, rng=Random(1), **{**settings, "blocks": 0}) == Move.parse("O e4")


def test_expert_searches_small_sacrifices_while_safe_moves_remain():
    from random import Random

    from sos_tui.ai.search import Search
    from sos_tui.ai.tactics import threats_made

    state = position(["SS..OO", "S...SO", "S...SS", "SS..S.", "OS..S.", "OSOO.S"], to_move=1)
    geo = geometry(6)
    search = Search(state, max_depth=1, width=12, root_width=12, rng=Random(1), sacrifices_too=2)
    moves, scoring = search._moves(12)
    made = sorted(threats_made(state.board, geo, i, letter) for i, letter in moves)
    assert not scoring and made == [0, 0, 0, 1, 1]  # the three safe moves and two one-threat sacrifices


def test_one_threat_cells_match_a_count_over_the_lines():
    from sos_tui.ai.exact import one_threat
    from sos_tui.ai.tactics import threats_made

    rng = random.Random(8)
    size, width = 7, 9
    geo = geometry(size)
    checked = 0
    for _ in range(30):
        state = GameState.new(size, "general")
        for _ in range(rng.randrange(5, 40)):
            state = state.play(rng.choice(state.legal_moves()))
        pad = {i: (i // size) * width + i % size for i in range(size * size)}
        sp = sum(1 << pad[i] for i, here in enumerate(state.board) if here == "S")
        op = sum(1 << pad[i] for i, here in enumerate(state.board) if here == "O")
        empty = sum(1 << pad[i] for i, here in enumerate(state.board) if here == ".")
        one_s, one_o = one_threat(sp, op, empty, (1, width, width + 1, width - 1))
        checked += state.empty_cells
        for i, here in enumerate(state.board):
            if here == ".":
                assert bool(one_s >> pad[i] & 1) == (threats_made(state.board, geo, i, "S") == 1)
                assert bool(one_o >> pad[i] & 1) == (threats_made(state.board, geo, i, "O") == 1)
    assert checked > 500 and one_s | one_o


def test_with_three_players_each_one_is_expected_to_play_for_itself():
    # max^n, not "paranoid": player 1, with no safe move left, is expected to hand player 2 as
    # little as it can, not whatever would hurt the searching player 0 most.
    from random import Random

    from sos_tui.ai.search import Search
    from sos_tui.ai.tactics import safe_moves, scoring_moves

    geo = geometry(5)
    for game in range(20):  # games of medium players, until player 1 must give something away
        state = GameState.new(5, "general", 3)
        while not state.is_over and not (state.to_move == 1 and not scoring_moves(state.board, geo)
                                         and not safe_moves(state.board, geo)):
            state = state.play(choose_move("medium", state, seed=game))
        if state.is_over:
            continue
        search = Search(state, max_depth=1, width=50, root_width=50, rng=Random(1))
        search.root = 0
        gains = []
        for i, letter in search._moves(50)[0]:
            search._play(i, letter, 1)
            gains.append(search._horizon_scores(2)[2] - state.scores[2])
            search._undo(i, 1, 0)
        if len(set(gains)) > 1:
            break
    else:
        pytest.fail("no position with a choice of sacrifices")
    expected = search._maxn(1, 1)
    assert expected[2] - state.scores[2] == min(gains) < max(gains)
