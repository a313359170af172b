"""Property tests: random games of random sizes, player counts and modes, checked after every move."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sos_tui.engine import GameRecord, GameState, Mode, Move, PlayerInfo

from .support.examples import examples
from .support.games import lines, threats_made

SETTINGS = settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])

sizes = st.integers(min_value=3, max_value=8)
player_counts = st.integers(min_value=2, max_value=4)
modes = st.sampled_from([Mode.GENERAL, Mode.SIMPLE])
seeds = st.integers(min_value=0, max_value=2**32 - 1)

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def naive_sos_count(state: GameState) -> int:
    """Independent reference: scan every straight triple of the board and count S-O-S."""
    size, board = state.size, state.board
    count = 0
    for r in range(size):
        for c in range(size):
            for dr, dc in DIRECTIONS:
                r2, c2 = r + 2 * dr, c + 2 * dc
                if 0 <= r2 < size and 0 <= c2 < size:
                    word = board[r * size + c] + board[(r + dr) * size + c + dc] + board[r2 * size + c2]
                    count += word == "SOS"
    return count


def random_game(rng: random.Random, size: int, mode: Mode, players: int, stop_early: bool = False):
    """Yield (before, move, after) for a random game, to the end or (stop_early) a random length."""
    state = GameState.new(size=size, mode=mode, players=players)
    limit = rng.randint(0, size * size) if stop_early else size * size
    while not state.is_over and state.move_count < limit:
        moves = state.legal_moves()
        move = rng.choice(moves)
        if rng.random() < 0.3:  # now and then take a scoring move, so multi-line scores come up often
            scoring = [m for m in moves if state.completes(m)]
            move = rng.choice(scoring) if scoring else move
        after = state.play(move)
        yield state, move, after
        state = after


def is_straight_sos(state: GameState, cells) -> bool:
    (r0, c0), (r1, c1), (r2, c2) = cells
    dr, dc = r1 - r0, c1 - c0
    straight = (dr, dc) in {(0, 1), (1, 0), (1, 1), (1, -1)} and (r2 - r1, c2 - c1) == (dr, dc)
    letters = "".join(state.cell(r, c) or "." for r, c in cells)
    return straight and letters == "SOS"


@SETTINGS
@given(size=sizes, players=player_counts, mode=modes, seed=seeds)
def test_scores_always_sum_to_the_lines_found_and_match_a_naive_rescan(size, players, mode, seed):
    rng = random.Random(seed)
    for _, _, after in random_game(rng, size, mode, players):
        assert sum(after.scores) == len(after.lines)
        assert sum(after.scores) == naive_sos_count(after)
        for player in range(players):
            assert after.scores[player] == sum(line.player == player for line in after.lines)


@SETTINGS
@given(data=st.data())
def test_every_line_is_a_real_straight_sos_on_the_board(data):
    size, players, mode = data.draw(sizes), data.draw(player_counts), data.draw(modes)
    rng = data.draw(st.randoms(use_true_random=False))
    state = GameState.new(size=size, mode=mode, players=players)
    for before, move, after in random_game(rng, size, mode, players):
        new_lines = after.lines[len(before.lines):]
        assert after.lines[: len(before.lines)] == before.lines  # history only grows
        for line in new_lines:
            assert line.player == before.to_move
            assert line.move_index == before.move_count
            assert (move.row, move.col) in line.cells
            assert list(line.cells) == sorted(line.cells)
        state = after
    assert len(set(line.cells for line in state.lines)) == len(state.lines)  # no triple counted twice
    for line in state.lines:
        assert is_straight_sos(state, line.cells), line


@SETTINGS
@given(size=sizes, players=player_counts, mode=modes, seed=seeds)
def test_turn_order(size, players, mode, seed):
    for before, _, after in random_game(random.Random(seed), size, mode, players):
        scored = len(after.lines) > len(before.lines)
        if scored:
            assert after.to_move == before.to_move
            if mode is Mode.SIMPLE:
                assert after.is_over
                assert after.winners == (before.to_move,)
        else:
            assert after.to_move == (before.to_move + 1) % players
        assert after.is_over == (
            after.move_count == size * size or (mode is Mode.SIMPLE and sum(after.scores) > 0))


@SETTINGS
@given(size=sizes, players=player_counts, mode=modes, seed=seeds)
def test_play_never_changes_its_input(size, players, mode, seed):
    for before, move, after in random_game(random.Random(seed), size, mode, players):
        board, scores, moves, lines = before.board, before.scores, before.moves, before.lines
        to_move, over, count = before.to_move, before.is_over, before.move_count
        before.play(move)  # again, now that `after` exists too
        assert (before.board, before.scores, before.moves, before.lines) == (board, scores, moves, lines)
        assert (before.to_move, before.is_over, before.move_count) == (to_move, over, count)
        assert before.cell(move.row, move.col) is None
        assert after.cell(move.row, move.col) == move.letter
        assert after.moves == moves + (move,)
        assert after.movers == before.movers + (before.to_move,)
        assert after.last_move == move


@SETTINGS
@given(size=sizes, players=player_counts, mode=modes, seed=seeds)
def test_winners_and_legal_moves_follow_the_end_of_the_game(size, players, mode, seed):
    state = None
    for _, _, after in random_game(random.Random(seed), size, mode, players):
        state = after
        if not state.is_over:
            assert state.winners == ()
            assert len(state.legal_moves()) == 2 * state.board.count(".")
    assert state is not None and state.is_over
    assert state.legal_moves() == []
    top = max(state.scores)
    assert state.winners == tuple(p for p in range(players) if state.scores[p] == top)
    assert state.is_draw == (len(state.winners) > 1)


@SETTINGS
@given(size=sizes, players=player_counts, mode=modes, seed=seeds)
def test_record_round_trip(size, players, mode, seed):
    rng = random.Random(seed)
    state = GameState.new(size=size, mode=mode, players=players)
    for _, _, after in random_game(rng, size, mode, players, stop_early=True):
        state = after
    seats = [PlayerInfo(f"P{i}", rng.choice(["human", "computer"])) for i in range(players)]
    record = GameRecord.for_state(state, seats)
    loaded = GameRecord.from_json(record.to_json())
    assert loaded == record
    assert loaded.state == state
    assert hash(loaded.state) == hash(state)
    assert loaded.state.scores == state.scores and loaded.state.lines == state.lines


@SETTINGS
@given(size=sizes, players=player_counts, mode=modes, seed=seeds)
def test_replaying_the_moves_gives_an_equal_state(size, players, mode, seed):
    state = GameState.new(size=size, mode=mode, players=players)
    for _, _, after in random_game(random.Random(seed), size, mode, players, stop_early=True):
        state = after
    replay = GameState.from_moves([str(m) for m in state.moves], size=size, mode=mode, players=players)
    assert replay == state
    assert hash(replay) == hash(state)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(size=sizes, players=player_counts, mode=modes, data=st.data())
def test_points_by_move_and_the_outcome_agree_with_the_scores(size, players, mode, data):
    state = GameState.new(size=size, mode=mode, players=players)
    while not state.is_over and state.move_count < 30:
        move = data.draw(st.sampled_from(state.legal_moves()))
        before = state
        state = state.play(move)
        gained = sum(state.scores) - sum(before.scores)
        assert state.points_by_move[-1] == len(before.completes(move)) == gained
        assert state.points_by_move[:-1] == before.points_by_move
    totals = [0] * players
    for mover, points in zip(state.movers, state.points_by_move, strict=True):
        totals[mover] += points
    assert tuple(totals) == state.scores
    if state.is_over:
        assert (state.outcome.scores, state.outcome.winners) == (state.scores, state.winners)
    else:
        assert state.outcome is None


@SETTINGS
@given(data=st.data())
def test_bitboards_agree_with_the_engine_and_a_naive_count(data):
    """The padded bitmask board (ai/bitboard.py) scores as GameState does, and finds threats,
    safe cells, the cheapest sacrifices and the lines still open as a naive count of the triples
    does."""
    from sos_tui.ai import bitboard as bb
    from sos_tui.ai.bitboard import fewest_threats, grid, points, safe_sets, scoring, threat_counts, wins

    size = data.draw(sizes)
    state = GameState.new(size, Mode.GENERAL)
    for _ in range(data.draw(st.integers(0, size * size - 1))):
        state = state.play(data.draw(st.sampled_from(state.legal_moves())))
    g = grid(size)
    s, o = g.masks(state.board)
    empty = g.empty(s, o)
    win_s, win_o = wins(s, o, empty, g.dirs)
    safe_s, safe_o = safe_sets(s, o, empty, g.dirs)
    counts = threat_counts(s, o, empty, g.dirs)
    made = {}
    for move in state.legal_moves():
        i = move.row * size + move.col
        bit, is_s = g.bit(i), move.letter == "S"
        assert g.cell(bit) == i
        completed = len(state.completes(move))
        assert points(s, o, bit, is_s, g.dirs) == completed
        assert bool((win_s if is_s else win_o) & bit) == (completed > 0)
        made[bit, is_s] = threats_made(state.board, size, i, move.letter)
        assert bool((safe_s if is_s else safe_o) & bit) == (made[bit, is_s] == 0)
        one, two = counts[:2] if is_s else counts[2:]
        assert (bool(one & bit), bool(two & bit)) == (made[bit, is_s] >= 1, made[bit, is_s] >= 2)
    # every scoring move, most points first, then by cell, S before O
    offers = [(len(state.completes(m)), m.row * size + m.col, m.letter == "S") for m in state.legal_moves()]
    offers = sorted((m for m in offers if m[0]), key=lambda m: (-m[0], m[1], not m[2]))
    assert [(n, g.cell(bit), is_s) for n, bit, is_s in scoring(s, o, empty, g.dirs)] == offers
    fewest = min((n for n in made.values() if n), default=None)
    cells_s, cells_o = fewest_threats(s, o, empty, g.dirs)
    for (bit, is_s), n in made.items():
        assert bool((cells_s if is_s else cells_o) & bit) == (n == fewest)
    board = state.board
    assert bb.open_lines(s, o, empty, g.dirs) == sum(
        board[a] in "S." and board[m] in "O." and board[b] in "S." and "." in board[a] + board[m] + board[b]
        for a, m, b in lines(size))


@pytest.mark.parametrize("size", range(3, 9))
def test_bitboard_neighbours_are_the_cells_sharing_a_triple(size):
    from sos_tui.ai.bitboard import grid, neighbours

    g, near = grid(size), neighbours(size)
    for cell in range(size * size):
        expected = {j for line in lines(size) if cell in line for j in line} - {cell}
        mask = near[g.bit(cell)]
        assert {j for j in range(size * size) if mask & g.bit(j)} == expected
        assert mask & ~g.valid == 0


@SETTINGS
@given(size=sizes, seed=seeds)
def test_the_mirror_player_always_has_a_safe_move(size, seed):
    """ai/mirror.py: whoever keeps a simple game point-symmetric (the second player on an even
    board; on an odd one the first, who starts in the centre) is never left without a safe move,
    whatever safe moves the other player picks (checked by the naive threat count)."""
    from sos_tui.ai.mirror import mirror_move

    rng = random.Random(seed)
    state = GameState.new(size, Mode.SIMPLE)
    if size % 2:
        assert mirror_move(state.board, size) == (size * size // 2, "S")
        state = state.play(Move(size // 2, size // 2, "S"))
    else:
        assert mirror_move(state.board, size) is None  # nothing to answer yet
    while True:
        safe = [m for m in state.legal_moves() if not state.completes(m)
                and threats_made(state.board, size, m.row * size + m.col, m.letter) == 0]
        if not safe:
            break  # the other player is stuck (or the board is full): the mirror player has not lost
        move = rng.choice(safe)
        state = state.play(move)
        opposite = size * size - 1 - (move.row * size + move.col)
        assert mirror_move(state.board, size) == (opposite, move.letter)
        answer = Move(opposite // size, opposite % size, move.letter)
        assert threats_made(state.board, size, opposite, move.letter) == 0 and not state.completes(answer)
        state = state.play(answer)
        assert mirror_move(state.board, size) is None  # symmetric again: the other player's turn
    assert not state.is_over or state.outcome.is_draw


# -- drops: a seat that resigns, runs out of time or leaves -------------------------------------
@SETTINGS
@given(size=sizes, players=player_counts, mode=modes, data=st.data())
def test_a_game_with_drops_never_gives_a_dropped_seat_a_turn_and_places_drops_last(size, players, mode, data):
    """Random moves with random drops among them: a drop never changes the board or the scores,
    no turn goes to a dropped seat, and the final places put the drops last, a later one above an
    earlier one."""
    rng = random.Random(data.draw(seeds))
    state = GameState.new(size=size, mode=mode, players=players)
    while not state.is_over:
        if rng.random() < 0.1:
            seat = rng.choice(state.still_in)
            after = state.drop(seat, rng.choice(["resign", "time", "abandon"]))
            assert (after.board, after.scores, after.moves) == (state.board, state.scores, state.moves)
            assert after.is_out(seat) and after.drops[-1].seat == seat
            assert after.is_over == (len(state.still_in) == 2)
        else:
            after = state.play(rng.choice(state.legal_moves()))
        if not after.is_over:
            assert not after.is_out(after.to_move)
        state = after
    outcome = state.outcome
    assert set(outcome.winners) <= set(state.still_in) and outcome.winners
    dropped = [drop.seat for drop in state.drops]
    assert list(outcome.dropped) == dropped
    places = outcome.places
    assert all(places[seat] > places[kept] for seat in dropped for kept in state.still_in)
    assert [places[seat] for seat in dropped] == sorted((places[seat] for seat in dropped), reverse=True)
    assert all(places[w] == 1 for w in outcome.winners)
    if len(state.still_in) == 1:
        assert outcome.winners == state.still_in and state.termination == state.drops[-1].why
    record = GameRecord.for_state(state, [PlayerInfo(f"P{i}") for i in range(players)])
    assert GameRecord.from_json(record.to_json()).state == state
