"""The driver of ``sos-tui web``'s tabs: Textual's web driver, honouring ``mouse=False``.

Textual's web driver turns the browser terminal's mouse reporting on whatever the app asked for
(Textual issue #6713), so ``sos-tui web --no-mouse`` would still send clicks to the game and keep
the browser from selecting text. This one turns it off again once the application mode has started,
and the app runs keyboard only, as ``--no-mouse`` does in a terminal. A tab's process names it in
``TEXTUAL_DRIVER`` (``sos_tui.cli.common.OUR_WEB_DRIVER``)."""

from __future__ import annotations

from textual.drivers.web_driver import WebDriver as TextualWebDriver


class WebDriver(TextualWebDriver):
    def start_application_mode(self) -> None:
        super().start_application_mode()
        if not self._mouse:
            self._disable_mouse_support()
