"""Keys and rules at a glance (? or F1)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

HELP = """\
# How to play SOS

Take turns writing an **S** or an **O** in any empty cell — you choose the letter every turn.
Completing a straight **S-O-S** (across, down or diagonally) scores a point; one letter can
complete several at once. Each SOS is struck through with its scorer's mark (● ▲ ■ ◆ ✚ ★) and colour.

* **General game**: score and you move again, until a move scores nothing. When the board is
  full, the most SOSs wins; equal top scores draw.
* **Simple game**: the first SOS wins. A full board with no SOS is a draw.

# Keys

| Key | Does |
|---|---|
| ← ↑ → ↓ or h j k l | move the cursor |
| s / o | write S / O at the cursor |
| space / enter | write the selected letter at the cursor |
| tab | switch the selected letter (S ↔ O) |
| mouse | hover highlights a cell; left click writes the selected letter, right click the other |
| H | hint: show the strongest move for you |
| u / ctrl+z | undo (against the computer: back to your previous turn) |
| r / ctrl+y | redo |
| p | pause / resume computer players |
| ctrl+s / ctrl+o | save / open a game |
| ctrl+n | new game (setup) |
| ctrl+r | rematch with the same settings |
| ctrl+p | command palette: new game, rematch, themes, history… |
| ? / F1 | this help |
| ctrl+q | quit (your game is kept: "Continue" next time) |

# Replay (command palette → Replay, or History → a game)

| Key | Does |
|---|---|
| ← / → | one move back / forward |
| home / end | the start / the end |
| space | play / pause; + and - change the speed |
| f | play on from here against anyone |
| x | export the game as a text transcript |
| esc | back |
"""


class HelpScreen(ModalScreen[None]):
    BINDINGS = [
        Binding("escape,q,question_mark,f1", "close", "Close"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Markdown(HELP)

    def action_close(self) -> None:
        self.dismiss(None)
