"""The replay's review panel: the verdict on the move shown, the advantage chart with a cursor
under the move shown, and the key moments; a progress bar while the computer's process fills the
review in, move by move.

Attributes down, messages up: the screen says which move is shown (``show_move``); the panel
posts ``Reviewed`` as each verdict comes in and ``Jump`` when the player clicks the chart or
chooses a key moment."""

from __future__ import annotations

import asyncio

from rich.cells import cell_len
from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Label, OptionList, ProgressBar, Sparkline
from textual.widgets.option_list import Option

from sos_tui.ai.review import (
    BEST,
    BLUNDER,
    INACCURACY,
    MISTAKE,
    Accuracy,
    MoveReview,
    ReviewBudget,
    accuracies,
    key_moments,
    loss_words,
    review_move,
)
from sos_tui.engine import GameState, Move, PlayerInfo
from sos_tui.i18n import N_, _, explain

from ..text import shown

JUDGEMENTS = {BEST: N_("best"), INACCURACY: N_("inaccuracy"), MISTAKE: N_("mistake"), BLUNDER: N_("blunder")}
"""The review's marks as the screen names them (``!`` best ... ``??`` blunder)."""


def verdict_words(verdict: MoveReview) -> str:
    """``"! best"``, ``"? mistake: loses 2 in margin, best O c3"``; ``~`` before an estimated
    loss; an estimate within its noise is no mark but ``unclear``."""
    if not verdict.points:
        return f"{verdict.mark} {_(JUDGEMENTS[verdict.judgement])}"
    if verdict.judgement == BEST:
        return _("unclear (estimate): {loss}, best {best}?").format(loss=loss_words(verdict),
                                                                    best=verdict.best)
    judgement = f"{verdict.mark} {_(JUDGEMENTS[verdict.judgement])}"
    return _("{judgement}: {loss}, best {best}").format(judgement=judgement, loss=loss_words(verdict),
                                                        best=verdict.best)


def accuracy_short(name: str, accuracy: Accuracy) -> str:
    """``Ana 83% (1 ?!, 1 ??)``: the percentage and the marks given (``~`` when estimated)."""
    marks = [f"{n} {mark}" for n, mark in ((accuracy.inaccuracies, "?!"), (accuracy.mistakes, "?"),
                                           (accuracy.blunders, "??")) if n]
    percent = f"{'' if accuracy.exact else '~'}{accuracy.percent:.0f}%"
    return f"{name} {percent}" + (f" ({', '.join(marks)})" if marks else "")


class Jump(Message):
    """Show the game after move ``index`` (0-based): the player clicked the chart or chose a moment."""

    def __init__(self, index: int) -> None:
        self.index = index
        super().__init__()


class AdvantageChart(Sparkline):
    """The first player's advantage after each move (higher: better for the first player);
    a click posts ``Jump`` with the move under the mouse."""

    Jump = Jump
    moves = 0

    def on_click(self, event: events.Click) -> None:
        width = self.content_region.width or 1
        offset = event.get_content_offset(self)
        if self.moves and offset is not None:
            self.post_message(self.Jump(min(self.moves - 1, max(0, offset.x * self.moves // width))))


class ReviewPanel(Vertical):
    """The review of the game ending in ``final``, played by ``players``: hidden until a review
    starts (``start``)."""

    DEFAULT_CSS = """
    ReviewPanel {
        height: 2fr;
        overflow-y: auto;
        border: round $frame;
        border-title-color: $text;
        border-subtitle-color: $foreground-muted;
        display: none;
    }
    ReviewPanel.-reviewed { display: block; }
    ReviewPanel #review-progress { width: 1fr; display: none; }
    ReviewPanel.-reviewing #review-progress { display: block; }
    ReviewPanel #review-progress Bar { width: 1fr; }
    ReviewPanel #review-progress Bar > .bar--bar { color: $bar-progress; }
    ReviewPanel #review-progress Bar > .bar--complete { color: $bar-complete; }
    AdvantageChart > .sparkline--max-color { color: $chart-max; }
    AdvantageChart > .sparkline--min-color { color: $chart-min; }
    ReviewPanel #review-verdict { width: 1fr; height: auto; }
    ReviewPanel #review-accuracy { width: 1fr; height: auto; color: $foreground-muted; }
    ReviewPanel #review-chart { height: 3; width: 1fr; }
    ReviewPanel #review-cursor { width: 1fr; height: 1; color: $foreground-muted; }
    ReviewPanel #review-moments {
        height: 1fr; min-height: 2; border: none; padding: 0; scrollbar-gutter: stable;
    }
    """
    # The verdict whole, then the chart (shorter on a short terminal: the replay's CSS), and the
    # key moments in the room left, scrolled; the panel itself scrolls if even that is too much
    # (a long verdict in a narrow terminal).

    Jump = Jump

    class Reviewed(Message):
        """The verdict on move ``verdict.index`` came in."""

        def __init__(self, verdict: MoveReview) -> None:
            self.verdict = verdict
            super().__init__()

    def __init__(self, final: GameState, players: tuple[PlayerInfo, ...], **kwargs) -> None:
        super().__init__(**kwargs)
        self.final, self.players = final, players
        self.total = len(final.moves)
        self.reviews: dict[int, MoveReview] = {}
        self.reviewing = False
        self.position = 0

    def compose(self) -> ComposeResult:
        yield ProgressBar(id="review-progress", show_eta=False)
        yield Label("", id="review-verdict", markup=False)
        yield Label("", id="review-accuracy", markup=False)
        yield AdvantageChart([], id="review-chart")
        yield Label("", id="review-cursor")
        yield OptionList(id="review-moments")

    @property
    def done(self) -> bool:
        return len(self.reviews) == self.total

    def words(self) -> None:
        """Every word again (in the current language)."""
        self.border_title = _("Review")
        if self.reviews or self.reviewing:
            self._show_review()
        else:
            self.show_move(self.position)

    # -- running it -------------------------------------------------------------------------
    def start(self, pool) -> None:
        """Review the moves not reviewed yet, one at a time in ``pool``'s process."""
        self.add_class("-reviewed")
        self.reviewing = True
        self._run(pool)

    def stop(self) -> None:
        """Cancel the review: its worker, and the computer's process (terminated)."""
        if self.reviewing:
            self.reviewing = False
            self.workers.cancel_group(self, "review")  # its search stops with its process
            if self.is_attached:
                self._show_progress()

    @work(exclusive=True, group="review")
    async def _run(self, pool) -> None:
        from sos_tui.session import ComputerFailed

        budget = ReviewBudget()
        try:
            for index in range(self.total):
                if index in self.reviews:
                    continue
                self._show_progress()
                verdict = await pool.run(review_move, self.final, index, budget)
                self.reviews[index] = verdict
                self.post_message(self.Reviewed(verdict))
                self._show_review()
        except asyncio.CancelledError:
            raise
        except ComputerFailed as error:
            self.notify(_("The review stopped: {error}").format(error=explain(error)), severity="error",
                        markup=False)
        finally:
            self.reviewing = False
            if self.is_attached:
                self._show_progress()

    # -- showing it -------------------------------------------------------------------------
    def _show_progress(self) -> None:
        self.set_class(self.reviewing, "-reviewing")  # the progress bar: only while it runs
        bar = next(self.query("#review-progress").results(ProgressBar), None)
        if bar is None:  # the screen is being taken down (the app quits during a review)
            return
        done = len(self.reviews)
        bar.update(total=self.total, progress=done)
        if self.reviewing:
            words = _("reviewing {done}/{total} · v: stop")
        elif self.done:
            words = _("done {done}/{total}")
        else:
            words = _("stopped {done}/{total} · v: review")
        self.border_subtitle = words.format(done=done, total=self.total)

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
        found = [a for a in accuracies(self.reviews.values(), len(self.players)) if a.moves]
        self.query_one("#review-accuracy", Label).update(_("Accuracy: {players}").format(
            players="; ".join(accuracy_short(shown(self.players[a.player].name, 16), a) for a in found)))
        moments = self.query_one("#review-moments", OptionList)
        moments.clear_options()
        for verdict in key_moments(self.reviews.values()):
            name = shown(self.players[verdict.player].name, 12)
            text = Text(f"{verdict.index + 1}. {name} {verdict.move} {verdict_words(verdict)}")
            moments.add_option(Option(text, id=str(verdict.index)))
        self.show_move(self.position)

    def show_move(self, position: int) -> Move | None:
        """The verdict on the last of ``position`` moves and the chart's cursor under it; returns
        the better move to draw on the board (None if there is none)."""
        self.position = position
        if not self.is_attached:
            return None
        verdict = self.reviews.get(position - 1)
        label = self.query_one("#review-verdict", Label)
        if verdict is None:
            label.update("" if position else _("The start: step on (→) to see each move."))
        else:
            name = shown(self.players[verdict.player].name, 16)
            on_board = (f"[{verdict.best.letter}]" if (verdict.best.row, verdict.best.col) != (
                verdict.move.row, verdict.move.col) else f"{verdict.move.letter}→{verdict.best.letter}")
            best = "" if verdict.best == verdict.move else "  " + _("({letters} on the board)").format(
                letters=on_board)
            label.update(f"{verdict.index + 1}. {name}: {verdict.move}  {verdict_words(verdict)}{best}"
                         + ("" if verdict.exact else "  " + _("(estimate)")))
        self._show_cursor(position)
        return None if verdict is None or verdict.best == verdict.move else verdict.best

    def _show_cursor(self, position: int) -> None:
        width = self.query_one(AdvantageChart).content_region.width or 1
        cursor = self.query_one("#review-cursor", Label)
        if not (self.total and position):
            cursor.update("")
            return
        x = min(width - 1, (position - 1) * width // self.total)
        words = _("move {n}").format(n=position)
        if x + 2 + cell_len(words) <= width:
            cursor.update(" " * x + "▲ " + words)
        else:  # near the right end: the words before the mark, so that they show whole
            cursor.update(" " * max(0, x - 1 - cell_len(words)) + words + " ▲")

    @on(OptionList.OptionSelected, "#review-moments")
    def _moment_chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(self.Jump(int(event.option.id)))
