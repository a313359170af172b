"""Every test gets its own data and config folders, so no test reads or writes the player's saves,
history or settings."""

import gc
import os
import time
from pathlib import Path

import pytest
from hypothesis import settings
from platformdirs import user_cache_path

# Where the environment asks Python not to write bytecode (PYTHONDONTWRITEBYTECODE, set on this
# project's CI machine), every xdist worker compiled each module of sos_tui and rewrote the
# asserts of every test module again, and so did every program a test starts (collecting the tests
# took 3.3 s of CPU, 1.4 s with the cache; a worker's CPU outside its tests fell from 4.0 s to 3.1
# s in the full suite). The workers and those programs (they inherit this environment) share one
# bytecode cache in the user's cache folder instead, outside the checkout, so the source tree
# stays as free of bytecode as that setting wants. A PYTHONPYCACHEPREFIX the environment sets is
# kept.
if os.environ.get("PYTHONDONTWRITEBYTECODE") and not os.environ.get("PYTHONPYCACHEPREFIX"):
    os.environ["PYTHONPYCACHEPREFIX"] = str(user_cache_path("sos-tui") / "test-bytecode")
    del os.environ["PYTHONDONTWRITEBYTECODE"]

# An app test makes millions of short-lived objects (a Strip per line drawn, with five caches
# each). With Python's default thresholds (700, 10, 10) the collector runs hundreds of times a
# second and every 100th run walks the whole heap (pytest, hypothesis, Textual, ...). Freezing
# what the imports made and collecting the young generation 70 times less often cuts the suite's
# CPU time by about an eighth; cycles are still collected, so memory stays bounded. (The tests
# drive Textual and pytest as they ship: nothing of theirs is patched here.)
gc.freeze()
gc.set_threshold(50_000, 20, 20)

# The example engine programs (tests/engines/) are scripts that read their standard input: run by
# the tests, never imported as doctest modules.
collect_ignore_glob = ["engines/*.py"]


# The nightly run: `pytest --runslow` runs the tests marked `slow` too (whole-game AI ladders), and
# loads the Hypothesis profile "slow", under which every property test draws its full count of
# examples (tests/support/examples.py: a test that names its count asks for `examples(count)`).
# Every other run skips the slow tests and draws a third of the examples, to keep the suite fast.
settings.register_profile("slow", max_examples=150)
# Every other run draws the same examples each time (no example database): a test that fails,
# fails on every machine and every run, not once in a while.
settings.register_profile("deterministic", max_examples=150 // 3, derandomize=True, database=None)
settings.load_profile("deterministic")


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session):
    """The garbage of the last tests is collected once, here, while pytest still reports what a
    finalizer raises; what is left is frozen, so pytest's own collection after the session and the
    interpreter's at exit walk nothing (two walks of a heap of ~500,000 objects: ~1 s of CPU in
    each xdist worker)."""
    gc.collect()
    gc.freeze()


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", default=False,
                     help="also run the tests marked slow, and the Hypothesis profile 'slow'")


def pytest_configure(config):
    if config.getoption("--runslow"):
        settings.load_profile("slow")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --runslow")
    for item in items:
        if item.get_closest_marker("slow"):
            item.add_marker(skip)


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
    """A history holding the sample games of tests/games.py."""
    from sos_tui.storage import History

    from .support.games import sample_games

    with History() as history:
        for record in sample_games():
            history.record_game(record)
        yield history


@pytest.fixture
def saved(tmp_path):
    """A saved, finished random 3x3 game: (path, record)."""
    from sos_tui.engine import GameRecord

    from .support.games import random_game

    path = tmp_path / "game.json"
    record = GameRecord.for_state(random_game(3, "general", 3))
    path.write_text(record.to_json())
    return path, record


@pytest.fixture(autouse=True)
def fresh_solver_tables():
    """No exact-solver table kept from another test's game (``ai/players.py`` keeps one while
    the boards it is asked about follow one another)."""
    from sos_tui.ai import players

    players.forget()
    yield
    players.forget()


@pytest.fixture(autouse=True)
def cache_dir(tmp_path, monkeypatch) -> Path:
    """``$XDG_CACHE_HOME`` of this test (benchmarks/behaviour.py keeps fingerprints there)."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    return folder
