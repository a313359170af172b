"""``sos-tui ratings``: every player's rating from the history, as a table or as JSON."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from datetime import datetime

from sos_tui.engine import Mode, printable, shorten
from sos_tui.i18n import N_, _, explain, mode_name
from sos_tui.ratings import Standing
from sos_tui.storage import History, HistoryError, StorageError, history_db_path

from .common import columns, fail

HEADINGS = (N_("Name"), N_("Mode"), N_("Rating"), "±", N_("Games"), N_("W/D/L"), N_("Last played"))


def add_parser(commands) -> None:
    commands.add_parser(
        "ratings",
        help=_("show the rating of every player"),
        description=_(
            "Show the rating of every player, from the finished games in the history: people by name, each "
            "computer level as one player (computer:hard), each mode apart. A rating starts at 1500; "
            "'?' marks one that is still provisional (few games), ± how far it may be off."
        ),
        options=_add_options,
    ).set_defaults(run=run)


def _add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--mode", choices=[m.value for m in Mode], help=_("only the ratings in this mode"))
    parser.add_argument(
        "--json", action="store_true", help=_("print the ratings as one JSON document, for scripts")
    )


def _day(stamp: str) -> str:
    try:
        return f"{datetime.fromisoformat(stamp).astimezone():%Y-%m-%d}"
    except (TypeError, ValueError):
        return "-"


def format_ratings(standings: Sequence[Standing]) -> str:
    """The table ``sos-tui ratings`` prints, names escaped, in the player's language."""
    rows = [
        (
            shorten(printable(s.name), 24),
            mode_name(s.mode),
            s.rating_text,
            str(s.deviation),
            str(s.games),
            f"{s.wins}/{s.draws}/{s.losses}",
            _day(s.last_played),
        )
        for s in standings
    ]
    return columns([tuple(_(h) for h in HEADINGS), *rows], right=(2, 3, 4, 5))


def ratings_json(standings: Sequence[Standing]) -> str:
    """Every rating as one JSON document (ASCII only: names are \\u-escaped)."""
    ratings = [s.to_dict() for s in standings]
    return json.dumps({"format": "sos-tui-ratings", "version": 1, "ratings": ratings}, indent=2) + "\n"


def run(args: argparse.Namespace) -> int:
    standings: list[Standing] = []
    try:
        path = history_db_path()
        if path.exists() or path.is_symlink():  # looking must not create the database
            with History(path) as database:
                standings = database.ratings(args.mode)
    except (HistoryError, StorageError) as error:
        return fail("ratings", explain(error))
    if args.json:
        sys.stdout.write(ratings_json(standings))
    elif not standings:
        print(_("No ratings yet: finish a game and its players are rated."))
    else:
        sys.stdout.write(format_ratings(standings))
    return 0
