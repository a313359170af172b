"""The open dialog (ctrl+o): the saved and autosaved games, newest first, or any game file by its
path. The list is read in a thread; ``delete`` (or ``d``) on a highlighted row deletes that file
after a confirmation whose default answer keeps it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, DataTable, Input, Label
from textual.worker import get_current_worker

from sos_tui.engine import GameRecord
from sos_tui.i18n import N_, _, explain, mode_name
from sos_tui.storage import (
    LoadError,
    SaveInfo,
    StorageError,
    delete_save,
    list_autosaves,
    list_saves,
    load_record,
    resolve_open_path,
)
from sos_tui.storage.errors import shown_path

from ..language import SosModal
from ..text import ShowHidden, cell, literal, shown

EMPTY_TEXT = N_("No saved games yet — type a path")
LOADING_TEXT = N_("Reading the saved games…")
COLUMNS = ((N_("Saved"), "date"), (N_("Players"), "players"), (N_("Board"), "size"), (N_("Mode"), "mode"),
           (N_("Score"), "score"), (N_("Status"), "status"))
ERROR_WIDTH = 32
PLAYERS_WIDTH = 28
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


def save_row(info: SaveInfo, autosaved: bool = False) -> tuple:
    """The cells shown for one save: date, players, size, mode, score, status (or what is wrong).
    Every cell is a Rich Text of escaped text: names and file names are never markup."""
    when = f"{info.modified:%Y-%m-%d %H:%M}"
    if not info.ok:
        return (when, cell(info.name, PLAYERS_WIDTH, "dim"), "", "", "",
                Text("⚠ " + short_reason(info), style="bold red"))
    status = Text(_("finished"), style="dim") if info.finished else Text(_("unfinished"), style="bold")
    if autosaved:
        status.append(" " + _("(autosaved)"), style="dim")
    players = ", ".join(shown(name, NAME_WIDTH) for name in info.players)
    mode = mode_name(info.mode) if info.mode else ""
    return (when, cell(players, PLAYERS_WIDTH), f"{info.size}x{info.size}", cell(mode, 10),
            "-".join(str(s) for s in info.scores), status)


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
            with Horizontal(id="buttons"):
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


class OpenDialog(SosModal[GameRecord | None]):
    """Dismisses with the loaded GameRecord, or None when cancelled.

    A file that does not load shows why in the dialog, which stays open; the file is only read.
    After a successful open, ``path`` holds the file the record came from.
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
    OpenDialog #saves { height: auto; max-height: 14; }
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

    def __init__(self) -> None:
        super().__init__()
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
            with Horizontal(id="buttons"):
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
        table = self.query_one("#saves", DataTable)
        table.clear(columns=True)
        for label, key in COLUMNS:
            table.add_column(_(label), key=key)

    def language_changed(self) -> None:
        """Say everything again in the new language; the list, the highlighted row, the typed path
        and the focus stay (a message shown goes: it was in the old language)."""
        if not self.is_mounted:
            return
        table = self.query_one("#saves", DataTable)
        row = table.cursor_row
        self._words()
        if self.loaded:
            with self.prevent(DataTable.RowHighlighted):
                for index, item in enumerate(self.listed):
                    table.add_row(*save_row(item.info, item.autosaved), key=str(index))
                if self.listed:
                    table.move_cursor(row=max(0, min(row, len(self.listed) - 1)))
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
        with self.prevent(DataTable.RowHighlighted):
            table.clear()
            for index, item in enumerate(listed):
                table.add_row(*save_row(item.info, item.autosaved), key=str(index))
        self.query_one("#empty", Label).update(_(EMPTY_TEXT))
        self.set_class(not listed, "-empty")
        if error is not None:
            self._show(error)
        if listed:
            table.move_cursor(row=max(0, min(cursor, len(listed) - 1)))
            self._show_error_of(table.cursor_row)
            if not typing:
                table.focus()
        else:
            self.query_one("#path", Input).focus()

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
        self.path = path
        self.dismiss(record)
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
