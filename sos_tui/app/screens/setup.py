"""The new-game screen: board size, variant and who sits in each seat. Enter starts at once."""

from __future__ import annotations

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, Select, Static

from sos_tui import storage
from sos_tui.ai import LEVELS
from sos_tui.engine import (
    MAX_NAME,
    MAX_PLAYERS,
    MAX_SIZE,
    MIN_SIZE,
    GameRecord,
    Mode,
    PlayerInfo,
    check_name,
    check_names,
    printable,
    shorten,
)

from ..text import ShowHidden, literal, shown

MAX_SEATS = MAX_PLAYERS
KIND_OPTIONS = [("Human", "human"), *((f"Computer · {level}", level) for level in LEVELS)]


class SeatError(ValueError):
    """A seat's name that the record format refuses: ``seat`` is its index, the message says
    which seat and which rule."""

    def __init__(self, seat: int, reason: str) -> None:
        super().__init__(f"Seat {seat + 1}: {reason}")
        self.seat = seat


def seat_for(name: str, kind: str, index: int) -> PlayerInfo:
    """The seat a setup row describes; a blank name gets a default. Raises SeatError, saying
    which seat and which rule, for a name the record format refuses (``check_name``)."""
    name = name.strip() or (f"Player {index + 1}" if kind == "human" else f"Computer {index + 1}")
    try:
        name = check_name(name)
    except ValueError as error:
        raise SeatError(index, str(error)) from None
    return PlayerInfo(name) if kind == "human" else PlayerInfo(name, "computer", kind)


def editable_name(name: str) -> str:
    """A name to prefill a seat with: as it is when valid, else its escaped form, cut to fit."""
    try:
        return check_name(name)
    except ValueError:
        return shorten(printable(str(name)[: MAX_NAME + 1]), MAX_NAME).strip()


def resume_preview(record: GameRecord) -> str:
    """The unfinished game in a few lines: who, the scores, the board (names escaped: show it as
    plain text)."""
    state = record.state
    seats = zip(record.players, state.scores, strict=True)
    scores = ", ".join(f"{shown(seat.name)} {score}" for seat, score in seats)
    moves = "1 move" if state.move_count == 1 else f"{state.move_count} moves"
    return (f"Unfinished {record.mode.value} game, {record.size}x{record.size}, "
            f"{moves} — {scores}\n\n{state}")


def remembered(setup) -> GameRecord | None:
    """The game the remembered setup (settings' "setup": size, mode, seats) describes, if valid."""
    try:
        seats = tuple(PlayerInfo(s["name"], s.get("kind", "human"), s.get("level")) for s in setup["seats"])
        if not 2 <= len(seats) <= MAX_SEATS or any(
                not isinstance(s.name, str) or (s.is_computer and s.level not in LEVELS) for s in seats):
            return None
        if check_names(s.name for s in seats) != tuple(s.name for s in seats):
            return None
        size = int(setup["size"])
        if not MIN_SIZE <= size <= MAX_SIZE:
            return None
        return GameRecord(size, Mode(setup["mode"]), seats)
    except (KeyError, TypeError, ValueError):
        return None


class SetupScreen(Screen[GameRecord | None]):
    """Dismisses with the GameRecord to play: a new, empty one, or the unfinished game "Continue"
    picks up (found in a thread, so the screen never waits on the disk)."""

    BINDINGS = [
        Binding("ctrl+s", "start", "Start", show=True, priority=True),
        Binding("escape", "back", "Back", show=False),
    ]

    def __init__(self, previous: GameRecord | None = None, setup: dict | None = None) -> None:
        super().__init__()
        self.previous = previous or remembered(setup)
        self.resume: GameRecord | None = None  # an unfinished game that "Continue" picks up
        self._refused: tuple[str, ...] | None = None  # the names when a start was last refused

    def compose(self) -> ComposeResult:
        prev = self.previous
        seats = list(prev.players) if prev else [PlayerInfo("Player 1"), PlayerInfo("Player 2")]
        with VerticalScroll(id="setup"):
            yield Label("SOS", id="setup-title")
            yield Label("Write S or O in turn; complete S-O-S lines to score.", id="setup-tagline")
            with Horizontal(id="resume"):
                yield Static(id="resume-preview", markup=False)
                yield Button("Continue", id="continue", variant="success")
            yield Label("…or set up a new game:", id="new-game-label")
            with Horizontal(classes="setup-row"):
                yield Label("Board size", classes="setup-label")
                yield Select([(f"{n} x {n}", n) for n in range(MIN_SIZE, MAX_SIZE + 1)],
                             value=prev.size if prev else 6, allow_blank=False, id="size", compact=True)
            with Horizontal(classes="setup-row"):
                yield Label("Game", classes="setup-label")
                yield Select([("General: most SOSs wins", Mode.GENERAL.value),
                              ("Simple: first SOS wins", Mode.SIMPLE.value)],
                             value=(prev.mode.value if prev else Mode.GENERAL.value), allow_blank=False,
                             id="mode", compact=True)
            with Horizontal(classes="setup-row"):
                yield Label("Players", classes="setup-label")
                yield Select([(str(n), n) for n in range(2, MAX_SEATS + 1)], value=len(seats),
                             allow_blank=False, id="count", compact=True)
            with Vertical(id="seats"):
                for i in range(MAX_SEATS):
                    seat = seats[i] if i < len(seats) else PlayerInfo(f"Player {i + 1}")
                    with Horizontal(classes="setup-row seat", id=f"seat-{i}"):
                        yield Label(f"Seat {i + 1}", classes=f"setup-label player-{i + 1}")
                        yield Input(editable_name(seat.name), placeholder=f"Player {i + 1}",
                                    max_length=MAX_NAME, id=f"name-{i}", compact=True,
                                    highlighter=ShowHidden())
                        yield Select(KIND_OPTIONS, value=seat.level if seat.is_computer else "human",
                                     allow_blank=False, id=f"kind-{i}", compact=True)
            yield Label("", id="setup-message", markup=False)
            with Horizontal(id="setup-buttons"):
                yield Button("Start", id="start", variant="primary")
                yield Button("Open…", id="open")
                yield Button("History", id="history")
                yield Button("Quit", id="quit", variant="error")
            with Horizontal(id="net-buttons"):
                yield Button("Host over the network…", id="host")
                yield Button("Join a game…", id="join")
        yield Footer()

    def on_mount(self) -> None:
        self._show_seats(self.query_one("#count", Select).value)
        self._show_resume(None)
        self.query_one("#start", Button).focus()
        self._find_resumable()

    @work(thread=True, exclusive=True, group="resume")
    def _find_resumable(self) -> None:
        try:
            record = storage.load_autosave()
        except (storage.StorageError, OSError):
            record = None
        if record is not None and record.moves and not record.state.is_over:
            self.app.call_from_thread(self._found, record)

    def _found(self, record: GameRecord) -> None:
        if self.is_mounted:  # not closed while the autosave was read
            self._show_resume(record)

    def _show_resume(self, record: GameRecord | None) -> None:
        self.resume = record
        for selector in ("#resume", "#new-game-label"):
            self.query_one(selector).display = record is not None
        if record is not None:
            self.query_one("#resume-preview", Static).update(Content(resume_preview(record)))
            if not isinstance(self.focused, Input):  # unless the player is typing a name
                self.query_one("#continue", Button).focus()

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "count":
            self._show_seats(event.value)

    def _show_seats(self, count) -> None:
        for i in range(MAX_SEATS):
            self.query_one(f"#seat-{i}").display = i < int(count)

    def game(self) -> GameRecord:
        """The new game the screen describes. Raises SeatError naming the seat and the rule a name
        breaks (``check_name``), or ValueError when two names are the same (``check_names``)."""
        count = int(self.query_one("#count", Select).value)
        seats = tuple(
            seat_for(self.query_one(f"#name-{i}", Input).value, self.query_one(f"#kind-{i}", Select).value, i)
            for i in range(count)
        )
        check_names(seat.name for seat in seats)
        return GameRecord(int(self.query_one("#size", Select).value),
                          Mode(self.query_one("#mode", Select).value), seats)

    def action_start(self) -> None:
        try:
            record = self.game()
        except ValueError as error:
            self._refuse(str(error), error.seat if isinstance(error, SeatError) else None)
            return
        self.dismiss(record)

    def _refuse(self, message: str, seat: int | None) -> None:
        """Show why the game cannot start, and put the focus on the name at fault."""
        label = self.query_one("#setup-message", Label)
        label.update(literal(message))
        label.add_class("error")
        self._refused = self._names()
        if seat is not None:
            self.query_one(f"#name-{seat}", Input).focus()

    def _names(self) -> tuple[str, ...]:
        return tuple(name.value for name in self.query(Input))

    def on_input_changed(self, event: Input.Changed) -> None:
        """A name edited since the refusal: the message no longer applies."""
        if self._refused is not None and self._names() != self._refused:
            self._refused = None
            label = self.query_one("#setup-message", Label)
            label.update("")
            label.remove_class("error")

    def action_back(self) -> None:
        if self.app.state is not None:  # a game is under way behind this screen
            self.dismiss(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_start()

    @on(Button.Pressed, "#start")
    def _start_pressed(self) -> None:
        self.action_start()

    @on(Button.Pressed, "#continue")
    def _continue_pressed(self) -> None:
        if self.resume is not None:
            self.dismiss(self.resume)

    @on(Button.Pressed, "#host")
    def _host_pressed(self) -> None:
        self.app.host_game(self.game())

    @on(Button.Pressed, "#join")
    def _join_pressed(self) -> None:
        self.app.action_join()

    @on(Button.Pressed, "#open")
    def _open_pressed(self) -> None:
        self.app.action_open()

    @on(Button.Pressed, "#history")
    def _history_pressed(self) -> None:
        self.app.action_history()

    @on(Button.Pressed, "#quit")
    def _quit_pressed(self) -> None:
        self.app.exit()
