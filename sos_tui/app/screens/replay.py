"""Replay a recorded game move by move: step, jump, animate, export, or play on from any point."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container, Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Label

from sos_tui.engine import GameRecord, GameState
from sos_tui.storage import StorageError, export_transcript

from ..text import literal, result_shown, shown
from ..widgets.board import Board
from ..widgets.move_log import MoveLog
from ..widgets.scoreboard import Scoreboard

MIN_DELAY, MAX_DELAY = 0.1, 2.0
DELAYS = (0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0)
DEFAULT_DELAY = 0.5


class ReplayBoard(Board, can_focus=False):
    """A board that only shows: no focus, so the replay keys reach the screen."""


class ReplayScreen(Screen[GameRecord | None]):
    """Shows ``record`` after ``start_at`` moves (default: all of them).

    Dismisses with the game cut after the current move when the player asks to play on from
    here, and with None when closed.
    """

    DEFAULT_CSS = """
    ReplayScreen #replay-title {
        width: 1fr;
        content-align: center middle;
        text-style: bold;
        background: $panel;
        color: $text;
    }
    ReplayScreen #replay-main { height: 1fr; }
    ReplayScreen #replay-board-area { width: 1fr; height: 1fr; align: center middle; }
    ReplayScreen #replay-board {
        width: auto;
        height: auto;
        max-width: 100%;
        max-height: 100%;
        border: round $accent 60%;
        border-title-color: $text-muted;
        background: $surface;
        scrollbar-size: 1 1;
    }
    ReplayScreen #replay-side { width: 36; height: 1fr; }
    ReplayScreen #replay-scoreboard { height: auto; border: round $secondary 50%; padding: 0 1; }
    ReplayScreen #replay-side > * { border-title-color: $text-muted; }
    ReplayScreen #replay-log { height: 1fr; border: round $secondary 50%; }
    ReplayScreen #replay-log:focus { border: round $secondary; }
    ReplayScreen #replay-status {
        width: 1fr;
        height: 1;
        padding: 0 1;
        background: $panel;
        color: $text-muted;
    }
    ReplayScreen #replay-status.-playing { color: $success; }
    """

    BINDINGS = [
        Binding("left", "step(-1)", "Previous", key_display="←", priority=True),
        Binding("right", "step(1)", "Next", key_display="→", priority=True),
        Binding("home", "first", "Start", show=False, priority=True),
        Binding("end", "last", "End", show=False, priority=True),
        Binding("space", "play_pause", "Play/Pause", key_display="␣", priority=True),
        Binding("plus,equals_sign", "speed(1)", "Faster", key_display="+", show=False, priority=True),
        Binding("minus", "speed(-1)", "Slower", key_display="-", show=False, priority=True),
        Binding("f", "play_from_here", "Play from here"),
        Binding("x", "export", "Export transcript"),
        Binding("escape", "back", "Close"),
    ]

    def __init__(self, record: GameRecord, start_at: int | None = None) -> None:
        super().__init__()
        self.record = record
        states = [GameState.new(record.size, record.mode, len(record.players))]
        for move in record.moves:
            states.append(states[-1].play(move))
        self.states: list[GameState] = states
        """``states[i]`` is the position after ``i`` moves."""
        last = len(states) - 1
        self.position = last if start_at is None else max(0, min(last, start_at))
        self.playing = False
        self._delay = DEFAULT_DELAY
        self._timer: Timer | None = None

    # -- layout -----------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        record = self.record
        names = " vs ".join(shown(p.name, 24) for p in record.players)
        result = result_shown(record, self.states[-1])
        yield Label(literal(f"Replay · {names} · {record.mode.value} {record.size}x{record.size} · {result}",
                            400), id="replay-title")
        with Horizontal(id="replay-main"):
            with Container(id="replay-board-area"):
                yield ReplayBoard(id="replay-board", mouse=False)
            with Vertical(id="replay-side"):
                yield Scoreboard(id="replay-scoreboard")
                yield MoveLog(id="replay-log")
        yield Label("", id="replay-status")
        yield Footer()

    @property
    def board(self) -> Board:
        return self.query_one("#replay-board", Board)

    @property
    def move_log(self) -> MoveLog:
        return self.query_one("#replay-log", MoveLog)

    def on_mount(self) -> None:
        self.query_one("#replay-scoreboard").border_title = "Players"
        self.move_log.border_title = "Moves"
        board = self.board
        board.interactive = False
        scoreboard = self.query_one(Scoreboard)
        scoreboard.live = False
        scoreboard.seats = self.record.players
        self.move_log.show(self.states[-1], self.record.players)
        self.move_log.focus()
        self._show()

    def on_unmount(self) -> None:
        self._stop_timer()

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
        self.query_one(Scoreboard).state = state
        self._sync_log()
        self._show_status()

    def _sync_log(self) -> None:
        """Put the log's cursor on the latest move shown (on none at the start)."""
        self.move_log.move_cursor(self.position - 1)

    def _show_status(self) -> None:
        where = f"move {self.position} of {self.total}" + (" (start)" if self.position == 0 else "")
        mode = "▶ playing" if self.playing else "paused"
        status = self.query_one("#replay-status", Label)
        status.update(f"{mode} · {where} · {self._delay:g} s per move (+/- to change) · "
                      "home/end: start/end")
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
            self.notify("This game has no moves to play.", timeout=2)
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
            self.notify("The game is over at this move: step back (←) to play on from earlier.",
                        title="Nothing to play", severity="warning", timeout=3)
            return
        record = self.record
        self._pause()
        self.dismiss(GameRecord(record.size, record.mode, record.players, record.moves[: self.position]))

    def action_export(self) -> None:
        try:
            path = export_transcript(self.record)
        except (StorageError, OSError) as error:
            self.notify(f"Could not write the transcript: {shown(error, 300)}", title="Export failed",
                        severity="error", markup=False)
            return
        self.notify(shown(path, 300), title="Transcript saved", timeout=5, markup=False)

    def action_back(self) -> None:
        self._pause()
        self.dismiss(None)

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
