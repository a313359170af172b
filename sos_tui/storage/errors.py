"""The error types of the storage layer, and ``describe``: an OS or database error in a player's words.

Every StorageError, LoadError and HistoryError message is built with ``describe``, so a full disk
reads "the disk is full" whether the file system or SQLite noticed it first.

The player's language, in one place: each of these errors is built from an English template and
its parameters (``StorageError("could not save {path}: {reason}", path=..., reason=...)``), the way
the engine's ``RuleError`` is. ``template`` and ``params`` stay on the error, so
``sos_tui.i18n.explain(error)`` says it in the language current when it is shown; ``str(error)``
is the message in the language current when it was raised (the same, unless the player switched
in between). A parameter may be an engine error (a damaged game file's ``RecordError``), another
error of this module or a ``Phrase`` (``describe``'s words): ``explain`` puts them into the
language too, so nothing is translated twice and nothing is left in English.
"""

from __future__ import annotations

import errno
import sqlite3

from sos_tui.engine.text import Phrase, printable, shorten
from sos_tui.i18n import N_, explain


class Explained:
    """An error said from an English ``template`` and its ``params`` (see the module's doc)."""

    template: str | None = None
    params: dict = {}

    def _say(self, template: str, params: dict) -> str:
        """Keep ``template`` and ``params``; the message in the current language."""
        if not params and ("{" in template or "}" in template):  # a plain message, not a template
            template = template.replace("{", "{{").replace("}", "}}")
        self.template, self.params = template, dict(params)
        try:
            return explain(self)
        except (KeyError, IndexError, ValueError, AttributeError):  # a template that does not fit
            self.template, self.params = None, {}
            return template


class StorageError(Explained, OSError):
    """Something could not be written (a save, the autosave, the data folder, the history).

    ``StorageError(template, **params)``: the message names the file and the reason; the original
    error is the ``__cause__``.
    """

    def __init__(self, template: str, /, **params) -> None:
        super().__init__(self._say(template, params))


class LoadError(Explained, ValueError):
    """A game file that cannot be opened: missing, unreadable, too big, not text or not a game.

    ``path`` is the file as given (None when unknown) and ``reason`` what is wrong with it; the
    message is both, the path escaped and shortened so it is safe to print. The file is never
    changed. ``LoadError(path, reason_template, **params)``; the reason may also be an error
    (the engine's ``RecordError``), said by ``explain`` in the player's language.
    """

    def __init__(self, path, reason: str | BaseException | None = None, /, **params) -> None:
        if reason is None:  # LoadError("message"): the old one-argument form
            path, reason = None, path
        self.path = path
        self.cause = Reason(reason, **params) if isinstance(reason, str) else reason
        if path is None:
            super().__init__(self._say("{reason}", {"reason": self.cause}))
        else:
            super().__init__(self._say("{path}: {reason}", {"path": shown_path(path), "reason": self.cause}))

    @property
    def reason(self) -> str:
        """What is wrong with the file, in the current language."""
        return explain(self.cause)


class Reason(Explained, Exception):
    """A part of a message (a LoadError's reason): an English template and its parameters."""

    def __init__(self, template: str, /, **params) -> None:
        super().__init__(self._say(template, params))


class HistoryError(Explained, Exception):
    """The history database cannot be used: not ours, damaged, newer than this sos-tui, or busy.

    ``HistoryError(template, **params)``, like StorageError."""

    def __init__(self, template: str, /, **params) -> None:
        super().__init__(self._say(template, params))


_DOING = {
    "use": N_("cannot use the history {path}: {reason}"),
    "open": N_("cannot open the history {path}: {reason}"),
}


def history_error(path, error: BaseException, doing: str = "use") -> HistoryError:
    """``cannot use the history <path>: the disk is full`` as a HistoryError."""
    return HistoryError(_DOING.get(doing, _DOING["use"]), path=shown_path(path), reason=describe(error))


def shown_path(path) -> str:
    """A path as a message shows it: escaped (no terminal control) and at most 200 characters."""
    text = path if isinstance(path, str) else str(path)
    return shorten(printable(text), 200)


_OS_WORDS = {
    errno.ENOSPC: Phrase("the disk is full"),
    errno.EDQUOT: Phrase("the disk quota is used up"),
    errno.EACCES: Phrase("permission denied"),
    errno.EPERM: Phrase("permission denied"),
    errno.EROFS: Phrase("the disk is read-only"),
    errno.ENOENT: Phrase("the file or folder does not exist"),
    errno.ENOTDIR: Phrase("a part of the path is not a folder"),
    errno.EISDIR: Phrase("it is a folder"),
    errno.ENAMETOOLONG: Phrase("the name is too long"),
    errno.ELOOP: Phrase("too many symbolic links"),
    errno.EIO: Phrase("the disk reported an error"),
    errno.EMFILE: Phrase("too many files are open"),
    errno.EEXIST: Phrase("a file of that name is in the way"),
    errno.EBUSY: Phrase("the file is in use"),
    errno.ETXTBSY: Phrase("the file is in use"),
}

_BUSY = Phrase("the history database is busy (another sos-tui is writing to it)")
_DAMAGED = Phrase("the history file is damaged or is not an sos-tui history")
_SQLITE_WORDS = {  # primary result codes, https://sqlite.org/rescode.html
    3: Phrase("permission denied"),  # SQLITE_PERM
    5: _BUSY,  # SQLITE_BUSY
    6: _BUSY,  # SQLITE_LOCKED
    7: Phrase("out of memory"),  # SQLITE_NOMEM
    8: Phrase("the history file is read-only"),  # SQLITE_READONLY
    10: Phrase("the disk reported an error"),  # SQLITE_IOERR
    11: _DAMAGED,  # SQLITE_CORRUPT
    13: Phrase("the disk is full"),  # SQLITE_FULL
    14: Phrase("the history file cannot be opened"),  # SQLITE_CANTOPEN
    23: Phrase("permission denied"),  # SQLITE_AUTH
    26: _DAMAGED,  # SQLITE_NOTADB
}


def describe(error: BaseException) -> str:
    """``error`` in words a player understands: "the disk is full", "permission denied", ...

    Known causes are a ``Phrase``, English like the templates they go into, which ``explain``
    says in the player's language; anything else is the system's own text, escaped (data)."""
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
        return Phrase("the name holds characters this system cannot store")
    return shorten(printable(str(error) or type(error).__name__), 200)
