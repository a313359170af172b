"""Replay a recorded game move by move: step, jump, animate, export, play on from any point, or
review it: every move's mark and loss, the best move on the board, an advantage chart and the
key moments, filled in move by move by the computer's process.

The screen follows a ``Replay`` (``sos_tui.session``), the game's timeline: the keys, the log,
the chart and the key moments move it, and ``show`` draws each position it reports."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.timer import Timer
from textual.widgets import Label

from sos_tui.engine import GameRecord
from sos_tui.i18n import N_, _, explain, mode_name
from sos_tui.session import Change, Replay
from sos_tui.storage import StorageError, export_transcript

from ..text import literal, result_shown, shown
from ..widgets.board import Board
from ..widgets.footer import KeyFooter
from ..widgets.game_view import GameView
from ..widgets.move_log import MoveLog
from ..widgets.replay_status import ReplayStatus
from ..widgets.review import AdvantageChart, Jump, ReviewPanel, verdict_words
from .source_screen import SourceScreen

__all__ = ["AdvantageChart", "ReplayScreen", "verdict_words"]

MIN_DELAY, MAX_DELAY = 0.1, 2.0
DELAYS = (0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0)
DEFAULT_DELAY = 0.5


class ReplayScreen(SourceScreen[GameRecord | None]):
    """Shows ``record`` after ``start_at`` moves (default: all of them).

    Dismisses with the game cut after the current move when the player asks to play on from
    here, and with None when closed.
    """

    DEFAULT_CSS = """
    ReplayScreen #replay-title {
        width: 1fr; height: 1; text-wrap: nowrap; text-overflow: ellipsis;
        content-align: center middle; text-style: bold; background: $panel; color: $text;
    }
    ReplayScreen #board { border: round $frame; border-title-color: $foreground-muted; }
    ReplayScreen #log { min-height: 4; }
    ReplayScreen.-short #review-chart { height: 2; }
    """
    # The review panel shares the side with the moves; its chart is shorter on a short terminal.
    VERTICAL_BREAKPOINTS = [(0, "-short"), (28, "-tall")]

    BINDINGS = [
        Binding("left", "step(-1)", N_("Previous"), key_display="←", priority=True),
        Binding("right", "step(1)", N_("Next"), key_display="→", priority=True),
        Binding("home", "first", N_("Start"), show=False, priority=True),
        Binding("end", "last", N_("End"), show=False, priority=True),
        Binding("space", "play_pause", N_("Play/Pause"), key_display="␣", priority=True),
        Binding("plus,equals_sign", "speed(1)", N_("Faster"), key_display="+", show=False, priority=True),
        Binding("minus", "speed(-1)", N_("Slower"), key_display="-", show=False, priority=True),
        Binding("escape", "back", N_("Close")),  # before the longer ones: shown at 80 columns
        Binding("v", "review", N_("Review")),
        Binding("f", "play_from_here", N_("Play from here")),
        Binding("x", "export", N_("Export transcript"), show=False),  # in the help
    ]

    def __init__(self, record: GameRecord, start_at: int | None = None, review: bool = False) -> None:
        super().__init__()
        self.record = record
        self.replay = Replay(record, start_at)
        self.panel = ReviewPanel(self.replay.final, record.players, id="review-panel", classes="side-panel")
        self.start_review = review  # start the review on mount (the game-over dialog's Review)
        self._own_pool = None  # a pool of its own, on an app without one (tests' host apps)
        self.playing = False
        self._delay = DEFAULT_DELAY
        self._timer: Timer | None = None

    @property
    def source(self) -> Replay:
        return self.replay

    # -- layout -----------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Label(self._title(), id="replay-title")
        yield GameView(live=False, side=self.panel)
        yield ReplayStatus(id="replay-status")
        yield KeyFooter()

    @property
    def view(self) -> GameView:
        return self.query_one(GameView)

    @property
    def board(self) -> Board:
        return self.view.board

    def _title(self):
        record = self.record
        # Translators: between the names of the players of a game: "Ana vs Bo vs Computer"
        names = _(" vs ").join(shown(p.name, 24) for p in record.players)
        return literal(_("Replay · {players} · {mode} {size}x{size} · {result}").format(
            players=names, mode=mode_name(record.mode), size=record.size,
            result=result_shown(record, self.replay.final)), 400)

    def language_changed(self) -> None:
        """Say everything again in the new language; the position, the review and the focus stay."""
        if not self.is_mounted:
            return
        self.query_one("#replay-title", Label).update(self._title())
        self.view.words()
        self.panel.words()
        self._show_status()
        self.refresh_bindings()

    def on_mount(self) -> None:
        self.view.words()
        self.panel.words()
        self.view.seats = self.record.players
        self.view.move_log.show(self.replay.final, self.record.players)
        self.view.move_log.focus()
        self.follow(self.replay)
        self.replay.announce_start()
        if self.start_review:
            self.call_after_refresh(self.action_review)

    def on_unmount(self) -> None:
        self._pause()
        self.panel.stop()
        if self._own_pool is not None:
            self._own_pool.shutdown()

    # -- the position -----------------------------------------------------------------------
    @property
    def position(self) -> int:
        return self.replay.position

    @property
    def total(self) -> int:
        return self.replay.total

    @property
    def reviews(self):
        """The review's verdicts so far, by move index."""
        return self.panel.reviews

    @property
    def reviewing(self) -> bool:
        return self.panel.reviewing

    @property
    def delay(self) -> float:
        """Seconds between moves while playing, from 0.1 to 2."""
        return self._delay

    @delay.setter
    def delay(self, seconds: float) -> None:
        self._delay = max(MIN_DELAY, min(MAX_DELAY, float(seconds)))
        if self.is_mounted:
            self._show_status()

    def go_to(self, position: int) -> None:
        """Show the game after ``position`` moves (clamped to 0..total)."""
        self.replay.go_to(position)

    def show(self, change: Change) -> None:
        """The one place the position shown changes: the board, the scores, the log's cursor (on
        the latest move shown, on none at the start), the status and the review's verdict."""
        state = change.state
        board = self.board
        board.state = state
        last = state.last_move
        if last is not None:  # keeps the latest move in view (a replay board draws no cursor)
            board.cursor = (last.row, last.col)
        self.view.scoreboard.state = state
        self.view.move_log.move_cursor(self.position - 1)
        self._show_status()
        board.best = self.panel.show_move(self.position)

    def _show_status(self) -> None:
        self.query_one(ReplayStatus).say(self.playing, self.position, self.total, self._delay)

    def may(self, action: str) -> bool | None:
        """Playing and reviewing a game without moves, or reviewing a reviewed one: not now."""
        if action == "play_pause":
            return bool(self.total) or None
        if action == "review":
            return self.reviewing or not self.panel.done or None
        return super().may(action)

    def on_board_letter_changed(self, event: Board.LetterChanged) -> None:
        event.stop()  # this board only shows; the live game's letter is not its business

    # -- the log, the chart and the key moments move the replay ------------------------------
    @on(MoveLog.Highlighted)
    @on(MoveLog.Selected)
    def _log_moved(self, event: MoveLog.Highlighted) -> None:
        event.stop()
        self._jump(event.row)

    @on(Jump)
    def _jumped(self, event: Jump) -> None:
        event.stop()
        self._jump(event.index)

    def _jump(self, index: int) -> None:
        """Pause, and show the game after move ``index`` (0-based)."""
        self._pause()
        self.go_to(index + 1)

    # -- actions ----------------------------------------------------------------------------
    def action_step(self, delta: int) -> None:
        self._pause()
        self.replay.step(delta)

    def action_first(self) -> None:
        self._pause()
        self.replay.first()

    def action_last(self) -> None:
        self._pause()
        self.replay.last()

    def action_play_pause(self) -> None:
        if self.playing:
            self._pause()
            return
        if not self.total:
            self.notify(_("This game has no moves to play."), timeout=2)
            return
        if self.position >= self.total:
            self.replay.first()  # at the end: play the game again from the start
        self.playing = True
        self._schedule()
        self._show_status()

    def action_speed(self, direction: int) -> None:
        """``+1`` faster (a shorter delay), ``-1`` slower."""
        delay = self._delay
        if direction > 0:
            self.delay = max((d for d in DELAYS if d < delay - 1e-9), default=MIN_DELAY)
        else:
            self.delay = min((d for d in DELAYS if d > delay + 1e-9), default=MAX_DELAY)

    def action_play_from_here(self) -> None:
        if self.replay.state.is_over:
            self.notify(_("The game is over at this move: step back (←) to play on from earlier."),
                        title=_("Nothing to play"), severity="warning", timeout=3)
            return
        self._pause()
        self.dismiss(self.replay.from_here())

    def action_export(self) -> None:
        try:
            path = export_transcript(self.record)
        except (StorageError, OSError) as error:
            reason = shown(explain(error), 300)
            self.notify(_("Could not write the transcript: {error}").format(error=reason),
                        title=_("Export failed"), severity="error", markup=False)
            return
        self.notify(shown(path, 300), title=_("Transcript saved"), timeout=5, markup=False)

    def action_back(self) -> None:
        self._pause()
        self.dismiss(None)

    # -- the review -------------------------------------------------------------------------
    def action_review(self) -> None:
        """Start the review (filled in move by move), or stop one under way."""
        panel = self.panel
        if panel.reviewing:
            panel.stop()
            self.notify(_("Review stopped."), timeout=2)
        elif not self.total:
            self.notify(_("This game has no moves to review."), timeout=2)
        elif panel.done:
            self.notify(_("This game is reviewed: step through it to see each move."), timeout=2)
        elif self.pool.busy:
            self.notify(_("The computer is busy with a move: try again in a moment."), timeout=3)
        else:
            panel.start(self.pool)
        self.refresh_bindings()

    @property
    def pool(self):
        """The app's computer process pool (the review runs there, one move at a time)."""
        pool = getattr(self.app, "computer", None)
        if pool is None:
            from sos_tui.session import ComputerPool

            pool = self._own_pool = self._own_pool or ComputerPool()
        return pool

    def on_review_panel_reviewed(self, event: ReviewPanel.Reviewed) -> None:
        event.stop()
        self.view.move_log.set_mark(event.verdict.index, event.verdict.mark)
        if event.verdict.index == self.position - 1:
            self.board.best = self.panel.show_move(self.position)
        if self.panel.done:
            self.refresh_bindings()

    # -- playing ----------------------------------------------------------------------------
    def _schedule(self) -> None:
        self._timer = self.set_timer(self._delay, self._tick)

    def _tick(self) -> None:
        self._timer = None
        if not self.playing:
            return
        self.replay.step(1)
        if self.position >= self.total:
            self._pause()
        else:
            self._schedule()

    def _pause(self) -> None:
        """Stop playing (the status says so)."""
        self.playing = False
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if self.is_mounted and self.query(ReplayStatus):
            self._show_status()
