"""The open dialog (ctrl+o): the saved games, newest first, or any game file by its path."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, DataTable, Input, Label

from sos_tui.engine import GameRecord
from sos_tui.storage import (
    LoadError,
    SaveInfo,
    StorageError,
    autosaves_dir,
    list_autosaves,
    list_saves,
    load_record,
    saves_dir,
)

EMPTY_TEXT = "No saved games yet — type a path"
ERROR_WIDTH = 32
PLAYERS_WIDTH = 28


def resolve_open_path(text: str) -> Path:
    """The file a typed path means: ``~`` expanded; a relative name is looked for in the saves
    folder first (also with ``.json`` added), then taken as it is."""
    path = Path(text.strip()).expanduser()
    if path.is_absolute():
        return path
    try:
        folder = saves_dir()
    except StorageError:
        return path
    candidates = [folder / path]
    if path.suffix.lower() != ".json":
        candidates.append(folder / path.with_name(path.name + ".json"))
    return next((candidate for candidate in candidates if candidate.exists()), path)


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def short_reason(info: SaveInfo) -> str:
    """Why a save does not load, without its path and details: ``"not valid JSON"``."""
    reason = info.error or "unreadable"
    prefix = f"{info.path}: "
    reason = reason.removeprefix(prefix).removeprefix("not a game record: ").removeprefix("the file is ")
    reason = reason.split(" (", 1)[0]
    return _clip(reason, ERROR_WIDTH)


def save_row(info: SaveInfo) -> tuple:
    """The cells shown for one save: date, players, size, mode, score, status (or what is wrong)."""
    when = f"{info.modified:%Y-%m-%d %H:%M}"
    if not info.ok:
        return (when, Text(_clip(info.name, PLAYERS_WIDTH), style="dim"), "", "", "",
                Text("⚠ " + short_reason(info), style="bold red"))
    status = Text("finished", style="dim") if info.finished else Text("unfinished", style="bold")
    if info.path.parent.name == autosaves_dir().name:
        status.append(" (autosaved)", style="dim")
    return (when, _clip(", ".join(info.players), PLAYERS_WIDTH), f"{info.size}x{info.size}", info.mode or "",
            "-".join(str(s) for s in info.scores), status)


class OpenDialog(ModalScreen[GameRecord | None]):
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
        border: thick $accent;
        background: $panel;
        padding: 1 2;
    }
    OpenDialog #title { width: 1fr; content-align: center middle; text-style: bold; margin-bottom: 1; }
    OpenDialog #saves { height: auto; max-height: 14; }
    OpenDialog #empty { width: 1fr; color: $text-muted; text-style: italic; padding: 1 0; display: none; }
    OpenDialog.-empty #empty { display: block; }
    OpenDialog.-empty #saves { display: none; }
    OpenDialog #path { width: 1fr; margin-top: 1; }
    OpenDialog .error { color: $error; text-style: bold; width: 1fr; }
    OpenDialog #buttons { height: auto; margin-top: 1; align-horizontal: right; }
    OpenDialog #buttons Button { margin-left: 2; min-width: 10; }
    OpenDialog #keys { width: 1fr; color: $text-muted; }
    """

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.saves: list[SaveInfo] = []
        self.path: Path | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label("Open a saved game", id="title")
            yield DataTable(id="saves", cursor_type="row", zebra_stripes=True)
            yield Label(EMPTY_TEXT, id="empty")
            yield Input(placeholder="…or type the path of a game file and press enter", id="path")
            yield Label("", id="message")
            with Horizontal(id="buttons"):
                yield Label("⏎ open · esc cancel", id="keys")
                yield Button("Open", id="open", variant="primary")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        table = self.query_one("#saves", DataTable)
        for label, key in (("Saved", "date"), ("Players", "players"), ("Board", "size"), ("Mode", "mode"),
                           ("Score", "score"), ("Status", "status")):
            table.add_column(label, key=key)
        try:
            # saved games, and the games in progress autosaved by any window
            self.saves = sorted(list_saves() + list_autosaves(), key=lambda info: info.modified, reverse=True)
        except StorageError as error:  # the saves folder itself cannot be made
            self.saves = []
            self._show(str(error))
        for index, info in enumerate(self.saves):
            table.add_row(*save_row(info), key=str(index))
        self.set_class(not self.saves, "-empty")
        if self.saves:
            table.focus()
        else:
            self.query_one("#path", Input).focus()

    # -- events -----------------------------------------------------------------------------
    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """An unreadable save shows its whole error when highlighted."""
        event.stop()
        info = self.saves[int(event.row_key.value)]
        self._show(info.error or "")

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.open_path(self.saves[int(event.row_key.value)].path)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_open()

    def on_input_changed(self, event: Input.Changed) -> None:
        self._show("")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "open":
            self.action_open()
        else:
            self.action_cancel()

    # -- actions ----------------------------------------------------------------------------
    def action_cancel(self) -> None:
        self.dismiss(None)

    def action_open(self) -> None:
        """Open the typed path if there is one, else the highlighted save."""
        text = self.query_one("#path", Input).value
        if text.strip():
            if not self.open_path(resolve_open_path(text)):
                self.query_one("#path", Input).focus()
            return
        table = self.query_one("#saves", DataTable)
        if self.saves and 0 <= table.cursor_row < len(self.saves):
            self.open_path(self.saves[table.cursor_row].path)
        else:
            self._show("Type the path of a game file.")

    def open_path(self, path: Path) -> bool:
        """Load ``path``: dismiss with its record, or show why it does not load and stay open."""
        try:
            record = load_record(path)
        except LoadError as error:
            self._show(str(error))
            return False
        self.path = path
        self.dismiss(record)
        return True

    def _show(self, message: str) -> None:
        label = self.query_one("#message", Label)
        label.update(message)
        label.set_class(bool(message), "error")
