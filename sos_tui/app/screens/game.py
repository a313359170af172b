"""The game screen: the board, the scoreboard and the move log, or a "too small" notice."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container, Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static

from ..widgets.board import Board
from ..widgets.move_log import MoveLog
from ..widgets.scoreboard import Scoreboard

MIN_WIDTH, MIN_HEIGHT = 44, 14


class GameScreen(Screen):
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (78, "-wide")]

    BINDINGS = [
        Binding("H", "app.hint", "Hint", key_display="H"),
        Binding("u,ctrl+z", "app.undo", "Undo", key_display="u"),
        Binding("r,ctrl+y", "app.redo", "Redo", key_display="r", show=False),
        Binding("p", "app.pause", "Pause", show=False),
        Binding("ctrl+s", "app.save", "Save", show=False),
        Binding("ctrl+o", "app.open", "Open", show=False),
        Binding("ctrl+n", "app.new_game", "New", show=False),
        Binding("ctrl+r", "app.rematch", "Rematch", show=False),
    ]

    def __init__(self, mouse: bool = True) -> None:
        super().__init__()
        self.mouse = mouse

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            with Container(id="board-area"):
                yield Board(id="board", mouse=self.mouse)
            with Vertical(id="side"):
                yield Scoreboard(id="scoreboard")
                yield MoveLog(id="log")
        yield Static(id="too-small")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#scoreboard").border_title = "Players"
        self.query_one("#log").border_title = "Moves"
        self.query_one(Board).focus()

    def on_resize(self) -> None:
        width, height = self.size
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        self.set_class(small, "-too-small")
        if small:
            self.query_one("#too-small", Static).update(
                f"The terminal is too small for sos-tui.\n\n"
                f"Enlarge it to at least {MIN_WIDTH} x {MIN_HEIGHT}\n(it is {width} x {height} now).\n\n"
                f"Your game is safe."
            )
        elif self.focused is None:
            self.query_one(Board).focus()

    def on_move_log_row_selected(self, event) -> None:
        self.query_one(Board).focus()
