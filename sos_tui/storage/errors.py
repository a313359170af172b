"""The error types of the storage layer, each with a message fit to show a user."""

from __future__ import annotations


class StorageError(OSError):
    """Something could not be written (a save, the autosave, the data folder).

    The message names the file and the reason; the original OSError is the ``__cause__``.
    """


class LoadError(ValueError):
    """A game file that cannot be opened: missing, unreadable, too big, not text or not a game.

    The message names the file and what is wrong with it. The file is never changed.
    """


class HistoryError(Exception):
    """The history database cannot be used: not a database, newer than this sos-tui, or locked."""
