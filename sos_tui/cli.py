"""Command line: arguments and the entry point. Bad arguments print one line and exit 2."""

from __future__ import annotations

import argparse
import sys

from sos_tui import __version__
from sos_tui.ai import LEVELS
from sos_tui.engine import MAX_SIZE, MIN_SIZE, GameRecord, Mode, PlayerInfo

MAX_PLAYERS = 6
SUBCOMMANDS = ("arena", "history")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one clear line, not a usage dump
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def parse_players(text: str) -> tuple[PlayerInfo, ...]:
    """``"Ana,computer:hard"`` -> a human Ana and a hard computer player."""
    names = [part.strip() for part in text.split(",")]
    if not 2 <= len(names) <= MAX_PLAYERS:
        raise argparse.ArgumentTypeError(f"--players needs 2 to {MAX_PLAYERS} names, not {len(names)}")
    seats = []
    for index, name in enumerate(names):
        if not name:
            raise argparse.ArgumentTypeError(f"--players: seat {index + 1} has no name")
        kind, _, level = name.partition(":")
        if kind.lower() == "computer":
            level = (level or "medium").lower()
            if level not in LEVELS:
                raise argparse.ArgumentTypeError(
                    f"--players: unknown computer level {level!r} (choose {', '.join(LEVELS)})")
            seats.append(PlayerInfo(f"Computer {index + 1}", "computer", level))
        else:
            seats.append(PlayerInfo(name[:20]))
    return tuple(seats)


def _size(text: str) -> int:
    try:
        size = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--size must be a whole number, not {text!r}") from None
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise argparse.ArgumentTypeError(f"--size must be from {MIN_SIZE} to {MAX_SIZE}, not {size}")
    return size


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="sos-tui",
        description="Play SOS in the terminal. With no options, a setup screen opens.",
        epilog="Also: 'sos-tui arena LEVEL_A LEVEL_B ...' pits computer players against each other; "
               "'sos-tui history' lists past games. Each has its own --help.",
    )
    parser.add_argument("--size", type=_size, metavar="N", help=f"board size, {MIN_SIZE} to {MAX_SIZE}")
    parser.add_argument("--mode", choices=[m.value for m in Mode], help="general (most SOSs wins) "
                        "or simple (first SOS wins); default general")
    parser.add_argument("--players", type=parse_players, metavar="NAME[,NAME...]",
                        help="2 to 6 seats; 'computer:LEVEL' for a computer player "
                             f"(levels: {', '.join(LEVELS)}), e.g. Ana,computer:hard")
    parser.add_argument("--load", metavar="FILE", help="open a saved game")
    parser.add_argument("--no-mouse", action="store_true", help="keyboard only (for terminal multiplexers)")
    parser.add_argument("--version", action="version", version=f"sos-tui {__version__}")
    return parser


def game_from_args(args: argparse.Namespace) -> GameRecord | None:
    if args.size is None and args.mode is None and args.players is None:
        return None
    seats = args.players or (PlayerInfo("Player 1"), PlayerInfo("Player 2"))
    return GameRecord(args.size or 6, Mode(args.mode or Mode.GENERAL), seats)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "arena":
        from sos_tui.ai.arena import main as arena

        return arena(argv[1:])
    if argv and argv[0] == "history":
        from sos_tui.storage.history import main as history

        return history(argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    game = game_from_args(args)
    if args.load:
        from sos_tui.storage.files import LoadError, load_record

        try:
            game = load_record(args.load)
        except LoadError as error:
            print(f"sos-tui: {error}", file=sys.stderr)
            return 2
    from sos_tui.app import SosApp

    SosApp(game, mouse=not args.no_mouse).run(mouse=not args.no_mouse)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
