"""``sos-tui host --headless``: one game with no seat at this terminal, on a server of its own
(``host_headless``, a ``Host``) or created on a ``sos-tui server`` (``host_on_server``, a
``NetSession``), followed to its end. The command line prints; these report through ``say(line)``.
"""

from __future__ import annotations

import asyncio

from sos_tui.engine import printable
from sos_tui.i18n import N_, _, explain

from .host import Host
from .netsession import NetSession
from .protocol import ServerMessage, StateMessage
from .run import HostPlan, Say, page_url, reachable_host, stop_on_signals, until
from .tokens import TokenStore


async def host_headless(plan: HostPlan, say: Say, *, listeners=(), computer=None,
                        stop: asyncio.Event | None = None) -> int:
    """One game on a server of its own, kept in the rooms database: say the join URL (first), then
    every event; return 0 when the game ends, 130 when stopped (ctrl+c, SIGTERM: the game stays on
    disk, and the same command run again brings it back with the same code and seats)."""
    stop = stop or asyncio.Event()
    stop_on_signals(stop)
    host = Host.of(plan, computer=computer, computer_delay=0.3, listeners=listeners)
    stopped = True
    try:
        await host.open()
        room = await host.start()
        _say_url(say, host.url(reachable_host(plan.bind)))
        host.server.on_event = lambda room, text: say(printable(text))
        stopped = await until(stop, room.finished.wait())
    finally:
        if stopped:
            await host.stop()
        else:
            await host.finish(N_("the game is over"))
    say(_("stopped") if stopped else _("the game is over"))
    return 130 if stopped else 0


async def host_on_server(plan: HostPlan, say: Say, stop: asyncio.Event | None = None) -> int:
    """``host --headless --server URL``: create the game there, say its URL, watch it to the end
    (each move, then the result); 1 if the server is lost first, 130 when stopped. NetError if the
    game cannot be created."""
    stop = stop or asyncio.Event()
    stop_on_signals(stop)
    session = NetSession.on_server(plan, TokenStore())
    await session.open()
    _say_url(say, session.join_url)
    over = asyncio.Event()

    def heard(message: ServerMessage | None) -> None:
        if isinstance(message, StateMessage) and message.move is not None:
            say(_("move: {move}").format(move=message.move))  # only a "move" change carries a move
        game = session.game
        if session.over and game.record is not None and not over.is_set():
            say(_("game over: {result}").format(result=printable(game.record.result_text(tr=_))))
            over.set()

    following = asyncio.ensure_future(session.run(heard))
    try:
        stopped = await until(stop, over.wait(), following)
    finally:
        await session.close()
    if following.done() and not following.cancelled() and not over.is_set():
        say(_("lost the server: {error}").format(error=explain(following.result())))
        return 1
    return 130 if stopped else 0


def _say_url(say: Say, url: str) -> None:
    say(url)  # the first line: scripts read it
    say(_("friends join with: sos-tui join {url} --name NAME").format(url=url))
    say(_("or play in a browser: {url}").format(url=page_url(url)))
