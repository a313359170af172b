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
