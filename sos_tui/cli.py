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
from sos_tui.i18n import (
    LANGUAGES,
    LEVEL_NAMES,
    N_,
    UnknownLanguage,
    _,
    check_language,
    choose_language,
    explain,
    level_name,
    mode_name,
    ngettext,
    set_language,
)
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

# What a player types stays English (general, computer:hard, --opponent easy); prose shows these.
OPPONENT_NAMES = {"human": N_("human"), **LEVEL_NAMES, "computer": N_("computer"), "mixed": N_("mixed"),
                  "computer-only": N_("computer-only"), "all": N_("all")}


def opponent_name(kind: str) -> str:
    """An opponent kind of the history's statistics in the player's language."""
    return _(OPPONENT_NAMES[kind]) if kind in OPPONENT_NAMES else kind


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
        raise argparse.ArgumentTypeError(_("needs {low} to {high} names, not {count}").format(
            low=MIN_PLAYERS, high=MAX_PLAYERS, count=len(parts)))
    seats = []
    for index, part in enumerate(parts):
        kind, _colon, level = part.strip().partition(":")
        if kind.lower() == "computer":
            level = (level or "medium").lower()
            if level not in COMPUTER_LEVELS:
                raise argparse.ArgumentTypeError(_unknown_level(level))
            seats.append(PlayerInfo(_("Computer {number}").format(number=index + 1), "computer", level))
            continue
        try:
            seats.append(PlayerInfo(check_name(part)))
        except ValueError as error:
            raise argparse.ArgumentTypeError(_seat_error(index, error)) from None
    try:
        check_names(seat.name for seat in seats)
    except ValueError as error:
        raise argparse.ArgumentTypeError(explain(error)) from None
    return tuple(seats)


def _unknown_level(level: str) -> str:
    return _("unknown computer level {level!r} (choose {levels})").format(
        level=level, levels=", ".join(COMPUTER_LEVELS))


def _seat_error(index: int, error: BaseException | str) -> str:
    return _("seat {number}: {error}").format(number=index + 1, error=explain(error))


def _size(text: str) -> int:
    try:
        size = int(text)
    except ValueError:
        complaint = _("must be a whole number, not {text!r}").format(text=text)
        raise argparse.ArgumentTypeError(complaint) from None
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise argparse.ArgumentTypeError(_("must be from {low} to {high}, not {size}").format(
            low=MIN_SIZE, high=MAX_SIZE, size=size))
    return size


def _board_size_help() -> str:
    return _("board size, {low} to {high}").format(low=MIN_SIZE, high=MAX_SIZE)


def _play_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--size", type=_size, metavar="N", help=_board_size_help())
    parser.add_argument("--mode", choices=[m.value for m in Mode], help=_(
        "general (most SOSs wins) or simple (first SOS wins); default general"))
    parser.add_argument("--players", type=parse_players, metavar=_("NAME[,NAME...]"), help=_(
        "{low} to {high} seats; 'computer:LEVEL' for a computer player (levels: {levels}), "
        "e.g. Ana,computer:hard").format(low=MIN_PLAYERS, high=MAX_PLAYERS,
                                         levels=", ".join(COMPUTER_LEVELS)))
    parser.add_argument("--load", metavar=_("FILE"), help=_("open a saved game"))
    parser.add_argument("--no-mouse", action="store_true",
                        help=_("keyboard only (for terminal multiplexers)"))


def game_from_args(args: argparse.Namespace) -> GameRecord | None:
    """The game the options ask for; None (the setup screen) when they ask for none."""
    if args.size is None and args.mode is None and args.players is None:
        return None
    seats = args.players or tuple(PlayerInfo(_("Player {number}").format(number=n)) for n in (1, 2))
    return GameRecord(args.size or 6, Mode(args.mode or Mode.GENERAL), seats)


def _has_terminal() -> bool:
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):  # closed or replaced streams
        return False


def launch(game: GameRecord | None, mouse: bool) -> list[str]:
    """Run the terminal app (replaced by tests); return what it could not keep on disk."""
    from sos_tui.app import SosApp
    from sos_tui.storage import load_settings

    app = SosApp(game, mouse=mouse, settings=load_settings())
    app.run(mouse=mouse)
    return app.exit_notes


def play(args: argparse.Namespace) -> int:
    game = game_from_args(args)
    if args.load is not None:
        if game is not None:
            raise UsageError(_("--load cannot be combined with --size, --mode or --players "
                               "(the saved game has its own)"))
        try:
            game = load_record(args.load)
        except LoadError as error:
            return fail("", explain(error))
    if not _has_terminal():
        return fail("", _("needs a terminal to play in (stdin and stdout must be a terminal); "
                          "for scripts see 'sos-tui history --json'"))
    return _told(launch(game, mouse=not args.no_mouse))


def _told(notes: Sequence[str] | None, command: str = "") -> int:
    """After the app: each finished game it could not keep, one line on stderr, whole (it says
    where the game is), escaped; status 2 if there was any."""
    for note in notes or ():
        print(f"{PROG}{' ' + command if command else ''}: {printable(note)}", file=sys.stderr)
    return 2 if notes else 0


# -- history -----------------------------------------------------------------------------------
def _int_in(low: int, high: int | None = None) -> Callable[[str], int]:
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


def _opponent(text: str) -> str:
    kind = text.strip().lower()
    if kind not in OPPONENT_KINDS:
        raise argparse.ArgumentTypeError(_("no opponent kind {text!r}: choose {kinds}").format(
            text=text, kinds=", ".join(OPPONENT_KINDS)))
    return kind


def _history_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--opponent", metavar=_("KIND"), type=_opponent, help=_(
        "only games against this opponent: {kinds}").format(kinds=", ".join(OPPONENT_KINDS)))
    parser.add_argument("--size", type=_int_in(MIN_SIZE, MAX_SIZE), metavar="N", help=_(
        "only games on an N x N board ({low}-{high})").format(low=MIN_SIZE, high=MAX_SIZE))
    parser.add_argument("--mode", choices=[m.value for m in Mode], help=_("only games in this mode"))
    parser.add_argument("--limit", type=_int_in(1), metavar="N",
                        help=_("list only the N newest games (statistics still cover all)"))
    parser.add_argument("--json", action="store_true",
                        help=_("print every selected game as one JSON document, for scripts"))


def _when(entry) -> str:
    return f"{entry.finished_at.astimezone():%Y-%m-%d %H:%M}"


def _shown(text: str, limit: int) -> str:
    return shorten(printable(text), limit)


HISTORY_HEADINGS = (N_("Date"), N_("Players"), N_("Size"), N_("Mode"), N_("Score"), N_("Result"))
STATS_HEADINGS = (N_("Opponent"), N_("Games"), N_("Wins"), N_("Draws"), N_("Losses"), N_("Avg score"))


def _label(player: PlayerInfo) -> str:
    """``"Ana"`` or ``"Deep (hard)"``, the level in the player's language; the name escaped."""
    name = printable(player.name)
    if player.is_computer and player.level:
        return _("{name} ({level})").format(name=name, level=level_name(printable(player.level)))
    return name


def players_text(entry) -> str:
    """``"Ana vs Deep (hard)"`` in the player's language (names escaped)."""
    # Translators: the separator between the players of a game: "Ana vs Bo"
    return _(" vs ").join(_label(p) for p in entry.players)


def result_text(entry) -> str:
    """The game's result in the player's language, from the stored winners and players (the
    history stores the English text, which ``--json`` prints)."""
    players = entry.players
    if not entry.winners or any(not 0 <= w < len(players) for w in entry.winners):
        return printable(entry.result)
    names = [printable(players[w].name) for w in entry.winners]
    if len(names) == 1:
        return _("{name} wins").format(name=names[0])
    if len(names) < len(players):
        return _("draw between {names}").format(names=", ".join(names))
    return _("draw")


def format_history(entries: Sequence, stats) -> str:
    """The text ``sos-tui history`` prints: a table of games (as given, newest first), then the
    statistics from the first human player's side, in the player's language. Dates are local
    time; names are escaped."""
    if not entries and not stats.games:
        return _("No finished games in the history yet. Play one with `sos-tui`!") + "\n"
    header = tuple(_(word) for word in HISTORY_HEADINGS)
    rows = [(_when(e), shorten(players_text(e), 40), f"{e.size}x{e.size}", _shown(mode_name(e.mode), 10),
             e.score_text, shorten(result_text(e), 40)) for e in entries]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(cell.ljust(width) for cell, width in zip(cells, widths, strict=True)).rstrip()

    out = [line(header), line(["-" * w for w in widths]), *(line(row) for row in rows)]
    if len(entries) < stats.games:
        out.append(ngettext("(showing the {shown} newest of {total} game)",
                            "(showing the {shown} newest of {total} games)", stats.games).format(
            shown=len(entries), total=stats.games))
    out += ["", ngettext("Statistics over {n} game, from the first human player's side:",
                         "Statistics over {n} games, from the first human player's side:",
                         stats.games).format(n=stats.games)]
    table = [tuple(_(word) for word in STATS_HEADINGS)]
    overall = [*stats.by_opponent.values(), stats]
    for s in overall:
        name = opponent_name(s.opponent if s is not stats else "all")
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
        out.append(_("Longest SOS chain: {count} in one turn by {name} ({players}, {when})").format(
            count=stats.longest_chain, name=_shown(who, 24), players=shorten(players_text(game), 40),
            when=_when(game)))
    best = stats.best_game
    if best is not None:
        out.append(_("Best game: {name} won by {margin} ({score}, {players}, {when})").format(
            name=_shown(best.pov_name, 24), margin=best.margin, score=best.score_text,
            players=shorten(players_text(best), 40), when=_when(best)))
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
        return fail("history", explain(error))
    if skipped:
        fail("history", ngettext("warning: skipped {n} damaged game (row {rows})",
                                 "warning: skipped {n} damaged games (row {rows})", len(skipped)).format(
            n=len(skipped), rows=", ".join(str(row) for row in skipped[:10])))
    if args.json:
        sys.stdout.write(history_json(entries))
    elif total and not stats.games:
        print(_("No games in the history match those filters."))
    else:
        sys.stdout.write(format_history(entries, stats))
    return 0


# -- review ------------------------------------------------------------------------------------
def _review_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar=_("FILE"), help=_("a saved game (finished or not)"))
    parser.add_argument("--json", action="store_true", help=_(
        'print {{"format": "sos-review", ...}}: each move\'s best move, loss and mark').format())


def review(args: argparse.Namespace) -> int:
    """``sos-tui review FILE``: every move's mark, loss and best move; a progress bar on stderr
    when it is a terminal (and not with --json)."""
    from sos_tui.ai.review import annotated_transcript, review_json
    from sos_tui.ai.review import review as review_game

    try:
        record = load_record(args.file)
    except LoadError as error:
        return fail("review", explain(error))
    bar = not args.json and _is_terminal(sys.stderr)

    def progress(done: int, total: int) -> None:
        filled = 30 * done // total
        line = _("reviewing [{bar}] {done}/{total}").format(bar="#" * filled + " " * (30 - filled),
                                                             done=done, total=total)
        print(f"\r\033[K{line}", end="", file=sys.stderr, flush=True)

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
ARENA_GAME_LINES = {
    (True, 1): N_("game {number}: {level} first, won {score}; so far {points}/{games} = {rate}"),
    (True, 0.5): N_("game {number}: {level} first, drew {score}; so far {points}/{games} = {rate}"),
    (True, 0): N_("game {number}: {level} first, lost {score}; so far {points}/{games} = {rate}"),
    (False, 1): N_("game {number}: {level} second, won {score}; so far {points}/{games} = {rate}"),
    (False, 0.5): N_("game {number}: {level} second, drew {score}; so far {points}/{games} = {rate}"),
    (False, 0): N_("game {number}: {level} second, lost {score}; so far {points}/{games} = {rate}"),
}
"""A game's line in ``sos-tui arena``: by whether A moved first and A's result."""


def arena_parser() -> argparse.ArgumentParser:
    """The options of ``sos-tui arena`` (in the current language)."""
    from sos_tui.ai.arena import MAX_GAMES

    parser = _Parser(prog="sos-tui arena", description=_("Pit two computer levels against each other."))
    levels = " | ".join(COMPUTER_LEVELS)
    parser.add_argument("level_a", metavar=_("LEVEL_A"), choices=list(COMPUTER_LEVELS), help=levels)
    parser.add_argument("level_b", metavar=_("LEVEL_B"), choices=list(COMPUTER_LEVELS), help=levels)
    parser.add_argument("--size", type=int, default=6, metavar="N", help=_board_size_help())
    parser.add_argument("--mode", choices=[m.value for m in Mode], default="general",
                        help=_("general or simple; default general"))
    parser.add_argument("--games", type=int, default=20, metavar="N",
                        help=_("games to play, at most {most:,}").format(most=MAX_GAMES))
    parser.add_argument("--seed", type=int, default=0, metavar="N",
                        help=_("seed of the first game (default 0)"))
    parser.add_argument("--time-limit", type=float, default=None, metavar=_("SECONDS"),
                        help=_("seconds per move; default: the fixed, clock-free search budgets"))
    parser.add_argument("--jobs", type=int, default=1, metavar="N",
                        help=_("games played at once, at most the cores"))
    parser.add_argument("--json", action="store_true", help=_("print one JSON summary, for scripts"))
    return parser


def _percent(rate: float | None) -> str:
    return "-" if rate is None else f"{rate:.1%}"


def arena(argv: list[str]) -> int:
    """``sos-tui arena``: play two levels against each other and print each game's result as it
    finishes, then A's score rate with a 95% interval (``--json``: one JSON object instead).
    Ctrl+c stops the run: one line on stderr, the games played so far, exit status 130."""
    from sos_tui.ai import arena as arena_api

    args = arena_parser().parse_args(argv)  # a bad argument: UsageError; --help: _Exit (main's policy)
    try:
        match = arena_api.Match(args.level_a, args.level_b, args.size, args.mode, args.games, args.seed,
                                args.time_limit)
        results = arena_api.run(match, args.jobs)
    except ValueError as error:
        return fail("arena", explain(error))
    tally = arena_api.Tally(match)
    bar = sys.stderr.isatty() and not args.json
    try:
        for game in results:
            tally.add(game)
            if bar:
                print("\r\033[K", end="", file=sys.stderr)
            if not args.json:
                print(_(ARENA_GAME_LINES[(game.a_first, game.result)]).format(
                    number=game.number + 1, level=level_name(match.level_a),
                    score=f"{game.scores[0]}-{game.scores[1]}", points=f"{tally.points:g}", games=tally.games,
                    rate=_percent(tally.rate)), flush=True)
            if bar:
                done = 30 * tally.games // match.games
                print(f"[{'#' * done}{' ' * (30 - done)}] {tally.games}/{match.games}", end="",
                      file=sys.stderr, flush=True)
        status = 0
    except KeyboardInterrupt:
        results.close()
        status = 130
    except arena_api.GameProcessDied:
        status = 1
    if bar:
        print(file=sys.stderr)
    if status == 130:
        print("sos-tui arena: " + ngettext("interrupted after {played} of {n} game",
                                           "interrupted after {played} of {n} games", match.games).format(
            played=tally.games, n=match.games), file=sys.stderr)
    elif status == 1:
        print("sos-tui arena: " + ngettext(
            "a process playing a game ended in the middle of it (killed, or out of memory?), "
            "after {played} of {n} game",
            "a process playing a game ended in the middle of it (killed, or out of memory?), "
            "after {played} of {n} games", match.games).format(played=tally.games, n=match.games),
            file=sys.stderr)
    _arena_report(tally, args.json, interrupted=status != 0)
    return status


def _arena_report(tally, as_json: bool, interrupted: bool):
    summary = tally.summary()
    if as_json:
        print(json.dumps({**summary, "interrupted": interrupted}), flush=True)
        return
    m = tally.match
    a, b = level_name(m.level_a), level_name(m.level_b)
    limit = f"{m.time_limit}" if m.time_limit else _("none (fixed budgets)")
    print(ngettext("{a} vs {b}: {size}x{size} {mode}, {n} game, seed {seed}, time limit {limit}",
                   "{a} vs {b}: {size}x{size} {mode}, {n} games, seed {seed}, time limit {limit}",
                   tally.games).format(a=a, b=b, size=m.size, mode=mode_name(m.mode), n=tally.games,
                                       seed=m.seed, limit=limit))
    if not tally.games:
        return
    low, high = tally.interval()
    print(_("{level}: {wins} wins, {draws} draws, {losses} losses").format(
        level=a, wins=tally.wins, draws=tally.draws, losses=tally.losses))
    print(_("{level} score rate: {rate} (95% CI {low} to {high})").format(
        level=a, rate=_percent(tally.rate), low=_percent(low), high=_percent(high)))
    timings = ((N_("{level} (A) seconds per move: median {median}, max {most}"), a, "a_seconds_per_move"),
               (N_("{level} (B) seconds per move: median {median}, max {most}"), b, "b_seconds_per_move"))
    for template, level, key in timings:
        if seconds := summary[key]:
            print(_(template).format(level=level, median=f"{seconds['median']:.3f}",
                                     most=f"{seconds['max']:.3f}"))


# -- network play: host, join, server ----------------------------------------------------------
def _login_name() -> str:
    import getpass

    with contextlib.suppress(Exception):
        return check_name(getpass.getuser()[:24])
    return _("Host")


def parse_host_players(text: str):
    """``"Ana,remote,computer:hard"`` -> seats: a person at this terminal, a seat for the next
    player who joins, a computer; ArgumentTypeError otherwise."""
    from sos_tui.net import SeatSpec

    parts = text.split(",")
    if not MIN_PLAYERS <= len(parts) <= MAX_PLAYERS:
        raise argparse.ArgumentTypeError(_("needs {low} to {high} seats, not {count}").format(
            low=MIN_PLAYERS, high=MAX_PLAYERS, count=len(parts)))
    seats = []
    for index, part in enumerate(parts):
        kind, _colon, level = part.strip().partition(":")
        if kind.lower() == "remote":
            if level:
                raise argparse.ArgumentTypeError(_seat_error(index, _("'remote' takes nothing after it")))
            seats.append(SeatSpec("remote"))
        elif kind.lower() == "computer":
            level = (level or "medium").lower()
            if level not in COMPUTER_LEVELS:
                raise argparse.ArgumentTypeError(_unknown_level(level))
            seats.append(SeatSpec("computer", _("Computer {number}").format(number=index + 1), level))
        else:
            try:
                seats.append(SeatSpec("human", check_name(part)))
            except ValueError as error:
                raise argparse.ArgumentTypeError(_seat_error(index, error)) from None
    try:
        check_names(seat.name for seat in seats if seat.name)
    except ValueError as error:
        raise argparse.ArgumentTypeError(explain(error)) from None
    if not any(seat.kind == "remote" for seat in seats):
        raise argparse.ArgumentTypeError(_("name at least one seat 'remote' for a friend to join"))
    return tuple(seats)


def _port(text: str) -> int:
    return _int_in(0, 65535)(text)


def _server_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bind", default="127.0.0.1", metavar=_("ADDRESS"), help=_(
        "the address to listen on (default 127.0.0.1: this machine only; 0.0.0.0 for every network)"))
    parser.add_argument("--port", type=_port, default=7531, metavar=_("PORT"),
                        help=_("the port to listen on (default 7531; 0: any free port)"))


def _host_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--size", type=_size, metavar="N", default=6, help=_(
        "board size, {low} to {high} (default 6)").format(low=MIN_SIZE, high=MAX_SIZE))
    parser.add_argument("--mode", choices=[m.value for m in Mode], default="general",
                        help=_("general (most SOSs wins) or simple (first SOS wins)"))
    parser.add_argument("--players", type=parse_host_players, metavar=_("SEAT[,SEAT...]"), help=_(
        "your name for a seat at this terminal, 'remote' for a friend who joins, 'computer:LEVEL' for a "
        "computer; default YOURNAME,remote (remote,remote with --headless)"))
    _server_options(parser)
    parser.add_argument("--headless", action="store_true", help=_(
        "no terminal UI and no local seat: print the join URL, log the game, exit when it ends"))
    parser.add_argument("--server", metavar="URL", help=_(
        "create the game on a 'sos-tui server' at ws://HOST:PORT instead of starting one here"))
    parser.add_argument("--no-mouse", action="store_true", help=_("keyboard only"))


def _join_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("url", metavar="URL", help=_("the game's address, ws://HOST:PORT/CODE"))
    parser.add_argument("--name", metavar=_("NAME"),
                        help=_("your name in the game (default: your login name)"))
    parser.add_argument("--no-mouse", action="store_true", help=_("keyboard only"))


def _warn_bind(command: str, bind: str) -> None:
    from sos_tui.net.run import is_loopback

    if not is_loopback(bind):
        fail(command, _("warning: listening on {address}: anyone who can reach this machine on that "
                        "network can connect; give the code only to your friends").format(address=bind))


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
        raise UsageError(_("--headless has no seat at this terminal: name every person's seat 'remote'"))
    if args.server is not None:
        try:
            parse_url(args.server, need_code=False)
        except ValueError as error:
            raise UsageError(_("--server: {error}").format(error=explain(error))) from None
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
                _told(keeper.close(), "host")
        except OSError as error:
            return fail("host", _cannot_listen(args, error))
        except NetError as error:
            return fail("host", explain(error))
    if not _has_terminal():
        return fail("host", _("needs a terminal to play in; use --headless to only run the game"))
    if args.server is None:
        _warn_bind("host", args.bind)
    return _told(launch_network(plan, mouse=not args.no_mouse))


def join(args: argparse.Namespace) -> int:
    from sos_tui.net import parse_url
    from sos_tui.net.run import JoinPlan

    try:
        url = str(parse_url(args.url))
    except ValueError as error:
        raise UsageError(explain(error)) from None
    try:
        name = check_name(args.name) if args.name is not None else _login_name()
    except ValueError as error:
        raise UsageError(_("--name: {error}").format(error=explain(error))) from None
    if not _has_terminal():
        return fail("join", _("needs a terminal to play in (stdin and stdout must be a terminal)"))
    return _told(launch_network(JoinPlan(url, name), mouse=not args.no_mouse))


def server(args: argparse.Namespace) -> int:
    from sos_tui.net.run import serve_forever

    _warn_bind("server", args.bind)
    try:
        return _run_async(serve_forever(args.bind, args.port, _say))
    except OSError as error:
        return fail("server", _cannot_listen(args, error))


def _cannot_listen(args: argparse.Namespace, error: OSError) -> str:
    return _("cannot listen on {address}:{port}: {reason}").format(
        address=args.bind, port=args.port, reason=error.strerror or error)


def launch_network(plan, mouse: bool) -> list[str]:
    """Run the terminal app on a network game (replaced by tests)."""
    from sos_tui.app import SosApp
    from sos_tui.storage import load_settings

    app = SosApp(mouse=mouse, settings=load_settings(), network=plan)
    app.run(mouse=mouse)
    return app.exit_notes


# -- the entry point ---------------------------------------------------------------------------
COMMANDS = {"play": play, "history": history, "review": review, "host": host, "join": join, "server": server}


def build_parser() -> argparse.ArgumentParser:
    """Every command's options, described in the current language (``main`` sets it first)."""
    parser = _Parser(
        prog=PROG,
        description=_("Play SOS in the terminal. With no options, a setup screen opens."),
        epilog=_("Also: 'sos-tui arena LEVEL_A LEVEL_B ...' pits computer players against each other; "
                 "'sos-tui history' lists past games; 'sos-tui review FILE' marks a saved game's moves. "
                 "Each has its own --help."),
    )
    _play_options(parser)  # 'play' is the default command: its options work without the word
    parser.add_argument("--version", action="version", version=f"sos-tui {__version__}",
                        help=_("show program's version number and exit"))  # argparse 3.11 leaves it English
    parser.add_argument("--lang", metavar=_("CODE"), choices=list(LANGUAGES), help=_(
        "the game's language: {choices}; default: the one chosen in the game, else LANGUAGE, LC_ALL, "
        "LC_MESSAGES or LANG, else English (works with every command)").format(
            choices=", ".join(f"{code} ({name})" for code, name in LANGUAGES.items())))
    commands = parser.add_subparsers(dest="command", metavar=_("COMMAND"), parser_class=_Parser)
    _play_options(commands.add_parser("play", help=_("play a game (the default)"),
                                      description=_("Play a game.")))
    _history_options(commands.add_parser("history", help=_("list finished games and statistics"),
                                         description=_("Show finished games and statistics.")))
    _review_options(commands.add_parser(
        "review", help=_("mark every move of a saved game: best, inaccuracy, mistake, blunder"),
        description=_("Review a saved game: each move's mark (! best, ?! inaccuracy, ? mistake, ?? blunder), "
                      "its loss and the best move, exact where solved (always on boards up to 4x4), "
                      "marked ~ where estimated. General mode: inaccuracy 1 point, mistake 2-3, blunder 4+. "
                      "Simple mode: mistake a result step (win to draw, draw to loss), "
                      "blunder win to loss.")))
    commands.add_parser("arena", help=_("pit two computer levels against each other"), add_help=False)
    _host_options(commands.add_parser(
        "host", help=_("host a game that friends join over the network"),
        description=_("Start a game server with one game in it and play your seats here; the screen "
                      "shows the command your friends run to join.")))
    _join_options(commands.add_parser("join", help=_("join a game someone hosts"), description=_(
        "Join a network game: sos-tui join ws://HOST:PORT/CODE")))
    _server_options(commands.add_parser(
        "server", help=_("run a long-lived game server for 'host --server'"),
        description=_("Run a game server; 'sos-tui host --server ws://HOST:PORT' creates games on it.")))
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
    # the language without --lang first, so that a bad --lang is answered in it; a language
    # whose catalog is missing (a broken install) leaves English, which --lang ms then reports
    with contextlib.suppress(UnknownLanguage):
        set_language(choose_language(None, _remembered_language()))
    try:
        argv, lang = take_lang(argv)
    except UsageError as error:
        argv, lang = [word for word in argv if word != "--lang"], error
    command = argv[0] if argv and argv[0] in (*COMMANDS, "arena") else ""
    try:
        if isinstance(lang, UsageError):
            raise lang
        if lang is not None:
            set_language(check_language(lang))
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
        return fail(command, _("{error} (see {command} --help)").format(
            error=error, command=f"{PROG}{' ' + command if command else ''}"))
    except KeyboardInterrupt:  # ctrl+c: stop quietly
        return 130
    except BrokenPipeError:  # `sos-tui history | head`
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
