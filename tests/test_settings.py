"""The player's settings file: storage.settings."""

from __future__ import annotations

import json

import pytest

from sos_tui.storage import load_settings, save_settings
from sos_tui.storage import settings as settings_module
from sos_tui.storage.settings import DEFAULTS, config_dir, settings_path

SETUP = {"size": 7, "mode": "simple", "seats": [{"name": "Ana", "kind": "human", "level": None},
                                                {"name": "Computer 2", "kind": "computer", "level": "hard"}]}


def test_the_config_folder_follows_the_environment(config_dir):
    assert settings_module.config_dir() == config_dir
    assert load_settings() == DEFAULTS == {"theme": None, "setup": None, "language": None}
    assert not config_dir.exists()  # reading creates nothing


def test_without_the_variable_the_platform_config_folder_is_used(monkeypatch, tmp_path):
    monkeypatch.delenv("SOS_TUI_CONFIG_DIR")
    monkeypatch.setattr(settings_module.platformdirs, "user_config_path",
                        lambda name, appauthor=None: tmp_path / "platform" / name)
    assert config_dir() == tmp_path / "platform" / "sos-tui"


def test_save_then_load(config_dir):
    saved = save_settings({"theme": "textual-light", "setup": SETUP, "language": "pt_BR"})
    assert load_settings() == saved == {"theme": "textual-light", "setup": SETUP, "language": "pt_BR"}
    assert [p.name for p in config_dir.iterdir()] == ["settings.json"]  # atomic: no temp file left
    assert json.loads(settings_path().read_text())["format"] == "sos-tui-settings"


@pytest.mark.parametrize("content", [
    b"", b"{", b"\xff\xfe", b"[1, 2]", b'{"theme": "x"}', b'{"format": "something-else", "theme": "x"}',
    b"[" * 100_000, b" " * (1 << 20),
])
def test_a_corrupt_or_foreign_file_gives_the_defaults(config_dir, content):
    config_dir.mkdir()
    settings_path().write_bytes(content)
    assert load_settings() == DEFAULTS


def test_a_folder_in_place_of_the_file_gives_the_defaults(config_dir):
    settings_path().mkdir(parents=True)
    assert load_settings() == DEFAULTS


@pytest.mark.parametrize(("key", "value"), [
    ("theme", "\x1b[31m"), ("theme", 3), ("theme", "x" * 65), ("language", "../../etc"), ("language", ""),
    ("setup", {**SETUP, "size": 99}), ("setup", {**SETUP, "mode": "tricky"}),
    ("setup", {**SETUP, "seats": SETUP["seats"][:1]}),
    ("setup", {**SETUP, "seats": [{"name": f"P{i}"} for i in range(7)]}),
    ("setup", {**SETUP, "seats": [{"name": "Ana"}, {"name": "ANA"}]}),
    ("setup", {**SETUP, "seats": [{"name": "Ana"}, {"name": "B\u202eo"}]}),
    ("setup", {**SETUP, "seats": [{"name": "Ana"}, {"name": "Bot", "kind": "computer", "level": "godlike"}]}),
    ("setup", "big"),
])
def test_a_bad_value_becomes_the_default_and_the_rest_is_kept(config_dir, key, value):
    good = {"theme": "nord", "setup": SETUP, "language": "fr"}
    config_dir.mkdir()
    settings_path().write_text(json.dumps({"format": "sos-tui-settings", "version": 1, **good, key: value}))
    assert load_settings() == {**good, key: None}
    assert save_settings({**good, key: value}) == {**good, key: None}


def test_an_unwritable_config_folder_is_a_storage_error(config_dir, monkeypatch, tmp_path):
    from sos_tui.storage import StorageError

    blocker = tmp_path / "blocker"
    blocker.write_text("")
    monkeypatch.setenv("SOS_TUI_CONFIG_DIR", str(blocker / "sub"))
    with pytest.raises(StorageError, match="cannot create the folder"):
        save_settings({"theme": "nord"})
    assert load_settings() == DEFAULTS


@pytest.mark.parametrize(("clock", "kept"), [
    ("5+3", "5+3"), (" 0.5+0 ", "0.5+0"), ("5+", None), ("-1+0", None), ("2d", None), (7, None), (None, None),
])
def test_the_setups_clock_is_kept_only_when_a_local_game_can_have_it(config_dir, clock, kept):
    saved = save_settings({"setup": {**SETUP, "clock": clock}})
    assert saved["setup"] == {**SETUP, **({"clock": kept} if kept else {})}  # the rest of the setup stays
    assert load_settings()["setup"] == saved["setup"]
