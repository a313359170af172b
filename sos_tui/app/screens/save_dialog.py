"""The save dialog (ctrl+s): a file name prefilled with a fresh name in the saves folder."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label

from sos_tui.engine import GameRecord
from sos_tui.storage import StorageError, resolve_save_path, save_record, unique_save_path

from ..text import ShowHidden, literal, result_shown, shown


def _is_file(path: Path) -> bool:
    """True if something other than a folder is at ``path`` (a bad path is no file, not a crash)."""
    try:
        return path.exists() and not path.is_dir()
    except (OSError, ValueError):
        return False


class SaveDialog(ModalScreen[Path | None]):
    """Save ``record``; dismisses with the path written, or None when cancelled.

    A failed save shows its reason in the dialog and leaves it open. Saving over an existing
    file asks for a second press of Save (or enter) first.
    """

    DEFAULT_CSS = """
    SaveDialog { align: center middle; background: $background 40%; }
    SaveDialog #dialog {
        width: 76;
        max-width: 100%;
        height: auto;
        border: thick $accent;
        background: $panel;
        padding: 1 2;
    }
    SaveDialog #title { width: 1fr; content-align: center middle; text-style: bold; }
    SaveDialog #about { width: 1fr; content-align: center middle; color: $text-muted; margin-bottom: 1; }
    SaveDialog #path { width: 1fr; }
    SaveDialog #where { color: $text-muted; }
    SaveDialog .error { color: $error; text-style: bold; width: 1fr; }
    SaveDialog .warning { color: $warning; text-style: bold; width: 1fr; }
    SaveDialog #buttons { height: auto; margin-top: 1; align-horizontal: right; }
    SaveDialog #buttons Button { margin-left: 2; min-width: 10; }
    """

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
    ]

    def __init__(self, record: GameRecord) -> None:
        super().__init__()
        self.record = record
        self._confirm_overwrite: Path | None = None

    def compose(self) -> ComposeResult:
        record = self.record
        try:
            default, where = str(unique_save_path(record)), "Names without a folder go into the saves folder."
        except StorageError as error:
            default, where = "", f"No saves folder: {error}"
        names = " vs ".join(shown(p.name, 24) for p in record.players)
        moves = len(record.moves)
        result = result_shown(record, record.state)
        with Vertical(id="dialog"):
            yield Label("Save game", id="title")
            yield Label(literal(f"{names} · {record.mode.value} {record.size}x{record.size} · "
                                f"{moves} move{'s' if moves != 1 else ''} · {result}", 400), id="about")
            yield Input(value=default, placeholder="file name or path", id="path", highlighter=ShowHidden())
            yield Label(literal(where), id="where")
            yield Label("", id="message", markup=False)
            with Horizontal(id="buttons"):
                yield Button("Save", id="save", variant="primary")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#path", Input).focus()

    # -- events -----------------------------------------------------------------------------
    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_save()

    def on_input_changed(self, event: Input.Changed) -> None:
        self._confirm_overwrite = None
        self._show("")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "save":
            self.action_save()
        else:
            self.action_cancel()

    # -- actions ----------------------------------------------------------------------------
    def action_cancel(self) -> None:
        self.dismiss(None)

    def action_save(self) -> None:
        text = self.query_one("#path", Input).value
        if not text.strip():
            self._show("Type a file name.")
            return
        try:
            path = resolve_save_path(text, self.record)
        except StorageError as error:
            self._show(str(error))
            return
        if _is_file(path) and self._confirm_overwrite != path:
            self._confirm_overwrite = path
            self._show(f"{shown(path.name, 80)} already exists: press Save again to replace it.", "warning")
            return
        try:
            written = save_record(self.record, path)
        except StorageError as error:
            self._confirm_overwrite = None
            self._show(str(error))
            return
        self.dismiss(written)

    def _show(self, message: str, kind: str = "error") -> None:
        """Show ``message`` under the path (empty: clear it), literally; a problem sends the focus to
        the path."""
        label = self.query_one("#message", Label)
        label.update(literal(message, 400))
        label.set_class(bool(message) and kind == "error", "error")
        label.set_class(bool(message) and kind == "warning", "warning")
        if message:
            self.query_one("#path", Input).focus()
