"""Game files: atomic saves, careful loading, the list of saves, the autosave and path policy.

Saving writes the whole text to a temporary file in the same folder, flushes it to disk and then
renames it over the target, so a crash or a full disk leaves either the old file or the new one,
never half of each; a temporary file left by a crash is removed later by
``clean_stale_temp_files``. Loading only reads: a bad file raises one error type, LoadError,
with the file (``path``) and the problem (``reason``), and the file itself is never changed,
moved or deleted.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import re
import stat
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from sos_tui.engine import GameRecord, RecordError, transcript
from sos_tui.i18n import N_, _

from .atomic import TEMP_SUFFIX, save_reason, write_atomic
from .errors import LoadError, Reason, StorageError, describe, shown_path
from .paths import autosaves_dir, saves_dir, within_data, within_saves

__all__ = [
    "MAX_FILE_BYTES", "LoadError", "SaveInfo", "StorageError", "autosave", "autosave_path",
    "clean_stale_temp_files", "clear_autosave", "default_save_name", "delete_save", "export_transcript",
    "list_autosaves", "list_saves", "load_autosave", "load_record", "resolve_open_path", "resolve_save_path",
    "save_record", "transcript_path", "unique_save_path",
]  # fmt: skip

log = logging.getLogger(__name__)

MAX_FILE_BYTES = 5 * 1024 * 1024
"""Files bigger than this are refused: a real game record is a few kilobytes."""
_LIMIT = MAX_FILE_BYTES // (1024 * 1024)  # in MB
STALE_TEMP_SECONDS = 60

PathLike = str | os.PathLike[str]


# -- saving ------------------------------------------------------------------------------------
def save_record(record: GameRecord, path: PathLike) -> Path:
    """Write ``record`` as JSON to ``path`` atomically (see ``write_atomic``) and return the path.

    When ``path`` is an existing folder the game is saved inside it under a fresh default name.
    """
    text = record.to_json()  # before touching the disk: a bug here must not leave a temp file
    path = Path(path)
    if _is_dir(path):
        path = unique_save_path(record, path)
    return write_atomic(path, text)


def delete_save(path: PathLike) -> bool:
    """Delete the game file at ``path``; True if it was there. Raises StorageError if it cannot be."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        return False
    except (OSError, ValueError) as error:
        raise StorageError(N_("could not delete {path}: {reason}"), path=shown_path(path),
                           reason=save_reason(error)) from error
    return True


# -- loading -----------------------------------------------------------------------------------
def load_record(path: PathLike) -> GameRecord:
    """Read and check the game record at ``path``; only reads, never changes the file.

    Raises LoadError (with ``path`` and ``reason``) when the path is empty, the file is missing,
    unreadable, a folder or other non-file, bigger than 5 MB, empty, not UTF-8 text, not JSON,
    not a game record, from a newer sos-tui, or holds an illegal move; and for any error the OS
    reports about the path (a name too long, a loop of links, ...).
    """
    if not str(path).strip():
        raise LoadError(str(path), N_("no file name given"))
    data = _read_bytes(path)
    if not data.strip():
        raise LoadError(path, N_("the file is empty"))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise LoadError(path, N_("not a game record: the file is not UTF-8 text (bad byte at position "
                              "{position})"), position=error.start) from None
    if "\x00" in text:
        raise LoadError(path, N_("not a game record: the file holds binary data"))
    try:
        return GameRecord.from_json(text)
    except RecordError as error:  # kept whole: explain() says it in the player's language
        raise LoadError(path, error) from None
    except RecursionError:
        raise LoadError(path, N_("not a game record: the JSON is nested too deeply")) from None
    except (ValueError, TypeError, KeyError) as error:  # belt and braces: the engine should not
        raise LoadError(path, N_("not a game record ({reason})"), reason=describe(error)) from None


def _open_reason(error: BaseException, path: PathLike) -> Reason:
    if isinstance(error, FileNotFoundError):
        return Reason(N_("no such file"))
    if isinstance(error, IsADirectoryError) or (isinstance(error, PermissionError) and os.path.isdir(path)):
        return Reason(N_("is a folder, not a game file"))  # on Windows opening a folder is a PermissionError
    if isinstance(error, PermissionError):
        return Reason(N_("permission denied, cannot read the file"))
    if isinstance(error, ValueError):
        return Reason(N_("not a usable file name (it holds a NUL or an unencodable character)"))
    return Reason(N_("cannot open the file ({reason})"), reason=describe(error))


def _read_bytes(path: PathLike) -> bytes:
    flags = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)  # non-blocking: a named pipe must not hang the app
    except (OSError, ValueError) as error:
        raise LoadError(path, _open_reason(error, path)) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise LoadError(path, N_("is a folder, not a game file"))
        if not stat.S_ISREG(info.st_mode):
            raise LoadError(path, N_("not a regular file"))
        if info.st_size > MAX_FILE_BYTES:
            raise LoadError(path, N_("the file is too big to be a game record ({size} MB; the limit is "
                                  "{limit} MB)"), size=f"{info.st_size / 1024 / 1024:.1f}", limit=_LIMIT)
        chunks, total = [], 0
        while chunk := os.read(fd, 1 << 16):
            chunks.append(chunk)
            total += len(chunk)
            if total > MAX_FILE_BYTES:  # it grew while we read
                raise LoadError(path, N_("the file is too big to be a game record (the limit is {limit} MB)"),
                                limit=_LIMIT)
        return b"".join(chunks)
    except OSError as error:
        raise LoadError(path, N_("cannot read the file ({reason})"), reason=describe(error)) from None
    finally:
        os.close(fd)


# -- the list of saves -------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SaveInfo:
    """One ``*.json`` file in the saves folder, as a load dialog shows it.

    ``size`` is the board size, ``file_size`` the bytes on disk. For a file that fails to load,
    ``error`` holds the LoadError message (in the language current when the list was read),
    ``problem`` the LoadError itself (``sos_tui.i18n.explain`` says it in the current language),
    and the game fields are empty (``None``, ``()``). ``result`` is in the language current when
    the list was read ("Ana wins", "Ana menang").
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
    problem: LoadError | None = field(default=None, repr=False, compare=False)

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
            infos.append(SaveInfo(path, modified, info.st_size, error=str(error), problem=error))
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
            result=record.result_text(state, _),
            started=record.started,
            record=record,
        ))
    infos.sort(key=lambda s: (s.modified, s.path.name), reverse=True)
    return infos


NAMES_BYTES = 160
_UNSAFE = re.compile(r"[^\w\- ]+")
_SPACES = re.compile(r"\s+")


def _safe(text: str, fallback: str, limit: int = 24) -> str:
    cleaned = _SPACES.sub(" ", _UNSAFE.sub("", text.replace("_", " "))).strip(" -")
    return cleaned[:limit].strip(" -") or fallback


def default_save_name(record: GameRecord, when: datetime | None = None) -> str:
    """A file name like ``"2026-11-30-1405 Ana vs Bo 6x6.json"``.

    The time is ``when``, else the record's start in local time (now if that is unreadable).
    Names keep only letters, digits, spaces and hyphens, so the result is safe on every OS, and
    the players' part is cut to ``NAMES_BYTES`` bytes of UTF-8, so six long names in any script
    still fit a file name (at most 255 bytes on most file systems).
    """
    if when is None:
        try:
            when = datetime.fromisoformat(record.started)
            if when.tzinfo is not None:
                when = when.astimezone()
        except ValueError:
            when = datetime.now()
    names = " vs ".join(_safe(p.name, f"Player {i + 1}") for i, p in enumerate(record.players))
    if len(names.encode("utf-8")) > NAMES_BYTES:
        names = names.encode("utf-8")[:NAMES_BYTES].decode("utf-8", "ignore").rstrip(" -") + "…"
    return f"{when:%Y-%m-%d-%H%M} {names} {record.size}x{record.size}.json"


def unique_save_path(record: GameRecord, folder: PathLike | None = None) -> Path:
    """``folder / default_save_name(record)``, with `` (2)``, `` (3)``... added if taken."""
    folder = Path(folder) if folder is not None else saves_dir()
    name = default_save_name(record)
    path = folder / name
    number = 2
    while _exists(path):
        path = folder / f"{name[:-5]} ({number}).json"
        number += 1
    return path


# -- path policy: what a typed name means --------------------------------------------------------
def resolve_save_path(text: str, record: GameRecord | None = None) -> Path:
    """Where a typed name is saved: ``~`` expanded, a relative path or bare name inside the saves
    folder, ``.json`` added when missing; an existing folder means a fresh default name inside it
    (``record`` gives the name). Raises StorageError for an empty name, when the saves folder
    cannot be made, or for a path outside the saves folder in a tab of ``sos-tui web``
    (``paths.saves_confined``)."""
    if not text.strip():
        raise StorageError(N_("no file name given"))
    path = Path(text.strip()).expanduser()
    if not path.is_absolute():
        path = saves_dir() / path
    if _is_dir(path):
        return unique_save_path(record, path) if record is not None else path / "game.json"
    if path.suffix.lower() != ".json":
        path = path.with_name(path.name + ".json")
    if not within_saves(path):
        raise StorageError(N_("from a web page games are saved only in the saves folder of the computer "
                              "running sos-tui web: give a name, not a path"))
    return path


def resolve_open_path(text: str) -> Path:
    """The file a typed path means: ``~`` expanded; a relative name is looked for in the saves
    folder first (also with ``.json`` added), then taken as it is. Raises LoadError when empty, or
    for a file outside the data folder in a public web server's tab (``paths.confined``)."""
    if not text.strip():
        raise LoadError(text, N_("no file name given"))
    path = Path(text.strip()).expanduser()
    if not path.is_absolute():
        try:
            folder = saves_dir()
        except StorageError:
            folder = None
        if folder is not None:
            candidates = [folder / path]
            if path.suffix.lower() != ".json":
                candidates.append(folder / path.with_name(path.name + ".json"))
            path = next((candidate for candidate in candidates if _exists(candidate)), path)
    if not within_data(path):
        raise LoadError(text, N_("on this server only its own saved games can be opened"))
    return path


def _is_dir(path: Path) -> bool:
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def _exists(path: Path) -> bool:
    try:
        os.stat(path)
    except (OSError, ValueError):
        return False
    return True


def transcript_path(record: GameRecord, folder: PathLike | None = None) -> Path:
    """``<saves>/<default save name>.txt``: where a transcript of ``record`` is exported."""
    folder = Path(folder) if folder is not None else saves_dir()
    return folder / (Path(default_save_name(record)).stem + ".txt")


def export_transcript(record: GameRecord, folder: PathLike | None = None) -> Path:
    """Write the transcript of ``record`` atomically to ``transcript_path(record)``; return the path.

    The same transcript is simply written again; a different game's file of that name is kept
    and `` (2)``, `` (3)``... is added instead. Raises StorageError on failure.
    """
    text = transcript(record, tr=_)
    base = transcript_path(record, folder)
    path, number = base, 2
    while _exists(path) and _read_text(path) != text:
        path = base.with_name(f"{base.stem} ({number}).txt")
        number += 1
    return write_atomic(path, text)


def _read_text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


# -- autosave ----------------------------------------------------------------------------------
# One file per game in progress, named by its game id: two windows playing at once each keep
# their own game, and continuing a game goes on writing to the same file.
def autosave_path(record: GameRecord) -> Path:
    """The file ``record``'s game is autosaved to (it may not exist)."""
    return autosaves_dir() / f"{record.game_id}.json"


def _legacy_autosave_path(record: GameRecord) -> Path:
    """Where sos-tui 0.1 autosaved this game (named by a hash of start, settings and names)."""
    key = "|".join([record.started, str(record.size), record.mode.value, *(p.name for p in record.players)])
    stamp = re.sub(r"\D", "", record.started)[:14] or "game"
    return autosaves_dir() / f"{stamp}-{hashlib.sha256(key.encode('utf-8', 'replace')).hexdigest()[:8]}.json"


def autosave(record: GameRecord) -> Path | None:
    """Write ``record`` atomically to its autosave file and return the path; raises StorageError.

    A game with no moves has nothing to keep: its autosave is deleted instead, and None returned.
    """
    if not record.moves:
        clear_autosave(record)
        return None
    path = save_record(record, autosave_path(record))
    with contextlib.suppress(StorageError):
        delete_save(_legacy_autosave_path(record))  # the same game under its old name
    return path


def clear_autosave(record: GameRecord) -> bool:
    """Delete ``record``'s autosave; True if there was one. Raises StorageError if it cannot be."""
    deleted = delete_save(autosave_path(record))
    with contextlib.suppress(StorageError):
        deleted = delete_save(_legacy_autosave_path(record)) or deleted
    return deleted


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
            raise info.problem or LoadError(info.path, N_("unreadable"))
        log.warning("ignoring an autosave: %s", info.error)
    return None


def clean_stale_temp_files(older_than: float = STALE_TEMP_SECONDS) -> int:
    """Delete temporary files left by an interrupted save in the autosaves and saves folders,
    if older than ``older_than`` seconds (a younger one may be a save in progress). Returns how
    many were deleted."""
    deleted = 0
    now = time.time()
    for folder in (autosaves_dir(), saves_dir()):
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            if not (entry.name.startswith(".") and entry.name.endswith(TEMP_SUFFIX)):
                continue
            try:
                if entry.is_file(follow_symlinks=False) and now - entry.stat().st_mtime > older_than:
                    os.unlink(entry.path)
                    deleted += 1
            except OSError:
                continue
    return deleted
