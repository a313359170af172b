"""The SOS engine protocol's lines as values, and a strict parser for each way
(``docs/engine-protocol.md`` is the reference; this module follows it word for word).

From the program using the engine (the GUI) to the engine::

    sos | isready | newgame size N mode general|simple players K | position moves M... |
    go movetime MS | quit

From the engine to the GUI::

    id name TEXT | id author TEXT | sosok | readyok | bestmove M | info TEXT

A move is a letter, a column and a row with no space: ``Sb2``. Words are separated by spaces
or tabs; spaces around a line and a final carriage return are ignored; a blank line is no line.
Anything else is a ``ProtocolError`` saying what is wrong.

>>> parse_command("position moves Sa1 Ob1")
Position(moves=(Move(row=0, col=0, letter='S'), Move(row=0, col=1, letter='O')))
>>> str(parse_answer("bestmove Sc1"))
'bestmove Sc1'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sos_tui.engine import (
    MAX_PLAYERS,
    MAX_SIZE,
    MIN_PLAYERS,
    MIN_SIZE,
    Mode,
    Move,
    cell_name,
    printable,
    shorten,
)
from sos_tui.engine.text import RuleError
from sos_tui.i18n import N_

MAX_LINE = 8192
"""The longest line either side may send, in characters (a full 26x26 position is under 3,400)."""
MAX_TEXT = 200
"""The longest ``id`` or ``info`` text."""
MAX_MOVETIME = 3_600_000
_MOVE = re.compile(r"([SO])([a-z])([1-9][0-9]?)")
_NUMBER = re.compile(r"[1-9][0-9]{0,9}")


class ProtocolError(RuleError):
    """A line that is not in the protocol; the message says what is wrong with it."""


def move_text(move: Move) -> str:
    """A move as the protocol writes it: ``Sb2``."""
    return f"{move.letter}{cell_name(move.row, move.col)}"


def parse_move(text: str) -> Move:
    """``"Sb2"`` -> Move(1, 1, "S"): an upper-case S or O, a column a..z, a row from 1 with no
    leading zero. Whether the cell is on the board is the rules' question, not the notation's."""
    found = _MOVE.fullmatch(text)
    if found is None:
        raise ProtocolError(
            N_("{text} is not a move: expected S or O, a column and a row, like Sb2"), text=_shown(text)
        )
    letter, column, row = found.groups()
    return Move(int(row) - 1, ord(column) - ord("a"), letter)


# -- from the GUI to the engine --------------------------------------------------------------
@dataclass(frozen=True)
class Sos:
    def __str__(self) -> str:
        return "sos"


@dataclass(frozen=True)
class IsReady:
    def __str__(self) -> str:
        return "isready"


@dataclass(frozen=True)
class NewGame:
    size: int
    mode: Mode
    players: int

    def __str__(self) -> str:
        return f"newgame size {self.size} mode {self.mode.value} players {self.players}"


@dataclass(frozen=True)
class Position:
    moves: tuple[Move, ...]

    def __str__(self) -> str:
        return " ".join(("position", "moves", *map(move_text, self.moves)))


@dataclass(frozen=True)
class Go:
    movetime: int  # milliseconds

    def __str__(self) -> str:
        return f"go movetime {self.movetime}"


@dataclass(frozen=True)
class Quit:
    def __str__(self) -> str:
        return "quit"


Command = Sos | IsReady | NewGame | Position | Go | Quit


# -- from the engine to the GUI --------------------------------------------------------------
@dataclass(frozen=True)
class Id:
    field: str  # "name" or "author"
    text: str

    def __str__(self) -> str:
        return f"id {self.field} {self.text}"


@dataclass(frozen=True)
class SosOk:
    def __str__(self) -> str:
        return "sosok"


@dataclass(frozen=True)
class ReadyOk:
    def __str__(self) -> str:
        return "readyok"


@dataclass(frozen=True)
class BestMove:
    move: Move

    def __str__(self) -> str:
        return f"bestmove {move_text(self.move)}"


@dataclass(frozen=True)
class Info:
    text: str

    def __str__(self) -> str:
        return f"info {self.text}"


Answer = Id | SosOk | ReadyOk | BestMove | Info


# -- parsing ----------------------------------------------------------------------------------
def _shown(text: str) -> str:
    return shorten(printable(text), 60)


def _words(line: str) -> list[str]:
    if not isinstance(line, str):
        raise ProtocolError(N_("a line must be text"))
    if line.endswith("\n"):
        line = line[:-1]
    if line.endswith("\r"):
        line = line[:-1]
    if len(line) > MAX_LINE:
        raise ProtocolError(
            N_("a line can be at most {most} characters, not {length}"), most=MAX_LINE, length=len(line)
        )
    if any(char in line for char in "\r\n\x00"):
        raise ProtocolError(N_("a line cannot hold a line break or a NUL character"))
    words = line.replace("\t", " ").split(" ")
    words = [word for word in words if word]
    if not words:
        raise ProtocolError(N_("the line is blank"))
    return words


def _number(words: list[str], at: int, key: str, low: int, high: int) -> int:
    if len(words) <= at + 1 or words[at] != key:
        raise ProtocolError(N_("expected {key} and a number"), key=key)
    text = words[at + 1]
    if not _NUMBER.fullmatch(text) or not low <= int(text) <= high:
        raise ProtocolError(
            N_("{key} must be a whole number from {low} to {high}, not {text}"),
            key=key,
            low=low,
            high=high,
            text=_shown(text),
        )
    return int(text)


def _bare(words: list[str], value):
    if len(words) != 1:
        raise ProtocolError(N_("{word} takes nothing after it"), word=words[0])
    return value


def parse_command(line: str) -> Command:
    """A line the GUI sends, read strictly; ProtocolError for anything else."""
    words = _words(line)
    head = words[0]
    if head == "sos":
        return _bare(words, Sos())
    if head == "isready":
        return _bare(words, IsReady())
    if head == "quit":
        return _bare(words, Quit())
    if head == "newgame":
        if len(words) != 7:
            raise ProtocolError(N_("expected newgame size N mode general|simple players K"))
        size = _number(words, 1, "size", MIN_SIZE, MAX_SIZE)
        if words[3] != "mode" or words[4] not in (Mode.GENERAL.value, Mode.SIMPLE.value):
            raise ProtocolError(N_("expected mode general or mode simple"))
        players = _number(words, 5, "players", MIN_PLAYERS, MAX_PLAYERS)
        return NewGame(size, Mode(words[4]), players)
    if head == "position":
        if len(words) < 2 or words[1] != "moves":
            raise ProtocolError(N_("expected position moves, then the moves"))
        return Position(tuple(parse_move(word) for word in words[2:]))
    if head == "go":
        if len(words) != 3:
            raise ProtocolError(N_("expected go movetime MS"))
        return Go(_number(words, 1, "movetime", 1, MAX_MOVETIME))
    raise ProtocolError(N_("{word} is not a command of the protocol"), word=_shown(head))


def parse_answer(line: str) -> Answer:
    """A line the engine sends, read strictly; ProtocolError for anything else."""
    words = _words(line)
    head = words[0]
    if head == "sosok":
        return _bare(words, SosOk())
    if head == "readyok":
        return _bare(words, ReadyOk())
    if head == "bestmove":
        if len(words) != 2:
            raise ProtocolError(N_("expected bestmove and one move, like bestmove Sb2"))
        return BestMove(parse_move(words[1]))
    if head in ("id", "info"):
        field = words[1] if head == "id" and len(words) > 1 else None
        if head == "id" and field not in ("name", "author"):
            raise ProtocolError(N_("expected id name TEXT or id author TEXT"))
        text = " ".join(words[2:] if head == "id" else words[1:])
        if not text or len(text) > MAX_TEXT or printable(text) != text:
            raise ProtocolError(
                N_("{head} needs a text of 1 to {most} printable characters"), head=head, most=MAX_TEXT
            )
        return Id(field, text) if head == "id" else Info(text)
    raise ProtocolError(N_("{word} is not an answer of the protocol"), word=_shown(head))
