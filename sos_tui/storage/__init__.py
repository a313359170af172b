"""Storage: the per-user data folder, game files (saves, autosave), the history database, the
recorder that never loses a finished game, and the player's settings.

Imports only the engine, the standard library and platformdirs. Never prints; every error is a
StorageError, LoadError or HistoryError whose message a player can read (see ``describe``).
"""

import logging

from .atomic import write_atomic
from .errors import HistoryError, LoadError, StorageError, describe
from .files import (
    MAX_FILE_BYTES,
    SaveInfo,
    autosave,
    autosave_path,
    clean_stale_temp_files,
    clear_autosave,
    default_save_name,
    delete_save,
    export_transcript,
    list_autosaves,
    list_saves,
    load_autosave,
    load_record,
    resolve_open_path,
    resolve_save_path,
    save_record,
    transcript_path,
    unique_save_path,
)
from .history import Filters, History, HistoryEntry, OpponentStats, Stats
from .paths import ENV_VAR, autosaves_dir, data_dir, history_db_path, saves_dir
from .pruning import prune_autosaves
from .recorder import Recorder
from .settings import load_settings, save_settings

logging.getLogger(__name__).addHandler(logging.NullHandler())  # warnings go where the app sends them

__all__ = [
    "ENV_VAR", "MAX_FILE_BYTES", "Filters", "History", "HistoryEntry", "HistoryError", "LoadError",
    "OpponentStats", "Recorder", "SaveInfo", "Stats", "StorageError", "autosave", "autosave_path",
    "autosaves_dir", "clean_stale_temp_files", "clear_autosave", "data_dir", "default_save_name",
    "delete_save", "describe", "export_transcript", "history_db_path", "list_autosaves", "list_saves",
    "load_autosave", "load_record", "load_settings", "prune_autosaves", "resolve_open_path",
    "resolve_save_path", "save_record", "save_settings", "saves_dir", "transcript_path", "unique_save_path",
    "write_atomic",
]  # fmt: skip
