"""What a player reads at the common terminal sizes, 80x24 and 100x30, in English and in Malay (whose
words are longer): every panel's text whole (wrapped, or scrolled to), never cut short; and the
setup screen drawn as it means to look: a focused button's label on the button's own face, and each
seat's name and kind on the fields' colour."""

from __future__ import annotations

from textual.widgets import Button, Input, Select

from sos_tui.app import SosApp
from sos_tui.app.screens.setup import SetupScreen
from sos_tui.engine import GameRecord, GameState, Mode, PlayerInfo
from sos_tui.storage import autosaves_dir, save_record

from .helpers import drawn_cells, wait_for

DRAW_4X4 = ["S b1", "O d2", "O b3", "S a4", "S a1", "S b2", "S b4", "O c4", "S a3", "S d3", "S d1", "S c1",
            "O d4", "S c2", "S a2", "S c3"]
PLAYERS = (PlayerInfo("Anastasia Longname"), PlayerInfo("Bo"))


def a_draw(moves=DRAW_4X4) -> GameRecord:
    return GameRecord.for_state(GameState.from_moves(moves, 4, Mode.GENERAL, 2), PLAYERS)


async def settle(pilot) -> None:
    for _pause in range(3):
        await pilot.pause()


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
        for theme in ("textual-dark", "textual-light", "nord", "gruvbox", "ansi-dark"):
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
