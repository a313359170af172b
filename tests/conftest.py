"""Every test gets its own data folder, so no test reads or writes the player's saves or history."""

import pytest


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    folder = tmp_path / "sos-data"
    monkeypatch.setenv("SOS_TUI_DATA_DIR", str(folder))
    return folder
