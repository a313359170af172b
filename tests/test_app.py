"""The Textual app, driven through Pilot as a player would: keys, clicks, resizes."""

from __future__ import annotations

import random

import pytest
from textual.command import CommandList

from sos_tui.app.screens.game_over import GameOverScreen
from sos_tui.app.screens.help import HelpScreen
from sos_tui.app.screens.setup import SetupScreen
from sos_tui.app.widgets.footer import KeyFooter
from sos_tui.app.widgets.move_log import MoveLog
from sos_tui.app.widgets.scoreboard import Scoreboard
from sos_tui.engine import GameState, Move

from .support.games import GAME, GAME_KEYS
from .support.helpers import (
    board_of,
    board_text,
    click_offset,
    footer_keys,
    footer_shows,
    make_app,
    scoreboard_text,
    screen_strips,
    wait_for,
)


async def test_whole_game_by_keyboard_ends_in_the_game_over_dialog():
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press(*GAME_KEYS)
        await pilot.pause()
        assert app.state.moves == tuple(Move(*m) for m in GAME)
        assert app.state.scores == (1, 5)
        assert isinstance(app.screen, GameOverScreen)
        assert "Bo wins!" in str(app.screen.query_one("#result").render())
        await pilot.press("escape")  # look at the finished board
        assert not isinstance(app.screen, GameOverScreen)
        assert board_text(app)[2] == "1   S─●─O─●─S"


async def test_whole_game_by_mouse_left_click_writes_the_letter_and_right_click_the_other():
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        board = board_of(app)
        for row, col, letter in GAME:
            button = 1 if letter == "S" else 3  # the selected letter is S: right click writes O
            await pilot.click(board, offset=click_offset(board, row, col), button=button)
        await pilot.pause()
        assert app.state.moves == tuple(Move(*m) for m in GAME)
        assert app.state.scores == (1, 5)
        assert isinstance(app.screen, GameOverScreen)


async def test_hovering_a_cell_highlights_it():
    app = make_app(size=5)
    async with app.run_test(size=(100, 30)) as pilot:
        board = board_of(app)
        await pilot.hover(board, offset=click_offset(board, 2, 3))
        assert board.hover == (2, 3)


async def test_a_move_on_a_taken_cell_is_refused_with_a_message_and_changes_nothing():
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("s")
        before = app.state
        await pilot.press("o")
        await pilot.pause()
        assert app.state is before
        assert [n.message for n in app.notices] == ["a1 already holds S: choose an empty cell."]


async def test_the_scoreboard_drawn_move_by_move_is_the_scoreboard_drawn_afresh():
    """A move draws again only the scoreboard lines it changes: after each key of a whole game
    (turns, scores, a move again banner, the letter, the end), what the screen shows of the
    scoreboard is what drawing all of it again shows."""
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.game_screen
        scoreboard = screen.query_one(Scoreboard)

        def drawn() -> list[str]:
            region = scoreboard.region
            strips = screen_strips(app)
            return [strips[y].crop(region.x, region.right).text for y in range(region.y, region.bottom)]

        seen = set()
        for key in ["tab", "tab", *GAME_KEYS]:
            await pilot.press(key)
            await pilot.pause()
            now = drawn()
            scoreboard.redraw()
            await pilot.pause()
            assert drawn() == now, key
            seen.add(len(now))
        assert "Game over: Bo wins" in "".join(now)
        assert len(seen) == 2  # the end of the game took lines away, and the layout followed


async def test_tab_toggles_the_selected_letter_shown_on_screen():
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        board = board_of(app)
        assert board.letter == "S"
        await pilot.press("tab")
        assert board.letter == "O"
        assert "Letter:  s  O " in scoreboard_text(app)
        await pilot.press("space")
        assert app.state.cell(0, 0) == "O"
        await pilot.press("tab", "right", "enter")
        assert app.state.cell(0, 1) == "S"


async def test_scoreboard_shows_whose_turn_and_the_extra_turn_after_a_score():
    app = make_app(size=4)
    async with app.run_test(size=(100, 30)) as pilot:
        assert "▶ ● Ana" in scoreboard_text(app)
        await pilot.press("s", "right", "o")
        assert "▶ ● Ana" in scoreboard_text(app) and "Ana to move" in scoreboard_text(app)
        await pilot.press("right", "s")  # Ana completes S-O-S and keeps the turn
        text = scoreboard_text(app)
        assert "▶ ● Ana" in text and "Ana scored 1 — move again!" in text
        await pilot.press("down", "s")  # scores nothing: the turn passes
        text = scoreboard_text(app)
        assert "▶ ▲ Bo" in text and "move again" not in text


async def test_four_players_take_turns_in_order():
    app = make_app(size=5, names=("A", "B", "C", "D"))
    async with app.run_test(size=(100, 30)) as pilot:
        seen = []
        for _ in range(5):
            seen.append(app.state.to_move)
            await pilot.press("s", "right")
        assert seen == [0, 1, 2, 3, 0]
        log = app.game_screen.query_one(MoveLog)
        assert [log.row_cells(i)[1] for i in range(5)] == ["● A", "▲ B", "■ C", "◆ D", "● A"]


async def test_move_log_numbers_moves_with_points():
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("s", "right", "o", "right", "s")
        log = app.game_screen.query_one(MoveLog)
        rows = [list(log.row_cells(i)) for i in range(log.row_count)]
        assert rows == [["1", "● Ana", "S a1", ""], ["2", "▲ Bo", "O b1", ""], ["3", "● Ana", "S c1", "+1"]]
        assert log.cursor_row == 2  # the newest move is visible


async def test_board_snapshot_shows_strokes_in_every_direction():
    app = make_app(size=3)
    async with app.run_test(size=(100, 30)) as pilot:
        app.game_screen.start(app.game.with_state(GameState.from_moves(
            ["S a1", "S c1", "S a3", "S c3", "O b2", "O b1", "O a2"], size=3)))
        await pilot.pause()
        # Ana's O in the centre completes both diagonals; then b1 (row) and a2 (column).
        assert board_text(app)[:7] == [
            "    a   b   c",
            "",
            "1   S─●─O─●─S",  # the row: dash, Ana's mark, dash
            "    ● ●   ●",  # a1-a2 down the column, then both diagonals into b2
            "2   O   O   ·",
            "    ● ●   ●",  # a2-a3, then both diagonals out of b2
            "3   S   ·   S",
        ]


async def test_game_over_rematch_and_new_game():
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press(*GAME_KEYS)
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        await pilot.click("#rematch")
        await pilot.pause()
        assert app.state.move_count == 0 and app.state.size == 3
        await pilot.press(*GAME_KEYS)
        await pilot.pause()
        await pilot.press("ctrl+n")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)


async def test_a_dialog_in_front_shows_its_own_keys_in_the_footer_not_the_boards():
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press(*GAME_KEYS[:5])
        board_keys = ("S↔O", "Undo", "Hint")
        for opened_by, keys in (("ctrl+s", "Cancel"), ("ctrl+o", "Delete"), ("question_mark", "Close")):
            await pilot.press(opened_by)
            footer = await footer_shows(pilot, app, keys)
            assert not any(word in footer for word in board_keys), footer
            await pilot.press("escape")
            await pilot.pause()
        await pilot.press(*GAME_KEYS[5:])  # to the end: the game-over dialog
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        footer = await footer_shows(pilot, app, "Rematch")
        assert not any(word in footer for word in board_keys), footer
        await pilot.press("escape")  # back to the board: its keys again
        await footer_shows(pilot, app, "Undo")


async def test_setup_screen_starts_with_defaults_on_enter():
    from sos_tui.app import SosApp

    app = SosApp(computer_delay=0)
    async with app.run_test(size=(100, 34)) as pilot:
        assert isinstance(app.screen, SetupScreen)
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, SetupScreen)
        assert (app.state.size, app.state.mode.value, app.state.players) == (6, "general", 2)
        assert [p.name for p in app.game.players] == ["Player 1", "Player 2"]


async def test_the_seats_follow_the_count_of_players_and_keep_what_was_typed():
    from textual.widgets import Input, Select

    from sos_tui.app import SosApp

    app = SosApp(computer_delay=0)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = app.screen
        shown = lambda: [row.id for row in screen.query(".seat") if row.display]  # noqa: E731
        assert shown() == ["seat-0", "seat-1"]
        screen.query_one("#count", Select).value = 4
        await pilot.pause()
        assert shown() == ["seat-0", "seat-1", "seat-2", "seat-3"]
        assert screen.query_one("#name-3", Input).value == "Player 4"
        screen.query_one("#name-3", Input).focus()
        await pilot.press("ctrl+u", "D", "e", "e")
        screen.query_one("#kind-2", Select).value = "easy"
        screen.query_one("#count", Select).value = 2
        await pilot.pause()
        assert shown() == ["seat-0", "seat-1"]
        screen.query_one("#count", Select).value = 5
        await pilot.pause()
        assert shown() == ["seat-0", "seat-1", "seat-2", "seat-3", "seat-4"]
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert [(p.name, p.level) for p in app.game.players] == [
            ("Player 1", None), ("Player 2", None), ("Computer 3", "easy"), ("Dee", None), ("Player 5", None)]


async def test_help_opens_with_question_mark_and_f1():
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        for key in ("question_mark", "f1"):
            await pilot.press(key)
            assert isinstance(app.screen, HelpScreen)
            await pilot.press("escape")
            assert not isinstance(app.screen, HelpScreen)


async def test_moves_after_the_game_is_over_are_refused():
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press(*GAME_KEYS)
        await pilot.press("escape")
        final = app.state
        await pilot.press("s")
        assert app.state is final
        assert "The game is over" in app.notices[-1].message


async def test_small_terminal_says_how_large_it_must_be_and_recovers():
    app = make_app(size=8)
    async with app.run_test(size=(80, 24)) as pilot:
        view = app.game_screen.view
        await pilot.press("s")
        assert not view.too_small
        await pilot.resize_terminal(30, 10)
        await wait_for(pilot, lambda: view.too_small)
        assert "at least 44 x 15" in str(view.query_one("#too-small").render())
        await pilot.resize_terminal(80, 24)
        await wait_for(pilot, lambda: not view.too_small)
        await pilot.press("right", "o")  # the game goes on where it was
        assert [str(m) for m in app.state.moves] == ["S a1", "O b1"]


async def test_8x8_fits_80x24_with_all_panels_and_narrow_terminals_stack_them():
    app = make_app(size=8)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.game_screen
        board, side = screen.query_one("#board"), screen.query_one("#side")
        assert board.region.width >= board.virtual_size.width and board.region.height >= 17
        assert side.region.x >= board.region.right  # side by side
        await pilot.resize_terminal(60, 30)
        await wait_for(pilot, lambda: screen.view.has_class("-narrow"))
        assert side.region.y >= board.region.bottom  # stacked under the board


async def test_large_board_scrolls_to_keep_the_cursor_in_view():
    app = make_app(size=26)
    async with app.run_test(size=(80, 24)) as pilot:
        board = board_of(app)
        await pilot.press(*["right"] * 25, *["down"] * 25)
        await pilot.pause()
        assert board.cursor == (25, 25)
        offset = board.cell_offset(25, 25)
        assert 0 <= offset.x < board.scrollable_content_region.width
        assert 0 < offset.y < board.scrollable_content_region.height
        await pilot.press("s")
        assert app.state.cell(25, 25) == "S"
        assert board_text(app)[-2].startswith("26 ·") and board_text(app)[-2].endswith("S")


async def test_a_short_input_storm_leaves_the_log_equal_to_the_game():
    """A smoke test of keys, clicks and resizes together, kept small (40 actions, each a Pilot
    round trip): the session's state machine test in test_session.py checks the same invariant
    over a thousand actions. This seed clicks 9 times, undoes or redoes 4 times and resizes twice."""
    keys = ["up", "down", "left", "right", "h", "j", "k", "l", "s", "o", "space", "enter", "tab", "u", "r"]
    for size, seed in ((3, 13),):
        rng = random.Random(seed)
        app = make_app(size=size, names=("A", "B", "C"))
        async with app.run_test(size=(90, 30)) as pilot:
            for _ in range(40):
                roll = rng.random()
                if roll < 0.75:
                    await pilot.press(rng.choice(keys))
                elif roll < 0.97 and app.screen is app.game_screen:
                    width, height = app.size
                    await pilot.click(offset=(rng.randrange(width), rng.randrange(height)),
                                      button=rng.choice((1, 3)))
                else:
                    await pilot.resize_terminal(rng.randrange(30, 120), rng.randrange(10, 40))
                if isinstance(app.screen, GameOverScreen):
                    await pilot.press("escape")
            await pilot.resize_terminal(90, 30)
            await pilot.pause()
            log = app.game_screen.query_one(MoveLog)
            logged = [log.row_cells(i)[2] for i in range(log.row_count)]
            assert logged == [str(m) for m in app.state.moves]
            assert app.state == GameState.from_moves(logged, size=size, players=3)
            assert app.session.version >= 8  # the storm really played and took back moves


async def test_an_unfinished_game_is_offered_again_with_continue():
    from sos_tui.app import SosApp

    first = make_app(size=4)
    async with first.run_test(size=(100, 30)) as pilot:
        await pilot.press("s", "right", "o")
    # no clean save was asked for: the autosave after each move is what survives
    again = SosApp(computer_delay=0)
    async with again.run_test(size=(100, 40)) as pilot:
        assert isinstance(again.screen, SetupScreen)
        await again.workers.wait_for_complete()  # the autosave is found in a thread
        await pilot.pause()
        preview = str(again.screen.query_one("#resume-preview").render())
        assert "Unfinished general game, 4x4, 2 moves" in preview
        await pilot.press("enter")  # Continue has the focus
        await pilot.pause()
        assert [str(m) for m in again.state.moves] == ["S a1", "O b1"]
        assert [p.name for p in again.game.players] == ["Ana", "Bo"]


async def test_a_finished_game_goes_into_the_history():
    from sos_tui.storage import History

    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press(*GAME_KEYS)
        await pilot.pause()
    with History() as history:
        games = history.games()
    assert len(games) == 1 and games[0].record.moves == tuple(Move(*m) for m in GAME)


async def test_undo_and_redo_walk_back_through_an_extra_turn():
    app = make_app(size=4)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("s", "right", "o", "right", "s")  # Ana scores and keeps the turn
        assert app.state.to_move == 0 and app.state.scores == (1, 0)
        await pilot.press("u")
        assert app.state.move_count == 2 and app.state.to_move == 0 and app.state.scores == (0, 0)
        await pilot.press("ctrl+z")
        assert app.state.move_count == 1 and app.state.to_move == 1
        await pilot.press("r", "ctrl+y")
        assert app.state.scores == (1, 0) and app.state.to_move == 0
        await pilot.press("u", "down", "o")  # a new move drops what could be redone
        await pilot.press("r")
        assert [str(m) for m in app.state.moves] == ["S a1", "O b1", "O c2"]
        assert "Nothing to redo." in [n.message for n in app.notices]


async def test_a_key_that_does_nothing_yet_is_shown_dimmed_and_says_why_when_pressed():
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await footer_shows(pilot, app, "Undo")
        assert footer_keys(app)["Undo"] is False  # nothing to undo yet: shown, dimmed
        assert footer_keys(app)["Hint"] is True
        await pilot.press("u")
        assert app.notices[-1].message == "Nothing to undo."
        await pilot.press("s")
        await wait_for(pilot, lambda: footer_keys(app).get("Undo") is True)
        await pilot.press("u")
        assert app.state.move_count == 0


async def test_a_key_that_comes_to_work_is_drawn_as_a_footer_built_afresh_draws_it():
    """After a move, undo works: the footer's keys change in place (not built again), and the
    line drawn is the one a footer built afresh for the same keys draws, dimmed key and all."""
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await footer_shows(pilot, app, "Undo")
        dimmed = list(screen_strips(app)[-1])
        footer = app.screen.query_one(KeyFooter)
        keys = list(footer.children)
        await pilot.press("s")
        await wait_for(pilot, lambda: footer_keys(app).get("Undo") is True)
        await pilot.pause()
        in_place = list(screen_strips(app)[-1])
        assert list(footer.children) == keys  # the same key widgets
        assert in_place != dimmed  # Undo is no longer dimmed
        footer.call_later(footer.recompose)  # built afresh, as Textual's footer does on any change
        await wait_for(pilot, lambda: footer.children and list(footer.children) != keys)
        assert list(screen_strips(app)[-1]) == in_place
        await pilot.press("u")
        assert app.state.move_count == 0
        await wait_for(pilot, lambda: footer_keys(app).get("Undo") is False)
        await pilot.pause()
        assert list(screen_strips(app)[-1]) == dimmed  # and dimmed again, in place


async def test_replay_then_play_from_here_starts_a_live_game_at_that_move():
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press(*GAME_KEYS)
        await pilot.pause()
        await pilot.press("escape")
        app.game_screen.action_replay()
        await pilot.pause()
        await pilot.press("home", "right", "right", "right")
        await pilot.press("f")
        await pilot.pause()
        assert app.screen is app.game_screen
        assert app.state.moves == tuple(Move(*m) for m in GAME[:3]) and not app.state.is_over
        assert app.state.to_move == 0  # Ana's S c1 scored: she moves again
        await pilot.press("down", "o")
        assert app.state.move_count == 4


async def test_no_mouse_ignores_clicks_but_keys_still_play():
    app = make_app(mouse=False)
    async with app.run_test(size=(100, 30)) as pilot:
        board = board_of(app)
        await pilot.click(board, offset=click_offset(board, 1, 1))
        assert app.state.move_count == 0
        await pilot.press("s")
        assert app.state.move_count == 1


async def test_command_palette_offers_the_game_commands():
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        titles = {command.title for command in app.get_system_commands(app.screen)}
        assert {"New game", "Rematch", "Help", "Quit", "Theme", "Undo", "Save game", "History"} <= titles
        await pilot.press("s")
        await pilot.press("ctrl+p")
        await pilot.press(*"rematch")
        commands = app.screen.query_one(CommandList)
        await wait_for(pilot, lambda: commands.highlighted is not None and "Rematch" in str(
            commands.get_option_at_index(commands.highlighted).prompt))
        await pilot.press("enter")
        await pilot.pause()
        assert app.state.move_count == 0  # a fresh game with the same settings


async def test_crossing_diagonals_of_two_players_both_keep_their_mark():
    # Ana's b1-c2-d3 and Bo's c1-b2-a3 cross in the gap between rows 1 and 2
    app = make_app(size=4)
    async with app.run_test(size=(100, 30)) as pilot:
        app.game_screen.start(app.game.with_state(GameState.from_moves(
            ["S b1", "S d3", "S c1", "S a3", "O c2", "S d1", "O b2"], size=4)))
        await pilot.pause()
        gap = board_text(app)[3]  # the line below row 1
        assert "●\u2573▲" in gap  # the crossing glyph between both marks


async def test_at_the_smallest_size_a_board_cell_is_shown_and_below_it_the_message():
    app = make_app(size=6)
    async with app.run_test(size=(44, 15)) as pilot:
        await pilot.pause()
        view = app.game_screen.view
        assert not view.too_small
        assert any("·" in line for line in board_text(app)[:board_of(app).size.height])
        await pilot.resize_terminal(44, 14)
        await wait_for(pilot, lambda: view.too_small)


async def test_a_scrolled_move_log_repaints_the_line_of_the_row_that_changed():
    # 30 moves in a log 10 lines high: the log is scrolled; a mark or the cursor on a row must
    # repaint that row's line on screen, not one a scroll-length away
    moves = [m for m in GameState.new(6).legal_moves() if m.letter == "O"][:30]
    app = make_app(size=6)
    async with app.run_test(size=(100, 24)) as pilot:
        app.game_screen.start(app.game.with_state(GameState.from_moves(moves, size=6)))
        await pilot.pause()
        log = app.game_screen.query_one(MoveLog)
        # the log follows the last move once laid out, which a busy machine may not have done yet
        await wait_for(pilot, lambda: log.scroll_offset.y > 0)
        top = int(log.scroll_offset.y)
        log.set_mark(0, "!")  # the first mark widens the column: all is repainted
        painted = []
        log.refresh = lambda *regions, **kwargs: painted.extend(regions)
        log.set_mark(top + 2, "?")
        assert [region.y for region in painted] == [3]  # header, then rows top, top+1, top+2
        painted.clear()
        log.move_cursor(top)  # from the last row to the first shown
        assert {region.y for region in painted} >= {1}


# nightly: test_the_move_log_fills_from_the_top_then_follows_the_last_move_with_no_blank_rows checks
# the log at each move (24 of them) in every run
@pytest.mark.slow
async def test_a_long_game_keeps_every_move_of_the_log_in_reach_as_it_grows():
    # 36 moves in a log 13 rows high: its scrollable height grows past the view in steps, and
    # at every move the latest one is on screen and the first can be scrolled back to
    moves = [m for m in GameState.new(6).legal_moves() if m.letter == "O"]  # no SOS: turns alternate
    app = make_app(size=6)
    async with app.run_test(size=(100, 24)) as pilot:
        log = app.game_screen.query_one(MoveLog)
        for count, move in enumerate(moves, 1):
            assert app.game_screen.apply(move)
            await pilot.pause()
            view = log.scrollable_content_region.height - 1  # rows under the pinned header
            shown = [log.render_line(y).text for y in range(1, view + 1)]
            assert any(f"{count} " in line and str(move) in line for line in shown), (count, shown)
            assert log.max_scroll_y >= count - view  # the scroll reaches every row
        assert log.show_vertical_scrollbar and count == 36
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen))
        log.scroll_to(y=0, animate=False, immediate=True)
        await pilot.pause()
        assert str(moves[0]) in log.render_line(1).text


async def test_a_theme_switch_recolours_the_scoreboard_and_the_board():
    app = make_app(size=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        scoreboard, board = app.screen.query_one("#scoreboard"), app.screen.board

        def colour_of(widget, text: str):
            return next(s.style.color for y in range(widget.size.height) for s in widget.render_line(y)
                        if s.text.strip() == text)

        before = colour_of(scoreboard, "●"), colour_of(board, "S")
        app.theme = "textual-light" if app.theme != "textual-light" else "textual-dark"
        await pilot.pause()
        after = colour_of(scoreboard, "●"), colour_of(board, "S")
        assert after[0] != before[0] and after[1] != before[1]  # no style kept from the old theme
        assert after[0] == scoreboard.get_component_rich_style("scoreboard--player-1").color


async def test_the_move_log_fills_from_the_top_then_follows_the_last_move_with_no_blank_rows():
    # A 24-move game at 100x30: the log shows move 1 at the top until it is full, then the last
    # move on its bottom row; no blank rows past the end, and scrolling back reaches move 1
    moves = [m for m in GameState.new(6).legal_moves() if m.letter == "O"][:24]  # no SOS
    app = make_app(size=6)
    async with app.run_test(size=(100, 30)) as pilot:
        log = app.game_screen.query_one(MoveLog)
        view = log.scrollable_content_region.height - 1  # rows under the pinned header
        assert 8 < view < 24
        for count, move in enumerate(moves, 1):
            assert app.game_screen.apply(move)
            await pilot.pause()
            shown = [log.render_line(y).text.strip() for y in range(1, view + 1)]
            if count <= view:
                assert shown[0].startswith("1 ") and shown[count - 1].startswith(f"{count} "), shown
                assert not any(shown[count:])
            else:
                assert shown[-1].startswith(f"{count} ") and str(move) in shown[-1], shown
                assert all(shown), shown  # every row of the view holds a move
        assert log.max_scroll_y == len(moves) + 1 - (view + 1)  # no scrolling past the last move
        log.scroll_to(y=0, animate=False, immediate=True)
        await pilot.pause()
        assert log.render_line(1).text.strip().startswith("1 ")


async def test_help_lists_the_games_keys_and_none_of_the_ui_librarys_own():
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        table = {description: keys for keys, description in app.screen.keys}
        for internal in ("Scroll Home", "Scroll End", "Page Up", "Page Down", "Page Left", "Page Right",
                         "Focus Previous", "Copy selected text"):
            assert internal not in table
        assert table["Move the cursor"].startswith("↑ ↓ ← →")
        assert table["Hint"] == "H" and table["Undo"] == "u ^z" and table["Place"] == "space ⏎"
        assert table["Quit"] == "^q" and table["Help"] == "? f1" and "^p" in table.values()


async def test_the_setup_screen_fits_100x30_with_a_26x26_game_to_continue():
    from sos_tui import storage
    from sos_tui.app import SosApp
    from sos_tui.engine import GameRecord, Mode, PlayerInfo

    moves = [m for m in GameState.new(26).legal_moves() if m.letter == "O"][:40]
    storage.autosave(GameRecord(26, Mode.GENERAL, (PlayerInfo("Ana"), PlayerInfo("Bo"))).with_state(
        GameState.from_moves(moves, size=26)))
    app = SosApp(computer_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.screen.query_one("#resume").display)
        screen = app.screen
        preview = str(screen.query_one("#resume-preview").render())
        assert "Unfinished general game, 26x26, 40 moves" in preview and "Ana 0, Bo 0" in preview
        footer_top = screen.query_one("KeyFooter").region.y
        for selector in ("#continue", "#size", "#mode", "#count", "#name-0", "#name-1", "#language",
                         "#start", "#open", "#history", "#quit", "#host", "#join"):
            region = screen.query_one(selector).region
            assert region.height and region.bottom <= footer_top, (selector, region)  # in view, unscrolled
        assert screen.query_one("#setup").max_scroll_y == 0


async def test_the_replay_follows_the_game_screens_layout_rules():
    from sos_tui.app.screens.replay import ReplayScreen

    moves = [m for m in GameState.new(6).legal_moves() if m.letter == "O"][:10]
    app = make_app(size=6)
    async with app.run_test(size=(60, 24)) as pilot:
        app.game_screen.start(app.game.with_state(GameState.from_moves(moves, size=6)))
        await pilot.pause()
        app.replay(app.game)
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        view = app.screen.view
        await wait_for(pilot, lambda: view.has_class("-narrow"))
        board, side = view.board, view.query_one("#side")
        assert board.region.width >= board.virtual_size.width  # every column, not a sliver
        assert side.region.y >= board.region.bottom  # stacked under the board, as in a game
        await pilot.resize_terminal(44, 15)
        await wait_for(pilot, lambda: view.too_small)
        assert "at least 44 x 17" in str(view.query_one("#too-small").render())  # title and status count
        await pilot.resize_terminal(100, 30)
        await wait_for(pilot, lambda: not view.too_small and not view.has_class("-narrow"))
        assert side.region.x >= board.region.right
