"""How a game of SOS ended: on the board, by a seat dropping out, or ended by hand.

The values that say how a game ended (``Termination``, ``Drop``, ``Ending``, ``Outcome``) and the
rules of it (``EndingRules``, which ``GameState`` in ``rules`` inherits: ``drop``, ``end``, who is
still in, who won, the outcome). Like ``rules``, nothing here does I/O or imports the rest of the package.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple, Self

from .text import RuleError


class EndingError(RuleError):
    """A drop or an end the rules do not allow now: the game is over, the seat is out or is no
    seat, a draw by agreement with more than two players still in."""


class Termination(StrEnum):
    """How a game ended (the strings are those of game files and the protocol): ``normal`` (the
    board filled, or the first SOS of a simple game), ``resign``, ``time`` (a clock ran out),
    ``abandon`` (a player left and the others claimed), ``agreement`` (a draw agreed) or ``abort``
    (ended before it began: no result)."""

    NORMAL = "normal"
    RESIGN = "resign"
    TIME = "time"
    ABANDON = "abandon"
    AGREEMENT = "agreement"
    ABORT = "abort"


DROPS = (Termination.RESIGN, Termination.TIME, Termination.ABANDON)
"""Why a seat can drop out of a game."""


class Drop(NamedTuple):
    """A seat that dropped out: ``seat``, ``why`` (resign, time or abandon), and ``after`` how many
    moves of the game."""

    seat: int
    why: Termination
    after: int


class Ending(NamedTuple):
    """What a state holds beyond its moves once a seat drops out or the game is ended by hand:
    the drops in order, and the termination that ended the game (None while it runs)."""

    drops: tuple[Drop, ...] = ()
    termination: Termination | None = None

    @property
    def out(self) -> frozenset[int]:
        return frozenset(drop.seat for drop in self.drops)


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended: the final scores, the player(s) who won (sharing the top score
    among the seats still in, or the one left when the other dropped out), the termination and
    the seats that dropped out, in order. An aborted game has no result: no winner, no loser.

    >>> outcome = Outcome(scores=(3, 1, 3), winners=(0, 2))
    >>> outcome.is_draw, outcome.winner, outcome.result_for(1), outcome.margin(0), outcome.places
    (True, None, 'loss', 0, (1, 3, 1))
    >>> Outcome((0, 5), (0,), Termination.RESIGN, dropped=(1,)).places
    (1, 2)
    """

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    termination: Termination = Termination.NORMAL
    dropped: tuple[int, ...] = ()  # the seats that dropped out, in order

    @property
    def has_result(self) -> bool:
        """False for an aborted game: nobody won or lost."""
        return self.termination is not Termination.ABORT

    @property
    def places(self) -> tuple[int, ...]:
        """Each seat's final place (1 = first; equal places for a tie); ``()`` without a result.
        The seats still in come first, by score when the game ran to its end, all winners first
        otherwise; the seats that dropped out come last, an earlier drop below a later one."""
        if not self.has_result:
            return ()
        dropped, winners, scores = self.dropped, self.winners, self.scores
        by_score = self.termination is Termination.NORMAL

        def rank(seat: int) -> tuple[bool, int]:
            return seat in winners, scores[seat] if by_score else 0

        still_in = [seat for seat in range(len(scores)) if seat not in dropped]
        places = {seat: 1 + sum(rank(other) > rank(seat) for other in still_in) for seat in still_in}
        for later, seat in enumerate(reversed(dropped)):
            places[seat] = len(still_in) + later + 1
        return tuple(places[seat] for seat in range(len(scores)))

    @property
    def is_draw(self) -> bool:
        return len(self.winners) > 1

    @property
    def winner(self) -> int | None:
        """The one winner, or None for a draw."""
        return self.winners[0] if len(self.winners) == 1 else None

    def result_for(self, player: int) -> str:
        """``"win"``, ``"draw"`` or ``"loss"``, from ``player``'s side; ``"none"`` when aborted."""
        if not self.has_result:
            return "none"
        if player not in self.winners:
            return "loss"
        return "draw" if self.is_draw else "win"

    def margin(self, player: int) -> int:
        """``player``'s score minus the best other score (negative when behind)."""
        others = [s for i, s in enumerate(self.scores) if i != player]
        return self.scores[player] - max(others)


class EndingRules:
    """The rules of a game's end, for ``GameState`` (which inherits them): the outcome, the
    termination, the seats that dropped out or are still in, the winners, ``drop``, ``end``, and
    ``play`` once a seat has dropped out. Reads the fields of ``rules._Position`` by name."""

    __slots__ = ()

    # -- how it ended ---------------------------------------------------------------------
    @property
    def outcome(self) -> Outcome | None:
        """None while the game runs; then the final scores, winners, termination and drops."""
        if not self.is_over:
            return None
        ending = self.ending
        if ending is None:
            return Outcome(self.scores, self.winners)
        return Outcome(self.scores, self.winners, self.termination, tuple(d.seat for d in ending.drops))

    @property
    def termination(self) -> Termination | None:
        """How the game ended (``normal`` when it ran to its end); None while it runs."""
        if not self.is_over:
            return None
        ending = self.ending
        return Termination.NORMAL if ending is None or ending.termination is None else ending.termination

    @property
    def drops(self) -> tuple[Drop, ...]:
        """The seats that dropped out, in order."""
        ending = self.ending
        return () if ending is None else ending.drops

    @property
    def still_in(self) -> tuple[int, ...]:
        """The seats still playing (every seat, unless some dropped out)."""
        ending = self.ending
        players = range(self.game.players)
        if ending is None:
            return tuple(players)
        out = ending.out
        return tuple(p for p in players if p not in out)

    def is_out(self, player: int) -> bool:
        """Whether ``player`` dropped out."""
        ending = self.ending
        return ending is not None and player in ending.out

    @property
    def winners(self) -> tuple[int, ...]:
        """``()`` while the game runs; then the player(s) with the top score."""
        if not self.is_over:
            return ()
        scores = self.scores
        if self.ending is None:
            top = max(scores)
            return tuple(p for p, score in enumerate(scores) if score == top)
        termination = self.termination
        if termination is Termination.ABORT:
            return ()
        still_in = self.still_in
        if termination is not Termination.NORMAL:  # a drop left one seat, or a draw was agreed
            return still_in
        top = max(scores[p] for p in still_in)
        return tuple(p for p in still_in if scores[p] == top)

    @property
    def is_draw(self) -> bool:
        return len(self.winners) > 1

    # -- playing on without a seat --------------------------------------------------------
    def _play_among_still_in(self, move) -> Self:
        """``play`` once a seat has dropped out: the move as in an ordinary game, then the turn
        passed on to the next seat still in (a scoring move keeps it)."""
        ending = self.ending
        played = _make(type(self), (*self[:8], None, {})).play(move)
        to_move = played.to_move
        if to_move != self.to_move:
            to_move = self._next_still_in(self.to_move)
        if played.is_over:
            ending = ending._replace(termination=Termination.NORMAL)
        return _make(type(self), (*played[:2], to_move, *played[3:8], ending, {}))

    def _next_still_in(self, player: int) -> int:
        out, players = self.ending.out, self.game.players
        seat = (player + 1) % players
        while seat in out:
            seat = (seat + 1) % players
        return seat

    # -- ending it otherwise --------------------------------------------------------------
    def drop(self, player: int, why: Termination | str) -> Self:
        """The state after ``player`` drops out (``why``: resign, time or abandon). With two
        players still in, the game ends and the other one wins, whatever the score. With more,
        the player keeps the points scored, places last, and turns skip the seat from now on.
        Raises EndingError (and leaves this state as it was)."""
        if why not in DROPS:
            raise EndingError("a player drops out by resign, time or abandon, not {why!r}", why=str(why))
        why = Termination(why)
        self._check_running()
        players = self.game.players
        if type(player) is not int or not 0 <= player < players:
            raise EndingError("{player!r} is not a seat of this {players}-player game", player=player,
                              players=players)
        if self.is_out(player):
            raise EndingError("seat {number} is already out of the game", number=player + 1)
        ending = self.ending or Ending()
        ending = ending._replace(drops=ending.drops + (Drop(player, why, self.move_count),))
        over = len(self.still_in) == 2
        if over:
            ending = ending._replace(termination=why)
        fields = (*self[:7], over, ending, {})
        state = _make(type(self), fields)
        if not over and self.to_move == player:
            state = _make(type(self), (*fields[:2], state._next_still_in(player), *fields[3:]))
        return state

    def end(self, termination: Termination | str) -> Self:
        """The game ended by hand: ``agreement`` (a draw between the two players still in) or
        ``abort`` (no result). Raises EndingError."""
        if termination not in (Termination.AGREEMENT, Termination.ABORT):
            raise EndingError("a game is ended by hand by agreement or abort, not {termination!r}",
                              termination=str(termination))
        termination = Termination(termination)
        self._check_running()
        if termination is Termination.AGREEMENT and len(self.still_in) != 2:
            raise EndingError("a draw by agreement needs exactly two players still in, not {count}",
                              count=len(self.still_in))
        ending = (self.ending or Ending())._replace(termination=termination)
        return _make(type(self), (*self[:7], True, ending, {}))

    def _check_running(self) -> None:
        if self.is_over:
            raise EndingError("the game is already over")

    def among_still_in(self) -> tuple[Self, tuple[int, ...]]:
        """This position as a game of the seats still in (for computer players, whose searches
        take turns in seat order): the same board and moves, their scores, the seat to move
        renumbered; and the seats it keeps, in order (its seat i is seat ``seats[i]`` here).
        The same state when nobody dropped out. Its ``movers`` and ``lines`` keep this game's
        seat numbers."""
        seats = self.still_in
        if self.ending is None:
            return self, seats
        game = self.game.with_players(len(seats))
        scores = tuple(self.scores[p] for p in seats)
        to_move = seats.index(self.to_move) if self.to_move in seats else 0
        return _make(type(self), (game, self.board, to_move, scores, *self[4:8], None, {})), seats


_make = tuple.__new__  # one call builds a state from its fields (GameState.__setattr__ refuses everyone)
