"""What a terminal at a network game may do now (``may``), and the early endings it sends (resign,
abort, draw offers and claims, protocol revision 4): ``RemoteGame``'s part for them. The rules stay
the server's; this only says what to offer."""

from __future__ import annotations

import time
from dataclasses import dataclass

from .protocol import AbortMessage, ClaimMessage, DrawAnswerMessage, DrawMessage, ResignMessage
from .vocabulary import Phase

ENDINGS = ("resign", "abort", "offer_draw")
"""The ``may`` actions that end a game early (``claim`` is asked apart: it needs someone gone)."""


@dataclass(frozen=True)
class Away:
    """A person's seat with no connection, in this terminal's clock (``time.monotonic``): gone
    ``since``, and claimable by the others from ``claim_at``."""

    seat: int
    since: float
    claim_at: float

    def claimable(self, now: float | None = None) -> bool:
        return (time.monotonic() if now is None else now) >= self.claim_at

    def gone_for(self, now: float | None = None) -> str:
        """How long it has been gone, as minutes and seconds: ``1:05``."""
        seconds = max(0, int((time.monotonic() if now is None else now) - self.since))
        return f"{seconds // 60}:{seconds % 60:02d}"


class TableEndings:
    """Mixed into ``RemoteGame``: what this terminal may do now (``may``), and the endings it
    sends; from its ``state``, ``phase``, ``my_seats``, ``seat_views``, ``clocks``, ``away``,
    ``draw_offer``, ``connected``, ``my_turn`` and ``_send``."""

    def may(self, action: str) -> bool | None:
        """What this terminal may do in the room now (``session.Action``): moves and undo
        requests for a seated player, a rematch once the game is over; no redo, hint, pause or
        replay in a network game, and no undo in a timed one (False: not offered at all)."""
        seated = bool(self.my_seats)
        if action == "move":
            return (self.connected and self.my_turn) or None if seated else False
        if action == "undo":
            return self.connected or None if seated and self.clocks is None else False
        if action == "rematch":  # offered once the game is over (the game-over dialog, the palette)
            return seated and self.connected and self.phase == Phase.OVER
        if action in ENDINGS:
            return (self.connected and self._may_end(action)) or None if seated else False
        if action == "claim":  # offered only while someone may be claimed
            return seated and self.connected and self.under_way and self.in_game and bool(self.claimable)
        return False

    @property
    def under_way(self) -> bool:
        return self.phase == Phase.PLAYING and self.state is not None and not self.state.is_over

    @property
    def in_game(self) -> bool:
        """This terminal holds a seat still in the game."""
        return any(not self.state.is_out(seat) for seat in self.my_seats) if self.state else False

    @property
    def person_seat(self) -> int | None:
        """The seat this terminal resigns or offers a draw for now: its seat to move, else its one
        seat still in; None otherwise (no game under way, or several seats here wait)."""
        if not self.under_way:
            return None
        mine = [seat for seat in self.my_seats if not self.state.is_out(seat)]
        if self.state.to_move in mine:
            return self.state.to_move
        return mine[0] if len(mine) == 1 else None

    @property
    def claimable(self) -> tuple[Away, ...]:
        """The others gone long enough to be claimed now."""
        now = time.monotonic()
        return tuple(a for a in self.away if a.claimable(now) and a.seat not in self.my_seats)

    def _may_end(self, action: str) -> bool:
        """Resign, abort or offer a draw now, as far as this terminal can tell (the server decides)."""
        state = self.state
        if not self.under_way or not self.in_game:
            return False
        if action == "resign":
            return True
        people = {i for i, view in enumerate(self.seat_views) if not view.seat.is_computer}
        if action == "abort":
            return not people <= set(state.movers)
        return len(state.still_in) == 2 and set(state.still_in) <= people and self.draw_offer is None

    async def resign(self, seat: int | None = None) -> None:
        """Resign ``seat`` (None: this terminal's seat to move, or its one seat still in)."""
        await self._send(ResignMessage(seat))

    async def abort(self) -> None:
        """End the game with no result (before every person has moved)."""
        await self._send(AbortMessage())

    async def offer_draw(self) -> None:
        await self._send(DrawMessage())

    async def answer_draw(self, accept: bool) -> None:
        await self._send(DrawAnswerMessage(accept))

    async def claim(self) -> None:
        """Claim the players gone longer than the server allows (``claimable``)."""
        await self._send(ClaimMessage())
