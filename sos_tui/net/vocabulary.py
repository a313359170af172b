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
    DROP = "drop"  # a seat dropped out (resigned, ran out of time, or claimed when gone): ``seat``
    END = "end"  # ended by hand: a draw agreed, or aborted (the game's ``termination`` says which)
    DRAW_OFFER = "draw_offer"  # ``seat`` offers a draw
    DRAW_DECLINED = "draw_declined"  # the draw offer of ``seat`` was declined (an answer, or a move)
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


class CloseReason(StrEnum):
    """Why a server closes a connection, as the WebSocket close reason (revision 3): a word, which
    the client says in its player's language."""

    REPLACED = "replaced"  # 4000: the seat was taken up by a new connection with its token
    SERVER_ERROR = "server-error"  # 1011
    NOT_READING = "not-reading"  # 1008: it let the server's messages pile up unread
    NOT_KEPT = "not-kept"  # 1012: the game's last change could not be kept; come back
    RESTARTING = "restarting"  # 1012: the server stops to be started again; come back
    MOVED = "moved"  # 1012: another process of the service runs the game now; come back
    ELSEWHERE = "elsewhere"  # 4005, after a ``moved`` message (revision 7): go to the address it gives
    ROOM_CLOSED = "room-closed"  # 1001, after a ``closed`` message
    REFUSED = "refused"  # after an ``error`` message that refuses the connection
    LISTED = "listed"  # 1000, after ``rooms``
    CREATED = "created"  # 1000, after ``created``
    LOOKED = "looked"  # 1000, after the ``welcome`` and ``state`` that answer a ``peek``

    @classmethod
    def read(cls, text: str | None) -> CloseReason | None:
        """The word ``text`` is, or None (an older server's sentence, nothing, anything else)."""
        try:
            return cls(text)
        except ValueError:
            return None
