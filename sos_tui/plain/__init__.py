"""Line mode (``sos-tui --plain``, ``sos-tui join URL --plain``): the game as sentences on standard
output, one event per line, and commands read from standard input, for screen readers, braille
displays and scripts. No escape byte, cursor movement or redraw is ever written."""

from __future__ import annotations

import asyncio

from sos_tui.engine import GameRecord
from sos_tui.i18n import explain

from .lines import say


def run_local(record: GameRecord, seed: int | None = None) -> list[str]:
    """Play ``record`` here until the input ends or ``quit``; autosave and history through a
    ``Keeper``, as the app does. Returns what could not be kept on disk."""
    from sos_tui.session import ComputerPool, GameSession, Keeper

    from .front import play_local

    keeper = Keeper(on_error=say)
    session = GameSession(record)
    session.subscribe(keeper.on_change)
    try:
        asyncio.run(play_local(session, ComputerPool(seed=seed)))
    finally:
        notes = keeper.close()
    return notes


def run_join(url: str, name: str, host: bool = False) -> tuple[int, list[str]]:
    """Join the network game at ``url`` (``ws://HOST:PORT/CODE``; or a server's ``ws://HOST:PORT``,
    to pick one of its open games) as ``name`` and play it from the input: the exit status and
    what could not be kept on disk."""
    from sos_tui.session import Keeper

    keeper = Keeper(on_error=say)
    try:
        status = asyncio.run(join(url, name, keeper, host))
    finally:
        notes = keeper.close()
    return status, notes


async def join(url: str, name: str, keeper=None, host: bool = False) -> int:
    """``run_join``'s game: 0 at the input's end or quit, 2 if the server cannot be reached or the
    connection goes before the game is over."""
    from sos_tui.net import NetError, parse_url
    from sos_tui.net.netsession import NetSession
    from sos_tui.storage import load_settings

    from .front import play_remote
    from .lines import read_lines
    from .lobby import Lobby

    address = parse_url(url, need_code=False)
    lobby = Lobby(address.server, name, load_settings().get("setup")) if address.code is None else None
    session = NetSession.join(url, name, host=host)
    try:
        if lobby is not None:
            await lobby.refresh()  # the server's open games, numbered
        else:
            await session.open()
    except NetError as error:
        say(explain(error))
        return 2
    lines = read_lines()
    if lobby is not None:
        game = await lobby.choose(lines)
        if game is None:
            return 0
        session = NetSession.of(game)
    if keeper is not None:
        session.keep_in(keeper)
    try:
        return await play_remote(session, lines)
    finally:
        await session.close()
