"""Keeping games on disk, off the caller's thread: the autosave and the history.

A ``Keeper`` listens to sessions and does the writing in one background thread, one job at a
time, so the screen never waits on a disk or a locked database:

- after every change of a game in progress, its autosave is written at the current position (a
  game with no move standing has no autosave, so nothing is offered to continue);
- when a game is over, it goes into the history, keyed by its game id (finished again after an
  undo, it replaces its row), and its autosave is removed; an aborted game only loses its
  autosave: it has no result and goes into no history.

Autosaves of one game that queue up behind a slow disk are coalesced: only the newest is written.
A history write that fails is kept by the storage layer's ``Recorder`` (in memory and in an outbox
file) and tried again with the next write, at ``close()`` and at the next start; the finished game
is also autosaved, and at the next start a finished autosave goes into the history before old
autosaves are pruned. ``close()`` returns what could not be kept anywhere, for the player.

Failures are reported through ``on_error`` in words a player understands, in the player's
language: once while a kind of write keeps failing (a full disk is one notice, not one per move),
and every finished game that cannot be recorded. The first write that works after a failure is
reported through ``on_recovery``, and the games kept meanwhile are retried at once.
"""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Callable
from typing import Protocol

from sos_tui.engine import GameRecord, Termination
from sos_tui.i18n import N_, _, explain

from .session import Change


class Store(Protocol):
    """What the keeper needs of the storage layer (``sos_tui.storage`` provides it)."""

    def autosave(self, record: GameRecord) -> object: ...
    def clear_autosave(self, record: GameRecord) -> object: ...
    def record_finished(self, record: GameRecord) -> None: ...
    def flush(self) -> int: ...
    def save_settings(self, settings: dict) -> None: ...
    def lost(self) -> list[str]: ...


class StorageStore:
    """The real store: the per-user data folder of ``sos_tui.storage``."""

    def __init__(self) -> None:
        from sos_tui import storage

        self._storage = storage
        self._recorder = storage.Recorder()
        self._playing: set[str] = set()  # the games autosaved by this app: never pruned

    def autosave(self, record: GameRecord) -> object:
        self._playing.add(record.game_id)
        return self._storage.autosave(record)

    def clear_autosave(self, record: GameRecord) -> object:
        return self._storage.clear_autosave(record)

    def record_finished(self, record: GameRecord) -> None:
        self._recorder.record(record)

    def flush(self) -> int:
        recorded = self._recorder.flush()
        for info in self._storage.list_autosaves():  # the last resort of a game not recorded
            if info.ok and info.finished and info.record.termination is not Termination.ABORT:
                with contextlib.suppress(self._storage.StorageError):
                    self._recorder.record(info.record)
        if not (self._recorder.unsaved or self._recorder.spared):  # all in the history or the outbox
            self._storage.prune_autosaves(spare=self._playing)
        self._storage.clean_stale_temp_files()
        return recorded

    def save_settings(self, settings: dict) -> None:
        self._storage.save_settings(settings)

    def lost(self) -> list[str]:
        error = explain(self._recorder.outbox_error) if self._recorder.outbox_error else "?"
        notes = [_(SPARED).format(players=_players(record), error=error, path=path)
                 for record, path in self._recorder.spared]
        for record in self._recorder.unsaved:
            path = self._autosave_before_the_end(record)
            if path is None:
                notes.append(_(LOST).format(players=_players(record), error=error))
            else:
                notes.append(_(LOST_BUT_AUTOSAVED).format(players=_players(record), error=error, path=path))
        return notes

    def _autosave_before_the_end(self, record: GameRecord):
        """The autosave of ``record``'s game, if it holds an unfinished position of it."""
        try:
            path = self._storage.autosave_path(record)
            return path if not self._storage.load_record(path).state.is_over else None
        except (self._storage.StorageError, self._storage.LoadError):
            return None


_STOP = object()


class Keeper:
    """Writes what sessions report, in order, on a thread of its own.

    ``on_error(message)`` is called from that thread; a Textual app passes a function that hops
    to the UI thread (``App.call_from_thread``).
    """

    def __init__(self, store: Store | None = None, on_error: Callable[[str], None] | None = None,
                 flush_at_start: bool = True, on_recovery: Callable[[str], None] | None = None) -> None:
        self.store = store if store is not None else StorageStore()
        self.on_error = on_error or (lambda message: None)
        self.on_recovery = on_recovery or (lambda message: None)
        self._failing: set[str] = set()  # the kinds of write failing since the last one that worked
        self._jobs: queue.Queue = queue.Queue()
        self._newest: dict[str, int] = {}  # game id -> number of its newest queued autosave
        self._count = 0
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="sos-tui keeper", daemon=True)
        self._thread.start()
        if flush_at_start:
            self._jobs.put(("flush", None, 0))

    def on_change(self, change: Change) -> None:
        """A session listener: queue what this change means for the disk."""
        record = change.record
        if change.state.termination is Termination.ABORT:
            self._forget(record)
            self._jobs.put(("aborted", record, 0))
            return
        if change.state.is_over:
            self._jobs.put(("finished", record, 0))
            return
        with self._lock:
            self._count += 1
            self._newest[record.game_id] = self._count
            number = self._count
        self._jobs.put(("autosave", record, number))

    def _forget(self, record: GameRecord) -> None:
        """No queued autosave of ``record``'s game is written any more."""
        with self._lock:
            self._newest[record.game_id] = -1

    def save_settings(self, settings: dict) -> None:
        """Remember ``settings`` (theme, last setup) for the next launch."""
        self._jobs.put(("settings", settings, 0))

    def wait(self, timeout: float | None = None) -> bool:
        """Block until every job queued so far is done (for tests and quitting); False on timeout."""
        if not self._thread.is_alive():
            return True  # closed: everything was written, or given up, already
        done = threading.Event()
        self._jobs.put(("mark", done, 0))
        return done.wait(timeout)

    def close(self, timeout: float = 10.0) -> list[str]:
        """Finish the queued writes, retry any finished game still pending, and stop. Returns one
        sentence for the player per finished game that could not be kept on disk (none: all safe)."""
        if self._thread.is_alive():
            self._jobs.put(("flush", None, 0))
            self._jobs.put((_STOP, None, 0))
            self._thread.join(timeout)
        return self.store.lost()

    # -- the thread -------------------------------------------------------------------------
    def _run(self) -> None:
        while True:
            kind, item, number = self._jobs.get()
            if kind is _STOP:
                return
            try:
                wrote = self._do(kind, item, number)
            except Exception as error:  # the thread must live on; the player is told
                self._failed(kind, error)
            else:
                if wrote:
                    self._worked()

    def _failed(self, kind: str, error: Exception) -> None:
        if kind == "finished" or kind not in self._failing:
            self.on_error(_message(kind, error))
        self._failing.add(kind)

    def _worked(self) -> None:
        if self._failing:
            self._failing.clear()
            self.on_recovery(_("Saving works again."))
            self._jobs.put(("flush", None, 0))  # the games kept meanwhile

    def _do(self, kind, item, number: int) -> bool:
        """Do one job; True when it wrote something to disk."""
        if kind == "mark":
            item.set()
        elif kind == "flush":
            return self.store.flush() > 0
        elif kind == "settings":
            self.store.save_settings(item)
            return True
        elif kind == "autosave":
            with self._lock:
                if self._newest.get(item.game_id) != number:
                    return False  # a newer position of this game is queued
            self.store.autosave(item)
            return bool(item.moves)  # no move: the autosave was only deleted
        elif kind == "aborted":
            self.store.clear_autosave(item)
            return True
        elif kind == "finished":
            try:
                self.store.record_finished(item)
            except Exception:
                # Pending now; the autosave holds the finished game too, as a last resort (pruned
                # once it is in the history), should the outbox be out of reach as well.
                with contextlib.suppress(Exception):
                    self.store.autosave(item)
                raise
            self.store.clear_autosave(item)
            return True
        return False


_MESSAGES = {
    "autosave": N_("Could not autosave this game: {error}"),
    "finished": N_("Could not add this game to the history yet (it is kept and tried again): {error}"),
    "aborted": N_("Could not remove the autosave of the aborted game: {error}"),
    "flush": N_("Could not add an earlier finished game to the history yet (it is kept): {error}"),
    "settings": N_("Could not remember the settings: {error}"),
}


SPARED = N_("the finished game {players} could not be saved in the data folder ({error}); it is kept in "
             "{path} until the computer restarts, and goes into the history the next time sos-tui starts")
LOST = N_("the finished game {players} could not be saved ({error}) and is lost")
LOST_BUT_AUTOSAVED = N_("the finished game {players} could not be saved ({error}); its last autosave, "
                        "from before the end, is {path} and sos-tui offers to continue it")


def _players(record: GameRecord) -> str:
    return _(" vs ").join(p.name for p in record.players)


def _message(kind: str, error: Exception) -> str:
    """What went wrong, in the player's language (the storage error too, see ``explain``)."""
    template = _MESSAGES.get(kind, N_("Could not save: {error}"))
    return _(template).format(error=explain(error))
