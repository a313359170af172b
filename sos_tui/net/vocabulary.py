"""The network's words, as types: what ``phase`` a room is in, what ``change`` a state message
reports, what a vote is about. Each is a ``StrEnum`` whose values are the wire strings (docs/
protocol.md), so a member compares equal to the text a message carries and is written as it."""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """Where a room's game stands."""

    LOBBY = "lobby"  # waiting for its seats to be taken
    PLAYING = "playing"
    OVER = "over"

    @classmethod
    def read(cls, text: str) -> Phase:
        """The phase a message names; a word this client does not know is read as ``PLAYING``."""
        try:
            return cls(text)
        except ValueError:
            return cls.PLAYING


class StateChange(StrEnum):
    """What a state message reports happened to the room."""

    START = "start"
    MOVE = "move"
    UNDO = "undo"
    JOIN = "join"
    LEAVE = "leave"  # the connection went
    QUIT = "quit"  # left on purpose
    REMATCH = "rematch"
    NONE = ""  # a newer server's change this client does not know, or none given

    @classmethod
    def read(cls, text: str) -> StateChange:
        try:
            return cls(text)
        except ValueError:
            return cls.NONE


class VoteKind(StrEnum):
    """What the seated players are asked to agree to."""

    UNDO = "undo"
    REMATCH = "rematch"
