"""A game over the network: the game screen's board, scoreboard and log over a ``NetSession``
(``sos_tui.net.netsession``: it opens, hosts, follows and reconnects). This screen shows what the
server says, asks the questions it raises, and sends the moves of this terminal's seats. It binds
only what a network game offers: undo is asked of the others, a rematch agreed by everyone seated."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from sos_tui.engine import GameRecord, GameState, Move, printable
from sos_tui.i18n import N_, _, explain
from sos_tui.net import NetError, RemoteGame, TokenStore
from sos_tui.net import protocol as wire
from sos_tui.net.netsession import NetSession, NetStatus
from sos_tui.net.run import HostPlan, JoinPlan
from sos_tui.net.vocabulary import StateChange
from sos_tui.session import ComputerPool, Keeper, SeatKind

from ..dialogs import Choice, Standing
from ..text import names_list
from . import net_words as words
from .net_endings import EndingKeys
from .play import PlayScreen

_ENDING = (StateChange.MOVE, StateChange.DROP, StateChange.END)
"""The changes that can end the game (and show its result)."""


class NetGameScreen(EndingKeys, PlayScreen):
    """Play ``plan`` (a ``HostPlan`` or a ``JoinPlan``) over the network."""

    BINDINGS = [
        Binding("u,ctrl+z", "undo", N_("Undo"), key_display="u"),
        Binding("ctrl+l", "leave", N_("Leave"), key_display="^l"),
        Binding("g", "resign", N_("Resign"), key_display="g"),
        Binding("d", "offer_draw", N_("Offer a draw"), key_display="d", show=False),
        Binding("A", "abort", N_("Abort the game"), key_display="A", show=False),
        Binding("c", "claim", N_("Claim"), key_display="c"),
        Binding("ctrl+s", "save", N_("Save"), show=False),
        Binding("ctrl+n", "app.new_game", N_("New game"), show=False),  # leaving this one, asked first
        Binding("ctrl+o", "app.open", N_("Open a saved game"), show=False),
        Binding("ctrl+r", "reconnect", N_("Reconnect; once the game is over, a rematch"), show=False),
    ]
    DEFAULT_CSS = """
    NetGameScreen #net-status { dock: top; height: auto; max-height: 4; padding: 0 1; background: $boost; }
    NetGameScreen #net-status.-lost { background: $error 30%; }
    """

    def __init__(self, plan: HostPlan | JoinPlan, computer: ComputerPool, keeper: Keeper | None,
                 mouse: bool = True, tokens: TokenStore | None = None) -> None:
        super().__init__(mouse=mouse)
        self.plan = plan  # a hosted server's computer seats think in ``computer``
        self.net = NetSession.for_plan(plan, tokens, computer=computer, keeper=keeper, continue_kept=lambda n:
                                       self.app.push_screen_wait(words.continue_kept(n)))
        self.dialogs: Standing | None = None  # the dialogs that close when their cause is gone

    @property
    def game(self) -> RemoteGame | None:
        return self.net.game

    source = game

    def compose(self) -> ComposeResult:
        yield Static(_("Connecting…"), id="net-status", markup=False)
        yield from super().compose()

    def on_mount(self) -> None:
        super().on_mount()
        self.dialogs = Standing(self.app)
        self.app.screen_change_signal.subscribe(self, self.dialogs.check)
        self.set_interval(1.0, self._tick)
        self.connect()

    def _tick(self) -> None:
        """Each second while a player is gone: how long, and whether ``c`` claims now."""
        if self.game is not None and self.game.away:
            self._status()
            self.refresh_bindings()

    def language_changed(self) -> None:
        super().language_changed()
        self._status()

    # -- the connection ---------------------------------------------------------------------
    @work(exclusive=True, group="net")
    async def connect(self) -> None:
        """Join (or host) the game and follow it until it cannot come back (ctrl+r starts again)."""
        self._lost(await self.net.run(self._update, self._status))

    def _lost(self, problem: NetError) -> None:
        """The game cannot go on from here: say why, and ask what now."""
        self._status()
        if self.net.over:
            return  # the game ended and its server closed it: nothing was lost
        if self.game is None and self.app.network is not None:
            # `sos-tui join/host` could not start its game: back to the shell with the reason
            self.app.exit(explain(problem), return_code=2)
            return
        question, play_on = words.ending(problem, self.game)
        if not play_on or self.net.host is None:  # a host's own server stopped: its status line says so
            self.app.push_screen(question, lambda yes: self._ended(yes, play_on))

    def _ended(self, yes: bool | None, play_on: bool) -> None:
        """The answer to ``_lost``'s question: play on here (a local game with its own id), or leave."""
        if yes and play_on:
            record = self.game.record
            self.app.call_later(self.app.play_record, GameRecord.for_state(record.state, record.players))
        elif yes is not None and yes != play_on:
            self.action_leave()

    # -- what the server says ---------------------------------------------------------------
    def _update(self, message: wire.ServerMessage | None) -> None:
        """Show what the server said (None: the state just taken in on connecting)."""
        if not self.whole:
            return  # the screen is being taken down (the app quits) while the server still talks
        game = self.game
        match message:
            case None | wire.StateMessage():
                if message is None and self.net.back:
                    self.notify(_("Reconnected."), timeout=3)
                self.board.interactive = bool(game.my_seats)  # a spectator watches
                self.refresh_bindings()
                self.seats, self.state = game.seats, game.state
                self.thinking = game.kind_to_move is SeatKind.COMPUTER and not game.waiting_for
                self.tick()
                if message is not None:
                    self._told(message)
            case wire.RematchRequestMessage(by=by) | wire.UndoRequestMessage(by=by) if by in game.my_seats:
                pass  # this player's own offer or request: already said when it was made
            case wire.RematchRequestMessage(name=name, vote=True):
                second = game.seats[1].name if len(game.seats) > 1 else ""  # who starts the rematch
                self._ask(words.rematch_asked(printable(name)[:40], printable(second)[:40]),
                          game.answer_rematch, lambda: game.rematch_request is not None)
            case wire.UndoRequestMessage(name=name, vote=True):  # asked until answered, or settled
                self._ask(words.undo_asked(printable(name)[:40]), game.answer_undo,
                          lambda: game.undo_request is not None)
            case wire.ErrorMessage():
                self.notify(message.text, title=_("Refused"), severity="warning", timeout=4, markup=False)
            case _ if (text := words.said(message)) is not None:
                self.notify(text, timeout=4, markup=False)
        self._status()
        self.dialogs.check()

    def _told(self, message: wire.StateMessage) -> None:
        """Say what just happened at the table: the game over, a rematch begun, a player gone (on
        purpose or not), and what this player can do about it."""
        game = self.game
        gone = self.net.gone
        change = StateChange.read(message.change)
        if change in _ENDING and game.state is not None and game.state.is_over:
            self.call_after_refresh(self._game_over, game.state)
        elif change is StateChange.DROP and message.seat is not None and game.state is not None:
            self.notify(game.record.ending_text(game.state, _) + ". " + _("The game goes on."),
                        timeout=5, markup=False)  # a dropped seat in a game of three or more
        elif change is StateChange.DRAW_OFFER and message.seat is not None:
            self._draw_offered(message.seat)
        elif change is StateChange.DRAW_DECLINED:
            self.notify(_("Draw declined: the game goes on."), timeout=3)
        elif change is StateChange.REMATCH:  # the last game's result gives way to the new game
            first = game.seats[0].name if game.seats else ""
            self.notify(_("Rematch: {name} starts.").format(name=printable(first)[:40]), timeout=4,
                        markup=False)
        elif gone and game.state is not None and not game.state.is_over:
            names = names_list([printable(name)[:40] for name in gone])
            if change is StateChange.QUIT:  # asked until they are back (or the game ends)
                self.dialogs.ask(words.left_game(names),
                                 lambda leave: self.app.call_later(self.app.leave_network) if leave else None,
                                 lambda: self.net.playing and any(name in game.waiting_for for name in gone))
            else:
                self.notify(_("{names} lost the connection: the game waits for them (ctrl+l leaves).")
                            .format(names=names), severity="warning", timeout=6, markup=False)

    def _game_over(self, state: GameState) -> None:
        """The result, shown while the game is over: a rematch, or an undo after the end, closes it."""
        front = self.app.screen
        super()._game_over(state)
        if self.app.screen is not front:
            self.dialogs.track(self.app.screen, lambda: not self.net.playing)

    def _after_game(self, choice: str | None) -> None:
        if choice == "rematch":
            self.action_rematch()
        elif choice == "new":
            self.app.call_later(self.app.leave_network, True)
        elif choice == "quit":
            self.app.call_later(self.app.action_quit)
        elif choice == "review" and self.game is not None and self.game.record is not None:
            self.app.replay(self.game.record, review=True)

    def _status(self, status: NetStatus | None = None) -> None:
        status = self.net.status
        for line in self.query("#net-status").results(Static):  # none while the screen is taken down
            line.update(words.status_text(status, self.game, self.net.join_url))
            line.set_class(status.lost is not None, "-lost")

    # -- moves and actions ------------------------------------------------------------------
    def apply(self, move: Move, version: int | None = None) -> bool:
        refusal = words.refusal(self.game, self.net.lost, move)
        if refusal is not None:
            self.notify(refusal.text, title=refusal.title, severity="warning", timeout=refusal.timeout,
                        markup=False)
            return False
        self._send(self.game.play(move))
        return True

    @work(group="send")
    async def _send(self, sending) -> None:
        try:
            await sending
        except NetError as problem:
            self.notify(explain(problem), severity="error", timeout=4, markup=False)

    def _ask(self, question: Choice, answering: Callable[[bool], Awaitable], asked: Callable[[], bool]):
        """Put up a question of the others, standing while ``asked``; the answer is sent unless the
        question was settled meanwhile (None: the dialog closed unanswered)."""
        game = self.game
        self.dialogs.ask(question, lambda accept: self._send(answering(accept))
                         if accept is not None and game.connected and asked() else None, asked)

    def action_undo(self) -> None:
        game = self.game
        if game is None or not game.connected or not game.my_seats:
            self.notify(_("Only a seated player can ask for an undo."), timeout=2)
            return
        self.notify(_("Asking the others to agree to an undo…"), timeout=3)
        self._send(game.request_undo())

    def action_rematch(self) -> None:
        """Offer the others a rematch (or agree to theirs), once the game is over."""
        if self.game is not None and self.game.may("rematch"):
            self.notify(_("Rematch offered: waiting for the others to agree…"), timeout=4)
            self._send(self.game.offer_rematch())

    def action_save(self) -> None:
        if self.game is not None and self.game.record is not None:
            self.app.save_game(self.game.record)

    def action_reconnect(self) -> None:
        """Try again now (it is tried again by itself too). Connected, at a game that is over: a
        rematch, as the game-over dialog's ctrl+r (the dialog closed, the key does the same)."""
        if self.net.lost is None and self.game is not None and self.game.may("rematch"):
            self.action_rematch()
        elif self.net.lost is None:
            self.notify(_("Connected."), timeout=2)
        elif self.net.host is not None:
            self.notify(_("This game's server has stopped."), severity="warning", timeout=3)
        else:
            self.connect()

    # -- leaving ----------------------------------------------------------------------------
    def ask_to_leave(self, then: Callable[[], object]) -> None:
        """Ask before leaving a game under way; ``then`` leaves (the app quits, or the screen closes)."""
        self.app.push_screen(words.leaving(self.net.host is not None),
                             lambda leave: self._leaving(then) if leave else None)

    @work(group="leave")
    async def _leaving(self, then: Callable[[], object]) -> None:
        """Tell the others on the way out: a joiner says goodbye, a host ends the game."""
        await self.net.leave()
        then()

    def action_leave(self) -> None:
        if self.net.leaving_asks:
            self.ask_to_leave(then=lambda: self.app.call_later(self.app.leave_network))
            return
        self.app.call_later(self.app.leave_network)

    def tick(self) -> None:
        """The server's clocks, as its last state said them, counted down here (the flag is the
        server's to apply: it comes as a state)."""
        game = self.game
        self.show_clocks(game.clocks if game is not None else None, game.now() if game is not None else 0)

    async def on_unmount(self) -> None:
        self.show_clocks(None, 0)
        self.workers.cancel_group(self, "net")
        await self.net.close()
        await self.net.end_hosting()  # the app quit: a hosted game ends with it
