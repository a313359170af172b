"""What each client of a room holds of its game, and so what it is sent of a ``state``.

A client of revision 2 keeps a copy of the game (its mirror) and plays the moves a state carries
on it. So a room sends such a client the whole game record only when it holds none of this game
(on connect, after a rematch, when it asked with ``sync``) or a version that is not the one just
before (an undo); after a move it sends the move (``Since``), and after a change of the table
alone (a join, a leave) no move at all. Clients of revision 0 and 1 always get the whole record.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import replace

from .protocol import Since, StateMessage

MIRRORS = 2
"""The protocol revision from which a client keeps a mirror of the game."""
CLOCKS = 4
"""...and of a timed game (its moves come with their ``spent_ms``)."""


class Mirrors:
    """For each client (revision 2 or more) of one room: the game id and version of the record it
    was last sent, whole or as moves. Clients are anything hashable with a ``minor``."""

    def __init__(self) -> None:
        self._held: dict[Hashable, tuple[str, int]] = {}

    def frames(self, message: StateMessage, clients: Iterable) -> list[tuple[object, str]]:
        """Each of ``clients`` with the text of ``message`` it is to be sent; each is taken to hold
        the game as ``message`` leaves it from now on."""
        record = message.game
        texts: dict[int | None, str] = {}  # the version a client holds (None: not this game) -> text
        out = []
        for client in clients:
            held = self._held.pop(client, None)
            base = self._base(message, held) if self._mirrors(client, record) else None
            if base not in texts:
                texts[base] = self._text(message, base)
            out.append((client, texts[base]))
            if record is not None and self._mirrors(client, record):
                self._held[client] = (record.game_id, message.version)
        return out

    @staticmethod
    def _mirrors(client, record) -> bool:
        """Whether ``client`` is sent moves instead of the whole game: from revision 2, and for a
        timed game from revision 4 (with each move's time spent)."""
        timed = record is not None and record.clock is not None
        return client.minor >= (CLOCKS if timed else MIRRORS)

    def forget(self, client: Hashable) -> None:
        """``client`` holds nothing of the game any more (it left; its next connection is new)."""
        self._held.pop(client, None)

    @staticmethod
    def _base(message: StateMessage, held: tuple[str, int] | None) -> int | None:
        """The version a client holding ``held`` can go on from to ``message``'s: the same game at
        the same version, or at the one before when ``message`` tells a move; else None."""
        record = message.game
        if record is None or held is None or held[0] != record.game_id:
            return None
        if held[1] == message.version:
            return held[1]
        if held[1] == message.version - 1 and message.change == "move" and message.move is not None:
            return held[1]
        return None

    @staticmethod
    def _text(message: StateMessage, base: int | None) -> str:
        if base is None:
            return message.to_json()
        record = message.game
        moves = () if base == message.version else (message.move,)
        spent = None if record.clock is None else record.spent_ms[len(record.spent_ms) - len(moves) :]
        since = Since(record.game_id, base, moves, record.updated, spent)
        return replace(message, game=None, since=since).to_json()
