"""The open dialog (ctrl+o): the saved and autosaved games, newest first, or any game file by its
path. The list is read in a thread; ``delete`` (or ``d``) on a highlighted row deletes that file
after a confirmation whose default answer keeps it.

A file of the game in progress that lacks some of its moves (an older save, or one that went
another way) is not opened as that game, which would overwrite the newer game's autosave: the
player is asked (``OlderSave``), and it opens as a separate game, with a game id of its own."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rich.cells import cell_len
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Button, DataTable, Input, Label
from textual.worker import get_current_worker

from sos_tui.engine import GameRecord
from sos_tui.i18n import N_, _, explain, mode_name, ngettext
from sos_tui.storage import (
    LoadError,
    SaveInfo,
    StorageError,
    autosave_path,
    delete_save,
    list_autosaves,
    list_saves,
    load_record,
    resolve_open_path,
)
from sos_tui.storage.errors import shown_path

from ..language import SosModal
from ..text import ShowHidden, cell, literal, shown
from ..widgets.buttons import ButtonRow

EMPTY_TEXT = N_("No saved games yet — type a path")
LOADING_TEXT = N_("Reading the saved games…")
COLUMNS = ((N_("Name"), "name"), (N_("Kind"), "kind"), (N_("Board"), "board"), (N_("Players"), "players"),
           (N_("Moves"), "moves"), (N_("Saved"), "date"))
GIVING_WAY = ((0, 3), (1,))
"""The columns that give way when the dialog is too narrow: name and players, then kind."""
NARROWEST = 8
DIALOG_WIDTH = 112
CHROME = 2 + 4
"""The dialog's border and padding, in columns."""
SHORT_BELOW = 100
"""Narrower terminals show the date without the time and the kind without saved/autosave (the
name says "Autosave")."""
TABLE_HEIGHT = 14
AROUND_TABLE = 16
"""The lines the dialog (and the footer) needs besides the table: a short terminal gets a
shorter table, so the path field and the buttons stay on screen."""
ERROR_WIDTH = 32
PLAYERS_WIDTH = 40
NAME_WIDTH = 16


def short_reason(info: SaveInfo) -> str:
    """Why a save does not load, in a few words, without its path or details: ``"not valid JSON"``,
    ``"a name cannot hold a control c…"``."""
    if info.problem is not None:
        reason = info.problem.reason
    else:
        reason = (info.error or _("unreadable")).removeprefix(shown_path(info.path) + ": ")
    reason = reason.split(" (", 1)[0].rsplit(": ", 1)[-1]
    return shown(reason, ERROR_WIDTH)


@dataclass(frozen=True)
class Listed:
    """A row of the list: a game file, and whether it is an autosave (a game left unfinished)."""

    info: SaveInfo
    autosaved: bool


def save_row(info: SaveInfo, autosaved: bool = False, short: bool = False) -> tuple[Text, ...]:
    """The cells shown for one game file: name, kind, board, players, moves, date (local time;
    ``short``: the day only, and the kind only finished / in progress). A file that does not
    load says why in the players' place. Every cell is a Rich Text of escaped text: names and
    file names are never markup."""
    when = Text(f"{info.modified:%Y-%m-%d}" if short else f"{info.modified:%Y-%m-%d %H:%M}", no_wrap=True)
    kind = _("autosave") if autosaved else _("saved")
    if not info.ok:
        problem = cell("⚠ " + short_reason(info), 80, "bold red")
        return cell(info.name, 80), cell(kind), Text(""), problem, Text(""), when  # the whole file name
    name = cell(_("Autosave"), 80, "italic") if autosaved else cell(info.path.stem, 80)
    status = _("finished") if info.finished else _("in progress")
    players = ", ".join(shown(name, NAME_WIDTH) for name in info.players)
    mode = mode_name(info.mode) if info.mode else ""
    return (name, cell(status if short else f"{kind}, {status}", 40, "" if info.finished else "bold"),
            cell(f"{info.size}x{info.size} {mode}"), cell(players, PLAYERS_WIDTH),
            Text(str(info.moves), justify="right", no_wrap=True), when)


def fit(widths: list[int], room: int) -> list[int]:
    """Column ``widths`` narrowed until they add up to ``room``: the widest of the columns
    ``GIVING_WAY`` first gives way, then the next ones, none below ``NARROWEST``; a cell cut
    short ends with "…"."""
    widths = list(widths)
    for columns in GIVING_WAY:
        while sum(widths) > room:
            widest = max(columns, key=lambda column: widths[column])
            if widths[widest] <= NARROWEST:
                break
            widths[widest] -= 1
    return widths


def newer_copy(record: GameRecord, copies: list[GameRecord | None]) -> GameRecord | None:
    """The copy of ``record``'s game among ``copies`` that ``record`` lacks moves of (an older
    save, or one that went another way), the one with the most moves; None when ``record`` is
    each copy as it is or further on (a continuation is simply newer)."""
    behind = [copy for copy in copies if copy is not None and copy.game_id == record.game_id
              and record.moves[:len(copy.moves)] != copy.moves]
    return max(behind, key=lambda copy: len(copy.moves), default=None)


def older_question(saved: GameRecord, newer: GameRecord) -> str:
    """Why ``saved`` is not opened as the game in progress ``newer``, and what is offered."""
    count = len(saved.moves)
    if newer.moves[:count] == saved.moves:
        why = ngettext("This save of the game is older than the game in progress ({saved} move vs "
                       "{current}).",
                       "This save of the game is older than the game in progress ({saved} moves vs "
                       "{current}).", count)
    else:
        why = ngettext("This save of the game went another way than the game in progress ({saved} move vs "
                       "{current}).",
                       "This save of the game went another way than the game in progress ({saved} moves vs "
                       "{current}).", count)
    return why.format(saved=count, current=len(newer.moves)) + " " + _(
        "Open it as a separate game? Both are kept.")


def read_saves() -> list[Listed]:
    """Saved games and the games in progress autosaved by any window, newest first; raises
    StorageError when the saves folder itself cannot be made. Reads every file: call it in a thread."""
    saves = [Listed(info, False) for info in list_saves()]
    try:
        autosaves = [Listed(info, True) for info in list_autosaves()]
    except StorageError:
        autosaves = []
    return sorted(saves + autosaves, key=lambda listed: listed.info.modified, reverse=True)


class ConfirmDelete(SosModal[bool]):
    """Asks before a game file is deleted; the focused answer, enter and escape keep it."""

    AUTO_FOCUS = "#keep"

    BINDINGS = [
        Binding("escape,n", "answer(False)", N_("Keep it")),
        Binding("y", "answer(True)", N_("Delete it")),
    ]

    def __init__(self, listed: Listed) -> None:
        super().__init__()
        self.listed = listed

    def compose_dialog(self) -> ComposeResult:
        info = self.listed.info
        if not info.ok:
            question = _("Delete the unreadable file {name}{players}? It cannot be undone.")
        elif self.listed.autosaved:
            question = _("Delete the autosaved game in progress {name}{players}? It cannot be undone.")
        else:
            question = _("Delete the saved game {name}{players}? It cannot be undone.")
        players = (" (" + ", ".join(shown(name, NAME_WIDTH) for name in info.players) + ")") if info.players \
            else ""
        with Vertical(id="dialog"):
            yield Label(_("Delete a game file?"), id="title")
            question = question.format(name=shown(info.name, 80), players=players)
            yield Label(literal(question, 400), id="question")
            with ButtonRow(id="buttons"):
                yield Label(_("y delete · n/esc keep"), id="keys")
                yield Button(_("Delete"), id="delete", variant="error")
                yield Button(_("Keep"), id="keep", variant="primary")

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "delete")

    def action_answer(self, delete: bool) -> None:
        self.dismiss(delete)

    def language_changed(self) -> None:
        """Ask again in the new language, the focus back on the answer that keeps the file."""
        self.call_later(self._recompose)
        self.refresh_bindings()

    async def _recompose(self) -> None:
        await self.recompose()
        self.query_one("#keep", Button).focus()


class OlderSave(SosModal[bool]):
    """Asks before a save that lacks moves of the game in progress is opened: as a separate game
    (True; both are kept), or not at all (False, escape)."""

    AUTO_FOCUS = "#separate"

    BINDINGS = [
        Binding("escape", "answer(False)", N_("Cancel")),
        Binding("o", "answer(True)", N_("Open as a separate game")),
    ]

    def __init__(self, saved: GameRecord, newer: GameRecord) -> None:
        super().__init__()
        self.saved, self.newer = saved, newer

    def compose_dialog(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(_("An older save of this game"), id="title")
            yield Label(literal(older_question(self.saved, self.newer), 400), id="question")
            with ButtonRow(id="buttons"):
                yield Label(_("o open separately · esc cancel"), id="keys")
                yield Button(_("Open as a separate game"), id="separate", variant="primary")
                yield Button(_("Cancel"), id="cancel")

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "separate")

    def action_answer(self, separate: bool) -> None:
        self.dismiss(separate)

    def language_changed(self) -> None:
        """Ask again in the new language, the focus back on opening it separately."""
        self.call_later(self._recompose)
        self.refresh_bindings()

    async def _recompose(self) -> None:
        await self.recompose()
        self.query_one("#separate", Button).focus()


class OpenDialog(SosModal[GameRecord | None]):
    """Dismisses with the loaded GameRecord, or None when cancelled.

    A file that does not load shows why in the dialog, which stays open; the file is only read.
    After a successful open, ``path`` holds the file the record came from. ``current`` is the
    game in progress (if any): a file of that game lacking some of its moves, or of a game whose
    autosave has moves it lacks, is opened as a separate game if the player agrees (``OlderSave``).
    """

    DEFAULT_CSS = """
    OpenDialog { align: center middle; background: $background 40%; }
    OpenDialog #dialog {
        width: 112;
        max-width: 100%;
        height: auto;
        max-height: 100%;
        border: thick $frame-dialog;
        background: $panel;
        padding: 1 2;
    }
    OpenDialog #title { width: 1fr; content-align: center middle; text-style: bold; margin-bottom: 1; }
    OpenDialog #empty {
        width: 1fr; color: $foreground-muted; text-style: italic; padding: 1 0; display: none;
    }
    OpenDialog.-empty #empty { display: block; }
    OpenDialog.-empty #saves { display: none; }
    OpenDialog #path { width: 1fr; margin-top: 1; }
    OpenDialog .error { color: $text-error; text-style: bold; width: 1fr; }
    OpenDialog #buttons { height: auto; margin-top: 1; align-horizontal: right; }
    OpenDialog #buttons Button { margin-left: 2; min-width: 10; }
    OpenDialog #keys { width: 1fr; color: $foreground-muted; }
    """

    BINDINGS = [
        Binding("escape", "cancel", N_("Cancel")),
        Binding("delete,d", "delete", N_("Delete the highlighted game file")),
    ]

    def __init__(self, current: GameRecord | None = None) -> None:
        super().__init__()
        self.current = current
        self.listed: list[Listed] = []
        self.loaded = False
        """True once the list has been read (``listed`` holds it)."""
        self.path: Path | None = None

    @property
    def saves(self) -> list[SaveInfo]:
        """The game files listed, in the order shown."""
        return [listed.info for listed in self.listed]

    def compose_dialog(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(id="title")
            yield DataTable(id="saves", cursor_type="row", zebra_stripes=True)
            yield Label(id="empty")
            yield Input(id="path", highlighter=ShowHidden())
            yield Label("", id="message", markup=False)
            with ButtonRow(id="buttons"):
                yield Label(id="keys")
                yield Button("", id="open", variant="primary")
                yield Button("", id="cancel")

    def on_mount(self) -> None:
        self._words()
        self.set_class(True, "-empty")
        self.load()

    def _words(self) -> None:
        """The dialog's fixed words in the current language (on mount and on a switch)."""
        self.query_one("#title", Label).update(_("Open a saved game"))
        self.query_one("#empty", Label).update(_(EMPTY_TEXT if self.loaded else LOADING_TEXT))
        self.query_one("#path", Input).placeholder = _("…or type the path of a game file and press enter")
        self.query_one("#keys", Label).update(_("⏎ open · del delete · esc cancel"))
        for button_id, words in (("#open", N_("Open")), ("#cancel", N_("Cancel"))):
            button = self.query_one(button_id, Button)
            button.label = _(words)
            button.refresh(layout=True)  # a new label, a new width

    def language_changed(self) -> None:
        """Say everything again in the new language; the list, the highlighted row, the typed path
        and the focus stay (a message shown goes: it was in the old language)."""
        if not self.is_mounted:
            return
        self._words()
        self._rows(self.query_one("#saves", DataTable).cursor_row)
        self._show("")
        self.refresh_bindings()

    # -- the list, read in a thread ---------------------------------------------------------
    @work(thread=True, exclusive=True, group="saves")
    def load(self, cursor: int = 0) -> None:
        """Read the list of game files (every one is loaded to describe it) off the UI thread."""
        try:
            listed, error = read_saves(), None
        except StorageError as problem:  # the saves folder itself cannot be made
            listed, error = [], explain(problem)
        if not get_current_worker().is_cancelled:  # a newer reading replaces this one
            self.app.call_from_thread(self._fill, listed, error, cursor)

    def _fill(self, listed: list[Listed], error: str | None, cursor: int) -> None:
        if not self.is_open:  # closed while the list was read
            return
        self.listed, self.loaded = listed, True
        table = self.query_one("#saves", DataTable)
        typing = bool(self.query_one("#path", Input).value)  # the player is typing a path: leave the focus
        self._rows(cursor)
        self.query_one("#empty", Label).update(_(EMPTY_TEXT))
        self.set_class(not listed, "-empty")
        if error is not None:
            self._show(error)
        if listed:
            self._show_error_of(table.cursor_row)
            if not typing:
                table.focus()
        else:
            self.query_one("#path", Input).focus()

    def _rows(self, cursor: int) -> None:
        """The table drawn again from ``listed``: columns as wide as the dialog allows (names and
        players cut short first), the row ``cursor`` highlighted."""
        if not self.loaded:
            return
        table = self.query_one("#saves", DataTable)
        width = self.app.size.width
        rows = [save_row(item.info, item.autosaved, width < SHORT_BELOW) for item in self.listed]
        labels = [_(label) for label, key in COLUMNS]
        natural = [max([cell_len(label)] + [row[column].cell_len for row in rows])
                   for column, label in enumerate(labels)]
        height = max(3, min(TABLE_HEIGHT, self.app.size.height - AROUND_TABLE))
        # As high as its rows (one line each, under a line of headings), set here rather than left
        # to `height: auto`: the table measures its rows later, when idle, and a layout of the
        # dialog in between (under load) kept its height at 0 lines even once they were measured.
        table.styles.height = min(len(rows) + 1, height)
        scrollbar = 2 if len(rows) + 1 > height else 0
        room = min(DIALOG_WIDTH, width) - CHROME - scrollbar - 2 * table.cell_padding * len(COLUMNS)
        with self.prevent(DataTable.RowHighlighted):
            table.clear(columns=True)
            for label, (_words, key), width in zip(labels, COLUMNS, fit(natural, room), strict=True):
                table.add_column(label, width=width, key=key)
            for index, row in enumerate(rows):
                table.add_row(*row, key=str(index))
            if rows:
                table.move_cursor(row=max(0, min(cursor, len(rows) - 1)))

    def on_resize(self) -> None:
        self._rows(self.query_one("#saves", DataTable).cursor_row)

    def _show_error_of(self, row: int) -> None:
        """An unreadable file shows its whole error when highlighted."""
        if 0 <= row < len(self.listed):
            self._show(self.listed[row].info.error or "")

    # -- events -----------------------------------------------------------------------------
    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._show_error_of(event.cursor_row)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if 0 <= event.cursor_row < len(self.listed):
            self.open_path(self.listed[event.cursor_row].info.path)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_open()

    def on_input_changed(self, event: Input.Changed) -> None:
        self._show("")

    @on(Button.Pressed, "#open")
    def _open_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_open()

    @on(Button.Pressed, "#cancel")
    def _cancel_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_cancel()

    # -- actions ----------------------------------------------------------------------------
    def action_cancel(self) -> None:
        self.dismiss(None)

    def action_open(self) -> None:
        """Open the typed path if there is one, else the highlighted save."""
        text = self.query_one("#path", Input).value
        if text.strip():
            try:
                path = resolve_open_path(text)
            except LoadError as error:
                self._show(explain(error))
                return
            if not self.open_path(path):
                self.query_one("#path", Input).focus()
            return
        table = self.query_one("#saves", DataTable)
        if self.listed and 0 <= table.cursor_row < len(self.listed):
            self.open_path(self.listed[table.cursor_row].info.path)
        else:
            self._show(_("Type the path of a game file."))

    def open_path(self, path: Path) -> bool:
        """Load ``path``: dismiss with its record, or show why it does not load and stay open."""
        try:
            record = load_record(path)
        except LoadError as error:
            self._show(explain(error))
            return False
        newer = newer_copy(record, [self.current, _autosaved(record)])
        if newer is None:
            self.path = path
            self.dismiss(record)
            return True

        def answered(separate: bool | None) -> None:
            if separate:
                self.path = path
                self.dismiss(GameRecord.for_state(record.state, record.players, record.started))  # a new id

        self.app.push_screen(OlderSave(record, newer), answered)
        return True

    def action_delete(self) -> None:
        """Ask, then delete the highlighted game file (a saved game, an autosave, an unreadable file)."""
        table = self.query_one("#saves", DataTable)
        row = table.cursor_row
        if self.focused is not table or not 0 <= row < len(self.listed):
            return
        listed = self.listed[row]

        def answered(delete: bool | None) -> None:
            if delete:
                self._delete(listed.info.path, row)

        self.app.push_screen(ConfirmDelete(listed), answered)

    @work(thread=True, group="delete")
    def _delete(self, path: Path, row: int) -> None:
        try:
            delete_save(path)
        except StorageError as error:
            self.app.call_from_thread(self._show, explain(error))
        else:
            self.app.call_from_thread(self.notify, shown(path.name, 80), title=_("Deleted"), timeout=4,
                                      markup=False)
        self.app.call_from_thread(self._reload, row)

    def _reload(self, row: int) -> None:
        if self.is_open:
            self.load(row)

    def _show(self, message: str) -> None:
        if not self.is_open:
            return
        label = self.query_one("#message", Label)
        label.update(literal(message, 400))
        label.set_class(bool(message), "error")


def _autosaved(record: GameRecord) -> GameRecord | None:
    """The autosave of ``record``'s game, if there is one that loads."""
    try:
        return load_record(autosave_path(record))
    except (LoadError, StorageError):
        return None
