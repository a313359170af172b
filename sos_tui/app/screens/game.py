"""The game screen: owns the GameSession, shows it on the board, the scoreboard and the move log.

Attributes down, messages up: the screen's reactives (``state``, ``seats``, ``paused``,
``thinking``, ``letter``) are bound to the widgets with ``data_bind``; the board posts
``CellChosen`` and the computer's worker posts ``ComputerMoved``, and ``apply`` plays either
through the session. The session reports every change back; ``show`` redraws, starts the
computer when it is to move, and opens the game-over dialog when a move ends the game.
"""

from __future__ import annotations

from collections.abc import Callable

from textual import work
from textual.binding import Binding
from textual.message import Message

from sos_tui.engine import (
    CellTakenError,
    EndingError,
    GameRecord,
    GameState,
    IllegalMoveError,
    Move,
    Termination,
)
from sos_tui.i18n import N_, _, explain
from sos_tui.session import (
    Change,
    ChangeKind,
    ComputerFailed,
    ComputerPool,
    GameSession,
    Keeper,
    NotYourTurnError,
    SeatKind,
    computer_move,
)
from sos_tui.session.timing import Now

from ..text import shown
from .play import PlayScreen


def refused(error: IllegalMoveError) -> str:
    """Why a move cannot be played, in the player's language: the cell is taken, or the engine's
    reason."""
    if isinstance(error, CellTakenError):
        return _("{cell} already holds {letter}: choose an empty cell.").format(cell=error.cell,
                                                                                letter=error.letter)
    return explain(error)


class GameScreen(PlayScreen):
    BINDINGS = [
        Binding("H", "hint", N_("Hint"), key_display="H"),
        Binding("u,ctrl+z", "undo", N_("Undo"), key_display="u"),
        Binding("r,ctrl+y", "redo", N_("Redo"), key_display="r", show=False),
        Binding("p", "pause", N_("Pause / resume (the computers and the clocks)"), show=False),
        Binding("ctrl+s", "save", N_("Save"), show=False),
        Binding("ctrl+o", "app.open", N_("Open a saved game"), show=False),
        Binding("ctrl+n", "app.new_game", N_("New game"), show=False),
        Binding("ctrl+r", "rematch", N_("Rematch"), show=False),
        Binding("g", "resign", N_("Resign"), key_display="g"),
        Binding("d", "offer_draw", N_("Offer a draw"), key_display="d", show=False),
        Binding("A", "abort", N_("Abort the game"), key_display="A", show=False),
    ]

    class ComputerMoved(Message):
        """The computer's move for the session at ``version``."""

        def __init__(self, move: Move, version: int) -> None:
            self.move, self.version = move, version
            super().__init__()

    def __init__(self, computer: ComputerPool, keeper: Keeper | None, computer_delay: float = 0.5,
                 mouse: bool = True, now: Now | None = None) -> None:
        super().__init__(mouse=mouse)
        self.computer = computer
        self.keeper = keeper
        self.now = now  # the clocks' time source (ms); None: monotonic (tests give their own)
        self.computer_delay = computer_delay  # the shortest a computer move takes, to follow a chain
        self.session: GameSession | None = None
        self._unkeep: Callable[[], None] | None = None  # the keeper stops listening to the last game

    @property
    def source(self) -> GameSession | None:
        return self.session

    # -- the game ---------------------------------------------------------------------------
    def start(self, record: GameRecord) -> GameSession:
        """Play ``record`` (empty, or with moves already: a loaded or resumed game)."""
        self.stop_computer()
        if self._unkeep is not None:
            self._unkeep()
        session = self.session = GameSession(record, now=self.now)
        self.follow(session)
        if self.keeper is not None:
            self._unkeep = session.subscribe(self.keeper.on_change)
        self.board.cursor, self.board.hint = (0, 0), None
        session.announce_start()
        return session

    def show(self, change: Change) -> None:
        self.stop_computer()
        self.board.hint = None
        self.paused = self.session.paused
        super().show(change)
        self.tick()
        if change.finished:
            self.call_after_refresh(self._game_over, change.state)
        elif change.kind is ChangeKind.DRAW_OFFER:
            self.call_after_refresh(self._ask_draw, change.seat)
        elif change.kind is ChangeKind.DRAW_DECLINED:
            self.notify(_("Draw declined: the game goes on."), timeout=3)
        elif change.kind is ChangeKind.DROP and change.state.drops[-1].why is Termination.TIME:
            name = shown(self.session.seats[change.seat].name)  # the others play on: say why a seat is out
            self.notify(_("{name} ran out of time: the game goes on without them.").format(name=name),
                        severity="warning", timeout=5, markup=False)
        self._computer_turn()

    def _after_game(self, choice: str | None) -> None:
        if choice == "rematch":
            self.action_rematch()
        elif choice == "new":
            self.app.call_later(self.app.action_new_game)
        elif choice == "quit":
            self.app.call_later(self.app.action_quit)
        elif choice == "review" and self.session is not None:
            self.app.replay(self.session.record, review=True)

    # -- the clocks: one timer, set for the next time the shown time changes ----------------
    def tick(self) -> None:
        """Read the clocks: apply a flag (the game ends on time, or the seat drops out), then
        show each seat's time (``show_clocks``)."""
        session = self.session
        if session is not None and session.timed and session.check_time() is not None:
            return  # the flag's change was shown, and ticked again
        self.show_clocks(session.clocks if session is not None else None, session.now() if session else 0)

    # -- moves: every move, from a key, a click or the computer, is played here ---------------
    def on_game_screen_computer_moved(self, message: ComputerMoved) -> None:
        self.apply(message.move, version=message.version)

    def apply(self, move: Move, version: int | None = None) -> bool:
        """Play ``move`` through the session: a person's move (``version`` None) or the computer's
        answer to the position of ``version``. A refused move leaves everything as it was."""
        session = self.session
        if session is None:
            return False
        if version is not None:
            return session.play_computer(move, version) is not None
        if session.state.is_over:
            self.notify(_("The game is over: ctrl+r for a rematch, ctrl+n for a new game."),
                        title=_("No more moves"), severity="warning", timeout=3)
            return False
        try:
            session.play_human(move)
        except NotYourTurnError:
            self.notify(_("Wait for {name} to move.").format(name=shown(session.seat_to_move.name)),
                        severity="warning", timeout=2, markup=False)
            return False
        except IllegalMoveError as error:
            self.notify(refused(error), title=_("Move refused"), severity="warning", timeout=3)
            return False
        return True

    # -- the computer -----------------------------------------------------------------------
    def _computer_turn(self) -> None:
        session = self.session
        if session.computer_level is not None:
            self._think(session.version)

    @work(exclusive=True, group="computer")
    async def _think(self, version: int) -> None:
        session = self.session
        self.thinking = True
        name = shown(session.seat_to_move.name)
        try:
            move = await computer_move(
                session, self.computer, self.computer_delay, on_retry=lambda why: self.notify(
                    f"{_(why)}.", title=_("{name} is thinking").format(name=name),
                    severity="warning", markup=False))
        except ComputerFailed as error:
            self.thinking = False
            if self.session is not None and self.session.version == version:
                lost = getattr(error, "forfeit", None)  # an engine program that broke the rules loses
                if lost is not None:
                    text = _("{name} loses: {reason}.").format(name=name, reason=explain(error))
                    self.notify(text, title=_("Computer stopped"), severity="error", timeout=10, markup=False)
                    self.session.drop(lost.seat, lost.why)  # last: the change it causes cancels this worker
                    return
                text = _("{name} could not move: {reason}. Press p to try again.").format(
                    name=name, reason=explain(error))
                self.notify(text, title=_("Computer stopped"), severity="error", timeout=10, markup=False)
                self.session.pause()  # last: the change it causes cancels this worker
            return
        self.thinking = False
        if move is not None:
            self.post_message(self.ComputerMoved(move, version))

    @work(exclusive=True, group="hint")
    async def _hint(self, state: GameState, version: int) -> None:
        self.thinking = True
        try:
            move = await self.computer.hint(state)
        except ComputerFailed as error:
            self.notify(_("No hint: {reason}").format(reason=explain(error)), severity="error", markup=False)
            return
        finally:
            self.thinking = False
        if self.session is not None and self.session.version == version:
            self.board.hint = move
            self.board.cursor = (move.row, move.col)
            self.notify(_("Hint: {move}").format(move=move), timeout=3)

    def stop_computer(self) -> None:
        """Forget any search under way: this screen's search is stopped with its process (the
        pool's other owners keep theirs)."""
        self.workers.cancel_group(self, "computer")
        self.workers.cancel_group(self, "hint")
        self.thinking = False

    # -- actions ----------------------------------------------------------------------------
    def action_undo(self) -> None:
        if self.session is not None and self.session.undo() is None:
            self.notify(_("Nothing to undo."), timeout=2)

    def action_redo(self) -> None:
        if self.session is not None and self.session.redo() is None:
            self.notify(_("Nothing to redo."), timeout=2)

    def action_pause(self) -> None:
        if self.session is not None and self.session.may("pause"):
            self.session.toggle_pause()

    def action_hint(self) -> None:
        session = self.session
        if session is not None and session.kind_to_move is SeatKind.HUMAN:
            self._hint(session.state, session.version)

    def action_rematch(self) -> None:
        if self.session is not None:
            self.start(self.session.rematch())

    def action_save(self) -> None:
        if self.session is not None:
            self.app.save_game(self.session.record)

    def action_replay(self) -> None:
        if self.session is not None and self.session.state.moves:
            self.app.replay(self.session.record)

    # -- ending a game early: asked first, the safe answer in reach --------------------------
    def _ending(self, do: Callable[[], object]) -> None:
        """Do ``do`` (a resign, abort or draw of the session); a refusal is said, nothing changes."""
        try:
            do()
        except EndingError as error:
            self.notify(explain(error), severity="warning", timeout=4, markup=False)

    def _ask(self, text: Callable[[], str], yes: Callable[[], str], answered) -> None:
        """Ask ``text``: ``yes`` or "Play on", the dialog opening on "Play on" (enter and escape
        give it: never the ending by accident)."""
        from ..dialogs.choice import Choice  # here: the dialogs package brings the network's code

        self.app.push_screen(Choice(text, yes, lambda: _("Play on")), answered)

    def _person(self) -> int | None:
        """The seat a person here acts for now; None, said why, when there is none."""
        session = self.session
        if session is None:
            return None
        if session.state.is_over:
            self.notify(_("The game is over."), timeout=2)
            return None
        seat = session.person_seat
        if seat is None:
            self.notify(_("Wait for your turn: nobody here is to move."), timeout=2)
        return seat

    def action_resign(self) -> None:
        seat = self._person()
        if seat is None:
            return
        name = shown(self.session.seats[seat].name)
        session = self.session

        def answered(resign: bool | None) -> None:
            if resign and self.session is session:  # the same game (moves made meanwhile or not)
                self._ending(lambda: session.resign(seat))

        self._ask(lambda: _("{name}, resign this game?").format(name=name), lambda: _("Resign"), answered)

    def action_abort(self) -> None:
        session = self.session
        if session is None:
            return
        if not session.can_abort:
            self._ending(session.abort)  # says why not
            return

        def answered(abort: bool | None) -> None:
            if abort and self.session is session:
                self._ending(session.abort)

        self._ask(lambda: _("Abort this game? It ends with no result and goes into no history."),
                  lambda: _("Abort"), answered)

    def action_offer_draw(self) -> None:
        seat = self._person()
        if seat is not None:
            self._ending(lambda: self.session.offer_draw(seat))

    def _ask_draw(self, seat: int) -> None:
        """Ask the other player, at this terminal, about the draw ``seat`` offers."""
        session = self.session
        if session is None or session.draw_offer != seat:
            return
        other = next(p for p in session.state.still_in if p != seat)
        if other not in session.people:
            return  # a player elsewhere answers (a network game)
        names = shown(session.seats[seat].name), shown(session.seats[other].name)

        def answered(accept: bool | None) -> None:
            if self.session is session and session.draw_offer == seat:
                self._ending(lambda: session.accept_draw(other) if accept else session.decline_draw(other))

        self._ask(lambda: _("{name} offers a draw. {other}, do you accept?").format(
            name=names[0], other=names[1]), lambda: _("Accept the draw"), answered)

    def on_unmount(self) -> None:
        self.stop_computer()
        self.show_clocks(None, 0)

