"""``sos-tui [play]``: open the terminal app, on a new game, a saved one or the setup screen."""

from __future__ import annotations

import argparse

from sos_tui.engine import (
    COMPUTER_LEVELS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    GameRecord,
    Mode,
    Seat,
    SeatKind,
    check_name,
    check_names,
    engine_command,
)
from sos_tui.i18n import _, explain
from sos_tui.storage import LoadError, load_record, load_settings

from .common import (
    UsageError,
    board_size,
    board_size_help,
    engine_seat,
    fail,
    has_terminal,
    seat_error,
    served,
    time_control,
    told,
    unknown_level,
)


def parse_players(text: str) -> tuple[Seat, ...]:
    """``"Ana,computer:hard"`` -> a human Ana and a hard computer player (``engine:COMMAND``: an
    outside engine program); ArgumentTypeError saying which seat and which rule otherwise."""
    parts = text.split(",")
    if not MIN_PLAYERS <= len(parts) <= MAX_PLAYERS:
        raise argparse.ArgumentTypeError(_("needs {low} to {high} names, not {count}").format(
            low=MIN_PLAYERS, high=MAX_PLAYERS, count=len(parts)))
    seats = []
    for index, part in enumerate(parts):
        kind, _colon, level = part.strip().partition(":")
        command = engine_command(part)
        if command is not None:
            seats.append(engine_seat(index, command, [seat.name for seat in seats]))
            continue
        if kind.lower() == SeatKind.COMPUTER:
            level = (level or "medium").lower()
            if level not in COMPUTER_LEVELS:
                raise argparse.ArgumentTypeError(unknown_level(level))
            seats.append(Seat(_("Computer {number}").format(number=index + 1), SeatKind.COMPUTER, level))
            continue
        try:
            seats.append(Seat(check_name(part)))
        except ValueError as error:
            raise argparse.ArgumentTypeError(seat_error(index, error)) from None
    try:
        check_names(seat.name for seat in seats)
    except ValueError as error:
        raise argparse.ArgumentTypeError(explain(error)) from None
    return tuple(seats)


def add_parser(commands) -> None:
    commands.add_parser("play", help=_("play a game (the default)"), description=_("Play a game."),
                        options=add_options).set_defaults(run=run)


def add_options(parser: argparse.ArgumentParser) -> None:
    """The options of ``play``; the main parser takes them too, as ``play`` is the default command."""
    parser.add_argument("--size", type=board_size, metavar="N", help=board_size_help())
    parser.add_argument("--mode", choices=[m.value for m in Mode], help=_(
        "general (most SOSs wins) or simple (first SOS wins); default general"))
    parser.add_argument("--players", type=parse_players, metavar=_("NAME[,NAME...]"), help=_(
        "{low} to {high} seats; 'computer:LEVEL' for a computer player (levels: {levels}), "
        "'engine:COMMAND' for an engine program (docs/engine-protocol.md), "
        "e.g. Ana,computer:hard").format(low=MIN_PLAYERS, high=MAX_PLAYERS,
                                         levels=", ".join(COMPUTER_LEVELS)))
    parser.add_argument("--clock", type=time_control, metavar=_("MIN+INC"), help=_(
        "a clock for each player: minutes each, plus seconds added after each move (e.g. 5+3, 0.5+0); "
        "the game is lost on time. Untimed by default"))
    parser.add_argument("--load", metavar=_("FILE"), help=_("open a saved game"))
    parser.add_argument("--no-mouse", action="store_true",
                        help=_("keyboard only (for terminal multiplexers)"))
    parser.add_argument("--plain", action="store_true", help=_(
        "line mode for screen readers and scripts: one sentence per line, moves typed on standard input"))
    parser.add_argument("--seed", type=int, help=argparse.SUPPRESS)  # the computers' seed, for tests


def game_from_args(args: argparse.Namespace) -> GameRecord | None:
    """The game the options ask for; None (the setup screen) when they ask for none."""
    if args.size is None and args.mode is None and args.players is None and args.clock is None:
        return None
    seats = args.players or tuple(Seat(_("Player {number}").format(number=n)) for n in (1, 2))
    return GameRecord(args.size or 6, Mode(args.mode or Mode.GENERAL), seats, clock=args.clock,
                      spent_ms=None if args.clock is None else ())


def default_game() -> GameRecord:
    """The game of no options, where no setup screen can ask: two people on a 6x6 board."""
    seats = tuple(Seat(_("Player {number}").format(number=n)) for n in (1, 2))
    return GameRecord(6, Mode.GENERAL, seats)


def launch(game: GameRecord | None, mouse: bool) -> list[str]:
    """Run the terminal app (replaced by tests); return what it could not keep on disk."""
    from sos_tui.app import SosApp  # Textual: only when the app runs

    app = SosApp(game, mouse=mouse, settings=load_settings())
    app.run(mouse=mouse)
    return app.exit_notes


def run(args: argparse.Namespace) -> int:
    game = game_from_args(args)
    if args.load is not None:
        if game is not None:
            raise UsageError(_("--load cannot be combined with --size, --mode, --players or --clock "
                               "(the saved game has its own)"))
        try:
            game = load_record(args.load)
        except LoadError as error:
            return fail("", explain(error))
    if args.plain:
        from sos_tui.plain import run_local

        return told(run_local(game or default_game(), args.seed))
    if not has_terminal() and not served():
        return fail("", _("needs a terminal to play in (stdin and stdout must be a terminal); "
                          "for scripts see 'sos-tui history --json'"))
    return told(launch(game, mouse=not args.no_mouse))
