"""A room's computer seats: played through the server's pool (``session.computer_move``), one
move at a time, while nobody at the table is missing."""

from __future__ import annotations

import asyncio
from typing import Protocol

from sos_tui.i18n import N_, _, explain
from sos_tui.session import ComputerPool, GameSession, computer_move
from sos_tui.session.computer import ComputerStopped

from .member import Member
from .protocol import ErrorMessage


class Desk(Protocol):
    """What the computer seats need of their room (``room.Room``)."""

    session: GameSession | None
    closed: bool
    clients: set[Member]
    waiting_for: list[str]

    def log(self, text: str) -> None: ...


class Players(Protocol):
    """Who plays the computer seats (``server.Server``)."""

    computer: ComputerPool
    computer_delay: float  # the shortest a computer move takes


class ComputerTurns:
    """Plays the computer seats of ``desk`` through ``players``: ``turn`` after every change,
    ``stop`` when the game must wait (a seat left, an undo, the room stops)."""

    def __init__(self, desk: Desk, players: Players) -> None:
        self.desk, self.players = desk, players
        self._task: asyncio.Task | None = None

    def turn(self) -> None:
        """A computer seat to move: it starts thinking (unless it already is)."""
        desk = self.desk
        session = desk.session
        if session is None or desk.closed or desk.waiting_for or session.computer_level is None:
            return
        if self._task is None or self._task.done():
            self._task = asyncio.ensure_future(self._think(session))

    async def _think(self, session: GameSession) -> None:
        desk = self.desk
        name = session.seat_to_move.name
        try:
            move = await computer_move(session, self.players.computer, self.players.computer_delay)
        except Exception as problem:  # the computer could not move: say so, the room lives on
            desk.log(_("{name} could not move: {error}").format(name=name, error=explain(problem)))
            if isinstance(problem, ComputerStopped):
                message = ErrorMessage.of(
                    "computer", N_("the computer could not move: its process stopped twice in a row"))
            else:
                message = ErrorMessage.of("computer", "the computer could not move: {error}",
                                          error=str(problem))
            for c in list(desk.clients):
                c.send(message)
            return
        self._task = None
        if move is not None and not desk.closed and not desk.waiting_for:
            session.play_computer(move, session.version)

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None
