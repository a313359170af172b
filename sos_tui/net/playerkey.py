"""The player key: a random secret made on first use and kept in the data folder (``player-key``),
from which ``hello``'s ``key`` is made for each server (``key_for``: never the secret itself, so a
friend's host cannot play as you on a rated server), so that a server can tell the same person
across games and rate them, without an account. A server keeps only its hash
(``protocol.token_hash``).

The file holds the key on one line, private to the user (0600), written atomically. A file that
does not hold a key of the right shape (``check_key``) is made anew, with a warning on the log;
a data folder that cannot be written leaves a key for this run only.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import logging
import os
import re
import secrets
from pathlib import Path

from sos_tui.i18n import _

log = logging.getLogger(__name__)

KEY_NAME = "player-key"
_SHAPE = re.compile(r"[A-Za-z0-9_-]{32,64}")


def check_key(text: str) -> bool:
    """True for a key of the right shape: 32 to 64 letters, digits, ``-`` or ``_``."""
    return _SHAPE.fullmatch(text) is not None


def key_for(secret: str, server: str) -> str:
    """What is sent to the server at ``server`` (``ws://HOST:PORT``): a key of its own, made from the
    kept ``secret`` (HMAC-SHA256), so no server (a friend's host included) learns what another
    server knows this player by."""
    digest = hmac.new(secret.encode(), server.casefold().encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def new_key() -> str:
    """A new player key: 256 random bits."""
    return secrets.token_urlsafe(32)


def player_key(folder: Path) -> str:
    """The key kept in ``folder`` (made there on first use, or anew if the file is corrupt)."""
    from sos_tui.storage import StorageError, write_atomic
    from sos_tui.storage.errors import shown_path

    path = folder / KEY_NAME
    try:
        text = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        text = None
    except (OSError, UnicodeDecodeError, ValueError):
        text = ""
    if text is not None and check_key(text):
        return text
    if text is not None:
        log.warning(
            _("the player key {path} is damaged: a new one is made (ratings on servers start again)").format(
                path=shown_path(path)
            )
        )
    key = new_key()
    try:
        write_atomic(path, key + "\n")
        with contextlib.suppress(OSError):
            os.chmod(path, 0o600)
    except StorageError as problem:
        log.warning(_("the player key cannot be kept: {reason}").format(reason=problem))
    return key


def default_key() -> str | None:
    """The key of the data folder in use, or None when there is no data folder."""
    from sos_tui.storage import StorageError, data_dir

    try:
        return player_key(data_dir())
    except StorageError:
        return None
