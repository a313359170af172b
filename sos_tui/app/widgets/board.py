"""The board: one ScrollView drawn line by line (Textual's Line API).

Layout of the drawing ("canvas"): every cell is 3 characters wide (" S ") and one line tall, with a
one-character gap column and a one-line gap row between cells. The gaps carry the strokes that
strike through each SOS: ``─mark─`` across a row, the scorer's mark between the letters of a
column or a diagonal. Column letters stay pinned at the top and row numbers at the left while a
large board scrolls.

The board never changes the game: it shows the state it is given and posts ``CellChosen``.
"""

from __future__ import annotations

import itertools
from itertools import groupby
from operator import itemgetter

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.geometry import Offset, Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from sos_tui.engine import COLUMNS, GameState, Move
from sos_tui.i18n import N_

from .styles import ThemedStyles

CELL_W = 4  # 3 characters of cell + 1 of gap
CELL_H = 2  # 1 line of cell + 1 of gap
MARKS = ("●", "▲", "■", "◆", "✚", "★")
MAX_PLAYER_STYLES = 6


def other_letter(letter: str) -> str:
    return "O" if letter == "S" else "S"


def canvas_size(size: int) -> Size:
    return Size(size * CELL_W, size * CELL_H)


CROSSING = "\u2573"  # box drawings light diagonal cross


def stroke_map(state: GameState) -> dict[tuple[int, int], tuple[str, int | None]]:
    """Canvas (x, y) -> (character, player) for the strokes through every SOS of ``state``.

    Two diagonals of different players that cross in one gap keep both marks: the crossing glyph
    in the gap, the "\\" line's mark left of it and the "/" line's mark right of it (those two
    characters of a gap row are never used by any other stroke). Its player is None.
    """
    strokes: dict[tuple[int, int], tuple[str, int | None]] = {}
    for line in state.lines:
        mark = MARKS[line.player % len(MARKS)]
        cells = line.cells
        for (r1, c1), (r2, c2) in itertools.pairwise(cells):
            x1, y1 = c1 * CELL_W + 2, r1 * CELL_H + 1  # centre of the first cell
            x2, y2 = c2 * CELL_W + 2, r2 * CELL_H + 1
            mx, my = (x1 + x2) // 2, (y1 + y2) // 2
            if y1 == y2:  # along a row: a dash, the mark, a dash
                strokes[(mx - 1, my)] = ("─", line.player)
                strokes[(mx + 1, my)] = ("─", line.player)
            there = strokes.get((mx, my))
            if there is not None and there[1] not in (line.player, None):
                falling = (r2 - r1) * (c2 - c1) > 0  # this line runs "\\"
                left, right = (line.player, there[1]) if falling else (there[1], line.player)
                strokes[(mx - 1, my)] = (MARKS[left % len(MARKS)], left)
                strokes[(mx + 1, my)] = (MARKS[right % len(MARKS)], right)
                strokes[(mx, my)] = (CROSSING, None)
            elif there is None or there[1] is not None:
                strokes[(mx, my)] = (mark, line.player)
    return strokes


class Board(ThemedStyles, ScrollView, can_focus=True):
    """Shows a GameState (and a hint, when given one); it owns the cursor, the hovered cell and
    the selected letter, nothing of the game."""

    BINDINGS = [
        Binding("up,k", "move(-1, 0)", N_("Up"), show=False),
        Binding("down,j", "move(1, 0)", N_("Down"), show=False),
        Binding("left,h", "move(0, -1)", N_("Left"), show=False),
        Binding("right,l", "move(0, 1)", N_("Right"), show=False),
        Binding("s", "place('S')", "S", key_display="s"),  # the letters: notation, the same in every language
        Binding("o", "place('O')", "O", key_display="o"),
        Binding("space,enter", "place", N_("Place"), key_display="␣/⏎", show=False),
        Binding("tab", "toggle_letter", "S↔O", key_display="tab"),
    ]

    COMPONENT_CLASSES = {
        "board--label",
        "board--empty",
        "board--s",
        "board--o",
        "board--cursor",
        "board--hover",
        "board--last",
        "board--hint",
        "board--best",
        *(f"board--player-{i}" for i in range(1, MAX_PLAYER_STYLES + 1)),
    }

    # repaint=False: the watchers repaint just the lines that changed (a whole 26x26 board is
    # tens of milliseconds)
    state: reactive[GameState | None] = reactive(None, always_update=True, repaint=False)
    cursor: reactive[tuple[int, int]] = reactive((0, 0), repaint=False)
    hover: reactive[tuple[int, int] | None] = reactive(None, repaint=False)
    letter: reactive[str] = reactive("S", init=False, repaint=False)
    hint: reactive[Move | None] = reactive(None)
    best: reactive[Move | None] = reactive(None)
    """The review's best move, drawn in brackets ``[O]`` on an empty cell, or ``S→O`` over the
    cell where another letter was played (shape as well as colour)."""
    interactive: reactive[bool] = reactive(True)

    class CellChosen(Message):
        """The player asked to write ``letter`` at (row, col)."""

        def __init__(self, row: int, col: int, letter: str) -> None:
            self.row, self.col, self.letter = row, col, letter
            super().__init__()

    class LetterChanged(Message):
        def __init__(self, letter: str) -> None:
            self.letter = letter
            super().__init__()

    def __init__(self, *, mouse: bool = True, **kwargs) -> None:
        super().__init__(**kwargs)
        self.mouse = mouse
        self._strokes: dict = {}
        self._stroke_source: GameState | None = None
        self._rows: dict[int, list[tuple[str, Style]]] = {}  # canvas rows of this state, without cursor

    # -- geometry ---------------------------------------------------------------------------
    @property
    def board_size(self) -> int:
        return self.state.size if self.state else 3

    @property
    def label_width(self) -> int:
        """Width of the pinned row-number column."""
        return len(str(self.board_size)) + 1

    def cell_offset(self, row: int, col: int) -> Offset:
        """Where cell (row, col)'s letter is drawn, from the top-left of the content area."""
        sx, sy = self.scroll_offset
        return Offset(self.label_width + col * CELL_W + 2 - sx, 1 + row * CELL_H + 1 - sy)

    def cell_at(self, offset: Offset) -> tuple[int, int] | None:
        """The cell under a content-area offset, or None for a gap, a label or off the board."""
        sx, sy = self.scroll_offset
        if offset.x < self.label_width or offset.y < 1:
            return None
        cx = offset.x - self.label_width + sx
        cy = offset.y - 1 + sy
        if cx < 0 or cy < 0 or cx % CELL_W == 0 or cy % CELL_H == 0:
            return None
        row, col = cy // CELL_H, cx // CELL_W
        if row >= self.board_size or col >= self.board_size:
            return None
        return row, col

    # -- reacting to changes ----------------------------------------------------------------
    def watch_state(self, old: GameState | None, new: GameState | None) -> None:
        if new is None:
            return
        if old is None or old.size != new.size:
            canvas = canvas_size(new.size)
            self.virtual_size = Size(self.label_width + canvas.width, 1 + canvas.height)
            self.cursor = (min(self.cursor[0], new.size - 1), min(self.cursor[1], new.size - 1))
        dirty = _changed_rows(old, new)
        if dirty is None:
            self._rows.clear()
            self.refresh()
            return
        width = self.scrollable_content_region.width
        for cy in dirty:
            self._rows.pop(cy, None)
            self.refresh(Region(0, 1 + cy - self.scroll_offset.y, width, 1))

    def watch_cursor(self, old: tuple[int, int], new: tuple[int, int]) -> None:
        self.scroll_to_cursor()
        self._refresh_rows(old, new)

    def watch_hover(self, old: tuple[int, int] | None, new: tuple[int, int] | None) -> None:
        self._refresh_rows(old, new)

    def watch_hint(self) -> None:
        self._rows.clear()
        self.refresh()

    def watch_best(self) -> None:
        self._rows.clear()
        self.refresh()

    def _refresh_rows(self, *cells: tuple[int, int] | None) -> None:
        """Repaint just the lines of these cells."""
        width = self.scrollable_content_region.width
        for cell in cells:
            if cell is not None:
                self.refresh(Region(0, 1 + cell[0] * CELL_H + 1 - self.scroll_offset.y, width, 1))

    def watch_letter(self, letter: str) -> None:
        self.post_message(self.LetterChanged(letter))

    def on_resize(self) -> None:
        self.scroll_to_cursor()

    def scroll_to_cursor(self) -> None:
        """Scroll the least distance that brings the cursor cell, with its gaps, into view."""
        if not self.is_mounted:
            return
        view = self.scrollable_content_region.size
        view_w, view_h = max(1, view.width - self.label_width), max(1, view.height - 1)
        row, col = self.cursor
        x0, y0 = col * CELL_W, row * CELL_H
        sx, sy = self.scroll_offset
        if x0 < sx:
            sx = x0
        elif x0 + CELL_W + 1 > sx + view_w:
            sx = x0 + CELL_W + 1 - view_w
        if y0 < sy:
            sy = y0
        elif y0 + CELL_H + 1 > sy + view_h:
            sy = y0 + CELL_H + 1 - view_h
        if (sx, sy) != tuple(self.scroll_offset):
            self.scroll_to(sx, sy, animate=False, immediate=True)

    # -- input ------------------------------------------------------------------------------
    def action_move(self, drow: int, dcol: int) -> None:
        row, col = self.cursor
        last = self.board_size - 1
        self.cursor = (max(0, min(last, row + drow)), max(0, min(last, col + dcol)))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Writing keys only where this player may write (not in a replay, nor to a spectator):
        the footer and the help follow."""
        return self.interactive or action not in ("place", "toggle_letter")

    def watch_interactive(self) -> None:
        self.refresh_bindings()
        self.refresh()

    def action_place(self, letter: str | None = None) -> None:
        """Write ``letter`` at the cursor; with none named (enter, space, a left click), the hint's
        letter on the hinted cell, else the selected one."""
        if self.interactive and self.state is not None:
            if letter is None:
                hint = self.hint
                on_hint = hint is not None and (hint.row, hint.col) == self.cursor
                letter = hint.letter if on_hint else self.letter
            self.post_message(self.CellChosen(*self.cursor, letter))

    def action_toggle_letter(self) -> None:
        self.letter = other_letter(self.letter)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        if not self.mouse:
            return
        offset = event.get_content_offset(self)
        self.hover = self.cell_at(offset) if offset is not None else None

    def on_leave(self, event: events.Leave) -> None:
        self.hover = None

    def on_click(self, event: events.Click) -> None:
        if not self.mouse:
            return
        offset = event.get_content_offset(self)
        cell = self.cell_at(offset) if offset is not None else None
        if cell is None:
            return
        self.cursor = cell
        if event.button in (1, 3):
            self.action_place(other_letter(self.letter) if event.button == 3 else None)

    # -- drawing ----------------------------------------------------------------------------
    def notify_style_update(self) -> None:
        self._rows.clear()  # drawn with the old styles
        super().notify_style_update()

    def _player_style(self, player: int) -> Style:
        return self.component(f"board--player-{player % MAX_PLAYER_STYLES + 1}")

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        state = self.state
        if state is None:
            return Strip.blank(width, self.rich_style)
        label_width = self.label_width
        sx, sy = self.scroll_offset
        base = self.rich_style
        label = base + self.component("board--label")
        view_w = max(0, width - label_width)
        if y == 0:  # pinned column letters
            letters = "".join(f"  {COLUMNS[c]} " for c in range(state.size)) + " "
            shown = letters[sx:sx + view_w].ljust(view_w)
            segments = [Segment(" " * label_width, base), Segment(shown, label)]
            return Strip(segments, width)
        cy = y - 1 + sy
        canvas_h = canvas_size(state.size).height
        if cy < 0 or cy >= canvas_h:
            return Strip.blank(width, base)
        number = f"{cy // CELL_H + 1}" if cy % CELL_H else ""
        segments = [Segment(number.rjust(label_width - 1) + " ", label)]
        segments.extend(_segments(self._canvas_row(state, cy, base), sx, view_w, base))
        return Strip(segments, width)

    def _canvas_row(self, state: GameState, cy: int, base: Style) -> list[tuple[str, Style]]:
        """One canvas row, character by character, with the cursor and hover laid over it."""
        chars = self._rows.get(cy)
        if chars is None:
            chars = self._rows[cy] = self._plain_row(state, cy, base)
        row = cy // CELL_H
        if cy % CELL_H == 1 and row in (self.cursor[0], self.hover and self.hover[0]):
            chars = list(chars)
            cursor = self.cursor if self.interactive else None
            for name, cell in (("board--hover", self.hover), ("board--cursor", cursor)):
                if cell is not None and cell[0] == row:
                    overlay = self.component(name)
                    for cx in range(cell[1] * CELL_W + 1, cell[1] * CELL_W + CELL_W):
                        char, style = chars[cx]
                        chars[cx] = (char, style + overlay)
        return chars

    def _plain_row(self, state: GameState, cy: int, base: Style) -> list[tuple[str, Style]]:
        if self._stroke_source is not state:
            self._strokes, self._stroke_source = stroke_map(state), state
        strokes, size, hint, last = self._strokes, state.size, self.hint, state.last_move
        row = cy // CELL_H
        out: list[tuple[str, Style]] = []
        for cx in range(size * CELL_W):
            char, style = " ", base
            col, within = divmod(cx, CELL_W)
            if within == 2 and cy % CELL_H == 1:
                letter = state.board[row * size + col]
                if letter == ".":
                    if hint is not None and (hint.row, hint.col) == (row, col):
                        char, style = hint.letter, base + self.component("board--hint")
                    else:
                        char, style = "·", base + self.component("board--empty")
                else:
                    style = base + self.component("board--s" if letter == "S" else "board--o")
                    if last is not None and (last.row, last.col) == (row, col):
                        style += self.component("board--last")
                    char = letter
            else:
                stroke = strokes.get((cx, cy))
                if stroke is not None:
                    char = stroke[0]
                    style = base + (self.component("board--s") if stroke[1] is None
                                    else self._player_style(stroke[1]))
            out.append((char, style))
        best = self.best
        if best is not None and best.row == row and cy % CELL_H == 1 and best.col < size:
            x0, here = best.col * CELL_W, state.board[row * size + best.col]
            glyphs = f"[{best.letter}]" if here == "." else f"{here}→{best.letter}"
            for offset, char in enumerate(glyphs, start=1):
                out[x0 + offset] = (char, base + self.component("board--best"))
        return out



def _changed_rows(old: GameState | None, new: GameState) -> set[int] | None:
    """The canvas rows that differ when ``new`` is ``old`` plus one move; None: redraw all."""
    if old is None or old.size != new.size or new.move_count != old.move_count + 1:
        return None
    if old.moves != new.moves[:-1]:
        return None
    rows = {new.last_move.row * CELL_H + 1}
    if old.last_move is not None:
        rows.add(old.last_move.row * CELL_H + 1)  # its "last move" mark goes
    for line in new.lines[len(old.lines):]:
        first, last = line.cells[0][0], line.cells[-1][0]
        rows.update(range(first * CELL_H + 1, last * CELL_H + 2))
    return rows


def _segments(chars: list[tuple[str, Style]], start: int, width: int, blank: Style) -> list[Segment]:
    """``width`` columns from ``start`` as segments, one per run of a style, padded with blanks."""
    shown = chars[start:start + width]
    segments = [Segment("".join(char for char, _ in run), style)
                for style, run in ((style, list(run)) for style, run in groupby(shown, key=itemgetter(1)))]
    if len(shown) < width:
        segments.append(Segment(" " * (width - len(shown)), blank))
    return segments
