"""Game records: a versioned JSON file format and a plain-text transcript.

A record holds the game's id, the settings, who played, the moves in notation and when; loading
replays every move through the engine, so a record that loads is a game that could have been
played. A record holds ``MIN_PLAYERS`` to ``MAX_PLAYERS`` seats (``seat.Seat``: names that
``check_name`` accepts and ``check_names`` finds distinct, computer levels from
``COMPUTER_LEVELS``).
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime

from .clock import ClockError, TimeControl
from .rules import MIN_PLAYERS, GameState, IllegalMoveError, InvalidMoveError, Mode, Move
from .seat import Seat, SeatError, check_names
from .text import Phrase, RuleError, printable, shorten

FORMAT = "sos-game"
VERSION = 1  # "id" was added without a new version: older readers ignore it, files without it load
MAX_PLAYERS = 6


def _same(text: str) -> str:
    """No translation: the English the engine writes."""
    return text


_KIND_NAMES = {int: Phrase("whole number"), str: Phrase("string"), list: Phrase("list")}
_GAME_ID = re.compile(r"[0-9A-Za-z_-]{1,64}")


class RecordError(RuleError):
    """A game record that cannot be read: malformed, foreign, newer, or holding an illegal move."""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _new_id() -> str:
    return uuid.uuid4().hex


def legacy_game_id(started: str, size: int, mode: str, names: Iterable[str]) -> str:
    """The id of a game saved before records had one: a hash of its start, settings and names,
    so the same old file always maps to the same game."""
    key = json.dumps([started, size, str(mode), list(names)], ensure_ascii=True)
    return hashlib.sha256(key.encode()).hexdigest()[:32]


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A whole game: settings, seats, moves, timestamps and a stable id. ``state`` replays it.

    ``game_id`` is made when the game starts and kept through every move, undo and save, so the
    autosave and the history row of a game are found by it.

    A timed game keeps its time ``clock`` and ``spent_ms``, the time each move took in
    milliseconds (one per move); both are None for an untimed game.
    """

    size: int
    mode: Mode
    players: tuple[Seat, ...]
    moves: tuple[Move, ...] = ()
    started: str = field(default_factory=_now)
    updated: str = field(default_factory=_now)
    game_id: str = field(default_factory=_new_id)
    clock: TimeControl | None = None
    spent_ms: tuple[int, ...] | None = None
    # The state these moves lead to, when the record was made from it (``with_state``): a record
    # saved on every move of a big game is not replayed each time. Checked before it is trusted.
    _state: GameState | None = field(default=None, compare=False, repr=False)

    @classmethod
    def for_state(cls, state: GameState, players=None, started: str | None = None,
                  game_id: str | None = None) -> GameRecord:
        """The record of ``state``; ``players`` defaults to "Player 1", "Player 2", ...;
        a new game id unless ``game_id`` is given."""
        seats = tuple(players) if players is not None else tuple(
            Seat(f"Player {i + 1}") for i in range(state.players))
        if len(seats) != state.players:
            raise ValueError(f"{len(seats)} seats named for a {state.players}-player game")
        now = _now()
        return cls(state.size, state.mode, seats, state.moves, started or now, now, game_id or _new_id(),
                   _state=state)

    def with_state(self, state: GameState, updated: str | None = None,
                   spent_ms: tuple[int, ...] | None = None) -> GameRecord:
        """This record (same game id) moved on (or back) to ``state``, stamped ``updated`` (now
        unless given: a copy of another's record takes its stamp). A timed record needs the
        ``spent_ms`` of every move when it moves on; moved back (undo), it keeps those of the
        moves left."""
        count = len(state.moves)
        if self.clock is not None and spent_ms is None and state.moves == self.moves[:count]:
            spent_ms = self.spent_ms[:count]
        if self.clock is not None and (spent_ms is None or len(spent_ms) != count):
            raise ValueError("a timed game record needs the time spent on each move")
        return replace(self, moves=state.moves, updated=updated or _now(), _state=state,
                       spent_ms=None if self.clock is None else tuple(spent_ms))

    @property
    def state(self) -> GameState:
        known = self._state
        if known is not None and (known.moves, known.size, known.mode, known.players) == (
                self.moves, self.size, self.mode, len(self.players)):
            return known
        return GameState.from_moves(self.moves, self.size, self.mode, len(self.players))

    def result_text(self, state: GameState | None = None, tr: Callable[[str], str] = _same) -> str:
        """"Ana wins", "draw", "draw between Ana, Bo" or "unfinished"; ``tr`` translates the words
        (``sos_tui.i18n._``); the English is what game files store."""
        outcome = (state or self.state).outcome
        if outcome is None:
            return tr("unfinished")
        names = [self.players[p].name for p in outcome.winners]
        if outcome.is_draw:
            if len(names) < len(self.players):
                return tr("draw between {names}").format(names=", ".join(names))
            return tr("draw")
        return tr("{name} wins").format(name=names[0])

    # -- JSON -------------------------------------------------------------------------------
    def to_dict(self, state: GameState | None = None) -> dict:
        """The JSON object of this record; ``state``, when the caller has it (the record replayed),
        saves replaying the moves again."""
        state = self.state if state is None or state.moves != self.moves else state
        return {
            "format": FORMAT,
            "version": VERSION,
            "id": self.game_id,
            "size": self.size,
            "mode": self.mode.value,
            "players": [p.to_dict() for p in self.players],
            "moves": [str(m) for m in self.moves],
            "started": self.started,
            "updated": self.updated,
            **({} if self.clock is None else {"clock": str(self.clock), "spent_ms": list(self.spent_ms)}),
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
            raise RecordError("not a game record: the file is not valid JSON ({error})",
                              error=str(error)) from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data) -> GameRecord:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError('not a game record: expected "format": "{format}"', format=FORMAT)
        version = data.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            raise RecordError('not a game record: "version" must be a whole number')
        if version > VERSION:
            raise RecordError("this game record is version {version}, newer than this sos-tui reads "
                              "({newest}): update sos-tui to open it", version=version, newest=VERSION)
        if version < 1:
            raise RecordError("unknown game record version {version}", version=version)
        size = _field(data, "size", int)
        mode = _field(data, "mode", str)
        seats = _field(data, "players", list)
        moves = _field(data, "moves", list)
        started = _field(data, "started", str, "")
        updated = _field(data, "updated", str, started)
        if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
            raise RecordError('bad game record: "players" must hold {low} to {high} players, not {count}',
                              low=MIN_PLAYERS, high=MAX_PLAYERS, count=len(seats))
        players = tuple(_player(i, seat) for i, seat in enumerate(seats))
        try:
            check_names(p.name for p in players)
        except ValueError as error:
            raise RecordError('bad game record: "players": {error}', error=error) from None
        if "id" in data:
            game_id = data["id"]
            if not isinstance(game_id, str) or not _GAME_ID.fullmatch(game_id):
                raise RecordError(
                    """bad game record: "id" must be 1 to 64 letters, digits, '-' or '_', not {value}""",
                    value=_shown(game_id))
        else:
            game_id = legacy_game_id(started, size, mode, (p.name for p in players))
        try:
            state = GameState.new(size, mode, len(players))
        except ValueError as error:
            raise RecordError("bad game settings: {error}", error=error) from None
        for number, text in enumerate(moves, start=1):
            if not isinstance(text, str):
                raise RecordError("move {number}: expected notation like 'S b3', not {value}", number=number,
                                  value=_shown(text))
            try:
                state = state.play(Move.parse(text))
            except (InvalidMoveError, IllegalMoveError) as error:
                raise RecordError("move {number} ({text!r}): {error}", number=number, text=text,
                                  error=error) from None
        clock, spent = _clock(data, len(moves))
        return cls(size, Mode(mode), players, state.moves, started, updated, game_id, clock, spent)


def _shown(value) -> str:
    return shorten(printable(repr(value)), 40)


def _field(data: dict, name: str, kind: type, default=None):
    value = data.get(name, default)
    if value is None or not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError('bad game record: "{name}" must be a {kind}, not {value}', name=name,
                          kind=_KIND_NAMES[kind], value=_shown(value))
    return value


def _clock(data: dict, moves: int) -> tuple[TimeControl | None, tuple[int, ...] | None]:
    """The time control and each move's time spent of a timed game; (None, None) for an untimed one."""
    if "clock" not in data and "spent_ms" not in data:
        return None, None
    try:
        clock = TimeControl.from_dict(data.get("clock"))
    except ClockError as error:
        raise RecordError('bad game record: "clock": {error}', error=error) from None
    spent = data.get("spent_ms")
    if (not isinstance(spent, list) or len(spent) != moves
            or any(type(ms) is not int or not 0 <= ms <= clock.initial_ms + moves * clock.increment_ms
                   for ms in spent)):
        raise RecordError('bad game record: "spent_ms" must list the milliseconds each of the {count} moves '
                          "took, not {value}", count=moves, value=_shown(spent))
    return clock, tuple(spent)


def _player(index: int, seat) -> Seat:
    try:
        return Seat.from_dict(seat)
    except SeatError as error:
        raise RecordError("bad game record: player {number} {error}", number=index + 1, error=error) from None


def transcript(record: GameRecord, tr: Callable[[str], str] = _same) -> str:
    """A plain-text account of the game: header, numbered moves with points, board, result;
    ``tr`` translates the words (``sos_tui.i18n._``). Names are shown as data (``printable``): no
    escape sequence in a name reaches a terminal."""
    shown = [printable(p.name) for p in record.players]
    names = [tr("{name} (computer, {level})").format(name=shown[i], level=tr(p.level))
             if p.is_computer and p.level else shown[i] for i, p in enumerate(record.players)]
    title = (tr("SOS, general game, {size}x{size}") if record.mode is Mode.GENERAL
             else tr("SOS, simple game, {size}x{size}"))
    out = [
        title.format(size=record.size),
        tr("Players: {players}").format(players=", ".join(f"{i + 1}. {n}" for i, n in enumerate(names))),
        tr("Started: {time}").format(time=record.started),
        "",
    ]
    state = record.state
    width = len(str(len(record.moves)))
    for number, (move, mover, points) in enumerate(
            zip(state.moves, state.movers, state.points_by_move, strict=True), start=1):
        gained = f"  +{points}" if points else ""
        out.append(f"{number:>{width}}. {shown[mover]}: {move}{gained}")
    out += ["", str(state), ""]
    scores = ", ".join(f"{shown[i]} {s}" for i, s in enumerate(state.scores))
    out.append(tr("Scores: {scores}").format(scores=scores))
    out.append(tr("Result: {result}").format(result=printable(record.result_text(state, tr))))
    return "\n".join(out) + "\n"
