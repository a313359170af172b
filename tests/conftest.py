"""Every test gets its own data and config folders, so no test reads or writes the player's saves,
history or settings."""

import asyncio
import gc
import time
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import textual._wait
from textual.app import App
from textual.css.stylesheet import Stylesheet
from textual.pilot import Pilot
from textual.screen import Screen

# Pilot decides that the app has done what a key asked once a sleep passes with (next to) no CPU
# used: by default a 20 ms sleep, so every key costs a test at least 40-90 ms of waiting. A 5 ms
# sleep waits as surely for an app that is working (a busy app uses the whole 5 ms), and the suite
# spends far less of its time asleep. The idle bar is 1/10 of the sleep, not Textual's 1/20: an
# idle app's event loop uses 0.2-0.4 ms of CPU per 5 ms, so at 1/20 a wait often ran on to its
# 1 s limit (the input storm test: 17 s of wall clock for 4.6 s of CPU).
textual._wait.SLEEP_GRANULARITY = 0.005
textual._wait.SLEEP_IDLE = textual._wait.SLEEP_GRANULARITY / 10

# An app test makes millions of short-lived objects (a Strip per line drawn, with five caches
# each). With Python's default thresholds (700, 10, 10) the collector runs hundreds of times a
# second and every 100th run walks the whole heap (pytest, hypothesis, Textual, ...). Freezing
# what the imports made and collecting the young generation 70 times less often cuts the suite's
# CPU time by about an eighth; cycles are still collected, so memory stays bounded.
gc.freeze()
gc.set_threshold(50_000, 20, 20)

# Each app parses all its CSS afresh (Textual caches the parse per stylesheet, and each app has
# its own): some 6% of an app test's CPU. The same CSS with the same variables (the theme's)
# parses to the same rules, so here one parse serves every app of the test process.
_parsed: dict[tuple, list] = {}
_parse_rules = Stylesheet._parse_rules


def _parse_rules_once(self, css, read_from, is_default_rules=False, tie_breaker=0, scope=""):
    key = (css, read_from, is_default_rules, tie_breaker, scope, tuple(sorted(self._variables.items())))
    if key not in _parsed:
        _parsed[key] = _parse_rules(self, css, read_from, is_default_rules, tie_breaker, scope)
    return _parsed[key]


Stylesheet._parse_rules = _parse_rules_once

# Headless, Textual composes every frame of the screen in front and then throws it away (the
# headless driver writes nothing): about a third of an app test's CPU. Here a frame is composed
# only when a test looks at it (``render_strips``, ``render_lines``, a screenshot), and once at the
# end of every ``run_test``, so that every app test still fails if what it left on screen cannot be
# drawn. Layout, hover and everything else a frame's refresh does still happen as in the app.
_compositor_refresh = Screen._compositor_refresh


def _compositor_refresh_unseen(self) -> None:
    app = self.app
    if app.is_headless and not app.is_inline and self is app.screen:
        self._compositor._dirty_regions.clear()
        self._dirty_widgets.clear()
        app._update_mouse_over(self)
    else:
        _compositor_refresh(self)


Screen._compositor_refresh = _compositor_refresh_unseen
_run_test = App.run_test


@asynccontextmanager
async def _run_test_drawing_the_last_frame(self, *args, **kwargs):
    async with _run_test(self, *args, **kwargs) as pilot:
        yield pilot
        if self.is_running and self.screen_stack:
            self.screen._compositor.render_update(full=True, screen_stack=self._background_screens)


App.run_test = _run_test_drawing_the_last_frame

# Textual resizes the screens 1/120 s after the terminal: App._on_resize sets the app's size at
# once (and Screen.size is the app's), then a timer posts the Resize event to the screens. With
# the 5 ms idle sleep above, the pause() that ends Pilot.resize_terminal could find the app idle
# and return before that timer fired, or before the screen handled the event (GameScreen.on_resize
# sets -too-small): on a loaded machine about one run in ten of test_harness saw the old class.
# Here resize_terminal returns once the app has the new size and no resize pending (the timer has
# posted the event: Textual's own _resize_timer and _resize_event), and the screen in front has
# handled it (a callback it queued after the event has run).
_resize_terminal = Pilot.resize_terminal


async def _resize_terminal_and_screen(self, width: int, height: int) -> None:
    await _resize_terminal(self, width, height)
    app = self.app
    deadline = time.monotonic() + 5
    while (app.size != (width, height) or app._resize_timer is not None or app._resize_event is not None) \
            and time.monotonic() < deadline:
        await asyncio.sleep(1 / 120)
    handled = asyncio.Event()
    app.screen.call_later(handled.set)
    await asyncio.wait_for(handled.wait(), 5)
    await self.pause()


Pilot.resize_terminal = _resize_terminal_and_screen


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch) -> Path:
    """The data folder (``$SOS_TUI_DATA_DIR``) of this test; not created until used."""
    folder = tmp_path / "data"
    monkeypatch.setenv("SOS_TUI_DATA_DIR", str(folder))
    return folder


@pytest.fixture(autouse=True)
def config_dir(tmp_path, monkeypatch) -> Path:
    """The config folder (``$SOS_TUI_CONFIG_DIR``) of this test; not created until used."""
    folder = tmp_path / "config"
    monkeypatch.setenv("SOS_TUI_CONFIG_DIR", str(folder))
    return folder


@pytest.fixture
def data(data_dir) -> Path:
    """The data folder, by its short name."""
    return data_dir


@pytest.fixture(autouse=True)
def english(monkeypatch):
    """Every test starts in English, whatever the machine's locale; a test that switches to
    Malay (``set_language("ms")``) is put back afterwards, environment included."""
    from sos_tui import i18n

    for name in i18n.ENVIRONMENT:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    i18n.set_language("en")
    yield
    i18n.set_language("en")


@pytest.fixture
def utc(monkeypatch):
    """Local time is UTC for this test (history dates print in local time)."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.fixture
def filled(data, utc):
    """A history holding the sample games of tests/test_storage.py."""
    from sos_tui.storage import History

    from .test_storage import sample_games

    with History() as history:
        for record in sample_games():
            history.record_game(record)
        yield history


@pytest.fixture
def saved(tmp_path):
    """A saved, finished random 3x3 game: (path, record)."""
    from sos_tui.engine import GameRecord

    from .test_review import random_game

    path = tmp_path / "game.json"
    record = GameRecord.for_state(random_game(3, "general", 3))
    path.write_text(record.to_json())
    return path, record


def pytest_configure(config):
    """Under xdist, the controller rewrites the test modules' asserts once, into pytest's cache of
    rewritten modules (``tests/__pycache__``), before it starts the workers, which then find them
    there. Otherwise each worker rewrites every module (2.3 s of CPU a process), and where bytecode
    is not written (a fresh clone, PYTHONDONTWRITEBYTECODE) on every run: startup, -n 3, 10.2 s ->
    8.7 s. A speed-up only: it uses pytest's own rewriting functions, and if they change, the
    workers rewrite as before."""
    if hasattr(config, "workerinput") or not config.getoption("numprocesses", None):
        return
    if config.getoption("assertmode") != "rewrite":
        return
    try:
        from _pytest.assertion import rewrite

        state = config.stash[rewrite.assertstate_key]
        for source in sorted(Path(__file__).parent.glob("test_*.py")):
            pyc = rewrite.get_cache_dir(source) / (source.name[:-3] + rewrite.PYC_TAIL)
            if rewrite._read_pyc(source, pyc, state.trace) is None and rewrite.try_makedirs(pyc.parent):
                source_hash, code = rewrite._rewrite_test(source, config)
                rewrite._write_pyc(state, code, source_hash, pyc)
    except (ImportError, AttributeError, KeyError, TypeError, ValueError, OSError):
        return
