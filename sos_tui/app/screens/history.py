"""Past games and statistics, with filters; enter replays a game."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, DataTable, Footer, Label, Select, Static

from sos_tui.engine import GameRecord, Mode, RecordError
from sos_tui.storage import History, HistoryEntry, HistoryError, Stats, StorageError, history_db_path

from .replay import ReplayScreen

ANY = "any"
EMPTY_TEXT = "No finished games yet. Finish a game and it shows up here, with your statistics."
NO_MATCH_TEXT = "No games match these filters."


def _when(entry: HistoryEntry) -> str:
    return f"{entry.finished_at.astimezone():%Y-%m-%d %H:%M}"


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def stats_text(stats: Stats) -> Text:
    """The statistics panel: totals, one line per opponent kind, longest SOS chain, best game."""
    text = Text()
    if not stats.games:
        text.append("No games to count.", style="dim")
        return text
    plural = "s" if stats.games != 1 else ""
    text.append(f"{stats.games} game{plural}", style="bold")
    text.append(" (from the first human player's side)\n", style="dim")
    text.append(f"Wins {stats.wins} · Draws {stats.draws} · Losses {stats.losses}\n")
    text.append(f"Average score {stats.average_score:.1f}\n\n")
    width = max([8, *(len(name) for name in stats.by_opponent)])
    text.append(f"{'Opponent':<{width}}  Games  W  D  L   Avg\n", style="bold")
    for s in stats.by_opponent.values():
        text.append(f"{s.opponent:<{width}}  {s.games:>5} {s.wins:>2} {s.draws:>2} {s.losses:>2} "
                    f"{s.average_score:>5.1f}\n")
    text.append("\n")
    game = stats.longest_chain_game
    if game is not None:
        who = game.players[game.chain_player].name if game.chain_player is not None else "?"
        text.append("Longest SOS chain: ", style="bold")
        text.append(f"{stats.longest_chain} in one turn by {who} ({game.players_text}, {_when(game)})\n")
    else:
        text.append("Longest SOS chain: ", style="bold")
        text.append("none yet\n", style="dim")
    best = stats.best_game
    text.append("Best game: ", style="bold")
    if best is not None:
        text.append(f"{best.pov_name} won by {best.margin} ({best.score_text}, {best.players_text}, "
                    f"{_when(best)})")
    else:
        text.append("no win yet", style="dim")
    return text


class HistoryScreen(Screen[GameRecord | None]):
    """The finished games, newest first, filtered by opponent kind, board size and mode.

    Enter (or Replay) pushes a ReplayScreen of the highlighted game; escape goes back.
    """

    DEFAULT_CSS = """
    HistoryScreen #history-title {
        width: 1fr;
        content-align: center middle;
        text-style: bold;
        background: $panel;
    }
    HistoryScreen #filters { height: auto; padding: 0 1; }
    HistoryScreen #filters Label { padding: 1 1 0 1; color: $text-muted; }
    HistoryScreen #filters Select { width: 22; }
    HistoryScreen #history-body { height: 1fr; }
    HistoryScreen #games-pane { width: 1fr; height: 1fr; }
    HistoryScreen #games { height: 1fr; border: round $secondary 50%; }
    HistoryScreen #games:focus { border: round $secondary; }
    HistoryScreen #history-message {
        width: 1fr;
        padding: 1 2;
        color: $text-muted;
        text-style: italic;
        display: none;
    }
    HistoryScreen #history-message.-shown { display: block; }
    HistoryScreen #history-message.error { color: $error; text-style: bold; }
    HistoryScreen.-narrow #history-body { layout: vertical; }
    HistoryScreen.-narrow #stats-pane { width: 1fr; height: auto; max-height: 50%; }
    HistoryScreen #stats-pane {
        width: 52;
        height: 1fr;
        border: round $accent 50%;
        border-title-color: $text;
        background: $panel;
        padding: 0 1;
    }
    HistoryScreen #buttons { height: auto; align-horizontal: right; padding: 0 1; }
    HistoryScreen #buttons Button { margin-left: 2; min-width: 10; }
    """

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (140, "-wide")]

    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("r", "replay", "Replay"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.entries: list[HistoryEntry] = []
        self.stats = Stats()
        self.error: str | None = None
        self._ready = False
        self.opponent_kinds: list[str] = []
        """The opponent kinds in the history, offered by the filter (besides "any")."""
        self.board_sizes: list[int] = []

    def compose(self) -> ComposeResult:
        yield Label("History", id="history-title")
        with Horizontal(id="filters"):
            yield Label("Opponent")
            yield Select([("any", ANY)], value=ANY, allow_blank=False, id="opponent")
            yield Label("Board")
            yield Select([("any", ANY)], value=ANY, allow_blank=False, id="size")
            yield Label("Mode")
            yield Select([("any", ANY), *((m.value, m.value) for m in Mode)], value=ANY, allow_blank=False,
                         id="mode")
        with Horizontal(id="history-body"):
            with Vertical(id="games-pane"):
                yield DataTable(id="games", cursor_type="row", zebra_stripes=True)
                yield Label("", id="history-message")
            with VerticalScroll(id="stats-pane"):
                yield Static("", id="stats")
        with Horizontal(id="buttons"):
            yield Button("Replay", id="replay", variant="primary")
            yield Button("Back", id="back")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#stats-pane").border_title = "Statistics"
        table = self.query_one("#games", DataTable)
        for label, key in (("Date", "date"), ("Players", "players"), ("Board", "size"), ("Mode", "mode"),
                           ("Score", "score"), ("Result", "result")):
            table.add_column(label, key=key)
        self._fill_filters()
        self._ready = True
        self.refresh_games()
        table.focus()

    # -- queries ----------------------------------------------------------------------------
    def _query(self, opponent: str | None = None, size: int | None = None,
               mode: str | None = None) -> tuple[list[HistoryEntry], Stats]:
        """Games and statistics for the filters; raises HistoryError or StorageError."""
        path = history_db_path()
        if not path.exists():  # never create the database just to read it
            return [], Stats()
        with History(path) as history:
            entries = history.games(opponent, size, mode)
            return entries, history.stats(opponent, size, mode)

    def _fill_filters(self) -> None:
        try:
            everything, _ = self._query()
        except (HistoryError, StorageError):
            return  # refresh_games shows the error
        self.opponent_kinds = opponents = sorted({e.opponent for e in everything})
        self.board_sizes = sizes = sorted({e.size for e in everything})
        self.query_one("#opponent", Select).set_options([("any", ANY), *((o, o) for o in opponents)])
        self.query_one("#size", Select).set_options([("any", ANY), *((f"{n}x{n}", n) for n in sizes)])
        for select_id in ("#opponent", "#size"):
            self.query_one(select_id, Select).value = ANY

    @property
    def filters(self) -> tuple[str | None, int | None, str | None]:
        """(opponent kind, board size, mode) chosen, None for "any"."""
        values = []
        for select_id in ("#opponent", "#size", "#mode"):
            value = self.query_one(select_id, Select).value
            values.append(None if value == ANY or value == Select.NULL else value)
        return values[0], values[1], values[2]

    def refresh_games(self) -> None:
        """Query the history with the current filters and show the games and statistics."""
        table = self.query_one("#games", DataTable)
        table.clear()
        self.error = None
        try:
            self.entries, self.stats = self._query(*self.filters)
        except (HistoryError, StorageError) as error:
            self.entries, self.stats = [], Stats()
            self.error = str(error)
        for entry in self.entries:
            table.add_row(_when(entry), _clip(entry.players_text, 36), f"{entry.size}x{entry.size}",
                          entry.mode, entry.score_text, entry.result, key=str(entry.id))
        self.query_one("#stats", Static).update(stats_text(self.stats))
        if self.error is not None:
            message = f"Cannot read the history: {self.error}"
        elif self.entries:
            message = ""
        elif any(self.filters):
            message = NO_MATCH_TEXT
        else:
            message = EMPTY_TEXT
        label = self.query_one("#history-message", Label)
        label.update(message)
        label.set_class(bool(message), "-shown")
        label.set_class(self.error is not None, "error")
        table.display = bool(self.entries)

    @property
    def message(self) -> str:
        """The line shown instead of (or under) the table: empty history, no match, or an error."""
        return str(self.query_one("#history-message", Label).content)

    # -- events -----------------------------------------------------------------------------
    def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()
        if self._ready:
            self.refresh_games()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.replay(event.cursor_row)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "replay":
            self.action_replay()
        else:
            self.action_back()

    # -- actions ----------------------------------------------------------------------------
    def action_replay(self) -> None:
        self.replay(self.query_one("#games", DataTable).cursor_row)

    def replay(self, index: int) -> None:
        if not 0 <= index < len(self.entries):
            self.notify("Choose a game to replay.", severity="warning", timeout=2)
            return
        try:
            record = self.entries[index].record
        except (RecordError, ValueError) as error:
            self.notify(f"This game's record cannot be read: {error}", title="Cannot replay",
                        severity="error")
            return
        self.app.push_screen(ReplayScreen(record), self._replayed)

    def _replayed(self, record: GameRecord | None) -> None:
        if record is not None:  # "play from here": this screen hands the game on
            self.dismiss(record)

    def action_back(self) -> None:
        self.dismiss(None)
