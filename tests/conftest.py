"""Every test gets its own data and config folders, so no test reads or writes the player's saves,
history or settings."""

from pathlib import Path

import pytest


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
