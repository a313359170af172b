"""``sos-tui games``: this player's network games in progress, from the seat tokens kept in the
data folder (``sos_tui.net.games``), numbered; ``--json`` for scripts; ``sos-tui games N`` (or
``--open N``) joins game N, in the app or with ``--plain`` in line mode."""

from __future__ import annotations

import argparse
import json

from sos_tui.engine import printable, shorten
from sos_tui.i18n import _, bot_label, mode_name, ngettext

from .common import UsageError, fail, has_terminal, int_in, told


def add_parser(commands) -> None:
    commands.add_parser(
        "games",
        help=_("list your network games in progress, and open one"),
        description=_(
            "List the network games you have a seat in that are not over, asking each "
            "server how the game stands; give a game's number to open it."
        ),
        options=_add_options,
    ).set_defaults(run=run)


def _add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("number", nargs="?", type=int_in(1), metavar="N", help=_("open game N of the list"))
    parser.add_argument("--open", type=int_in(1), metavar="N", help=_("open game N of the list"))
    parser.add_argument("--json", action="store_true", help=_("print the list as JSON"))
    parser.add_argument(
        "--plain",
        action="store_true",
        help=_("open the game in line mode (one sentence per line, moves typed on standard input)"),
    )
    parser.add_argument("--no-mouse", action="store_true", help=_("keyboard only"))


def run(args: argparse.Namespace) -> int:
    import asyncio

    from sos_tui.net import TokenStore
    from sos_tui.net.games import standings
    from sos_tui.session.timing import monotonic_ms

    if args.number is not None and args.open is not None and args.number != args.open:
        raise UsageError(
            _("give the game's number once: {number} or --open {other}").format(
                number=args.number, other=args.open
            )
        )
    number = args.open or args.number
    found = asyncio.run(standings(TokenStore.default()))
    now = monotonic_ms()
    if number is None:
        if args.json:
            print(json.dumps([standing.to_dict(now) for standing in found], indent=1, ensure_ascii=False))
        else:
            _print(found, now)
        return 0
    if number > len(found):
        return fail(
            "games",
            ngettext(
                "there is no game {number}: the list has {count} game",
                "there is no game {number}: the list has {count} games",
                len(found),
            ).format(number=number, count=len(found)),
        )
    return _open(found[number - 1], args)


def _print(found, now: int) -> None:
    if not found:
        print(_("No network games in progress."))
        return
    waiting = sum(standing.your_turn for standing in found)
    print(
        ngettext(
            "{count} network game in progress, {waiting} waiting for your move:",
            "{count} network games in progress, {waiting} waiting for your move:",
            len(found),
        ).format(count=len(found), waiting=waiting)
    )
    for index, standing in enumerate(found, 1):
        print(f"{index:>3}. {line(standing, now)}")
    print(_("Open one with: sos-tui games N"))


def line(standing, now: int) -> str:
    """One game of the list, every text from a server escaped and shortened."""
    from sos_tui.session.timing import clock_text

    url = printable(standing.url)
    if standing.state is None:
        problem = shorten(printable(standing.problem), 80)
        return _("{url}: cannot be asked: {problem}").format(url=url, problem=problem)
    names = _(" vs ").join(
        bot_label(shown) if bot else shown
        for shown, bot in zip(
            (shorten(printable(name), 24) for name in standing.names), standing.bots, strict=True
        )
    )
    state = standing.state
    parts = [names, f"{state.size}x{state.size} {mode_name(state.mode)}"]
    if state.clocks is not None:
        parts.append(str(state.clocks.control))
    if standing.your_turn:
        turn = _("your move")
    elif standing.to_move is not None:
        turn = _("{name} to move").format(name=shorten(printable(standing.to_move), 24))
    else:
        turn = _("waiting for players")
    left = standing.time_left(now)
    if left is not None:
        turn = _("{turn}, {time} left").format(turn=turn, time=clock_text(left))
    return " · ".join([*parts, turn, url])


def _open(standing, args: argparse.Namespace) -> int:
    from sos_tui.net.run import JoinPlan
    from sos_tui.net.tokens import HOST

    if standing.state is None:
        return fail(
            "games", _("{url} cannot be asked: {problem}").format(url=standing.url, problem=standing.problem)
        )
    host = standing.key.role == HOST
    if args.plain:
        from sos_tui.plain import run_join

        status, notes = run_join(standing.url, standing.player, host=host)
        return told(notes, "games") or status
    if not has_terminal():
        return fail("games", _("needs a terminal to play in; use --plain for line mode"))
    from .net import launch_network

    return launch_network("games", JoinPlan(standing.url, standing.player, host), mouse=not args.no_mouse)
