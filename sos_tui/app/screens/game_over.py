"""The end of a game: the result, the final scores and what to do next."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Button, Label

from sos_tui.engine import GameState, PlayerInfo, ending_text
from sos_tui.i18n import N_, _

from ..language import SosModal
from ..text import names_list, shown
from ..widgets.board import MARKS, MAX_PLAYER_STYLES
from ..widgets.buttons import ButtonRow
from ..widgets.scoreboard import OUT, seat_label


def result_line(state: GameState, seats: tuple[PlayerInfo, ...]) -> str:
    """``"Ana wins!"`` or who drew, in the player's language, with the names escaped and shortened
    (shown as plain text)."""
    if not state.outcome.has_result:
        return _("Game aborted: no result.")
    if state.is_draw:
        names = [shown(seats[p].name) for p in state.winners]
        if len(names) == len(seats):
            if state.scores[0] == 0:
                return _("A draw!")
            return _("A draw at {score} each!").format(score=state.scores[0])
        return _("A draw between {names}!").format(names=names_list(names))
    return _("{name} wins!").format(name=seat_label(seats[state.winners[0]]))


class GameOverScreen(SosModal[str]):
    """Dismisses with "rematch", "new", "quit", "review" (the replay with the game's review
    running) or "board" (close and look at the board).

    Its keys are the game screen's own for the same things (ctrl+r, ctrl+n, ctrl+q), so no key
    means one thing on the board and another here: a redo (r) pressed once too often cannot
    start a rematch. The focused button is the harmless one, "Board".
    """

    AUTO_FOCUS = "#board"

    BINDINGS = [
        Binding("escape", "choose('board')", N_("Back to the board")),
        Binding("ctrl+r", "choose('rematch')", N_("Rematch"), priority=True),
        Binding("ctrl+n", "choose('new')", N_("New game"), priority=True),
        Binding("ctrl+q", "choose('quit')", N_("Quit"), priority=True),
        Binding("v", "choose('review')", N_("Review")),
    ]

    def __init__(self, state: GameState, seats: tuple[PlayerInfo, ...], ratings=()) -> None:
        super().__init__()
        self.state, self.seats = state, seats
        self.ratings = ratings  # each seat's new rating after a rated network game (``SeatRating``), or ()

    def compose_dialog(self) -> ComposeResult:
        state = self.state
        places = state.outcome.places  # the seats that dropped out last; () for an aborted game
        ranking = sorted(range(len(self.seats)), key=lambda p: (places[p] if places else 0, -state.scores[p]))
        how = ending_text(state, [shown(seat.name) for seat in self.seats], _)
        with Vertical(id="dialog"):
            yield Label(_("Game over"), id="title")
            how = how if state.outcome.has_result else ""  # "aborted" is the result line already
            yield Label(result_line(state, self.seats), id="result", classes="-ending" if how else "",
                        markup=False)
            if how:
                yield Label(how, id="ending", markup=False)
            for p in ranking:
                out = f" {OUT}" if state.is_out(p) else ""
                if self.ratings and self.ratings[p] is not None:
                    out += "  " + _("rating {rating}").format(rating=self.ratings[p].text)
                yield Label(f"{MARKS[p % len(MARKS)]} {seat_label(self.seats[p])}: {state.scores[p]}{out}",
                            classes=f"score player-{p % MAX_PLAYER_STYLES + 1}", markup=False)
            with ButtonRow(id="buttons"):
                yield Button(_("Rematch"), id="rematch", variant="primary")
                yield Button(_("New"), id="new")
                yield Button(_("Review"), id="review")
                yield Button(_("Board"), id="board")
            yield Label(_("^r rematch · ^n new · v review · esc board"), id="keys")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id)

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)
