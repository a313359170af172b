"""Line mode's front end: a game announced as sentences and played by typed commands.

``Front`` answers what any game can answer (the board, a row, a cell, the score) for a
``GameSource``; ``LocalFront`` plays a ``GameSession`` here, its computers through a
``ComputerPool``; ``RemoteFront`` plays a ``NetSession``'s game on a server. A line is read only when
the one before it is done: a move waits for its turn, so a script's lines are played in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path

from sos_tui.engine import (
    COLUMNS,
    LETTERS,
    GameRecord,
    GameState,
    Move,
    cell_name,
    parse_cell,
    printable,
)
from sos_tui.engine.clock import LOW_SHARE
from sos_tui.engine.text import RuleError
from sos_tui.i18n import N_, _, explain
from sos_tui.session import (
    Change,
    ChangeKind,
    ComputerFailed,
    ComputerPool,
    SeatKind,
    computer_move,
)

from . import words
from .lines import BadLine, read_lines, say

QUIT = object()

HELP = (
    N_("Moves: a letter and a cell, like S b2 or b2 o."),
    N_("Questions: board, row 3, col b, b2? for a cell, around b2, empty, score, last, moves."),
    N_("Also: hint, undo, redo, save FILE, review after the game, help, quit."),
    N_("To end a game early: resign (asks first), draw to offer a draw (two players), abort before "
       "everyone has moved."),
    N_("In a timed game: clock says each player's time left."),
)
NET_HELP = N_("In a network game: claim, when a player has been gone too long.")


class Refused(Exception):
    """A line that cannot be done; the message says why, in the player's language."""


def review_all(record: GameRecord) -> list:
    """Every move's review (run in the computer's process)."""
    from sos_tui.ai.review import review

    return list(review(record))


class Front:
    """The game's sentences and the questions any game answers."""

    def __init__(self, source) -> None:
        self.source = source
        self.pool: ComputerPool | None = None
        self.resigning: int | None = None  # the seat asked "Resign?", until the next line

    @property
    def state(self) -> GameState:
        return self.source.state

    # -- what happens ----------------------------------------------------------------------
    def announce(self, change: Change) -> None:
        state, seats = change.state, self.source.seats
        scored = False
        if change.kind is ChangeKind.START:
            say(words.start(state, seats))
            if state.moves:
                say(words.score(state, seats))
        elif change.kind is ChangeKind.MOVE and state.moves:
            say(words.wrote(seats, state.movers[-1], state.moves[-1]))
            for line in state.lines:
                if line.move_index == state.move_count - 1:
                    say(words.sos(seats, line))
                    scored = True
            if scored or state.is_over:
                say(words.score(state, seats))
        elif change.kind in (ChangeKind.UNDO, ChangeKind.REDO):
            done = _("Undone.") if change.kind is ChangeKind.UNDO else _("Redone.")
            say(" ".join([done, self.last(), words.score(state, seats)]))
        elif change.kind is ChangeKind.DROP:
            say(words.dropped(state, seats, change.seat))
        elif change.kind is ChangeKind.DRAW_OFFER:
            other = next(p for p in state.still_in if p != change.seat)
            names = words.names(seats)
            say(_("{name} offers a draw. {other}, type yes to accept or no to play on.").format(
                name=names[change.seat], other=names[other]))
            return
        elif change.kind is ChangeKind.DRAW_DECLINED:
            say(_("The draw offer of {name} is declined.").format(name=words.names(seats)[change.seat]))
            return
        elif change.kind is not ChangeKind.END:
            return
        self.prompt(scored)

    def prompt(self, scored: bool = False) -> None:
        state = self.state
        if state.is_over:
            say(words.result(state, self.source.seats))
            self.rated()
            if state.outcome.has_result:
                say(_("Type review for the key moments, or quit."))
            return
        computer = self.source.kind_to_move is SeatKind.COMPUTER
        say(words.next_up(state, self.source.seats, scored, computer))

    def rated(self) -> None:
        """After the result: the new ratings, where the game was rated (a network game's)."""

    # -- what a line asks --------------------------------------------------------------------
    async def handle(self, line: str):
        """Do one input line; QUIT to stop."""
        asked, self.resigning = self.resigning, None  # only the very next line answers "Resign?"
        if asked is not None and isinstance(line, str) and line.strip().lower() in ("yes", "no"):
            if line.strip().lower() == "yes":
                await self.resign_now(asked)
            else:
                say(_("You play on."))
            return None
        if isinstance(line, BadLine):
            raise Refused(words.unreadable(line))
        parts = line.split()
        if not parts:
            self.prompt()
            return None
        head, rest = parts[0].lower(), parts[1:]
        if len(parts) == 1 and head.endswith("?") and len(head) > 1:
            say(words.cell(self.state, self.source.seats, self.where(head[:-1])))
            return None
        command = COMMANDS.get(head)
        if command is None:
            if len(parts) == 1:
                raise Refused(_("{word} is not a command; type help for the list.").format(
                    word=words.quoted(parts[0])))
            return await self.move(parse_move(parts))
        return await command(self, rest, line)

    def where(self, text: str) -> tuple[int, int]:
        """The cell ``text`` names on this board; Refused otherwise."""
        try:
            row, col = parse_cell(text)
        except RuleError as error:
            raise Refused(explain(error)) from None
        size = self.state.size
        if row >= size or col >= size:
            off = _("{cell} is off the {size} by {size} board.")
            raise Refused(off.format(cell=words.quoted(text), size=size))
        return row, col

    def last(self) -> str:
        state = self.state
        if not state.moves:
            return _("No move yet.")
        return words.move_line(state, self.source.seats, state.move_count - 1)

    async def move(self, move: Move):
        raise NotImplementedError

    async def board(self, rest, line):
        for text in words.board(self.state):
            say(text)

    async def row(self, rest, line):
        number = rest[0] if len(rest) == 1 and rest[0].isascii() and rest[0].isdigit() else "0"
        if not 1 <= int(number) <= self.state.size:
            raise Refused(_("Say which row, 1 to {size}: row 3.").format(size=self.state.size))
        say(words.row(self.state, int(number) - 1))

    async def column(self, rest, line):
        letters = COLUMNS[: self.state.size]
        if len(rest) != 1 or rest[0].lower() not in letters:
            raise Refused(_("Say which column, a to {last}: col b.").format(last=letters[-1]))
        say(words.column(self.state, letters.index(rest[0].lower())))

    async def around(self, rest, line):
        if len(rest) != 1:
            raise Refused(_("Say which cell: around b2."))
        say(words.around(self.state, self.where(rest[0])))

    async def empty(self, rest, line):
        say(words.empty(self.state))

    async def score(self, rest, line):
        say(words.score(self.state, self.source.seats))
        if not self.state.is_over:
            self.prompt()

    async def last_move(self, rest, line):
        say(self.last())

    async def moves(self, rest, line):
        if not self.state.moves:
            say(_("No move yet."))
        for index in range(self.state.move_count):
            say(words.move_line(self.state, self.source.seats, index))

    async def help(self, rest, line):
        for text in HELP:
            say(_(text))

    async def quit(self, rest, line):
        return QUIT

    async def review(self, rest, line):
        from sos_tui.ai.review import accuracies, accuracy_line, key_moments

        record = self.source.record
        if not self.state.is_over:
            raise Refused(_("The review comes when the game is over."))
        say(_("Reviewing the game; this takes a moment."))
        self.pool = self.pool or ComputerPool()
        try:
            reviews = await self.pool.run(review_all, record)
        except ComputerFailed as error:
            raise Refused(explain(error)) from None
        moments = key_moments(reviews)
        say(_("Key moments:") if moments else _("Key moments: none, every move was best"))
        for review in moments:
            say(words.review_line(review, self.source.seats))
        for accuracy in accuracies(reviews, self.state.players):
            if accuracy.moves:
                say(accuracy_line(words.names(self.source.seats)[accuracy.player], accuracy) + ".")

    async def save(self, rest, line):
        from sos_tui.storage import StorageError, save_record

        if not rest:
            raise Refused(_("Say where: save FILE."))
        try:
            path = save_record(self.source.record, Path(line.split(None, 1)[1].strip()).expanduser())
        except (StorageError, OSError) as error:
            raise Refused(_("Could not save: {error}").format(error=explain(error))) from None
        say(_("Saved to {path}.").format(path=printable(str(path))))

    async def undo(self, rest, line):
        raise Refused(_("Nothing to undo."))

    async def redo(self, rest, line):
        raise Refused(_("Nothing to redo."))

    async def hint(self, rest, line):
        raise Refused(_("No hints in this game."))

    async def answer(self, rest, line):
        raise Refused(_("Nobody asked a question."))

    def _person(self) -> int:
        """The seat a person here acts for now; Refused when there is none."""
        raise Refused(_("Resigning is not possible in this game."))

    async def resign(self, rest, line):
        seat = self._person()
        self.resigning = seat
        say(_("{name}, resign? Type yes to resign or no to play on.").format(
            name=words.names(self.source.seats)[seat]))

    async def resign_now(self, seat: int) -> None:
        """The person at ``seat`` answered yes to "Resign?"."""
        raise NotImplementedError

    async def draw(self, rest, line):
        raise Refused(_("Draw offers are not possible in this game."))

    async def abort(self, rest, line):
        raise Refused(_("Aborting is not possible in this game."))

    async def claim(self, rest, line):
        raise Refused(_("Nobody can be claimed in this game: claims are for network games."))

    async def clock(self, rest, line):
        raise Refused(_("This game has no clock."))

    def wake_in(self) -> float | None:
        """Seconds until something happens with no line typed (a clock's flag); None: nothing."""
        return None

    def on_time(self) -> None:
        """What the time says now (a flag, a warning), before a line is done or when ``wake_in`` comes."""


COMMANDS = {
    "board": Front.board, "row": Front.row, "col": Front.column, "column": Front.column,
    "around": Front.around, "empty": Front.empty, "score": Front.score, "last": Front.last_move,
    "moves": Front.moves, "help": lambda self, rest, line: self.help(rest, line), "quit": Front.quit,
    "exit": Front.quit,
    "review": Front.review, "save": Front.save,
    "undo": lambda self, rest, line: self.undo(rest, line),
    "redo": lambda self, rest, line: self.redo(rest, line),
    "hint": lambda self, rest, line: self.hint(rest, line),
    "resign": lambda self, rest, line: self.resign(rest, line),
    "draw": lambda self, rest, line: self.draw(rest, line),
    "abort": lambda self, rest, line: self.abort(rest, line),
    "clock": lambda self, rest, line: self.clock(rest, line),
    "claim": lambda self, rest, line: self.claim(rest, line),
    "yes": lambda self, rest, line: self.answer(True, line),
    "no": lambda self, rest, line: self.answer(False, line),
}


def parse_move(parts: list[str]) -> Move:
    """``S b2``, ``s b2`` or ``b2 s``: the engine's notation, the letter first or last."""
    if len(parts) == 2 and parts[1].upper() in LETTERS and parts[0].upper() not in LETTERS:
        parts = parts[::-1]
    try:
        return Move.parse(" ".join(parts))
    except RuleError as error:
        raise Refused(explain(error)) from None


async def run_lines(front: Front, ready, lines: asyncio.Queue | None = None) -> None:
    """Read and do lines (from ``lines``, else standard input) until the input ends or ``quit``;
    ``ready()`` is awaited before each."""
    lines = lines or read_lines()
    while True:
        await ready()
        line = await _next_line(front, lines)
        if line is None:
            return
        front.on_time()
        try:
            if await front.handle(line) is QUIT:
                return
        except Refused as refusal:
            say(str(refusal))
        except RuleError as error:
            say(explain(error))


async def _next_line(front: Front, lines: asyncio.Queue):
    """The next input line; meanwhile the front is woken when its time says (a flag while the
    player thinks ends the game then, not at the next line)."""
    while True:
        wait = front.wake_in()
        if wait is None:
            return await lines.get()
        try:
            return await asyncio.wait_for(lines.get(), wait)
        except TimeoutError:
            front.on_time()


class LocalFront(Front):
    """A game played here: people type moves, computers think in ``pool``."""

    def __init__(self, session, pool: ComputerPool) -> None:
        super().__init__(session)
        self.session = session
        self.pool = pool

    def _person(self) -> int:
        """The seat a person here acts for now; Refused when there is none."""
        if self.state.is_over:
            raise Refused(_("The game is over."))
        seat = self.session.person_seat
        if seat is None:
            raise Refused(_("Wait for your turn: nobody here is to move."))
        return seat

    async def resign_now(self, seat: int) -> None:
        self.session.resign(seat)

    async def draw(self, rest, line):
        self.session.offer_draw(self._person())

    async def abort(self, rest, line):
        self.session.abort()

    async def answer(self, accept, line):
        session = self.session
        offer = session.draw_offer
        if offer is None:
            raise Refused(_("Nobody asked a question."))
        other = next(p for p in session.state.still_in if p != offer)
        if accept:
            session.accept_draw(other)
        else:
            session.decline_draw(other)

    async def computers(self) -> None:
        """Let every computer to move play (before the next line is read)."""
        session = self.session
        while session.computer_level is not None:
            try:
                move = await computer_move(session, self.pool)
            except ComputerFailed as error:
                say(explain(error))
                lost = getattr(error, "forfeit", None)  # an engine program that broke the rules loses
                if lost is not None:
                    session.drop(lost.seat, lost.why)
                    continue
                session.pause()
                say(_("The game is paused: the computer cannot move."))
                return
            if move is not None:
                session.play_computer(move, session.version)

    async def move(self, move: Move):
        self.session.play_human(move)

    async def undo(self, rest, line):
        if self.session.timed:
            raise Refused(_("No takebacks in a timed game."))
        if self.session.undo() is None:
            raise Refused(_("Nothing to undo."))

    async def redo(self, rest, line):
        if self.session.timed:
            raise Refused(_("No takebacks in a timed game."))
        if self.session.redo() is None:
            raise Refused(_("Nothing to redo."))

    async def clock(self, rest, line):
        session = self.session
        if not session.timed:
            raise Refused(_("This game has no clock."))
        say(words.clocks(session.clocks, self.state, session.seats, session.now()))

    def wake_in(self) -> float | None:
        waits = [ms for ms in (self.session.when_flag(), self.session.when_low()) if ms is not None]
        return min(waits) / 1000 if waits else None

    def on_time(self) -> None:
        session = self.session
        if session.check_time() is None:
            seat = session.low_time()
            if seat is not None:
                say(words.low_time(session.clocks, session.seats, seat, session.now()))

    async def hint(self, rest, line):
        if not self.session.may("hint"):
            raise Refused(_("A hint is for a person to move."))
        try:
            move = await self.pool.hint(self.state)
        except ComputerFailed as error:
            raise Refused(_("No hint: {reason}").format(reason=explain(error))) from None
        say(_("Hint: {letter} at {cell}.").format(letter=move.letter, cell=cell_name(move.row, move.col)))


async def play_local(session, pool: ComputerPool, lines: asyncio.Queue | None = None) -> None:
    """Play ``session`` from ``lines`` (else standard input) until they end or ``quit``."""
    front = LocalFront(session, pool)
    session.subscribe(front.announce)
    session.announce_start()
    try:
        await run_lines(front, front.computers, lines)
    finally:
        pool.shutdown()


class RemoteFront(Front):
    """A network game (a ``NetSession``'s): this terminal's moves go to the server, and every
    change comes back from it; a dropped connection is said, and tried again by itself."""

    def __init__(self, session) -> None:
        super().__init__(session.game)
        self.session = session
        self.game = session.game
        self.changed = asyncio.Event()
        self.lost: str | None = None  # why the connection is down, as last said
        self._said_away: set[tuple[int, bool]] = set()  # (seat, claimable) said of the players gone
        self._warned: set[tuple[str, int]] = set()  # (game id, seat): told its time runs low
        self._low_timer: asyncio.TimerHandle | None = None

    def back(self) -> bool:
        return self.session.back

    def told(self, status) -> None:
        """Say the connection lost, while it is tried again: once, and again only when why changes."""
        why = explain(status.lost) if status.reconnecting else None
        if why is not None and why != self.lost:
            say(_("Connection lost: {problem}. Trying again (attempt {n})…").format(problem=why,
                                                                                n=status.attempt))
        self.lost = why
        self.changed.set()

    def heard(self, message) -> None:
        """Say what the server says that is not a change of the game (None: connected again)."""
        from sos_tui.net.protocol import (
            ErrorMessage,
            RematchRequestMessage,
            RematchResultMessage,
            UndoRequestMessage,
            UndoResultMessage,
        )

        if message is None:  # connected (again)
            self.lost = None
        match message:
            case None if self.back():
                say(_("Reconnected."))
            case ErrorMessage():
                say(_("The server refused: {reason}").format(reason=message.text))
            case UndoRequestMessage(name=name, vote=True):
                say(_("{name} asks to take back a move; type yes or no.").format(name=printable(name)))
            case RematchRequestMessage(name=name, vote=True):
                say(_("{name} offers a rematch; type yes or no.").format(name=printable(name)))
            case UndoResultMessage(accepted=False):
                say(_("Undo declined: {reason}.").format(reason=message.text))
            case RematchResultMessage(accepted=False):
                say(_("No rematch: {reason}.").format(reason=message.text))
        self.away_news()
        self.low_time()
        self.changed.set()

    def announce(self, change: Change) -> None:
        if change.kind is ChangeKind.DRAW_OFFER and change.seat is not None:
            other = next((p for p in change.state.still_in if p != change.seat), None)
            names = words.names(self.source.seats)
            other_name = names[other] if other is not None else "?"
            if change.seat in self.game.my_seats:
                say(_("Draw offered to {other}: waiting for the answer.").format(other=other_name))
                return
            if other not in self.game.my_seats:  # a spectator: nothing to answer
                say(_("{name} offers {other} a draw.").format(name=names[change.seat], other=other_name))
                return
        super().announce(change)

    def rated(self) -> None:
        if self.game.ratings:  # a rated game: the server told the new ratings with its end
            say(words.ratings(self.source.seats, self.game.ratings))

    def away_news(self) -> None:
        """Say who has gone (once), when they may be claimed (once), and who is back."""
        game = self.game
        if not game.under_way or not game.in_game:
            return
        now, names = time.monotonic(), words.names(self.source.seats)
        two = len(game.state.still_in) == 2
        gone = [away for away in game.away if away.seat not in game.my_seats]
        back = {seat for seat, _due in self._said_away} - {away.seat for away in gone}
        for seat in sorted(back & set(game.state.still_in)):  # not one dropped from the game
            say(_("{name} is back.").format(name=names[seat]))
        self._said_away &= {(away.seat, claimable) for away in gone for claimable in (False, True)}
        for away in gone:
            due = away.claimable(now)
            if (away.seat, False) not in self._said_away and not due:
                say(_("{name} lost the connection; if not back in {seconds} s, type claim.").format(
                    name=names[away.seat], seconds=max(1, round(away.claim_at - now))))
            elif (away.seat, True) not in self._said_away and due:
                text = _("{name} has been gone {time}: type claim to claim the win.") if two else \
                    _("{name} has been gone {time}: type claim to drop them from the game.")
                say(text.format(name=names[away.seat], time=away.gone_for(now)))
            self._said_away |= {(away.seat, False), (away.seat, due)}

    async def watch_away(self) -> None:
        """Say when a player gone may be claimed, at that time (no message comes then)."""
        while True:
            now = time.monotonic()
            coming = [a.claim_at - now for a in self.game.away if not a.claimable(now)]
            await asyncio.sleep(min(coming) + 0.05 if coming else 1.0)
            self.away_news()

    def low_time(self) -> None:
        """Warn once when a seat of this player runs low on time (10% of its budget), as the
        server's clocks say: now, or by one timer set for that moment."""
        self.stop_timer()
        game = self.game
        clocks, record = game.clocks, game.record
        if clocks is None or record is None or clocks.running not in game.my_seats:
            return
        seat, now = clocks.running, game.now()
        if (record.game_id, seat) in self._warned:
            return
        if clocks.low(seat, now):
            self._warned.add((record.game_id, seat))
            say(words.low_time(clocks, game.seats, seat, now))
            return
        wait = clocks.remaining(seat, now) - clocks.control.initial_ms // LOW_SHARE
        self._low_timer = asyncio.get_running_loop().call_later(wait / 1000, self.low_time)

    def stop_timer(self) -> None:
        if self._low_timer is not None:
            self._low_timer.cancel()
            self._low_timer = None

    async def until(self, done) -> None:
        while not done() and self.game.connected:
            self.changed.clear()
            await self.changed.wait()

    async def move(self, move: Move):
        from sos_tui.net import NetError
        from sos_tui.net.vocabulary import Phase

        game = self.game
        if not game.my_seats:  # no turn to wait for
            raise Refused(_("You watch this game: only its players move."))
        state = game.state
        if state is not None and not state.is_over:
            state.completes(move)  # a move that can never be played (off the board, a taken cell): now
        seat = game.seat_to_move
        if game.phase == Phase.PLAYING and state is not None and not state.is_over \
                and state.to_move not in game.my_seats and seat is not None:
            # typed ahead of one's turn (a pipe plays a whole game so): said, then played in turn
            say(_("{name} is to move: your {move} is played when your turn comes.").format(
                name=printable(seat.name), move=move))
        await self.until(lambda: game.state.is_over or (game.phase == Phase.PLAYING and game.my_turn))
        version, game.last_error = game.version, None
        try:
            await game.play(move)
        except NetError as error:
            raise Refused(explain(error)) from None
        await self.until(lambda: game.version != version or game.last_error is not None)

    async def undo(self, rest, line):
        if not self.game.may("undo") or not self.state.moves:
            raise Refused(_("Nothing to undo."))
        await self.game.request_undo()
        say(_("Asked the others to take back the last move."))

    def _person(self) -> int:
        game, state = self.game, self.state
        if not game.my_seats:
            raise Refused(_("You watch this game: only its players may do that."))
        if state is None or state.is_over or not game.under_way:
            raise Refused(_("The game is over.") if state is not None and state.is_over
                          else _("The game has not started yet."))
        seat = game.person_seat
        if seat is None:
            raise Refused(_("Wait for your turn: nobody here is to move.") if game.in_game
                          else _("You are out of this game."))
        return seat

    async def _told(self, sending) -> None:
        """Send what ``sending()`` sends, and wait until the server says what came of it."""
        from sos_tui.net import NetError

        game = self.game
        version, game.last_error = game.version, None
        try:
            await sending()
        except NetError as error:
            raise Refused(explain(error)) from None
        await self.until(lambda: game.version != version or game.last_error is not None)

    async def resign_now(self, seat: int) -> None:
        await self._told(lambda: self.game.resign(seat))

    async def help(self, rest, line):
        await super().help(rest, line)
        say(_(NET_HELP))

    async def draw(self, rest, line):
        self._person()
        await self._told(self.game.offer_draw)

    async def abort(self, rest, line):
        self._person()
        await self._told(self.game.abort)

    async def claim(self, rest, line):
        self._person()
        await self._told(self.game.claim)

    async def clock(self, rest, line):
        game = self.game
        if game.clocks is None:
            raise Refused(_("This game has no clock."))
        say(words.clocks(game.clocks, self.state, game.seats, game.now()))

    async def answer(self, accept, line):
        game = self.game
        if game.draw_offer is not None and game.draw_offer not in game.my_seats and game.my_seats:
            await self._told(lambda: game.answer_draw(accept))
        elif self.game.undo_request is not None:
            await self.game.answer_undo(accept)
        elif self.game.rematch_request is not None:
            await self.game.answer_rematch(accept)
        else:
            raise Refused(_("Nobody asked a question."))


async def play_remote(session, lines: asyncio.Queue | None = None) -> int:
    """Play the game of ``session`` (a ``NetSession``, its game reached) from ``lines`` (else
    standard input): 0 at the input's end or quit, 2 if the game cannot go on (its server ended
    it, or it cannot come back) before it is over. A dropped connection is tried again by itself.
    Once it is over, the game stays to ask about (review, board, moves, save FILE...) until quit,
    whether or not the server keeps the connection: its end was said once, with the result."""
    from sos_tui.net.vocabulary import Phase

    game = session.game
    front = RemoteFront(session)
    session.subscribe(front.announce)
    if game.phase == Phase.LOBBY:
        say(_("Joined. The game starts when every seat is taken."))
    elif game.state is not None:
        front.announce(Change(ChangeKind.START, game.state, game.record))

    async def listen() -> None:
        await session.run(front.heard, front.told)
        front.changed.set()

    listening = asyncio.create_task(listen())
    playing = asyncio.create_task(run_lines(front, _nothing, lines))
    watching = asyncio.create_task(front.watch_away())
    try:
        await asyncio.wait({listening, playing}, return_when=asyncio.FIRST_COMPLETED)
        if not playing.done() and not (game.state is not None and game.state.is_over):
            playing.cancel()
            say(_("The game has ended: {reason}").format(
                reason=game.closed_reason or _("the connection was lost")))
            return 2
        await playing
        return 0
    finally:
        playing.cancel()
        listening.cancel()
        watching.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await watching
        front.stop_timer()
        await game.leave()
        if front.pool is not None:
            front.pool.shutdown()


async def _nothing() -> None:
    return None
