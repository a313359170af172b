"""One game in progress: the record, the timeline of states, undo and redo, pause, whose turn.

A ``GameSession`` knows nothing of a screen, a network or a disk. The rules stay in the engine:
the session asks ``state.play(move)`` for every new state and keeps the ones it got, the way
python-chess's ``Board.move_stack`` keeps moves. What happens is reported to subscribers as a
``Change``; the app redraws from it, the keeper saves from it, a server would broadcast it.

A game also ends otherwise: a person resigns (``resign``; a clock or a claim will ``drop`` a seat
for time or abandon), the two players agree a draw (``offer_draw``, then ``accept_draw``; a move
or ``decline_draw`` declines it), or it is aborted before every person here has moved (``abort``).
A drop or an end cannot be undone: undo stops at it.

Undo and redo walk the timeline. With both people and computers at the table, they skip the
positions where a computer is to move, so one undo takes back the computer's reply and your own
move together; a game of computers only steps one move at a time. A timed game (its record has a
``clock``) has no undo or redo: see ``Timing`` for its clocks.

``version`` goes up with every change. A computer move is computed for one version and applied
with ``play_computer(move, version)`` only if nothing happened meanwhile, so a search that
finishes after an undo, a new game or a pause is dropped instead of played on the wrong board.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from sos_tui.engine import GameRecord, GameState, IllegalMoveError, Move, Seat, SeatKind
from sos_tui.i18n import N_

from .change import Change, ChangeKind
from .endings import Endings
from .timing import Now, Timing


class NotYourTurnError(IllegalMoveError):
    """A move for a seat that is not to move (or a person's move while a computer is to move).

    Like the engine's errors, ``str()`` is English and ``sos_tui.i18n.explain`` says it in the
    player's language (the names are parameters: data, kept as they are)."""


Listener = Callable[[Change], None]


class GameSession(Endings, Timing):
    """A game in progress. ``record`` may already hold moves (a loaded or resumed game): they are
    replayed into the timeline, so undo reaches back to the empty board.

    ``seats``, when given, says who makes the moves of each seat of ``record`` (the same names, one
    seat each): a network game records its players as people (``human``) and computers, while its
    session knows which people are on other machines (``remote``).

    A record with a ``clock`` is a timed game (``Timing``): ``now``, the time source in
    milliseconds, is a monotonic clock unless given (tests give their own)."""

    def __init__(self, record: GameRecord, seats: tuple[Seat, ...] | None = None,
                 now: Now | None = None) -> None:
        if seats is not None:
            seats = tuple(seats)
            if [s.name for s in seats] != [p.name for p in record.players]:
                raise ValueError("the seats must name the record's players, in order")
        self._seats = seats if seats is not None else record.players
        states = list(GameState.replay(record.moves, record.size, record.mode, len(record.players),
                                       record.drops, record.ended_by))
        self._base = record
        self._timeline = states
        self._position = len(states) - 1
        # the first position undo may reach: the last drop or end (neither is taken back)
        self._floor = len(record.moves) if record.ended_by else max((d.after for d in record.drops),
                                                                    default=0)
        self._draw_offer: int | None = None  # the seat whose draw offer waits for an answer
        self._paused = False
        self._listeners: list[Listener] = []
        self._record: GameRecord | None = record
        self.version = 0
        self._start_clocks(record, now)

    # -- what it holds ----------------------------------------------------------------------
    @property
    def state(self) -> GameState:
        return self._timeline[self._position]

    @property
    def record(self) -> GameRecord:
        """The game as it stands (moves up to the current position), stamped when it changed."""
        if self._record is None:
            spent = None if self._clocks is None else self._clocks.spent_ms[:len(self.state.moves)]
            self._record = self._base.with_state(self.state, spent_ms=spent)
        return self._record

    @property
    def game_id(self) -> str:
        return self._base.game_id

    @property
    def seats(self) -> tuple[Seat, ...]:
        return self._seats

    @property
    def position(self) -> int:
        """How many moves stand (the index of the current state in the timeline)."""
        return self._position

    @property
    def timeline(self) -> tuple[GameState, ...]:
        return tuple(self._timeline)

    @property
    def paused(self) -> bool:
        return self._paused

    @property
    def has_computer(self) -> bool:
        return any(s.is_computer for s in self.seats)

    @property
    def kind_to_move(self) -> SeatKind | None:
        """The kind of seat to move, or None when the game is over."""
        state = self.state
        return None if state.is_over else self.seats[state.to_move].kind

    @property
    def seat_to_move(self) -> Seat | None:
        state = self.state
        return None if state.is_over else self.seats[state.to_move]

    @property
    def computer_level(self) -> str | None:
        """The level of the computer that should be thinking now: a computer is to move and the
        game is not paused. None otherwise."""
        if self._paused or self.kind_to_move is not SeatKind.COMPUTER:
            return None
        return self.seat_to_move.level or "medium"

    @property
    def can_undo(self) -> bool:
        return self._step_target(-1) is not None

    @property
    def can_redo(self) -> bool:
        return self._step_target(+1) is not None

    @property
    def people(self) -> tuple[int, ...]:
        """The seats played by people at this terminal."""
        return tuple(i for i, s in enumerate(self.seats) if s.kind is SeatKind.HUMAN)

    @property
    def person_seat(self) -> int | None:
        """The seat a person here resigns or offers a draw for now: the seat to move if a person
        here plays it, else the one seat still in that a person here plays; None otherwise (the
        game is over, or several people here wait for a computer)."""
        state = self.state
        if state.is_over:
            return None
        if state.to_move in self.people:
            return state.to_move
        mine = [seat for seat in self.people if not state.is_out(seat)]
        return mine[0] if len(mine) == 1 else None

    def _draw_possible(self) -> bool:
        """Two seats are in and both are people (here or elsewhere), so one can offer a draw."""
        return len(self.seats) >= 2 and all(
            self.seats[p].kind is not SeatKind.COMPUTER for p in self.state.still_in)

    def may(self, action: str) -> bool | None:
        """What the person at this terminal may do now (``source.Action``): True; not now: None;
        never in this game: False."""
        person_to_move = self.kind_to_move is SeatKind.HUMAN
        people = bool(self.people)
        running = not self.state.is_over
        two_in = len(self.state.still_in) == 2
        answers = {
            "move": person_to_move or None,
            "undo": (self.can_undo or None) if not self.timed else False,
            "redo": (self.can_redo or None) if not self.timed else False,
            "hint": (person_to_move or None) if people else False,
            "pause": self.has_computer or self.timed,
            "rematch": True,
            "replay": bool(self.state.moves) or None,
            "resign": (self.person_seat is not None or None) if people else False,
            "abort": (self.can_abort or None) if people else False,
            "offer_draw": ((running and two_in and self._draw_offer is None and self.person_seat is not None)
                           or None) if people and self._draw_possible() else False,
        }
        return answers.get(str(action), False)

    # -- listening --------------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(change)`` after every change; returns a function that unsubscribes."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def announce_start(self) -> None:
        """Tell the listeners the game is here (once they have all subscribed)."""
        self._changed(ChangeKind.START)

    def _changed(self, kind: ChangeKind, move: Move | None = None, seat: int | None = None) -> Change:
        self.version += 1
        self._record = None
        change = Change(kind, self.state, self.record, move, seat)
        for listener in list(self._listeners):
            listener(change)
        return change

    # -- moves ------------------------------------------------------------------------------
    def play(self, move: Move, by: Collection[int] | None = None, lag_ms: int = 0) -> Change:
        """Play ``move`` for the seat to move. ``by``, when given, are the seats of whoever sends
        it (a host may hold several, a spectator none): one of them must be the seat to move.
        ``lag_ms``: the move's measured network transit, given back to the mover's clock (at
        most ``clock.LAG_BOUND_MS``; a server's room says it).

        Raises the engine's IllegalMoveError for an occupied cell, a move off the board or a
        finished game, and NotYourTurnError for seats out of turn. Redo history past the current
        position is dropped, as in any editor.
        """
        state = self.state
        if by is not None and not state.is_over and state.to_move not in by:
            name = self.seats[state.to_move].name
            if len(by) == 1:
                raise NotYourTurnError(N_("it is {name}'s turn, not {other}'s"), name=name,
                                       other=self.seats[next(iter(by))].name)
            raise NotYourTurnError(N_("it is {name}'s turn"), name=name)
        self._check_before_move()
        new = state.play(move)
        self._clock_moved(new, lag_ms)
        self._decline_draw()  # a move declines a draw offer
        del self._timeline[self._position + 1:]
        self._timeline.append(new)
        self._position += 1
        return self._changed(ChangeKind.MOVE, move)

    def play_human(self, move: Move) -> Change:
        """A move from this machine's keyboard or mouse: refused while a computer or a remote
        player is to move."""
        kind = self.kind_to_move
        if kind is not None and kind is not SeatKind.HUMAN:
            raise NotYourTurnError(N_("wait for {name} to move"), name=self.seat_to_move.name)
        return self.play(move)

    def play_computer(self, move: Move, version: int) -> Change | None:
        """The computer's answer to the position of ``version``; None (dropped) when the session
        has changed since, is paused, or no computer is to move."""
        if self.check_time() is not None or version != self.version or self.computer_level is None:
            return None
        return self.play(move)

    # -- undo, redo, pause ------------------------------------------------------------------
    def _step_target(self, direction: int) -> int | None:
        target = self._position + direction
        last = len(self._timeline) - 1
        if self.timed or not self._floor <= target <= last:
            return None
        kinds = {s.kind for s in self.seats}
        if SeatKind.COMPUTER in kinds and kinds != {SeatKind.COMPUTER}:
            # skip the positions where a computer would move at once
            while self._floor < target < last and self.seats[self._timeline[target].to_move].kind \
                    is SeatKind.COMPUTER:
                target += direction
        return target

    def undo(self) -> Change | None:
        """One move back (against computers: back to the previous human turn); None if nothing
        stands."""
        return self._go(-1)

    def redo(self) -> Change | None:
        return self._go(+1)

    def _go(self, direction: int) -> Change | None:
        target = self._step_target(direction)
        if target is None:
            return None
        self._position = target
        self._draw_offer = None
        return self._changed(ChangeKind.UNDO if direction < 0 else ChangeKind.REDO)

    def pause(self) -> Change | None:
        """Stop the computers and the clocks (nothing to pause in an untimed game without a
        computer, or when paused already)."""
        if self._paused or not (self.has_computer or self.timed):
            return None
        self._paused = True
        self._clocks_follow()
        return self._changed(ChangeKind.PAUSE)

    def resume(self) -> Change | None:
        if not self._paused:
            return None
        self._paused = False
        self._clocks_follow()
        return self._changed(ChangeKind.RESUME)

    def toggle_pause(self) -> Change | None:
        return self.resume() if self._paused else self.pause()

    # -- the next game ----------------------------------------------------------------------
    def rematch(self) -> GameRecord:
        """A new game with the same board and seats; whoever started this one moves second."""
        seats, clock = self._base.players, self._base.clock
        return GameRecord(self._base.size, self._base.mode, seats[1:] + seats[:1], clock=clock,
                          spent_ms=None if clock is None else ())
