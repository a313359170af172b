"""The facts stored with each finished game, computed once from its record.

Point of view: statistics are from the side of the *first human seat*. A hot-seat game between
humans has opponent kind ``"human"`` and is seen from player 1. Against computers the opponent
kind is the computer's level (``"easy"``, ``"hard"``, ...; ``"computer"`` when it has none),
``"mixed"`` when the other seats differ, and ``"computer-only"`` when no human played (seen from
player 1).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from datetime import UTC, datetime

from sos_tui.engine import COMPUTER_LEVELS, GameRecord, PlayerInfo, printable

__all__ = ["OPPONENT_KINDS", "game_facts", "longest_chain", "point_of_view", "utc_text"]

OPPONENT_KINDS = ("human", "bot", *COMPUTER_LEVELS, "computer", "mixed", "computer-only")
"""Every kind of opponent ``point_of_view`` can name (an unknown level from an old file aside)."""


def longest_chain(record: GameRecord) -> tuple[int, int | None]:
    """The most SOS lines one player completed in one uninterrupted turn, and that player's seat.

    A turn is a run of consecutive moves by the same player (scoring keeps the turn).
    ``(0, None)`` when nobody scored.
    """
    state = record.state
    best, best_player = 0, None
    run_player, run = None, 0
    for mover, points in zip(state.movers, state.points_by_move, strict=True):
        if mover != run_player:
            run_player, run = mover, 0
        run += points
        if run > best:
            best, best_player = run, mover
    return best, best_player


def _seat_kind(player: PlayerInfo) -> str:
    if player.is_computer:
        return printable(player.level or "computer").lower()
    return "bot" if player.bot else "human"


def point_of_view(players: Sequence[PlayerInfo]) -> tuple[int, str]:
    """The seat statistics speak for (the first person's: a bot, ``sos-tui bot``, only when no
    person played), and the kind of opponent it faced."""
    people = [i for i, p in enumerate(players) if not p.is_computer]
    human = next((i for i in people if not players[i].bot), people[0] if people else None)
    if human is None:
        return 0, "computer-only"
    kinds = {_seat_kind(p) for i, p in enumerate(players) if i != human}
    return human, kinds.pop() if len(kinds) == 1 else "mixed"


def utc_text(stamp: str) -> str:
    """An ISO 8601 time as UTC text; now when unreadable."""
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
    outcome = state.outcome
    if outcome is None:
        raise ValueError("only finished games go into the history; this one is still running")
    if not outcome.has_result:
        raise ValueError("an aborted game has no result and goes into no history")
    pov, opponent = point_of_view(record.players)
    chain, chain_player = longest_chain(record)
    return {
        "game_id": record.game_id,
        "game_key": _game_key(record),
        "finished_at": utc_text(record.updated),
        "size": record.size,
        "mode": record.mode.value,
        "players": json.dumps([p.to_dict() for p in record.players]),
        "record": record.to_json(),
        "scores": json.dumps(list(outcome.scores)),
        "winners": json.dumps(list(outcome.winners)),
        "result": printable(record.result_text(state)),  # text for display: no lone surrogate to store
        "opponent": opponent,
        "pov": pov,
        "pov_score": outcome.scores[pov],
        "outcome": outcome.result_for(pov),
        "longest_chain": chain,
        "chain_player": chain_player,
        "margin": outcome.margin(pov),
        "termination": outcome.termination.value,
    }
