"""Puzzles: find the only move, the solver answers, on to the end of the line. The board is the
game's board; each move is checked off the UI thread (the exact solver is pure Python)."""

from __future__ import annotations

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Label, Static

from sos_tui.ai.puzzles import after, bundled, next_unsolved
from sos_tui.engine import Move, Seat
from sos_tui.engine.text import RuleError
from sos_tui.i18n import N_, _, explain, mode_name
from sos_tui.session.puzzle import PuzzleRun, Step, ask, outcome, said, streak
from sos_tui.storage import StorageError
from sos_tui.storage.puzzle_score import load_score, save_score

from ..language import SosScreen
from ..text import literal
from ..widgets.board import Board
from ..widgets.footer import KeyFooter
from ..widgets.game_view import GameView


class PuzzleScreen(SosScreen[None]):
    """Plays the bundled puzzles from ``puzzle_id`` (0: the first not solved yet)."""

    DEFAULT_CSS = """
    PuzzleScreen #puzzle-title {
        width: 1fr; height: 1; text-wrap: nowrap; text-overflow: ellipsis;
        content-align: center middle; text-style: bold; background: $panel; color: $text;
    }
    PuzzleScreen #board { border: round $frame; border-title-color: $foreground-muted; }
    PuzzleScreen #puzzle-panel { height: 1fr; min-height: 6; border: round $frame; }
    PuzzleScreen #log { max-height: 6; }
    """

    BINDINGS = [
        Binding("H", "hint", N_("Hint"), key_display="H"),
        Binding("n", "next", N_("Next puzzle"), key_display="n"),
        Binding("escape", "back", N_("Close")),
    ]

    def __init__(self, puzzle_id: int = 0, *, mouse: bool = True) -> None:
        super().__init__()
        self.score, problem = load_score()
        self.notes = [str(problem)] if problem is not None else []
        puzzles = bundled()
        puzzle = (
            puzzles[puzzle_id - 1] if 1 <= puzzle_id <= len(puzzles) else next_unsolved(self.score.solved)
        )
        self.run = PuzzleRun(puzzle)
        self.mouse = mouse
        self.busy = False
        self.said: list[str] = []

    def compose(self) -> ComposeResult:
        yield Label(self._title(), id="puzzle-title")
        panel = VerticalScroll(
            Static(id="puzzle-text", markup=False), id="puzzle-panel", classes="side-panel"
        )
        yield GameView(live=True, mouse=self.mouse, side=panel)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.show()
        self.query_one(GameView).board.focus()
        for note in self.notes:
            self.notify(note, severity="warning", timeout=8, markup=False)

    def _title(self):
        puzzle = self.run.puzzle
        return literal(
            _("Puzzle {id} of {total} · {mode} {size}x{size} · difficulty {difficulty}").format(
                id=puzzle.id,
                total=len(bundled()),
                mode=mode_name(puzzle.mode),
                size=puzzle.size,
                difficulty=puzzle.difficulty,
            ),
            200,
        )

    @property
    def text(self) -> str:
        """What the panel says now."""
        return "\n".join([*(self.said or [ask(self.run)]), streak(self.score)])

    def show(self) -> None:
        """Draw the puzzle as it stands (again after a switch of language)."""
        view = self.query_one(GameView)
        view.seats = tuple(Seat(_("Player {number}").format(number=n)) for n in (1, 2))
        self.query_one("#puzzle-panel").border_title = _("Puzzle")
        view.state = self.run.state
        view.thinking = self.busy
        view.board.interactive = not self.run.solved
        self.query_one("#puzzle-title", Label).update(self._title())
        self.query_one("#puzzle-text", Static).update(self.text)

    def language_changed(self) -> None:
        super().language_changed()
        self.call_later(self.show)

    # -- the player's moves ------------------------------------------------------------------
    @on(Board.CellChosen)
    def _chosen(self, event: Board.CellChosen) -> None:
        event.stop()
        if self.busy or self.run.solved:
            return
        self.busy = True
        self.query_one(GameView).board.hint = None
        self.said = [_("Thinking…")]
        self.show()
        self._check(Move(event.row, event.col, event.letter))

    @work(thread=True, exclusive=True, group="puzzle")
    def _check(self, move: Move) -> None:
        try:
            step: Step | str = self.run.play(move)
        except RuleError as error:
            step = explain(error)
        self.app.call_from_thread(self._checked, step)

    def _checked(self, step: Step | str) -> None:
        if not self.is_open:
            return
        self.busy = False
        if isinstance(step, str):
            self.said = [step]
        else:
            self.said = outcome(step, self.run.puzzle.mode)
            if step.solved:
                self._finished()
        self.show()

    def _finished(self) -> None:
        self.score.record(self.run.puzzle.id, self.run.clean)
        try:
            save_score(self.score)
        except StorageError as error:
            self.notify(str(error), title=_("Not saved"), severity="error", timeout=8, markup=False)
        self.said.append(_("Press n for the next puzzle."))

    # -- the keys ----------------------------------------------------------------------------
    def action_hint(self) -> None:
        if self.busy or self.run.solved:
            return
        move = self.run.hint()
        self.query_one(GameView).board.hint = move
        self.said = [_("Hint: {move}.").format(move=said(move))]
        self.show()

    def action_next(self) -> None:
        if self.busy:
            return
        self.run = PuzzleRun(after(self.run.puzzle))
        self.said = []
        self.query_one(GameView).board.hint = None
        self.show()

    def action_back(self) -> None:
        if self.app.puzzles_only:
            self.app.exit()  # started as `sos-tui puzzle`
        else:
            self.dismiss(None)
