"""Undo and rematch by agreement: one question at a time in a room, asked by a seat of the others
at the table, settled when every one of them accepts, one declines, a move is played, someone
asked leaves, or nobody answers in time (``Limits.undo_timeout``)."""

from __future__ import annotations

import asyncio
import math
import time
from dataclasses import dataclass, field
from typing import Protocol

from sos_tui.i18n import N_, _
from sos_tui.session import GameSession

from .errors import ProtocolError
from .limits import Limits
from .member import Member
from .protocol import RematchRequestMessage, RematchResultMessage, UndoRequestMessage, UndoResultMessage
from .vocabulary import Phase, VoteKind


class Table(Protocol):
    """What the votes need of their room (``room.Room``)."""

    seats: list  # each ``room.RoomSeat``: its ``seat`` and ``token_hash``
    clients: set[Member]
    phase: Phase

    def log(self, text: str) -> None: ...

    def names(self, seats) -> str:
        """The names of ``seats``, for a line of the log or a message."""

    def playing_seat(self, client: Member, refused: str) -> GameSession:
        """The session, for a client holding a seat (``refused`` said to a spectator)."""

    def agreed(self, what: VoteKind) -> None:
        """Everyone agreed: undo the last move, or play again."""


@dataclass(eq=False)
class Vote:
    """An undo (during a game) or a rematch (after it) asked by seat ``by``: the seats asked to
    answer (``voters``), those that accepted, and the timer that declines it when nobody answers
    in time."""

    what: VoteKind
    by: int
    voters: set[int]
    timer: asyncio.TimerHandle
    accepted: set[int] = field(default_factory=set)


_VOTE_MESSAGES = {VoteKind.UNDO: (UndoRequestMessage, UndoResultMessage),
                  VoteKind.REMATCH: (RematchRequestMessage, RematchResultMessage)}
_VOTE_LOG = {
    VoteKind.UNDO: (N_("{name} asks to undo"), N_("undo accepted: {reason}"), N_("undo declined: {reason}")),
    VoteKind.REMATCH: (N_("{name} offers a rematch"), N_("rematch accepted: {reason}"),
                       N_("rematch declined: {reason}")),
}


class Votes:
    """The question being asked at ``table`` (``vote``), and when each seat's undo was last declined."""

    def __init__(self, table: Table, limits: Limits) -> None:
        self.table, self.limits = table, limits
        self.vote: Vote | None = None
        self.undo_declined: dict[int, float] = {}  # seat -> when its undo was last declined

    def ask_undo(self, client: Member) -> None:
        session = self.table.playing_seat(client, N_("spectators cannot ask to undo"))
        if not session.can_undo:
            raise ProtocolError("cannot-undo", N_("there is nothing to undo"))
        wait = self.undo_declined.get(client.seats[0], -math.inf) + self.limits.undo_cooldown \
            - time.monotonic()
        if wait > 0:
            raise ProtocolError("cannot-undo", N_("your undo was declined: ask again in {seconds} s"),
                                seconds=math.ceil(wait))
        out = {i for i in range(len(self.table.seats)) if session.state.is_out(i)}
        self._ask(client, VoteKind.UNDO, out)

    def ask_rematch(self, client: Member) -> None:
        """A rematch offered (or, with one offered by another seat, agreed to)."""
        if not client.seats:
            raise ProtocolError("spectator", N_("spectators cannot offer a rematch"))
        if self.table.phase is not Phase.OVER:
            raise ProtocolError("not-over", N_("a rematch is for a game that is over"))
        vote = self.vote
        if vote is not None and vote.what is VoteKind.REMATCH and set(client.seats) & vote.voters:
            self.answer(client, VoteKind.REMATCH, True)
            return
        self._ask(client, VoteKind.REMATCH)

    def _ask(self, client: Member, what: VoteKind, out: set[int] = frozenset()) -> None:
        """Seat ``client.seats[0]`` asks the other people at the table (but the seats ``out`` of
        the game: an undo is not theirs to answer); with none, it happens."""
        table = self.table
        if self.vote is not None:
            asking = self.vote.what is VoteKind.UNDO
            raise ProtocolError("undo-pending", N_("an undo is already being asked") if asking
                                else N_("a rematch is already being asked"))
        by = client.seats[0]
        mine = table.seats[by].token_hash
        voters = {i for i, s in enumerate(table.seats)
                  if s.seat.person and s.token_hash != mine and i not in out}
        asked, _accepted, _declined = _VOTE_LOG[what]
        table.log(_(asked).format(name=table.seats[by].seat.name))
        if not voters:
            table.agreed(what)
            return
        timer = asyncio.get_running_loop().call_later(self.limits.undo_timeout, self.done,
                                                      False, N_("nobody answered in time"))
        self.vote = Vote(what, by, voters, timer)
        request = _VOTE_MESSAGES[what][0]
        for c in list(table.clients):
            c.send(request(by, table.seats[by].seat.name, bool(set(c.seats) & voters)))

    def answer(self, client: Member, what: VoteKind, accept: bool) -> None:
        vote = self.vote
        if vote is None or vote.what != what:
            raise ProtocolError("no-undo", N_("no undo is being asked") if what is VoteKind.UNDO
                                else N_("no rematch is being asked"))
        mine = set(client.seats) & vote.voters
        if not mine:
            raise ProtocolError("no-undo", N_("this question is not yours to answer"))
        if not accept:
            self.done(False, N_("{names} declined"), names=self.table.names(sorted(mine)))
            return
        vote.accepted |= mine
        if vote.accepted >= vote.voters:
            self.done(True, N_("everyone agreed"))

    def left(self, seats: tuple[int, ...]) -> None:
        """The person at ``seats`` left: a question they asked or were asked is declined."""
        vote = self.vote
        if vote is not None and set(seats) & (vote.voters | {vote.by}):
            self.done(False, N_("{names} left"), names=self.table.names(seats))

    def done(self, accepted: bool, why: str, counts: bool = True, **params) -> None:
        """Settle the question asked, if any; ``why`` (a template of SERVER_MESSAGES, with
        ``params``) says why. An undo declined ``counts`` against asking again soon, unless a move
        settled it."""
        vote, self.vote = self.vote, None
        if vote is None:
            return
        vote.timer.cancel()
        if vote.what is VoteKind.UNDO and not accepted and counts:
            self.undo_declined[vote.by] = time.monotonic()
        _asked, yes, no = _VOTE_LOG[vote.what]
        table = self.table
        table.log(_(yes if accepted else no).format(reason=_(why).format(**params)))
        result = _VOTE_MESSAGES[vote.what][1].of(accepted, why, **params)
        for c in list(table.clients):
            c.send(result)
        if accepted:
            table.agreed(vote.what)

    def drop(self) -> None:
        """Forget the question asked, telling nobody (the room stops)."""
        if self.vote is not None:
            self.vote.timer.cancel()
            self.vote = None
