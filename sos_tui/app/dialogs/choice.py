"""Questions a network game asks: ``Choice`` (two answers, the safe one first in reach) and
``Standing``, the dialogs that stand only while their cause does."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Button, Static

from sos_tui.i18n import N_

from ..language import SosModal
from ..widgets.buttons import ButtonRow

Words = str | Callable[[], str]
"""A text, or what makes it in the current language (so a dialog says it again after a switch)."""


class Choice(SosModal[bool]):
    """A question with two answers (reconnect or leave; accept or decline an undo). The question
    and the answers may be given as functions that say them in the current language: a language
    switch while the question is open then asks it again in the new language.

    ``safe`` is the answer that loses nothing (stay, decline; continue a kept game rather than
    delete it): the dialog opens with the focus on it, so enter gives it, and so does escape.
    The other answer is given only by moving to it."""

    BINDINGS = [Binding("escape", "answer_safe", N_("Close"))]
    DEFAULT_CSS = """
    Choice { align: center middle; }
    Choice #dialog {
        width: 60; height: auto; border: thick $frame-focus; padding: 1 2; background: $surface;
    }
    Choice #text { width: 100%; height: auto; }
    Choice #buttons { height: auto; margin-top: 1; align: center middle; }
    Choice Button { margin: 0 1; }
    """

    def __init__(self, text: Words, yes: Words, no: Words, safe: bool = False) -> None:
        super().__init__()
        self._words = text, yes, no
        self.safe = safe
        self.AUTO_FOCUS = "#yes" if safe else "#no"

    @property
    def text(self) -> str:
        return _spoken(self._words[0])

    @property
    def yes(self) -> str:
        return _spoken(self._words[1])

    @property
    def no(self) -> str:
        return _spoken(self._words[2])

    def compose_dialog(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.text, id="text", markup=False)
            with ButtonRow(id="buttons"):
                yield Button(self.yes, id="yes", variant="primary" if self.safe else "default")
                yield Button(self.no, id="no", variant="default" if self.safe else "primary")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "yes")

    def action_answer_safe(self) -> None:
        self.dismiss(self.safe)


def _spoken(words: Words) -> str:
    return words() if callable(words) else words


class Standing:
    """The dialogs of a network game that stand only while their cause does: a player gone, a
    question asked, a game over. Each is put up with the test of its cause (``ask``, ``track``);
    ``check`` closes the one in front, unanswered (None), once its cause is gone, so the keys reach
    the board again. It runs after each word from the server and whenever the screen in front
    changes, so a stale dialog under another one closes as it comes to the front."""

    def __init__(self, app) -> None:
        self.app = app
        self._causes: dict[Screen, Callable[[], bool]] = {}

    def ask(self, dialog: Screen, answered: Callable | None, cause: Callable[[], bool]) -> None:
        self.app.push_screen(dialog, answered)
        self.track(dialog, cause)

    def track(self, dialog: Screen, cause: Callable[[], bool]) -> None:
        self._causes[dialog] = cause

    def check(self, _changed: Screen | None = None) -> None:
        stack = self.app.screen_stack
        self._causes = {dialog: cause for dialog, cause in self._causes.items() if dialog in stack}
        front = self.app.screen
        cause = self._causes.get(front)
        if cause is not None and not cause():
            del self._causes[front]
            front.dismiss(None)  # the screen that comes to the front is checked in turn
