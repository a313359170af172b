"""A network game ended before its board is full: a seated person resigns, aborts it before every
person has moved, offers a draw or answers one, or claims a person whose connection has been gone
longer than ``Limits.claim_after``. The rules are the session's (``session.Endings``) and the
engine's; this says which of the sender's seats asks, maps a refusal to its code on the wire, and
keeps since when each person's seat has had no connection (``gone``)."""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Callable
from typing import Protocol

from sos_tui.engine import EndingError, Termination
from sos_tui.i18n import N_, _
from sos_tui.session import Change, ChangeKind, GameSession

from .errors import ProtocolError
from .limits import Limits
from .member import Member
from .protocol import (
    AbortMessage,
    ClaimMessage,
    DrawAnswerMessage,
    DrawMessage,
    GoneSeat,
    ResignMessage,
    check_ready,
)


class Table(Protocol):
    """What the endings need of their room (``room.Room``)."""

    seats: list  # each ``room.RoomSeat``
    session: GameSession | None
    votes: object  # ``votes.Votes``: the undo asked is settled when the game ends otherwise

    def names(self, seats) -> str: ...

    def log(self, text: str) -> None: ...


class RoomEndings:
    """Resign, abort, draws and claims in one room; ``clock`` is where the time comes from (a test
    may give its own)."""

    def __init__(self, table: Table, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.table, self.limits, self.clock = table, limits, clock
        self._gone: dict[int, float] = {}  # seat -> when its connection went

    # -- who has gone ---------------------------------------------------------------------------
    def left(self, seats) -> None:
        """The connection of the people at ``seats`` went."""
        now = self.clock()
        for seat in seats:
            self._gone.setdefault(seat, now)

    def back(self, seats) -> None:
        for seat in seats:
            self._gone.pop(seat, None)

    def moved(self) -> None:
        """The seats were renumbered (a rematch): who is gone is known again as they come back."""
        self._gone.clear()

    def gone(self) -> tuple[GoneSeat, ...]:
        """The seats still in of people with no connection, in a game under way."""
        session = self.table.session
        if session is None or session.state.is_over:
            return ()
        now, after = self.clock(), self.limits.claim_after
        return tuple(
            GoneSeat(seat, now - since, max(0.0, since + after - now))
            for seat, since in sorted(self._gone.items())
            if self.table.seats[seat].client is None and not session.state.is_out(seat)
        )

    def changed(self, change: Change) -> None:
        """After every change of the game: a seat dropped out of a game that goes on is logged; a
        game ended otherwise than by a move settles the undo being asked."""
        if change.kind is ChangeKind.DROP and not change.finished:
            self.table.log(change.record.ending_text(change.state, _))
        if change.state.is_over and change.kind is not ChangeKind.MOVE:
            self.table.votes.done(False, N_("the game is over"), counts=False)

    # -- what a seated person asks ----------------------------------------------------------------
    def handle(self, client: Member, message) -> None:
        """A ``resign``, ``abort``, ``draw``, ``draw-answer`` or ``claim`` from ``client``;
        ProtocolError to refuse."""
        match message:
            case ResignMessage(seat=seat):
                self.resign(client, seat)
            case AbortMessage():
                self.abort(client)
            case DrawMessage():
                self.offer_draw(client)
            case DrawAnswerMessage(accept=accept):
                self.answer_draw(client, accept)
            case ClaimMessage():
                self.claim(client)

    def _running(self, client: Member, refused: str) -> GameSession:
        """The session of a game under way, for a client holding a seat (``refused``: what a
        spectator is told)."""
        if not client.seats:
            raise ProtocolError("spectator", refused)
        session = self.table.session
        check_ready(session is None, ())
        if session.state.is_over:
            raise ProtocolError("over", N_("the game is already over"))
        return session

    @staticmethod
    def _seat(session: GameSession, client: Member, asked: int | None) -> int:
        """Which of the client's seats acts: ``asked``, else its seat to move, else its one seat
        still in (else its first: the session says why it cannot)."""
        if asked is not None:
            if asked not in client.seats:
                raise ProtocolError("bad-message", N_("seat {number} is not yours"), number=asked + 1)
            return asked
        state = session.state
        if state.to_move in client.seats:
            return state.to_move
        mine = [seat for seat in client.seats if not state.is_out(seat)]
        return mine[0] if len(mine) == 1 else client.seats[0]

    def resign(self, client: Member, seat: int | None) -> None:
        session = self._running(client, N_("spectators cannot resign"))
        with _refused("cannot-resign"):
            session.resign(self._seat(session, client, seat), by=client.seats)

    def abort(self, client: Member) -> None:
        session = self._running(client, N_("spectators cannot abort a game"))
        with _refused("too-late"):
            session.abort()

    def offer_draw(self, client: Member) -> None:
        session = self._running(client, N_("spectators cannot offer a draw"))
        with _refused("cannot-draw"):
            session.offer_draw(self._seat(session, client, None), by=client.seats)

    def answer_draw(self, client: Member, accept: bool) -> None:
        session = self._running(client, N_("spectators cannot answer a draw offer"))
        offer = session.draw_offer
        mine = [seat for seat in client.seats if seat != offer and not session.state.is_out(seat)]
        with _refused("no-draw"):
            seat = mine[0] if mine else client.seats[0]
            session.accept_draw(seat) if accept else session.decline_draw(seat)

    def claim(self, client: Member) -> None:
        """Drop every other person gone at least ``claim_after`` seconds (ABANDON): with two
        players still in, the claimer wins."""
        session = self._running(client, N_("spectators cannot claim"))
        if all(session.state.is_out(seat) for seat in client.seats):
            raise ProtocolError("cannot-claim", N_("you are out of this game"))
        gone = [g for g in self.gone() if g.seat not in client.seats]
        due = [g.seat for g in gone if g.claim_in <= 0]
        if not due:
            if not gone:
                raise ProtocolError("cannot-claim", N_("nobody has gone: every player is connected"))
            raise ProtocolError(
                "cannot-claim",
                N_("{names} may be claimed in {seconds} s"),
                names=self.table.names([g.seat for g in gone]),
                seconds=math.ceil(min(g.claim_in for g in gone)),
            )
        for seat in due:
            if not session.state.is_over:
                session.drop(seat, Termination.ABANDON)


@contextlib.contextmanager
def _refused(code: str):
    """The session's EndingError as a refusal with ``code``."""
    try:
        yield
    except EndingError as error:
        raise ProtocolError.wrap(code, error) from None
