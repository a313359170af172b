"""One game on screen: the board, the scoreboard and the move log, laid out as the room allows.

Every screen that shows a game (a local game, a network game, a replay) shows it through this one
widget, so the layout rules are written once:

- wide (the view at least ``NARROW_BELOW`` columns): the side panel at the board's right;
- narrow: the scoreboard and the log go under the board, side by side;
- too small for one row of cells: a message saying how large the terminal must be, and that the
  game is safe, in place of the game.

Attributes down: the screen sets (or binds) ``state``, ``seats``, ``paused``, ``thinking``,
``letter`` and ``times`` (a timed game's clocks), and the view passes them on to its widgets.
``live`` is False for a game that is only shown (a replay): the board takes no moves and no
focus, and no one is "to move". A screen's own panel (the replay's review) goes under the log:
``GameView(side=widget)``.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Container, Horizontal, Vertical
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from sos_tui.engine import GameState, PlayerInfo
from sos_tui.i18n import _

from .board import Board
from .move_log import MoveLog
from .scoreboard import Scoreboard, SeatTime

NARROW_BELOW = 78
# The narrow layout stacks a 9-line side panel under the board, which needs 5 lines (border, column
# letters, a gap and one row of cells): below this no cell could be shown.
MIN_WIDTH, MIN_HEIGHT = 44, 14


class GameView(Widget):
    state: reactive[GameState | None] = reactive(None, always_update=True, repaint=False)
    seats: reactive[tuple[PlayerInfo, ...]] = reactive((), repaint=False)
    paused: reactive[bool] = reactive(False, repaint=False)
    thinking: reactive[bool] = reactive(False, repaint=False)
    letter: reactive[str] = reactive("S", repaint=False)
    times: reactive[tuple[SeatTime, ...] | None] = reactive(None, repaint=False)

    def __init__(self, *, live: bool = True, mouse: bool = True, side: Widget | None = None,
                 id: str | None = None) -> None:
        super().__init__(id=id)
        self.live = live
        self.mouse = mouse and live
        self._side = side

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            with Container(id="board-area"):
                board = Board(id="board", mouse=self.mouse).data_bind(GameView.state)
                board.interactive = self.live
                board.can_focus = self.live
                yield board
            with Vertical(id="side"):
                scoreboard = Scoreboard(id="scoreboard").data_bind(
                    GameView.seats, GameView.state, GameView.paused, GameView.thinking, GameView.letter,
                    GameView.times)
                scoreboard.live = self.live
                yield scoreboard
                log = MoveLog(id="log").data_bind(GameView.seats, GameView.state)
                log.can_focus = not self.live  # in a game the keys stay with the board
                yield log
                if self._side is not None:
                    yield self._side
        yield Static(id="too-small", markup=False)

    def on_mount(self) -> None:
        self.words()

    def words(self) -> None:
        """Say the panels' titles (again, after a switch of language) and redraw their words."""
        self.scoreboard.border_title = _("Players")
        self.move_log.border_title = _("Moves")
        if self.is_mounted:
            self.scoreboard.redraw()
            self.move_log.refresh()
            self._fit()

    @property
    def board(self) -> Board:
        return self.query_one(Board)

    @property
    def scoreboard(self) -> Scoreboard:
        return self.query_one(Scoreboard)

    @property
    def move_log(self) -> MoveLog:
        return self.query_one(MoveLog)

    @property
    def too_small(self) -> bool:
        return self.has_class("-too-small")

    def on_resize(self) -> None:
        self._fit()

    def _fit(self) -> None:
        """The layout for the room the view has; the too-small message names the terminal size
        that would be enough (the screen's other lines, a title or a footer, count)."""
        width, height = self.size
        if not width or not height:  # not laid out yet (a screen's on_mount): ``on_resize`` fits it
            return
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        self.set_class(width < NARROW_BELOW, "-narrow")
        was_small = self.too_small
        self.set_class(small, "-too-small")
        if was_small and not small and self.live and self.screen.focused is None:
            self.board.focus()  # the game is back: so are its keys
        if small:
            screen = self.screen.size
            need_w, need_h = MIN_WIDTH + screen.width - width, MIN_HEIGHT + screen.height - height
            self.query_one("#too-small", Static).update(
                _("The terminal is too small for sos-tui.\n\n"
                  "Enlarge it to at least {min_width} x {min_height}\n(it is {width} x {height} now).\n\n"
                  "Your game is safe.").format(min_width=need_w, min_height=need_h,
                                               width=screen.width, height=screen.height))
