"""Rules and keys (? or F1). The keys come from the bindings of the view the help was opened
from, so the table cannot drift from what the keys really do. Everything is put into the
player's language when the help is drawn (again when the language is switched)."""

from __future__ import annotations

from dataclasses import replace

from rich import box
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Markdown, Static

from sos_tui.i18n import N_, _

from ..language import SosModal, Translated


def rules() -> str:
    """The rules of SOS, both variants, in the player's language (Markdown)."""
    paragraphs = [
        "# " + _("How to play SOS"),
        _("Take turns writing an **S** or an **O** in any empty cell — you choose the letter every turn. "
          "Completing a straight **S-O-S** (across, down or diagonally) scores a point; one letter can "
          "complete several at once. Each SOS is struck through with its scorer's mark (● ▲ ■ ◆ ✚ ★) "
          "and colour."),
        "* " + _("**General game**: score and you move again, until a move scores nothing. When the "
                 "board is full, the most SOSs wins; equal top scores draw.") + "\n"
        "* " + _("**Simple game**: the first SOS wins. A full board with no SOS is a draw."),
        _("With the mouse, hovering highlights a cell; a left click writes the selected letter, a right "
          "click the other one. Your game is saved as you play: quit at any time and \"Continue\" next "
          "time."),
        _("**Review** (v in a replay, or on the game-over dialog) marks every move: **!** best, **?!** "
          "inaccuracy, **?** mistake, **??** blunder. General game: a move that makes the margin (your "
          "final score minus the other player's) 1 worse is an inaccuracy, 2-3 a mistake, 4 or more a "
          "blunder (with 3 or more players: your own points); simple game: throwing a win to a draw (or "
          "a draw to a loss) is a mistake, a win to a loss a blunder. The best move is drawn on the "
          "board in brackets, like [O] (or S→O where another letter was the best). Verdicts are exact "
          "on boards up to 4x4 and in endgames, estimated by the computer's search otherwise (~ in a "
          "transcript): an estimate is marked only when its loss is clearly beyond its error, else it "
          "says *unclear*. Each player's **accuracy** is the share of their moves with no mark."),
    ]
    return "\n\n".join(paragraphs) + "\n"


# Keys that the bindings name by their action only; a person reads these words instead.
_MOVES = {"Up", "Down", "Left", "Right"}
MOVE_THE_CURSOR = N_("Move the cursor")
PALETTE = N_("Command palette: new game, rematch, replay, history, themes…")


def key_table(screen: Screen) -> list[tuple[str, str]]:
    """(keys, what they do) for every binding active on ``screen``, in binding order; the four
    cursor directions are folded into one row. What they do is the English description (the
    help translates it when drawn, so a language switch redraws it)."""
    app = screen.app
    rows: dict[str, list[str]] = {}
    bindings = super(Translated, screen).active_bindings if isinstance(screen, Translated) \
        else screen.active_bindings
    for key, active in bindings.items():
        binding = active.binding
        if not (_ours(active.node, binding) or binding.action == "command_palette"):
            continue  # the UI library's own keys (scrolling, focus, copy): not the game's
        description = binding.description or binding.action
        if description in _MOVES:
            description = MOVE_THE_CURSOR
        elif binding.action == "command_palette":
            description = PALETTE
        display = app.get_key_display(replace(binding, key=key, key_display=None))
        keys = rows.setdefault(description, [])
        if display not in keys:
            keys.append(display)
    return [(" ".join(keys), description) for description, keys in rows.items()]


def _ours(node, binding: Binding) -> bool:
    """Whether sos-tui itself declared ``binding`` (on the node's class or one of its sos-tui
    bases), rather than inheriting it from Textual."""
    return any(
        cls.__module__.startswith("sos_tui.")
        and any(isinstance(own, Binding) and own.action == binding.action
                for own in vars(cls).get("BINDINGS", ()))
        for cls in type(node).__mro__)


def key_table_renderable(keys: list[tuple[str, str]]) -> Table:
    """The key table, drawn as a Rich table of plain Text: a key or a description is shown as it is,
    never read as markup (a Markdown table is a widget per cell, which made the help take most of
    a second to open)."""
    table = Table(box=box.SIMPLE_HEAD, expand=True, show_edge=False, pad_edge=False)
    table.add_column(Text(_("Key"), style="bold"), no_wrap=True)
    table.add_column(Text(_("Does"), style="bold"), ratio=1)
    for shown, description in keys:
        table.add_row(Text(shown, style="bold"), Text(_(description)))
    return table


class HelpScreen(SosModal[None]):
    BINDINGS = [
        Binding("escape,q,question_mark,f1", "close", N_("Close")),
    ]

    def __init__(self, keys: list[tuple[str, str]] | None = None) -> None:
        super().__init__()
        self.keys = keys or []

    def compose_dialog(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Markdown(rules() + "\n# " + _("Keys here") + "\n")
            yield Static(key_table_renderable(self.keys), id="help-keys")

    def action_close(self) -> None:
        self.dismiss(None)
