"""``sos-tui bot``: an engine program (docs/engine-protocol.md) playing people on a
``sos-tui server``. The bot opens a standing connection to the server (a ``bot`` message,
revision 6: ``bots.py`` is the server's side), which lists it in its lobby; a person who picks it
makes a game, and the server sends the bot an ``invite`` with the room and its seat's token. The
bot joins that seat and plays it with its own engine process, up to ``games`` games at once; it
declines every undo, agrees to every rematch, and leaves once the game is over and the others
have left. An engine that misbehaves loses that game: the bot resigns it, saying why, and plays
on in the others.

If the server goes away, the bot connects again, waiting a little longer each time (at most
``MAX_WAIT`` seconds), and gives up after ``TRIES`` failures in a row; its games go on meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from websockets.exceptions import ConnectionClosed

from sos_tui.engine import printable
from sos_tui.i18n import N_, _, explain

from .client import NetError, RemoteGame, _first_reply, _open
from .errors import ProtocolError
from .protocol import (
    BotMessage,
    InviteMessage,
    ListedMessage,
    RematchRequestMessage,
    UndoRequestMessage,
    parse_server,
    parse_url,
)
from .tokens import TokenStore

Say = Callable[[str], None]
FIRST_WAIT = 1.0
"""Seconds before the first try to connect again; doubled after each failure."""
MAX_WAIT = 30.0
"""The longest wait between two tries to connect again."""
TRIES = 20
"""Failures in a row after which the bot gives up."""


def someone_here(game: RemoteGame) -> bool:
    """Another person is connected to the table of ``game``."""
    return any(
        view.connected and view.seat.name is not None and not view.seat.is_computer
        for i, view in enumerate(game.seat_views)
        if i not in game.my_seats
    )


async def play_game(
    url: str, name: str, command: str, movetime: int, say: Say, token: str, tokens: TokenStore
) -> None:
    """Take the seat of ``token`` in the game at ``url`` as ``name`` and play it with the engine
    ``command`` (an engine process for each game: stopped once it is over), declining every undo
    and agreeing to every rematch, until the other people have left a game that is over (or the
    engine fails: the bot resigns, or the connection goes)."""
    from sos_tui.ai.engines.client import EngineClient, EngineError  # the AI: only when a bot plays

    game, engine, asked = RemoteGame(url, name, token=token, tokens=tokens), None, None
    try:
        await game.connect()
        say(_("{url}: seated").format(url=url))
        updates = game.updates()
        while True:  # the game as it stands once seated, then after each message
            state = game.state
            if state is not None and state.is_over and engine is not None:
                say(_("{url}: over, {scores}").format(url=url, scores="-".join(map(str, state.scores))))
                engine.close(polite=False)
                engine, asked = None, None
            if state is not None and state.is_over and not someone_here(game):
                break
            if game.my_turn and game.version != asked:
                asked = game.version
                engine = engine or EngineClient(command, greet=False)
                move = await asyncio.to_thread(engine.best_move, state, movetime)
                with contextlib.suppress(ValueError):  # the game moved on meanwhile (an undo)
                    await game.play(move)
            message = await anext(updates)  # NetError once the connection goes
            if isinstance(message, UndoRequestMessage) and message.vote:
                await game.answer_undo(False)  # a bot takes nothing back
            elif isinstance(message, RematchRequestMessage) and message.vote:
                await game.answer_rematch(True)
    except EngineError as error:
        say(
            _("{url}: the engine loses this game: {reason}").format(url=url, reason=printable(explain(error)))
        )
        with contextlib.suppress(NetError, ValueError):
            await game.resign()  # the others learn at once that the game is over
    except NetError as error:
        say(_("{url}: {reason}").format(url=url, reason=printable(explain(error))))
    finally:
        if engine is not None:
            engine.close(polite=False)
        await game.leave()


class Bot:
    """One bot on one server: its standing connection (connected again when it goes) and the games
    it was invited to."""

    def __init__(
        self, server: str, name: str, command: str, say: Say, games: int, movetime: int, engine: str | None
    ) -> None:
        self.base = str(parse_url(server, need_code=False).server)
        self.name, self.command, self.say = name, command, say
        self.games, self.movetime, self.engine = games, movetime, engine
        self.tokens = TokenStore()  # in memory: each invite brings its token
        self.playing: set[asyncio.Task] = set()
        self.played = 0  # games over (or left)
        self.changed = asyncio.Event()  # a game ended
        self.listed = False  # the standing connection now is in the lobby

    async def stand(self, tries: int = TRIES, wait: float = FIRST_WAIT) -> None:
        """Stay listed in the server's lobby, connecting again after ``wait`` seconds, doubled each
        time (at most ``MAX_WAIT``); NetError after ``tries`` failures in a row, or at once when the
        server refuses the bot (its name taken, say)."""
        failures = 0
        while True:
            try:
                await self._listed()
            except NetError as error:
                if not error.retry:
                    raise
                failures = 1 if self.listed else failures + 1  # listed, then it went: start again
                self.listed = False
                if failures >= tries:
                    raise
                delay = min(MAX_WAIT, wait * 2 ** (failures - 1))
                self.say(
                    _("{server}: {reason}; trying again in {seconds} s").format(
                        server=self.base, reason=printable(explain(error)), seconds=f"{delay:g}"
                    )
                )
                await asyncio.sleep(delay)

    async def _listed(self) -> None:
        """One standing connection: listed, then each invite played, until the connection goes
        (NetError)."""
        ws = await _open(parse_url(self.base, need_code=False), 10.0)
        try:
            await ws.send(BotMessage(self.name, self.engine, self.games).to_json())
            reply = await _first_reply(ws, 10.0)
            if not isinstance(reply, ListedMessage):
                raise NetError(N_("the server did not list the bot"), retry=False)
            self.listed = True
            self.say(_("{name} is in the lobby of {server}").format(name=self.name, server=self.base))
            async for frame in ws:
                with contextlib.suppress(ProtocolError):  # a newer server's message: skipped
                    message = parse_server(frame)
                    if isinstance(message, InviteMessage):
                        self._play(message)
        except ConnectionClosed:
            pass
        finally:
            await ws.close()
        raise NetError(N_("the server closed the connection"))

    def _play(self, invite: InviteMessage) -> None:
        url = f"{self.base}/{invite.room}"
        task = asyncio.ensure_future(
            play_game(url, self.name, self.command, self.movetime, self.say, invite.token, self.tokens)
        )
        self.playing.add(task)
        task.add_done_callback(self._over)

    def _over(self, task: asyncio.Task) -> None:
        self.playing.discard(task)
        self.played += 1
        self.changed.set()

    async def close(self) -> None:
        """Leave every game (stopping their engines)."""
        for task in self.playing:
            task.cancel()
        await asyncio.gather(*self.playing, return_exceptions=True)


async def run_bot(
    server: str,
    name: str,
    command: str,
    say: Say,
    games: int = 4,
    movetime: int = 2000,
    engine: str | None = None,
    until: int | None = None,
    tries: int = TRIES,
    wait: float = FIRST_WAIT,
) -> int:
    """Stand as the bot ``name`` in the lobby of the server at ``server`` and play the games people
    make against it, ``games`` at once, until ``until`` games were played (None: until
    cancelled); the games played. NetError when the server refuses the bot or cannot be reached
    ``tries`` times in a row."""
    bot = Bot(server, name, command, say, games, movetime, engine)
    standing = asyncio.ensure_future(bot.stand(tries, wait))
    try:
        while until is None or bot.played < until:
            bot.changed.clear()
            waiting = asyncio.ensure_future(bot.changed.wait())
            await asyncio.wait((standing, waiting), return_when=asyncio.FIRST_COMPLETED)
            waiting.cancel()
            if standing.done():
                standing.result()  # its NetError
        return bot.played
    finally:
        standing.cancel()
        await asyncio.gather(standing, return_exceptions=True)
        await bot.close()
