"""What every command shares: the error policy's pieces and the argument types."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Collection, Sequence

from sos_tui.engine import (
    COMPUTER_LEVELS,
    MAX_NAME,
    MAX_SIZE,
    MIN_SIZE,
    Seat,
    SeatKind,
    check_name,
    engine_command,
    printable,
    shorten,
)
from sos_tui.engine.clock import ClockError, TimeControl
from sos_tui.i18n import _, explain, level_name

PROG = "sos-tui"
MAX_MESSAGE = 300
"""The longest error line printed: a megabyte of argument is not echoed back."""


class UsageError(Exception):
    """A bad command line; the message says what is wrong."""


class Exit(Exception):
    """--help or --version was printed: stop with ``status``."""

    def __init__(self, status: int) -> None:
        self.status = status


class Parser(argparse.ArgumentParser):
    """argparse that raises instead of printing usage and exiting: ``main`` owns the policy.

    ``options``, if given, adds the parser's arguments when it first parses (--help included), so
    a command's options are built only when it runs; the arena's need the AI, slow to import."""

    def __init__(self, *args, options: Callable[[argparse.ArgumentParser], None] | None = None,
                 **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._options = options

    def parse_known_args(self, args=None, namespace=None):
        if self._options is not None:
            self._options, options = None, self._options
            options(self)
        return super().parse_known_args(args, namespace)

    def error(self, message: str):
        raise UsageError(message)

    def exit(self, status: int = 0, message: str | None = None):
        if message:
            raise UsageError(message.strip())
        raise Exit(status)


def told(notes, command: str = "") -> int:
    """After the app: each finished game it could not keep, one line on stderr, whole (it says
    where the game is), escaped; status 2 if there was any."""
    for note in notes or ():
        print(f"{PROG}{' ' + command if command else ''}: {printable(note)}", file=sys.stderr)
    return 2 if notes else 0


def fail(command: str, message: str) -> int:
    """Print one line ``sos-tui <command>: <message>`` to stderr (escaped, shortened); return 2."""
    line = shorten(printable(message), MAX_MESSAGE)
    print(f"{PROG}{' ' + command if command else ''}: {line}", file=sys.stderr)
    return 2


def discard_stdout() -> None:
    """Point standard output at the null device: after a closed pipe or a full disk, what is left
    in its buffer is not written again (and failed on) as Python exits."""
    with contextlib.suppress(OSError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def has_terminal() -> bool:
    """Whether stdin and stdout are both a terminal, as the app needs."""
    return is_terminal(sys.stdin) and is_terminal(sys.stdout)


TEXTUAL_WEB_DRIVER = "textual.drivers.web_driver:WebDriver"
"""What textual-serve puts in ``TEXTUAL_DRIVER`` for the apps it runs."""
OUR_WEB_DRIVER = "sos_tui.app.web_driver:WebDriver"
"""What a tab of ``sos-tui web`` puts there instead (``web_tab``)."""


def served() -> bool:
    """Whether the app runs under ``sos-tui web`` (textual-serve): a web driver speaks to the
    browser over stdin and stdout, which are pipes there, not a terminal."""
    return os.environ.get("TEXTUAL_DRIVER") in (TEXTUAL_WEB_DRIVER, OUR_WEB_DRIVER)


def is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # closed or replaced streams
        return False


def int_in(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argument type: a whole number from ``low`` to ``high`` (no upper bound when None)."""
    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or value < low or (high is not None and value > high):
            if high is None:
                complaint = _("expected a whole number at least {low}, not {text!r}")
            else:
                complaint = _("expected a whole number from {low} to {high}, not {text!r}")
            raise argparse.ArgumentTypeError(complaint.format(low=low, high=high, text=text))
        return value
    return convert


def board_size(text: str) -> int:
    """An argument type: a board size, MIN_SIZE to MAX_SIZE."""
    try:
        size = int(text)
    except ValueError:
        complaint = _("must be a whole number, not {text!r}")
        raise argparse.ArgumentTypeError(complaint.format(text=text)) from None
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise argparse.ArgumentTypeError(_("must be from {low} to {high}, not {size}").format(
            low=MIN_SIZE, high=MAX_SIZE, size=size))
    return size


def time_control(text: str) -> TimeControl:
    """An argument type: a time control ``MIN+INC`` as ``--clock`` takes it (``5+3``, ``0.5+0``:
    minutes, then the seconds added after each move). Days per move (``2d``) are refused: those
    are correspondence rooms on a server."""
    control = room_control(text)
    if control.per_move:
        raise argparse.ArgumentTypeError(_(
            "days per move ({text}) are for correspondence rooms on a server: give minutes+increment, "
            "like 5+3").format(text=control))
    return control


def room_control(text: str) -> TimeControl:
    """An argument type: a network room's time control, ``MIN+INC`` or days per move (``2d``)."""
    try:
        return TimeControl.parse(text)
    except ClockError as error:
        raise argparse.ArgumentTypeError(explain(error)) from None


def board_size_help() -> str:
    return _("board size, {low} to {high}").format(low=MIN_SIZE, high=MAX_SIZE)


def unknown_level(level: str) -> str:
    return _("unknown computer level {level!r} (choose {levels})").format(
        level=level, levels=", ".join(COMPUTER_LEVELS))


def seat_error(index: int, error: BaseException | str) -> str:
    return _("seat {number}: {error}").format(number=index + 1, error=explain(error))


def engine_seat(index: int, command: str, taken: Collection[str] = ()) -> Seat:
    """Seat ``index`` played by the engine program ``command`` (of ``engine:COMMAND``). The engine
    is started once, to check that it speaks the protocol, and stopped: the seat is named by its
    ``id name`` (else "Engine N", and so when a name in ``taken`` has it, ignoring case).
    ArgumentTypeError saying what is wrong with the command."""
    from sos_tui.ai.engines.client import EngineError, probe  # the AI: only for an engine seat
    from sos_tui.session.computer import trust_engine

    try:
        name = probe(command)
    except EngineError as error:
        raise argparse.ArgumentTypeError(seat_error(index, error)) from None
    try:
        name = check_name(shorten(name or "", MAX_NAME))
    except ValueError:
        name = None
    if name is None or name.casefold() in {other.casefold() for other in taken}:
        name = _("Engine {number}").format(number=index + 1)
    trust_engine(command)
    return Seat(name, SeatKind.COMPUTER, None, command)


def check_engines(entrants) -> None:
    """Start each ``engine:COMMAND`` of ``entrants`` once, to check that it plays: ValueError (one
    line, saying which and why) if one cannot. Levels and bots pass."""
    from sos_tui.ai.engines.client import EngineError, probe  # the AI: only for an engine

    for entrant in entrants:
        command = engine_command(entrant)
        if command is not None:
            try:
                probe(command)
            except EngineError as error:
                raise ValueError(_("{entrant}: {error}").format(entrant=entrant_name(entrant),
                                                               error=explain(error))) from None


def entrant_name(entrant: str) -> str:
    """A level in the player's language, or an ``engine:COMMAND`` as text safe for a terminal."""
    return level_name(entrant) if engine_command(entrant) is None else shorten(printable(entrant), 60)


def forfeit_line(entrant: str, reason) -> str:
    """The line saying that ``entrant``'s engine lost a game by misbehaving, and how."""
    return _("  {entrant} loses by forfeit: {reason}").format(entrant=entrant_name(entrant),
                                                             reason=printable(explain(reason)))


def columns(rows: Sequence[Sequence[str]], right: Sequence[int] = ()) -> str:
    """``rows`` (the first: headings) as a text table, each column as wide as its widest cell, the
    columns numbered in ``right`` aligned right, a rule under the headings. The cells are printed
    as they are: escape outside text (``printable``) first."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(cell.rjust(width) if i in right else cell.ljust(width)
                         for i, (cell, width) in enumerate(zip(cells, widths, strict=True))).rstrip()

    lines = [line(rows[0]), line(["-" * w for w in widths]), *(line(row) for row in rows[1:])]
    return "\n".join(lines) + "\n"
