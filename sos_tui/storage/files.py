"""Game files: atomic saves, careful loading, the list of saves and the autosave.

Saving writes the whole record to a temporary file in the same folder, flushes it to disk and then
renames it over the target, so a crash or a full disk leaves either the old file or the new one,
never half of each. Loading only reads: a bad file raises one error type, LoadError, whose message
names the file and the problem, and the file itself is never changed, moved or deleted.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import re
import stat
import tempfile
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from sos_tui.engine import GameRecord, RecordError

from .errors import LoadError, StorageError
from .paths import autosaves_dir, saves_dir

__all__ = [
    "MAX_FILE_BYTES", "LoadError", "SaveInfo", "StorageError", "autosave", "autosave_path", "clear_autosave",
    "default_save_name", "list_autosaves", "list_saves", "load_autosave", "load_record", "save_record",
    "unique_save_path",
]  # fmt: skip

log = logging.getLogger(__name__)

MAX_FILE_BYTES = 5 * 1024 * 1024
"""Files bigger than this are refused: a real game record is a few kilobytes."""

PathLike = str | os.PathLike[str]


# -- saving ------------------------------------------------------------------------------------
def save_record(record: GameRecord, path: PathLike) -> Path:
    """Write ``record`` as JSON to ``path`` atomically and return the path.

    The folder must exist. An existing file keeps its permission bits; a new one is private to
    the user (0600 on POSIX). On any failure the temporary file is removed, an existing file at
    ``path`` is left exactly as it was, and StorageError (an OSError) is raised naming the file.
    """
    path = Path(path)
    text = record.to_json()  # before touching the disk: a bug here must not leave a temp file
    folder = path.parent
    temp_name: str | None = None
    try:
        with tempfile.NamedTemporaryFile(
            "w", encoding="utf-8", newline="\n", dir=folder, prefix=f".{path.name}.", suffix=".tmp",
            delete=False,
        ) as handle:
            temp_name = handle.name
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        with contextlib.suppress(OSError):
            os.chmod(temp_name, stat.S_IMODE(os.stat(path).st_mode))
        os.replace(temp_name, path)
        temp_name = None
        _sync_folder(folder)
    except OSError as error:
        raise StorageError(f"could not save {path}: {_reason(error)}") from error
    finally:
        if temp_name is not None:
            with contextlib.suppress(OSError):
                os.unlink(temp_name)
    return path


def _sync_folder(folder: Path) -> None:
    """Flush the rename itself to disk where the OS allows it (POSIX); best effort."""
    if os.name != "posix":
        return
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _reason(error: OSError) -> str:
    if isinstance(error, FileNotFoundError):
        return "the folder does not exist"
    if isinstance(error, PermissionError):
        return "permission denied"
    if isinstance(error, IsADirectoryError):
        return "it is a folder"
    return error.strerror or str(error) or type(error).__name__


# -- loading -----------------------------------------------------------------------------------
def load_record(path: PathLike) -> GameRecord:
    """Read and check the game record at ``path``; only reads, never changes the file.

    Raises LoadError, with a message starting with the file name, when the file is missing,
    unreadable, a folder or other non-file, bigger than 5 MB, empty, not UTF-8 text, not JSON,
    not a game record, from a newer sos-tui, or holds an illegal move.
    """
    path = Path(path)
    data = _read_bytes(path)
    if not data.strip():
        raise LoadError(f"{path}: the file is empty")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise LoadError(f"{path}: not a game record: the file is not UTF-8 text "
                        f"(bad byte at position {error.start})") from None
    if "\x00" in text:
        raise LoadError(f"{path}: not a game record: the file holds binary data")
    try:
        return GameRecord.from_json(text)
    except RecordError as error:
        raise LoadError(f"{path}: {error}") from None
    except RecursionError:
        raise LoadError(f"{path}: not a game record: the JSON is nested too deeply") from None
    except (ValueError, TypeError, KeyError) as error:  # belt and braces: the engine should not
        raise LoadError(f"{path}: not a game record ({error})") from None


def _read_bytes(path: Path) -> bytes:
    if path.is_dir():  # on Windows opening a folder is a PermissionError; say what it really is
        raise LoadError(f"{path}: is a folder, not a game file")
    flags = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)  # non-blocking: a named pipe must not hang the app
    except FileNotFoundError:
        raise LoadError(f"{path}: no such file") from None
    except PermissionError:
        raise LoadError(f"{path}: permission denied, cannot read the file") from None
    except IsADirectoryError:
        raise LoadError(f"{path}: is a folder, not a game file") from None
    except OSError as error:
        raise LoadError(f"{path}: cannot open the file ({_reason(error)})") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise LoadError(f"{path}: is a folder, not a game file")
        if not stat.S_ISREG(info.st_mode):
            raise LoadError(f"{path}: not a regular file")
        if info.st_size > MAX_FILE_BYTES:
            raise LoadError(f"{path}: the file is too big to be a game record "
                            f"({info.st_size / 1024 / 1024:.1f} MB; the limit is 5 MB)")
        chunks, total = [], 0
        while chunk := os.read(fd, 1 << 16):
            chunks.append(chunk)
            total += len(chunk)
            if total > MAX_FILE_BYTES:  # it grew while we read
                raise LoadError(f"{path}: the file is too big to be a game record (the limit is 5 MB)")
        return b"".join(chunks)
    except OSError as error:
        raise LoadError(f"{path}: cannot read the file ({_reason(error)})") from None
    finally:
        os.close(fd)


# -- the list of saves -------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SaveInfo:
    """One ``*.json`` file in the saves folder, as a load dialog shows it.

    ``size`` is the board size, ``file_size`` the bytes on disk. For a file that fails to load,
    ``error`` holds the LoadError message and the game fields are empty (``None``, ``()``).
    """

    path: Path
    modified: datetime
    file_size: int
    players: tuple[str, ...] = ()
    size: int | None = None
    mode: str | None = None
    scores: tuple[int, ...] = ()
    finished: bool = False
    moves: int = 0
    result: str | None = None
    started: str | None = None
    error: str | None = None
    record: GameRecord | None = field(default=None, repr=False, compare=False)

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def name(self) -> str:
        return self.path.name


def list_saves(folder: PathLike | None = None) -> list[SaveInfo]:
    """Every ``*.json`` file in ``folder`` (default: the saves folder), newest first.

    Files that fail to load are listed too, with ``error`` set; this never raises for a bad
    file. A missing folder gives an empty list.
    """
    folder = Path(folder) if folder is not None else saves_dir()
    try:
        candidates = [p for p in folder.iterdir()
                      if p.suffix.lower() == ".json" and not p.name.startswith(".")]
    except OSError:
        return []
    infos = []
    for path in candidates:
        try:
            info = path.stat()
        except OSError:
            continue  # vanished while we looked
        modified = datetime.fromtimestamp(info.st_mtime).astimezone()
        try:
            record = load_record(path)
        except LoadError as error:
            infos.append(SaveInfo(path, modified, info.st_size, error=str(error)))
            continue
        state = record.state
        infos.append(SaveInfo(
            path, modified, info.st_size,
            players=tuple(p.name for p in record.players),
            size=record.size,
            mode=record.mode.value,
            scores=state.scores,
            finished=state.is_over,
            moves=state.move_count,
            result=record.result_text(state),
            started=record.started,
            record=record,
        ))
    infos.sort(key=lambda s: (s.modified, s.path.name), reverse=True)
    return infos


_UNSAFE = re.compile(r"[^\w\- ]+")
_SPACES = re.compile(r"\s+")


def _safe(text: str, fallback: str, limit: int = 24) -> str:
    cleaned = _SPACES.sub(" ", _UNSAFE.sub("", text.replace("_", " "))).strip(" -")
    return cleaned[:limit].strip(" -") or fallback


def default_save_name(record: GameRecord, when: datetime | None = None) -> str:
    """A file name like ``"2026-11-30-1405 Ana vs Bo 6x6.json"``.

    The time is ``when``, else the record's start in local time (now if that is unreadable).
    Names keep only letters, digits, spaces and hyphens, so the result is safe on every OS.
    """
    if when is None:
        try:
            when = datetime.fromisoformat(record.started)
            if when.tzinfo is not None:
                when = when.astimezone()
        except ValueError:
            when = datetime.now()
    names = " vs ".join(_safe(p.name, f"Player {i + 1}") for i, p in enumerate(record.players))
    return f"{when:%Y-%m-%d-%H%M} {names} {record.size}x{record.size}.json"


def unique_save_path(record: GameRecord, folder: PathLike | None = None) -> Path:
    """``folder / default_save_name(record)``, with `` (2)``, `` (3)``... added if taken."""
    folder = Path(folder) if folder is not None else saves_dir()
    name = default_save_name(record)
    path = folder / name
    number = 2
    while path.exists():
        path = folder / f"{name[:-5]} ({number}).json"
        number += 1
    return path


# -- autosave ----------------------------------------------------------------------------------
# One file per game in progress, named after the game: two windows playing at once each keep
# their own game, and continuing a game goes on writing to the same file.
def autosave_path(record: GameRecord) -> Path:
    """The file ``record``'s game is autosaved to (it may not exist)."""
    key = "|".join([record.started, str(record.size), record.mode.value, *(p.name for p in record.players)])
    stamp = re.sub(r"\D", "", record.started)[:14] or "game"
    return autosaves_dir() / f"{stamp}-{hashlib.sha256(key.encode()).hexdigest()[:8]}.json"


def autosave(record: GameRecord) -> Path:
    """Write ``record`` atomically to its autosave file; raises StorageError on failure."""
    return save_record(record, autosave_path(record))


def list_autosaves() -> list[SaveInfo]:
    """The autosaved games, newest first (bad files listed with ``error`` set)."""
    return list_saves(autosaves_dir())


def load_autosave(strict: bool = False) -> GameRecord | None:
    """The most recently autosaved game, or None when there is none.

    Corrupt autosaves are skipped (with a logged warning) and left on disk untouched, for a
    curious user to inspect. With ``strict=True`` the newest one being corrupt raises LoadError
    instead, so the app can tell the user.
    """
    for info in list_autosaves():
        if info.ok:
            return info.record
        if strict:
            raise LoadError(info.error)
        log.warning("ignoring an autosave: %s", info.error)
    return None


def clear_autosave(record: GameRecord) -> bool:
    """Delete ``record``'s autosave; True if there was one. Raises StorageError if it cannot be."""
    path = autosave_path(record)
    try:
        path.unlink()
    except FileNotFoundError:
        return False
    except OSError as error:
        raise StorageError(f"could not delete {path}: {_reason(error)}") from error
    return True
