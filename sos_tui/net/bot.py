"""``sos-tui bot``: an engine program (docs/engine-protocol.md) playing people on a
``sos-tui server``. The bot opens a standing connection to the server (a ``bot`` message,
revision 6: ``bots.py`` is the server's side), which lists it in its lobby; a person who picks it
makes a game, and the server sends the bot an ``invite`` with the room and its seat's token. The
bot joins that seat and plays it with its own engine process, up to ``games`` games at once; it
declines every undo, agrees to every rematch, and leaves once the game is over and the others
have left. An engine that misbehaves loses that game: the bot resigns it, saying why, and plays
on in the others.

If the server goes away, the bot connects again, waiting a little longer each time (at most
``MAX_WAIT`` seconds), and gives up after ``TRIES`` failures in a row; once listed again, it comes
back to the games it was playing (their seat tokens are kept in the data folder, as a player's
are: ``tokens.TokenStore``), and a bot started again takes up its unfinished games the same way.
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
from .tokens import PLAYER, TokenStore

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


async def play_game(bot: Bot, url: str, token: str | None) -> None:
    """Take the seat of ``token`` (None: the one kept for ``bot`` at ``url``) and play it with the
    bot's engine (an engine process for each game: stopped once it is over), declining every undo
    and agreeing to every rematch, until the other people have left a game that is over, or the
    engine fails (the bot resigns), or the game is gone; then its token is forgotten. If the
    connection goes (the server restarts), the bot comes back to the game once it is listed again
    (or after ``MAX_WAIT`` seconds), as long as the server lets it in. Cancelled, it leaves the game
    and keeps its token: a bot started again takes it up."""
    game = RemoteGame(url, bot.name, token=token, tokens=bot.tokens)
    game.player_key = None  # a bot has none: its games are never rated
    table, seen = Table(bot, game), bot.listings
    try:
        while True:
            try:
                await game.connect()
                seen = bot.listings
                bot.say(_("{url}: seated").format(url=url))
                await table.play()
                break
            except NetError as error:
                if not error.retry or game.ended:
                    bot.say(_("{url}: {reason}").format(url=url, reason=printable(explain(error))))
                    break
                bot.say(
                    _("{url}: {reason}; back to this game when the server is").format(
                        url=url, reason=printable(explain(error))
                    )
                )
                await bot.relisted(seen)
    finally:
        table.stop()
        await game.leave()
    bot.tokens.forget(game.key)


class Table:
    """One game a bot plays: its engine, started at its first turn and stopped when the game is
    over."""

    def __init__(self, bot: Bot, game: RemoteGame) -> None:
        self.bot, self.game = bot, game
        self.engine = None
        self.asked: int | None = None  # the version whose move the engine was asked for

    async def play(self) -> None:
        """Play the game as it stands, then after each message, until it is over and the others have
        left (returns), the engine fails (the bot resigns, then returns) or the connection goes
        (NetError)."""
        from sos_tui.ai.engines.client import EngineError  # the AI: only when a bot plays

        game, url = self.game, self.game.url
        updates, self.asked = game.updates(), None  # a move sent as the connection went is asked again
        try:
            while True:
                state = game.state
                if state is not None and state.is_over and self.engine is not None:
                    self.bot.say(
                        _("{url}: over, {scores}").format(url=url, scores="-".join(map(str, state.scores)))
                    )
                    self.stop()
                if state is not None and state.is_over and not someone_here(game):
                    return
                if game.my_turn and game.version != self.asked:
                    await self._move()
                message = await anext(updates)  # NetError once the connection goes
                if isinstance(message, UndoRequestMessage) and message.vote:
                    await game.answer_undo(False)  # a bot takes nothing back
                elif isinstance(message, RematchRequestMessage) and message.vote:
                    await game.answer_rematch(True)
        except EngineError as error:
            self.bot.say(
                _("{url}: the engine loses this game: {reason}").format(
                    url=url, reason=printable(explain(error))
                )
            )
            with contextlib.suppress(NetError, ValueError):
                await game.resign()  # the others learn at once that the game is over

    async def _move(self) -> None:
        from sos_tui.ai.engines.client import EngineClient

        game = self.game
        self.asked = game.version
        self.engine = self.engine or EngineClient(self.bot.command, greet=False)
        move = await asyncio.to_thread(self.engine.best_move, game.state, self.bot.movetime)
        with contextlib.suppress(ValueError):  # the game moved on meanwhile (an undo)
            await game.play(move)

    def stop(self) -> None:
        if self.engine is not None:
            self.engine.close(polite=False)
        self.engine, self.asked = None, None


class Bot:
    """One bot on one server: its standing connection (connected again when it goes), the games it
    was invited to and the seat tokens of those games (``tokens``: the data folder's, so a bot
    started again takes its unfinished games up)."""

    def __init__(
        self,
        server: str,
        name: str,
        command: str,
        say: Say,
        games: int,
        movetime: int,
        engine: str | None,
        tokens: TokenStore,
    ) -> None:
        self.base = str(parse_url(server, need_code=False).server)
        self.name, self.command, self.say = name, command, say
        self.games, self.movetime, self.engine = games, movetime, engine
        self.tokens = tokens
        self.playing: dict[str, asyncio.Task] = {}  # by game address
        self.played = 0  # games over (or left)
        self.changed = asyncio.Event()  # a game ended
        self.listed = False  # the standing connection now is in the lobby
        self.listings = 0  # how many times it was listed
        self._listing = asyncio.Condition()

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

    async def relisted(self, seen: int) -> None:
        """Return once the bot was listed since its ``seen``-th listing, or after ``MAX_WAIT`` s."""
        async with self._listing:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._listing.wait_for(lambda: self.listings > seen), MAX_WAIT)

    async def _listed(self) -> None:
        """One standing connection: listed (and the games kept taken up), then each invite played,
        until the connection goes (NetError)."""
        ws = await _open(parse_url(self.base, need_code=False), 10.0)
        try:
            await ws.send(BotMessage(self.name, self.engine, self.games).to_json())
            reply = await _first_reply(ws, 10.0)
            if not isinstance(reply, ListedMessage):
                raise NetError(N_("the server did not list the bot"), retry=False)
            self.listed = True
            self.say(_("{name} is in the lobby of {server}").format(name=self.name, server=self.base))
            async with self._listing:
                self.listings += 1
                self._listing.notify_all()
            self._take_up()
            async for frame in ws:
                with contextlib.suppress(ProtocolError):  # a newer server's message: skipped
                    message = parse_server(frame)
                    if isinstance(message, InviteMessage):
                        self._play(f"{self.base}/{message.room}", message.token)
        except ConnectionClosed:
            pass
        finally:
            await ws.close()
        raise NetError(N_("the server closed the connection"))

    def _take_up(self) -> None:
        """Play on the games of this server whose tokens are kept for this bot (it was started
        again) and that nothing plays here or in another process."""
        me = self.name.casefold()
        for key, token in self.tokens.seats():
            if (
                key.role == PLAYER
                and key.name == me
                and key.address.startswith(f"{self.base}/")
                and key.address not in self.playing
                and not self.tokens.in_use(key)
            ):
                self.say(_("{url}: taking this game up again").format(url=key.address))
                self._play(key.address, token)

    def _play(self, url: str, token: str | None) -> None:
        task = asyncio.ensure_future(play_game(self, url, token))
        self.playing[url] = task
        task.add_done_callback(lambda done: self._over(url, done))

    def _over(self, url: str, task: asyncio.Task) -> None:
        if self.playing.get(url) is task:
            del self.playing[url]
        if not task.cancelled():
            self.played += 1
            self.changed.set()

    async def close(self) -> None:
        """Leave every game (stopping their engines; their tokens are kept)."""
        tasks = list(self.playing.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


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
    tokens: TokenStore | None = None,
) -> int:
    """Stand as the bot ``name`` in the lobby of the server at ``server`` and play the games people
    make against it, ``games`` at once, until ``until`` games were played (None: until
    cancelled); the games played. Its seat tokens are kept in ``tokens`` (None: the data
    folder's). NetError when the server refuses the bot or cannot be reached ``tries`` times in a
    row."""
    tokens = tokens if tokens is not None else TokenStore.default()
    bot = Bot(server, name, command, say, games, movetime, engine, tokens)
    standing = asyncio.ensure_future(bot.stand(tries, wait))
    try:
        while until is None or bot.played < until:
            bot.changed.clear()
            waiting = asyncio.ensure_future(bot.changed.wait())
            try:
                await asyncio.wait((standing, waiting), return_when=asyncio.FIRST_COMPLETED)
            finally:
                waiting.cancel()  # cancelled (ctrl+c) too: no task left behind
            if standing.done():
                standing.result()  # its NetError
        return bot.played
    finally:
        standing.cancel()
        await asyncio.gather(standing, return_exceptions=True)
        await bot.close()
