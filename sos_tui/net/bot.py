"""``sos-tui bot``: an engine program (docs/engine-protocol.md) playing people on a
``sos-tui server``. The bot watches the server's lobby and takes an open seat of each public
game it lists, up to ``games`` at once, each game with its own engine process; it plays its
seat with the engine and leaves once the game is over. An engine that misbehaves loses that
game: the bot leaves it, saying why, and plays on in the others.

A new module on the client's public API (``list_rooms``, ``RemoteGame``): the server knows the
bot as a player like any other (its name says it is a bot: ``NAME (bot)``).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from sos_tui.engine import printable
from sos_tui.i18n import _, explain

from .client import NetError, RemoteGame, list_rooms
from .protocol import parse_url
from .tokens import TokenStore

Say = Callable[[str], None]
POLL = 2.0
"""Seconds between two looks at the lobby."""


def bot_name(name: str) -> str:
    """The name a bot sits under: its own, marked."""
    return _("{name} (bot)").format(name=name)


async def play_game(
    url: str, name: str, command: str, movetime: int, say: Say, tokens: TokenStore | None = None
) -> None:
    """Take a seat of the game at ``url`` as ``name`` and play it with the engine ``command`` to
    its end (or until the engine fails, or the connection goes); its engine is stopped after."""
    from sos_tui.ai.engines.client import EngineClient, EngineError  # the AI: only when a bot plays

    game, engine, asked = RemoteGame(url, name, tokens=tokens or TokenStore()), None, None
    try:
        await game.connect()
        say(_("{url}: seated").format(url=url))
        engine = EngineClient(command, greet=False)
        async for _message in game.updates():
            state = game.state
            if state is not None and state.is_over:
                say(_("{url}: over, {scores}").format(url=url, scores="-".join(map(str, state.scores))))
                break
            if game.my_turn and game.version != asked:
                asked = game.version
                move = await asyncio.to_thread(engine.best_move, state, movetime)
                with contextlib.suppress(ValueError):  # the game moved on meanwhile (an undo)
                    await game.play(move)
    except EngineError as error:
        say(
            _("{url}: the engine loses this game: {reason}").format(url=url, reason=printable(explain(error)))
        )
    except NetError as error:
        say(_("{url}: {reason}").format(url=url, reason=printable(explain(error))))
    finally:
        if engine is not None:
            engine.close(polite=False)
        await game.leave()


async def run_bot(
    server: str,
    name: str,
    command: str,
    say: Say,
    games: int = 4,
    movetime: int = 2000,
    until: int | None = None,
    poll: float = POLL,
) -> int:
    """Play the open public games of the server at ``server``, ``games`` at once, until ``until``
    games were taken (None: until cancelled); the games played."""
    base = str(parse_url(server, need_code=False).server)
    tokens = TokenStore()
    playing: dict[str, asyncio.Task] = {}
    taken = 0
    try:
        while until is None or taken < until or playing:
            for url in [url for url, task in playing.items() if task.done()]:
                playing.pop(url)
            if until is None or taken < until:
                try:
                    rooms = await list_rooms(base)
                except NetError as error:
                    say(printable(explain(error)))
                    rooms = ()
                for room in rooms:
                    url = f"{base}/{room.room}"
                    if len(playing) >= games or (until is not None and taken >= until):
                        break
                    if url not in playing and room.free and name not in room.waiting:
                        playing[url] = asyncio.ensure_future(
                            play_game(url, name, command, movetime, say, tokens)
                        )
                        taken += 1
            await asyncio.sleep(poll)
    finally:
        for task in playing.values():
            task.cancel()
        await asyncio.gather(*playing.values(), return_exceptions=True)
    return taken
