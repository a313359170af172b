"""Reading and writing the history: ``History`` and the values its queries return.

Concurrency: the database runs in WAL mode with a busy timeout (5 s unless told), and every write
is one short transaction, so two sos-tui windows finishing games at the same moment both get
recorded. A ``History`` object may be shared between threads (calls are serialised by a lock);
the app calls ``games``, ``stats`` and ``filters`` from a worker thread once per filter change.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from sos_tui.engine import GameRecord, Mode, Seat, SeatKind
from sos_tui.i18n import N_, _, bot_label
from sos_tui.ratings import Standing

from ..errors import HistoryError, history_error, shown_path
from ..paths import history_db_path
from .facts import game_facts
from .ratings import history_ratings
from .schema import connect

__all__ = ["BUSY_TIMEOUT", "Filters", "History", "HistoryEntry", "OpponentStats", "Stats"]

log = logging.getLogger(__name__)

LEVELS = (N_("easy"), N_("medium"), N_("hard"), N_("expert"))
"""The computer levels, named in the player's language where a game's players are listed."""

BUSY_TIMEOUT = 5.0
"""Seconds to wait for another sos-tui's write before giving up with HistoryError."""


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One finished game in the history. ``pov`` is the seat the statistics speak for."""

    id: int
    finished_at: datetime
    size: int
    mode: str
    players: tuple[Seat, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    result: str
    opponent: str
    pov: int
    outcome: str
    longest_chain: int
    chain_player: int | None
    margin: int
    record_json: str = field(repr=False, compare=False, default="")
    game_id: str = ""
    termination: str = "normal"

    @property
    def record(self) -> GameRecord:
        """The full game record (replayed from the stored JSON); RecordError if damaged."""
        return GameRecord.from_json(self.record_json)

    @property
    def ending(self) -> str:
        """How the game ended beyond its score, in the current language ("Bo resigned", "drawn
        by agreement": ``GameRecord.ending_text``); "" for a game that ran to its end with
        everyone in, or whose record cannot be read. Names as stored: escape them before printing."""
        if self.termination == "normal" and '"drops"' not in self.record_json:
            return ""
        try:
            return self.record.ending_text(tr=_)
        except (ValueError, TypeError, RecursionError):
            return ""

    @property
    def players_text(self) -> str:
        """``"Ana vs Computer (hard)"`` in the current language (names as stored: escape them
        before printing)."""
        def label(p: Seat) -> str:
            if p.is_computer and p.level in LEVELS:
                return _("{name} ({level})").format(name=p.name, level=_(p.level))
            return bot_label(p.name) if p.bot else p.label

        return _(" vs ").join(map(label, self.players))

    @property
    def score_text(self) -> str:
        """``"5-3"``, seats in order."""
        return "-".join(str(s) for s in self.scores)

    @property
    def pov_name(self) -> str:
        return self.players[self.pov].name if self.pov < len(self.players) \
            else _("Player {number}").format(number=self.pov + 1)

    @property
    def pov_score(self) -> int:
        return self.scores[self.pov] if self.pov < len(self.scores) else 0


@dataclass(frozen=True, slots=True)
class OpponentStats:
    """Results of the first human seat against one kind of opponent."""

    opponent: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    average_score: float = 0.0


@dataclass(frozen=True, slots=True)
class Stats:
    """Totals over the selected games, from the first human seat's side.

    ``longest_chain_game`` and ``best_game`` (largest winning margin) are the most recent game on
    ties, and None when there is no such game (no SOS at all, no win).
    """

    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    average_score: float = 0.0
    by_opponent: dict[str, OpponentStats] = field(default_factory=dict)
    longest_chain: int = 0
    longest_chain_game: HistoryEntry | None = None
    best_game: HistoryEntry | None = None


@dataclass(frozen=True, slots=True)
class Filters:
    """The values present in the history, for filter menus: opponent kinds, board sizes, modes."""

    opponents: tuple[str, ...] = ()
    sizes: tuple[int, ...] = ()
    modes: tuple[str, ...] = ()


_COLUMNS = ("id, finished_at, size, mode, players, scores, winners, result, opponent, pov, outcome, "
            "longest_chain, chain_player, margin, record, game_id, termination")
_NEWEST_FIRST = "finished_at DESC, id DESC"
_NUMBER = re.compile(r"[0-9]{1,18}")  # a row id SQLite can hold


def _ints(text) -> tuple[int, ...]:
    values = json.loads(text)
    if not isinstance(values, list) or not all(type(v) is int for v in values):
        raise ValueError("not a list of whole numbers")
    return tuple(values)


def _seat(data) -> Seat:
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        raise ValueError("a seat without a name")
    level = data.get("level")
    return Seat(data["name"], data.get("kind", SeatKind.HUMAN), level if isinstance(level, str) else None,
                bot=data.get("bot") is True)


def _entry(row: tuple) -> HistoryEntry:
    """A row as a HistoryEntry; ValueError (or TypeError) when the row is damaged."""
    (row_id, finished_at, size, mode, players, scores, winners, result, opponent, pov, outcome,
     chain, chain_player, margin, record_json, game_id, termination) = row
    when = datetime.fromisoformat(finished_at)
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    seats = json.loads(players)
    if not isinstance(seats, list):
        raise ValueError("players is not a list")
    for name, value in (("size", size), ("pov", pov), ("longest_chain", chain), ("margin", margin)):
        if not isinstance(value, int):
            raise ValueError(f"{name} is not a whole number")
    texts = (mode, result, opponent, outcome, record_json)
    if not all(isinstance(text, str) for text in texts) or not isinstance(chain_player, int | None):
        raise ValueError("a column of the wrong type")
    seats = tuple(_seat(p) for p in seats)
    return HistoryEntry(row_id, when, size, mode, seats, _ints(scores), _ints(winners), result, opponent,
                        pov, outcome, chain, chain_player, margin, record_json,
                        game_id if isinstance(game_id, str) else "",
                        termination if isinstance(termination, str) else "normal")


def _where(opponent: str | None, size: int | None, mode: str | Mode | None) -> tuple[str, list]:
    clauses, params = [], []
    if opponent is not None:
        clauses.append("opponent = ?")
        params.append(opponent.lower())
    if size is not None:
        clauses.append("size = ?")
        params.append(int(size))
    if mode is not None:
        clauses.append("mode = ?")
        params.append(Mode(mode).value)
    return (" WHERE " + " AND ".join(clauses) if clauses else ""), params


class History:
    """The history database at ``path`` (default: ``history_db_path()``), created on first use.

    Use as a context manager or call ``close()``. Raises HistoryError, with a message a player
    understands, when the file is not an sos-tui history, comes from a newer sos-tui, or stays
    busy for more than ``timeout`` seconds. ``skipped`` holds the ids of damaged rows the last
    ``games`` call left out (each also logged as a warning).
    """

    def __init__(self, path: str | Path | None = None, timeout: float = BUSY_TIMEOUT) -> None:
        self.path = Path(path) if path is not None else history_db_path()
        self._lock = threading.Lock()
        self._conn = connect(self.path, timeout)
        self.skipped: tuple[int, ...] = ()

    @contextlib.contextmanager
    def _guard(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                yield self._conn
            except sqlite3.Error as error:
                raise history_error(self.path, error) from None

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> History:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- writing -----------------------------------------------------------------------------
    def record_game(self, record: GameRecord) -> bool:
        """Add a finished game, or replace the row of the same game id (a game undone and finished
        differently); True if the game was new. Raises ValueError for an unfinished game and
        HistoryError when the database cannot be written. One short transaction."""
        facts = game_facts(record)
        names = ", ".join(facts)
        values = ", ".join(f":{name}" for name in facts)
        updates = ", ".join(f"{name} = excluded.{name}" for name in facts if name != "game_id")
        with self._guard() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                known = conn.execute("SELECT 1 FROM games WHERE game_id = ?", (record.game_id,)).fetchone()
                conn.execute(f"INSERT INTO games ({names}) VALUES ({values}) "
                             f"ON CONFLICT (game_id) DO UPDATE SET {updates}", facts)
                conn.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                raise
        return known is None

    # -- reading -----------------------------------------------------------------------------
    def games(self, opponent: str | None = None, size: int | None = None, mode: str | Mode | None = None,
              limit: int | None = None) -> list[HistoryEntry]:
        """Finished games, newest first, optionally only against one opponent kind, on one board
        size, in one mode, and at most ``limit`` of them. Damaged rows are skipped (``skipped``)."""
        where, params = _where(opponent, size, mode)
        sql = f"SELECT {_COLUMNS} FROM games{where} ORDER BY {_NEWEST_FIRST}"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(max(0, int(limit)))
        with self._guard() as conn:
            rows = conn.execute(sql, params).fetchall()
        entries, skipped = [], []
        for row in rows:
            try:
                entries.append(_entry(row))
            except (ValueError, TypeError, RecursionError) as error:
                log.warning("skipping damaged history row %s: %s", row[0], error)
                skipped.append(row[0])
        self.skipped = tuple(skipped)
        return entries

    def stats(self, opponent: str | None = None, size: int | None = None,
              mode: str | Mode | None = None) -> Stats:
        """Statistics over the games the same filters select, computed in SQL."""
        where, params = _where(opponent, size, mode)
        tally = ("count(*), total(outcome = 'win'), total(outcome = 'draw'), total(outcome = 'loss'), "
                 "coalesce(avg(pov_score), 0.0)")
        with self._guard() as conn:
            total = conn.execute(f"SELECT {tally} FROM games{where}", params).fetchone()
            groups = conn.execute(f"SELECT opponent, {tally} FROM games{where} GROUP BY opponent "
                                  "ORDER BY count(*) DESC, opponent", params).fetchall()
            extra = " AND " if where else " WHERE "
            chain = conn.execute(f"SELECT {_COLUMNS} FROM games{where}{extra}longest_chain > 0 "
                                 f"ORDER BY longest_chain DESC, {_NEWEST_FIRST} LIMIT 1", params).fetchone()
            best = conn.execute(f"SELECT {_COLUMNS} FROM games{where}{extra}outcome = 'win' "
                                f"ORDER BY margin DESC, {_NEWEST_FIRST} LIMIT 1", params).fetchone()
        by_opponent = {name: OpponentStats(name, games, int(wins), int(draws), int(losses), float(average))
                       for name, games, wins, draws, losses, average in groups}
        chain_game, best_game = self._maybe_entry(chain), self._maybe_entry(best)
        games, wins, draws, losses, average = total
        return Stats(games, int(wins), int(draws), int(losses), float(average), by_opponent,
                     chain_game.longest_chain if chain_game else 0, chain_game, best_game)

    def find(self, ident: str) -> HistoryEntry | None:
        """The game numbered ``ident`` (its row id: the ``#`` of ``sos-tui history``, ``number`` in
        its JSON), else the one whose game id is ``ident``; None when there is none. HistoryError
        when its row is damaged."""
        try:
            ident.encode()
        except UnicodeEncodeError:  # a lone surrogate (a command line that is not UTF-8): no game's id
            return None
        with self._guard() as conn:
            row = None
            if _NUMBER.fullmatch(ident):
                row = conn.execute(f"SELECT {_COLUMNS} FROM games WHERE id = ?", (int(ident),)).fetchone()
            if row is None:
                row = conn.execute(f"SELECT {_COLUMNS} FROM games WHERE game_id = ?", (ident,)).fetchone()
        if row is None:
            return None
        try:
            return _entry(row)
        except (ValueError, TypeError, RecursionError) as error:
            log.warning("damaged history row %s: %s", row[0], error)
            raise HistoryError(N_("game {number} in the history {path} is damaged and cannot be read"),
                               number=row[0], path=shown_path(self.path)) from None

    @staticmethod
    def _maybe_entry(row) -> HistoryEntry | None:
        try:
            return _entry(row) if row is not None else None
        except (ValueError, TypeError, RecursionError):
            return None

    def filters(self) -> Filters:
        """The opponent kinds, board sizes and modes present, each sorted (SELECT DISTINCT)."""
        with self._guard() as conn:
            opponents = [r[0] for r in conn.execute("SELECT DISTINCT opponent FROM games ORDER BY opponent")]
            sizes = [r[0] for r in conn.execute("SELECT DISTINCT size FROM games ORDER BY size")]
            modes = [r[0] for r in conn.execute("SELECT DISTINCT mode FROM games ORDER BY mode")]
        return Filters(tuple(o for o in opponents if isinstance(o, str)),
                       tuple(s for s in sizes if isinstance(s, int)),
                       tuple(m for m in modes if isinstance(m, str)))

    def ratings(self, mode: str | Mode | None = None, rebuild: bool = False) -> list[Standing]:
        """Every player's rating after every game (of ``mode`` if given), highest first: people
        by name, computers by level (``ratings.py``), from the ratings cache brought up to date, or
        from the first game when ``rebuild``."""
        with self._guard() as conn:
            table = history_ratings(conn, use_cache=not rebuild)
        return table.standings(None if mode is None else Mode(mode).value)

    def count(self) -> int:
        with self._guard() as conn:
            return conn.execute("SELECT count(*) FROM games").fetchone()[0]
