"""The replay's status line: playing or paused, the move shown, the speed, the keys to jump."""

from __future__ import annotations

from textual.widgets import Label

from sos_tui.i18n import _

from ..text import literal


class ReplayStatus(Label):
    DEFAULT_CSS = """
    ReplayStatus {
        width: 1fr;
        height: 1;
        padding: 0 1;
        background: $panel;
        color: $foreground-muted;
    }
    ReplayStatus.-playing { color: $text-success; }
    """

    def say(self, playing: bool, position: int, total: int, delay: float) -> None:
        """Say that the replay is ``playing`` (or paused) after ``position`` of ``total`` moves,
        ``delay`` seconds a move."""
        if position == 0:
            where = _("move {n} of {total} (start)").format(n=position, total=total)
        else:
            where = _("move {n} of {total}").format(n=position, total=total)
        mode = "▶ " + _("playing") if playing else _("paused")
        speed = _("{seconds} s per move (+/- to change)").format(seconds=f"{delay:g}")
        self.update(literal(f"{mode} · {where} · {speed} · " + _("home/end: start/end")))
        self.set_class(playing, "-playing")
