"""The error types of the storage layer, and ``describe``: an OS or database error in a player's words.

Every StorageError, LoadError and HistoryError message is built with ``describe``, so a full disk
reads "the disk is full" whether the file system or SQLite noticed it first.
"""

from __future__ import annotations

import errno
import sqlite3

from sos_tui.engine.text import printable, shorten


class StorageError(OSError):
    """Something could not be written (a save, the autosave, the data folder, the history).

    The message names the file and the reason; the original error is the ``__cause__``.
    """


class LoadError(ValueError):
    """A game file that cannot be opened: missing, unreadable, too big, not text or not a game.

    ``path`` is the file as given (None when unknown) and ``reason`` what is wrong with it; the
    message is both, the path escaped and shortened so it is safe to print. The file is never
    changed.
    """

    def __init__(self, path, reason: str | None = None) -> None:
        if reason is None:  # LoadError("message"): the old one-argument form
            path, reason = None, str(path)
        self.path = path
        self.reason = reason
        super().__init__(f"{shown_path(path)}: {reason}" if path is not None else reason)


class HistoryError(Exception):
    """The history database cannot be used: not ours, damaged, newer than this sos-tui, or busy."""


def history_error(path, error: BaseException, doing: str = "use") -> HistoryError:
    """``cannot use the history <path>: the disk is full`` as a HistoryError."""
    return HistoryError(f"cannot {doing} the history {shown_path(path)}: {describe(error)}")


def shown_path(path) -> str:
    """A path as a message shows it: escaped (no terminal control) and at most 200 characters."""
    text = path if isinstance(path, str) else str(path)
    return shorten(printable(text), 200)


_OS_WORDS = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EROFS: "the disk is read-only",
    errno.ENOENT: "the file or folder does not exist",
    errno.ENOTDIR: "a part of the path is not a folder",
    errno.EISDIR: "it is a folder",
    errno.ENAMETOOLONG: "the name is too long",
    errno.ELOOP: "too many symbolic links",
    errno.EIO: "the disk reported an error",
    errno.EMFILE: "too many files are open",
    errno.EEXIST: "a file of that name is in the way",
    errno.EBUSY: "the file is in use",
    errno.ETXTBSY: "the file is in use",
}

_BUSY = "the history database is busy (another sos-tui is writing to it)"
_DAMAGED = "the history file is damaged or is not an sos-tui history"
_SQLITE_WORDS = {  # primary result codes, https://sqlite.org/rescode.html
    3: "permission denied",  # SQLITE_PERM
    5: _BUSY,  # SQLITE_BUSY
    6: _BUSY,  # SQLITE_LOCKED
    7: "out of memory",  # SQLITE_NOMEM
    8: "the history file is read-only",  # SQLITE_READONLY
    10: "the disk reported an error",  # SQLITE_IOERR
    11: _DAMAGED,  # SQLITE_CORRUPT
    13: "the disk is full",  # SQLITE_FULL
    14: "the history file cannot be opened",  # SQLITE_CANTOPEN
    23: "permission denied",  # SQLITE_AUTH
    26: _DAMAGED,  # SQLITE_NOTADB
}


def describe(error: BaseException) -> str:
    """``error`` in words a player understands: "the disk is full", "permission denied", ..."""
    if isinstance(error, sqlite3.Error):
        code = getattr(error, "sqlite_errorcode", None)
        if code is not None and code & 0xFF in _SQLITE_WORDS:
            return _SQLITE_WORDS[code & 0xFF]
        text = str(error).lower()
        if "locked" in text or "busy" in text:
            return _BUSY
        if "malformed" in text or "not a database" in text:
            return _DAMAGED
        return shorten(printable(str(error) or type(error).__name__), 200)
    if isinstance(error, OSError):
        words = _OS_WORDS.get(error.errno)
        if words:
            return words
        return shorten(printable(error.strerror or str(error) or type(error).__name__), 200)
    if isinstance(error, UnicodeError):
        return "the name holds characters this system cannot store"
    return shorten(printable(str(error) or type(error).__name__), 200)
