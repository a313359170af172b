"""``sos-tui host``, ``join`` and ``server``: network play from the command line.

The network code (websockets, asyncio) and the app (Textual) are imported only when one of these
commands runs."""

from __future__ import annotations

import argparse
import contextlib

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
    engine_command,
)
from sos_tui.i18n import _, explain
from sos_tui.storage import StorageError, load_settings

from .common import (
    UsageError,
    board_size,
    engine_seat,
    fail,
    has_terminal,
    int_in,
    room_control,
    seat_error,
    told,
    unknown_level,
)


def add_parser(commands) -> None:
    """The three commands: ``host``, ``join`` and ``server``."""
    commands.add_parser(
        "host", help=_("host a game that friends join over the network"),
        description=_("Start a game server with one game in it and play your seats here; the screen "
                      "shows the command your friends run to join."),
        options=_host_options).set_defaults(run=host)
    commands.add_parser(
        "join", help=_("join a game someone hosts"),
        description=_("Join a network game: sos-tui join ws://HOST:PORT/CODE"),
        options=_join_options).set_defaults(run=join)
    commands.add_parser(
        "server", help=_("run a long-lived game server for 'host --server'"),
        description=_("Run a game server; 'sos-tui host --server ws://HOST:PORT' creates games on it."),
        options=_server_options).set_defaults(run=server)


def _host_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--size", type=board_size, metavar="N", default=6, help=_(
        "board size, {low} to {high} (default 6)").format(low=MIN_SIZE, high=MAX_SIZE))
    parser.add_argument("--mode", choices=[m.value for m in Mode], default="general",
                        help=_("general (most SOSs wins) or simple (first SOS wins)"))
    parser.add_argument("--players", type=parse_host_players, metavar=_("SEAT[,SEAT...]"), help=_(
        "your name for a seat at this terminal, 'remote' for a friend who joins, 'computer:LEVEL' for a "
        "computer; default YOURNAME,remote (remote,remote with --headless)"))
    _listen_options(parser)
    parser.add_argument("--headless", action="store_true", help=_(
        "no terminal UI and no local seat: print the join URL, log the game, exit when it ends"))
    parser.add_argument("--server", metavar="URL", help=_(
        "create the game on a 'sos-tui server' at ws://HOST:PORT instead of starting one here"))
    parser.add_argument("--public", action="store_true", help=_(
        "list the game in the server's lobby, where anyone may take its open seats (without it, only "
        "people you give the code to can join)"))
    parser.add_argument("--clock", type=room_control, metavar=_("MIN+INC"), help=_(
        "a clock for each player: minutes each, plus seconds added after each move (e.g. 5+3, 0.5+0); "
        "with --server also days per move for a correspondence game (1d, 2d, 3d, 7d). Untimed by default"))
    parser.add_argument("--rated", action="store_true", help=_(
        "with --server: a rated game; when it ends, the server rates the people who played it (each "
        "by the player key of their data folder)"))
    parser.add_argument("--no-mouse", action="store_true", help=_("keyboard only"))


def _join_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("url", metavar="URL", help=_(
        "the game's address, ws://HOST:PORT/CODE; or a server's, ws://HOST:PORT, to take a seat in one "
        "of its open games"))
    parser.add_argument("--name", metavar=_("NAME"),
                        help=_("your name in the game (default: your login name)"))
    parser.add_argument("--no-mouse", action="store_true", help=_("keyboard only"))
    parser.add_argument("--plain", action="store_true", help=_(
        "line mode for screen readers and scripts: one sentence per line, moves typed on standard input"))


def _listen_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bind", default="127.0.0.1", metavar=_("ADDRESS"), help=_(
        "the address to listen on (default 127.0.0.1: this machine only; 0.0.0.0 for every network)"))
    parser.add_argument("--port", type=int_in(0, 65535), default=7531, metavar=_("PORT"),
                        help=_("the port to listen on (default 7531; 0: any free port)"))
    parser.add_argument("--claim-after", type=int_in(0, 86400), metavar=_("SECONDS"), help=_(
        "how long a player's connection may be lost before the others may claim the win (or, with more "
        "players, drop that seat) (default 60)"))


def _server_options(parser: argparse.ArgumentParser) -> None:
    _listen_options(parser)
    parser.add_argument("--redis", metavar="URL", help=_(
        "keep the rooms in Redis at redis://HOST:PORT/DB: every server with the same --redis is one "
        "service, and a game is joined through any of them (needs: pip install 'sos-tui[redis]')"))
    parser.add_argument("--public-url", type=public_option, metavar="URL", help=_(
        "with --redis: this server's own address as players reach it, ws://HOST:PORT (or wss://); "
        "the other servers then send the players of its games straight here instead of relaying them. "
        "Without it (servers behind one load balancer address) players are relayed"))
    parser.add_argument("--log-format", choices=("text", "json"), default="text", help=_(
        "how each event is logged on standard output: text lines (default) or one JSON object per line"))


def public_option(text: str) -> str:
    """``--public-url``: a checked ``ws://HOST:PORT``; ArgumentTypeError saying what is wrong."""
    from sos_tui.net.moved import public_url

    try:
        return public_url(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def parse_host_players(text: str):
    """``"Ana,remote,computer:hard"`` -> seats: a person at this terminal, a seat for the next
    player who joins, a computer; ArgumentTypeError otherwise."""
    parts = text.split(",")
    if not MIN_PLAYERS <= len(parts) <= MAX_PLAYERS:
        raise argparse.ArgumentTypeError(_("needs {low} to {high} seats, not {count}").format(
            low=MIN_PLAYERS, high=MAX_PLAYERS, count=len(parts)))
    seats = []
    for index, part in enumerate(parts):
        kind, _colon, level = part.strip().partition(":")
        command = engine_command(part)
        if command is not None:
            seats.append(engine_seat(index, command, [seat.name for seat in seats if seat.name]))
        elif kind.lower() == SeatKind.REMOTE:
            if level:
                raise argparse.ArgumentTypeError(seat_error(index, _("'remote' takes nothing after it")))
            seats.append(Seat(None, SeatKind.REMOTE))
        elif kind.lower() == SeatKind.COMPUTER:
            level = (level or "medium").lower()
            if level not in COMPUTER_LEVELS:
                raise argparse.ArgumentTypeError(unknown_level(level))
            seats.append(Seat(_("Computer {number}").format(number=index + 1), SeatKind.COMPUTER, level))
        else:
            try:
                seats.append(Seat(check_name(part)))
            except ValueError as error:
                raise argparse.ArgumentTypeError(seat_error(index, error)) from None
    try:
        check_names(seat.name for seat in seats if seat.name)
    except ValueError as error:
        raise argparse.ArgumentTypeError(explain(error)) from None
    if not any(seat.kind is SeatKind.REMOTE for seat in seats):
        raise argparse.ArgumentTypeError(_("name at least one seat 'remote' for a friend to join"))
    return tuple(seats)


def _warn_bind(command: str, bind: str, say=None) -> None:
    """Warn, on stderr or through ``say`` (``eventlog``), when ``bind`` is not this machine only."""
    from sos_tui.net.run import is_loopback

    if not is_loopback(bind):
        warning = _("warning: listening on {address}: anyone who can reach this machine on that "
                    "network can connect; give the code only to your friends").format(address=bind)
        if say is None:
            fail(command, warning)
        else:
            say(warning, level="warning")


def _say(line: str) -> None:
    print(line, flush=True)


def host(args: argparse.Namespace) -> int:
    import asyncio

    from sos_tui.net import NetError, parse_url
    from sos_tui.net.headless import host_headless, host_on_server
    from sos_tui.net.run import HostPlan
    from sos_tui.session import Keeper, SeatKind

    seats = args.players
    if seats is None:
        seats = parse_host_players("remote,remote" if args.headless else f"{_login_name()},remote")
    if args.headless and any(seat.kind is SeatKind.HUMAN for seat in seats):
        raise UsageError(_("--headless has no seat at this terminal: name every person's seat 'remote'"))
    if args.server is not None and any(seat.engine for seat in seats):
        raise UsageError(_("an engine seat is played on this machine: host it here, without --server"))
    if args.server is not None:
        try:
            parse_url(args.server, need_code=False)
        except ValueError as error:
            raise UsageError(_("--server: {error}").format(error=explain(error))) from None
    if args.clock is not None and args.clock.per_move and args.server is None:
        raise UsageError(_("--clock {clock}: days per move are for correspondence games on a 'sos-tui "
                           "server': add --server ws://HOST:PORT").format(clock=args.clock))
    if args.rated and args.server is None:
        raise UsageError(_("--rated needs --server: only a sos-tui server rates games"))
    plan = HostPlan(args.size, args.mode, tuple(seats), args.bind, args.port, args.server, args.public,
                    args.claim_after, args.clock, args.rated)
    if args.headless:
        try:
            if args.server is not None:
                return asyncio.run(host_on_server(plan, _say))
            _warn_bind("host", args.bind)
            keeper = Keeper(on_error=lambda message: fail("host", message))
            try:
                return asyncio.run(host_headless(plan, _say, listeners=[keeper.on_change]))
            finally:
                told(keeper.close(), "host")
        except StorageError as error:  # the rooms database
            return fail("host", explain(error))
        except OSError as error:
            return fail("host", _cannot_listen(args, error))
        except NetError as error:
            return fail("host", explain(error))
    if not has_terminal():
        return fail("host", _("needs a terminal to play in; use --headless to only run the game"))
    if args.server is None:
        _warn_bind("host", args.bind)
    return launch_network("host", plan, mouse=not args.no_mouse)


def join(args: argparse.Namespace) -> int:
    from sos_tui.net import parse_url
    from sos_tui.net.run import JoinPlan, LobbyPlan

    try:
        address = parse_url(args.url, need_code=False)
    except ValueError as error:
        raise UsageError(explain(error)) from None
    url = str(address)
    try:
        name = check_name(args.name) if args.name is not None else _login_name()
    except ValueError as error:
        raise UsageError(_("--name: {error}").format(error=explain(error))) from None
    if args.plain:
        from sos_tui.plain import run_join

        status, notes = run_join(url, name)
        return told(notes, "join") or status
    if not has_terminal():
        return fail("join", _("needs a terminal to play in (stdin and stdout must be a terminal)"))
    plan = JoinPlan(url, name) if address.code is not None else LobbyPlan(address.server, name)
    return launch_network("join", plan, mouse=not args.no_mouse)


def server(args: argparse.Namespace) -> int:
    import asyncio

    from sos_tui.net import Limits
    from sos_tui.net.eventlog import logged_as, printer
    from sos_tui.net.run import serve_forever

    if args.public_url is not None and args.redis is None:
        raise UsageError(_("--public-url is for a service on Redis: add --redis URL"))
    say = printer(args.log_format)
    json = args.log_format == "json"  # then every line is a JSON object, warnings and errors too
    with logged_as(args.log_format):
        _warn_bind("server", args.bind, say if json else None)
        limits = Limits() if args.claim_after is None else Limits(claim_after=args.claim_after)
        try:
            return asyncio.run(serve_forever(args.bind, args.port, say, limits, redis=args.redis,
                                             public=args.public_url))
        except (StorageError, OSError) as error:  # the rooms database; the port
            problem = explain(error) if isinstance(error, StorageError) else _cannot_listen(args, error)
            if not json:
                return fail("server", problem)
            say(problem, level="error")
            return 2


def _cannot_listen(args: argparse.Namespace, error: OSError) -> str:
    return _("cannot listen on {address}:{port}: {reason}").format(
        address=args.bind, port=args.port, reason=error.strerror or error)


def launch_network(command: str, plan, mouse: bool) -> int:
    """Run the terminal app on a network game; a game that could not start (no server there, a
    wrong code, a port taken) ends the app and is said in one line, exit status 2."""
    from sos_tui.app import SosApp

    app = SosApp(mouse=mouse, settings=load_settings(), network=plan)
    reason = app.run(mouse=mouse)
    status = told(app.exit_notes, command)  # a finished game it could not keep: where it is
    if app.return_code:
        return fail(command, str(reason)) if isinstance(reason, str) else app.return_code
    return status


def _login_name() -> str:
    import getpass  # with termios: not for the commands that never ask

    with contextlib.suppress(Exception):
        return check_name(getpass.getuser()[:24])
    return _("Host")
