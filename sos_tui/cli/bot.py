"""``sos-tui bot ws://HOST:PORT --engine COMMAND``: an engine program listed in the lobby of a
``sos-tui server`` as a bot, playing the people who pick it (``net/bot.py``)."""

from __future__ import annotations

import argparse

from sos_tui.engine import check_name
from sos_tui.i18n import _, explain

from .common import fail, int_in


def add_parser(commands) -> None:
    commands.add_parser(
        "bot",
        help=_("list an engine program as a bot in a server's lobby"),
        description=_(
            "List an engine program (docs/engine-protocol.md) as a bot in a server's lobby and "
            "play the people who pick it, several games at once, until ctrl+c."
        ),
        options=_add_options,
    ).set_defaults(run=run)


def _add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("server", metavar="ws://HOST:PORT", help=_("the sos-tui server"))
    parser.add_argument(
        "--engine", required=True, metavar=_("COMMAND"), help=_("the engine program's command")
    )
    parser.add_argument("--name", help=_("the bot's name (default: the engine's own), marked as a bot"))
    parser.add_argument(
        "--games", type=int_in(1, 32), default=4, metavar="N", help=_("games at once; default 4")
    )
    parser.add_argument(
        "--time-limit", type=float, default=2.0, metavar=_("SECONDS"), help=_("seconds per move; default 2")
    )


def _say(line: str) -> None:
    print(line, flush=True)


def run(args: argparse.Namespace) -> int:
    import asyncio

    from sos_tui.ai.engines.client import EngineError, probe  # the AI and the network: only here
    from sos_tui.net import NetError, parse_url
    from sos_tui.net.bot import run_bot

    try:
        parse_url(args.server, need_code=False)
        engine = probe(args.engine)
        name = check_name(args.name or engine or "engine")
    except (ValueError, EngineError) as error:
        return fail("bot", explain(error))
    if not args.time_limit > 0:
        return fail("bot", _("--time-limit must be a positive number of seconds"))
    _say(
        _("{name} waits in the lobby of {server} for people to pick it; ctrl+c stops").format(
            name=name, server=args.server
        )
    )
    movetime = round(args.time_limit * 1000)
    try:
        return asyncio.run(
            _until_stopped(run_bot(args.server, name, args.engine, _say, args.games, movetime, engine))
        )
    except NetError as error:
        fail("bot", explain(error))
        return 1


async def _until_stopped(bot) -> int:
    """Run ``bot`` until ctrl+c or SIGTERM, which leave its games and stop its engines: 130."""
    import asyncio
    import signal

    task = asyncio.ensure_future(bot)
    for number in (signal.SIGINT, signal.SIGTERM):
        asyncio.get_running_loop().add_signal_handler(number, task.cancel)
    try:
        await task
    except asyncio.CancelledError:
        return 130
    return 0
