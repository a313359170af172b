"""Host over the network: who plays here and who joins from elsewhere, where to listen, or a
``sos-tui server`` to create the game on. Nothing listens until the player presses Host."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from sos_tui.engine import GameRecord, Seat, SeatKind
from sos_tui.i18n import N_, _, explain, level_name
from sos_tui.net import DEFAULT_PORT, parse_url
from sos_tui.net.run import HostPlan, is_loopback
from sos_tui.storage.paths import confined

from ..language import SosModal
from ..text import literal
from ..widgets.buttons import ButtonRow

HERE, FRIEND = "here", "remote"
LOOPBACK, EVERYWHERE = "127.0.0.1", "0.0.0.0"


def default_places(record: GameRecord) -> list[str | None]:
    """Where each seat is played at first: the first person's here, every other person's by a
    friend who joins; None for a computer's (the server plays it)."""
    people = [i for i, seat in enumerate(record.players) if not seat.is_computer]
    return [None if seat.is_computer else HERE if i == people[0] else FRIEND
            for i, seat in enumerate(record.players)]


def plan_for(record: GameRecord, places: list[str | None], bind: str, port: str,
             server: str, public: bool = False, rated: bool = False) -> HostPlan:
    """The game to host from the dialog's answers; ValueError saying what to change."""
    if FRIEND not in places:
        raise ValueError(_("Let a friend join in at least one seat: that is what hosting is for."))
    try:
        number = int(port.strip())
    except ValueError:
        number = -1
    if not 0 <= number <= 65535:
        raise ValueError(_("The port is a number from 1 to 65535 (0: any free port)."))
    server_url = server.strip() or None
    if server_url is None and confined() and not is_loopback(bind):
        raise ValueError(_("This web server hosts games for its own tabs only: to play friends elsewhere, "
                           "host on a sos-tui server."))
    if rated and server_url is None:
        raise ValueError(_("A rated game is played on a sos-tui server: give its address."))
    if server_url is not None:
        try:
            server_url = str(parse_url(server_url, need_code=False))
        except ValueError as error:
            raise ValueError(_("Server: {error}").format(error=explain(error))) from None
    seats = tuple(Seat(seat.name, SeatKind.COMPUTER, seat.level) if place is None
                  else Seat(seat.name) if place == HERE else Seat(None, SeatKind.REMOTE)
                  for seat, place in zip(record.players, places, strict=True))
    return HostPlan(record.size, record.mode.value, seats, bind, number, server_url, public,
                    clock=record.clock, rated=rated)


class HostDialog(SosModal[HostPlan | None]):
    """Ask how to host ``record`` (the game the setup describes); dismisses with the plan."""

    BINDINGS = [Binding("escape", "cancel", N_("Cancel")), Binding("ctrl+s", "host", N_("Host"))]
    DEFAULT_CSS = """
    HostDialog { align: center middle; }
    HostDialog #dialog {
        width: 76; max-width: 100%; height: auto; max-height: 100%;
        border: thick $frame-focus; padding: 0 2; background: $surface;
    }
    HostDialog #title { width: 1fr; content-align: center middle; text-style: bold; }
    HostDialog .row { height: auto; }
    HostDialog .label { width: 22; padding: 0 1 0 0; }
    HostDialog .row Select, HostDialog .row Input { width: 1fr; }
    HostDialog .computer { color: $text-muted; }
    HostDialog Checkbox > .toggle--button, HostDialog Checkbox.-on > .toggle--button {
        background: $foreground; color: $background;
    }
    HostDialog #note { color: $text-muted; height: auto; margin-top: 1; }
    HostDialog #problem { color: $text-error; height: auto; }
    HostDialog #buttons { height: auto; align: center middle; margin-top: 1; }
    HostDialog #buttons Button { margin: 0 1; }
    """

    def __init__(self, record: GameRecord) -> None:
        super().__init__()
        self.record = record
        self._places = default_places(record)

    def compose_dialog(self) -> ComposeResult:
        where = [(_("Plays here"), HERE), (_("A friend joins"), FRIEND)]
        with VerticalScroll(id="dialog"):
            yield Label(_("Host over the network"), id="title")
            for i, (seat, place) in enumerate(zip(self.record.players, self._places, strict=True)):
                label = literal(f"{_('Seat {n}').format(n=i + 1)} {seat.name}")
                with Horizontal(classes="row"):
                    yield Label(label, classes=f"label player-{i + 1}")
                    if place is None:
                        yield Label(_("Computer · {level}").format(level=level_name(seat.level)),
                                    classes="computer")
                    else:
                        yield Select(where, value=place, allow_blank=False, id=f"place-{i}", compact=True)
            with Horizontal(classes="row"):
                yield Label(_("Listen on"), classes="label")
                binds = [(_("This computer only"), LOOPBACK),
                         (_("Every network of this computer"), EVERYWHERE)]
                yield Select(binds[:1] if confined() else binds,
                             value=LOOPBACK, allow_blank=False, id="bind", compact=True)
            with Horizontal(classes="row"):
                yield Label(_("Port"), classes="label")
                yield Input(str(DEFAULT_PORT), id="port", restrict=r"[0-9]*", max_length=5, compact=True)
            with Horizontal(classes="row"):
                yield Label(_("Or on a server"), classes="label")
                yield Input(placeholder="ws://HOST:PORT", id="server", max_length=300, compact=True)
            with Horizontal(classes="row"):
                yield Label("", classes="label")
                box = Checkbox(_("List it in the lobby: anyone may take a seat"), id="public", compact=True)
                box.BUTTON_INNER = " "  # a box drawn solid (legible in every theme), with an X once ticked
                yield box
            with Horizontal(classes="row"):
                yield Label("", classes="label")
                box = Checkbox(_("Rated: the server rates the players"), id="rated", compact=True)
                box.BUTTON_INNER = " "
                yield box
            yield Static(id="note", markup=False)
            yield Static(id="problem", markup=False)
            with ButtonRow(id="buttons"):
                yield Button(_("Host"), id="host", variant="primary")
                yield Button(_("Cancel"), id="cancel")

    def on_mount(self) -> None:
        self._explain()
        self.query_one("#host", Button).focus()

    def _explain(self) -> None:
        """What the chosen address means for who can join."""
        bind = self.query_one("#bind", Select).value
        if self.query_one("#server", Input).value.strip():
            note = _("The game is created on that server; friends join it there with the code.")
        elif confined():
            note = _("Players in other tabs of this web page can join with the code. For friends "
                     "elsewhere, host on a sos-tui server.")
        elif is_loopback(bind):
            note = _("Only players on this computer can join. For friends on other computers, listen on "
                     "every network.")
        else:
            note = _("Anyone who can reach this computer on its networks can join or watch with the "
                     "code: give it only to your friends.")
        if self.query_one("#public", Checkbox).value:
            note = _("Listed in the lobby: anyone who asks the server for its open games can take a seat.")
        self.query_one("#note", Static).update(note)

    def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()
        if event.select.id and event.select.id.startswith("place-"):
            self._places[int(event.select.id.removeprefix("place-"))] = event.value
        self._explain()

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        event.stop()
        event.checkbox.BUTTON_INNER = "X" if event.value else " "
        event.checkbox.refresh()
        self._explain()

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.query_one("#problem", Static).update("")
        self._explain()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_host()

    @on(Button.Pressed, "#host")
    def action_host(self) -> None:
        try:
            plan = plan_for(self.record, self._places, self.query_one("#bind", Select).value,
                            self.query_one("#port", Input).value, self.query_one("#server", Input).value,
                            self.query_one("#public", Checkbox).value,
                            self.query_one("#rated", Checkbox).value)
        except ValueError as problem:
            self.query_one("#problem", Static).update(str(problem))
            return
        self.dismiss(plan)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
