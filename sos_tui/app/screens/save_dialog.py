"""The save dialog (ctrl+s): a file name prefilled with a fresh name in the saves folder."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Button, Input, Label

from sos_tui.engine import GameRecord
from sos_tui.i18n import N_, _, explain, mode_name, ngettext
from sos_tui.storage import StorageError, resolve_save_path, save_record, saves_dir, unique_save_path
from sos_tui.storage.paths import saves_confined

from ..language import SosModal
from ..text import ShowHidden, literal, result_shown, shown
from ..widgets.buttons import ButtonRow


def _is_file(path: Path) -> bool:
    """True if something other than a folder is at ``path`` (a bad path is no file, not a crash)."""
    try:
        return path.exists() and not path.is_dir()
    except (OSError, ValueError):
        return False


class SaveDialog(SosModal[Path | None]):
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
        border: thick $frame-dialog;
        background: $panel;
        padding: 1 2;
    }
    SaveDialog #title { width: 1fr; content-align: center middle; text-style: bold; }
    SaveDialog #about {
        width: 1fr; content-align: center middle; color: $foreground-muted; margin-bottom: 1;
    }
    SaveDialog #path { width: 1fr; }
    SaveDialog #where { color: $foreground-muted; width: 1fr; }
    SaveDialog .error { color: $text-error; text-style: bold; width: 1fr; }
    SaveDialog .warning { color: $text-warning; text-style: bold; width: 1fr; }
    SaveDialog #buttons { height: auto; margin-top: 1; align-horizontal: right; }
    SaveDialog #buttons Button { margin-left: 2; min-width: 10; }
    """

    BINDINGS = [
        Binding("escape", "cancel", N_("Cancel")),
    ]

    def __init__(self, record: GameRecord) -> None:
        super().__init__()
        self.record = record
        self._confirm_overwrite: Path | None = None
        self._default: str | None = None  # the path first offered (kept across a language switch)
        self._no_folder: StorageError | None = None  # why there is no saves folder, if there is none

    def compose_dialog(self) -> ComposeResult:
        record = self.record
        if self._default is None:
            try:
                self._default = str(unique_save_path(record))
            except StorageError as error:
                self._default, self._no_folder = "", error
        # Translators: between the names of the players of a game: "Ana vs Bo vs Computer"
        names = _(" vs ").join(shown(p.name, 24) for p in record.players)
        moves = len(record.moves)
        moves = ngettext("{n} move", "{n} moves", moves).format(n=moves)
        about = (f"{names} · {mode_name(record.mode)} {record.size}x{record.size} · {moves} · "
                 f"{result_shown(record, record.state)}")
        if self._no_folder is not None:
            where = _("No saves folder: {error}").format(error=explain(self._no_folder))
        elif saves_confined():  # a tab of sos-tui web
            where = _("Saved on the computer running sos-tui web, in its saves folder only: {folder}").format(
                folder=self._folder())
        else:
            where = _("Names without a folder go into the saves folder.")
        with Vertical(id="dialog"):
            yield Label(_("Save game"), id="title")
            yield Label(literal(about, 400), id="about")
            yield Input(value=self._default, placeholder=_("file name or path"), id="path",
                        highlighter=ShowHidden())
            yield Label(literal(where), id="where")
            yield Label("", id="message", markup=False)
            with ButtonRow(id="buttons"):
                yield Button(_("Save"), id="save", variant="primary")
                yield Button(_("Cancel"), id="cancel")

    @staticmethod
    def _folder() -> str:
        try:
            return str(saves_dir())
        except StorageError as error:
            return explain(error)

    def language_changed(self) -> None:
        """Draw the dialog again in the new language, with the path as typed."""
        if not self.is_mounted:
            return
        self._default = self.query_one("#path", Input).value
        self._confirm_overwrite = None  # its warning was in the old language: ask again
        self.call_later(self._recompose)
        self.refresh_bindings()

    async def _recompose(self) -> None:
        await self.recompose()
        self.query_one("#path", Input).focus()

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
            self._show(_("Type a file name."))
            return
        try:
            path = resolve_save_path(text, self.record)
        except StorageError as error:
            self._show(explain(error))
            return
        if _is_file(path) and self._confirm_overwrite != path:
            self._confirm_overwrite = path
            self._show(_("{name} already exists: press Save again to replace it.").format(
                name=shown(path.name, 80)), "warning")
            return
        try:
            written = save_record(self.record, path)
        except StorageError as error:
            self._confirm_overwrite = None
            self._show(explain(error))
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
