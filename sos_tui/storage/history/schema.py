"""The history database's tables, its migrations, and opening it without harm.

Schema versions live in ``PRAGMA user_version``: v1 was the first, minimal table; v2 added the
computed columns and the unique game key; v3 keys games by game id (a game undone and finished
differently replaces its row) and stores the point-of-view score for statistics in SQL; v4 stores
how each game ended (``termination``: every older game ran to its end, ``normal``); v5 speaks for
the person in a game against a bot (``sos-tui bot``) and names the bot as the opponent (``bot``):
its games already stored are looked at again.

``connect`` first looks at an existing file read-only (``mode=ro``): a file that is not a
database, someone else's database or from a newer sos-tui is refused with HistoryError and left
byte for byte as it was (no WAL switch, no table created). Only a file known to be ours, of a
version we read, is opened for writing and upgraded in place, keeping every game.

A new history is made whole or not at all: its tables are created in a temporary file beside it,
flushed to disk and only then moved into place, so a full disk leaves no half-made file. An empty
(0-byte) file, which is what SQLite itself makes of a new database and what an older sos-tui left
on a full disk, holds no games: it is a new history, as it is to SQLite.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import sqlite3
import stat
import tempfile
from pathlib import Path

from sos_tui.engine import GameRecord
from sos_tui.i18n import N_

from ..atomic import TEMP_SUFFIX, sync_folder
from ..errors import HistoryError, history_error, shown_path
from .facts import game_facts

__all__ = ["SCHEMA_VERSION", "connect"]

SCHEMA_VERSION = 5
DAMAGED_CODES = (11, 26)  # SQLITE_CORRUPT, SQLITE_NOTADB

SCHEMA_V1 = """
CREATE TABLE games (
    id          INTEGER PRIMARY KEY,
    finished_at TEXT NOT NULL,
    size        INTEGER NOT NULL,
    mode        TEXT NOT NULL,
    players     TEXT NOT NULL,
    record      TEXT NOT NULL,
    scores      TEXT NOT NULL,
    result      TEXT NOT NULL
)
"""
V1_COLUMNS = frozenset({"id", "finished_at", "size", "mode", "players", "record", "scores", "result"})

V2_COLUMNS = (
    ("game_key", "TEXT"),
    ("winners", "TEXT NOT NULL DEFAULT '[]'"),
    ("opponent", "TEXT NOT NULL DEFAULT 'unknown'"),
    ("pov", "INTEGER NOT NULL DEFAULT 0"),
    ("outcome", "TEXT NOT NULL DEFAULT 'unknown'"),
    ("longest_chain", "INTEGER NOT NULL DEFAULT 0"),
    ("chain_player", "INTEGER"),
    ("margin", "INTEGER NOT NULL DEFAULT 0"),
)

V2_INDEXES = (
    "CREATE UNIQUE INDEX games_key ON games (game_key)",
    "CREATE INDEX games_finished ON games (finished_at)",
    "CREATE INDEX games_opponent ON games (opponent)",
)

V3_COLUMNS = (
    ("game_id", "TEXT"),
    ("pov_score", "INTEGER NOT NULL DEFAULT 0"),
)

V4_COLUMNS = (("termination", "TEXT NOT NULL DEFAULT 'normal'"),)

COLUMNS = {  # the columns each version's table has
    1: V1_COLUMNS,
    2: V1_COLUMNS | {name for name, _ in V2_COLUMNS},
    3: V1_COLUMNS | {name for name, _ in V2_COLUMNS + V3_COLUMNS},
    4: V1_COLUMNS | {name for name, _ in V2_COLUMNS + V3_COLUMNS + V4_COLUMNS},
    5: V1_COLUMNS | {name for name, _ in V2_COLUMNS + V3_COLUMNS + V4_COLUMNS},  # v5 changed rows only
}


def _create_v1(conn: sqlite3.Connection) -> None:
    conn.execute(SCHEMA_V1)


def _migrate_v1_to_v2(conn: sqlite3.Connection) -> None:
    """Add the computed columns and fill them in from each row's record; keep every game.

    A row whose record no longer loads keeps its data, gets a key of its own and the facts that
    its scores column allows. A second copy of the same game (same key) is dropped, since v2
    refuses duplicates.
    """
    for name, kind in V2_COLUMNS:
        conn.execute(f"ALTER TABLE games ADD COLUMN {name} {kind}")
    seen: set[str] = set()
    rows = conn.execute("SELECT id, record, scores FROM games ORDER BY id").fetchall()
    for row_id, record_json, scores_json in rows:
        try:
            facts = game_facts(GameRecord.from_json(record_json))
        except (ValueError, TypeError, RecursionError):
            facts = _facts_from_scores(row_id, scores_json)
        if facts["game_key"] in seen:
            conn.execute("DELETE FROM games WHERE id = ?", (row_id,))
            continue
        seen.add(facts["game_key"])
        conn.execute(
            "UPDATE games SET game_key = :game_key, winners = :winners, opponent = :opponent, pov = :pov, "
            "outcome = :outcome, longest_chain = :longest_chain, chain_player = :chain_player, "
            "margin = :margin WHERE id = :id",
            {**facts, "id": row_id},
        )
    for statement in V2_INDEXES:
        conn.execute(statement)


def _facts_from_scores(row_id: int, scores_json: str) -> dict:
    """What can still be said about a v1 row whose record is unreadable."""
    try:
        scores = [int(s) for s in json.loads(scores_json)]
    except (ValueError, TypeError, RecursionError):
        scores = []
    winners = [i for i, s in enumerate(scores) if s == max(scores)] if scores else []
    margin = scores[0] - max(scores[1:]) if len(scores) > 1 else 0
    outcome = "unknown"
    if winners:
        outcome = "loss" if 0 not in winners else "win" if len(winners) == 1 else "draw"
    return {"game_key": f"unreadable-{row_id}", "winners": json.dumps(winners), "opponent": "unknown",
            "pov": 0, "outcome": outcome, "longest_chain": 0, "chain_player": None, "margin": margin}


def _migrate_v2_to_v3(conn: sqlite3.Connection) -> None:
    """Key games by game id: each row gets its record's id (old records: the deterministic one);
    of several rows for one game the newest stays. A row whose record no longer loads keeps its
    data under an id of its own. The point-of-view score is filled in from the scores."""
    for name, kind in V3_COLUMNS:
        conn.execute(f"ALTER TABLE games ADD COLUMN {name} {kind}")
    seen: set[str] = set()
    rows = conn.execute("SELECT id, record, scores, pov FROM games ORDER BY finished_at DESC, id DESC")
    for row_id, record_json, scores_json, pov in rows.fetchall():
        try:
            game_id = GameRecord.from_json(record_json).game_id
        except (ValueError, TypeError, RecursionError):
            game_id = f"unreadable-{row_id}"
        if game_id in seen:
            conn.execute("DELETE FROM games WHERE id = ?", (row_id,))
            continue
        seen.add(game_id)
        try:
            pov_score = int(json.loads(scores_json)[pov])
        except (ValueError, TypeError, IndexError, KeyError, RecursionError):
            pov_score = 0
        conn.execute("UPDATE games SET game_id = ?, pov_score = ? WHERE id = ?", (game_id, pov_score, row_id))
    conn.execute("DROP INDEX IF EXISTS games_key")
    conn.execute("CREATE UNIQUE INDEX games_game_id ON games (game_id)")


def _migrate_v3_to_v4(conn: sqlite3.Connection) -> None:
    """Add how each game ended; the games of older versions all ran to their end (``normal``)."""
    for name, kind in V4_COLUMNS:
        conn.execute(f"ALTER TABLE games ADD COLUMN {name} {kind}")


def _migrate_v4_to_v5(conn: sqlite3.Connection) -> None:
    """Look again at the games against a bot (a seat of the stored players marked ``"bot": true``):
    whose side the statistics take (the person's) and the opponent's kind (``bot``). A row whose
    record no longer loads stays as it was."""
    rows = conn.execute("SELECT id, record FROM games WHERE players LIKE '%\"bot\": true%'").fetchall()
    for row_id, record_json in rows:
        try:
            facts = game_facts(GameRecord.from_json(record_json))
        except (ValueError, TypeError, RecursionError):
            continue
        conn.execute(
            "UPDATE games SET pov = :pov, opponent = :opponent, pov_score = :pov_score, outcome = :outcome, "
            "margin = :margin WHERE id = :id",
            {**facts, "id": row_id},
        )


MIGRATIONS = {1: _create_v1, 2: _migrate_v1_to_v2, 3: _migrate_v2_to_v3, 4: _migrate_v3_to_v4,
              5: _migrate_v4_to_v5}
"""``MIGRATIONS[n]`` brings a database from version n - 1 to n (0 is a new file)."""


# -- opening -----------------------------------------------------------------------------------
def _refuse(path: Path, template: str, **params) -> HistoryError:
    """``template`` names the file ``{path}`` and says it was left as it is."""
    return HistoryError(template, path=shown_path(path), **params)


def _check_ours(path: Path, timeout: float) -> None:
    """Look at an existing file read-only; HistoryError unless it is an sos-tui history we read."""
    try:
        info = path.stat()
    except OSError as error:
        raise history_error(path, error, "open") from None
    if stat.S_ISDIR(info.st_mode):
        raise _refuse(path, N_("the history {path} is a folder, not a database; it was left as it is"))
    if not stat.S_ISREG(info.st_mode):  # a named pipe would hang SQLite
        raise _refuse(path, N_("the history {path} is not a regular file; it was left as it is"))
    from urllib.request import pathname2url  # here: urllib.request imports http, email and ssl (~12 ms)

    try:
        conn = sqlite3.connect(f"file:{pathname2url(str(path))}?mode=ro", uri=True, timeout=timeout)
    except sqlite3.Error as error:
        raise history_error(path, error, "open") from None
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = {row[0] for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")}
        columns = {row[1] for row in conn.execute("PRAGMA table_info(games)")}
    except sqlite3.DatabaseError as error:
        if (getattr(error, "sqlite_errorcode", 0) or 0) & 0xFF not in DAMAGED_CODES:
            raise history_error(path, error, "open") from None  # busy, unreadable, a folder...
        raise _refuse(path, N_("the history {path} is damaged or is not an SQLite database; it was "
                            "left as it is")) from None
    finally:
        conn.close()
    if version > SCHEMA_VERSION:
        raise _refuse(path, N_("the history {path} was written by a newer sos-tui (schema {version}; this "
                            "one reads up to {known}): update sos-tui to use it; it was left as it is"),
                      version=version, known=SCHEMA_VERSION)
    if version < 0 or (version == 0 and tables) or (version > 0 and not COLUMNS[version] <= columns):
        raise _refuse(path, N_("the history {path} is an SQLite database but not an sos-tui history; it "
                            "was left as it is"))


def connect(path: Path, timeout: float) -> sqlite3.Connection:
    """Open the history at ``path`` for reading and writing, creating or upgrading it; an existing
    file is checked read-only first (see the module docstring). Raises HistoryError."""
    empty = _empty_file(path)
    if empty or not (path.exists() or path.is_symlink()):
        _create(path, timeout, replace=empty)
    else:
        _check_ours(path, timeout)
    try:
        conn = sqlite3.connect(path, timeout=timeout, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as error:
        raise history_error(path, error, "open") from None
    try:
        conn.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
        conn.execute("PRAGMA journal_mode = WAL")
        _migrate(conn, path)
    except sqlite3.Error as error:
        conn.close()
        raise history_error(path, error) from None
    except BaseException:
        conn.close()
        raise
    return conn


def _version(conn: sqlite3.Connection) -> int:
    return conn.execute("PRAGMA user_version").fetchone()[0]


def _migrate(conn: sqlite3.Connection, path: Path) -> None:
    if _version(conn) == SCHEMA_VERSION:
        return
    conn.execute("BEGIN IMMEDIATE")  # one upgrader at a time; others wait, then see it done
    try:
        version = _version(conn)
        if version > SCHEMA_VERSION:  # another, newer sos-tui upgraded it since we looked
            raise _refuse(path, N_("the history {path} was written by a newer sos-tui (schema {version}); it "
                                  "was left as it is"), version=version)
        for step in range(version + 1, SCHEMA_VERSION + 1):
            MIGRATIONS[step](conn)
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
        raise


def _empty_file(path: Path) -> bool:
    """``path`` is a 0-byte regular file (not a link to one): a history with no games yet."""
    try:
        info = path.lstat()
    except OSError:
        return False
    return stat.S_ISREG(info.st_mode) and info.st_size == 0


def _create(path: Path, timeout: float, replace: bool) -> None:
    """Make a new, empty history at ``path`` whole: tables in a temporary file beside it, flushed
    to disk, then moved into place (over the empty file there when ``replace``; else never over a
    history another sos-tui made meanwhile). On any failure the temporary file is removed, nothing
    is left at ``path``, and HistoryError says why ("the disk is full")."""
    temp: str | None = None
    try:
        handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=TEMP_SUFFIX)
        os.close(handle)
        conn = sqlite3.connect(temp, timeout=timeout, isolation_level=None)
        try:
            conn.execute("PRAGMA journal_mode = MEMORY")  # no journal file beside the temporary one
            _migrate(conn, path)
        finally:
            conn.close()
        _fsync(temp)
        if replace:
            os.replace(temp, path)
        else:
            _link(temp, path)
        sync_folder(path.parent)
    except (OSError, sqlite3.Error) as error:
        raise history_error(path, error) from None
    finally:
        if temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(temp)


def _fsync(name: str) -> None:
    handle = os.open(name, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


def _link(temp: str, path: Path) -> None:
    """Give ``temp`` the name ``path`` unless that name is taken (another sos-tui's new history)."""
    try:
        os.link(temp, path)
    except FileExistsError:
        pass
    except OSError as error:
        if error.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.ENOSYS):
            raise
        os.replace(temp, path)  # a file system without hard links
