"""Ratings on a server (revision 5): per player key and mode, through the one model
(``sos_tui.ratings``), kept in the server's rooms database.

A person is their player key (``playerkey``), kept here only as its hash. A name on a server belongs
to the first key that used it there: in a rated room another key (or none) is refused that name.
A finished game of a *rated* room rates its seats when every seat is a keyed person who moved at
least twice and the game has a result (not aborted); computers make a game casual.

Kept in two tables of the rooms database, next to the rooms (``store.py``)::

    player_names (name_key TEXT PRIMARY KEY, name TEXT, key_hash TEXT)   -- name_key: casefolded
    player_ratings (key_hash, mode, name, mu, sigma, games, wins, draws, losses, last_played)
                                                         -- PRIMARY KEY (key_hash, mode)

Everything is read when the server starts and kept in memory; a change is written at once (a
game's end, a name's first use: rare, small writes). ``ServerRatings(None)`` keeps them in memory only.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from sos_tui.engine import GameState, Mode
from sos_tui.i18n import N_
from sos_tui.ratings import RatingTable, Skill, Standing

from .errors import ProtocolError
from .protocol import MAX_LEADERS, Leader, SeatRating

log = logging.getLogger(__name__)

MIN_MOVES = 2
"""A game where someone moved fewer times rates nobody."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS player_names (
    name_key TEXT PRIMARY KEY,
    name     TEXT NOT NULL,
    key_hash TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS player_ratings (
    key_hash    TEXT NOT NULL,
    mode        TEXT NOT NULL,
    name        TEXT NOT NULL,
    mu          REAL NOT NULL,
    sigma       REAL NOT NULL,
    games       INTEGER NOT NULL,
    wins        INTEGER NOT NULL,
    draws       INTEGER NOT NULL,
    losses      INTEGER NOT NULL,
    last_played TEXT NOT NULL,
    PRIMARY KEY (key_hash, mode)
);
"""


def places_if_rated(state: GameState, keyed: Sequence[bool]) -> tuple[int, ...] | None:
    """Each seat's place when the finished game ``state`` rates its seats (``keyed[i]``: seat i is
    a person with a player key), else None: a seat not keyed (a computer, an old client), someone
    who moved fewer than ``MIN_MOVES`` times, or no result (aborted)."""
    outcome = state.outcome
    if outcome is None or not all(keyed):
        return None
    if any(state.movers.count(seat) < MIN_MOVES for seat in range(len(keyed))):
        return None
    return outcome.places or None


class ServerRatings:
    """The names and ratings of a server's players (see the module's doc)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self._owners: dict[str, str] = {}  # casefolded name -> key hash
        self._standings: dict[tuple[str, str], Standing] = {}  # (key hash, mode) -> rating, name shown
        if path is not None:
            self._load()

    # -- names -------------------------------------------------------------------------------
    def check_name(self, name: str, key_hash: str | None) -> None:
        """ProtocolError ``name-taken`` when ``name`` belongs to another key (or to a key, and
        ``key_hash`` is None) on this server."""
        owner = self._owners.get(name.casefold())
        if owner is not None and owner != key_hash:
            raise ProtocolError(
                "name-taken",
                N_(
                    "the name {name} belongs to another player on this server "
                    "(rated games): join with another --name"
                ),
                name=name,
            )

    def claim(self, name: str, key_hash: str) -> None:
        """``name`` is ``key_hash``'s from now on, unless it is someone's already."""
        if name.casefold() in self._owners:
            return
        self._owners[name.casefold()] = key_hash
        self._write(
            "INSERT OR IGNORE INTO player_names (name_key, name, key_hash) VALUES (?, ?, ?)",
            [(name.casefold(), name, key_hash)],
        )

    # -- ratings -----------------------------------------------------------------------------
    def standing(self, key_hash: str, mode: Mode) -> Standing:
        return self._standings.get((key_hash, str(mode))) or Standing("", str(mode))

    def rating_of(self, key_hash: str | None, mode: Mode) -> int | None:
        """The rating shown of ``key_hash`` in ``mode``, or None before its first rated game."""
        standing = self._standings.get((key_hash, str(mode))) if key_hash else None
        return standing.rating if standing is not None else None

    def rate(
        self, names: Sequence[str], key_hashes: Sequence[str], places: Sequence[int], mode: Mode
    ) -> tuple[SeatRating, ...] | None:
        """Rate one game (``places`` from ``places_if_rated``): each seat's new rating, or None
        when it rates nobody (one key in two seats)."""
        before = [replace(self.standing(k, mode), name=k) for k in key_hashes]
        table = RatingTable(before)
        if not table.add_game(key_hashes, places, str(mode), time.strftime("%Y-%m-%d")):
            return None
        after = {s.name: s for s in table.standings()}
        told, rows = [], []
        for name, key_hash, old in zip(names, key_hashes, before, strict=True):
            new = replace(after[key_hash], name=name)
            self._standings[(key_hash, str(mode))] = new
            told.append(SeatRating(new.rating, new.rating - old.rating, new.provisional))
            rows.append(
                (
                    key_hash,
                    str(mode),
                    name,
                    new.skill.mu,
                    new.skill.sigma,
                    new.games,
                    new.wins,
                    new.draws,
                    new.losses,
                    new.last_played,
                )
            )
        self._write(
            "INSERT OR REPLACE INTO player_ratings (key_hash, mode, name, mu, sigma, games, wins, "
            "draws, losses, last_played) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
        return tuple(told)

    def leaders(self, mode: Mode | None = None, count: int = 20) -> tuple[Leader, ...]:
        """The ``count`` (at most ``MAX_LEADERS``) best of ``mode`` (None: every mode), best first."""
        chosen = [s for s in self._standings.values() if mode is None or s.mode == str(mode)]
        chosen.sort(key=lambda s: (-s.skill.mu, s.name.casefold()))
        return tuple(
            Leader(s.name, Mode(s.mode), s.rating, s.deviation, s.provisional, s.games)
            for s in chosen[: min(count, MAX_LEADERS)]
        )

    # -- on disk -----------------------------------------------------------------------------
    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=10.0)
        conn.executescript(SCHEMA)
        return conn

    def _load(self) -> None:
        try:
            with contextlib.closing(self._connect()) as conn:
                for name_key, key_hash in conn.execute("SELECT name_key, key_hash FROM player_names"):
                    self._owners[name_key] = key_hash
                for key_hash, mode, name, mu, sigma, *record in conn.execute(
                    "SELECT key_hash, mode, name, mu, sigma, games, wins, draws, losses, last_played "
                    "FROM player_ratings"
                ):
                    skill = Skill(mu, sigma)
                    if skill.is_sound and mode in {str(m) for m in Mode}:
                        self._standings[(key_hash, mode)] = Standing(name, mode, skill, *record)
        except sqlite3.Error as problem:
            log.error("cannot read the ratings in %s: %s", self.path, problem)

    def _write(self, statement: str, rows: list) -> None:
        if self.path is None:
            return
        try:
            with contextlib.closing(self._connect()) as conn, conn:
                conn.executemany(statement, rows)
        except sqlite3.Error as problem:  # kept in memory: the ratings go on; the log says it
            log.error("cannot write the ratings in %s: %s", self.path, problem)
