"""The ways a game in progress ends before its board is full: a person resigns, a seat drops out
(a clock, a claim), the two players agree a draw, or the game is aborted before it began.

``Endings`` is part of ``GameSession`` (kept apart to keep each file readable); the rules stay in
the engine (``GameState.drop`` and ``GameState.end``): this says who at this terminal may ask.
"""

from __future__ import annotations

from collections.abc import Collection

from sos_tui.engine import EndingError, GameState, SeatKind, Termination
from sos_tui.engine.text import Phrase
from sos_tui.i18n import N_

from .change import Change, ChangeKind

_RESIGN = Phrase("resign")
_OFFER = Phrase("offer a draw")


class Endings:
    """What ``GameSession`` adds for resigning, dropping out, aborting and draw offers. It uses the
    session's ``state``, ``seats``, ``people`` (the seats of people here), ``_draw_possible``, its
    timeline and ``_changed``."""

    @property
    def draw_offer(self) -> int | None:
        """The seat whose draw offer waits for an answer, or None."""
        return self._draw_offer

    @property
    def can_abort(self) -> bool:
        """The game runs and some person (here, or elsewhere in a network game) has not moved yet."""
        state = self.state
        persons = {i for i, seat in enumerate(self.seats) if seat.kind is not SeatKind.COMPUTER}
        return not state.is_over and not persons <= set(state.movers)

    # -- resign, drop, abort, draw ----------------------------------------------------------
    def _person_here(self, seat, doing: str, by: Collection[int] | None = None) -> int:
        """``seat`` if a person here plays it (``by``, when given: the seats of whoever asks, as a
        server's room says) and it is still in; EndingError saying why not."""
        state = self.state
        if state.is_over:
            raise EndingError(N_("the game is already over"))
        if type(seat) is not int or not 0 <= seat < len(self.seats):
            raise EndingError(N_("{seat!r} is not a seat of this game"), seat=seat)
        name = self.seats[seat].name
        if seat not in (self.people if by is None else by):
            raise EndingError(N_("{name} is not played at this terminal: only its player may {doing}"),
                              name=name, doing=doing)
        if state.is_out(seat):
            raise EndingError(N_("{name} is already out of the game"), name=name)
        return seat

    def resign(self, seat: int, by: Collection[int] | None = None) -> Change:
        """The person at ``seat`` resigns (see ``drop``). EndingError for a seat no person here
        plays (a computer, a player elsewhere; ``by``: the seats of whoever asks), a seat already
        out, or a game over."""
        return self.drop(self._person_here(seat, _RESIGN, by), Termination.RESIGN)

    def drop(self, seat: int, why: Termination | str) -> Change:
        """``seat`` drops out (resign, time, abandon): with two players still in the other wins,
        with more the game goes on without it (``GameState.drop``). Not taken back by undo."""
        new = self.state.drop(seat, why)  # raises EndingError, and nothing changed
        return self._ended(new, ChangeKind.DROP, seat)

    def abort(self) -> Change:
        """End the game with no result, allowed only before every person here has moved
        (EndingError after). An aborted game goes into no history."""
        if self.state.is_over:
            raise EndingError(N_("the game is already over"))
        if not self.can_abort:
            raise EndingError(N_("too late to abort: every player has moved; resign instead"))
        return self._ended(self.state.end(Termination.ABORT), ChangeKind.END)

    def offer_draw(self, seat: int, by: Collection[int] | None = None) -> Change:
        """The person at ``seat`` offers a draw to the other player still in (two players only;
        ``by`` as for ``resign``). EndingError when not possible now."""
        seat = self._person_here(seat, _OFFER, by)
        if len(self.state.still_in) != 2:
            raise EndingError(N_("a draw can be agreed by two players only, not {count}"),
                              count=len(self.state.still_in))
        if not self._draw_possible():
            raise EndingError(N_("the computer plays on: it does not take draw offers"))
        if self._draw_offer is not None:
            raise EndingError(N_("a draw offer already waits for an answer"))
        self._draw_offer = seat
        return self._changed(ChangeKind.DRAW_OFFER, seat=seat)

    def _answering(self, seat: int) -> int:
        offer = self._draw_offer
        if offer is None:
            raise EndingError(N_("nobody offered a draw"))
        if seat == offer or self.state.is_out(seat):
            raise EndingError(N_("only the other player answers a draw offer"))
        return offer

    def accept_draw(self, seat: int) -> Change:
        """``seat``, the other player, accepts the offer: the game ends drawn by agreement."""
        self._answering(seat)
        self._draw_offer = None
        return self._ended(self.state.end(Termination.AGREEMENT), ChangeKind.END)

    def decline_draw(self, seat: int) -> Change:
        """``seat``, the other player, declines the offer; the game goes on."""
        self._answering(seat)
        return self._decline_draw()

    def _decline_draw(self) -> Change | None:
        offer, self._draw_offer = self._draw_offer, None
        return None if offer is None else self._changed(ChangeKind.DRAW_DECLINED, seat=offer)

    def _ended(self, new: GameState, kind: ChangeKind, seat: int | None = None) -> Change:
        """``new`` (a drop or an end) in place of the current state: the redo states after it
        are dropped, and undo no longer goes back past it."""
        self._draw_offer = None
        del self._timeline[self._position:]
        self._timeline.append(new)
        self._floor = self._position
        self._clocks_follow()  # a seat out stops its time; the next seat's runs, or none once over
        return self._changed(kind, seat=seat)

