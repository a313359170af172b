"""The scoreboard: players with their colour, mark and score, whose turn it is, and the mode."""

from __future__ import annotations

from typing import NamedTuple

from rich.cells import cell_len, set_cell_size
from rich.text import Text
from textual.geometry import Region, Size
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from sos_tui.engine import GameState, PlayerInfo, ending_text
from sos_tui.i18n import _, bot_label, level_name, mode_name

from ..text import shown
from .board import MARKS, MAX_PLAYER_STYLES
from .clock import clock_label
from .styles import ThemedStyles

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
OUT = "✗"
"""The sign of a seat that dropped out (resigned, out of time, left), beside its struck-out name."""


NAME_WIDTH = 22
"""The widest a name is shown; with a clock beside it, CLOCK_WIDTH less."""
CLOCK_WIDTH = 9
"""A clock's column: a space and ``! 0:09.4`` (a low time) or ``1:00:00``."""


class SeatTime(NamedTuple):
    """A seat's time as the scoreboard shows it: the milliseconds left, and whether that is low."""

    ms: int
    low: bool


def seat_label(seat: PlayerInfo) -> str:
    """``"Ana"``, ``"Deep (hard)"`` (the level in the player's language) or ``"Randy (bot)"`` (a
    seat marked ``bot``), as a screen shows it: escaped and shortened."""
    name = shown(seat.name)
    if seat.is_computer and seat.level:
        return _("{name} ({level})").format(name=name, level=level_name(seat.level))
    return bot_label(name) if seat.bot else name


def last_move_points(state: GameState) -> int:
    """SOS lines completed by the latest move."""
    return state.points_by_move[-1] if state.move_count else 0


class Scoreboard(ThemedStyles, Widget):
    """Rendered from the attributes pushed into it; it owns no game state.

    Drawn line by line (Textual's Line API): a move changes two or three of its lines (whose turn,
    a score, the status), and only those are drawn again. Drawing all of it on every move was a
    good part of what writing a letter cost on a big board (``benchmarks/ui.py``)."""

    COMPONENT_CLASSES = {
        "scoreboard--title",
        "scoreboard--turn",
        "scoreboard--banner",
        "scoreboard--dim",
        "scoreboard--letter",
        "scoreboard--out",
        "scoreboard--low",
        *(f"scoreboard--player-{i}" for i in range(1, MAX_PLAYER_STYLES + 1)),
    }

    # The height follows the text (``height: auto``): only a change in the number of lines lays the
    # screen out again (the game ends or starts again, the seats change, a replay or live game is
    # shown). A layout pass costs tens of milliseconds on a big board.
    state: reactive[GameState | None] = reactive(None, repaint=False)
    seats: reactive[tuple[PlayerInfo, ...]] = reactive((), repaint=False)
    letter: reactive[str] = reactive("S", repaint=False)
    thinking: reactive[bool] = reactive(False, repaint=False)
    paused: reactive[bool] = reactive(False, repaint=False)
    live: reactive[bool] = reactive(True, repaint=False)  # False in a replay: no one is about to move
    times: reactive[tuple[SeatTime, ...] | None] = reactive(None, repaint=False)  # a timed game's clocks
    _frame: reactive[int] = reactive(0, repaint=False)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._lines: list[Text] | None = None  # what is drawn, line by line; None: to be worked out
        self._strips: dict[int, Strip] = {}  # lines drawn at self._width
        self._width = 0
        self._height: int | None = None  # the number of lines when last laid out

    def on_mount(self) -> None:
        self._spinner = self.set_interval(0.12, self._spin, pause=True)

    def watch_thinking(self, thinking: bool) -> None:
        if thinking:
            self._spinner.resume()
        else:
            self._spinner.pause()
        self._changed()

    def _watch_state(self) -> None:
        self._changed()

    _watch_seats = _watch_letter = _watch_paused = _watch_live = _watch__frame = _watch_times = _watch_state

    def _spin(self) -> None:
        self._frame += 1

    def redraw(self) -> None:
        """Draw every line again (the words changed language)."""
        self._lines = None
        self.refresh(layout=True)

    def _changed(self) -> None:
        """Draw again the lines that changed; lay out again if their number is not the height the
        layout gave (whether or not the old lines were ever drawn)."""
        lines = self.lines(self._width)
        if len(lines) != self._height:
            self.redraw()
            return
        if self._lines is None:
            return  # to be drawn whole
        for y, (old, new) in enumerate(zip(self._lines, lines, strict=True)):
            if old != new:
                self._strips.pop(y, None)
                self.refresh(Region(0, y, self._width, 1))
        self._lines = lines

    def notify_style_update(self) -> None:
        self._lines = None  # drawn with the old styles
        super().notify_style_update()

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        self._height = len(self.lines(width))
        return self._height

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        if self._lines is None or width != self._width:
            self._lines = self.lines(width)
            self._strips.clear()
            self._width = width
        strip = self._strips.get(y)
        if strip is None:
            line = self._lines[y].copy() if y < len(self._lines) else Text()
            line.truncate(width, overflow="ellipsis")
            strip = Strip(line.render(self.app.console)).apply_style(self.rich_style)
            strip = self._strips[y] = strip.adjust_cell_length(width, self.rich_style)
        return strip

    def lines(self, width: int = 0) -> list[Text]:
        """What the scoreboard says, line by line, ``width`` wide: the status's sentences wrapped
        to it (whose turn, who won), the title and the players' rows cut short with "…" (a name
        is shortened, never broken over two lines)."""
        lines = self.text().split("\n", allow_blank=True)
        head = 1 + len(self.seats)
        wrapped = lines[:head]
        for line in lines[head:]:
            wrapped.extend(line.wrap(self.app.console, width, overflow="fold", no_wrap=False)
                           if 0 < width < line.cell_len else [line])
        return wrapped

    def text(self) -> Text:
        """What the scoreboard says: the title, a line a player, the status."""
        state, seats = self.state, self.seats
        text = Text(no_wrap=True, overflow="ellipsis")
        if state is None or len(seats) != state.players:
            return text
        title = _("SOS · {mode} · {size}x{size}").format(mode=mode_name(state.mode), size=state.size) + "\n"
        text.append(title, self.component("scoreboard--title"))
        over = state.is_over
        labels = [seat_label(seat) for seat in seats]
        times = self.times if self.times is not None and len(self.times) == len(seats) else None
        width = min(NAME_WIDTH - (CLOCK_WIDTH if times else 0), max(cell_len(label) for label in labels))
        for i, label in enumerate(labels):
            player_style = self.component(f"scoreboard--player-{i % MAX_PLAYER_STYLES + 1}")
            turn = not over and i == state.to_move
            bold = self.component("scoreboard--turn")
            if state.is_out(i):  # dropped out: a sign, and the name struck through in another colour
                player_style = self.component("scoreboard--out")
                text.append(OUT + " ", player_style)
            else:
                text.append("▶ " if turn else "  ", bold)
            text.append(f"{MARKS[i % len(MARKS)]} ", player_style)
            if cell_len(label) > width:
                label = set_cell_size(label, width - 1) + "…"
            text.append(set_cell_size(label, width), player_style + bold if turn else player_style)
            text.append(f" {state.scores[i]:>3}", bold if turn else "")
            if times:
                low = times[i].low and not state.is_out(i)
                style = self.component("scoreboard--low") if low else bold if turn else ""
                text.append(" " + clock_label(times[i].ms, low).rjust(CLOCK_WIDTH - 1), style)
            if over and i in state.winners:
                text.append(" =" if state.is_draw else " ★", bold)
            text.append("\n")
        text.append(self._status(state, seats))
        return text

    def _status(self, state: GameState, seats) -> Text:
        text = Text()
        if state.is_over:
            banner = self.component("scoreboard--banner")
            if not state.outcome.has_result:
                text.append(_("Game over: aborted"), banner)
            elif state.is_draw:
                text.append(_("Game over: a draw"), banner)
            else:
                winner = seat_label(seats[state.winners[0]])
                text.append(_("Game over: {name} wins").format(name=winner), banner)
            how = ending_text(state, [shown(seat.name) for seat in seats], _)
            if how and state.outcome.has_result:
                text.append("\n" + how, self.component("scoreboard--dim"))
            return text
        mover = seats[state.to_move]
        name = shown(mover.name)
        points = last_move_points(state)
        if not self.live:
            if points:
                text.append(_("{name} scored {points}").format(name=name, points=points),
                            self.component("scoreboard--banner"))
            return text
        # the banner's line is kept when empty: a height that changes every move costs a layout pass
        if points and state.move_count:
            text.append(_("{name} scored {points} — move again!").format(name=name, points=points) + "\n",
                        self.component("scoreboard--banner"))
        else:
            text.append("\n")
        if self.paused:
            text.append(_("Paused — p to resume") + "\n", self.component("scoreboard--dim"))
        elif mover.is_computer:
            spin = SPINNER[self._frame % len(SPINNER)] if self.thinking else "·"
            text.append(f"{spin} " + _("{name} is thinking…").format(name=name) + "\n",
                        self.component("scoreboard--dim"))
        else:
            text.append(_("{name} to move").format(name=name) + "\n")
        text.append(_("Letter:") + " ")
        for letter in "SO":
            chosen = letter == self.letter
            text.append(f" {letter} " if chosen else f" {letter.lower()} ",
                        self.component("scoreboard--letter") if chosen else self.component("scoreboard--dim"))
        text.append("  tab", self.component("scoreboard--dim"))
        return text
