"""The tokens that hold a room's seats, kept only as hashes (``protocol.token_hash``)."""

from __future__ import annotations

from typing import Protocol

from sos_tui.engine import SeatKind

from .protocol import new_token, token_hash


class Seated(Protocol):
    """What the keys need of their room (``room.Room``)."""

    seats: list  # each ``room.RoomSeat``: its ``seat`` and ``token_hash``


class SeatKeys:
    """Which seats of ``table`` each token holds (``held``: by the token's hash; a token may hold
    several), and ``owner``, the token of the room's own seats, known only to the process that
    made it (or brought it back: ``host_token``)."""

    def __init__(self, table: Seated) -> None:
        self.table = table
        self.held: dict[str, tuple[int, ...]] = {}
        self.owner: str | None = None
        if self.own_seats:
            self._give_own_seats(new_token())

    @property
    def own_seats(self) -> tuple[int, ...]:
        """The creator's seats (of kind ``human``), played where the room was made."""
        return tuple(i for i, s in enumerate(self.table.seats) if s.seat.kind is SeatKind.HUMAN)

    def seats_of(self, token: str | None) -> tuple[int, ...]:
        """The seats ``token`` holds (none for None or a token nobody holds)."""
        return self.held.get(token_hash(token), ()) if token is not None else ()

    def give(self, index: int) -> str:
        """A new token for the seat ``index`` (taken by name): the token."""
        token = new_token()
        seat = self.table.seats[index]
        seat.token_hash = token_hash(token)
        self.held[seat.token_hash] = (index,)
        return token

    def _give_own_seats(self, token: str) -> None:
        self.owner = token
        for i in self.own_seats:
            self.table.seats[i].token_hash = token_hash(token)
        self.index()

    def index(self) -> None:
        """``held`` from the seats' token hashes (after the seats moved, or came back from the store)."""
        self.held = {}
        for i, seat in enumerate(self.table.seats):
            if seat.token_hash is not None:
                self.held[seat.token_hash] = (*self.held.get(seat.token_hash, ()), i)

    def host_token(self, kept: str | None) -> str | None:
        """For the process that hosts this room (brought back after a restart, say): the token of
        its own seats. The one it made, else ``kept`` (the one it kept) if that holds exactly
        them still, else a new one that does (one lost, or another's kept in its place, then
        holds nothing). None if the room has no seats of its own."""
        if self.owner is None and self.own_seats:
            if kept is not None and self.seats_of(kept) == self.own_seats:
                self.owner = kept
            else:
                self._give_own_seats(new_token())
        return self.owner
