"""The command line: every argument parsed and every line printed lives here.

    sos-tui [play] [--size N] [--mode MODE] [--players NAMES] [--load FILE] [--no-mouse]
    sos-tui history [--opponent KIND] [--size N] [--mode MODE] [--limit N] [--json]
    sos-tui arena LEVEL_A LEVEL_B [...]
    sos-tui review FILE [--json]
    sos-tui host [--size N] [--mode MODE] [--players Ana,remote] [--bind ADDR] [--port N]
                 [--headless] [--server URL]
    sos-tui join ws://HOST:PORT/CODE [--name NAME]
    sos-tui server [--bind ADDR] [--port N]

One error policy for all of them: a bad argument, an unreadable file or an unusable history
prints one line on stderr and exits 2, never a traceback. Text from outside (names, paths, error
details) is printed as data: escaped by ``printable`` and shortened, so no escape sequence in a
player's name or a file name ever reaches the terminal.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Callable, Sequence

from sos_tui import __version__
from sos_tui.engine import (
    COMPUTER_LEVELS,
    MAX_PLAYERS,
    MAX_SIZE,
    MIN_PLAYERS,
    MIN_SIZE,
    GameRecord,
    Mode,
    PlayerInfo,
    check_name,
    check_names,
    printable,
    shorten,
)
from sos_tui.i18n import LANGUAGES, UnknownLanguage, _, choose_language, set_language
from sos_tui.storage import (
    History,
    HistoryError,
    LoadError,
    Stats,
    StorageError,
    history_db_path,
    load_record,
)
from sos_tui.storage.history.facts import OPPONENT_KINDS

PROG = "sos-tui"
MAX_MESSAGE = 300
"""The longest error line printed: a megabyte of argument is not echoed back."""


class UsageError(Exception):
    """A bad command line; the message says what is wrong."""


class _Exit(Exception):
    """--help or --version was printed: stop with ``status``."""

    def __init__(self, status: int) -> None:
        self.status = status


class _Parser(argparse.ArgumentParser):
    """argparse that raises instead of printing usage and exiting: ``main`` owns the policy."""

    def error(self, message: str):
        raise UsageError(message)

    def exit(self, status: int = 0, message: str | None = None):
        if message:
            raise UsageError(message.strip())
        raise _Exit(status)


def fail(command: str, message: str) -> int:
    """Print one line ``sos-tui <command>: <message>`` to stderr (escaped, shortened); return 2."""
    line = shorten(printable(message), MAX_MESSAGE)
    print(f"{PROG}{' ' + command if command else ''}: {line}", file=sys.stderr)
    return 2


# -- play --------------------------------------------------------------------------------------
def parse_players(text: str) -> tuple[PlayerInfo, ...]:
    """``"Ana,computer:hard"`` -> a human Ana and a hard computer player; ArgumentTypeError
    saying which seat and which rule otherwise."""
    parts = text.split(",")
    if not MIN_PLAYERS <= len(parts) <= MAX_PLAYERS:
        raise argparse.ArgumentTypeError(
            f"needs {MIN_PLAYERS} to {MAX_PLAYERS} names, not {len(parts)}")
    seats = []
    for index, part in enumerate(parts):
        kind, _colon, level = part.strip().partition(":")
        if kind.lower() == "computer":
            level = (level or "medium").lower()
            if level not in COMPUTER_LEVELS:
                raise argparse.ArgumentTypeError(
                    f"unknown computer level {level!r} (choose {', '.join(COMPUTER_LEVELS)})")
            seats.append(PlayerInfo(f"Computer {index + 1}", "computer", level))
            continue
        try:
            seats.append(PlayerInfo(check_name(part)))
        except ValueError as error:
            raise argparse.ArgumentTypeError(f"seat {index + 1}: {error}") from None
    try:
        check_names(seat.name for seat in seats)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return tuple(seats)


def _size(text: str) -> int:
    try:
        size = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise argparse.ArgumentTypeError(f"must be from {MIN_SIZE} to {MAX_SIZE}, not {size}")
    return size


def _play_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--size", type=_size, metavar="N", help=f"board size, {MIN_SIZE} to {MAX_SIZE}")
    parser.add_argument("--mode", choices=[m.value for m in Mode], help="general (most SOSs wins) "
                        "or simple (first SOS wins); default general")
    parser.add_argument("--players", type=parse_players, metavar="NAME[,NAME...]",
                        help=f"{MIN_PLAYERS} to {MAX_PLAYERS} seats; 'computer:LEVEL' for a computer player "
                             f"(levels: {', '.join(COMPUTER_LEVELS)}), e.g. Ana,computer:hard")
    parser.add_argument("--load", metavar="FILE", help="open a saved game")
    parser.add_argument("--no-mouse", action="store_true", help="keyboard only (for terminal multiplexers)")


def game_from_args(args: argparse.Namespace) -> GameRecord | None:
    """The game the options ask for; None (the setup screen) when they ask for none."""
    if args.size is None and args.mode is None and args.players is None:
        return None
    seats = args.players or (PlayerInfo("Player 1"), PlayerInfo("Player 2"))
    return GameRecord(args.size or 6, Mode(args.mode or Mode.GENERAL), seats)


def _has_terminal() -> bool:
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):  # closed or replaced streams
        return False


def launch(game: GameRecord | None, mouse: bool) -> None:
    """Run the terminal app (replaced by tests)."""
    from sos_tui.app import SosApp
    from sos_tui.storage import load_settings

    SosApp(game, mouse=mouse, settings=load_settings()).run(mouse=mouse)


def play(args: argparse.Namespace) -> int:
    game = game_from_args(args)
    if args.load is not None:
        if game is not None:
            raise UsageError("--load cannot be combined with --size, --mode or --players "
                             "(the saved game has its own)")
        try:
            game = load_record(args.load)
        except LoadError as error:
            return fail("", str(error))
    if not _has_terminal():
        return fail("", "needs a terminal to play in (stdin and stdout must be a terminal); "
                        "for scripts see 'sos-tui history --json'")
    launch(game, mouse=not args.no_mouse)
    return 0


# -- history -----------------------------------------------------------------------------------
def _int_in(low: int, high: int | None = None) -> Callable[[str], int]:
    limits = f"from {low} to {high}" if high is not None else f"at least {low}"

    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"expected a whole number {limits}, not {text!r}")
        return value
    return convert


def _opponent(text: str) -> str:
    kind = text.strip().lower()
    if kind not in OPPONENT_KINDS:
        raise argparse.ArgumentTypeError(f"no opponent kind {text!r}: choose {', '.join(OPPONENT_KINDS)}")
    return kind


def _history_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--opponent", metavar="KIND", type=_opponent,
                        help=f"only games against this opponent: {', '.join(OPPONENT_KINDS)}")
    parser.add_argument("--size", type=_int_in(MIN_SIZE, MAX_SIZE), metavar="N",
                        help=f"only games on an N x N board ({MIN_SIZE}-{MAX_SIZE})")
    parser.add_argument("--mode", choices=[m.value for m in Mode], help="only games in this mode")
    parser.add_argument("--limit", type=_int_in(1), metavar="N",
                        help="list only the N newest games (statistics still cover all)")
    parser.add_argument("--json", action="store_true",
                        help="print every selected game as one JSON document, for scripts")


def _when(entry) -> str:
    return f"{entry.finished_at.astimezone():%Y-%m-%d %H:%M}"


def _shown(text: str, limit: int) -> str:
    return shorten(printable(text), limit)


def format_history(entries: Sequence, stats) -> str:
    """The text ``sos-tui history`` prints: a table of games (as given, newest first), then the
    statistics from the first human player's side. Dates are local time; names are escaped."""
    if not entries and not stats.games:
        return "No finished games in the history yet. Play one with `sos-tui`!\n"
    header = ("Date", "Players", "Size", "Mode", "Score", "Result")
    rows = [(_when(e), _shown(e.players_text, 40), f"{e.size}x{e.size}", _shown(e.mode, 10),
             e.score_text, _shown(e.result, 40)) for e in entries]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(cell.ljust(width) for cell, width in zip(cells, widths, strict=True)).rstrip()

    out = [line(header), line(["-" * w for w in widths]), *(line(row) for row in rows)]
    if len(entries) < stats.games:
        out.append(f"(showing the {len(entries)} newest of {stats.games} games)")
    out += ["", f"Statistics over {_plural(stats.games, 'game')}, from the first human player's side:"]
    table = [("Opponent", "Games", "Wins", "Draws", "Losses", "Avg score")]
    overall = [*stats.by_opponent.values(), stats]
    for s in overall:
        name = s.opponent if s is not stats else "all"
        table.append((_shown(name, 16), str(s.games), str(s.wins), str(s.draws), str(s.losses),
                      f"{s.average_score:.1f}"))
    widths2 = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    for row in table:
        out.append("  " + "  ".join(row[0].ljust(widths2[0]) if i == 0 else cell.rjust(widths2[i])
                                    for i, cell in enumerate(row)))
    game = stats.longest_chain_game
    if game is not None:
        seat = game.chain_player
        who = game.players[seat].name if seat is not None and seat < len(game.players) else "?"
        out.append(f"Longest SOS chain: {stats.longest_chain} in one turn by {_shown(who, 24)} "
                   f"({_shown(game.players_text, 40)}, {_when(game)})")
    best = stats.best_game
    if best is not None:
        out.append(f"Best game: {_shown(best.pov_name, 24)} won by {best.margin} ({best.score_text}, "
                   f"{_shown(best.players_text, 40)}, {_when(best)})")
    return "\n".join(out) + "\n"


def history_json(entries: Sequence) -> str:
    """Every game as one JSON document for scripts (ASCII only: names are \\u-escaped)."""
    games = []
    for e in entries:
        try:
            started = json.loads(e.record_json).get("started")
        except (ValueError, AttributeError, RecursionError):
            started = None
        games.append({
            "id": e.game_id,
            "started": started if isinstance(started, str) else None,
            "finished": e.finished_at.isoformat(),
            "size": e.size,
            "mode": e.mode,
            "players": [{"name": p.name, "kind": p.kind, "level": p.level} for p in e.players],
            "scores": list(e.scores),
            "winners": list(e.winners),
            "result": e.result,
        })
    return json.dumps({"format": "sos-tui-history", "version": 1, "games": games}, indent=2) + "\n"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def history(args: argparse.Namespace) -> int:
    entries, stats, skipped, total = [], Stats(), (), 0
    try:
        path = history_db_path()
        if path.exists() or path.is_symlink():  # looking must not create the database
            with History(path) as database:
                filters = (args.opponent, args.size, args.mode)
                stats = database.stats(*filters)
                entries = database.games(*filters, limit=None if args.json else args.limit)
                skipped, total = database.skipped, database.count()
    except (HistoryError, StorageError) as error:
        return fail("history", str(error))
    if skipped:
        fail("history", f"warning: skipped {_plural(len(skipped), 'damaged game')} "
                        f"(row {', '.join(str(row) for row in skipped[:10])})")
    if args.json:
        sys.stdout.write(history_json(entries))
    elif total and not stats.games:
        print("No games in the history match those filters.")
    else:
        sys.stdout.write(format_history(entries, stats))
    return 0


# -- review ------------------------------------------------------------------------------------
def _review_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="a saved game (finished or not)")
    parser.add_argument("--json", action="store_true",
                        help='print {"format": "sos-review", ...}: each move\'s best move, loss and mark')


def review(args: argparse.Namespace) -> int:
    """``sos-tui review FILE``: every move's mark, loss and best move; a progress bar on stderr
    when it is a terminal (and not with --json)."""
    from sos_tui.ai.review import annotated_transcript, review_json
    from sos_tui.ai.review import review as review_game

    try:
        record = load_record(args.file)
    except LoadError as error:
        return fail("review", str(error))
    bar = not args.json and _is_terminal(sys.stderr)

    def progress(done: int, total: int) -> None:
        filled = 30 * done // total
        print(f"\r\033[Kreviewing [{'#' * filled}{' ' * (30 - filled)}] {done}/{total}", end="",
              file=sys.stderr, flush=True)

    try:
        reviews = list(review_game(record, progress=progress if bar else None))
    finally:
        if bar and record.moves:
            print("\r\033[K", end="", file=sys.stderr, flush=True)
    if args.json:
        sys.stdout.write(json.dumps(review_json(reviews)) + "\n")
    else:
        sys.stdout.write(annotated_transcript(record, reviews))
    return 0


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


# -- sos-tui arena ---------------------------------------------------------------------------
def arena(argv: list[str]) -> int:
    """``sos-tui arena``: play two levels against each other and print each game's result as it
    finishes, then A's score rate with a 95% interval (``--json``: one JSON object instead).
    Ctrl+c stops the run: one line on stderr, the games played so far, exit status 130."""
    from sos_tui.ai import arena as arena_api

    parser = _Parser(prog="sos-tui arena", description="Pit two computer levels against each other.")
    parser.add_argument("level_a", metavar="LEVEL_A", choices=list(COMPUTER_LEVELS),
                        help=" | ".join(COMPUTER_LEVELS))
    parser.add_argument("level_b", metavar="LEVEL_B", choices=list(COMPUTER_LEVELS),
                        help=" | ".join(COMPUTER_LEVELS))
    parser.add_argument("--size", type=int, default=6, help=f"board size, {MIN_SIZE} to {MAX_SIZE}")
    parser.add_argument("--mode", choices=[m.value for m in Mode], default="general")
    parser.add_argument("--games", type=int, default=20,
                        help=f"games to play, at most {arena_api.MAX_GAMES:,}")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    parser.add_argument("--time-limit", type=float, default=None,
                        help="seconds per move; default: the fixed, clock-free search budgets")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once, at most the cores")
    parser.add_argument("--json", action="store_true", help="print one JSON summary, for scripts")
    args = parser.parse_args(argv)  # a bad argument: UsageError; --help: _Exit (main's policy)
    try:
        match = arena_api.Match(args.level_a, args.level_b, args.size, args.mode, args.games, args.seed,
                            args.time_limit)
        results = arena_api.run(match, args.jobs)
    except ValueError as error:
        return fail("arena", str(error))
    tally = arena_api.Tally(match)
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


# -- network play: host, join, server ----------------------------------------------------------
def _login_name() -> str:
    import getpass

    with contextlib.suppress(Exception):
        return check_name(getpass.getuser()[:24])
    return "Host"


def parse_host_players(text: str):
    """``"Ana,remote,computer:hard"`` -> seats: a person at this terminal, a seat for the next
    player who joins, a computer; ArgumentTypeError otherwise."""
    from sos_tui.net import SeatSpec

    parts = text.split(",")
    if not MIN_PLAYERS <= len(parts) <= MAX_PLAYERS:
        raise argparse.ArgumentTypeError(f"needs {MIN_PLAYERS} to {MAX_PLAYERS} seats, not {len(parts)}")
    seats = []
    for index, part in enumerate(parts):
        kind, _colon, level = part.strip().partition(":")
        if kind.lower() == "remote":
            if level:
                raise argparse.ArgumentTypeError(f"seat {index + 1}: 'remote' takes nothing after it")
            seats.append(SeatSpec("remote"))
        elif kind.lower() == "computer":
            level = (level or "medium").lower()
            if level not in COMPUTER_LEVELS:
                raise argparse.ArgumentTypeError(
                    f"unknown computer level {level!r} (choose {', '.join(COMPUTER_LEVELS)})")
            seats.append(SeatSpec("computer", f"Computer {index + 1}", level))
        else:
            try:
                seats.append(SeatSpec("human", check_name(part)))
            except ValueError as error:
                raise argparse.ArgumentTypeError(f"seat {index + 1}: {error}") from None
    try:
        check_names(seat.name for seat in seats if seat.name)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    if not any(seat.kind == "remote" for seat in seats):
        raise argparse.ArgumentTypeError("name at least one seat 'remote' for a friend to join")
    return tuple(seats)


def _port(text: str) -> int:
    return _int_in(0, 65535)(text)


def _server_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bind", default="127.0.0.1", metavar="ADDRESS",
                        help="the address to listen on (default 127.0.0.1: this machine only; "
                             "0.0.0.0 for every network)")
    parser.add_argument("--port", type=_port, default=7531,
                        help="the port to listen on (default 7531; 0: any free port)")


def _host_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--size", type=_size, metavar="N", default=6,
                        help=f"board size, {MIN_SIZE} to {MAX_SIZE} (default 6)")
    parser.add_argument("--mode", choices=[m.value for m in Mode], default="general",
                        help="general (most SOSs wins) or simple (first SOS wins)")
    parser.add_argument("--players", type=parse_host_players, metavar="SEAT[,SEAT...]",
                        help="your name for a seat at this terminal, 'remote' for a friend who joins, "
                             "'computer:LEVEL' for a computer; default YOURNAME,remote "
                             "(remote,remote with --headless)")
    _server_options(parser)
    parser.add_argument("--headless", action="store_true",
                        help="no terminal UI and no local seat: print the join URL, log the game, "
                             "exit when it ends")
    parser.add_argument("--server", metavar="URL", help="create the game on a 'sos-tui server' at "
                                                       "ws://HOST:PORT instead of starting one here")
    parser.add_argument("--no-mouse", action="store_true", help="keyboard only")


def _join_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("url", metavar="URL", help="the game's address, ws://HOST:PORT/CODE")
    parser.add_argument("--name", help="your name in the game (default: your login name)")
    parser.add_argument("--no-mouse", action="store_true", help="keyboard only")


def _warn_bind(command: str, bind: str) -> None:
    from sos_tui.net.run import is_loopback

    if not is_loopback(bind):
        fail(command, f"warning: listening on {bind}: anyone who can reach this machine on that "
                      "network can connect; give the code only to your friends")


def _run_async(coroutine) -> int:
    import asyncio

    return asyncio.run(coroutine)


def _say(line: str) -> None:
    print(line, flush=True)


def host(args: argparse.Namespace) -> int:
    from sos_tui.net import NetError, parse_url
    from sos_tui.net.run import HostPlan, host_headless, host_on_server

    seats = args.players
    if seats is None:
        seats = parse_host_players("remote,remote" if args.headless else f"{_login_name()},remote")
    if args.headless and any(seat.kind == "human" for seat in seats):
        raise UsageError("--headless has no seat at this terminal: name every person's seat 'remote'")
    if args.server is not None:
        try:
            parse_url(args.server, need_code=False)
        except ValueError as error:
            raise UsageError(f"--server: {error}") from None
    plan = HostPlan(args.size, args.mode, tuple(seats), args.bind, args.port, args.server)
    if args.headless:
        from sos_tui.session import Keeper

        try:
            if args.server is not None:
                return _run_async(host_on_server(args.server, args.size, args.mode, list(seats), _say))
            _warn_bind("host", args.bind)
            keeper = Keeper(on_error=lambda message: fail("host", message))
            try:
                return _run_async(host_headless(args.size, args.mode, list(seats), args.bind, args.port, _say,
                                                listeners=[keeper.on_change]))
            finally:
                keeper.close()
        except OSError as error:
            return fail("host", f"cannot listen on {args.bind}:{args.port}: {error.strerror or error}")
        except NetError as error:
            return fail("host", str(error))
    if not _has_terminal():
        return fail("host", "needs a terminal to play in; use --headless to only run the game")
    if args.server is None:
        _warn_bind("host", args.bind)
    launch_network(plan, mouse=not args.no_mouse)
    return 0


def join(args: argparse.Namespace) -> int:
    from sos_tui.net import parse_url
    from sos_tui.net.run import JoinPlan

    try:
        url = str(parse_url(args.url))
    except ValueError as error:
        raise UsageError(str(error)) from None
    try:
        name = check_name(args.name) if args.name is not None else _login_name()
    except ValueError as error:
        raise UsageError(f"--name: {error}") from None
    if not _has_terminal():
        return fail("join", "needs a terminal to play in (stdin and stdout must be a terminal)")
    launch_network(JoinPlan(url, name), mouse=not args.no_mouse)
    return 0


def server(args: argparse.Namespace) -> int:
    from sos_tui.net.run import serve_forever

    _warn_bind("server", args.bind)
    try:
        return _run_async(serve_forever(args.bind, args.port, _say))
    except OSError as error:
        return fail("server", f"cannot listen on {args.bind}:{args.port}: {error.strerror or error}")


def launch_network(plan, mouse: bool) -> None:
    """Run the terminal app on a network game (replaced by tests)."""
    from sos_tui.app import SosApp
    from sos_tui.storage import load_settings

    SosApp(mouse=mouse, settings=load_settings(), network=plan).run(mouse=mouse)


# -- the entry point ---------------------------------------------------------------------------
COMMANDS = {"play": play, "history": history, "review": review, "host": host, "join": join, "server": server}


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="Play SOS in the terminal. With no options, a setup screen opens.",
        epilog="Also: 'sos-tui arena LEVEL_A LEVEL_B ...' pits computer players against each other; "
               "'sos-tui history' lists past games; 'sos-tui review FILE' marks a saved game's moves. "
               "Each has its own --help.",
    )
    _play_options(parser)  # 'play' is the default command: its options work without the word
    parser.add_argument("--version", action="version", version=f"sos-tui {__version__}")
    parser.add_argument("--lang", metavar="CODE", choices=list(LANGUAGES), help=_(
        "the game's language: {choices}; default: the one chosen in the game, else LANGUAGE, LC_ALL, "
        "LC_MESSAGES or LANG, else English (works with every command)").format(
            choices=", ".join(f"{code} ({name})" for code, name in LANGUAGES.items())))
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    _play_options(commands.add_parser("play", help="play a game (the default)", description="Play a game."))
    _history_options(commands.add_parser("history", help="list finished games and statistics",
                                         description="Show finished games and statistics."))
    _review_options(commands.add_parser(
        "review", help="mark every move of a saved game: best, inaccuracy, mistake, blunder",
        description="Review a saved game: each move's mark (! best, ?! inaccuracy, ? mistake, ?? blunder), "
                    "its loss and the best move, exact where solved (always on boards up to 4x4), "
                    "marked ~ where estimated. General mode: inaccuracy 1 point, mistake 2-3, blunder 4+. "
                    "Simple mode: mistake a result step (win to draw, draw to loss), blunder win to loss."))
    commands.add_parser("arena", help="pit two computer levels against each other", add_help=False)
    _host_options(commands.add_parser(
        "host", help="host a game that friends join over the network",
        description="Start a game server with one game in it and play your seats here; the screen "
                    "shows the command your friends run to join."))
    _join_options(commands.add_parser("join", help="join a game someone hosts",
                                      description="Join a network game: sos-tui join ws://HOST:PORT/CODE"))
    _server_options(commands.add_parser(
        "server", help="run a long-lived game server for 'host --server'",
        description="Run a game server; 'sos-tui host --server ws://HOST:PORT' creates games on it."))
    return parser


def take_lang(argv: list[str]) -> tuple[list[str], str | None]:
    """``argv`` without its ``--lang CODE`` (allowed before or after the command), and CODE."""
    rest, lang = [], None
    words = iter(argv)
    for word in words:
        if word == "--":
            rest += [word, *words]
            break
        if word == "--lang":
            lang = next(words, None)
            if lang is None:
                raise UsageError(_("--lang needs a language: {choices}").format(choices=", ".join(LANGUAGES)))
        elif word.startswith("--lang="):
            lang = word.partition("=")[2]
        else:
            rest.append(word)
    return rest, lang


def _remembered_language() -> str | None:
    """The language chosen in the app (setup screen or palette), if any."""
    from sos_tui.storage import load_settings

    return load_settings().get("language")


def _safe_streams() -> None:
    """Characters the terminal's encoding lacks are written as escapes, not a crash."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, ValueError, OSError):
            stream.reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``sos-tui`` with ``argv`` (default: the process's arguments); returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    _safe_streams()
    try:
        argv, lang = take_lang(argv)
    except UsageError as error:
        argv, lang = [word for word in argv if word != "--lang"], error
    command = argv[0] if argv and argv[0] in (*COMMANDS, "arena") else ""
    try:
        if isinstance(lang, UsageError):
            raise lang
        set_language(choose_language(lang, _remembered_language()))
    except (UsageError, UnknownLanguage) as error:
        return fail(command, str(error))
    try:
        if command == "arena":
            return arena(argv[1:])
        args = build_parser().parse_args(argv)
        return COMMANDS[args.command or "play"](args)
    except _Exit as done:  # --help, --version
        return done.status
    except UsageError as error:
        return fail(command, f"{error} (see {PROG}{' ' + command if command else ''} --help)")
    except KeyboardInterrupt:  # ctrl+c: stop quietly
        return 130
    except BrokenPipeError:  # `sos-tui history | head`
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
