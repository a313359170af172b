"""``sos-tui engine``: one of our levels speaking the SOS engine protocol on stdin and stdout
(``docs/engine-protocol.md``), for other programs to play against."""

from __future__ import annotations

import argparse
import sys

from sos_tui.engine import COMPUTER_LEVELS
from sos_tui.i18n import _


def add_parser(commands) -> None:
    commands.add_parser(
        "engine",
        help=_("speak the SOS engine protocol on standard input and output"),
        description=_(
            "Play one of the computer levels for another program, through the SOS "
            "engine protocol (docs/engine-protocol.md) on standard input and output."
        ),
        options=_add_options,
    ).set_defaults(run=run)


def _add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--level",
        choices=COMPUTER_LEVELS,
        default="expert",
        help=_("the computer level that plays; default expert"),
    )
    parser.add_argument(
        "--seed", type=int, default=0, metavar="N", help=_("seed of the level's random choices")
    )


def run(args: argparse.Namespace) -> int:
    from sos_tui.ai.engines.serve import serve  # the AI: only when the engine runs

    def say(line: str) -> None:
        print(line, flush=True)

    sys.stdin.reconfigure(errors="replace")  # a byte that is not UTF-8 is a bad line, not a crash
    serve(args.level, sys.stdin, say, args.seed)
    return 0
