"""``Recorder``: files finished games in the history, and never loses one.

When the history cannot be written (busy, full disk, damaged file) the game stays pending: in
memory, and in an outbox folder beside the database (``<data>/pending/<game id>.json``, written
atomically) so that it survives the app closing. Every later ``record`` and ``flush`` retries the
pending games first, including those an earlier run left in the outbox, and writes to the outbox
any game it could not hold earlier (a full disk): ``unsaved`` is what is still only in memory.
The history keys games by id, so a game retried twice still has one row.

When the outbox cannot be written either, a game goes to the spare outbox: a private folder in the
system's temporary folder (``spare_outbox``), often on another disk, read like the outbox at the
next start; ``spared`` is what is kept only there (it may not outlast a restart of the computer).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import stat
import tempfile
import threading
from pathlib import Path

from sos_tui.engine import GameRecord
from sos_tui.i18n import N_

from .errors import HistoryError, LoadError, StorageError, describe, shown_path
from .files import delete_save, load_record, save_record
from .history import BUSY_TIMEOUT, History
from .paths import history_db_path

__all__ = ["OUTBOX_NAME", "Recorder", "spare_outbox"]

log = logging.getLogger(__name__)

OUTBOX_NAME = "pending"


def spare_outbox(outbox: Path) -> Path:
    """The stand-in for ``outbox`` when its disk is full: ``sos-tui-pending-<key>`` in the system's
    temporary folder, the key naming the data folder (so each data folder has its own)."""
    key = hashlib.sha256(os.fsencode(os.path.abspath(outbox))).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"sos-tui-pending-{key}"


class Recorder:
    """One per app: ``record(record)`` files a finished game; ``flush()`` retries pending ones.

    Thread-safe. ``path`` is the history database (default ``history_db_path()``), ``timeout``
    how long to wait for another sos-tui's write.
    """

    def __init__(self, path: str | Path | None = None, timeout: float = BUSY_TIMEOUT) -> None:
        self._path = Path(path) if path is not None else None
        self._timeout = timeout
        self._lock = threading.Lock()
        self._pending: dict[str, GameRecord] = {}
        self._unsaved: set[str] = set()  # pending games whose latest copy is not on disk
        self._spared: set[str] = set()  # pending games whose latest copy is only in the spare outbox
        self._outbox_error: StorageError | None = None

    @property
    def path(self) -> Path:
        return self._path if self._path is not None else history_db_path()

    @property
    def outbox(self) -> Path:
        """The folder of games waiting to be recorded: ``pending/`` beside the database."""
        return self.path.parent / OUTBOX_NAME

    @property
    def pending(self) -> tuple[GameRecord, ...]:
        """The games not yet in the history, oldest first (this run's and the outbox's)."""
        with self._lock:
            self._read_outbox()
            return tuple(self._pending.values())

    @property
    def unsaved(self) -> tuple[GameRecord, ...]:
        """The pending games held only in memory: lost when sos-tui closes, unless a ``flush``
        writes them to the history or the outbox first."""
        with self._lock:
            return tuple(self._pending[game_id] for game_id in self._pending if game_id in self._unsaved)

    @property
    def spared(self) -> tuple[tuple[GameRecord, Path], ...]:
        """The pending games kept only in the spare outbox, each with its file."""
        with self._lock:
            return tuple((record, self._file(self.spare, game_id))
                         for game_id, record in self._pending.items() if game_id in self._spared)

    @property
    def spare(self) -> Path:
        return spare_outbox(self.outbox)

    @property
    def outbox_error(self) -> StorageError | None:
        """Why the outbox could not be written the last time it was tried (None: it could)."""
        return self._outbox_error

    def record(self, record: GameRecord) -> None:
        """Put the finished game ``record`` into the history, after any games still pending.

        Raises ValueError for an unfinished or aborted game (no result to keep), and StorageError,
        with a message for the player, when the history cannot be written: the game is then kept
        pending.
        """
        outcome = record.state.outcome
        if outcome is None:
            raise ValueError("only finished games go into the history; this one is still running")
        if not outcome.has_result:
            raise ValueError("an aborted game has no result and goes into no history")
        with self._lock:
            self._read_outbox()
            self._pending.pop(record.game_id, None)
            self._pending[record.game_id] = record  # last, so earlier games go first
            self._unsaved.add(record.game_id)
            self._spared.discard(record.game_id)
            _, error = self._flush()
            if record.game_id not in self._pending:
                return
            try:
                self._write_outbox()
            except StorageError as outbox_error:
                log.warning("could not keep the game in the outbox: %s", outbox_error)
            if record.game_id in self._unsaved:
                raise StorageError(N_("The game could not be added to the history ({error}). It is kept "
                                      "until sos-tui closes; it will be added as soon as the history can be "
                                      "written."),
                                   error=error) from None
            raise StorageError(N_("The game could not be added to the history ({error}). It is kept and will "
                               "be added later."), error=error)

    def flush(self) -> int:
        """Retry every pending game; return how many went into the history. Never raises for
        an unusable history: the games stay pending, in the outbox if it can be written now."""
        with self._lock:
            self._read_outbox()
            recorded, _ = self._flush()
            if self._unsaved or self._spared:
                with contextlib.suppress(StorageError):
                    self._write_outbox()
            return recorded

    # -- inside the lock ---------------------------------------------------------------------
    def _flush(self) -> tuple[int, Exception | None]:
        if not self._pending:
            return 0, None
        recorded = 0
        try:
            with History(self.path, timeout=self._timeout) as history:
                for game_id, record in list(self._pending.items()):
                    try:
                        history.record_game(record)
                    except ValueError as error:  # an unfinished game from a foreign outbox file
                        log.warning("dropping a pending game that cannot be recorded: %s", error)
                    del self._pending[game_id]
                    self._unsaved.discard(game_id)
                    self._spared.discard(game_id)
                    recorded += 1
                    self._forget(game_id)
        except (HistoryError, StorageError) as error:
            return recorded, error
        return recorded, None

    @staticmethod
    def _file(folder: Path, game_id: str) -> Path:
        return folder / f"{game_id}.json"

    def _write_outbox(self) -> None:
        """Write to the outbox every pending game not yet there (this one, any kept only in memory
        or in the spare outbox); one it cannot take goes to the spare outbox. Raises the outbox's
        StorageError when a game is not in the outbox."""
        self._outbox_error = None
        for game_id in [g for g in self._pending if g in self._unsaved or g in self._spared]:
            try:
                _save(self._pending[game_id], self.outbox, game_id)
            except StorageError as error:
                self._outbox_error = error
                if game_id in self._unsaved:
                    with contextlib.suppress(StorageError):
                        _save(self._pending[game_id], _own_folder(self.spare, create=True), game_id)
                        self._unsaved.discard(game_id)
                        self._spared.add(game_id)
                continue
            self._unsaved.discard(game_id)
            if game_id in self._spared:
                self._spared.discard(game_id)
                self._delete(self._file(self.spare, game_id))
        if self._outbox_error is not None:
            raise self._outbox_error

    def _forget(self, game_id: str) -> None:
        self._delete(self._file(self.outbox, game_id))
        self._delete(self._file(self.spare, game_id))

    @staticmethod
    def _delete(path: Path) -> None:
        try:
            delete_save(path)
        except StorageError as error:  # recorded anyway; a retry later only replaces the same row
            log.warning("could not remove a recorded game from the outbox: %s", error)

    def _read_outbox(self) -> None:
        files = _games_in(self.outbox)
        with contextlib.suppress(StorageError):
            files += _games_in(_own_folder(self.spare, create=False))
        for path in files:
            if path.stem in self._pending:
                continue  # known already; this run's copy (or the outbox's) is the newer one
            try:
                record = load_record(path)
            except LoadError as error:
                log.warning("ignoring a damaged file in the outbox: %s", error)
                continue
            if record.game_id != path.stem:  # not written by a Recorder: one file per game id
                log.warning("ignoring %s in the outbox: it holds game %s", path.name, record.game_id)
                continue
            self._pending[record.game_id] = record
            if path.parent != self.outbox:
                self._spared.add(record.game_id)


def _save(record: GameRecord, folder: Path, game_id: str) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise StorageError(N_("cannot create the folder {path}: {reason}"), path=shown_path(folder),
                           reason=describe(error)) from error
    save_record(record, folder / f"{game_id}.json")


def _own_folder(folder: Path, create: bool) -> Path:
    """``folder`` in a place others can write to (the temporary folder): made private to this user,
    and used only if it is a real folder this user owns (no one else's games get in)."""
    try:
        if create:
            folder.mkdir(mode=0o700, exist_ok=True)
        info = folder.lstat()
    except OSError as error:
        raise StorageError(N_("cannot create the folder {path}: {reason}"), path=shown_path(folder),
                           reason=describe(error)) from error
    if not stat.S_ISDIR(info.st_mode) or (hasattr(os, "getuid") and info.st_uid != os.getuid()):
        raise StorageError(N_("{path} is not a folder"), path=shown_path(folder))
    return folder


def _games_in(folder: Path) -> list[Path]:
    """The game files in ``folder``, oldest first (none when it cannot be read)."""
    try:
        return sorted(folder.glob("*.json"), key=_modified)
    except OSError:
        return []


def _modified(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0
