"""The move log: numbered moves with the player, the notation and the points scored.

A ScrollView drawn line by line (Textual's Line API), like the board: a move appended repaints
one line, however long the game. The header stays pinned. The log shows ``state`` (with the
names in ``seats``); its cursor is on the latest move unless the player moves it with the keys
or the mouse, which posts ``Highlighted`` (cursor moved) and ``Selected`` (enter or a click).
Moving the cursor from code (``move_cursor``) posts nothing.
"""

from __future__ import annotations

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from sos_tui.engine import GameState, PlayerInfo
from sos_tui.i18n import N_, _

from ..text import shown
from .board import MARKS, MAX_PLAYER_STYLES
from .styles import ThemedStyles

NUMBER_W, MOVE_W, POINTS_W = 4, 6, 3
HEADINGS = (N_("Player"), N_("Move"), N_("Pts"))
"""The headings of the name, move and points columns (translated where drawn: the move and
points columns widen to fit a longer word)."""
MIN_NAME = 8  # the least of a name the log shows beside headings wider than their columns


class MoveLog(ThemedStyles, ScrollView, can_focus=True):
    BINDINGS = [
        Binding("up,k", "cursor(-1)", N_("Previous move"), show=False),
        Binding("down,j", "cursor(1)", N_("Next move"), show=False),
        Binding("pageup", "cursor(-10)", N_("Back 10"), show=False),
        Binding("pagedown", "cursor(10)", N_("On 10"), show=False),
        Binding("home", "cursor_to(0)", N_("First move"), show=False),
        Binding("end", "cursor_to(-1)", N_("Last move"), show=False),
        Binding("enter", "select", N_("Go to move"), show=False),
    ]

    COMPONENT_CLASSES = {
        "move-log--header",
        "move-log--cursor",
        "move-log--odd",
        "move-log--points",
        *(f"move-log--player-{i}" for i in range(1, MAX_PLAYER_STYLES + 1)),
    }

    # repaint=False: the watchers repaint the lines that changed
    state: reactive[GameState | None] = reactive(None, always_update=True, repaint=False)
    seats: reactive[tuple[PlayerInfo, ...]] = reactive(())
    cursor_row: reactive[int] = reactive(-1, repaint=False)  # -1: no move to point at

    class Highlighted(Message):
        def __init__(self, move_log: MoveLog, row: int) -> None:
            self.move_log, self.row = move_log, row
            super().__init__()

    class Selected(Highlighted):
        pass

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._points: tuple[int, ...] = ()  # points scored by each move shown
        self._shown: tuple = ()
        self.marks: dict[int, str] = {}  # the review's mark of each move ("!", "?!", "?", "??")

    # -- what it shows ----------------------------------------------------------------------
    @property
    def row_count(self) -> int:
        return len(self._shown)

    def show(self, state: GameState, seats: tuple[PlayerInfo, ...]) -> None:
        """Show ``state``'s moves (for callers without data_bind)."""
        self.seats = seats
        self.state = state

    def set_mark(self, row: int, mark: str) -> None:
        """Show the review's ``mark`` after move ``row``'s notation (repaints that line)."""
        self.marks[row] = mark
        if len(self.marks) == 1:
            self.refresh()  # the move column widens
        else:
            self.refresh_line(row + 1)

    def clear_marks(self) -> None:
        self.marks.clear()
        self.refresh()

    @property
    def move_width(self) -> int:
        """The move column, with the gap after it: the notation (and the review's mark)."""
        return MOVE_W + 3 if self.marks else MOVE_W

    def columns(self, width: int) -> tuple[int, int, int]:
        """The widths of the name, move and points columns in a log ``width`` wide. The move and
        points columns widen to their headings when these are longer (Malay) and the names keep
        at least MIN_NAME cells; in a narrower log they keep the notation's width and the
        headings reach over the names' column."""
        move_w, points_w = self.move_width, POINTS_W
        wide_move = max(move_w, cell_len(_(HEADINGS[1])) + 2)
        wide_points = max(points_w, cell_len(_(HEADINGS[2])))
        if width - NUMBER_W - wide_move - wide_points - 1 >= MIN_NAME:
            move_w, points_w = wide_move, wide_points
        return max(4, width - NUMBER_W - move_w - points_w - 1), move_w, points_w

    def header(self, width: int) -> str:
        """The headings, over their columns."""
        name_w, move_w, points_w = self.columns(width)
        player, move, points = (_(heading) for heading in HEADINGS)
        if cell_len(move) <= move_w - 1 and cell_len(points) <= points_w:
            tail = f"{move:<{move_w - 1}}{points:>{points_w}}"
        else:  # the headings are longer than their columns: as far right as they go
            tail = f"{move} {points}"
            name_w = max(0, width - NUMBER_W - cell_len(tail) - 1)
        if cell_len(player) > name_w > 0:
            player = set_cell_size(player, name_w - 1) + "…"
        return f"{'#':>{NUMBER_W - 1}} {set_cell_size(player, name_w)} {tail}"

    def watch_seats(self) -> None:
        self._shown = ()
        self.refresh()

    def watch_state(self, state: GameState | None) -> None:
        moves = () if state is None else state.moves
        shown = self._shown
        grew = bool(shown) and len(moves) > len(shown) and moves[: len(shown)] == shown
        self._points = state.points_by_move if state is not None else ()
        self._shown = moves
        self._fit()
        self.move_cursor(len(moves) - 1)
        if grew:
            for row in range(len(shown) - 1, len(moves)):
                self.refresh_line(row + 1)
        else:
            self.refresh()

    def _fit(self) -> None:
        """Make the scrollable height the rows' own (the header and one line a move): the log
        never scrolls past its last move."""
        view = self.scrollable_content_region.height if self.is_mounted else 0
        height = len(self._shown) + 1  # no taller than its rows: no scrollbar while they fit
        if height == self.virtual_size.height:
            return
        size = Size(self.scrollable_content_region.width, height)
        if self.is_mounted and self.show_vertical_scrollbar == (height > view):
            # The scrollbar stays (shown, or not): only the range changes, which needs no layout pass
            # of the screen (setting virtual_size lays out everything: 30-120 ms with a 26x26 board).
            self.set_reactive(MoveLog.virtual_size, size)
            self._scroll_update(size)
        else:
            self.virtual_size = size  # the scrollbar comes or goes: the scroll range is known
            self.call_after_refresh(self._scroll_to_cursor)  # after the layout this starts

    def move_cursor(self, row: int, scroll: bool = True) -> None:
        """Put the cursor on ``row`` (clamped), and bring it into view; posts no message."""
        self.cursor_row = max(-1, min(row, self.row_count - 1))
        if scroll:
            self._scroll_to_cursor()

    def _scroll_to_cursor(self) -> None:
        """Scroll the least that shows the cursor's row: a game that grows keeps its last move on
        the bottom line."""
        if not self.is_mounted:
            return
        view = max(1, self.scrollable_content_region.height - 1)  # the header is pinned
        row, top = self.cursor_row, int(self.scroll_offset.y)
        if row < top:
            self.scroll_to(y=max(0, row), animate=False, immediate=True)
        elif row >= top + view:
            self.scroll_to(y=row - view + 1, animate=False, immediate=True)

    def watch_cursor_row(self, old: int, new: int) -> None:
        for row in (old, new):
            if row >= 0:
                self.refresh_line(row + 1)

    def on_resize(self) -> None:
        self._fit()
        self._scroll_to_cursor()

    # -- input ------------------------------------------------------------------------------
    def action_cursor(self, delta: int) -> None:
        self._pick(max(0, self.cursor_row + delta))

    def action_cursor_to(self, row: int) -> None:
        self._pick(row if row >= 0 else self.row_count - 1)

    def action_select(self) -> None:
        if self.cursor_row >= 0:
            self.post_message(self.Selected(self, self.cursor_row))

    def _pick(self, row: int) -> None:
        before = self.cursor_row
        self.move_cursor(row)
        if self.cursor_row != before and self.cursor_row >= 0:
            self.post_message(self.Highlighted(self, self.cursor_row))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or offset.y < 1:
            return
        row = offset.y - 1 + int(self.scroll_offset.y)
        if 0 <= row < self.row_count:
            self.move_cursor(row)
            self.post_message(self.Selected(self, row))

    # -- drawing ----------------------------------------------------------------------------
    def row_cells(self, row: int) -> tuple[str, str, str, str]:
        """What row ``row`` says: the move number, the mark and name, the move, the points."""
        state, seats = self.state, self.seats
        player = state.movers[row]
        points = self._points[row]
        name = f"{MARKS[player % len(MARKS)]} {shown(seats[player].name)}"
        move = f"{state.moves[row]} {self.marks.get(row, '')}".rstrip()
        return str(row + 1), name, move, f"+{points}" if points else ""

    # Line y of the view shows row y - 1 + scroll_y (the header is pinned at y = 0), so row r is
    # virtual line r + 1: that is what ``refresh_line`` takes (it subtracts the scroll itself).
    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        base = self.rich_style
        name_w, move_w, points_w = self.columns(width)
        if y == 0:
            text = self.header(width)
            return Strip([Segment(text[:width].ljust(width), base + self.component("move-log--header"))],
                         width)
        row = y - 1 + int(self.scroll_offset.y)
        state, seats = self.state, self.seats
        if state is None or not 0 <= row < self.row_count or len(seats) != state.players:
            return Strip.blank(width, base)
        player = state.movers[row]
        line = base + self.component("move-log--odd") if row % 2 else base
        if row == self.cursor_row:
            line += self.component("move-log--cursor")
        number, name, move, points = self.row_cells(row)
        if cell_len(name) > name_w:
            name = set_cell_size(name, name_w - 1) + "…"
        segments = [
            Segment(f"{number:>{NUMBER_W - 1}} ", line),
            Segment(set_cell_size(name, name_w) + " ", line + self.component(
                f"move-log--player-{player % MAX_PLAYER_STYLES + 1}")),
            Segment(f"{move:<{move_w - 1}}", line),
            Segment(f"{points:>{points_w}}", line + self.component("move-log--points")),
        ]
        return Strip(segments).adjust_cell_length(width, line)

