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


def run_join(url: str, name: str) -> tuple[int, list[str]]:
    """Join the network game at ``url`` as ``name`` and play it from the input: the exit status
    and what could not be kept on disk."""
    from sos_tui.net import NetError, RemoteGame
    from sos_tui.session import Keeper

    from .front import play_remote

    async def play() -> int:
        game = RemoteGame(url, name)
        try:
            await game.connect()
        except NetError as error:
            say(explain(error))
            return 2
        try:
            return await play_remote(game, keeper)
        finally:
            await game.close()

    keeper = Keeper(on_error=say)
    try:
        status = asyncio.run(play())
    finally:
        notes = keeper.close()
    return status, notes
