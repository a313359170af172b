"""The ratings of the history's players: derived from its games, in order, and cached beside them.

Every finished game rates its people (by name, ignoring case) and its computer seats (each level
one player, ``computer:hard``); everyone is rated per mode (``sos_tui.ratings``). The games are
taken in the order they finished (``finished_at``, then row id); ``ranking`` decides each one's
places, or that it rates nobody (aborted: read from a ``termination`` column where the history
has one, else from the record's ``termination``; seats that dropped out, from the record's
``drops``, rank last).

The games stay the one truth. The ratings they lead to are kept in two tables of their own
(``rating_cache``, ``rating_cache_state``), with how many games they cover and a fingerprint of
those games (a SHA-256 over each game's rated facts, in order). When the first games are still
the covered ones, only the games after them are rated; otherwise (a game replaced, a history
edited, a cache that is damaged, missing or unreadable) the ratings are rebuilt from the first
game. A cache that cannot be written (a read-only or busy file) is simply not kept.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import math
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass

from sos_tui.ratings import RatingTable, Skill, Standing, ranking

__all__ = ["computer_name", "history_ratings", "rated_game"]

log = logging.getLogger(__name__)

CACHE_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS rating_cache (name_json TEXT NOT NULL, mode TEXT NOT NULL, mu REAL NOT NULL, "
    "sigma REAL NOT NULL, games INTEGER NOT NULL, wins INTEGER NOT NULL, draws INTEGER NOT NULL, "
    "losses INTEGER NOT NULL, last_played TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS rating_cache_state (covered INTEGER NOT NULL, fingerprint TEXT NOT NULL)",
)
ABORTED_RECORD = "CASE WHEN instr(record, '\"termination\": \"abort\"') > 0 THEN 'abort' END"
CACHE_COLUMNS = "name_json, mode, mu, sigma, games, wins, draws, losses, last_played"


def computer_name(level: str | None) -> str:
    """A computer seat's player in the ratings: ``computer:hard`` (``computer`` without a level)."""
    return f"computer:{level}" if level else "computer"


@dataclass(frozen=True, slots=True)
class RatedGame:
    """What the ratings take from one game: who sat where, their places (None: not rated)."""

    names: tuple[str, ...]
    places: tuple[int, ...] | None
    mode: str
    when: str


def _seat_name(seat) -> str | None:
    if not isinstance(seat, dict) or not isinstance(seat.get("name"), str):
        return None
    if seat.get("kind") == "computer":
        level = seat.get("level")
        return computer_name(level if isinstance(level, str) else None)
    return seat["name"]


def _dropped(record_json: str | None) -> list[int]:
    """The seats that dropped out, in order, from a record's ``drops`` (``[]`` when it has none
    or they cannot be read)."""
    if not record_json:
        return []
    try:
        drops = json.loads(record_json).get("drops")
        return [d["seat"] for d in drops if isinstance(d.get("seat"), int)] if isinstance(drops, list) else []
    except (ValueError, TypeError, AttributeError, RecursionError):
        return []


def rated_game(mode, finished_at, players, scores, winners, termination=None, record_json=None) -> RatedGame:
    """One history row's game for the ratings (columns as stored; ``record_json`` only when the
    record has drops). A row that cannot be read rates nobody."""
    try:
        seats = json.loads(players)
        names = tuple(_seat_name(seat) for seat in seats)
        points, won = json.loads(scores), json.loads(winners)
        if None in names or not all(type(p) is int for p in points) or len(points) != len(names):
            raise ValueError("unreadable seats or scores")
        ended = termination if isinstance(termination, str) else None
        places = ranking(points, [w for w in won if type(w) is int], ended, _dropped(record_json))
    except (ValueError, TypeError, RecursionError):
        return RatedGame((), None, str(mode), str(finished_at))
    return RatedGame(names, places, str(mode), str(finished_at))


def _games(conn: sqlite3.Connection) -> Iterator[tuple[RatedGame, bytes]]:
    """Every game in the order it finished, with the bytes its fingerprint takes."""
    columns = {row[1] for row in conn.execute("PRAGMA table_info(games)")}
    # how the game ended: the column of newer histories, else an aborted record's own word for it
    # (a name cannot fake it: quotes inside a name are escaped in the record)
    termination = "termination" if "termination" in columns else ABORTED_RECORD
    rows = conn.execute(
        f"SELECT id, mode, finished_at, players, scores, winners, {termination}, "
        "CASE WHEN instr(record, '\"drops\"') > 0 THEN record END FROM games ORDER BY finished_at, id"
    )
    for row in rows:
        game = rated_game(*row[1:])
        yield game, json.dumps([row[0], game.names, game.places, game.mode, game.when]).encode()


def _load_cache(conn: sqlite3.Connection) -> tuple[int, str, list[Standing]] | None:
    """The cached ratings, how many games they cover and their fingerprint; None when there is no
    cache or any of it is damaged."""
    try:
        state = conn.execute("SELECT covered, fingerprint FROM rating_cache_state").fetchall()
        rows = conn.execute(f"SELECT {CACHE_COLUMNS} FROM rating_cache").fetchall()
    except sqlite3.Error:
        return None
    if len(state) != 1 or type(state[0][0]) is not int or not isinstance(state[0][1], str):
        return None
    standings = []
    for name_json, mode, mu, sigma, games, wins, draws, losses, last in rows:
        name = _json_text(name_json)
        counts = (games, wins, draws, losses)
        if not (
            isinstance(name, str)
            and isinstance(mode, str)
            and isinstance(last, str)
            and all(type(n) is int and n >= 0 for n in counts)
            and wins + draws + losses == games
            and all(isinstance(x, float) and math.isfinite(x) for x in (mu, sigma))
            and sigma > 0
        ):
            return None
        standings.append(Standing(name, mode, Skill(mu, sigma), games, wins, draws, losses, last))
    return state[0][0], state[0][1], standings


def _json_text(text) -> str | None:
    """The string JSON ``text`` holds (names are kept as JSON: a lone surrogate is no UTF-8)."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError, RecursionError):
        return None
    return value if isinstance(value, str) else None


def _save_cache(conn: sqlite3.Connection, covered: int, fingerprint: str, table: RatingTable) -> None:
    rows = [
        (
            json.dumps(s.name),
            s.mode,
            s.skill.mu,
            s.skill.sigma,
            s.games,
            s.wins,
            s.draws,
            s.losses,
            s.last_played,
        )
        for s in table.standings()
    ]
    try:
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute("DROP TABLE IF EXISTS rating_cache")
            conn.execute("DROP TABLE IF EXISTS rating_cache_state")
            for statement in CACHE_SCHEMA:
                conn.execute(statement)
            conn.executemany(
                f"INSERT INTO rating_cache ({CACHE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows
            )
            conn.execute("INSERT INTO rating_cache_state VALUES (?, ?)", (covered, fingerprint))
            conn.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            raise
    except (sqlite3.Error, UnicodeEncodeError) as error:  # a cache: the ratings are right without it
        log.warning("the ratings cache was not written: %s", error)


def history_ratings(conn: sqlite3.Connection, use_cache: bool = True) -> RatingTable:
    """The ratings after every game of the history at ``conn``, from the cache where it still
    holds (see the module docstring), the cache brought up to date. ``use_cache=False`` rebuilds
    from the first game (and writes the cache anew)."""
    cached = _load_cache(conn) if use_cache else None
    covered, fingerprint, standings = cached if cached is not None else (0, "", [])
    games = list(_games(conn))
    digest, holds = hashlib.sha256(), covered == 0
    for number, (_game, facts) in enumerate(games, start=1):
        digest.update(facts)
        if number == covered:
            holds = digest.hexdigest() == fingerprint
    start = covered if holds and covered <= len(games) else 0  # else: the cache is of other games
    table = RatingTable(standings if start else ())
    for game, _facts in games[start:]:
        table.add_game(game.names, game.places, game.mode, game.when)
    if cached is None or start != covered or start != len(games):
        _save_cache(conn, len(games), digest.hexdigest(), table)
    return table
