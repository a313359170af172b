"""What a player reads at the common terminal sizes, 80x24 and 100x30, in English and in Malay (whose
words are longer): every panel's text whole (wrapped, or scrolled to), never cut short; and the
setup screen drawn as it means to look: a focused button's label on the button's own face, and each
seat's name and kind on the fields' colour."""

from __future__ import annotations

import re

import pytest
from textual.widgets import Button, Input, Label, OptionList, Select
from textual.widgets._footer import FooterKey

from sos_tui.app import SosApp
from sos_tui.app.screens.game_over import GameOverScreen
from sos_tui.app.screens.replay import ReplayScreen
from sos_tui.app.screens.setup import SetupScreen
from sos_tui.app.widgets.footer import KeyFooter
from sos_tui.app.widgets.move_log import MoveLog
from sos_tui.app.widgets.scoreboard import Scoreboard
from sos_tui.engine import GameRecord, GameState, Mode, Move, PlayerInfo
from sos_tui.i18n import _, level_name
from sos_tui.storage import History, autosaves_dir, save_record

from .support.examples import nightly
from .support.helpers import drawn_cells, footer_line, wait_for

SIZES = ((80, 24), (100, 30))
# Malay's words are the longer ones: the default run checks each layout in Malay; English, the same
# layout with shorter words, runs with --runslow.
LANGUAGES = ("ms", pytest.param("en", marks=pytest.mark.slow))
# General 4x4, drawn 2-2, with blunders of 9 and 10 points: long verdicts.
DRAW_4X4 = ["S b1", "O d2", "O b3", "S a4", "S a1", "S b2", "S b4", "O c4", "S a3", "S d3", "S d1", "S c1",
            "O d4", "S c2", "S a2", "S c3"]
PLAYERS = (PlayerInfo("Anastasia Longname"), PlayerInfo("Bo"))


def words(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def lines_of(widget) -> list[str]:
    """The lines ``widget`` draws now, as text."""
    return [widget.render_line(y).text for y in range(widget.size.height)]


async def every_line(pilot, widget) -> list[str]:
    """Every line of a scrolling widget, scrolled through from its top."""
    found, top = [], 0
    while top <= widget.max_scroll_y:  # read again after each scroll: the lines are measured as drawn
        widget.scroll_to(y=top, animate=False, immediate=True)
        await pilot.pause()
        found.append(widget.render_line(0).text)
        top += 1
    return found + lines_of(widget)[1:]


def a_draw(moves=DRAW_4X4) -> GameRecord:
    return GameRecord.for_state(GameState.from_moves(moves, 4, Mode.GENERAL, 2), PLAYERS)


async def settle(pilot) -> None:
    await pilot.pause()


def footer_keys_whole(app, where: str) -> None:
    """Each key the footer shows is drawn whole, the help key among them where it is offered, and
    the keys shown fit the footer's width."""
    footer = app.screen.query_one(KeyFooter)
    line = footer_line(app)
    keys = [key for key in footer.query(FooterKey) if key.display]
    for key in keys:
        assert words(f"{key.key_display} {key.description}") in words(line), (where, line)
    help_key = [key for key in footer.query(FooterKey) if key.action in ("help", "app.help")]
    assert all(key.display for key in help_key), (where, line)
    assert sum(key.outer_size.width for key in keys) <= footer.size.width, (where, line)


@pytest.mark.parametrize("language", LANGUAGES)
async def test_the_review_says_each_verdict_and_key_moment_whole_at_80x24_and_100x30(language):
    """The bug report: at 100x30 the review cut its explanation mid-sentence under the chart, and the
    replay's footer ended in "? H"."""
    app = SosApp(a_draw(DRAW_4X4[:1]), computer_delay=0)
    async with app.run_test(size=SIZES[1]) as pilot:  # reviewed at 100x30, as in the report
        app.replay(a_draw(), review=True)
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        screen = app.screen
        await wait_for(pilot, lambda: len(screen.reviews) == screen.total and not screen.reviewing, 60)
        verdict = screen.query_one("#review-verdict", Label)
        cursor = screen.query_one("#review-cursor", Label)
        moments = screen.query_one("#review-moments", OptionList)
        panel, log = screen.query_one("#review-panel"), screen.query_one(MoveLog)
        app.switch_language(language)
        for size in reversed(SIZES):
            await pilot.resize_terminal(*size)
            await settle(pilot)
            where = f"{language} {size}"
            footer_keys_whole(app, where)
            # the panels stay on screen, the moves log showing at least one move
            status = screen.query_one("#replay-status")
            assert panel.region.bottom <= status.region.y, where
            assert log.size.height >= 2, where
            for position in (10, 12, 13, 16):
                screen.go_to(position)
                await settle(pilot)
                said = words(str(verdict.content))
                assert said.startswith(f"{position}. ") and words(" ".join(lines_of(verdict))) == said, (
                    where, lines_of(verdict))
                assert words(" ".join(lines_of(cursor))) == words(str(cursor.content)), (where, position)
            shown = words(" ".join(await every_line(pilot, moments)))
            for index in range(moments.option_count):
                prompt = words(str(moments.get_option_at_index(index).prompt))
                assert prompt in shown, (where, prompt, shown)


@pytest.mark.parametrize("language", LANGUAGES)
async def test_every_screens_footer_shows_its_keys_whole_at_both_sizes(language):
    with History() as history:
        history.record_game(a_draw())
    app = SosApp(a_draw(DRAW_4X4[:-1]), computer_delay=0)
    async with app.run_test(size=SIZES[0]) as pilot:
        app.switch_language(language)
        views = {"game": None, "replay": lambda: app.replay(a_draw()), "history": app.action_history,
                 "setup": app.action_new_game}
        for view, show in views.items():
            if show is not None:
                show()
                await settle(pilot)
            for size in SIZES:
                await pilot.resize_terminal(*size)
                await settle(pilot)
                footer_keys_whole(app, f"{language} {size} {view}")
            if show is not None:
                app.pop_screen()
                await settle(pilot)
        app.game_screen.apply(Move.parse(DRAW_4X4[-1]))
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen))
        for size in SIZES:
            await pilot.resize_terminal(*size)
            await settle(pilot)
            footer_keys_whole(app, f"{language} {size} game over")


def an_autosave() -> None:
    record = a_draw(DRAW_4X4[:5])
    autosaves_dir().mkdir(parents=True, exist_ok=True)
    save_record(record, autosaves_dir() / f"{record.game_id}.json")


async def test_a_focused_setup_button_draws_its_label_on_its_own_face_in_every_kind_of_theme():
    """The bug report: the focused Continue button drew its label on a black box."""
    an_autosave()
    app = SosApp(computer_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen)
                       and app.screen.query_one("#continue").display and app.screen.focused is not None
                       and app.screen.focused.id == "continue")
        # one theme of each kind; nord and gruvbox too in the nightly run
        kinds = ("textual-dark", "textual-light", "ansi-dark") + (("nord", "gruvbox") if nightly() else ())
        for theme in kinds:
            app.theme = theme
            for button in ("#continue", "#start"):
                app.screen.query_one(button, Button).focus()
                await settle(pilot)
                region = app.screen.query_one(button, Button).content_region  # within its frame
                row = drawn_cells(app)[region.y][region.x:region.right]
                assert len({cell.bgcolor for cell in row}) == 1, (theme, button, "".join(c.char for c in row))


async def test_each_seats_name_and_kind_sit_on_the_fields_colour_without_a_hole_between():
    """The bug report: a small dark square before "Human" in the seat rows."""
    app = SosApp(computer_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen))
        for theme in ("textual-dark", "textual-light", "ansi-dark"):
            app.theme = theme
            await settle(pilot)
            for seat in (0, 1):
                name = app.screen.query_one(f"#name-{seat}", Input).region
                kind = app.screen.query_one(f"#kind-{seat}", Select).region
                row = drawn_cells(app)[name.y][name.x:kind.right]
                assert len({cell.bgcolor for cell in row}) == 1, (theme, seat, "".join(c.char for c in row))


@pytest.mark.parametrize("language", LANGUAGES)
async def test_the_scoreboard_says_who_won_whole_at_both_sizes(language):
    """Seen in a game at 80x24: "Game over: Computer 2 (easy) wi…"."""
    players = (PlayerInfo("Anastasia Longname"), PlayerInfo("Computer 2", "computer", "easy"))
    sweep = ["S a1", "S c3", "S c1", "S a3", "S b1", "O b2", "O b3", "O a2"]  # 3x3: the computer wins
    app = SosApp(GameRecord.for_state(GameState.from_moves(sweep, 3, Mode.GENERAL, 2), players),
                 computer_delay=0)
    async with app.run_test(size=SIZES[0]) as pilot:
        app.switch_language(language)
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen))  # its last move is played
        app.pop_screen()  # the game-over dialog: the board and its scoreboard in view
        scoreboard = app.game_screen.query_one(Scoreboard)
        banner = _("Game over: {name} wins").format(name=_("{name} ({level})").format(
            name="Computer 2", level=level_name("easy")))
        for size in SIZES:
            await pilot.resize_terminal(*size)
            await settle(pilot)
            said = words(" ".join(lines_of(scoreboard)))
            assert words(banner) in said, (size, said)
