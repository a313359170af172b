"""The player's settings: theme, the last game setup, language. One small JSON file.

It lives in the per-user config folder (``~/.config/sos-tui/settings.json`` on Linux, from
platformdirs), or in ``$SOS_TUI_CONFIG_DIR`` when set (tests and CI point it at a temporary
folder). Reading never fails: a missing, corrupt or foreign file, or any value that is not valid,
gives the default for it. Writing is atomic.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import platformdirs

from sos_tui.engine import (
    COMPUTER_LEVELS,
    MAX_PLAYERS,
    MAX_SIZE,
    MIN_PLAYERS,
    MIN_SIZE,
    RECORDED_KINDS,
    Mode,
    SeatKind,
    check_names,
)
from sos_tui.engine.clock import ClockError, TimeControl
from sos_tui.engine.text import is_hidden
from sos_tui.i18n import N_

from .atomic import write_atomic
from .errors import StorageError, describe, shown_path
from .paths import APP_NAME

__all__ = ["CONFIG_ENV_VAR", "DEFAULTS", "config_dir", "load_settings", "save_settings", "settings_path"]

CONFIG_ENV_VAR = "SOS_TUI_CONFIG_DIR"
SETTINGS_NAME = "settings.json"
FORMAT = "sos-tui-settings"
VERSION = 1
MAX_BYTES = 64 * 1024

DEFAULTS: dict = {"theme": None, "setup": None, "language": None}
"""Every key the settings hold; None means "the app's own default"."""

_LANGUAGE = re.compile(r"[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8}){0,3}")


def config_dir() -> Path:
    """``$SOS_TUI_CONFIG_DIR`` when set (``~`` expanded), else the platform's user config folder.
    Not created until settings are saved."""
    override = os.environ.get(CONFIG_ENV_VAR, "").strip()
    if override:
        return Path(override).expanduser()
    return platformdirs.user_config_path(APP_NAME, appauthor=False)


def settings_path() -> Path:
    return config_dir() / SETTINGS_NAME


def _theme(value) -> str | None:
    ok = isinstance(value, str) and 0 < len(value) <= 64 and not any(is_hidden(c) for c in value)
    return value if ok else None


def _language(value) -> str | None:
    return value if isinstance(value, str) and _LANGUAGE.fullmatch(value) else None


def _clock(value) -> str | None:
    """A setup's clock as written (``"5+3"``), if it is one a local game can have."""
    try:
        control = TimeControl.parse(value)
    except ClockError:
        return None
    return None if control.per_move else str(control)


def _setup(value) -> dict | None:
    """``{"size": 6, "mode": "general", "seats": [{"name", "kind", "level"}, ...]}``, and the
    ``"clock"`` (``"5+3"``) of a timed game; None if not valid (a bad clock alone is left out)."""
    if not isinstance(value, dict):
        return None
    size, mode, seats = value.get("size"), value.get("mode"), value.get("seats")
    if type(size) is not int or not MIN_SIZE <= size <= MAX_SIZE or mode not in {m.value for m in Mode}:
        return None
    if not isinstance(seats, list) or not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        return None
    clean = []
    for seat in seats:
        if not isinstance(seat, dict) or seat.get("kind", SeatKind.HUMAN) not in RECORDED_KINDS:
            return None
        level = seat.get("level")
        if level is not None and level not in COMPUTER_LEVELS:
            return None
        kind = SeatKind(seat.get("kind", SeatKind.HUMAN))
        clean.append({"name": seat.get("name"), "kind": kind, "level": level})
    try:
        names = check_names(seat["name"] for seat in clean)
    except ValueError:
        return None
    for seat, name in zip(clean, names, strict=True):
        seat["name"] = name
    clock = _clock(value["clock"]) if "clock" in value else None
    return {"size": size, "mode": mode, "seats": clean, **({"clock": clock} if clock else {})}


_CHECKS = {"theme": _theme, "setup": _setup, "language": _language}


def _valid(data: dict) -> dict:
    return {key: check(data.get(key)) for key, check in _CHECKS.items()}


def load_settings() -> dict:
    """The saved settings, every key of DEFAULTS present; defaults for anything unreadable."""
    try:
        with open(settings_path(), "rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
        data = json.loads(raw) if len(raw) <= MAX_BYTES else None
    except (OSError, ValueError, RecursionError):
        return dict(DEFAULTS)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return dict(DEFAULTS)
    return _valid(data)


def save_settings(settings: dict) -> dict:
    """Save ``settings`` atomically and return what was saved: invalid values and unknown keys
    are dropped (saved as None). Raises StorageError when the file cannot be written."""
    clean = _valid(settings if isinstance(settings, dict) else {})
    folder = config_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise StorageError(N_("cannot create the folder {path}: {reason}"), path=shown_path(folder),
                           reason=describe(error)) from error
    text = json.dumps({"format": FORMAT, "version": VERSION, **clean}, indent=2) + "\n"
    write_atomic(folder / SETTINGS_NAME, text)
    return clean
