"""The seats of a room to create, and their one validation: from a command line, the host
dialog or a ``create`` message, ``check_seats`` says what is wrong with a ProtocolError.

A seat to create is a ``Seat``: ``human`` (the creator's, named), ``remote`` (the next person to
join: no name yet) or ``computer`` (played by the server, at ``level``)."""

from __future__ import annotations

from sos_tui.engine import (
    COMPUTER_LEVELS,
    MAX_PLAYERS,
    MAX_SIZE,
    MIN_PLAYERS,
    MIN_SIZE,
    Mode,
    Seat,
    SeatKind,
    check_name,
    check_names,
)
from sos_tui.engine.text import RuleError
from sos_tui.i18n import N_

from .errors import ProtocolError


def person_name(name) -> str:
    """A person's name at a server, checked (``check_name``) and trimmed; ValueError for one that
    ends in "(bot)", in any case or spacing: the server marks a bot's seat itself, and every front
    end shows it as "NAME (bot)", so a person so named would look like a bot."""
    checked = check_name(name)
    if "".join(checked.split()).casefold().endswith("(bot)"):
        raise RuleError('a name cannot end in "(bot)": the server marks its bots itself')
    return checked


def check_seats(size, mode, seats) -> tuple[int, Mode, tuple[Seat, ...]]:
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
    if all(s.is_computer for s in specs):
        raise ProtocolError("bad-room", N_("a network game needs at least one person"))
    try:
        check_names(s.name for s in specs if s.name)
    except ValueError as problem:
        raise ProtocolError.wrap("bad-room", problem) from None
    return size, mode, specs


def _check_seat(number: int, seat) -> Seat:
    """Seat ``number`` (from 1), a Seat or a dict with its fields, checked."""
    engine = None  # only a Seat of this process has an engine: a create message never starts a program
    if isinstance(seat, Seat):
        kind, name, level, engine = seat.kind, seat.name, seat.level, seat.engine
    elif isinstance(seat, dict):
        kind, name, level = seat.get("kind"), seat.get("name"), seat.get("level")
    else:
        raise ProtocolError("bad-room", N_("seat {number} must be an object with a \"kind\""), number=number)
    try:
        kind = SeatKind(kind)
    except (TypeError, ValueError):
        raise ProtocolError("bad-room", N_("seat {number}: kind must be human, remote or computer"),
                            number=number) from None
    if kind is SeatKind.REMOTE:
        return Seat(None, kind)
    if kind is SeatKind.HUMAN:
        return Seat(_name(number, name), kind)
    if engine is not None:
        return Seat(_name(number, name), kind, None, engine)
    level = "medium" if level is None else level
    if level not in COMPUTER_LEVELS:
        raise ProtocolError("bad-room", N_("seat {number}: level must be one of {levels}"),
                            number=number, levels=", ".join(COMPUTER_LEVELS))
    name = _name(number, name) if name is not None else f"Computer {number}"
    return Seat(name, kind, level)


def _name(number: int, name) -> str:
    try:
        return person_name(name)
    except ValueError as problem:
        raise ProtocolError("bad-room", N_("seat {number}: {error}"), number=number, error=problem) from None
