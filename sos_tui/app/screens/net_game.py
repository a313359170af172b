"""A game over the network: the game screen's board, scoreboard and log, fed by a ``RemoteGame``.

The screen is a ``PlayScreen`` (the same game view as a local game) over a ``RemoteGame``: a worker
reads the server's messages and pushes each state into the reactives the view is bound to; a move
from a key or a click is checked here (your seat, your turn, a legal move) and sent; the server
answers with the new state. It binds only what a network game offers: no hint, redo, pause or
replay; undo is asked of the others; a rematch is agreed by everyone seated. Hosting starts the
server in this process (on the app's event loop) first, and this terminal plays the host's seats
over loopback like any other client.

A lost connection says why and offers to reconnect; the seat token kept in the data folder gets
the same seat back.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Button, DataTable, Input, Label, Static

from sos_tui.engine import GameRecord, GameState, IllegalMoveError, Move, check_name, printable, shorten
from sos_tui.i18n import N_, _, explain, ngettext
from sos_tui.net import NetError, RemoteGame, SeatKey, Server, TokenStore, create_room, parse_url
from sos_tui.net.client import list_rooms
from sos_tui.net.protocol import (
    ErrorMessage,
    LobbyRoom,
    RematchRequestMessage,
    RematchResultMessage,
    ServerMessage,
    StateMessage,
    UndoRequestMessage,
    UndoResultMessage,
)
from sos_tui.net.run import HostPlan, JoinPlan, host_key, open_store, reachable_host
from sos_tui.session import Change, ComputerPool, Keeper, NotYourTurnError, SeatKind
from sos_tui.storage import StorageError

from ..language import SosModal
from ..text import cell, names_list
from ..widgets.buttons import ButtonRow
from .game import refused
from .play import PlayScreen

Words = str | Callable[[], str]
"""A text, or what makes it in the current language (so a dialog says it again after a switch)."""


class Choice(SosModal[bool]):
    """A question with two answers (reconnect or leave; accept or decline an undo). The question
    and the answers may be given as functions that say them in the current language: a language
    switch while the question is open then asks it again in the new language.

    ``safe`` is the answer that loses nothing (stay, decline; continue a kept game rather than
    delete it): the dialog opens with the focus on it, so enter gives it, and so does escape.
    The other answer is given only by moving to it."""

    BINDINGS = [Binding("escape", "answer_safe", N_("Close"))]
    DEFAULT_CSS = """
    Choice { align: center middle; }
    Choice #dialog {
        width: 60; height: auto; border: thick $frame-focus; padding: 1 2; background: $surface;
    }
    Choice #text { width: 100%; height: auto; }
    Choice #buttons { height: auto; margin-top: 1; align: center middle; }
    Choice Button { margin: 0 1; }
    """

    def __init__(self, text: Words, yes: Words, no: Words, safe: bool = False) -> None:
        super().__init__()
        self._words = text, yes, no
        self.safe = safe
        self.AUTO_FOCUS = "#yes" if safe else "#no"

    @property
    def text(self) -> str:
        return _spoken(self._words[0])

    @property
    def yes(self) -> str:
        return _spoken(self._words[1])

    @property
    def no(self) -> str:
        return _spoken(self._words[2])

    def compose_dialog(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.text, id="text", markup=False)
            with ButtonRow(id="buttons"):
                yield Button(self.yes, id="yes", variant="primary" if self.safe else "default")
                yield Button(self.no, id="no", variant="default" if self.safe else "primary")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "yes")

    def action_answer_safe(self) -> None:
        self.dismiss(self.safe)


def _spoken(words: Words) -> str:
    return words() if callable(words) else words


class Standing:
    """The dialogs of a network game that stand only while their cause does: a player gone, a
    question asked, a game over. Each is put up with the test of its cause (``ask``, ``track``);
    ``check`` closes the one in front, unanswered (None), once its cause is gone, so the keys reach
    the board again. It runs after each word from the server and whenever the screen in front
    changes, so a stale dialog under another one closes as it comes to the front."""

    def __init__(self, app) -> None:
        self.app = app
        self._causes: dict[Screen, Callable[[], bool]] = {}

    def ask(self, dialog: Screen, answered: Callable | None, cause: Callable[[], bool]) -> None:
        self.app.push_screen(dialog, answered)
        self.track(dialog, cause)

    def track(self, dialog: Screen, cause: Callable[[], bool]) -> None:
        self._causes[dialog] = cause

    def check(self, _changed: Screen | None = None) -> None:
        stack = self.app.screen_stack
        self._causes = {dialog: cause for dialog, cause in self._causes.items() if dialog in stack}
        front = self.app.screen
        cause = self._causes.get(front)
        if cause is not None and not cause():
            del self._causes[front]
            front.dismiss(None)  # the screen that comes to the front is checked in turn


class JoinDialog(SosModal[JoinPlan | None]):
    """Ask for the game's address and the player's name, or show the open public games of a
    server (its lobby, refreshed every few seconds) to take a seat in one."""

    BINDINGS = [Binding("escape", "cancel", N_("Cancel")), Binding("f5", "lobby", N_("Refresh"))]
    WORDS = {
        "#url-label": N_("Join a game: the address the host gave you (ws://HOST:PORT/CODE)"),
        "#name-label": N_("Your name"),
        "#lobby-label": N_("Or take a seat in an open game of a server (ws://HOST:PORT), with enter:"),
        "#join": N_("Join"),
        "#cancel": N_("Cancel"),
    }
    """The dialog's words by widget, translated where shown (again after a language switch)."""
    COLUMNS = (N_("Code"), N_("Board"), N_("Free"), N_("Waiting"))
    DEFAULT_CSS = """
    JoinDialog { align: center middle; }
    JoinDialog #dialog {
        width: 78; max-width: 100%; height: auto; max-height: 100%; border: thick $frame-focus;
        padding: 0 1; background: $surface;
    }
    JoinDialog Label { width: 100%; }
    JoinDialog Input { margin-bottom: 1; }
    JoinDialog #server { margin-bottom: 0; }
    JoinDialog #lobby { height: 7; }
    JoinDialog #lobby-status { color: $text-muted; height: 1; }
    JoinDialog #problem { color: $text-error; height: auto; }
    JoinDialog #buttons { height: auto; align: center middle; }
    JoinDialog #buttons Button { margin: 0 1; }
    """
    REFRESH = 5.0
    """Seconds between two lists of a server's open games while the dialog is up."""

    def __init__(self, name: str = "", server: str = "") -> None:
        super().__init__()
        self.default_name = name
        self.default_server = server
        self.listed: tuple[LobbyRoom, ...] = ()
        self.listed_from: str | None = None  # the server the list is of

    def compose_dialog(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(_(self.WORDS["#url-label"]), id="url-label")
            yield Input(placeholder="ws://192.168.1.5:7531/7f3kq-x9m2c", id="url", max_length=300,
                        compact=True)
            yield Label(_(self.WORDS["#name-label"]), id="name-label")
            yield Input(self.default_name, id="name", max_length=24, compact=True)
            yield Label(_(self.WORDS["#lobby-label"]), id="lobby-label")
            yield Input(self.default_server, placeholder="ws://HOST:PORT", id="server", max_length=300,
                        compact=True)
            yield Static(id="lobby-status", markup=False)
            yield DataTable(id="lobby", cursor_type="row", zebra_stripes=True, show_cursor=True)
            yield Static(id="problem", markup=False)
            with ButtonRow(id="buttons"):
                yield Button(_(self.WORDS["#join"]), id="join", variant="primary", compact=True)
                yield Button(_(self.WORDS["#cancel"]), id="cancel", compact=True)

    def on_mount(self) -> None:
        self._columns()
        if self.default_server:
            self.action_lobby()
            self.query_one("#lobby", DataTable).focus()
        self.set_interval(self.REFRESH, self._refresh)

    def _columns(self) -> None:
        table = self.query_one("#lobby", DataTable)
        table.clear(columns=True)
        for words, width in zip(self.COLUMNS, (12, 16, 6, 30), strict=True):
            table.add_column(_(words), width=width)
        self._show()

    def language_changed(self) -> None:
        """The words again in the new language, in place: what the player typed stays."""
        for selector, words in self.WORDS.items():
            widget = self.query_one(selector)
            if isinstance(widget, Button):
                widget.label = _(words)
            else:
                widget.update(_(words))
        self.query_one("#problem", Static).update("")
        self._columns()
        self.refresh_bindings()

    # -- the lobby ---------------------------------------------------------------------------
    def _server(self) -> str | None:
        """The server whose games to list: the one typed, else the one of the game address; None
        (and a word why, when something was typed) if there is none."""
        typed = self.query_one("#server", Input).value.strip() or self.query_one("#url", Input).value.strip()
        if not typed:
            return None
        try:
            return parse_url(typed, need_code=False).server
        except ValueError as problem:
            self.query_one("#lobby-status", Static).update(explain(problem))
            return None

    def action_lobby(self) -> None:
        server = self._server()
        if server is not None:
            self.query_one("#lobby-status", Static).update(_("Asking {server} for its open games…").format(
                server=server))
            self._list(server)

    def _refresh(self) -> None:
        if self.listed_from is not None and self.app.screen is self:
            self._list(self.listed_from)

    @work(exclusive=True, group="lobby")
    async def _list(self, server: str) -> None:
        try:
            rooms = await list_rooms(server, timeout=5.0)
        except NetError as problem:
            self.query_one("#lobby-status", Static).update(explain(problem))
            return
        self.listed, self.listed_from = rooms, server
        self._show()

    def _show(self) -> None:
        """The listed games in the table, the cursor kept on the same game where it is still open."""
        table = self.query_one("#lobby", DataTable)
        chosen = self._chosen()
        table.clear()
        for room in self.listed:
            board = f"{room.size}x{room.size} {_(room.mode.value)}"
            table.add_row(room.room, cell(board, 16), f"{room.free}/{room.seats}",
                          cell(", ".join(room.waiting), 30), key=room.room)
        if chosen is not None and chosen in {r.room for r in self.listed}:
            table.move_cursor(row=table.get_row_index(chosen))
        if self.listed_from is not None:
            count = len(self.listed)
            self.query_one("#lobby-status", Static).update(
                ngettext("{n} open game on {server}", "{n} open games on {server}", count).format(
                    n=count, server=self.listed_from) if count
                else _("No open games on {server} now.").format(server=self.listed_from))

    def _chosen(self) -> str | None:
        table = self.query_one("#lobby", DataTable)
        if not table.row_count:
            return None
        return table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value

    @on(DataTable.RowSelected, "#lobby")
    def _take_seat(self, event: DataTable.RowSelected) -> None:
        """Enter on a listed game: join it with the name given."""
        event.stop()
        if self.listed_from is None or event.row_key.value is None:
            return
        try:
            name = check_name(self.query_one("#name", Input).value)
        except ValueError as problem:
            self.query_one("#problem", Static).update(explain(problem))
            self.query_one("#name", Input).focus()
            return
        self.dismiss(JoinPlan(f"{self.listed_from}/{event.row_key.value}", name))

    # -- an address given --------------------------------------------------------------------
    def _submit(self) -> None:
        try:
            url = str(parse_url(self.query_one("#url", Input).value))
            name = check_name(self.query_one("#name", Input).value)
        except ValueError as problem:
            self.query_one("#problem", Static).update(explain(problem))
            return
        self.dismiss(JoinPlan(url, name))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.input.id == "server":
            self.action_lobby()
            self.query_one("#lobby", DataTable).focus()
        else:
            self._submit()

    @on(Button.Pressed, "#join")
    def _join(self, event: Button.Pressed) -> None:
        event.stop()
        self._submit()

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


class NetGameScreen(PlayScreen):
    """Play ``plan`` (a ``HostPlan`` or a ``JoinPlan``) over the network."""

    BINDINGS = [
        Binding("u,ctrl+z", "undo", N_("Undo"), key_display="u"),
        Binding("ctrl+s", "save", N_("Save"), show=False),
        Binding("ctrl+n", "app.new_game", N_("New game"), show=False),  # leaving this one, asked first
        Binding("ctrl+o", "app.open", N_("Open a saved game"), show=False),
        Binding("ctrl+r", "reconnect", N_("Reconnect"), show=False),
        Binding("ctrl+l", "leave", N_("Leave"), key_display="^l"),
    ]
    DEFAULT_CSS = """
    NetGameScreen #net-status { dock: top; height: auto; max-height: 4; padding: 0 1; background: $boost; }
    NetGameScreen #net-status.-lost { background: $error 30%; }
    """

    def __init__(self, plan: HostPlan | JoinPlan, computer: ComputerPool, keeper: Keeper | None,
                 mouse: bool = True, tokens: TokenStore | None = None) -> None:
        super().__init__(mouse=mouse)
        self.computer = computer  # a hosted server's computer seats think here
        self.keeper = keeper
        self.plan = plan
        self.tokens = tokens
        self.game: RemoteGame | None = None
        self.server: Server | None = None
        self.join_url: str | None = None
        self.lost: NetError | None = None
        self._recorded: str | None = None  # the game id already put in this player's history
        self.dialogs: Standing | None = None  # the dialogs that close when their cause is gone
        self._waiting: tuple[str, ...] = ()  # who the game waited for at the last state
        self.attempt = 0  # reconnecting: the attempt under way (0: connected, or not trying)
        self._store = None  # a hosted game's rooms on disk

    @property
    def source(self) -> RemoteGame | None:
        return self.game

    def compose(self) -> ComposeResult:
        yield Static(_("Connecting…"), id="net-status", markup=False)
        yield from super().compose()

    def on_mount(self) -> None:
        super().on_mount()
        self.dialogs = Standing(self.app)
        self.app.screen_change_signal.subscribe(self, self.dialogs.check)
        self.connect()

    def language_changed(self) -> None:
        super().language_changed()
        self._status()

    # -- the connection ---------------------------------------------------------------------
    @work(exclusive=True, group="net")
    async def connect(self) -> None:
        """Join (or host) the game and follow it; a connection lost is tried again by itself, with
        the seat's token, after a growing, jittered pause (ctrl+r tries at once), until it comes
        back or the server says the game is gone."""
        self.lost, self.attempt = None, 0
        self._status()
        while True:
            try:
                if self.game is None:
                    self.game = await self._open()
                    self.game.subscribe(self._keep)
                else:
                    await self.game.connect()
                if self.attempt:
                    self.notify(_("Reconnected."), timeout=3)
                self.lost, self.attempt = None, 0
                self._update(None)
                async for message in self.game.updates():
                    self._update(message)
            except NetError as problem:
                if not self._comes_back(problem):
                    self._lost(problem)
                    return
                self.lost, self.attempt = problem, self.attempt + 1
                self._status()
                await asyncio.sleep(reconnect_delay(self.attempt))

    def _comes_back(self, problem: NetError) -> bool:
        """Worth trying again by itself: a seat in a game under way that the server has not ended
        (a dropped connection, a server restarting)."""
        game = self.game
        return (game is not None and self.server is None and problem.retry and not game.ended
                and bool(game.my_seats) and game.state is not None and not game.state.is_over)

    async def _open(self) -> RemoteGame:
        plan = self.plan
        tokens = self.tokens or TokenStore.default()
        if isinstance(plan, JoinPlan):
            game = RemoteGame(plan.url, plan.name, tokens=tokens)
        elif plan.server_url is not None:
            url, token, _room = await create_room(plan.server_url, plan.size, plan.mode,
                                                  [s.to_dict() for s in plan.seats], public=plan.public)
            self.join_url = url
            game = RemoteGame(url, _host_name(plan), token=token, tokens=tokens, host=True)
        else:
            server, room, token = await self._host(plan, tokens)
            self.join_url = server.url(room, reachable_host(plan.bind))
            game = RemoteGame(server.url(room), _host_name(plan), token=token, tokens=tokens, host=True)
        await game.connect()
        return game

    async def _host(self, plan: HostPlan, tokens: TokenStore):
        """Start this terminal's own server, its rooms kept on disk: the server, the room and the
        token of the host's own seats. The unfinished game the same plan hosted before (the app
        closed, the computer crashed) is offered to continue, with its code, seats and moves, the
        host's own seats taken back with the token kept for them (a joiner's kept in the same data
        folder is not the host's); else a new room."""
        key = host_key(plan.size, plan.mode, list(plan.seats), plan.bind, plan.port)
        try:
            store = await asyncio.to_thread(open_store, key)
        except StorageError as problem:
            raise NetError(explain(problem), retry=False) from None
        listeners = [self.keeper.on_change] if self.keeper is not None else []
        server = Server(computer=self.computer, computer_delay=0.5, listeners=listeners, store=store)
        kept = sorted(await asyncio.to_thread(store.load), key=lambda k: k.active)
        room = None
        if kept and kept[-1].record is not None and not kept[-1].record.state.is_over:
            moves = len(kept[-1].record.moves)
            go_on = await self.app.push_screen_wait(Choice(
                lambda: ngettext("Your unfinished network game is still here ({n} move). Continue it, with "
                                 "the same code, or start a new one?",
                                 "Your unfinished network game is still here ({n} moves). Continue it, with "
                                 "the same code, or start a new one?", moves).format(n=moves),
                lambda: _("Continue"), lambda: _("New game"), safe=True))
            if go_on:
                room = server.restore(kept[-1])
            else:
                for old in kept:
                    store.delete(old.code)
        try:
            await server.start(plan.bind, plan.port)
        except OSError as problem:
            await store.close()
            reason = _("cannot listen on {address}: {reason}").format(
                address=f"{plan.bind}:{plan.port}", reason=problem.strerror or problem)
            raise NetError(reason, retry=False) from None
        self.server, self._store = server, store
        if room is None:
            room = server.create_room(plan.size, plan.mode, list(plan.seats), key=key, public=plan.public)
        token = room.host_token(tokens.find(SeatKey.host(server.url(room))))
        try:
            await room.saved()
        except StorageError as problem:  # the rooms database could not keep it: said, not a traceback
            raise NetError(explain(problem), retry=False) from None
        return server, room, token

    async def _end_hosting(self) -> None:
        """The host leaves: the game ends for everyone, and is forgotten on disk."""
        server, self.server = self.server, None
        if server is None:
            return
        for room in list(server.rooms.values()):
            if room.session is None or not room.session.state.is_over:
                await server.close_room(room, N_("{name} ended the game"),
                                        name=_host_name(self.plan) or _("the host"))
        await server.stop()
        if self._store is not None:
            await self._store.close()

    def _lost(self, problem: NetError) -> None:
        game = self.game
        if game is not None and game.state is not None and game.state.is_over:
            self._status()  # the game ended and its server closed it: nothing was lost
            return
        self.lost = problem
        self._status()
        if self.game is None and self.app.network is not None:
            # `sos-tui join/host` could not start its game: back to the shell with the reason
            self.app.exit(explain(problem), return_code=2)
            return
        if self.game is not None and self.game.ended:  # closed for good: nothing to reconnect to
            self.app.push_screen(
                Choice(lambda: _("The game has ended: {problem}.").format(problem=explain(problem)),
                       lambda: _("Leave"), lambda: _("Stay")), self._leave_if)
            return
        if self.game is None or not self.game.my_seats or self.game.record is None:
            self.app.push_screen(
                Choice(lambda: _("Could not start the network game: {problem}").format(
                    problem=explain(problem)), lambda: _("Leave"), lambda: _("Stay")),
                self._leave_if)
            return
        if problem.code == "replaced":  # the player took the seat up elsewhere: not to win back
            self.app.push_screen(
                Choice(lambda: _("Your seat is played from another terminal now, and this one has let "
                                 "it go."), lambda: _("Leave"), lambda: _("Stay")), self._leave_if)
            return
        if self.server is not None:
            return
        # the room is gone from its server: the moves made are here, and can be played on
        self.app.push_screen(
            Choice(lambda: _("The game is gone from its server: {problem}.\n\nPlay on here from the last "
                             "position, at this one screen?").format(problem=explain(problem)),
                   lambda: _("Play on here"), lambda: _("Leave"), safe=True),
            self._play_on_if)

    def _play_on_if(self, yes: bool | None) -> None:
        if yes is None:
            return
        if not yes:
            self.action_leave()
            return
        record = self.game.record  # everyone at this screen now: a local game with its own id
        self.app.call_later(self.app.play_record, GameRecord.for_state(record.state, record.players))

    def _leave_if(self, yes: bool | None) -> None:
        if yes:
            self.action_leave()

    # -- what the server says ---------------------------------------------------------------
    def _update(self, message: ServerMessage | None) -> None:
        """Show what the server said (None: the state just taken in on connecting)."""
        if not self.whole:
            return  # the screen is being taken down (the app quits) while the server still talks
        game = self.game
        match message:
            case None | StateMessage():
                self.board.interactive = bool(game.my_seats)  # a spectator watches
                self.refresh_bindings()
                self.seats = game.seats
                self.state = game.state
                self.thinking = game.kind_to_move is SeatKind.COMPUTER and not game.waiting_for
                if message and message.change == "move" and game.state is not None and game.state.is_over:
                    self._finished()
                if message is not None:
                    self._told(message)
                self._waiting = game.waiting_for
            case RematchRequestMessage(by=by) if by in game.my_seats:
                pass  # this player's own offer: already said when it was made
            case RematchRequestMessage(name=name, vote=vote):  # before undo-request, its base
                self._rematch_asked(printable(name)[:40], vote)
            case UndoRequestMessage(by=by) if by in game.my_seats:
                pass  # this player's own request: already said when it was made
            case RematchResultMessage():
                if not message.accepted:
                    self.notify(_("No rematch: {reason}.").format(reason=shorten(message.text, 80)),
                                timeout=4, markup=False)
            case ErrorMessage():
                self.notify(message.text, title=_("Refused"), severity="warning", timeout=4, markup=False)
            case UndoRequestMessage(name=name, vote=vote):
                name = printable(name)[:40]
                if vote:  # asked until answered here, or settled (a move, a timeout, another's no)
                    self.dialogs.ask(Choice(
                        lambda: _("{name} asks to undo the last turn. Agree?").format(name=name),
                        lambda: _("Accept"), lambda: _("Decline")),
                        self._answer_undo, lambda: game.undo_request is not None)
                else:
                    self.notify(_("{name} asks to undo; waiting for the others to answer.").format(name=name),
                                timeout=4, markup=False)
            case UndoResultMessage():
                reason = shorten(message.text, 80)
                text = _("Undo accepted: {reason}.") if message.accepted else _("Undo declined: {reason}.")
                self.notify(text.format(reason=reason), timeout=4, markup=False)
        self._status()
        self.dialogs.check()

    def _told(self, message: StateMessage) -> None:
        """Say what just happened at the table: a rematch begun, a player gone (on purpose or
        not), and what this player can do about it."""
        game = self.game
        gone = [name for name in game.waiting_for if name not in self._waiting]
        if message.change == "rematch":  # the last game's result gives way to the new game (``_game_over``)
            first = game.seats[0].name if game.seats else ""
            self.notify(_("Rematch: {name} starts.").format(name=printable(first)[:40]), timeout=4,
                        markup=False)
        elif gone and game.state is not None and not game.state.is_over:
            names = names_list([printable(name)[:40] for name in gone])
            if message.change == "quit":  # asked until they are back (or the game ends)
                self.dialogs.ask(Choice(
                    lambda: _("{names} left the game. Their seat stays open: wait for them to come back, "
                              "or leave.").format(names=names), lambda: _("Leave"), lambda: _("Wait")),
                    lambda leave: self.app.call_later(self.app.leave_network) if leave else None,
                    lambda: self._playing() and any(name in game.waiting_for for name in gone))
            else:
                self.notify(_("{names} lost the connection: the game waits for them (ctrl+l leaves).")
                            .format(names=names), severity="warning", timeout=6, markup=False)

    def _rematch_asked(self, name: str, vote: bool) -> None:
        game = self.game
        second = game.seats[1].name if len(game.seats) > 1 else ""  # who starts the rematch
        if not vote:
            self.notify(_("{name} offers a rematch; waiting for the others to answer.").format(name=name),
                        timeout=4, markup=False)
            return
        self.dialogs.ask(Choice(
            lambda: _("{name} offers a rematch ({first} starts). Play again?").format(
                name=name, first=printable(second)[:40]),
            lambda: _("Play again"), lambda: _("No, thanks")),
            self._answer_rematch, lambda: game.rematch_request is not None)

    def _answer_rematch(self, accept: bool | None) -> None:
        if accept is not None and self.game is not None and self.game.connected \
                and self.game.rematch_request is not None:
            self._send(self.game.answer_rematch(accept))

    def _keep(self, change: Change) -> None:
        """A finished game this player sat in goes into their history (the host's own server keeps
        the host's copy); a network game in progress is not autosaved here: it lives in its room."""
        game = self.game
        if change.finished and self.server is None and self.keeper is not None and game.my_seats \
                and self._recorded != change.record.game_id:
            self._recorded = change.record.game_id
            self.keeper.on_change(change)

    def _finished(self) -> None:
        self.call_after_refresh(self._game_over, self.game.state)

    def _game_over(self, state: GameState) -> None:
        """The result, shown while the game is over: a rematch, or an undo after the end, closes it."""
        front = self.app.screen
        super()._game_over(state)
        if self.app.screen is not front:
            self.dialogs.track(self.app.screen, lambda: not self._playing())

    def _playing(self) -> bool:
        """A game under way that has not ended for good."""
        game = self.game
        return game is not None and not game.ended and game.state is not None and not game.state.is_over

    def action_rematch(self) -> None:
        """Offer the others a rematch (or agree to theirs), once the game is over."""
        game = self.game
        if game is not None and game.may("rematch"):
            self.notify(_("Rematch offered: waiting for the others to agree…"), timeout=4)
            self._send(game.offer_rematch())

    def _after_game(self, choice: str | None) -> None:
        game = self.game
        if choice == "rematch":
            self.action_rematch()
        elif choice == "new":
            self.app.call_later(self.app.leave_network, True)
        elif choice == "quit":
            self.app.call_later(self.app.action_quit)
        elif choice == "review" and game is not None and game.record is not None:
            self.app.replay(game.record, review=True)

    def _status(self) -> None:
        found = self.query("#net-status")
        if not found:  # the screen is being taken down (the app quits) while the server still talks
            return
        status = found.first(Static)
        game, lines = self.game, []
        if self.join_url:
            # Translators: NAME is what a friend types after --name: keep it in capitals.
            lines.append(_("Friends join with:  {command}").format(
                command=f"sos-tui join {self.join_url} --name " + _("NAME")))
        if self.lost is not None and self.attempt:
            lines.append(_("Connection lost: {problem}. Reconnecting… (attempt {n}; ctrl+r now, ctrl+l "
                           "leaves)").format(problem=explain(self.lost), n=self.attempt))
        elif self.lost is not None and game is not None and game.ended:
            lines.append(_("The game has ended: {problem}. ctrl+l leaves.").format(
                problem=explain(self.lost)))
        elif self.lost is not None:
            lines.append(_("Connection lost: {problem}. ctrl+r reconnects, ctrl+l leaves.").format(
                problem=explain(self.lost)))
        elif game is None:
            lines.append(_("Connecting…"))
        elif game.phase == "lobby":
            open_seats = game.open_seats
            lines.append(ngettext("Waiting for {n} more player to join…",
                                  "Waiting for {n} more players to join…", open_seats).format(n=open_seats))
        elif game.waiting_for:
            names = names_list([printable(name)[:40] for name in game.waiting_for])
            lines.append(_("Waiting for {names} to reconnect…").format(names=names))
        elif game.state is not None and game.state.is_over:
            lines.append(_("Game over: {result}").format(result=printable(game.record.result_text(tr=_)))
                         if game.record else _("Game over"))
        elif game.my_turn:
            lines.append(_("Your turn."))
        elif game.seat_to_move is not None:
            who = printable(game.seat_to_move.name)
            lines.append(_("{name}'s turn.").format(name=who) if game.my_seats
                         else _("{name}'s turn.  (You are watching.)").format(name=who))
        if lines and game is not None and self.lost is None and game.spectators:
            lines[-1] += "  " + ngettext("{n} person is watching.", "{n} people are watching.",
                                         game.spectators).format(n=game.spectators)
        status.update("\n".join(lines))
        status.set_class(self.lost is not None, "-lost")

    # -- moves and actions ------------------------------------------------------------------
    def apply(self, move: Move, version: int | None = None) -> bool:
        game = self.game
        if game is None or game.state is None or self.lost is not None:
            self.notify(_("Not connected to the game."), severity="warning", timeout=2)
            return False
        if game.state.is_over:
            self.notify(_("The game is over."), severity="warning", timeout=2)
            return False
        try:
            game.check(move)
        except NotYourTurnError as problem:
            text = explain(problem)
            self.notify(text[:1].upper() + text[1:200] + ".", severity="warning", timeout=2, markup=False)
            return False
        except IllegalMoveError as error:
            taken = game.state.cell(move.row, move.col) if 0 <= move.row < game.state.size \
                and 0 <= move.col < game.state.size else None
            self.notify(refused(move, taken, error), title=_("Move refused"), severity="warning", timeout=3)
            return False
        self._send(game.play(move))
        return True

    @work(group="send")
    async def _send(self, sending) -> None:
        try:
            await sending
        except NetError as problem:
            self.notify(explain(problem), severity="error", timeout=4, markup=False)

    def _answer_undo(self, accept: bool | None) -> None:
        if self.game is not None and self.game.connected and self.game.undo_request is not None:
            self._send(self.game.answer_undo(bool(accept)))

    def action_undo(self) -> None:
        game = self.game
        if game is None or not game.connected or not game.my_seats:
            self.notify(_("Only a seated player can ask for an undo."), timeout=2)
            return
        self.notify(_("Asking the others to agree to an undo…"), timeout=3)
        self._send(game.request_undo())

    def action_save(self) -> None:
        if self.game is not None and self.game.record is not None:
            self.app.save_game(self.game.record)

    def action_reconnect(self) -> None:
        """Try again now (it is tried again by itself too)."""
        if self.lost is None:
            self.notify(_("Connected."), timeout=2)
        elif self.server is not None:
            self.notify(_("This game's server has stopped."), severity="warning", timeout=3)
        else:
            self.connect()

    @property
    def leaving_asks(self) -> bool:
        """Leaving now would leave others waiting: this player holds a seat in a game under way, or
        hosts a game not over yet (its leaving ends it)."""
        game = self.game
        if game is None or not game.connected or game.phase == "over":
            return False
        return self.server is not None or (bool(game.my_seats) and game.phase == "playing")

    def ask_to_leave(self, then: Callable[[], object]) -> None:
        """Ask before leaving a game under way; ``then`` leaves (the app quits, or the screen closes).
        A host's leaving ends the game for everyone; a joiner's seat stays open for them."""
        if self.server is not None:
            question = _("Leave and end this network game for everyone?")
            yes = _("End the game")
        else:
            question = _("Leave this network game? Your seat stays open: the others can wait for you, "
                         "and the same join command brings you back.")
            yes = _("Leave")
        self.app.push_screen(Choice(question, yes, _("Stay")),
                             lambda leave: self._leaving(then) if leave else None)

    @work(group="leave")
    async def _leaving(self, then: Callable[[], object]) -> None:
        """Tell the others on the way out: a joiner says goodbye, a host ends the game."""
        if self.server is not None:
            await self._end_hosting()
        elif self.game is not None:
            await self.game.leave()
        then()

    def action_leave(self) -> None:
        if self.leaving_asks:
            self.ask_to_leave(then=lambda: self.app.call_later(self.app.leave_network))
            return
        self.app.call_later(self.app.leave_network)

    async def on_unmount(self) -> None:
        self.workers.cancel_group(self, "net")
        if self.game is not None:
            await self.game.close()
        if self.server is not None:  # the app quit: the game ends with it
            await self._end_hosting()


def reconnect_delay(attempt: int) -> float:
    """Seconds before reconnection ``attempt`` (1, 2, ...): 0.25 s doubling up to 15 s, each spread
    by half either way so that the players of a restarted server do not all come back at once."""
    return min(15.0, 0.25 * 2 ** (attempt - 1)) * random.uniform(0.5, 1.5)


def _host_name(plan: HostPlan) -> str | None:
    names = [s.name for s in plan.seats if s.kind is SeatKind.HUMAN]
    return names[0] if names else None
