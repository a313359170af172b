"""The Join dialog: a game's address and the player's name, or a seat in an open game of a
server's lobby."""

from __future__ import annotations

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Button, DataTable, Input, Label, Static

from sos_tui.engine import check_name
from sos_tui.i18n import N_, _, explain, ngettext
from sos_tui.net import NetError, parse_url
from sos_tui.net.client import list_rooms
from sos_tui.net.protocol import LobbyRoom
from sos_tui.net.run import JoinPlan

from ..language import SosModal
from ..text import cell
from ..widgets.buttons import ButtonRow


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
            if room.rated:
                board = " ".join((board, _("rated")))
            table.add_row(
                room.room,
                cell(board, 22),
                f"{room.free}/{room.seats}",
                cell(", ".join(room.people), 30),
                key=room.room,
            )
        if chosen is not None and chosen in {r.room for r in self.listed}:
            table.move_cursor(row=table.get_row_index(chosen))
        if self.listed_from is not None:
            count = len(self.listed)
            self.query_one("#lobby-status", Static).update(
                ngettext("{n} open game on {server}", "{n} open games on {server}", count).format(
                    n=count, server=self.listed_from
                )
                if count
                else _("No open games on {server} now.").format(server=self.listed_from)
            )

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
