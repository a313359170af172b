"""Replay a recorded game move by move: step, jump, animate, export, play on from any point, or
review it: every move's mark and loss, the best move on the board, an advantage chart and the
key moments, filled in move by move by the computer's process."""

from __future__ import annotations

import asyncio

from rich.cells import cell_len
from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Label, OptionList, ProgressBar, Sparkline
from textual.widgets.option_list import Option

from sos_tui.ai.review import (
    BEST,
    BLUNDER,
    INACCURACY,
    MISTAKE,
    MoveReview,
    ReviewBudget,
    key_moments,
    review_move,
)
from sos_tui.engine import GameRecord, GameState, Mode
from sos_tui.i18n import N_, _, explain, mode_name, ngettext
from sos_tui.session import GameSession
from sos_tui.storage import StorageError, export_transcript

from ..language import SosScreen
from ..text import literal, result_shown, shown
from ..widgets.board import Board
from ..widgets.footer import KeyFooter
from ..widgets.game_view import GameView
from ..widgets.move_log import MoveLog

MIN_DELAY, MAX_DELAY = 0.1, 2.0
DELAYS = (0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0)
DEFAULT_DELAY = 0.5

JUDGEMENTS = {BEST: N_("best"), INACCURACY: N_("inaccuracy"), MISTAKE: N_("mistake"), BLUNDER: N_("blunder")}
"""The review's marks as the screen names them (``!`` best ... ``??`` blunder)."""


def verdict_words(verdict: MoveReview) -> str:
    """``"! best"``, ``"? mistake: loses 2 points, best O c3"``; ``~`` before an estimated loss."""
    judgement = f"{verdict.mark} {_(JUDGEMENTS[verdict.judgement])}"
    if not verdict.points:
        return judgement
    loss = f"{'' if verdict.exact else '~'}{verdict.points}"
    if verdict.mode is Mode.GENERAL:
        words = ngettext("{judgement}: loses {n} point, best {best}",
                         "{judgement}: loses {n} points, best {best}", verdict.points)
    else:
        words = ngettext("{judgement}: loses {n} result step, best {best}",
                         "{judgement}: loses {n} result steps, best {best}", verdict.points)
    return words.format(judgement=judgement, n=loss, best=verdict.best)


class AdvantageChart(Sparkline):
    """The first player's advantage after each move (higher: better for the first player);
    a click posts ``Jump`` with the move under the mouse."""

    class Jump(Message):
        def __init__(self, index: int) -> None:
            self.index = index
            super().__init__()

    moves = 0

    def on_click(self, event: events.Click) -> None:
        width = self.content_region.width or 1
        offset = event.get_content_offset(self)
        if self.moves and offset is not None:
            self.post_message(self.Jump(min(self.moves - 1, max(0, offset.x * self.moves // width))))


class ReplayScreen(SosScreen[GameRecord | None]):
    """Shows ``record`` after ``start_at`` moves (default: all of them).

    Dismisses with the game cut after the current move when the player asks to play on from
    here, and with None when closed.
    """

    DEFAULT_CSS = """
    ReplayScreen #replay-title {
        width: 1fr;
        height: 1;
        text-wrap: nowrap;
        text-overflow: ellipsis;
        content-align: center middle;
        text-style: bold;
        background: $panel;
        color: $text;
    }
    ReplayScreen #board { border: round $frame; border-title-color: $foreground-muted; }
    ReplayScreen #replay-status {
        width: 1fr;
        height: 1;
        padding: 0 1;
        background: $panel;
        color: $foreground-muted;
    }
    ReplayScreen #replay-status.-playing { color: $text-success; }
    ReplayScreen #review-panel {
        height: 2fr;
        overflow-y: auto;
        border: round $frame;
        border-title-color: $text;
        border-subtitle-color: $foreground-muted;
        display: none;
    }
    ReplayScreen.-reviewed #review-panel { display: block; }
    ReplayScreen #log { min-height: 4; }
    ReplayScreen #review-progress { width: 1fr; display: none; }
    ReplayScreen.-reviewing #review-progress { display: block; }
    ReplayScreen #review-progress Bar { width: 1fr; }
    ReplayScreen #review-progress Bar > .bar--bar { color: $bar-progress; }
    ReplayScreen #review-progress Bar > .bar--complete { color: $bar-complete; }
    AdvantageChart > .sparkline--max-color { color: $chart-max; }
    AdvantageChart > .sparkline--min-color { color: $chart-min; }
    ReplayScreen #review-verdict { width: 1fr; height: auto; }
    ReplayScreen #review-chart { height: 3; width: 1fr; }
    ReplayScreen.-short #review-chart { height: 2; }
    ReplayScreen #review-cursor { width: 1fr; height: 1; color: $foreground-muted; }
    ReplayScreen #review-moments {
        height: 1fr; min-height: 2; border: none; padding: 0; scrollbar-gutter: stable;
    }
    """
    # The review panel shares the side with the moves: the verdict whole, then the chart (shorter
    # on a short terminal), and the key moments in the room left, scrolled; the panel itself
    # scrolls if even that is too much (a long verdict in a narrow terminal).
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
        self.start_review = review  # start the review on mount (the game-over dialog's Review)
        self.reviews: dict[int, MoveReview] = {}
        self.reviewing = False
        self._own_pool = None  # a pool of its own, on an app without one (tests' host apps)
        states = GameSession(record).timeline
        self.states: tuple[GameState, ...] = states
        """``states[i]`` is the position after ``i`` moves (the session's timeline)."""
        last = len(states) - 1
        self.position = last if start_at is None else max(0, min(last, start_at))
        self.playing = False
        self._delay = DEFAULT_DELAY
        self._timer: Timer | None = None

    # -- layout -----------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Label(self._title(), id="replay-title")
        review = Vertical(
            ProgressBar(id="review-progress", show_eta=False),
            Label("", id="review-verdict", markup=False),
            AdvantageChart([], id="review-chart"),
            Label("", id="review-cursor"),
            OptionList(id="review-moments"),
            id="review-panel", classes="side-panel")
        yield GameView(live=False, side=review)
        yield Label("", id="replay-status")
        yield KeyFooter()

    @property
    def view(self) -> GameView:
        return self.query_one(GameView)

    @property
    def board(self) -> Board:
        return self.view.board

    @property
    def move_log(self) -> MoveLog:
        return self.view.move_log

    def _title(self):
        record = self.record
        # Translators: between the names of the players of a game: "Ana vs Bo vs Computer"
        names = _(" vs ").join(shown(p.name, 24) for p in record.players)
        return literal(_("Replay · {players} · {mode} {size}x{size} · {result}").format(
            players=names, mode=mode_name(record.mode), size=record.size,
            result=result_shown(record, self.states[-1])), 400)

    def _words(self) -> None:
        """The panels' titles in the current language."""
        self.view.words()
        self.query_one("#review-panel").border_title = _("Review")

    def language_changed(self) -> None:
        """Say everything again in the new language; the position, the review and the focus stay."""
        if not self.is_mounted:
            return
        self.query_one("#replay-title", Label).update(self._title())
        self._words()
        self._show_status()
        if self.reviews or self.reviewing:
            self._show_review()
        else:
            self._show_verdict()
        self.refresh_bindings()

    def on_mount(self) -> None:
        self._words()
        self.view.seats = self.record.players
        self.move_log.show(self.states[-1], self.record.players)
        self.move_log.focus()
        self._show()
        if self.start_review:
            self.call_after_refresh(self.action_review)

    def on_unmount(self) -> None:
        self._stop_timer()
        self.stop_review()
        if self._own_pool is not None:
            self._own_pool.shutdown()

    # -- the position -----------------------------------------------------------------------
    @property
    def total(self) -> int:
        return len(self.states) - 1

    @property
    def state(self) -> GameState:
        return self.states[self.position]

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
        self.position = max(0, min(self.total, position))
        self._show()

    def _show(self) -> None:
        state = self.state
        board = self.board
        board.state = state
        last = state.last_move
        if last is not None:  # keeps the latest move in view (a replay board draws no cursor)
            board.cursor = (last.row, last.col)
        self.view.scoreboard.state = state
        self._sync_log()
        self._show_status()
        self._show_verdict()

    def _sync_log(self) -> None:
        """Put the log's cursor on the latest move shown (on none at the start)."""
        self.move_log.move_cursor(self.position - 1)

    def _show_status(self) -> None:
        if self.position == 0:
            where = _("move {n} of {total} (start)").format(n=self.position, total=self.total)
        else:
            where = _("move {n} of {total}").format(n=self.position, total=self.total)
        mode = "▶ " + _("playing") if self.playing else _("paused")
        speed = _("{seconds} s per move (+/- to change)").format(seconds=f"{self._delay:g}")
        status = self.query_one("#replay-status", Label)
        status.update(literal(f"{mode} · {where} · {speed} · " + _("home/end: start/end")))
        status.set_class(self.playing, "-playing")

    def on_board_letter_changed(self, event: Board.LetterChanged) -> None:
        event.stop()  # this board only shows; the live game's letter is not its business

    # -- the move log -----------------------------------------------------------------------
    @on(MoveLog.Highlighted)
    @on(MoveLog.Selected)
    def _log_moved(self, event: MoveLog.Highlighted) -> None:
        event.stop()
        self._pause()
        self.go_to(event.row + 1)

    # -- actions ----------------------------------------------------------------------------
    def action_step(self, delta: int) -> None:
        self._pause()
        self.go_to(self.position + delta)

    def action_first(self) -> None:
        self._pause()
        self.go_to(0)

    def action_last(self) -> None:
        self._pause()
        self.go_to(self.total)

    def action_play_pause(self) -> None:
        if self.playing:
            self._pause()
            self._show_status()
            return
        if not self.total:
            self.notify(_("This game has no moves to play."), timeout=2)
            return
        if self.position >= self.total:
            self.go_to(0)  # at the end: play the game again from the start
        self.playing = True
        self._schedule()
        self._show_status()

    def action_speed(self, direction: int) -> None:
        """``+1`` faster (a shorter delay), ``-1`` slower."""
        delay = self._delay
        if direction > 0:
            shorter = [d for d in DELAYS if d < delay - 1e-9]
            self.delay = shorter[-1] if shorter else MIN_DELAY
        else:
            longer = [d for d in DELAYS if d > delay + 1e-9]
            self.delay = longer[0] if longer else MAX_DELAY

    def action_play_from_here(self) -> None:
        state = self.state
        if state.is_over:
            self.notify(_("The game is over at this move: step back (←) to play on from earlier."),
                        title=_("Nothing to play"), severity="warning", timeout=3)
            return
        record = self.record
        self._pause()
        self.dismiss(GameRecord(record.size, record.mode, record.players, record.moves[: self.position]))

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
        if self.reviewing:
            self.stop_review()
            self.notify(_("Review stopped."), timeout=2)
            return
        if not self.total:
            self.notify(_("This game has no moves to review."), timeout=2)
            return
        if len(self.reviews) == self.total:
            self.notify(_("This game is reviewed: step through it to see each move."), timeout=2)
            return
        pool = self.pool
        if pool.busy:
            self.notify(_("The computer is busy with a move: try again in a moment."), timeout=3)
            return
        self.add_class("-reviewed")
        self.reviewing = True
        self._run_review()

    @property
    def pool(self):
        """The app's computer process pool (the review runs there, one move at a time)."""
        pool = getattr(self.app, "computer", None)
        if pool is None:
            from sos_tui.session import ComputerPool

            pool = self._own_pool = self._own_pool or ComputerPool()
        return pool

    def stop_review(self) -> None:
        """Cancel the review: its worker, and the computer's process (terminated)."""
        if self.reviewing:
            self.reviewing = False
            self.workers.cancel_group(self, "review")  # its search stops with its process
            if self.is_open:
                self._show_progress()

    @work(exclusive=True, group="review")
    async def _run_review(self) -> None:
        from sos_tui.session import ComputerFailed

        pool, budget = self.pool, ReviewBudget()
        final = self.states[-1]
        try:
            for index in range(self.total):
                if index in self.reviews:
                    continue
                self._show_progress()
                verdict = await pool.run(review_move, final, index, budget)
                self.reviews[index] = verdict
                self.move_log.set_mark(index, verdict.mark)
                self._show_review()
        except asyncio.CancelledError:
            raise
        except ComputerFailed as error:
            self.notify(_("The review stopped: {error}").format(error=explain(error)), severity="error",
                        markup=False)
        finally:
            self.reviewing = False
            if self.is_open:
                self._show_progress()

    def _show_progress(self) -> None:
        self.set_class(self.reviewing, "-reviewing")  # the progress bar: only while it runs
        bars = self.query("#review-progress").results(ProgressBar)
        bar = next(bars, None)
        if bar is None:  # the screen is being taken down (the app quits during a review)
            return
        bar.update(total=self.total, progress=len(self.reviews))
        panel = self.query_one("#review-panel")
        done = len(self.reviews)
        if self.reviewing:
            words = _("reviewing {done}/{total} · v: stop")
        elif done == self.total:
            words = _("done {done}/{total}")
        else:
            words = _("stopped {done}/{total} · v: review")
        panel.border_subtitle = words.format(done=done, total=self.total)

    def _show_review(self) -> None:
        self._show_progress()
        chart = self.query_one(AdvantageChart)
        values, last = [], 0.0
        for index in range(self.total):
            if index in self.reviews:
                last = self.reviews[index].advantage
            values.append(last)
        chart.moves = self.total
        chart.data = values
        moments = self.query_one("#review-moments", OptionList)
        names = self.record.players
        moments.clear_options()
        for verdict in key_moments(self.reviews.values()):
            name = shown(names[verdict.player].name, 12)
            text = Text(f"{verdict.index + 1}. {name} {verdict.move} {verdict_words(verdict)}")
            moments.add_option(Option(text, id=str(verdict.index)))
        self._show_verdict()

    def _show_verdict(self) -> None:
        """The verdict on the last move shown, its best move drawn on the board, the chart's cursor."""
        if not self.is_open:
            return
        verdict = self.reviews.get(self.position - 1)
        label = self.query_one("#review-verdict", Label)
        board = self.board
        if verdict is None:
            board.best = None
            label.update("" if self.position else _("The start: step on (→) to see each move."))
        else:
            name = shown(self.record.players[verdict.player].name, 16)
            on_board = (f"[{verdict.best.letter}]" if (verdict.best.row, verdict.best.col) != (
                verdict.move.row, verdict.move.col) else f"{verdict.move.letter}→{verdict.best.letter}")
            best = "" if verdict.best == verdict.move else "  " + _("({letters} on the board)").format(
                letters=on_board)
            label.update(f"{verdict.index + 1}. {name}: {verdict.move}  {verdict_words(verdict)}{best}"
                         + ("" if verdict.exact else "  " + _("(estimate)")))
            board.best = None if verdict.best == verdict.move else verdict.best
        chart = self.query_one(AdvantageChart)
        width = chart.content_region.width or 1
        cursor = self.query_one("#review-cursor", Label)
        if self.total and self.position:
            x = min(width - 1, (self.position - 1) * width // self.total)
            words = _("move {n}").format(n=self.position)
            if x + 2 + cell_len(words) <= width:
                cursor.update(" " * x + "▲ " + words)
            else:  # near the right end: the words before the mark, so that they show whole
                cursor.update(" " * max(0, x - 1 - cell_len(words)) + words + " ▲")
        else:
            cursor.update("")

    @on(AdvantageChart.Jump)
    def _chart_jump(self, event: AdvantageChart.Jump) -> None:
        event.stop()
        self._pause()
        self.go_to(event.index + 1)

    @on(OptionList.OptionSelected, "#review-moments")
    def _moment_chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._pause()
        self.go_to(int(event.option.id) + 1)

    # -- playing ----------------------------------------------------------------------------
    def _schedule(self) -> None:
        self._stop_timer()
        self._timer = self.set_timer(self._delay, self._tick)

    def _tick(self) -> None:
        self._timer = None
        if not self.playing:
            return
        self.go_to(self.position + 1)
        if self.position >= self.total:
            self.playing = False
            self._show_status()
        else:
            self._schedule()

    def _pause(self) -> None:
        self.playing = False
        self._stop_timer()

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
