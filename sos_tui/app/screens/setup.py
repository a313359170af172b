"""The new-game screen: board size, variant, clock, who sits in each seat and the language. Enter
starts at once."""

from __future__ import annotations

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Button, Input, Label, Select, Static

from sos_tui import storage
from sos_tui.engine import (
    COMPUTER_LEVELS,
    MAX_NAME,
    MAX_PLAYERS,
    MAX_SIZE,
    MIN_SIZE,
    GameRecord,
    Mode,
    Seat,
    SeatKind,
    check_name,
    check_names,
    printable,
    shorten,
)
from sos_tui.engine.clock import TimeControl
from sos_tui.i18n import LANGUAGES, N_, _, explain, language, level_name, mode_name, ngettext

from ..language import SosScreen
from ..text import ShowHidden, literal, shown
from ..widgets.buttons import ButtonRow
from ..widgets.footer import KeyFooter

MAX_SEATS = MAX_PLAYERS

CLOCKS = ("1+0", "3+2", "5+3", "10+5", "15+10", "30+0")
"""The time controls offered (minutes each + seconds a move), after "No clock"."""
UNTIMED = "none"
"""The clock choice of an untimed game (a Select value cannot be None)."""


def clock_options(chosen: str = UNTIMED) -> list[tuple[str, str]]:
    """The clock choices: none, the usual ones, and ``chosen`` if it is another (from --clock)."""
    clocks = CLOCKS if chosen in (UNTIMED, *CLOCKS) else (*CLOCKS, chosen)
    return [(_("No clock"), UNTIMED),
            *((_("{minutes} min + {seconds} s a move").format(minutes=minutes, seconds=seconds), text)
              for text in clocks for minutes, seconds in [text.split("+")])]


def clock_choice(control: TimeControl | None) -> str:
    return UNTIMED if control is None else str(control)


def kind_options() -> list[tuple[str, str]]:
    """Who can sit in a seat: a person, or the computer at one of its levels."""
    return [(_("Human"), SeatKind.HUMAN),
            *((_("Computer · {level}").format(level=level_name(level)), level) for level in COMPUTER_LEVELS)]


def default_name(kind: str, index: int) -> str:
    """The name a seat left blank gets: "Player 2", "Computer 3" (in the current language)."""
    if kind == SeatKind.HUMAN:
        return _("Player {n}").format(n=index + 1)
    return _("Computer {n}").format(n=index + 1)


class SeatError(ValueError):
    """A seat's name that the record format refuses: ``seat`` is its index, the message says
    which seat and which rule."""

    def __init__(self, seat: int, reason: str) -> None:
        super().__init__(_("Seat {n}: {reason}").format(n=seat + 1, reason=reason))
        self.seat = seat


def _seats_kept() -> bool:
    """Whether a network seat token is kept in the data folder (``sos-tui games``)."""
    try:
        return storage.paths.tokens_path().exists()
    except (storage.StorageError, OSError):
        return False


def seat_for(name: str, kind: str, index: int) -> Seat:
    """The seat a setup row describes; a blank name gets a default. Raises SeatError, saying
    which seat and which rule, for a name the record format refuses (``check_name``)."""
    name = name.strip() or default_name(kind, index)
    try:
        name = check_name(name)
    except ValueError as error:
        raise SeatError(index, explain(error)) from None
    return Seat(name) if kind == SeatKind.HUMAN else Seat(name, SeatKind.COMPUTER, kind)


def editable_name(name: str) -> str:
    """A name to prefill a seat with: as it is when valid, else its escaped form, cut to fit."""
    try:
        return check_name(name)
    except ValueError:
        return shorten(printable(str(name)[: MAX_NAME + 1]), MAX_NAME).strip()


def resume_preview(record: GameRecord) -> str:
    """The unfinished game in a line or two, whatever its size: the variant, size and moves, the
    scores and whose turn (names escaped: show it as plain text)."""
    state = record.state
    seats = zip(record.players, state.scores, strict=True)
    scores = ", ".join(f"{shown(seat.name)} {score}" for seat, score in seats)
    moves = ngettext("{n} move", "{n} moves", state.move_count).format(n=state.move_count)
    about = _("Unfinished {mode} game, {size}x{size}, {moves} — {scores}").format(
        mode=mode_name(record.mode), size=record.size, moves=moves, scores=scores)
    turn = _("{name} to move.").format(name=shown(record.players[state.to_move].name))
    return f"{about}\n{turn}"


def remembered(setup) -> GameRecord | None:
    """The game the remembered setup (settings' "setup": size, mode, seats) describes, if valid."""
    try:
        seats = tuple(Seat(s["name"], s.get("kind", SeatKind.HUMAN), s.get("level")) for s in setup["seats"])
        if not 2 <= len(seats) <= MAX_SEATS or any(
                not isinstance(s.name, str) or (s.is_computer and s.level not in COMPUTER_LEVELS)
                for s in seats):
            return None
        if check_names(s.name for s in seats) != tuple(s.name for s in seats):
            return None
        size = int(setup["size"])
        if not MIN_SIZE <= size <= MAX_SIZE:
            return None
        clock = setup.get("clock")
        control = None if clock is None else TimeControl.parse(clock)
        if control is not None and control.per_move:
            control = None
        return GameRecord(size, Mode(setup["mode"]), seats, clock=control,
                          spent_ms=None if control is None else ())
    except (KeyError, TypeError, ValueError):  # a ClockError is a ValueError
        return None


def games_waiting_text(count: int) -> str:
    """The setup screen's line on the network games that wait for this player's move ("" for none)."""
    if not count:
        return ""
    return ngettext("{count} network game waits for your move: sos-tui games opens it",
                    "{count} network games wait for your move: sos-tui games lists them",
                    count).format(count=count)


class SetupScreen(SosScreen[GameRecord | None]):
    """Dismisses with the GameRecord to play: a new, empty one, or the unfinished game "Continue"
    picks up (found in a thread, so the screen never waits on the disk).

    The language menu switches the whole app's language at once (``SosApp.switch_language``);
    the form keeps what the player has entered across the switch (``language_changed``).
    """

    BINDINGS = [
        Binding("ctrl+s", "start", N_("Start"), show=True, priority=True),
        Binding("escape", "back", N_("Back"), show=False),
    ]
    # Short terminals: the form's rows close up, so that it all fits 30 lines with a game to continue.
    VERTICAL_BREAKPOINTS = [(0, "-short"), (36, "-tall")]
    AUTO_FOCUS = "#start"  # not the first focusable, the form's scroll: styling it is styling it all

    def __init__(self, previous: GameRecord | None = None, setup: dict | None = None) -> None:
        super().__init__()
        self.previous = previous or remembered(setup)
        self.resume: GameRecord | None = None  # an unfinished game that "Continue" picks up
        self._refused: tuple[str, ...] | None = None  # the names when a start was last refused
        self._form: dict | None = None  # what the player had entered, kept across a language switch
        self._defaults: list[str] = []  # the names prefilled, by seat: its kind's, in the current language
        self._seat_form: tuple[list[str], list[str]] = ([], [])  # each seat's first name and kind
        self.games_waiting = 0  # network games waiting for this player's move (``sos-tui games``)

    def compose(self) -> ComposeResult:
        prev = self.previous
        seats = list(prev.players) if prev else []
        form = self._form or {
            "size": prev.size if prev else 6,
            "mode": prev.mode.value if prev else Mode.GENERAL.value,
            "count": len(seats) if seats else 2,
            "names": [editable_name(seat.name) for seat in seats],
            "kinds": [seat.level if seat.is_computer else SeatKind.HUMAN for seat in seats],
            "clock": clock_choice(prev.clock if prev else None),
        }
        names = list(form["names"])
        kinds = list(form["kinds"]) + [SeatKind.HUMAN] * (MAX_SEATS - len(form["kinds"]))
        self._defaults = [default_name(kind, i) for i, kind in enumerate(kinds)]
        for i, default in enumerate(self._defaults):
            if i >= len(names):
                names.append(default)
            elif self._form is not None and names[i] == self._form["defaults"][i]:
                names[i] = default  # an untouched default name follows the language
        with VerticalScroll(id="setup"):
            yield Label("SOS", id="setup-title")
            yield Label(_("Write S or O in turn; complete S-O-S lines to score."), id="setup-tagline")
            with Horizontal(id="resume"):
                yield Static(id="resume-preview", markup=False)
                yield Button(_("Continue"), id="continue", variant="success")
            yield Label(_("…or set up a new game:"), id="new-game-label")
            with Horizontal(classes="setup-row"):
                yield Label(_("Board size"), classes="setup-label")
                yield Select([(f"{n} x {n}", n) for n in range(MIN_SIZE, MAX_SIZE + 1)],
                             value=form["size"], allow_blank=False, id="size", compact=True)
            with Horizontal(classes="setup-row"):
                yield Label(_("Game"), classes="setup-label")
                yield Select([(_("General: most SOSs wins"), Mode.GENERAL.value),
                              (_("Simple: first SOS wins"), Mode.SIMPLE.value)],
                             value=form["mode"], allow_blank=False, id="mode", compact=True)
            with Horizontal(classes="setup-row"):
                yield Label(_("Clock"), classes="setup-label")
                yield Select(clock_options(form["clock"]), value=form["clock"], allow_blank=False, id="clock",
                             compact=True)
            with Horizontal(classes="setup-row"):
                yield Label(_("Players"), classes="setup-label")
                yield Select([(str(n), n) for n in range(2, MAX_SEATS + 1)], value=form["count"],
                             allow_blank=False, id="count", compact=True)
            self._seat_form = names, kinds
            # only the seats in play: the others are made when the count of players grows
            yield Vertical(*(self._seat_row(i) for i in range(int(form["count"]))), id="seats")
            with Horizontal(classes="setup-row", id="language-row"):
                yield Label(_("Language"), classes="setup-label")
                # each language by its own name, so a player finds theirs whatever is shown now
                yield Select([(name, code) for code, name in LANGUAGES.items()], value=language(),
                             allow_blank=False, id="language", compact=True)
            yield Label("", id="setup-message", markup=False)
            with ButtonRow(id="setup-buttons"):
                yield Button(_("Start"), id="start", variant="primary")
                yield Button(_("Open…"), id="open")
                yield Button(_("History"), id="history")
                yield Button(_("Puzzles"), id="puzzles")
                yield Button(_("Quit"), id="quit", variant="error")
            with ButtonRow(id="net-buttons"):
                yield Button(_("Host over the network…"), id="host")
                yield Button(_("Join a game…"), id="join")
            yield Label(games_waiting_text(self.games_waiting), id="games-waiting", markup=False,
                        classes="-waiting" if self.games_waiting else "")
        yield KeyFooter()

    def _seat_row(self, i: int) -> Horizontal:
        names, kinds = self._seat_form
        return Horizontal(
            Label(_("Seat {n}").format(n=i + 1), classes=f"setup-label player-{i + 1}"),
            Input(names[i], placeholder=self._defaults[i], max_length=MAX_NAME, id=f"name-{i}", compact=True,
                  highlighter=ShowHidden()),
            Select(kind_options(), value=kinds[i], allow_blank=False, id=f"kind-{i}", compact=True),
            classes="setup-row seat", id=f"seat-{i}")

    def on_mount(self) -> None:
        self._show_seats(self.query_one("#count", Select).value)
        self._show_resume(None)
        self._find_resumable()
        if _seats_kept():  # then its servers are asked (the network code is not loaded before)
            self._count_games()

    # -- the language -----------------------------------------------------------------------
    def _snapshot(self) -> dict:
        """What the player has entered: size, mode, number of seats, each seat's name and kind (as
        first filled in, for a seat never shown)."""
        rows, (names, kinds) = self.query_one("#seats").children, self._seat_form
        return {
            "size": self.query_one("#size", Select).value,
            "mode": self.query_one("#mode", Select).value,
            "count": self.query_one("#count", Select).value,
            "clock": self.query_one("#clock", Select).value,
            "names": [*(row.query_one(Input).value for row in rows), *names[len(rows):]],
            "kinds": [*(row.query_one(Select).value for row in rows), *kinds[len(rows):]],
            "defaults": list(self._defaults),
        }

    def language_changed(self) -> None:
        """Draw the form again in the new language, with what the player entered (a default name
        left as it was follows the language), the focus where it was and the "Continue" offer."""
        if not self.is_mounted:
            return
        self._form = self._snapshot()
        focused = self.focused.id if self.focused is not None else None
        self._refused = None  # a refusal's words were in the old language: the new form has none
        self.call_later(self._recompose, focused)
        self.refresh_bindings()

    async def _recompose(self, focused: str | None) -> None:
        await self.recompose()
        self._show_seats(self.query_one("#count", Select).value)
        self._show_resume(self.resume, focus=False)
        if focused:
            found = self.query(f"#{focused}")
            if found:
                found.first().focus()
                return
        self.query_one("#language", Select).focus()

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "count":
            self._show_seats(event.value)
        elif event.select.id == "language" and event.value != language():
            self.app.switch_language(event.value)
        elif (event.select.id or "").startswith("kind-"):  # an untouched default name follows the kind
            i = int(event.select.id.removeprefix("kind-"))
            name, default = self.query_one(f"#name-{i}", Input), default_name(event.value, i)
            if name.value == self._defaults[i]:
                name.value = default
            self._defaults[i] = name.placeholder = default

    @work(thread=True, exclusive=True, group="games")
    def _count_games(self) -> None:
        """Ask the servers of the seat tokens kept here how many games wait for this player's
        move, off the UI thread: the screen never waits for it (each server has a few seconds)."""
        import asyncio

        from sos_tui.net import TokenStore
        from sos_tui.net.games import standings, waiting_for_you

        count = waiting_for_you(asyncio.run(standings(TokenStore.default())))
        self.app.call_from_thread(self._show_games, count)

    def _show_games(self, count: int) -> None:
        self.games_waiting = count
        if self.is_open:
            label = self.query_one("#games-waiting", Label)
            label.update(games_waiting_text(self.games_waiting))
            label.set_class(bool(count), "-waiting")

    @work(thread=True, exclusive=True, group="resume")
    def _find_resumable(self) -> None:
        try:
            record = storage.load_autosave()
        except (storage.StorageError, OSError):
            record = None
        if record is not None and record.moves and not record.state.is_over:
            self.app.call_from_thread(self._found, record)

    def _found(self, record: GameRecord) -> None:
        if self.is_open:  # not closed while the autosave was read
            self._show_resume(record)

    def _show_resume(self, record: GameRecord | None, focus: bool = True) -> None:
        self.resume = record
        for selector in ("#resume", "#new-game-label"):
            self.query_one(selector).display = record is not None
        if record is not None:
            self.query_one("#resume-preview", Static).update(Content(resume_preview(record)))
            if focus and not isinstance(self.focused, Input):  # unless the player is typing a name
                self.query_one("#continue", Button).focus()

    def _show_seats(self, count) -> None:
        """Show the first ``count`` seats, making those never shown yet; a seat hidden again keeps
        what was entered in it."""
        seats, count = self.query_one("#seats"), int(count)
        if count > len(seats.children):
            seats.mount_all(self._seat_row(i) for i in range(len(seats.children), count))
        for i, row in enumerate(seats.children):
            row.display = i < count

    def game(self) -> GameRecord:
        """The new game the screen describes. Raises SeatError naming the seat and the rule a name
        breaks (``check_name``), or ValueError when two names are the same (``check_names``)."""
        count = int(self.query_one("#count", Select).value)
        seats = tuple(
            seat_for(self.query_one(f"#name-{i}", Input).value, self.query_one(f"#kind-{i}", Select).value, i)
            for i in range(count)
        )
        check_names(seat.name for seat in seats)
        clock = self.query_one("#clock", Select).value
        control = None if clock == UNTIMED else TimeControl.parse(clock)
        return GameRecord(int(self.query_one("#size", Select).value),
                          Mode(self.query_one("#mode", Select).value), seats, clock=control,
                          spent_ms=None if control is None else ())

    def action_start(self) -> None:
        try:
            record = self.game()
        except ValueError as error:
            self._refuse(explain(error), error.seat if isinstance(error, SeatError) else None)
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
            self._clear_message()

    def _clear_message(self) -> None:
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
        try:
            record = self.game()
        except ValueError as error:
            self._refuse(explain(error), error.seat if isinstance(error, SeatError) else None)
            return
        self.app.host_game(record)

    @on(Button.Pressed, "#join")
    def _join_pressed(self) -> None:
        self.app.action_join()

    @on(Button.Pressed, "#open")
    def _open_pressed(self) -> None:
        self.app.action_open()

    @on(Button.Pressed, "#history")
    def _history_pressed(self) -> None:
        self.app.action_history()

    @on(Button.Pressed, "#puzzles")
    def _puzzles_pressed(self) -> None:
        self.app.action_puzzles()

    @on(Button.Pressed, "#quit")
    def _quit_pressed(self) -> None:
        self.app.exit()
