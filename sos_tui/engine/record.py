"""Game records: a versioned JSON file format and a plain-text transcript.

A record holds the settings, who played, the moves in notation and when; loading replays every
move through the engine, so a record that loads is a game that could have been played.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime

from .rules import GameState, IllegalMoveError, InvalidMoveError, Mode, Move

FORMAT = "sos-game"
VERSION = 1
KINDS = ("human", "computer")


class RecordError(ValueError):
    """A game record that cannot be read: malformed, foreign, newer, or holding an illegal move."""


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """Who sits in a seat: a name, and ``human`` or ``computer`` (with its level)."""

    name: str
    kind: str = "human"
    level: str | None = None

    @property
    def is_computer(self) -> bool:
        return self.kind == "computer"

    def to_dict(self) -> dict:
        data = {"name": self.name, "kind": self.kind}
        if self.level is not None:
            data["level"] = self.level
        return data


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A whole game: settings, seats, moves, timestamps. ``state`` replays it."""

    size: int
    mode: Mode
    players: tuple[PlayerInfo, ...]
    moves: tuple[Move, ...] = ()
    started: str = field(default_factory=_now)
    updated: str = field(default_factory=_now)

    @classmethod
    def for_state(cls, state: GameState, players=None, started: str | None = None) -> GameRecord:
        """The record of ``state``; ``players`` defaults to "Player 1", "Player 2", ..."""
        seats = tuple(players) if players is not None else tuple(
            PlayerInfo(f"Player {i + 1}") for i in range(state.players))
        if len(seats) != state.players:
            raise ValueError(f"{len(seats)} seats named for a {state.players}-player game")
        now = _now()
        return cls(state.size, state.mode, seats, state.moves, started or now, now)

    def with_state(self, state: GameState) -> GameRecord:
        """This record moved on (or back) to ``state``, stamped now."""
        return replace(self, moves=state.moves, updated=_now())

    @property
    def state(self) -> GameState:
        return GameState.from_moves(self.moves, self.size, self.mode, len(self.players))

    def result_text(self, state: GameState | None = None) -> str:
        state = state or self.state
        if not state.is_over:
            return "unfinished"
        names = [self.players[p].name for p in state.winners]
        if state.is_draw:
            return "draw between " + ", ".join(names) if len(names) < len(self.players) else "draw"
        return f"{names[0]} wins"

    # -- JSON -------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        state = self.state
        return {
            "format": FORMAT,
            "version": VERSION,
            "size": self.size,
            "mode": self.mode.value,
            "players": [p.to_dict() for p in self.players],
            "moves": [str(m) for m in self.moves],
            "started": self.started,
            "updated": self.updated,
            "result": {
                "over": state.is_over,
                "scores": list(state.scores),
                "winners": list(state.winners),
                "text": self.result_text(state),
            },
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2) + "\n"

    @classmethod
    def from_json(cls, text: str | bytes) -> GameRecord:
        """Read and check a record; raises RecordError naming what is wrong."""
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as error:  # UnicodeDecodeError is a ValueError
            raise RecordError(f"not a game record: the file is not valid JSON ({error})") from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data) -> GameRecord:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(f"not a game record: expected \"format\": \"{FORMAT}\"")
        version = data.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            raise RecordError("not a game record: \"version\" must be a whole number")
        if version > VERSION:
            raise RecordError(f"this game record is version {version}, newer than this sos-tui reads "
                              f"({VERSION}): update sos-tui to open it")
        if version < 1:
            raise RecordError(f"unknown game record version {version}")
        size = _field(data, "size", int)
        mode = _field(data, "mode", str)
        seats = _field(data, "players", list)
        moves = _field(data, "moves", list)
        started = _field(data, "started", str, "")
        updated = _field(data, "updated", str, started)
        players = tuple(_player(i, seat) for i, seat in enumerate(seats))
        try:
            state = GameState.new(size, mode, len(players))
        except ValueError as error:
            raise RecordError(f"bad game settings: {error}") from None
        for number, text in enumerate(moves, start=1):
            if not isinstance(text, str):
                raise RecordError(f"move {number}: expected notation like 'S b3', not {text!r}")
            try:
                state = state.play(Move.parse(text))
            except (InvalidMoveError, IllegalMoveError) as error:
                raise RecordError(f"move {number} ({text!r}): {error}") from None
        return cls(size, Mode(mode), players, state.moves, started, updated)


def _field(data: dict, name: str, kind: type, default=None):
    value = data.get(name, default)
    if value is None or not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(f"bad game record: \"{name}\" must be a {kind.__name__}, not {value!r}")
    return value


def _player(index: int, seat) -> PlayerInfo:
    where = f"player {index + 1}"
    if not isinstance(seat, dict) or not isinstance(seat.get("name"), str) or not seat["name"].strip():
        raise RecordError(f"bad game record: {where} needs a \"name\"")
    kind = seat.get("kind", "human")
    if kind not in KINDS:
        raise RecordError(f"bad game record: {where} has unknown kind {kind!r}")
    level = seat.get("level")
    if level is not None and not isinstance(level, str):
        raise RecordError(f"bad game record: {where} has a bad \"level\"")
    return PlayerInfo(seat["name"], kind, level)


def transcript(record: GameRecord) -> str:
    """A plain-text account of the game: header, numbered moves with points, board, result."""
    state = GameState.new(record.size, record.mode, len(record.players))
    names = [p.name + (f" (computer, {p.level})" if p.is_computer and p.level else "")
             for p in record.players]
    out = [
        f"SOS, {record.mode.value} game, {record.size}x{record.size}",
        "Players: " + ", ".join(f"{i + 1}. {n}" for i, n in enumerate(names)),
        f"Started: {record.started}",
        "",
    ]
    width = len(str(len(record.moves)))
    for number, move in enumerate(record.moves, start=1):
        mover = state.to_move
        before = state.scores[mover]
        state = state.play(move)
        gained = state.scores[mover] - before
        points = f"  +{gained}" if gained else ""
        out.append(f"{number:>{width}}. {record.players[mover].name}: {move}{points}")
    out += ["", str(state), ""]
    out.append("Scores: " + ", ".join(f"{record.players[i].name} {s}" for i, s in enumerate(state.scores)))
    out.append("Result: " + record.result_text(state))
    return "\n".join(out) + "\n"
