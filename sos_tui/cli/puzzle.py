"""``sos-tui puzzle [--id N] [--json] [--plain]``: puzzles proved by the solver, in the app, in line
mode, or one printed as JSON for scripts."""

from __future__ import annotations

import argparse
import json
import sys

from sos_tui.i18n import _

from .common import fail, has_terminal, served, told


def add_parser(commands) -> None:
    commands.add_parser(
        "puzzle",
        help=_("solve puzzles: find the only move that wins (proved by the solver)"),
        description=_(
            "Puzzles on 4x4, 5x5 and 6x6 boards, each proved by the exact solver: find the "
            "only move that wins (simple mode) or keeps the best margin (general mode), "
            "then play on against the best defence. Your solved count and streak are kept "
            "in the data folder."
        ),
        options=_add_options,
    ).set_defaults(run=run)


def _add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--id",
        type=int,
        metavar="N",
        help=_("the puzzle to play or print (numbered from 1); default: the first not solved yet"),
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help=_("print the puzzle as a JSON object (id, size, mode, moves, solution, difficulty) and stop"),
    )
    parser.add_argument(
        "--plain",
        action="store_true",
        help=_(
            "line mode for screen readers and scripts: one sentence per line, moves typed on standard input"
        ),
    )
    parser.add_argument(
        "--no-mouse", action="store_true", help=_("keyboard only (for terminal multiplexers)")
    )


def run(args: argparse.Namespace) -> int:
    from sos_tui.ai.puzzles import bundled

    total = len(bundled())
    if args.id is not None and not 1 <= args.id <= total:
        return fail(
            "puzzle",
            _("there is no puzzle {id}: the puzzles are numbered 1 to {total}").format(
                id=args.id, total=total
            ),
        )
    if args.json:
        from sos_tui.ai.puzzles import next_unsolved
        from sos_tui.storage.puzzle_score import load_score

        puzzle = bundled()[args.id - 1] if args.id else next_unsolved(load_score()[0].solved)
        sys.stdout.write(json.dumps(puzzle.to_dict()) + "\n")
        return 0
    if args.plain:
        from sos_tui.plain.puzzle import run_puzzles

        return run_puzzles(args.id)
    if not has_terminal() and not served():
        return fail(
            "puzzle", _("needs a terminal (stdin and stdout must be a terminal); try --plain or --json")
        )
    return told(launch(args.id, mouse=not args.no_mouse))


def launch(puzzle_id: int | None, mouse: bool) -> list[str]:
    """Run the app on the puzzles screen (replaced by tests)."""
    from sos_tui.app import SosApp
    from sos_tui.storage import load_settings

    app = SosApp(None, mouse=mouse, settings=load_settings(), puzzle=puzzle_id or 0)
    app.run(mouse=mouse)
    return app.exit_notes
