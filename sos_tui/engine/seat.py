"""Who sits in a seat: ``Seat``, one value for a seat wherever sos-tui describes one (a game
record, the seats of a session, a room to create, a seat in a ``state`` message, a stored room),
and its conversions to and from JSON.

A seat is a name, a ``SeatKind`` and, for a computer, its level, or the command of the outside
engine program that plays it (``engine``: see docs/engine-protocol.md). A ``remote`` seat is a person on
another machine: the record keeps every person as ``human`` (``recorded``), only a session or a
room knows who plays elsewhere; an open remote seat has no name until someone joins.

>>> Seat("Deep", SeatKind.COMPUTER, "hard").label
'Deep (hard)'
>>> Seat.from_dict({"name": "Bot", "kind": "computer", "level": "Hard"})
Seat(name='Bot', kind=<SeatKind.COMPUTER: 'computer'>, level='hard', engine=None, bot=False)
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from .text import Phrase, RuleError, escape, printable, shorten

MAX_NAME = 24
MAX_COMMAND = 1000
"""The longest engine command a seat holds."""
ENGINE_PREFIX = "engine:"
"""A seat or an entrant ``engine:COMMAND`` is the engine program started by COMMAND."""
COMPUTER_LEVELS = ("easy", "medium", "hard", "expert")


def engine_command(text: str) -> str | None:
    """The COMMAND of ``engine:COMMAND`` (stripped; any case of ``engine:``), or None if ``text``
    names no engine.

    >>> engine_command("Engine: python3 bot.py"), engine_command("hard")
    ('python3 bot.py', None)
    """
    text = text.strip()
    if text[: len(ENGINE_PREFIX)].lower() != ENGINE_PREFIX:
        return None
    return text[len(ENGINE_PREFIX) :].strip()


class SeatKind(StrEnum):
    """Who makes the moves of a seat. A remote seat is a person on another machine."""

    HUMAN = "human"
    COMPUTER = "computer"
    REMOTE = "remote"


RECORDED_KINDS = (SeatKind.HUMAN, SeatKind.COMPUTER)
"""The kinds a game record (and a ``state`` message) holds: people and computers."""


class SeatError(RuleError):
    """A seat that cannot be read. The message says what is wrong after the seat's name in the
    caller's words (``player 2 has unknown kind 'robot'``): read it as a part of a sentence."""


_BAD_NAME_CHARS = {
    "Cc": Phrase("a control character"), "Cf": Phrase("an invisible formatting character"),
    "Co": Phrase("a private-use character"), "Cn": Phrase("an unassigned character"),
    "Cs": Phrase("a lone surrogate"), "Zl": Phrase("a line break"), "Zp": Phrase("a paragraph break"),
}  # fmt: skip


def check_name(text: str) -> str:
    r"""The player name ``text`` trimmed of surrounding spaces; ValueError saying which rule it breaks.

    A name is 1 to ``MAX_NAME`` characters after trimming, with no control, formatting,
    private-use, unassigned, surrogate or line-break characters.

    >>> check_name("  Ann ")
    'Ann'
    >>> check_name("Ann\x1b[2J")
    Traceback (most recent call last):
    sos_tui.engine.text.RuleError: a name cannot hold a control character (\x1b)
    """
    if not isinstance(text, str):
        raise RuleError("a name must be text, not {kind}", kind=type(text).__name__)
    name = text.strip()
    if not name:
        raise RuleError("a name cannot be empty")
    for char in name:
        kind = _BAD_NAME_CHARS.get(unicodedata.category(char))
        if kind:
            raise RuleError("a name cannot hold {kind} ({char})", kind=kind, char=escape(char))
    if len(name) > MAX_NAME:
        raise RuleError(
            "a name can be at most {most} characters, not {length} ({name!r})",
            most=MAX_NAME,
            length=len(name),
            name=shorten(name, MAX_NAME),
        )
    return name


def check_names(names: Iterable[str]) -> tuple[str, ...]:
    """Every name checked by ``check_name`` and trimmed; ValueError if two are the same ignoring case."""
    checked = tuple(check_name(name) for name in names)
    seen: dict[str, str] = {}
    for name in checked:
        key = name.casefold()
        if key in seen:
            raise RuleError("two players are called {name!r}: names must differ (ignoring case)", name=name)
        seen[key] = name
    return checked


@dataclass(frozen=True, slots=True)
class Seat:
    """Who sits in a seat: a ``name`` (None for an open remote seat), a ``kind`` (given as text,
    ``"computer"``, it is read as its ``SeatKind``; SeatError for an unknown one), a computer's
    ``level`` (None: its default) and, for a computer played by an outside engine program, the
    ``engine`` command that starts it (None: one of our levels plays); ``bot``: a program sits
    there that connected to a server as a bot (``sos-tui bot``), marked as one wherever the seat
    is shown."""

    name: str | None
    kind: SeatKind = SeatKind.HUMAN
    level: str | None = None
    engine: str | None = None
    bot: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.kind, SeatKind):
            object.__setattr__(self, "kind", _kind(self.kind, tuple(SeatKind)))

    @property
    def is_computer(self) -> bool:
        return self.kind is SeatKind.COMPUTER

    @property
    def person(self) -> bool:
        """A person plays it, here (``human``) or on another machine (``remote``)."""
        return self.kind is not SeatKind.COMPUTER

    @property
    def is_open(self) -> bool:
        """A remote seat nobody has taken yet."""
        return self.kind is SeatKind.REMOTE and self.name is None

    @property
    def label(self) -> str:
        """``"Ana"``, or ``"Deep (hard)"`` for a computer with a level: a seat in a list or table.
        The name as given: pass it through ``printable`` before it reaches a terminal."""
        return f"{self.name} ({self.level})" if self.is_computer and self.level else (self.name or "")

    @property
    def recorded(self) -> Seat:
        """The seat as a game record (and a ``state`` message) keeps it: a person is ``human``
        wherever they play, a person's seat has no level."""
        return self if self.is_computer else Seat(self.name, bot=self.bot)

    def to_dict(self, *, full: bool = False) -> dict:
        """``{"name", "kind", "level", "engine"}``, and ``"bot": true`` for a bot: the game record
        leaves out a level or an engine of None; the wire (``full``) always holds the first three
        and never the engine (a command of this machine, which no other machine runs)."""
        data = {"name": self.name, "kind": str(self.kind)}
        if full or self.level is not None:
            data["level"] = self.level
        if not full and self.engine is not None:
            data["engine"] = self.engine
        if self.bot:
            data["bot"] = True
        return data

    @classmethod
    def from_dict(cls, data) -> Seat:
        """A seat of a game record (``to_dict``): a name ``check_name`` accepts, a kind of
        ``RECORDED_KINDS`` (``human`` when missing), a computer's level from ``COMPUTER_LEVELS``
        (any case). SeatError saying what is wrong."""
        if not isinstance(data, dict) or not isinstance(data.get("name"), str) or not data["name"].strip():
            raise SeatError('needs a "name"')
        try:
            name = check_name(data["name"])
        except ValueError as error:
            raise SeatError('"name": {error}', error=error) from None
        kind = _kind(data.get("kind", SeatKind.HUMAN), RECORDED_KINDS)
        level = data.get("level")
        if level is not None and not isinstance(level, str):
            raise SeatError('has a bad "level"')
        if kind is SeatKind.COMPUTER and level is not None:
            if level.lower() not in COMPUTER_LEVELS:
                raise SeatError(
                    '"level" is unknown: {value} (choose {levels})',
                    value=_shown(level),
                    levels=", ".join(COMPUTER_LEVELS),
                )
            level = level.lower()
        engine = data.get("engine")
        if engine is not None and (
            kind is not SeatKind.COMPUTER
            or not isinstance(engine, str)
            or not engine.strip()
            or len(engine) > MAX_COMMAND
        ):
            raise SeatError(
                'has a bad "engine" (a computer\'s command, 1 to {most} characters)', most=MAX_COMMAND
            )
        return cls(name, kind, level, engine, data.get("bot") is True)


PlayerInfo = Seat
"""The name a seat of a game record had before ``Seat``: the same class."""


def _kind(value, kinds: tuple[SeatKind, ...]) -> SeatKind:
    if isinstance(value, str) and value in kinds:
        return SeatKind(value)
    raise SeatError("has unknown kind {value}", value=_shown(value))


def _shown(value) -> str:
    return shorten(printable(repr(value)), 40)
