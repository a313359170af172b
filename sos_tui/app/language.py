"""The app in the player's language: screens whose footer, help and palette follow a switch of
language at once, and Textual's own words put into the catalog.

Every screen of the app derives from ``SosScreen`` or ``SosModal``. Their bindings keep the
English description (marked with ``N_``); ``active_bindings``, which the footer and the help
read, translates it. ``language_changed`` redraws a screen in the new language.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TypeVar

from textual.screen import ModalScreen, Screen

from sos_tui.i18n import N_, _

Result = TypeVar("Result")

TEXTUAL_WORDS = (
    N_("palette"), N_("Open the command palette"), N_("Search for commands…"),
    N_("Theme"), N_("Change the current theme"), N_("Quit"), N_("Quit the application as soon as possible"),
    N_("Keys"), N_("Show help for the focused widget and a summary of available keys"),
    N_("Hide the keys and widget help panel"), N_("Screenshot"),
    N_("Save an SVG 'screenshot' of the current screen"),
)  # fmt: skip
"""Textual's own words that a player sees (the footer's palette key, the palette's system
commands): marked here for the catalog, translated where they are shown."""


class Translated:
    """A screen whose bindings are described in the current language."""

    @property
    def active_bindings(self):
        translated = {}
        for key, active in super().active_bindings.items():
            binding = active.binding
            binding = replace(binding, description=_(binding.description), tooltip=_(binding.tooltip))
            translated[key] = active._replace(binding=binding, tooltip=_(active.tooltip))
        return translated

    def language_changed(self) -> None:
        """The language was switched: compose this screen again in it."""
        self.refresh(recompose=True)
        self.refresh_bindings()


class SosScreen(Translated, Screen[Result]):
    """A full screen of the app."""


class SosModal(Translated, ModalScreen[Result]):
    """A dialog of the app, over the screen it was opened from."""
