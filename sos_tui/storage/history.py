"""The history of finished games, in SQLite, and the ``sos-tui history`` command.

Every finished game goes into one table with the full record and a few facts computed from it
(who the first human played against, the outcome from their side, the longest SOS chain, the
winning margin), so that filters and statistics are simple queries.

Point of view: statistics are from the side of the *first human seat*. A hot-seat game between
humans has opponent kind ``"human"`` and is seen from player 1. Against computers the opponent
kind is the computer's level (``"easy"``, ``"hard"``, ...; ``"computer"`` when it has none),
``"mixed"`` when the other seats differ, and ``"computer-only"`` when no human played (seen from
player 1).

Concurrency: the database runs in WAL mode with a 5 s busy timeout, and every write is a single
short transaction, so two sos-tui windows finishing games at the same moment both get recorded.
A ``History`` object may be shared between threads (calls are serialised by a lock).

Schema versions live in ``PRAGMA user_version``: v1 was the first, minimal table; v2 added the
computed columns and the unique game key. Opening an older database upgrades it in place,
keeping every game; a database from a newer sos-tui is refused with HistoryError.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import sqlite3
import sys
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from sos_tui.engine import MAX_SIZE, MIN_SIZE, GameRecord, GameState, Mode, PlayerInfo

from .errors import HistoryError, StorageError
from .paths import history_db_path

__all__ = [
    "SCHEMA_VERSION", "History", "HistoryEntry", "HistoryError", "OpponentStats", "Stats",
    "format_history", "game_facts", "longest_chain", "main",
]  # fmt: skip

SCHEMA_VERSION = 2
BUSY_TIMEOUT_MS = 5000

# -- schema ------------------------------------------------------------------------------------
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
        except (ValueError, TypeError):
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


MIGRATIONS = {1: _create_v1, 2: _migrate_v1_to_v2}
"""``MIGRATIONS[n]`` brings a database from version n - 1 to n (0 is an empty file)."""


# -- facts computed from a record --------------------------------------------------------------
def longest_chain(record: GameRecord) -> tuple[int, int | None]:
    """The most SOS lines one player completed in one uninterrupted turn, and that player's seat.

    A turn is a run of consecutive moves by the same player (scoring keeps the turn).
    ``(0, None)`` when nobody scored.
    """
    state = GameState.new(record.size, record.mode, len(record.players))
    best, best_player = 0, None
    run_player, run = None, 0
    for move in record.moves:
        mover = state.to_move
        before = state.scores[mover]
        state = state.play(move)
        if mover != run_player:
            run_player, run = mover, 0
        run += state.scores[mover] - before
        if run > best:
            best, best_player = run, mover
    return best, best_player


def _seat_kind(player: PlayerInfo) -> str:
    return (player.level or "computer").lower() if player.is_computer else "human"


def _point_of_view(players: Sequence[PlayerInfo]) -> tuple[int, str]:
    """The seat statistics speak for, and the kind of opponent it faced."""
    human = next((i for i, p in enumerate(players) if not p.is_computer), None)
    if human is None:
        return 0, "computer-only"
    kinds = {_seat_kind(p) for i, p in enumerate(players) if i != human}
    return human, kinds.pop() if len(kinds) == 1 else "mixed"


def _outcome(pov: int, winners: Sequence[int]) -> str:
    if pov not in winners:
        return "loss"
    return "win" if len(winners) == 1 else "draw"


def _utc_text(stamp: str) -> str:
    try:
        when = datetime.fromisoformat(stamp)
    except (TypeError, ValueError):
        when = datetime.now(UTC)
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.astimezone(UTC).isoformat(timespec="seconds")


def _game_key(record: GameRecord) -> str:
    moves = [str(m) for m in record.moves]
    ident = [record.started, record.size, record.mode.value, len(record.players), moves]
    return hashlib.sha256(json.dumps(ident).encode()).hexdigest()


def game_facts(record: GameRecord) -> dict:
    """The column values stored for a finished ``record`` (JSON columns as text)."""
    state = record.state
    if not state.is_over:
        raise ValueError("only finished games go into the history; this one is still running")
    pov, opponent = _point_of_view(record.players)
    scores = state.scores
    others = [s for i, s in enumerate(scores) if i != pov]
    chain, chain_player = longest_chain(record)
    return {
        "game_key": _game_key(record),
        "finished_at": _utc_text(record.updated),
        "size": record.size,
        "mode": record.mode.value,
        "players": json.dumps([p.to_dict() for p in record.players]),
        "record": record.to_json(),
        "scores": json.dumps(list(scores)),
        "winners": json.dumps(list(state.winners)),
        "result": record.result_text(state),
        "opponent": opponent,
        "pov": pov,
        "outcome": _outcome(pov, state.winners),
        "longest_chain": chain,
        "chain_player": chain_player,
        "margin": scores[pov] - max(others),
    }


def _facts_from_scores(row_id: int, scores_json: str) -> dict:
    """What can still be said about a v1 row whose record is unreadable."""
    try:
        scores = [int(s) for s in json.loads(scores_json)]
    except (ValueError, TypeError):
        scores = []
    winners = [i for i, s in enumerate(scores) if s == max(scores)] if scores else []
    margin = scores[0] - max(scores[1:]) if len(scores) > 1 else 0
    return {
        "game_key": f"unreadable-{row_id}",
        "winners": json.dumps(winners),
        "opponent": "unknown",
        "pov": 0,
        "outcome": _outcome(0, winners) if winners else "unknown",
        "longest_chain": 0,
        "chain_player": None,
        "margin": margin,
    }


# -- values returned ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One finished game in the history. ``pov`` is the seat the statistics speak for."""

    id: int
    finished_at: datetime
    size: int
    mode: str
    players: tuple[PlayerInfo, ...]
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

    @property
    def record(self) -> GameRecord:
        """The full game record (replayed from the stored JSON)."""
        return GameRecord.from_json(self.record_json)

    @property
    def players_text(self) -> str:
        """``"Ana vs Computer (hard)"``."""
        return " vs ".join(p.name + (f" ({p.level})" if p.is_computer and p.level else "")
                           for p in self.players)

    @property
    def score_text(self) -> str:
        """``"5-3"``, seats in order."""
        return "-".join(str(s) for s in self.scores)

    @property
    def pov_name(self) -> str:
        return self.players[self.pov].name if self.pov < len(self.players) else f"Player {self.pov + 1}"

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


def _tally(name: str, entries: Sequence[HistoryEntry]) -> OpponentStats:
    count = len(entries)
    return OpponentStats(
        name,
        games=count,
        wins=sum(e.outcome == "win" for e in entries),
        draws=sum(e.outcome == "draw" for e in entries),
        losses=sum(e.outcome == "loss" for e in entries),
        average_score=sum(e.pov_score for e in entries) / count if count else 0.0,
    )


def compute_stats(entries: Sequence[HistoryEntry]) -> Stats:
    """Statistics over ``entries`` (newest first, as ``History.games`` returns them)."""
    total = _tally("all", entries)
    groups: dict[str, list[HistoryEntry]] = {}
    for entry in entries:
        groups.setdefault(entry.opponent, []).append(entry)
    by_opponent = {name: _tally(name, group)
                   for name, group in sorted(groups.items(), key=lambda item: (-len(item[1]), item[0]))}
    chain_game = max(entries, key=lambda e: e.longest_chain, default=None)
    if chain_game is not None and chain_game.longest_chain == 0:
        chain_game = None
    wins = [e for e in entries if e.outcome == "win"]
    best = max(wins, key=lambda e: e.margin, default=None)
    return Stats(total.games, total.wins, total.draws, total.losses, total.average_score, by_opponent,
                 chain_game.longest_chain if chain_game else 0, chain_game, best)


# -- the database ------------------------------------------------------------------------------
_COLUMNS = ("id, finished_at, size, mode, players, scores, winners, result, opponent, pov, outcome, "
            "longest_chain, chain_player, margin, record")


def _entry(row: tuple) -> HistoryEntry:
    (row_id, finished_at, size, mode, players, scores, winners, result, opponent, pov, outcome,
     chain, chain_player, margin, record_json) = row
    try:
        when = datetime.fromisoformat(finished_at)
    except (TypeError, ValueError):
        when = datetime.fromtimestamp(0, UTC)
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    seats = tuple(PlayerInfo(p.get("name", "?"), p.get("kind", "human"), p.get("level"))
                  for p in json.loads(players))
    return HistoryEntry(row_id, when, size, mode, seats, tuple(json.loads(scores)),
                        tuple(json.loads(winners)), result, opponent, pov, outcome, chain, chain_player,
                        margin, record_json)


class History:
    """The history database at ``path`` (default: ``history_db_path()``), created on first use.

    Use as a context manager or call ``close()``. Raises HistoryError when the file is not a
    database, comes from a newer sos-tui, or stays locked for more than 5 seconds.
    """

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else history_db_path()
        self._lock = threading.Lock()
        try:
            self._conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                                         check_same_thread=False)
        except sqlite3.Error as error:
            raise HistoryError(f"cannot open the history {self.path}: {error}") from None
        try:
            with self._guard():
                self._conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
                self._conn.execute("PRAGMA journal_mode = WAL")
                self._migrate()
        except BaseException:
            self._conn.close()
            raise

    # -- plumbing ----------------------------------------------------------------------------
    @contextlib.contextmanager
    def _guard(self) -> Iterator[None]:
        with self._lock:
            try:
                yield
            except sqlite3.OperationalError as error:
                if "locked" in str(error) or "busy" in str(error):
                    raise HistoryError(f"the history {self.path} is busy (another sos-tui is writing); "
                                       "try again") from None
                raise HistoryError(f"cannot use the history {self.path}: {error}") from None
            except sqlite3.DatabaseError as error:
                raise HistoryError(f"{self.path} is not a usable history database: {error}") from None

    def _version(self) -> int:
        return self._conn.execute("PRAGMA user_version").fetchone()[0]

    def _migrate(self) -> None:
        if self._version() == SCHEMA_VERSION:
            return
        self._conn.execute("BEGIN IMMEDIATE")  # one upgrader at a time; others wait, then see it done
        try:
            version = self._version()
            if version > SCHEMA_VERSION:
                raise HistoryError(f"the history {self.path} was written by a newer sos-tui "
                                   f"(schema {version}; this one reads up to {SCHEMA_VERSION})")
            if version == 0 and self._conn.execute(
                    "SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").fetchone()[0]:
                raise HistoryError(f"{self.path} is an SQLite database but not an sos-tui history")
            for step in range(version + 1, SCHEMA_VERSION + 1):
                MIGRATIONS[step](self._conn)
            self._conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            self._conn.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                self._conn.execute("ROLLBACK")
            raise

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> History:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- writing -----------------------------------------------------------------------------
    def record_game(self, record: GameRecord) -> bool:
        """Add a finished game; True if added, False if this game (same start and moves) is there.

        Raises ValueError for an unfinished game. The insert is one short transaction.
        """
        facts = game_facts(record)
        names = ", ".join(facts)
        values = ", ".join(f":{name}" for name in facts)
        with self._guard():
            cursor = self._conn.execute(f"INSERT OR IGNORE INTO games ({names}) VALUES ({values})", facts)
        return cursor.rowcount == 1

    # -- reading -----------------------------------------------------------------------------
    def games(self, opponent: str | None = None, size: int | None = None, mode: str | Mode | None = None,
              limit: int | None = None) -> list[HistoryEntry]:
        """Finished games, newest first, optionally only against one opponent kind, on one board
        size, in one mode, and at most ``limit`` of them."""
        where, params = [], []
        if opponent is not None:
            where.append("opponent = ?")
            params.append(opponent.lower())
        if size is not None:
            where.append("size = ?")
            params.append(int(size))
        if mode is not None:
            where.append("mode = ?")
            params.append(Mode(mode).value)
        sql = f"SELECT {_COLUMNS} FROM games"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY finished_at DESC, id DESC"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(max(0, int(limit)))
        with self._guard():
            rows = self._conn.execute(sql, params).fetchall()
        return [_entry(row) for row in rows]

    def stats(self, opponent: str | None = None, size: int | None = None,
              mode: str | Mode | None = None) -> Stats:
        """Statistics over the games the same filters select (see ``compute_stats``)."""
        return compute_stats(self.games(opponent, size, mode))

    def count(self) -> int:
        with self._guard():
            return self._conn.execute("SELECT count(*) FROM games").fetchone()[0]


# -- plain-text output -------------------------------------------------------------------------
def _when(entry: HistoryEntry) -> str:
    return f"{entry.finished_at.astimezone():%Y-%m-%d %H:%M}"


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def format_history(entries: Sequence[HistoryEntry], stats: Stats) -> str:
    """The text ``sos-tui history`` prints: a table of games (as given, newest first), then the
    statistics from the first human player's side. Dates are local time."""
    if not entries and not stats.games:
        return "No finished games in the history yet. Play one with `sos-tui`!\n"
    header = ("Date", "Players", "Size", "Mode", "Score", "Result")
    rows = [(_when(e), _clip(e.players_text, 40), f"{e.size}x{e.size}", e.mode, e.score_text, e.result)
            for e in entries]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(cell.ljust(width) for cell, width in zip(cells, widths, strict=True)).rstrip()

    out = [line(header), line(["-" * w for w in widths]), *(line(row) for row in rows)]
    if len(entries) < stats.games:
        out.append(f"(showing the {len(entries)} newest of {stats.games} games)")
    out += ["", f"Statistics over {stats.games} game{'s' if stats.games != 1 else ''}, "
                "from the first human player's side:"]
    table = [("Opponent", "Games", "Wins", "Draws", "Losses", "Avg score")]
    for s in [*stats.by_opponent.values(), _tally_row(stats)]:
        table.append((s.opponent, str(s.games), str(s.wins), str(s.draws), str(s.losses),
                      f"{s.average_score:.1f}"))
    widths2 = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    for row in table:
        out.append("  " + "  ".join(row[0].ljust(widths2[0]) if i == 0 else cell.rjust(widths2[i])
                                    for i, cell in enumerate(row)))
    game = stats.longest_chain_game
    if game is not None:
        who = game.players[game.chain_player].name if game.chain_player is not None else "?"
        out.append(f"Longest SOS chain: {stats.longest_chain} in one turn by {who} "
                   f"({game.players_text}, {_when(game)})")
    best = stats.best_game
    if best is not None:
        out.append(f"Best game: {best.pov_name} won by {best.margin} ({best.score_text}, "
                   f"{best.players_text}, {_when(best)})")
    return "\n".join(out) + "\n"


def _tally_row(stats: Stats) -> OpponentStats:
    return OpponentStats("all", stats.games, stats.wins, stats.draws, stats.losses, stats.average_score)


# -- the command line --------------------------------------------------------------------------
class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one clear line instead of usage + error
        raise _UsageError(message)


def _int_in(low: int, high: int | None = None):
    limits = f"from {low} to {high}" if high is not None else f"at least {low}"

    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"expected a whole number {limits}, not {text!r}")
        return value
    return convert


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="sos-tui history", description="Show finished games and statistics.")
    parser.add_argument("--opponent", metavar="KIND", type=str.lower,
                        help="only games against this opponent: human, or a computer level such as easy")
    parser.add_argument("--size", type=_int_in(MIN_SIZE, MAX_SIZE), metavar="N",
                        help=f"only games on an N x N board ({MIN_SIZE}-{MAX_SIZE})")
    parser.add_argument("--mode", choices=[m.value for m in Mode], help="only games in this mode")
    parser.add_argument("--limit", type=_int_in(1), metavar="N",
                        help="list only the N newest games (statistics still cover all)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """``sos-tui history [--opponent KIND] [--size N] [--mode general|simple] [--limit N]``.

    ``argv`` is the arguments after ``history`` (None: none). Prints the table and statistics
    and returns 0; a bad argument prints one line to stderr and returns 2; an unusable
    database prints one line and returns 1. Never creates the database just to read it.
    """
    try:
        args = _parser().parse_args(list(argv or []))
    except _UsageError as error:
        print(f"sos-tui history: {error}", file=sys.stderr)
        return 2
    except SystemExit as done:  # --help
        return done.code if isinstance(done.code, int) else 0
    try:
        path = history_db_path()
        if not path.exists():
            print(format_history([], Stats()), end="")
            return 0
        with History(path) as history:
            stats = history.stats(args.opponent, args.size, args.mode)
            entries = history.games(args.opponent, args.size, args.mode, args.limit)
            total = history.count() if not stats.games else stats.games
    except (HistoryError, StorageError) as error:
        print(f"sos-tui history: {error}", file=sys.stderr)
        return 1
    if not stats.games and total:
        print("No games in the history match those filters.")
        return 0
    print(format_history(entries, stats), end="")
    return 0
