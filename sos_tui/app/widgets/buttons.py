"""A row of buttons that the arrow keys walk: every dialog's answers, and the setup screen's."""

from __future__ import annotations

from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Button

from sos_tui.i18n import N_


class ButtonRow(Horizontal):
    """Buttons side by side (other widgets, a line of key hints, may sit among them). While one
    of its buttons has the focus, left and right move it to the button beside, and stop at the
    first and the last: a row never wraps round, so a key pressed once too often leaves the focus
    where it is, never on the answer at the other end. Where a row opens its dialog with the focus
    is the dialog's choice (its ``AUTO_FOCUS``: the safe answer)."""

    BINDINGS = [
        Binding("left", "step(-1)", N_("Previous button"), show=False),
        Binding("right", "step(1)", N_("Next button"), show=False),
    ]

    def action_step(self, step: int) -> None:
        buttons = [button for button in self.query_children(Button) if button.focusable]
        focused = self.screen.focused
        if focused in buttons:
            index = buttons.index(focused) + step
            if 0 <= index < len(buttons):
                self.screen.set_focus(buttons[index])  # at once: the next key may be on its way
