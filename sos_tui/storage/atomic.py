"""Writing a file whole or not at all: the one place for the temporary file, fsync and rename.

Used by the game files, the settings, the token file and the history's first creation, so each
of them leaves either the old file or the new one after a crash or a full disk, never half of
each. A temporary file is named ``.<name>.<random>`` + ``TEMP_SUFFIX`` beside its target.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

from sos_tui.engine.text import Phrase
from sos_tui.i18n import N_

from .errors import StorageError, describe, shown_path

__all__ = ["TEMP_SUFFIX", "save_reason", "sync_folder", "write_atomic"]

TEMP_SUFFIX = ".tmp"


def write_atomic(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically and return the path.

    The folder must exist. An existing file keeps its permission bits; a new one is private to
    the user (0600 on POSIX). On any failure the temporary file is removed, an existing file at
    ``path`` is left exactly as it was, and StorageError (an OSError) is raised naming the file.
    """
    path = Path(path)
    folder = path.parent
    temp_name: str | None = None
    try:
        with tempfile.NamedTemporaryFile(
            "w",
            encoding="utf-8",
            newline="\n",
            dir=folder,
            prefix=f".{path.name[:100]}.",
            suffix=TEMP_SUFFIX,
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
        sync_folder(folder)
    except (OSError, ValueError) as error:  # ValueError: a NUL or unencodable character in the name
        raise StorageError(
            N_("could not save {path}: {reason}"), path=shown_path(path), reason=save_reason(error)
        ) from error
    finally:
        if temp_name is not None:
            with contextlib.suppress(OSError):
                os.unlink(temp_name)
    return path


def sync_folder(folder: Path) -> None:
    """Flush the rename itself to disk where the OS allows it (POSIX); best effort."""
    if os.name != "posix":
        return
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def save_reason(error: BaseException) -> str:
    """Why a file could not be written or deleted, in words a player can read."""
    if isinstance(error, FileNotFoundError):
        return Phrase("the folder does not exist")
    if isinstance(error, ValueError):
        return Phrase("the name holds a character no file name can have")
    return describe(error)
