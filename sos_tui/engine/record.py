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
from .rules import (
    DROPS,
    MIN_PLAYERS,
    Drop,
    EndingError,
    GameState,
    IllegalMoveError,
    InvalidMoveError,
    Mode,
    Move,
    Termination,
)
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
    autosave and the history row of a game are found by it. ``drops`` are the seats that dropped
    out (resigned, ran out of time, left), and ``ended_by`` the ending no move or drop makes
    (agreement or abort; None otherwise); ``termination`` says how the game ended. Files without
    them are ordinary games.

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
    drops: tuple[Drop, ...] = ()
    ended_by: Termination | None = None

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
                   _state=state, drops=state.drops, ended_by=_by_hand(state))

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
                       spent_ms=None if self.clock is None else tuple(spent_ms), drops=state.drops,
                       ended_by=_by_hand(state))

    @property
    def state(self) -> GameState:
        known = self._state
        if known is not None and (known.moves, known.size, known.mode, known.players, known.drops,
                                  _by_hand(known)) == (self.moves, self.size, self.mode, len(self.players),
                                                       self.drops, self.ended_by):
            return known
        return GameState.from_moves(self.moves, self.size, self.mode, len(self.players), self.drops,
                                    self.ended_by)

    @property
    def termination(self) -> Termination | None:
        """How the game ended (``normal`` when it ran to its end); None while it runs."""
        return self.state.termination

    def result_text(self, state: GameState | None = None, tr: Callable[[str], str] = _same) -> str:
        """"Ana wins", "draw", "draw between Ana, Bo" or "unfinished"; ``tr`` translates the words
        (``sos_tui.i18n._``); the English is what game files store."""
        outcome = (state or self.state).outcome
        if outcome is None:
            return tr("unfinished")
        if not outcome.has_result:
            return tr("aborted")
        names = [self.players[p].name for p in outcome.winners]
        if outcome.is_draw:
            if len(names) < len(self.players):
                return tr("draw between {names}").format(names=", ".join(names))
            return tr("draw")
        return tr("{name} wins").format(name=names[0])

    def ending_text(self, state: GameState | None = None, tr: Callable[[str], str] = _same) -> str:
        """How the game ended beyond its score (``ending_text``), with this record's names."""
        return ending_text(state or self.state, [p.name for p in self.players], tr)

    # -- JSON -------------------------------------------------------------------------------
    def to_dict(self, state: GameState | None = None, *, moves: bool = True) -> dict:
        """The JSON object of this record; ``state``, when the caller has it (the record replayed),
        saves replaying the moves again. Without ``moves``, the object lacks its "moves" (a store
        that keeps them apart, one by one, adds them back before ``from_dict``)."""
        state = self.state if state is None or state.moves != self.moves else state
        data = {
            "format": FORMAT,
            "version": VERSION,
            "id": self.game_id,
            "size": self.size,
            "mode": self.mode.value,
            "players": [p.to_dict() for p in self.players],
            "moves": [str(m) for m in self.moves] if moves else None,
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
        if not moves:
            del data["moves"]
        if state.drops:
            data["drops"] = [{"seat": d.seat, "why": d.why.value, "after": d.after} for d in state.drops]
        if state.termination is not None:
            data["termination"] = state.termination.value
        return data

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
        termination = _termination(data)
        drops = _drops(data, len(players), len(moves))
        try:
            state = GameState.new(size, mode, len(players))
        except ValueError as error:
            raise RecordError("bad game settings: {error}", error=error) from None
        for number, text in enumerate(moves, start=1):
            state = _drop(state, drops)
            if not isinstance(text, str):
                raise RecordError("move {number}: expected notation like 'S b3', not {value}", number=number,
                                  value=_shown(text))
            try:
                state = state.play(Move.parse(text))
            except (InvalidMoveError, IllegalMoveError) as error:
                raise RecordError("move {number} ({text!r}): {error}", number=number, text=text,
                                  error=error) from None
        clock, spent = _clock(data, len(moves))
        state = _drop(state, drops)
        if termination in (Termination.AGREEMENT, Termination.ABORT):
            try:
                state = state.end(termination)
            except EndingError as error:
                raise RecordError('bad game record: "termination": {error}', error=error) from None
        if termination is not None and state.termination is not termination:
            raise RecordError('bad game record: "termination" is {value}, but its moves and drops end '
                              'the game otherwise', value=termination.value)
        return cls(size, Mode(mode), players, state.moves, started, updated, game_id, clock, spent, state,
                   state.drops, _by_hand(state))


_DROPPED = {Termination.RESIGN: Phrase("{name} resigned"), Termination.TIME: Phrase("{name} ran out of time"),
            Termination.ABANDON: Phrase("{name} left the game")}  # ``tr`` translates them where shown


def ending_text(state: GameState, names, tr: Callable[[str], str] = _same) -> str:
    """How the game ended beyond its score: "Bo resigned", "Ana won on time", "drawn by
    agreement", "aborted", and each seat that dropped out on the way ("Cy resigned; Bo left the
    game"); "" for a game that ran to its end with everyone in, or is running. ``names`` are the
    seats' names, used as given (``printable`` them before a terminal); ``tr`` translates the
    words (``sos_tui.i18n._``)."""
    termination = state.termination
    parts = []
    for drop in state.drops:
        if drop.why is Termination.TIME and termination is Termination.TIME and drop == state.drops[-1]:
            parts.append(tr("{name} won on time").format(name=names[state.winners[0]]))
        else:
            parts.append(tr(_DROPPED[drop.why]).format(name=names[drop.seat]))
    if termination is Termination.AGREEMENT:
        parts.append(tr("drawn by agreement"))
    elif termination is Termination.ABORT:
        parts.append(tr("aborted"))
    return "; ".join(parts)


def _by_hand(state: GameState) -> Termination | None:
    """The ending of ``state`` that no move or drop makes: agreement or abort."""
    termination = state.termination
    return termination if termination in (Termination.AGREEMENT, Termination.ABORT) else None


def _termination(data: dict) -> Termination | None:
    if "termination" not in data:
        return None
    value = data["termination"]
    if value not in Termination.__members__.values() or not isinstance(value, str):
        raise RecordError('bad game record: unknown "termination" {value} (choose {known})',
                          value=_shown(value), known=", ".join(Termination))
    return Termination(value)


def _drops(data: dict, players: int, moves: int) -> list[Drop]:
    """The record's drops, checked, in the order they happened."""
    drops = data.get("drops", [])
    if not isinstance(drops, list):
        raise RecordError('bad game record: "drops" must be a list, not {value}', value=_shown(drops))
    checked: list[Drop] = []
    for number, item in enumerate(drops, start=1):
        seat = item.get("seat") if isinstance(item, dict) else None
        why = item.get("why") if isinstance(item, dict) else None
        after = item.get("after") if isinstance(item, dict) else None
        if (type(seat) is not int or not 0 <= seat < players or why not in DROPS or not isinstance(why, str)
                or type(after) is not int or not 0 <= after <= moves
                or (checked and after < checked[-1].after)):
            raise RecordError('bad game record: drop {number} must name a seat (0 to {last}), why (resign, '
                              'time or abandon) and after how many moves, in order: {value}', number=number,
                              last=players - 1, value=_shown(item))
        checked.append(Drop(seat, Termination(why), after))
    return checked


def _drop(state: GameState, drops: list[Drop]) -> GameState:
    """``state`` with the drops made at its move count (taken from the front of ``drops``)."""
    while drops and drops[0].after == state.move_count:
        drop = drops.pop(0)
        try:
            state = state.drop(drop.seat, drop.why)
        except EndingError as error:
            raise RecordError('bad game record: "drops": {error}', error=error) from None
    return state


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
    ending = record.ending_text(state, tr)
    if ending:
        out.append(tr("Ended: {how}").format(how=printable(ending)))
    return "\n".join(out) + "\n"
