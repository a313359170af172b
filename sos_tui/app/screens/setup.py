"""The new-game screen: board size, variant and who sits in each seat. Enter starts at once."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, Select, Static

from sos_tui.ai import LEVELS
from sos_tui.engine import MAX_SIZE, MIN_SIZE, GameRecord, Mode, PlayerInfo

MAX_SEATS = 6
KIND_OPTIONS = [("Human", "human"), *((f"Computer · {level}", level) for level in LEVELS)]


def seat_for(name: str, kind: str, index: int) -> PlayerInfo:
    """The seat a setup row describes; a blank name gets a default."""
    name = name.strip()
    if kind == "human":
        return PlayerInfo(name or f"Player {index + 1}")
    return PlayerInfo(name or f"Computer {index + 1}", "computer", kind)


def resume_preview(record: GameRecord) -> str:
    """The unfinished game in a few lines: who, the scores, the board."""
    state = record.state
    seats = zip(record.players, state.scores, strict=True)
    scores = ", ".join(f"{seat.name} {score}" for seat, score in seats)
    return (f"Unfinished {record.mode.value} game, {record.size}x{record.size}, "
            f"{state.move_count} moves — {scores}\n\n{state}")


class SetupScreen(Screen):
    """Posts ``SetupScreen.Start`` with an empty GameRecord describing the new game."""

    BINDINGS = [
        Binding("ctrl+s", "start", "Start", show=True, priority=True),
        Binding("escape", "back", "Back", show=False),
    ]

    class Start(Message):
        def __init__(self, game: GameRecord) -> None:
            self.game = game
            super().__init__()

    def __init__(self, previous: GameRecord | None = None, resume: GameRecord | None = None) -> None:
        super().__init__()
        self.previous = previous or resume
        self.resume = resume  # an unfinished game that "Continue" picks up

    def compose(self) -> ComposeResult:
        prev = self.previous
        seats = list(prev.players) if prev else [PlayerInfo("Player 1"), PlayerInfo("Player 2")]
        with VerticalScroll(id="setup"):
            yield Label("SOS", id="setup-title")
            yield Label("Write S or O in turn; complete S-O-S lines to score.", id="setup-tagline")
            if self.resume is not None:
                with Horizontal(id="resume"):
                    yield Static(resume_preview(self.resume), id="resume-preview")
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
                        yield Input(seat.name, placeholder=f"Player {i + 1}", max_length=20,
                                    id=f"name-{i}", compact=True)
                        yield Select(KIND_OPTIONS, value=seat.level if seat.is_computer else "human",
                                     allow_blank=False, id=f"kind-{i}", compact=True)
            with Horizontal(id="setup-buttons"):
                yield Button("Start", id="start", variant="primary")
                yield Button("Open…", id="open")
                yield Button("History", id="history")
                yield Button("Quit", id="quit", variant="error")
        yield Footer()

    def on_mount(self) -> None:
        self._show_seats(self.query_one("#count", Select).value)
        self.query_one("#continue" if self.resume is not None else "#start", Button).focus()

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "count":
            self._show_seats(event.value)

    def _show_seats(self, count) -> None:
        for i in range(MAX_SEATS):
            self.query_one(f"#seat-{i}").display = i < int(count)

    def game(self) -> GameRecord:
        count = int(self.query_one("#count", Select).value)
        seats = tuple(
            seat_for(self.query_one(f"#name-{i}", Input).value, self.query_one(f"#kind-{i}", Select).value, i)
            for i in range(count)
        )
        return GameRecord(int(self.query_one("#size", Select).value),
                          Mode(self.query_one("#mode", Select).value), seats)

    def action_start(self) -> None:
        self.post_message(self.Start(self.game()))

    def action_back(self) -> None:
        if self.app.state is not None:
            self.dismiss()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_start()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        match event.button.id:
            case "start":
                self.action_start()
            case "continue":
                self.app.action_continue()
            case "open":
                self.app.action_open()
            case "history":
                self.app.action_history()
            case "quit":
                self.app.exit()
