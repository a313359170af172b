"""The seats of a room to create, and their one validation: from a command line, the host
dialog or a ``create`` message, ``check_seats`` says what is wrong with a ProtocolError."""

from __future__ import annotations

from dataclasses import dataclass

from sos_tui.engine import (
    COMPUTER_LEVELS,
    MAX_PLAYERS,
    MAX_SIZE,
    MIN_PLAYERS,
    MIN_SIZE,
    Mode,
    check_name,
    check_names,
)
from sos_tui.i18n import N_
from sos_tui.session import SeatKind

from .errors import ProtocolError


@dataclass(frozen=True)
class SeatSpec:
    """A seat of a room to create: ``human`` (the creator's, named), ``remote`` (the next person to
    join) or ``computer`` (played by the server, at ``level``)."""

    kind: SeatKind
    name: str | None = None
    level: str | None = None

    def __post_init__(self) -> None:
        if self.kind in SeatKind.__members__.values() and not isinstance(self.kind, SeatKind):
            object.__setattr__(self, "kind", SeatKind(self.kind))  # "human" given as text

    def to_dict(self) -> dict:
        return {"kind": str(self.kind), "name": self.name, "level": self.level}


def check_seats(size, mode, seats) -> tuple[int, Mode, tuple[SeatSpec, ...]]:
    """Validate a room's settings (any values: from a command line or a ``create`` message);
    ProtocolError ``bad-room`` naming the problem."""
    if not isinstance(size, int) or isinstance(size, bool) or not MIN_SIZE <= size <= MAX_SIZE:
        raise ProtocolError("bad-room", N_("size must be a whole number from {low} to {high}"), low=MIN_SIZE,
                            high=MAX_SIZE)
    try:
        mode = Mode(mode)
    except (TypeError, ValueError):
        raise ProtocolError("bad-room", N_("mode must be general or simple")) from None
    if not isinstance(seats, list | tuple) or not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise ProtocolError("bad-room", N_("a game has {low} to {high} seats"), low=MIN_PLAYERS,
                            high=MAX_PLAYERS)
    specs = tuple(_check_seat(number, seat) for number, seat in enumerate(seats, 1))
    if all(s.kind is SeatKind.COMPUTER for s in specs):
        raise ProtocolError("bad-room", N_("a network game needs at least one person"))
    try:
        check_names(s.name for s in specs if s.name)
    except ValueError as problem:
        raise ProtocolError.wrap("bad-room", problem) from None
    return size, mode, specs


def _check_seat(number: int, seat) -> SeatSpec:
    """Seat ``number`` (from 1), a SeatSpec or a dict with its fields, checked."""
    if isinstance(seat, dict):
        seat = SeatSpec(seat.get("kind"), seat.get("name"), seat.get("level"))
    if not isinstance(seat, SeatSpec):
        raise ProtocolError("bad-room", N_("seat {number} must be an object with a \"kind\""), number=number)
    try:
        kind = SeatKind(seat.kind)
    except (TypeError, ValueError):
        raise ProtocolError("bad-room", N_("seat {number}: kind must be human, remote or computer"),
                            number=number) from None
    if kind is SeatKind.REMOTE:
        return SeatSpec(kind)
    if kind is SeatKind.HUMAN:
        return SeatSpec(kind, _name(number, seat.name))
    level = "medium" if seat.level is None else seat.level
    if level not in COMPUTER_LEVELS:
        raise ProtocolError("bad-room", N_("seat {number}: level must be one of {levels}"),
                            number=number, levels=", ".join(COMPUTER_LEVELS))
    name = _name(number, seat.name) if seat.name is not None else f"Computer {number}"
    return SeatSpec(kind, name, level)


def _name(number: int, name) -> str:
    try:
        return check_name(name)
    except ValueError as problem:
        raise ProtocolError("bad-room", N_("seat {number}: {error}"), number=number, error=problem) from None
