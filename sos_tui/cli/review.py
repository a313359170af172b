"""``sos-tui review FILE``: every move of a saved game marked, with its loss and the best move."""

from __future__ import annotations

import argparse
import json
import sys

from sos_tui.i18n import _, explain
from sos_tui.storage import LoadError, load_record

from .common import fail, is_terminal


def add_parser(commands) -> None:
    commands.add_parser(
        "review", help=_("mark every move of a saved game: best, inaccuracy, mistake, blunder"),
        description=_("Review a saved game: each move's mark (! best, ?! inaccuracy, ? mistake, ?? blunder), "
                      "its loss and the best move, exact where solved (always on boards up to 4x4), "
                      "marked ~ where estimated (and marked only beyond the estimate's error), and each "
                      "player's accuracy (the share of moves with no mark). General mode, by how much "
                      "the margin (your final score minus the other's) drops: inaccuracy 1, mistake "
                      "2-3, blunder 4+. Simple mode: mistake a result step (win to draw, draw to loss), "
                      "blunder win to loss."),
        options=_add_options).set_defaults(run=run)


def _add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar=_("FILE"), help=_("a saved game (finished or not)"))
    parser.add_argument("--json", action="store_true", help=_(
        'print {{"format": "sos-review", ...}}: each move\'s best move, loss and mark, and each '
        'player\'s accuracy').format())


def run(args: argparse.Namespace) -> int:
    """Print the marked transcript (or JSON); a progress bar on stderr when it is a terminal
    (and not with --json)."""
    from sos_tui.ai.review import annotated_transcript, review_json  # the AI: only when reviewing
    from sos_tui.ai.review import review as review_game

    try:
        record = load_record(args.file)
    except LoadError as error:
        return fail("review", explain(error))
    bar = not args.json and is_terminal(sys.stderr)

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
        sys.stdout.write(json.dumps(review_json(reviews, record.state.players)) + "\n")
    else:
        sys.stdout.write(annotated_transcript(record, reviews))
    return 0
