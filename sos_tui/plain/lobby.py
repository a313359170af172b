"""Line mode's lobby (``sos-tui join ws://HOST:PORT --plain``): a server's open public games and
its bots as numbered lines, the same list the app's Join dialog shows, and the one the player
picks joined.

The player types a game's number or its code (any game's code: a private game too), ``play`` and
a bot's number (or name), with a size and a mode if they like (``play 1 5 simple``; else the setup
screen's last ones) to make a game against that bot, ``refresh`` (or an empty line) to ask the
server again, ``help``, or ``quit``. Games for people to join are hosted with ``sos-tui host
--server ws://HOST:PORT --public``.
"""

from __future__ import annotations

import asyncio

from sos_tui.i18n import _, bot_label, explain, mode_name, ngettext

from . import words
from .lines import BadLine, say


class Lobby:
    """The open games of the server at ``server`` (``ws://HOST:PORT``), for ``name`` to join one."""

    def __init__(self, server: str, name: str | None, setup: dict | None = None) -> None:
        from sos_tui.net.run import bot_settings

        self.server = server
        self.name = name
        self.rooms: tuple = ()
        self.bots: tuple = ()
        self.settings = bot_settings(setup)  # the size and mode of a game against a bot

    async def refresh(self) -> None:
        """Ask the server for its open games and bots and say them, numbered; NetError if it cannot
        say."""
        from sos_tui.net.client import read_lobby

        lobby = await read_lobby(self.server, timeout=10.0)
        self.rooms, self.bots = lobby.rooms, lobby.bots
        if self.rooms:
            say(
                ngettext("{n} open game on {server}:", "{n} open games on {server}:", len(self.rooms)).format(
                    n=len(self.rooms), server=self.server
                )
            )
        else:
            say(_("No open games on {server} now.").format(server=self.server))
        for number, room in enumerate(self.rooms, 1):
            say(words.lobby_room(number, room))
        if self.bots:
            say(ngettext("{n} bot to play:", "{n} bots to play:", len(self.bots)).format(n=len(self.bots)))
        for number, bot in enumerate(self.bots, 1):
            say(words.lobby_bot(number, bot))
        self.prompt()

    def prompt(self) -> None:
        say(_("Type a game's number or code to join it, refresh to look again, or quit."))
        if self.bots:
            size, mode = self.settings
            say(
                _(
                    "To play a bot, type play and its number, with a size and a mode if you like "
                    "(play 1 5 simple); else {size} by {size}, {mode} mode."
                ).format(size=size, mode=mode_name(mode))
            )

    async def choose(self, lines: asyncio.Queue):
        """Read lines until a game is joined (the connected ``RemoteGame``), or None at ``quit`` or
        the end of the input. What cannot be done is said in one line, and the lobby goes on."""
        from sos_tui.net import NetError

        while (line := await lines.get()) is not None:
            word = line.strip()
            if isinstance(line, BadLine):
                say(words.unreadable(line))
            elif word.lower() in ("quit", "exit"):
                return None
            elif word.lower() in ("", "refresh"):
                try:
                    await self.refresh()
                except NetError as error:
                    say(explain(error))
            elif word.lower() == "help":
                self.prompt()
            elif word.lower().split()[0] == "play":
                game = await self.play(word.split()[1:])
                if game is not None:
                    return game
            elif (code := self.code(word)) is not None:
                game = await self.join(code)
                if game is not None:
                    return game
        return None

    def code(self, word: str) -> str | None:
        """The code of the game ``word`` names (its number in the list, or a code); None, said why,
        if it names none."""
        from sos_tui.net import normal_code

        code = normal_code(word)
        if code is None and word.isascii() and word.isdigit():  # a number: ten digits may be a code
            if 1 <= int(word) <= len(self.rooms):
                return self.rooms[int(word) - 1].room
            say(_no_game(words.quoted(word), len(self.rooms)))
        elif code is None:
            say(_("{word} is neither a game's number nor its code.").format(word=words.quoted(word)))
        return code

    def bot_game(self, args: list[str]):
        """The plan of ``play N [SIZE] [MODE]`` (a ``HostPlan``), or None, said why, if it is not one."""
        from sos_tui.engine import MAX_SIZE, MIN_SIZE, Mode
        from sos_tui.net.run import against_bot

        size, mode = self.settings
        if not args or not self.bots:
            say(
                _("No bot is listed here: type refresh to look again.")
                if not self.bots
                else _("Type play and a bot's number, like play 1.")
            )
            return None
        pick, *rest = args
        bot = next((b for b in self.bots if b.name.casefold() == pick.casefold()), None)
        if bot is None and pick.isascii() and pick.isdigit() and 1 <= int(pick) <= len(self.bots):
            bot = self.bots[int(pick) - 1]
        if bot is None:
            say(
                _("There is no bot {pick} here: type a number from 1 to {count}.").format(
                    pick=words.quoted(pick), count=len(self.bots)
                )
            )
            return None
        modes = {name: m.value for m in Mode for name in (m.value, mode_name(m).casefold())}
        for word in rest:
            if word.isascii() and word.isdigit() and MIN_SIZE <= int(word) <= MAX_SIZE:
                size = int(word)
            elif word.casefold() in modes:
                mode = modes[word.casefold()]
            else:
                say(
                    _(
                        "{word} is neither a board size ({low} to {high}) nor a mode (general or simple)."
                    ).format(word=words.quoted(word), low=MIN_SIZE, high=MAX_SIZE)
                )
                return None
        if self.name is None:
            say(_("A game against a bot needs your name: join with --name."))
            return None
        return against_bot(self.server, self.name, bot.name, size, mode)

    async def play(self, args: list[str]):
        """A game made against the bot ``play`` names, joined (the connected ``RemoteGame``); None
        (and why, said) if it cannot be."""
        from sos_tui.net import NetError, RemoteGame, create_room

        plan = self.bot_game(args)
        if plan is None:
            return None
        say(
            _("Making a {size} by {size} {mode} game against {bot}.").format(
                size=plan.size, mode=mode_name(plan.mode), bot=bot_label(plan.bot)
            )
        )
        try:
            url, token, _seats = await create_room(
                self.server, plan.size, plan.mode, plan.seats, bot=plan.bot
            )
            game = RemoteGame(url, self.name, token=token, host=True)
            await game.connect()
        except NetError as error:
            say(explain(error))
            self.prompt()
            return None
        return game

    async def join(self, code: str):
        """The game ``code`` of this server, joined; None (and why, said) if it cannot be."""
        from sos_tui.net import NetError, RemoteGame

        say(_("Joining game {code}.").format(code=code))
        game = RemoteGame(f"{self.server}/{code}", self.name)
        try:
            await game.connect()
        except NetError as error:
            say(explain(error))
            self.prompt()
            return None
        if not game.my_seats:
            say(_("Every seat of that game is taken now: you watch it."))
        return game


def _no_game(number: str, count: int) -> str:
    """Why ``number`` picks none of the ``count`` games listed."""
    if not count:
        return _("No game is open there now: type refresh to look again, or quit.")
    if count == 1:
        return _("There is no game {number} here: type 1, or a game's code.").format(number=number)
    return _("There is no game {number} here: type a number from 1 to {count}, or a game's code.").format(
        number=number, count=count
    )
