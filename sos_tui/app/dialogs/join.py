"""The Join dialog: a game's address and the player's name, or a seat in an open game of a
server's lobby, or a game against one of its bots (revision 6), at the size and mode chosen."""

from __future__ import annotations

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, DataTable, Input, Label, Select, Static

from sos_tui.engine import MAX_SIZE, MIN_SIZE, Mode, check_name
from sos_tui.i18n import N_, _, bot_label, explain, mode_name, ngettext
from sos_tui.net import NetError, parse_url
from sos_tui.net.client import read_lobby
from sos_tui.net.protocol import LobbyBot, LobbyRoom
from sos_tui.net.run import HostPlan, JoinPlan, against_bot, bot_settings

from ..language import SosModal
from ..text import cell
from ..widgets.buttons import ButtonRow

BOT_ROW = "bot:"
"""The start of a bot's row key in the lobby table (a room's code never holds a colon)."""


class JoinDialog(SosModal[JoinPlan | HostPlan | None]):
    """Ask for the game's address and the player's name, or show the open public games and the
    bots of a server (its lobby, refreshed every few seconds) to take a seat in one, or play one
    of the bots at the size and mode chosen under the list."""

    BINDINGS = [Binding("escape", "cancel", N_("Cancel")), Binding("f5", "lobby", N_("Refresh"))]
    WORDS = {
        "#url-label": N_("Join a game: the address the host gave you (ws://HOST:PORT/CODE)"),
        "#name-label": N_("Your name"),
        "#lobby-label": N_("Or a server's open games and bots (ws://HOST:PORT); enter takes one:"),
        "#bot-label": N_("Against a bot:"),
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
    JoinDialog #bot-settings { height: 1; }
    JoinDialog #bot-settings Label { width: auto; margin-right: 1; }
    JoinDialog #bot-settings Select { width: 24; margin-right: 1; }
    JoinDialog #problem { color: $text-error; height: auto; }
    JoinDialog #buttons { height: auto; align: center middle; }
    JoinDialog #buttons Button { margin: 0 1; }
    """
    REFRESH = 5.0
    """Seconds between two lists of a server's open games while the dialog is up."""

    def __init__(self, name: str = "", server: str = "", setup: dict | None = None) -> None:
        super().__init__()
        self.default_name = name
        self.default_server = server
        self.bot_size, self.bot_mode = bot_settings(setup)
        self.listed: tuple[LobbyRoom, ...] = ()
        self.bots: tuple[LobbyBot, ...] = ()
        self.listed_from: str | None = None  # the server the list is of

    def compose_dialog(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(_(self.WORDS["#url-label"]), id="url-label")
            yield Input(
                placeholder="ws://192.168.1.5:7531/7f3kq-x9m2c", id="url", max_length=300, compact=True
            )
            yield Label(_(self.WORDS["#name-label"]), id="name-label")
            yield Input(self.default_name, id="name", max_length=24, compact=True)
            yield Label(_(self.WORDS["#lobby-label"]), id="lobby-label")
            yield Input(
                self.default_server, placeholder="ws://HOST:PORT", id="server", max_length=300, compact=True
            )
            yield Static(id="lobby-status", markup=False)
            yield DataTable(id="lobby", cursor_type="row", zebra_stripes=True, show_cursor=True)
            with Horizontal(id="bot-settings"):
                yield Label(_(self.WORDS["#bot-label"]), id="bot-label")
                yield Select(
                    self._sizes(), value=self.bot_size, allow_blank=False, id="bot-size", compact=True
                )
                yield Select(
                    self._modes(), value=self.bot_mode, allow_blank=False, id="bot-mode", compact=True
                )
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

    @staticmethod
    def _sizes() -> list[tuple[str, int]]:
        return [(f"{n} x {n}", n) for n in range(MIN_SIZE, MAX_SIZE + 1)]

    @staticmethod
    def _modes() -> list[tuple[str, str]]:
        return [(mode_name(mode).capitalize(), mode.value) for mode in Mode]

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
        self.query_one("#bot-mode", Select).set_options(self._modes())
        self.query_one("#bot-mode", Select).value = self.bot_mode
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
            self.query_one("#lobby-status", Static).update(
                _("Asking {server} for its open games…").format(server=server)
            )
            self._list(server)

    def _refresh(self) -> None:
        if self.listed_from is not None and self.app.screen is self:
            self._list(self.listed_from)

    @work(exclusive=True, group="lobby")
    async def _list(self, server: str) -> None:
        try:
            lobby = await read_lobby(server, timeout=5.0)
        except NetError as problem:
            self.query_one("#lobby-status", Static).update(explain(problem))
            return
        self.listed, self.bots, self.listed_from = lobby.rooms, lobby.bots, server
        self._show()

    @on(Select.Changed, "#bot-size")
    @on(Select.Changed, "#bot-mode")
    def _bot_settings(self, event: Select.Changed) -> None:
        event.stop()
        if event.select.id == "bot-size":
            self.bot_size = event.value
        else:
            self.bot_mode = event.value
        self._show()

    def _show(self) -> None:
        """The listed games in the table, then the bots (at the size and mode chosen), the cursor
        kept on the same row where it is still listed."""
        table = self.query_one("#lobby", DataTable)
        chosen = self._chosen()
        table.clear()
        for room in self.listed:
            board = f"{room.size}x{room.size} {_(room.mode.value)}"
            if room.rated:
                board = " ".join((board, _("rated")))
            table.add_row(
                room.room,
                cell(board, 22),
                f"{room.free}/{room.seats}",
                cell(", ".join(room.people), 30),
                key=room.room,
            )
        board = f"{self.bot_size}x{self.bot_size} {_(self.bot_mode)}"
        for bot in self.bots:
            who = bot_label(bot.name) + (f" · {bot.engine}" if bot.engine else "")
            table.add_row(
                _("bot"), cell(board, 22), f"{bot.free}/{bot.games}", cell(who, 30), key=BOT_ROW + bot.name
            )
        if chosen is not None and chosen in table.rows:
            table.move_cursor(row=table.get_row_index(chosen))
        if self.listed_from is not None:
            self.query_one("#lobby-status", Static).update(self._status())

    def _status(self) -> str:
        """The games listed, in a line (the bots are their rows, under the games)."""
        count = len(self.listed)
        if not count:
            return _("No open games on {server} now.").format(server=self.listed_from)
        return ngettext("{n} open game on {server}", "{n} open games on {server}", count).format(
            n=count, server=self.listed_from
        )

    def _chosen(self) -> str | None:
        table = self.query_one("#lobby", DataTable)
        if not table.row_count:
            return None
        return table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value

    @on(DataTable.RowSelected, "#lobby")
    def _take_seat(self, event: DataTable.RowSelected) -> None:
        """Enter on a listed game: join it with the name given; on a bot: a game against it."""
        event.stop()
        key = event.row_key.value
        if self.listed_from is None or key is None:
            return
        try:
            name = check_name(self.query_one("#name", Input).value)
        except ValueError as problem:
            self.query_one("#problem", Static).update(explain(problem))
            self.query_one("#name", Input).focus()
            return
        if key.startswith(BOT_ROW):
            bot = key.removeprefix(BOT_ROW)
            self.dismiss(against_bot(self.listed_from, name, bot, self.bot_size, self.bot_mode))
        else:
            self.dismiss(JoinPlan(f"{self.listed_from}/{key}", name))

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
