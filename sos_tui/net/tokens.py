"""Seat tokens kept in the data folder (``net-seats.json``), so the same command gets the same seat
back: by game address *and* by whose seat it is. A host's own seats and each seat a joiner took
are kept apart (``SeatKey``), so one person hosting in one terminal and joining in another on the
same data folder (or ``sos-tui web`` tabs that host and join each other) never has one token put
in the place of the other: a restarted host retakes its own seats, a restarted joiner its own.

While a process plays a seat it holds a lock (``flock``) on a file of that seat's own in
``net-seats.json.locks/``, so another process of the same account joining that game does not take
the seat with the token but joins as someone else; the lock goes with the process, so a terminal
that crashed leaves its seat to be taken up again. Lock files go with their tokens.

The file (docs/protocol.md): ``{"format": "sos-tui-seats", "version": 2, "seats": [{"address",
"role", "name", "token", "saved"}, ...]}``. A file of version 1 (``"seats": {address: {"token",
"saved"}}``, whose seats they were not said) is read as tokens of role ``unknown``, offered to
whoever asks at that address until one keeps it under its own key. A corrupt or foreign file holds
no token, and the next token kept replaces it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: no lock, a second terminal there may take the seat up (as before)
    fcntl = None

FORMAT, VERSION = "sos-tui-seats", 2
MAX_TOKENS = 100
"""Tokens kept at most, the newest: older games' go, with their lock files."""
HOST, PLAYER, UNKNOWN = "host", "player", "unknown"
MAX_TEXT = 400  # an address or a name longer than this is not one this program kept


@dataclass(frozen=True)
class SeatKey:
    """Whose seat a token is at a game's ``address``: the host's own seats (``role`` ``host``), or
    the seat a joiner called ``name`` took (``player``; a seat's number changes at a rematch, its
    player's name does not; names are compared as the server compares them, casefolded);
    ``unknown`` for a token an older sos-tui kept by address alone."""

    address: str
    role: str
    name: str | None = None

    @classmethod
    def host(cls, address: str) -> SeatKey:
        return cls(address, HOST)

    @classmethod
    def player(cls, address: str, name: str | None) -> SeatKey:
        return cls(address, PLAYER, name.casefold() if name is not None else None)

    @property
    def lock_name(self) -> str:
        """The name of this seat's lock file (a version-1 token's is the one that version used)."""
        text = self.address if self.role == UNKNOWN else f"{self.address}\n{self.role}\n{self.name or ''}"
        return hashlib.sha256(text.encode()).hexdigest()[:32]


@dataclass(frozen=True)
class _Kept:
    key: SeatKey
    token: str
    saved: float

    def to_dict(self) -> dict:
        return {"address": self.key.address, "role": self.key.role, "name": self.key.name,
                "token": self.token, "saved": self.saved}


class TokenStore:
    """Seat tokens by ``SeatKey``, in ``<data>/net-seats.json`` (or only in memory with no path)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self._memory: dict[SeatKey, _Kept] = {}
        self._held: dict[SeatKey, int] = {}  # the open lock file of each seat played here

    @classmethod
    def default(cls) -> TokenStore:
        from sos_tui.storage import StorageError
        from sos_tui.storage.paths import tokens_path

        try:
            return cls(tokens_path())
        except StorageError:
            return cls(None)

    # -- tokens --------------------------------------------------------------------------------
    def find(self, key: SeatKey) -> str | None:
        """The token kept for ``key``, else one an older sos-tui kept for its address (whose it
        was not said); None if there is none, or if another process plays that seat now."""
        kept = self._read()
        for candidate in (key, SeatKey(key.address, UNKNOWN)):
            if candidate in kept and not self.in_use(candidate):
                return kept[candidate].token
        return None

    def seats(self) -> list[tuple[SeatKey, str]]:
        """Every seat kept here and its token, the newest first (``sos-tui games``)."""
        kept = sorted(self._read().values(), key=lambda k: k.saved, reverse=True)
        return [(k.key, k.token) for k in kept]

    def keep(self, key: SeatKey, token: str) -> None:
        """Keep ``token`` as ``key``'s (in place of what it had, and of any other key's at that
        address with the same token: a version-1 token found its owner); the oldest beyond
        MAX_TOKENS are forgotten, with their lock files. Nothing is raised if it cannot be written."""
        kept = {k: v for k, v in self._read().items()
                if k != key and not (k.address == key.address and v.token == token)}
        kept[key] = _Kept(key, token, time.time())
        self._write(dict(sorted(kept.items(), key=lambda item: item[1].saved)[-MAX_TOKENS:]))

    def forget(self, key: SeatKey) -> None:
        """Forget the token of ``key`` (its game is over for good: a bot's), with its lock file once
        nobody holds it. Nothing is raised if it cannot be written."""
        kept = self._read()
        if kept.pop(key, None) is not None:
            self._write(kept)

    def _write(self, kept: dict[SeatKey, _Kept]) -> None:
        if self.path is None:
            self._memory = kept
            return
        from sos_tui.storage import StorageError, write_atomic

        seats = [k.to_dict() for k in kept.values()]
        text = json.dumps({"format": FORMAT, "version": VERSION, "seats": seats}, indent=1)
        with contextlib.suppress(StorageError, OSError):
            write_atomic(self.path, text + "\n")
            self._prune_locks({k.lock_name for k in kept})

    def _read(self) -> dict[SeatKey, _Kept]:
        if self.path is None:
            return dict(self._memory)
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError):
            return {}
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            return {}
        seats = data.get("seats")
        if data.get("version") == 1 and isinstance(seats, dict):
            found = (_kept(address, UNKNOWN, None, entry.get("token"), entry.get("saved"))
                     for address, entry in seats.items() if isinstance(entry, dict))
        elif isinstance(seats, list):
            found = (_kept(entry.get("address"), entry.get("role"), entry.get("name"), entry.get("token"),
                           entry.get("saved")) for entry in seats if isinstance(entry, dict))
        else:
            return {}
        return {k.key: k for k in found if k is not None}

    # -- locks ---------------------------------------------------------------------------------
    def _lock_path(self, key: SeatKey) -> Path | None:
        if self.path is None or fcntl is None:
            return None
        return self._locks() / key.lock_name

    def _locks(self) -> Path:
        return self.path.with_name(self.path.name + ".locks")

    def hold(self, key: SeatKey) -> None:
        """Mark the seat ``key`` as played by this process (until ``release``)."""
        lock = self._lock_path(key)
        if lock is None or key in self._held:
            return
        try:
            lock.parent.mkdir(exist_ok=True)
            fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return
        self._held[key] = fd

    def release(self, key: SeatKey) -> None:
        fd = self._held.pop(key, None)
        if fd is not None:
            os.close(fd)  # the lock goes with the descriptor

    def in_use(self, key: SeatKey) -> bool:
        """Whether another process plays the seat ``key`` now."""
        lock = self._lock_path(key)
        if lock is None or key in self._held:
            return False
        try:
            fd = os.open(lock, os.O_RDONLY)
        except OSError:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            return True
        finally:
            os.close(fd)
        return False

    def _prune_locks(self, names: set[str]) -> None:
        """Remove the lock files of tokens no longer kept, unless a process still holds one."""
        if fcntl is None:
            return
        with contextlib.suppress(OSError):
            for lock in self._locks().iterdir():
                if lock.name not in names:
                    _remove_unheld(lock)


def _remove_unheld(lock: Path) -> None:
    try:
        fd = os.open(lock, os.O_RDONLY)
    except OSError:
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        lock.unlink()  # while it is held here: nobody takes it between the test and the removal
    except OSError:
        pass
    finally:
        os.close(fd)


def _kept(address, role, name, token, saved) -> _Kept | None:
    """One token read from the file, or None if it is not one this program keeps."""
    if not (isinstance(address, str) and 0 < len(address) <= MAX_TEXT and role in (HOST, PLAYER, UNKNOWN)
            and (name is None or (isinstance(name, str) and len(name) <= MAX_TEXT))
            and isinstance(token, str) and 0 < len(token) < 100):
        return None
    if not isinstance(saved, int | float) or isinstance(saved, bool):
        saved = 0.0
    name = name.casefold() if role == PLAYER and name is not None else None
    return _Kept(SeatKey(address, role, name), token, float(saved))
