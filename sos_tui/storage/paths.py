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
"""Set for every tab of ``sos-tui web``, which a web page drives: games are saved in the saves folder
only. Set to anything but ``SAVES_ONLY`` (the tabs of ``--separate-data``, a public server): a path
the player types may also only name a file in the data folder, and a game is hosted on this
machine's own loopback only, since a visitor must not read, write or listen as the server's user."""
SAVES_ONLY = "saves"
AUTOSAVES_NAME = "autosaves"
HISTORY_NAME = "history.sqlite3"
ROOMS_NAME = "rooms.sqlite3"
TOKENS_NAME = "net-seats.json"
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
    return os.environ.get(CONFINE_VAR, "") not in ("", SAVES_ONLY)


def saves_confined() -> bool:
    """Whether this process is a tab of ``sos-tui web`` (``CONFINE_VAR``): it saves games in the
    saves folder only."""
    return bool(os.environ.get(CONFINE_VAR))


def within_data(path: Path) -> bool:
    """Whether ``path`` (symbolic links followed) lies in the data folder: always true unless
    ``confined()``."""
    return not confined() or _within(path, data_dir)


def within_saves(path: Path) -> bool:
    """Whether ``path`` (symbolic links followed) lies in the saves folder: always true unless
    ``saves_confined()``."""
    return not saves_confined() or _within(path, saves_dir)


def _within(path: Path, folder) -> bool:
    try:
        return path.expanduser().resolve().is_relative_to(folder().resolve())
    except (OSError, RuntimeError, ValueError, StorageError):
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


def tokens_path() -> Path:
    """The seat tokens of this player's network games (``<data>/net-seats.json``, ``net.tokens``)."""
    return data_dir() / TOKENS_NAME


def rooms_db_path() -> Path:
    """The network rooms of ``sos-tui server`` and ``host --headless`` (``<data>/rooms.sqlite3``)."""
    return data_dir() / ROOMS_NAME
