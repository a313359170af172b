"""Where sos-tui keeps its files: the per-user data folder, saves, autosave and history.

The folder comes from platformdirs (``~/.local/share/sos-tui`` on Linux, ``~/Library/Application
Support/sos-tui`` on macOS, ``%LOCALAPPDATA%\\sos-tui`` on Windows). Setting the environment
variable ``SOS_TUI_DATA_DIR`` moves everything elsewhere; tests and CI point it at a temporary
folder. It is read on every call, so changing it takes effect at once.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

from sos_tui.i18n import N_

from .errors import StorageError, describe, shown_path

APP_NAME = "sos-tui"
ENV_VAR = "SOS_TUI_DATA_DIR"
CONFINE_VAR = "SOS_TUI_CONFINE"
"""Set (to anything) for the tabs of ``sos-tui web --separate-data``, a public server: a path the
player types may only name a file in the data folder, and a game is hosted on this machine's own
loopback only, since a visitor must not read, write or listen as the server's user."""
AUTOSAVES_NAME = "autosaves"
HISTORY_NAME = "history.sqlite3"
ROOMS_NAME = "rooms.sqlite3"
SAVES_NAME = "saves"


def _ensure(folder: Path) -> Path:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise StorageError(N_("cannot create the folder {path}: {reason}"), path=shown_path(folder),
                           reason=describe(error)) from error
    if not folder.is_dir():
        raise StorageError(N_("{path} is not a folder"), path=shown_path(folder))
    return folder


def data_dir() -> Path:
    """The folder for all of sos-tui's files, created if missing.

    ``$SOS_TUI_DATA_DIR`` when set (``~`` is expanded), else the platform's user data folder.
    Raises StorageError if it cannot be created.
    """
    override = os.environ.get(ENV_VAR, "").strip()
    if override:
        folder = Path(override).expanduser()
    else:
        folder = platformdirs.user_data_path(APP_NAME, appauthor=False)
    return _ensure(folder)


def confined() -> bool:
    """Whether this process is a public web server's tab (``CONFINE_VAR``)."""
    return bool(os.environ.get(CONFINE_VAR))


def within_data(path: Path) -> bool:
    """Whether ``path`` (symbolic links followed) lies in the data folder: always true unless
    ``confined()``."""
    if not confined():
        return True
    try:
        return path.expanduser().resolve().is_relative_to(data_dir().resolve())
    except (OSError, RuntimeError, ValueError):
        return False


def saves_dir() -> Path:
    """The folder for saved games (``<data>/saves``), created if missing."""
    return _ensure(data_dir() / SAVES_NAME)


def autosaves_dir() -> Path:
    """The folder of autosaved games in progress (``<data>/autosaves``), created if missing."""
    return _ensure(data_dir() / AUTOSAVES_NAME)


def history_db_path() -> Path:
    """The SQLite history of finished games (``<data>/history.sqlite3``); it may not exist yet."""
    return data_dir() / HISTORY_NAME


def rooms_db_path() -> Path:
    """The network rooms of ``sos-tui server`` and ``host --headless`` (``<data>/rooms.sqlite3``)."""
    return data_dir() / ROOMS_NAME
