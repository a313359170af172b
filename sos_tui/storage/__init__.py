"""Storage: the per-user data folder, game files (saves, autosave) and the history database.

Imports only the engine, the standard library and platformdirs.
"""

from .errors import HistoryError, LoadError, StorageError
from .files import (
    MAX_FILE_BYTES,
    SaveInfo,
    autosave,
    autosave_path,
    clear_autosave,
    default_save_name,
    list_autosaves,
    list_saves,
    load_autosave,
    load_record,
    save_record,
    unique_save_path,
)
from .history import History, HistoryEntry, OpponentStats, Stats, format_history
from .paths import ENV_VAR, autosaves_dir, data_dir, history_db_path, saves_dir

__all__ = [
    "ENV_VAR", "MAX_FILE_BYTES", "History", "HistoryEntry", "HistoryError", "LoadError", "OpponentStats",
    "SaveInfo", "Stats", "StorageError", "autosave", "autosave_path", "autosaves_dir", "clear_autosave",
    "data_dir", "default_save_name", "format_history", "history_db_path", "list_autosaves", "list_saves",
    "load_autosave", "load_record", "save_record", "saves_dir", "unique_save_path",
]  # fmt: skip
