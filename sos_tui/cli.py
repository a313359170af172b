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
        return arena_command(argv[1:])
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


# -- sos-tui arena ---------------------------------------------------------------------------
def arena_command(argv: list[str]) -> int:
    """``sos-tui arena``: play two levels against each other and print each game's result as it
    finishes, then A's score rate with a 95% interval (``--json``: one JSON object instead).
    Ctrl+c stops the run: one line on stderr, the games played so far, exit status 130."""
    from sos_tui.ai import arena

    parser = _Parser(prog="sos-tui arena", description="Pit two computer levels against each other.")
    parser.add_argument("level_a", metavar="LEVEL_A", choices=list(LEVELS), help=" | ".join(LEVELS))
    parser.add_argument("level_b", metavar="LEVEL_B", choices=list(LEVELS), help=" | ".join(LEVELS))
    parser.add_argument("--size", type=int, default=6, help=f"board size, {MIN_SIZE} to {MAX_SIZE}")
    parser.add_argument("--mode", choices=[m.value for m in Mode], default="general")
    parser.add_argument("--games", type=int, default=20, help=f"games to play, at most {arena.MAX_GAMES:,}")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    parser.add_argument("--time-limit", type=float, default=None,
                        help="seconds per move; default: the fixed, clock-free search budgets")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once, at most the cores")
    parser.add_argument("--json", action="store_true", help="print one JSON summary, for scripts")
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # --help, or a bad argument (one line already printed)
        return stop.code
    try:
        match = arena.Match(args.level_a, args.level_b, args.size, args.mode, args.games, args.seed,
                            args.time_limit)
        results = arena.run(match, args.jobs)
    except ValueError as error:
        print(f"sos-tui arena: {error}", file=sys.stderr)
        return 2
    tally = arena.Tally(match)
    bar = sys.stderr.isatty() and not args.json
    try:
        for game in results:
            tally.add(game)
            if bar:
                print("\r\033[K", end="", file=sys.stderr)
            if not args.json:
                outcome = {1: "won", 0.5: "drew", 0: "lost"}[game.result]
                print(f"game {game.number + 1}: {match.level_a} {'first' if game.a_first else 'second'}, "
                      f"{outcome} {game.scores[0]}-{game.scores[1]}; "
                      f"so far {tally.points:g}/{tally.games} = {tally.rate:.1%}", flush=True)
            if bar:
                done = 30 * tally.games // match.games
                print(f"[{'#' * done}{' ' * (30 - done)}] {tally.games}/{match.games}", end="",
                      file=sys.stderr, flush=True)
        status = 0
    except KeyboardInterrupt:
        results.close()
        status = 130
    if bar:
        print(file=sys.stderr)
    if status == 130:
        print(f"sos-tui arena: interrupted after {tally.games} of {match.games} games", file=sys.stderr)
    _arena_report(tally, args.json, interrupted=status == 130)
    return status


def _arena_report(tally, as_json: bool, interrupted: bool):
    import json

    summary = tally.summary()
    if as_json:
        print(json.dumps({**summary, "interrupted": interrupted}), flush=True)
        return
    m = tally.match
    print(f"{m.level_a} vs {m.level_b}: {m.size}x{m.size} {m.mode}, {tally.games} games, seed {m.seed}, "
          f"time limit {m.time_limit or 'none (fixed budgets)'}")
    if not tally.games:
        return
    low, high = tally.interval()
    print(f"{m.level_a}: {tally.wins} wins, {tally.draws} draws, {tally.losses} losses")
    print(f"{m.level_a} score rate: {tally.rate:.1%} (95% CI {low:.1%} to {high:.1%})")
    for name, key in ((f"{m.level_a} (A)", "a_seconds_per_move"), (f"{m.level_b} (B)", "b_seconds_per_move")):
        if seconds := summary[key]:
            print(f"{name} seconds per move: median {seconds['median']:.3f}, max {seconds['max']:.3f}")


if __name__ == "__main__":
    raise SystemExit(main())
