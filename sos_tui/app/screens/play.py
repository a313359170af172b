"""What every screen that plays a game shares: one ``GameView``, fed from one ``GameSource``.

A local game (``GameScreen``, over a ``GameSession``) and a network game (``NetGameScreen``, over a
``RemoteGame``) are two screens of this kind. Attributes down, messages up: the screen's reactives
(``state``, ``seats``, ``paused``, ``thinking``, ``letter``) are bound to the view; the board posts
``CellChosen`` and the screen's ``apply`` plays it on its source. The screen follows its source
(``SourceScreen.follow``) and ``show`` sets ``seats`` and ``state`` from each change the source
reports. Each screen binds only the keys of what its game offers; a key whose action the game
never allows here (no hint in a network game, no undo for a spectator) is not offered, one it does
not allow now (nothing to undo yet) is shown dimmed.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.reactive import reactive
from textual.timer import Timer

from sos_tui.engine import GameState, Move, PlayerInfo
from sos_tui.engine.clock import LOW_SHARE, Clocks
from sos_tui.session import Change
from sos_tui.session.timing import next_change

from ..widgets.board import Board
from ..widgets.footer import KeyFooter
from ..widgets.game_view import GameView
from ..widgets.move_log import MoveLog
from ..widgets.scoreboard import Scoreboard, SeatTime
from .game_over import GameOverScreen
from .source_screen import SourceScreen


class PlayScreen(SourceScreen):
    # Bound to the view with data_bind; the screen itself draws none of them (repaint=False:
    # repainting the whole screen on every move would cost a full redraw).
    state: reactive[GameState | None] = reactive(None, always_update=True, repaint=False)
    seats: reactive[tuple[PlayerInfo, ...]] = reactive((), repaint=False)
    paused: reactive[bool] = reactive(False, repaint=False)
    thinking: reactive[bool] = reactive(False, repaint=False)
    letter: reactive[str] = reactive("S", repaint=False)
    times: reactive[tuple[SeatTime, ...] | None] = reactive(None, repaint=False)
    """Each seat's time in a timed game (None: untimed), read when it was last drawn."""

    def __init__(self, mouse: bool = True) -> None:
        super().__init__()
        self.mouse = mouse
        self._tick_timer: Timer | None = None

    def tick(self) -> None:
        """Show the clocks as they stand now (the timer set by ``show_clocks`` calls it)."""

    def show_clocks(self, clocks: Clocks | None, now: int) -> None:
        """Show each seat's time at ``now`` (None: untimed), and set the one timer (``tick``) for
        when the time shown next changes: a second, a tenth under ten seconds, the time turning
        low, the flag. No timer while no time runs."""
        if self._tick_timer is not None:
            self._tick_timer.stop()
            self._tick_timer = None
        if clocks is None:
            self.times = None
            return
        self.times = tuple(SeatTime(clocks.remaining(seat, now), clocks.low(seat, now))
                           for seat in range(clocks.seats))
        left = clocks.when_flag(now)
        if left is None:
            return
        waits = [next_change(left), left, left - clocks.control.initial_ms // LOW_SHARE]
        wait = min((ms for ms in waits if ms is not None and ms > 0), default=None)
        if wait is not None:
            self._tick_timer = self.set_timer(wait / 1000, self.tick)

    def apply(self, move: Move, version: int | None = None) -> bool:
        """Play ``move`` from this terminal; a refused move is said, and changes nothing."""
        raise NotImplementedError

    def _after_game(self, choice: str | None) -> None:
        """What the player chose on the game-over dialog."""
        raise NotImplementedError

    def compose(self) -> ComposeResult:
        yield GameView(mouse=self.mouse).data_bind(
            PlayScreen.state, PlayScreen.seats, PlayScreen.paused, PlayScreen.thinking, PlayScreen.letter,
            PlayScreen.times)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.board.focus()

    def language_changed(self) -> None:
        """Draw every word again in the new language, in place: composing the screen again would
        lose the board's cursor, its hint and selected letter, and the log's position."""
        self.view.words()
        self.refresh_bindings()

    @property
    def view(self) -> GameView:
        return self.query_one(GameView)

    @property
    def board(self) -> Board:
        return self.query_one(Board)

    @property
    def whole(self) -> bool:
        """Whether the game view is here with every part: not while the screen is taken down
        (the app quits), piece by piece, and a worker still reports to it."""
        return bool(self.query(Board)) and bool(self.query(Scoreboard)) and bool(self.query(MoveLog))

    def show(self, change: Change) -> None:
        """The one place the game shown changes: the view follows ``seats`` and ``state``."""
        self.seats = self.source.seats
        self.state = change.state

    def _game_over(self, state: GameState) -> None:
        source = self.source
        if source is None or source.state is not state or self.app.screen is not self:
            return
        ratings = getattr(source, "ratings", ())  # a rated network game's new ratings (``RemoteGame``)
        self.app.push_screen(GameOverScreen(state, source.seats, ratings), self._after_game)

    # -- from the widgets -------------------------------------------------------------------
    def on_board_cell_chosen(self, message: Board.CellChosen) -> None:
        self.apply(Move(message.row, message.col, message.letter))

    def on_board_letter_changed(self, message: Board.LetterChanged) -> None:
        self.letter = message.letter

    def on_move_log_selected(self, event: MoveLog.Selected) -> None:
        self.board.focus()
