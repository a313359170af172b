"""``sos-tui engine``: one of our levels speaking the SOS engine protocol on standard input and
output, so that other programs (GUIs, arenas, servers) can play against it.

A line outside the protocol is answered with ``info string error: ...`` saying (in English, to a
program) what is wrong, and skipped: the program on the other side is told, and the engine goes
on; a ``go`` after a refused ``position`` gets such a line instead of a move. ``go`` before ``newgame`` plays
on the default game (6x6, general, two players), as the protocol says.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from sos_tui import __version__
from sos_tui.engine import GameState, Mode

from ..players import ComputerPlayer
from .protocol import (
    BestMove,
    Go,
    Id,
    Info,
    IsReady,
    NewGame,
    Position,
    ProtocolError,
    Quit,
    ReadyOk,
    Sos,
    SosOk,
    parse_command,
)

THINKING_SHARE = 0.6
"""Of go's movetime, the part the level may think: the rest is for the answer to travel."""


def serve(level: str, lines: Iterable[str], say: Callable[[str], None], seed: int = 0) -> None:
    """Answer each of ``lines`` (the GUI's) with ``say(line)`` until ``quit`` or their end."""
    game, state = NewGame(6, Mode.GENERAL, 2), GameState.new()
    for line in lines:
        if not line.strip():
            continue
        try:
            command = parse_command(line)
            if isinstance(command, Sos):
                say(str(Id("name", f"sos-tui {level}")))
                say(str(Id("author", f"sos-tui {__version__}")))
                say(str(SosOk()))
            elif isinstance(command, IsReady):
                say(str(ReadyOk()))
            elif isinstance(command, NewGame):
                game, state = command, GameState.new(command.size, command.mode, command.players)
            elif isinstance(command, Position):
                state = None  # until the moves are read: a bad position is no position
                state = GameState.from_moves(command.moves, game.size, game.mode, game.players)
            elif isinstance(command, Go):
                if state is None:
                    raise ValueError("no position to move in: the last position was refused")
                player = ComputerPlayer(level, seed, command.movetime / 1000 * THINKING_SHARE)
                say(str(BestMove(player.choose_move(state))))
            elif isinstance(command, Quit):
                return
        except (ProtocolError, ValueError) as error:
            say(str(Info("string error: " + " ".join(str(error).split()))))  # to a program: English
