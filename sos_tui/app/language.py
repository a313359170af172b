"""The app in the player's language: screens whose footer, help and palette follow a switch of
language at once, and Textual's own words put into the catalog.

Every screen of the app derives from ``SosScreen`` or ``SosModal``. Their bindings keep the
English description (marked with ``N_``); ``active_bindings``, which the footer and the help
read, translates it. ``language_changed`` redraws a screen in the new language.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import TypeVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen, Screen

from sos_tui.i18n import N_, _
from sos_tui.i18n import language as current_language

from .widgets.footer import KeyFooter

Result = TypeVar("Result")

TEXTUAL_WORDS = (
    N_("palette"), N_("Open the command palette"), N_("Search for commands…"),
    N_("Theme"), N_("Change the current theme"), N_("Quit"), N_("Quit the application as soon as possible"),
    N_("Keys"), N_("Show help for the focused widget and a summary of available keys"),
    N_("Hide the keys and widget help panel"), N_("Screenshot"),
    N_("Save an SVG 'screenshot' of the current screen"),
    # the bindings of Textual's widgets, which the help lists with the app's own
    N_("Focus Next"), N_("Focus Previous"), N_("Press button"),
    N_("Scroll Up"), N_("Scroll Down"), N_("Scroll Left"), N_("Scroll Right"), N_("Scroll Home"),
    N_("Scroll End"), N_("Page Up"), N_("Page Down"), N_("Page Left"), N_("Page Right"),
    N_("Move cursor left"), N_("Move cursor left and select"), N_("Move cursor left a word"),
    N_("Move cursor left a word and select"), N_("Move cursor right or accept the completion suggestion"),
    N_("Move cursor right and select"), N_("Move cursor right a word"),
    N_("Move cursor right a word and select"), N_("Delete character left"), N_("Delete character right"),
    N_("Delete left to start of word"), N_("Delete all to the left"), N_("Delete right to start of word"),
    N_("Delete all to the right"), N_("Select all"), N_("Go to start"), N_("Go to end"),
    N_("Select line start"), N_("Select line end"), N_("Submit"), N_("Cut selected text"),
    N_("Copy selected text"), N_("Paste text from the clipboard"), N_("Show menu"), N_("Dismiss menu"),
    N_("Select"), N_("Cursor up"), N_("Cursor down"), N_("Cursor left"), N_("Cursor right"),
    N_("Page up"), N_("Page down"), N_("Top"), N_("Bottom"), N_("Home"), N_("End"), N_("First"),
    N_("Last"), N_("Up"), N_("Down"),
)  # fmt: skip
"""Textual's own words that a player sees (the footer's palette key, the palette's system
commands, its widgets' key descriptions in the help): marked here for the catalog, translated
where they are shown."""


def _translated(binding: Binding) -> Binding:
    """``binding`` with its words in the current language. The footer and each key pressed read
    every binding of the screen: each is translated once a language."""
    return _translated_into(binding, current_language())


@lru_cache(maxsize=1024)
def _translated_into(binding: Binding, language: str) -> Binding:
    return replace(binding, description=_(binding.description), tooltip=_(binding.tooltip))


class Translated:
    """What every screen of the app shares: bindings described in the current language, a redraw
    on a switch of language, and whether the screen is still open."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # The breakpoint classes of the terminal's size, set before the first styling: Textual sets
        # them at the screen's first resize, which styled all its widgets a second time (a 100-widget
        # setup screen: 40 ms of each start).
        try:
            size = self.app.size
        except RuntimeError:  # made outside a running app (NoActiveAppError): set when it opens
            return
        for own, apps, reached in ((self.HORIZONTAL_BREAKPOINTS, self.app.HORIZONTAL_BREAKPOINTS, size.width),
                                   (self.VERTICAL_BREAKPOINTS, self.app.VERTICAL_BREAKPOINTS, size.height)):
            breakpoints = apps if own is None else own
            if breakpoints and (passed := [point for point in breakpoints if point[0] <= reached]):
                self.add_class(max(passed)[1], update=False)  # not styled yet: nothing to update

    @property
    def active_bindings(self):
        translated = {}
        for key, active in super().active_bindings.items():
            translated[key] = active._replace(binding=_translated(active.binding), tooltip=_(active.tooltip))
        return translated

    @property
    def is_open(self) -> bool:
        """Is this screen on the app's stack: opened and not closed? What a thread worker or a timer
        hands back is dropped once it is not (Textual's ``is_mounted`` stays true after a screen
        is closed, while its widgets are already gone)."""
        return self in self.app.screen_stack

    def language_changed(self) -> None:
        """The language was switched: compose this screen again in it, the focus kept on the
        widget of the same id (else where the screen puts it when it opens)."""
        focused = self.focused.id if self.focused is not None else None
        self.call_later(self._compose_again, focused)

    async def _compose_again(self, focused: str | None) -> None:
        await self.recompose()
        self.refresh_bindings()
        if focused is not None:
            for widget in self.query(f"#{focused}"):
                if widget.focusable:
                    self.set_focus(widget)
                    return
        self._update_auto_focus()


class SosScreen(Translated, Screen[Result]):
    """A full screen of the app."""


class SosModal(Translated, ModalScreen[Result]):
    """A dialog of the app, over the screen it was opened from. A dialog composes its content in
    ``compose_dialog``; its own footer goes below, so the footer shows the keys that work while
    the dialog is in front, not those of the screen beneath. Its buttons go in a ``ButtonRow``
    (the arrow keys move between them), and it opens with the focus on its safe answer
    (``AUTO_FOCUS``), the one that loses nothing."""

    def compose(self) -> ComposeResult:
        yield from self.compose_dialog()
        yield KeyFooter()

    def compose_dialog(self) -> ComposeResult:
        raise NotImplementedError
