"""The driver of ``sos-tui web``'s tabs: Textual's web driver, honouring ``mouse=False`` and telling
the browser's terminal the app's background.

Textual's web driver turns the browser terminal's mouse reporting on whatever the app asked for
(Textual issue #6713), so ``sos-tui web --no-mouse`` would still send clicks to the game and keep
the browser from selecting text. This one turns it off again once the application mode has started,
and the app runs keyboard only, as ``--no-mouse`` does in a terminal. A tab's process names it in
``TEXTUAL_DRIVER`` (``sos_tui.cli.common.OUR_WEB_DRIVER``).

The page's terminal has whole rows and columns, so part of a row is left over in the window: the
theme's background is given to the terminal as its own (OSC 11, again when the theme changes), and
the page paints what is left over with it."""

from __future__ import annotations

from textual.color import Color, ColorParseError
from textual.drivers.web_driver import WebDriver as TextualWebDriver


def background_escape(colour: str | None) -> str:
    """OSC 11 (the terminal's background) for a theme's ``$background``; "" if it is not a colour."""
    try:
        return f"\x1b]11;{Color.parse(colour).hex6}\x07" if colour else ""
    except ColorParseError:
        return ""


class WebDriver(TextualWebDriver):
    _background: str | None = None

    def start_application_mode(self) -> None:
        super().start_application_mode()
        if not self._mouse:
            self._disable_mouse_support()

    def write(self, data: str) -> None:
        """``data``, after the theme's background when it changed (the app makes its theme's
        variables before it draws with them)."""
        background = self._app.theme_variables.get("background")
        if background != self._background:
            self._background = background
            data = background_escape(background) + data
        super().write(data)
