"""What tests/conftest.py promises about app tests: frames are composed only when looked at, yet
every app test still draws the screen it leaves, so a widget that cannot draw fails the test."""

import pytest

from sos_tui.app.widgets.scoreboard import Scoreboard

from .helpers import make_app


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
