"""``sos-tui leaderboard ws://HOST:PORT``: the best rated players of a ``sos-tui server``, as a
table or as JSON (protocol revision 5, ``leaderboard``)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from sos_tui.engine import Mode, printable, shorten
from sos_tui.i18n import N_, _, explain, mode_name

from .common import columns, fail, int_in

HEADINGS = ("#", N_("Name"), N_("Mode"), N_("Rating"), "±", N_("Games"))


def add_parser(commands) -> None:
    commands.add_parser(
        "leaderboard",
        help=_("show the best rated players of a server"),
        description=_(
            "Show the best rated players of a sos-tui server (rated games, 'host --server URL --rated'): "
            "each mode apart, '?' marking a rating that is still provisional."
        ),
        options=_add_options,
    ).set_defaults(run=run)


def _add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("server", metavar="ws://HOST:PORT", help=_("the sos-tui server"))
    parser.add_argument("--mode", choices=[m.value for m in Mode], help=_("only the ratings in this mode"))
    parser.add_argument(
        "--count", type=int_in(1, 100), default=20, metavar="N", help=_("how many players; default 20")
    )
    parser.add_argument(
        "--json", action="store_true", help=_("print the leaderboard as one JSON document, for scripts")
    )


def format_leaders(leaders: Sequence) -> str:
    """The table ``sos-tui leaderboard`` prints, names escaped, in the player's language."""
    rows = [
        (
            str(place),
            shorten(printable(p.name), 24),
            mode_name(p.mode),
            f"{p.rating}?" if p.provisional else str(p.rating),
            str(p.deviation),
            str(p.games),
        )
        for place, p in enumerate(leaders, start=1)
    ]
    return columns([tuple(_(h) for h in HEADINGS), *rows], right=(0, 3, 4, 5))


def run(args: argparse.Namespace) -> int:
    import asyncio

    from sos_tui.net import NetError, parse_url
    from sos_tui.net.client import leaderboard

    try:
        parse_url(args.server, need_code=False)
        leaders = asyncio.run(leaderboard(args.server, Mode(args.mode) if args.mode else None, args.count))
    except (ValueError, NetError) as error:
        return fail("leaderboard", explain(error))
    if args.json:
        document = {"format": "sos-tui-leaderboard", "version": 1, "leaders": [p.to_dict() for p in leaders]}
        sys.stdout.write(json.dumps(document, indent=2) + "\n")
    elif not leaders:
        print(_("No rated players yet: a rated game that ends rates its players."))
    else:
        sys.stdout.write(format_leaders(leaders))
    return 0
