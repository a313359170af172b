"""The move log: numbered moves with the player, the notation and the points scored."""

from __future__ import annotations

from collections import Counter

from rich.text import Text
from textual.widgets import DataTable

from sos_tui.engine import GameState, PlayerInfo

from .board import MARKS, MAX_PLAYER_STYLES


class MoveLog(DataTable):
    """A table of the moves of the state it is shown; appends when the game only grew."""

    DEFAULT_CSS = """
    MoveLog { height: 1fr; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)
        self._shown: tuple = ()
        self._last: tuple | None = None

    def on_mount(self) -> None:
        self.add_column("#", key="n")
        self.add_column("Player", key="player")
        self.add_column("Move", key="move")
        self.add_column("Pts", key="pts")
        self.app.theme_changed_signal.subscribe(self, self._recolour)

    def _recolour(self, _theme) -> None:
        """Player colours come from the theme: draw the rows again in the new ones."""
        if self._last is not None:
            self._shown = ()
            self.show(*self._last)

    def show(self, state: GameState, seats: tuple[PlayerInfo, ...]) -> None:
        self._last = (state, seats)
        moves = state.moves
        shown = self._shown
        if moves[: len(shown)] != shown or not shown:
            self.clear()
            shown = ()
        points = Counter(line.move_index for line in state.lines)
        movers = state.movers
        for index in range(len(shown), len(moves)):
            player = movers[index]
            mark = MARKS[player % len(MARKS)]
            pts = points.get(index, 0)
            self.add_row(
                str(index + 1),
                Text(f"{mark} {seats[player].name}", style=f"bold {_player_colour(self, player)}"),
                str(moves[index]),
                Text(f"+{pts}", style="bold") if pts else "",
                key=str(index),
            )
        self._shown = moves
        if moves:
            self.move_cursor(row=len(moves) - 1, animate=False, scroll=True)


def _player_colour(widget, player: int) -> str:
    return widget.app.theme_variables.get(f"player-{player % MAX_PLAYER_STYLES + 1}", "")
