"""Text from people and files (names, paths, file contents, error details) as the screens show it:
literal (never parsed as Textual markup), with every character a terminal would act on or hide
escaped (``printable``), and shortened when long.

>>> shown("[b red]x[/]")
'[b red]x[/]'
>>> shown("Ann\\x1b]0;pwned\\x07")
'Ann\\\\x1b]0;pwned\\\\x07'
>>> shown("L" * 50, 10)
'LLLLLLLLL…'
"""

from __future__ import annotations

from rich.highlighter import Highlighter
from rich.text import Text
from textual.content import Content

from sos_tui.engine import GameRecord, GameState, printable, shorten
from sos_tui.engine.text import is_hidden
from sos_tui.i18n import _

NAME_WIDTH = 40
"""The most of one name any screen shows."""


def shown(text: object, limit: int = NAME_WIDTH) -> str:
    """``text`` escaped and cut to ``limit`` characters. Only the start of a huge value is
    escaped, so a megabyte name costs no more than a short one."""
    text = str(text)
    return shorten(printable(text[: limit + 1]), limit)


def literal(text: object, limit: int = 200) -> Content:
    """``shown(text)`` as Textual content: for a Label, a Static or a notification."""
    return Content(shown(text, limit))


def cell(text: object, limit: int = NAME_WIDTH, style: str = "") -> Text:
    """``shown(text)`` as a Rich Text: for a DataTable cell or a Select option (a plain ``str``
    there would be parsed as markup)."""
    return Text(shown(text, limit), style=style, no_wrap=True, overflow="ellipsis")


def names_list(names: list[str]) -> str:
    """``"Ana"``, ``"Ana and Bo"``, ``"Ana, Bo and Cy"`` in the player's language."""
    if len(names) <= 1:
        return "".join(names)
    return _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])


def result_shown(record: GameRecord, state: GameState | None = None) -> str:
    """``"unfinished"``, ``"draw"``, ``"draw between Ana, Bo"`` or ``"Ana wins"`` in the player's
    language, the names escaped and shortened."""
    outcome = (state or record.state).outcome
    if outcome is None:
        return _("unfinished")
    if outcome.is_draw:
        if len(outcome.winners) < len(record.players):
            names = ", ".join(shown(record.players[w].name, 16) for w in outcome.winners)
            return _("draw between {names}").format(names=names)
        return _("draw")
    return _("{name} wins").format(name=shown(record.players[outcome.winners[0]].name, 24))


def _picture(char: str) -> str:
    """One visible cell for a hidden character: its Unicode control picture (␛ for ESC), else �."""
    code = ord(char)
    if code < 0x20:
        return chr(0x2400 + code)
    return "\u2421" if code == 0x7F else "\ufffd"


class ShowHidden(Highlighter):
    """An Input's highlighter that draws each hidden character (ESC, a bidi override, a lone
    surrogate...) as one visible placeholder, so what is typed or pasted is never sent raw to the
    terminal; one character for one keeps the cursor and selection where they are. The value
    itself is unchanged: the screen that reads it decides whether it is acceptable."""

    def __call__(self, text: str | Text) -> Text:
        if isinstance(text, str):
            text = Text(text)
        plain = text.plain
        if plain.isprintable():
            return text
        shown_text = "".join(_picture(c) if is_hidden(c) else c for c in plain)
        return Text(shown_text, style=text.style, justify=text.justify, overflow=text.overflow,
                    no_wrap=text.no_wrap, end=text.end, spans=list(text.spans))

    def highlight(self, text: Text) -> None:  # pragma: no cover - __call__ does the work
        pass
