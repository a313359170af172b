"""Line mode's lobby (``sos-tui join ws://HOST:PORT --plain``): a server's open public games as
numbered lines, the same list the app's Join dialog shows, and the one the player picks joined.

The player types a game's number or its code (any game's code: a private game too), ``refresh``
(or an empty line) to ask the server again, ``help``, or ``quit``. Nothing is created here, as in
the app: a game to join is hosted with ``sos-tui host --server ws://HOST:PORT --public``.
"""

from __future__ import annotations

import asyncio

from sos_tui.i18n import _, explain, ngettext

from . import words
from .lines import BadLine, say


class Lobby:
    """The open games of the server at ``server`` (``ws://HOST:PORT``), for ``name`` to join one."""

    def __init__(self, server: str, name: str | None) -> None:
        self.server = server
        self.name = name
        self.rooms: tuple = ()

    async def refresh(self) -> None:
        """Ask the server for its open games and say them, numbered; NetError if it cannot say."""
        from sos_tui.net.client import list_rooms

        self.rooms = await list_rooms(self.server, timeout=10.0)
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
        self.prompt()

    def prompt(self) -> None:
        say(_("Type a game's number or code to join it, refresh to look again, or quit."))

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
