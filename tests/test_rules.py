"""Unit tests for the rules of SOS in sos_tui.engine.rules: one rule, or one corner of a rule, per test."""

from __future__ import annotations

import pickle
import re

import pytest

from sos_tui.engine import (
    EndingError,
    GameState,
    IllegalMoveError,
    InvalidMoveError,
    Mode,
    Move,
    SosLine,
    Termination,
    cell_name,
    parse_cell,
)


def position(*rows: str, mode: str = "general", players: int = 2) -> GameState:
    """Play the letters of a picture ('S', 'O', '.' per cell) in row-major order.

    Only the final board matters to the tests that use it: whatever the setup moves scored is
    measured before the move under test and subtracted.
    """
    size = len(rows)
    assert all(len(row) == size for row in rows)
    moves = [Move(r, c, letter)
             for r, row in enumerate(rows) for c, letter in enumerate(row) if letter != "."]
    return GameState.from_moves(moves, size=size, mode=mode, players=players)


def gained(state: GameState, move: Move) -> tuple[int, GameState]:
    """Play ``move``; return how many points its mover gained, and the new state."""
    mover = state.to_move
    after = state.play(move)
    return after.scores[mover] - state.scores[mover], after


def names(triples) -> set[tuple[str, ...]]:
    return {tuple(cell_name(*cell) for cell in cells) for cells in triples}


# -- scoring: how many triples one letter completes -------------------------------------------


def test_s_completing_one_triple_scores_one_and_records_the_line():
    state = GameState.from_moves(["S a1", "O b1"], size=3)
    points, after = gained(state, Move.parse("S c1"))
    assert points == 1
    assert after.lines == (SosLine(player=0, cells=((0, 0), (0, 1), (0, 2)), move_index=2),)


def test_s_completing_two_triples_at_once_scores_two():
    state = position(
        "SO.OS",
        ".....",
        ".....",
        ".....",
        ".....",
    )
    move = Move.parse("S c1")
    assert names(state.completes(move)) == {("a1", "b1", "c1"), ("c1", "d1", "e1")}
    points, after = gained(state, move)
    assert points == 2
    assert len(after.lines) == len(state.lines) + 2


def test_s_completing_three_triples_at_once_scores_three():
    state = position(
        "SO.OS",
        "..O..",
        "..S..",
        ".....",
        ".....",
    )
    move = Move.parse("S c1")
    assert names(state.completes(move)) == {("a1", "b1", "c1"), ("c1", "d1", "e1"), ("c1", "c2", "c3")}
    points, _ = gained(state, move)
    assert points == 3


def test_s_in_the_middle_of_a_star_completes_the_maximum_of_eight():
    state = position(
        "S.S.S",
        ".OOO.",
        "SO.OS",
        ".OOO.",
        "S.S.S",
    )
    move = Move.parse("S c3")
    assert len(state.completes(move)) == 8
    before_lines = len(state.lines)
    points, after = gained(state, move)
    assert points == 8
    new_lines = after.lines[before_lines:]
    assert len(new_lines) == 8
    assert all(line.move_index == state.move_count for line in new_lines)
    assert all((2, 2) in line.cells for line in new_lines)


def test_o_between_eight_s_completes_the_maximum_of_four():
    state = position(
        "SSS",
        "S.S",
        "SSS",
    )
    move = Move.parse("O b2")
    assert names(state.completes(move)) == {
        ("a2", "b2", "c2"),  # row
        ("b1", "b2", "b3"),  # column
        ("a1", "b2", "c3"),  # diagonal
        ("c1", "b2", "a3"),  # the other diagonal, cells in board order
    }
    points, after = gained(state, move)
    assert points == 4
    assert after.scores[state.to_move] == 4


@pytest.mark.parametrize("size", [3, 5, 8])
@pytest.mark.parametrize("corner", ["top-left", "top-right", "bottom-left", "bottom-right"])
def test_o_in_a_corner_never_scores_even_surrounded_by_s(size, corner):
    row = 0 if corner.startswith("top") else size - 1
    col = 0 if corner.endswith("left") else size - 1
    moves = [Move(r, c, "S") for r in range(size) for c in range(size) if (r, c) != (row, col)]
    state = GameState.from_moves(moves, size=size)
    assert state.scores == (0, 0)
    move = Move(row, col, "O")
    assert state.completes(move) == ()
    points, after = gained(state, move)
    assert points == 0
    assert after.is_over  # it was the last empty cell


def test_o_on_an_edge_scores_only_along_the_edge():
    # Every other cell holds S: an O on the top edge can only be the middle of the top row.
    state = GameState.from_moves([Move(r, c, "S") for r in range(5) for c in range(5) if (r, c) != (0, 2)],
                                 size=5)
    move = Move.parse("O c1")
    assert names(state.completes(move)) == {("b1", "c1", "d1")}
    points, _ = gained(state, move)
    assert points == 1


def test_o_on_the_left_edge_scores_only_along_the_column():
    state = GameState.from_moves([Move(r, c, "S") for r in range(4) for c in range(4) if (r, c) != (2, 0)],
                                 size=4)
    assert names(state.completes(Move.parse("O a3"))) == {("a2", "a3", "a4")}


def test_s_on_the_edge_of_the_board_can_still_score_inwards():
    state = position(
        "...",
        "OO.",
        "SS.",
    )
    assert names(state.completes(Move.parse("S a1"))) == {("a1", "a2", "a3")}
    assert names(state.completes(Move.parse("S c1"))) == {("c1", "b2", "a3")}


def test_letters_that_do_not_spell_sos_do_not_score():
    state = position(
        "SS.",
        "OO.",
        "...",
    )
    assert state.scores == (0, 0)
    assert state.completes(Move.parse("S c1")) == ()  # S S S
    assert state.completes(Move.parse("O c2")) == ()  # O O O
    assert state.completes(Move.parse("O c1")) == ()  # S S O


def test_completes_does_not_play_the_move():
    state = GameState.from_moves(["S a1", "O b1"], size=3)
    assert names(state.completes(Move.parse("S c1"))) == {("a1", "b1", "c1")}
    assert state.cell(0, 2) is None
    assert state.scores == (0, 0)
    assert state.move_count == 2


def test_completes_rejects_an_illegal_move():
    state = GameState.from_moves(["S a1"], size=3)
    with pytest.raises(IllegalMoveError, match="already holds S"):
        state.completes(Move.parse("O a1"))


# -- general mode ------------------------------------------------------------------------------


def test_the_move_that_fills_the_board_ends_a_general_game():
    moves = [Move(r, c, "O") for r in range(3) for c in range(3)]
    state = GameState.new(size=3)
    for move in moves[:-1]:
        state = state.play(move)
        assert not state.is_over
        assert state.winners == ()
    assert state.empty_cells == 1
    final = state.play(moves[-1])
    assert final.is_over
    assert final.empty_cells == 0
    assert final.legal_moves() == []


def test_a_general_game_goes_on_after_a_score():
    state = GameState.from_moves(["S a1", "S c1", "O b1"], size=3)
    assert state.scores == (1, 0)
    assert not state.is_over
    assert state.to_move == 0  # the scorer moves again
    assert state.winners == ()
    again = state.play(Move.parse("S a3"))
    assert again.to_move == 1


def test_a_general_game_is_won_by_the_top_score():
    state = GameState.from_moves(
        ["O c2", "S a2", "S a3", "S b1", "S b2", "S c1", "S a1", "S c3", "S b3"], size=3)
    assert state.is_over
    assert state.scores == (0, 1)
    assert state.winners == (1,)
    assert not state.is_draw


def test_a_general_game_with_equal_top_scores_is_a_draw():
    state = GameState.from_moves(
        ["O c2", "O b3", "S b1", "S a1", "S c3", "O a3", "S c1", "S a2", "O b2"], size=3)
    assert state.is_over
    assert state.scores == (1, 1)
    assert state.winners == (0, 1)
    assert state.is_draw


def test_a_general_game_without_any_sos_is_a_draw_between_everyone():
    state = GameState.from_moves([Move(r, c, "O") for r in range(3) for c in range(3)], size=3, players=3)
    assert state.is_over
    assert state.scores == (0, 0, 0)
    assert state.winners == (0, 1, 2)
    assert state.is_draw


def test_three_player_draw_names_only_the_tied_leaders():
    state = GameState.from_moves(
        ["S a3", "O b3", "S c3", "S c2", "S a1", "S c1", "O a2", "S b1", "O b2"], size=3, players=3)
    assert state.is_over
    assert state.scores == (2, 0, 2)
    assert state.winners == (0, 2)
    assert state.is_draw


def test_winners_is_empty_while_the_game_runs():
    state = GameState.from_moves(["S a1", "S c1", "O b1"], size=3)
    assert state.scores == (1, 0)
    assert state.winners == ()
    assert state.is_draw is False


# -- simple mode -------------------------------------------------------------------------------


def test_simple_mode_ends_on_the_first_sos_and_its_mover_wins():
    state = GameState.from_moves(["S a1", "S c1", "S a3"], size=3, mode="simple")
    assert not state.is_over
    final = state.play(Move.parse("O b1"))  # player 2 (index 1) completes a1-b1-c1
    assert final.is_over
    assert final.scores == (0, 1)
    assert final.winners == (1,)
    assert not final.is_draw
    assert final.legal_moves() == []
    assert final.empty_cells == 5  # the board was far from full


def test_simple_mode_counts_every_triple_of_the_winning_move():
    state = GameState.from_moves(["S a1", "S c1", "S a3", "S c3", "S b1"], size=3, mode="simple")
    assert state.to_move == 1
    final = state.play(Move.parse("O b2"))  # a1-b2-c3 and c1-b2-a3 at once
    assert final.is_over
    assert final.scores == (0, 2)
    assert final.winners == (1,)


def test_simple_mode_full_board_without_sos_is_a_draw_between_all_players():
    state = GameState.from_moves([Move(r, c, "O") for r in range(3) for c in range(3)],
                                 size=3, mode="simple", players=4)
    assert state.is_over
    assert state.scores == (0, 0, 0, 0)
    assert state.winners == (0, 1, 2, 3)
    assert state.is_draw


def test_the_mode_is_reported_as_a_mode():
    assert GameState.new(size=3, mode="simple").mode is Mode.SIMPLE
    assert GameState.new(size=3, mode=Mode.GENERAL).mode is Mode.GENERAL
    assert GameState.new().mode == "general"


# -- turns ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_turns_rotate_through_every_player_when_nobody_scores(players):
    state = GameState.new(size=5, players=players)
    seen = []
    for col in range(5):
        seen.append(state.to_move)
        state = state.play(Move(0, col, "O"))
    assert seen == [i % players for i in range(5)]
    assert state.to_move == 5 % players


def test_three_players_a_score_keeps_the_turn_then_rotation_resumes():
    state = GameState.from_moves(["S a1", "S c1"], size=4, players=3)
    assert state.to_move == 2
    state = state.play(Move.parse("O b1"))  # the third player scores
    assert state.scores == (0, 0, 1)
    assert state.to_move == 2
    state = state.play(Move.parse("O d4"))
    assert state.to_move == 0


def test_four_players_a_score_keeps_the_turn_and_the_next_miss_passes_it_on():
    state = GameState.from_moves(["S a1", "O d4", "S c1"], size=4, players=4)
    assert state.to_move == 3
    state = state.play(Move.parse("O b1"))
    assert state.scores == (0, 0, 0, 1)
    assert state.to_move == 3
    state = state.play(Move.parse("S a4"))
    assert state.to_move == 0  # wraps around


# -- legal moves ---------------------------------------------------------------------------------


def test_legal_moves_are_row_major_with_s_before_o():
    state = GameState.new(size=3)
    moves = state.legal_moves()
    assert len(moves) == 18
    assert [str(m) for m in moves[:6]] == ["S a1", "O a1", "S b1", "O b1", "S c1", "O c1"]
    assert str(moves[6]) == "S a2"
    assert str(moves[-1]) == "O c3"
    assert moves == sorted(moves, key=lambda m: (m.row, m.col, m.letter != "S"))


def test_legal_moves_skip_filled_cells():
    state = GameState.from_moves(["S a1", "O c2"], size=3)
    moves = state.legal_moves()
    assert len(moves) == 14
    assert Move(0, 0, "S") not in moves and Move(0, 0, "O") not in moves
    assert Move(1, 2, "S") not in moves
    assert [str(m) for m in moves[:2]] == ["S b1", "O b1"]
    assert all(state.is_legal(m) for m in moves)


def test_no_legal_moves_once_the_game_is_over():
    state = GameState.from_moves(["S a1", "S c1", "O b1"], size=3, mode="simple")
    assert state.is_over
    assert state.legal_moves() == []
    assert not state.is_legal(Move.parse("S a2"))


def test_is_legal():
    state = GameState.from_moves(["S a1"], size=3)
    assert state.is_legal(Move.parse("O b2"))
    assert not state.is_legal(Move.parse("O a1"))
    assert not state.is_legal(Move(3, 0, "S"))
    assert not state.is_legal(Move(0, 1, "X"))


# -- illegal moves -------------------------------------------------------------------------------


def snapshot(state: GameState):
    return (state.board, state.scores, state.moves, state.to_move, state.is_over, state.lines)


def test_playing_a_taken_cell_names_the_letter_already_there():
    state = GameState.from_moves(["O b3"], size=3)
    before = snapshot(state)
    with pytest.raises(IllegalMoveError) as caught:
        state.play(Move.parse("S b3"))
    assert str(caught.value) == "cannot play S b3: b3 already holds O"
    assert snapshot(state) == before


@pytest.mark.parametrize("move", [Move(3, 0, "S"), Move(0, 3, "O"), Move(-1, 0, "S"), Move(0, -1, "S")])
def test_playing_off_the_board_is_illegal(move):
    state = GameState.new(size=3)
    with pytest.raises(IllegalMoveError, match="off the 3x3 board"):
        state.play(move)
    assert snapshot(state) == snapshot(GameState.new(size=3))


@pytest.mark.parametrize(("typed", "message"), [
    ("S e1", "cannot play S e1: e1 is off the 4x4 board"),
    ("o x9", "cannot play O x9: x9 is off the 4x4 board"),  # not "row 8, column 23"
])
def test_off_board_message_names_the_cell_as_the_player_typed_it(typed, message):
    with pytest.raises(IllegalMoveError) as caught:
        GameState.new(size=4).play(Move.parse(typed))
    assert str(caught.value) == message


@pytest.mark.parametrize("letter", ["X", "s", "", "SO"])
def test_a_letter_other_than_s_or_o_is_illegal(letter):
    state = GameState.new(size=3)
    with pytest.raises(IllegalMoveError, match="the letter must be S or O"):
        state.play(Move(0, 0, letter))
    assert state.move_count == 0


def test_moving_after_the_game_is_over_is_illegal():
    state = GameState.from_moves(["S a1", "S c1", "O b1"], size=3, mode="simple")
    before = snapshot(state)
    with pytest.raises(IllegalMoveError, match="cannot play S a2: the game is already over"):
        state.play(Move.parse("S a2"))
    assert snapshot(state) == before


FINISHED = ["S a1", "S c1", "O b1"]  # a simple game on 3x3, over after its third move


@pytest.mark.parametrize(("moves", "move", "message"), [
    # the first of: over, letter, off the board, taken (play's fast checks hand over to one check)
    (FINISHED, Move(0, 0, "X"), "cannot play X a1: the game is already over"),
    (FINISHED, Move(9, 9, "S"), "cannot play S j10: the game is already over"),
    (FINISHED, "S a1", "cannot play S a1: the game is already over"),  # not even a Move
    (["S a1"], Move(0, 0, "X"), "cannot play 'X': the letter must be S or O"),
    (["S a1"], Move(7, 0, "X"), "cannot play 'X': the letter must be S or O"),
    (["S a1"], Move(3, 2, "O"), "cannot play O c4: c4 is off the 3x3 board"),
    # no notation names these (only code makes them): the row and column as they are
    (["S a1"], Move(-1, 0, "O"), "cannot play O (-1, 0): (-1, 0) is off the 3x3 board"),
    (["S a1"], Move(0, 1.0, "O"), "cannot play O (0, 1.0): (0, 1.0) is off the 3x3 board"),
    (["S a1"], Move("0", 0, "O"), "cannot play O ('0', 0): ('0', 0) is off the 3x3 board"),
    (["S a1"], Move(0, 0, "O"), "cannot play O a1: a1 already holds S"),
])
def test_an_illegal_move_names_the_first_rule_it_breaks(moves, move, message):
    state = GameState.from_moves(moves, size=3, mode="simple")
    before = snapshot(state)
    with pytest.raises(IllegalMoveError) as caught:
        state.play(move)
    assert str(caught.value) == message
    assert not state.is_legal(move)
    with pytest.raises(IllegalMoveError, match="^" + re.escape(message) + "$"):
        state.completes(move)
    assert snapshot(state) == before


def test_a_value_that_is_not_a_move_fails_as_before_on_a_running_game():
    with pytest.raises(AttributeError, match="letter"):
        GameState.new(size=3).play("S a1")


def test_a_bool_row_or_column_counts_as_the_number_it_is():
    # bool is an int: the rules have always taken True as 1, like any other whole number
    state = GameState.from_moves(["S a1", "S c1"], size=3)
    assert state.is_legal(Move(False, True, "O"))
    after = state.play(Move(False, True, "O"))
    assert after.board == state.play(Move(0, 1, "O")).board == "SOS......"
    assert after.scores == (1, 0) and after.lines[0].cells == ((0, 0), (0, 1), (0, 2))
    assert GameState.new(size=3).play(Move(True, True, "S")).board == "....S...."


def test_illegal_and_invalid_move_errors_are_value_errors():
    assert issubclass(IllegalMoveError, ValueError)
    assert issubclass(InvalidMoveError, ValueError)
    with pytest.raises(ValueError, match="already holds S"):
        GameState.from_moves(["S a1", "S a1"], size=3)


def test_a_failed_move_leaves_the_state_equal_to_before():
    state = GameState.from_moves(["S a1", "O b1"], size=3)
    copy = GameState.from_moves(["S a1", "O b1"], size=3)
    for bad in (Move.parse("S a1"), Move(9, 9, "S"), Move(0, 2, "Q")):
        with pytest.raises(IllegalMoveError):
            state.play(bad)
    assert state == copy
    assert state.play(Move.parse("S c1")).scores == (1, 0)


# -- notation ------------------------------------------------------------------------------------


def test_parse_reads_letter_column_and_row_from_the_top():
    assert Move.parse("S b3") == Move(row=2, col=1, letter="S")
    assert Move.parse("o a1") == Move(0, 0, "O")
    assert Move.parse("  S   Z26 ") == Move(25, 25, "S")
    assert str(Move(2, 1, "S")) == "S b3"
    assert str(Move(9, 0, "O")) == "O a10"


def test_every_move_on_the_largest_board_round_trips_through_notation():
    for move in GameState.new(size=26).legal_moves():
        text = str(move)
        assert Move.parse(text) == move
        assert str(Move.parse(text)) == text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("X b3", "the letter must be S or O"),
        ("S", "expected a letter and a cell"),
        ("", "expected a letter and a cell"),
        ("S b3 O", "expected a letter and a cell"),
        ("S zz", "is not a cell"),
        ("S 3b", "is not a cell"),
        ("S a", "is not a cell"),
        ("S a0", "rows are counted from 1"),
        ("S a-1", "is not a cell"),
        ("S a\u00b2", "is not a cell"),  # a superscript two is a digit to str.isdigit, not to int()
    ],
)
def test_parse_rejects_text_that_is_not_a_move(text, message):
    with pytest.raises(InvalidMoveError, match=message):
        Move.parse(text)


def test_parse_error_quotes_the_text():
    with pytest.raises(InvalidMoveError) as caught:
        Move.parse("X b3")
    assert "'X b3'" in str(caught.value)


def test_parse_accepts_a_cell_beyond_the_board_which_play_then_refuses():
    move = Move.parse("S a27")
    assert move == Move(26, 0, "S")
    with pytest.raises(IllegalMoveError, match="off the 26x26 board"):
        GameState.new(size=26).play(move)


def test_cell_names_and_parse_cell():
    assert cell_name(2, 1) == "b3"
    assert cell_name(0, 25) == "z1"
    assert parse_cell("b3") == (2, 1)
    assert parse_cell(" Z26 ") == (25, 25)
    with pytest.raises(InvalidMoveError):
        parse_cell("b")


# -- creating a game -----------------------------------------------------------------------------


def test_new_game_defaults():
    state = GameState.new()
    assert (state.size, state.mode, state.players) == (6, Mode.GENERAL, 2)
    assert state.board == "." * 36
    assert state.scores == (0, 0)
    assert state.to_move == 0
    assert state.moves == () and state.lines == ()
    assert state.last_move is None
    assert state.move_count == 0
    assert not state.is_over


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"size": 2}, "board size must be a whole number from 3 to 26, not 2"),
        ({"size": 27}, "board size must be a whole number from 3 to 26, not 27"),
        ({"size": 5.0}, "board size must be a whole number"),
        ({"players": 1}, "a game needs at least 2 players, not 1"),
        ({"players": 0}, "a game needs at least 2 players"),
        ({"mode": "foo"}, "mode must be 'general' or 'simple', not 'foo'"),
    ],
)
def test_new_rejects_bad_settings(kwargs, message):
    with pytest.raises(ValueError) as caught:
        GameState.new(**kwargs)
    assert message in str(caught.value)


@pytest.mark.parametrize("size", [3, 26])
def test_new_accepts_the_smallest_and_largest_board(size):
    state = GameState.new(size=size)
    assert state.size == size
    assert len(state.legal_moves()) == 2 * size * size


# -- reading the position ------------------------------------------------------------------------


def test_cell_last_move_and_move_count():
    state = GameState.from_moves(["S a1", "O c2"], size=3)
    assert state.cell(0, 0) == "S"
    assert state.cell(1, 2) == "O"
    assert state.cell(2, 2) is None
    assert state.last_move == Move.parse("O c2")
    assert state.move_count == 2
    assert state.moves == (Move.parse("S a1"), Move.parse("O c2"))
    assert state.board == "S....O..."


def test_movers_name_who_made_each_move_including_extra_turns():
    state = GameState.from_moves(["S a1", "S c1", "O b1", "S a3", "O a2", "O c3"], size=3, players=3)
    # Player 2 (index 2) scores with O b1 and moves again; player 0 then scores with O a2.
    assert state.movers == (0, 1, 2, 2, 0, 0)
    assert len(state.movers) == len(state.moves)
    assert GameState.new(size=3).movers == ()


def test_cell_off_the_board_raises_index_error():
    with pytest.raises(IndexError, match="d1 is off the 3x3 board"):
        GameState.new(size=3).cell(0, 3)


def test_str_draws_the_board_with_coordinates():
    state = GameState.from_moves(["S a1", "O c2"], size=3)
    assert str(state) == "  a b c\n1 S . .\n2 . . O\n3 . . ."


def test_lines_hold_player_cells_in_board_order_and_move_index():
    state = GameState.from_moves(["S c1", "O b2", "O d4", "S a3"], size=4)
    # The second player completed the anti-diagonal c1-b2-a3 with the fourth move (index 3).
    assert state.lines == (SosLine(player=1, cells=((0, 2), (1, 1), (2, 0)), move_index=3),)
    line = state.lines[0]
    assert line.player == 1
    assert list(line.cells) == sorted(line.cells)
    assert state.moves[line.move_index] == Move.parse("S a3")


def test_lines_accumulate_oldest_first():
    state = GameState.from_moves(["S a1", "S c1", "O b1", "S a3", "O a2"], size=3)
    # The first player scores with move 3, keeps the turn, misses; the second player scores next.
    assert [(line.player, line.move_index) for line in state.lines] == [(0, 2), (1, 4)]
    assert [line.cells for line in state.lines] == [((0, 0), (0, 1), (0, 2)), ((0, 0), (1, 0), (2, 0))]
    assert len(state.lines) == sum(state.scores)


def test_repr_summarises_the_state():
    state = GameState.from_moves(["S a1"], size=3, players=3)
    assert repr(state) == "GameState(size=3, mode='general', players=3, moves=1, scores=(0, 0, 0))"


# -- values: immutability, equality, hashing, pickling -------------------------------------------


@pytest.mark.parametrize("name", ["size", "board", "scores", "_board", "to_move", "anything_new"])
def test_states_are_immutable(name):
    state = GameState.new(size=3)
    with pytest.raises(AttributeError, match="immutable"):
        setattr(state, name, 1)
    assert state.board == "........." and state.size == 3


def test_attributes_cannot_be_deleted():
    state = GameState.new(size=3)
    with pytest.raises(AttributeError, match="immutable"):
        del state._board
    assert state.board == "........."


def test_play_returns_a_new_state_and_leaves_the_old_one_alone():
    state = GameState.from_moves(["S a1", "S c1"], size=3)
    later = state.play(Move.parse("O b1"))
    assert later is not state
    assert state.board == "S.S......" and later.board == "SOS......"
    assert state.scores == (0, 0) and later.scores == (1, 0)
    assert state.moves == (Move.parse("S a1"), Move.parse("S c1"))
    assert state.lines == ()


def test_moves_are_frozen_values_that_sort_by_row_then_column():
    move = Move.parse("S b3")
    with pytest.raises(AttributeError):
        move.letter = "O"  # type: ignore[misc]
    assert sorted([Move(1, 0, "S"), Move(0, 2, "O"), Move(0, 1, "S")]) == [
        Move(0, 1, "S"), Move(0, 2, "O"), Move(1, 0, "S")]
    assert {Move(0, 0, "S"), Move(0, 0, "S"), Move(0, 0, "O")} == {Move(0, 0, "S"), Move(0, 0, "O")}


def test_states_from_the_same_moves_are_equal_and_hash_equal():
    moves = ["S a1", "O b2", "S c3", "O a2"]
    one = GameState.from_moves(moves, size=4, players=3)
    two = GameState.new(size=4, players=3)
    for text in moves:
        two = two.play(Move.parse(text))
    assert one is not two
    assert one == two
    assert hash(one) == hash(two)
    assert len({one, two}) == 1


def test_different_histories_reaching_the_same_board_are_not_equal():
    one = GameState.from_moves(["S a1", "O b1", "S c3", "O c2"], size=3)
    two = GameState.from_moves(["S c3", "O c2", "S a1", "O b1"], size=3)
    assert one.board == two.board
    assert one.scores == two.scores and one.to_move == two.to_move
    assert one != two


def test_states_do_not_order_and_compare_by_content():
    state = GameState.from_moves(["S a1"], size=3)
    with pytest.raises(TypeError):
        state < GameState.new(size=3)  # noqa: B015
    same = GameState.from_moves(["S a1"], size=3)
    state.lines  # noqa: B018 (worked out in one of them only)
    assert state != GameState.new(size=3) and not (state != same)  # noqa: SIM202 (!= by content too)
    with pytest.raises(AttributeError, match="immutable"):
        state.memo = {}


def test_states_with_different_settings_are_not_equal():
    base = GameState.from_moves(["S a1"], size=3)
    assert base != GameState.from_moves(["S a1"], size=4)
    assert base != GameState.from_moves(["S a1"], size=3, mode="simple")
    assert base != GameState.from_moves(["S a1"], size=3, players=3)
    assert base != GameState.new(size=3)
    assert base != "S........"


@pytest.mark.parametrize(
    ("moves", "mode", "players"),
    [
        (["S a1", "S c1", "O b1", "O b2"], "general", 3),
        (["S a1", "S c1", "O b2", "O d4"], "simple", 2),
        (["S a1", "S c1", "O b1"], "simple", 4),  # finished
        ([], "general", 2),
    ],
)
def test_pickle_round_trip_gives_an_equal_state(moves, mode, players):
    state = GameState.from_moves(moves, size=4, mode=mode, players=players)
    copy = pickle.loads(pickle.dumps(state))
    assert copy == state
    assert hash(copy) == hash(state)
    assert copy.mode is Mode(mode)
    assert (copy.scores, copy.to_move, copy.is_over, copy.lines, copy.winners) == (
        state.scores, state.to_move, state.is_over, state.lines, state.winners)


def test_from_moves_accepts_notation_and_move_values():
    assert GameState.from_moves(["S a1", Move(0, 1, "O")], size=3) == GameState.from_moves(
        [Move(0, 0, "S"), "O b1"], size=3)


def test_points_by_move_and_outcome_are_facts_of_the_state():
    from sos_tui.engine import Outcome

    state = GameState.from_moves(["S a1", "S c3", "S c1", "S a3", "O b2", "O b1"], size=3)
    assert state.points_by_move == (0, 0, 0, 0, 2, 1)
    assert state.outcome is None
    drawn = Outcome(scores=(2, 2, 1), winners=(0, 1))
    assert (drawn.is_draw, drawn.winner) == (True, None)
    assert (drawn.result_for(0), drawn.result_for(2)) == ("draw", "loss")
    won = Outcome(scores=(0, 5), winners=(1,))
    assert (won.winner, won.result_for(1), won.margin(1), won.margin(0)) == (1, "win", 5, -5)
    final = GameState.from_moves(["S a1", "S c1", "O b1"], size=3, mode="simple")
    assert final.outcome == Outcome((1, 0), (0,))


def test_a_move_on_a_taken_cell_is_refused_with_the_cell_and_the_letter_there():
    from sos_tui.engine import CellTakenError

    state = GameState.new(3).play(Move.parse("O b2"))
    with pytest.raises(CellTakenError) as refused:
        state.play(Move.parse("S b2"))
    error = refused.value
    assert isinstance(error, IllegalMoveError) and (error.cell, error.letter) == ("b2", "O")
    again = pickle.loads(pickle.dumps(error))  # through a process pool, the same error
    assert type(again) is CellTakenError and (again.cell, again.letter) == ("b2", "O")
    with pytest.raises(IllegalMoveError) as off:
        state.play(Move(5, 5, "S"))
    assert not isinstance(off.value, CellTakenError)


# -- resign, time, abandon, agreement, abort ------------------------------------------------------
def test_two_players_a_resign_ends_the_game_and_the_other_wins_whatever_the_score():
    state = position("SOS", "...", "...")  # three moves: the first player scored
    ahead = state.scores.index(1)
    after = state.drop(ahead, "resign")
    assert after.is_over and after.legal_moves() == []
    assert after.winners == (1 - ahead,) and after.termination is Termination.RESIGN
    assert after.outcome.result_for(ahead) == "loss" and after.outcome.places[ahead] == 2
    assert after.scores == state.scores and after.board == state.board


def test_three_players_the_resigner_drops_out_keeps_the_points_and_turns_skip_the_seat():
    state = GameState.from_moves(["S a1"], size=4, players=3)  # player 1 to move
    assert state.to_move == 1
    after = state.drop(1, Termination.RESIGN)
    assert not after.is_over and after.to_move == 2 and after.still_in == (0, 2)
    assert after.play(Move.parse("O c3")).to_move == 0
    assert after.play(Move.parse("O c3")).play(Move.parse("O d4")).to_move == 2
    scored = after.play(Move.parse("O b1")).play(Move.parse("S c1"))  # seat 0 scores: keeps the turn
    assert scored.scores == (1, 0, 0) and scored.to_move == 0


def test_a_dropped_seat_places_last_though_it_scored_most():
    state = GameState.from_moves(["S a1", "O b1", "S c1"], size=3, players=3)  # seat 2 scored
    assert state.scores == (0, 0, 1)
    state = state.drop(2, "time")
    assert state.to_move == 0
    for move in state.legal_moves()[::2][:6]:
        state = state.play(Move(move.row, move.col, "O"))
    assert state.is_over and state.termination is Termination.NORMAL
    assert 2 not in state.winners and state.outcome.places == (1, 1, 3)


def test_a_draw_by_agreement_and_an_abort():
    state = GameState.from_moves(["S a1", "O b1", "S c1"], size=3)
    drawn = state.end("agreement")
    assert drawn.is_over and drawn.is_draw and drawn.outcome.result_for(0) == "draw"
    aborted = GameState.new(3).end(Termination.ABORT)
    outcome = aborted.outcome
    assert aborted.is_over and aborted.winners == () and not outcome.has_result
    assert outcome.result_for(0) == outcome.result_for(1) == "none"
    assert outcome.winner is None and not outcome.is_draw and outcome.places == ()


@pytest.mark.parametrize(("make", "message"), [
    (lambda: GameState.new(3).end("abort").drop(0, "resign"), "the game is already over"),
    (lambda: GameState.new(3, players=3).drop(1, "resign").drop(1, "time"), "seat 2 is already out"),
    (lambda: GameState.new(3).drop(2, "resign"), "2 is not a seat of this 2-player game"),
    (lambda: GameState.new(3).drop(0, "agreement"), "resign, time or abandon, not 'agreement'"),
    (lambda: GameState.new(3, players=3).end("agreement"), "exactly two players still in, not 3"),
    (lambda: GameState.new(3).end("resign"), "by agreement or abort, not 'resign'"),
    (lambda: GameState.from_moves(["S a1"], size=3).end("agreement").end("abort"), "already over"),
])
def test_endings_the_rules_refuse_say_why(make, message):
    with pytest.raises(EndingError, match=re.escape(message)):
        make()


def test_an_ordinary_game_has_no_ending_and_ends_normally():
    state = GameState.new(3)
    assert state.ending is None and state.termination is None and state.drops == ()
    full = GameState.from_moves([Move(r, c, "O") for r in range(3) for c in range(3)], size=3)
    assert full.termination is Termination.NORMAL and full.outcome.termination is Termination.NORMAL


def test_the_ending_counts_in_equality_hash_and_pickle():
    state = GameState.from_moves(["S a1"], size=4, players=3)
    dropped = state.drop(2, "abandon")
    assert dropped != state and dropped == state.drop(2, "abandon")
    assert hash(dropped) == hash(state.drop(2, "abandon"))
    for value in (dropped, dropped.play(Move.parse("O b1")).drop(0, "resign"), state.end("abort")):
        again = pickle.loads(pickle.dumps(value))
        assert again == value and again.ending == value.ending and again.to_move == value.to_move


def test_among_still_in_is_the_same_position_between_the_seats_left():
    state = GameState.from_moves(["S a1", "O b2"], size=4, players=3).drop(0, "resign")
    game, seats = state.among_still_in()
    assert seats == (1, 2) and game.players == 2 and game.board == state.board
    assert seats[game.to_move] == state.to_move
    assert seats[game.play(Move.parse("O d4")).to_move] == state.play(Move.parse("O d4")).to_move
