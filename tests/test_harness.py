"""What tests/conftest.py promises about app tests: frames are composed only when looked at, yet
every app test still draws the screen it leaves, so a widget that cannot draw fails the test; and
a terminal resized by Pilot has resized the screen by the time the test goes on."""

import pytest

from sos_tui.app.widgets.scoreboard import Scoreboard

from .support.helpers import make_app, wait_for


async def test_a_widget_that_cannot_draw_fails_the_app_test_that_leaves_it_on_screen(monkeypatch):
    def broken(self, y):
        raise RuntimeError("cannot draw")

    app = make_app()
    with pytest.raises(RuntimeError, match="cannot draw"):
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press("s")
            monkeypatch.setattr(Scoreboard, "render_line", broken)
            await pilot.press("right", "o")
            assert app.state.move_count == 2  # the moves were played: only drawing fails


async def test_a_resized_terminal_has_resized_the_screen_when_resize_terminal_returns():
    # Textual resizes the screens 1/120 s after the terminal; with the 5 ms idle sleep of
    # conftest.py a bare pause() could return first (a resize test failed about once in 20 runs)
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        for width, height in [(60, 20), (44, 14), (90, 28), (30, 10), (100, 30)] * 2:
            await pilot.resize_terminal(width, height)
            assert app.screen.size == (width, height)
            small = width < 44 or height < 15
            await wait_for(pilot, lambda: app.game_screen.view.too_small == small)  # noqa: B023
