"""Past games and statistics, with filters; enter replays a game. The history is read in a thread
worker, once when the screen opens (with the filters' options) and once per filter change."""

from __future__ import annotations

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, DataTable, Footer, Label, Select, Static
from textual.worker import get_current_worker

from sos_tui.engine import GameRecord, Mode, PlayerInfo, RecordError
from sos_tui.storage import (
    Filters,
    History,
    HistoryEntry,
    HistoryError,
    Stats,
    StorageError,
    history_db_path,
)

from ..text import cell, literal, shown
from .replay import ReplayScreen

ANY = "any"
EMPTY_TEXT = "No finished games yet. Finish a game and it shows up here, with your statistics."
NO_MATCH_TEXT = "No games match these filters."


def _when(entry: HistoryEntry) -> str:
    return f"{entry.finished_at.astimezone():%Y-%m-%d %H:%M}"


def _players(players: tuple[PlayerInfo, ...], width: int = 16) -> str:
    """``"Ana vs Computer (easy)"``, each name escaped and shortened."""
    return " vs ".join(shown(p.name, width) + (f" ({p.level})" if p.is_computer and p.level else "")
                       for p in players)


def _result(entry: HistoryEntry) -> str:
    """``"Ana wins"`` or ``"draw"``, the winner's name escaped."""
    if len(entry.winners) == 1 and 0 <= entry.winners[0] < len(entry.players):
        return f"{shown(entry.players[entry.winners[0]].name, 16)} wins"
    return shown(entry.result, 30)


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
    opponents = {name: shown(name, 20) for name in stats.by_opponent}
    width = max([8, *(len(name) for name in opponents.values())])
    text.append(f"{'Opponent':<{width}}  Games  W  D  L   Avg\n", style="bold")
    for s in stats.by_opponent.values():
        text.append(f"{opponents[s.opponent]:<{width}}  {s.games:>5} {s.wins:>2} {s.draws:>2} {s.losses:>2} "
                    f"{s.average_score:>5.1f}\n")
    text.append("\n")
    game = stats.longest_chain_game
    if game is not None:
        seat = game.chain_player
        who = shown(game.players[seat].name, 20) if seat is not None and seat < len(game.players) else "?"
        text.append("Longest SOS chain: ", style="bold")
        text.append(f"{stats.longest_chain} in one turn by {who} ({_players(game.players)}, {_when(game)})\n")
    else:
        text.append("Longest SOS chain: ", style="bold")
        text.append("none yet\n", style="dim")
    best = stats.best_game
    text.append("Best game: ", style="bold")
    if best is not None:
        text.append(f"{shown(best.pov_name, 20)} won by {best.margin} ({best.score_text}, "
                    f"{_players(best.players)}, {_when(best)})")
    else:
        text.append("no win yet", style="dim")
    return text


class HistoryScreen(Screen[GameRecord | None]):
    """The finished games, newest first, filtered by opponent kind, board size and mode.

    Enter (or Replay) pushes a ReplayScreen of the highlighted game, v (or Review) the same with
    the game's review running; escape goes back.
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
        Binding("v", "review", "Review"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.entries: list[HistoryEntry] = []
        self.stats = Stats()
        self.error: str | None = None
        self.loaded = False
        """True once the first query has been shown."""
        self._asked: tuple | None = None  # the filters of the latest query
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
                yield Label("", id="history-message", markup=False)
            with VerticalScroll(id="stats-pane"):
                yield Static("", id="stats")
        with Horizontal(id="buttons"):
            yield Button("Replay", id="replay", variant="primary")
            yield Button("Review", id="review")
            yield Button("Back", id="back")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#stats-pane").border_title = "Statistics"
        table = self.query_one("#games", DataTable)
        for label, key in (("Date", "date"), ("Players", "players"), ("Board", "size"), ("Mode", "mode"),
                           ("Score", "score"), ("Result", "result")):
            table.add_column(label, key=key)
        table.focus()
        self.refresh_games(with_filters=True)

    # -- queries: in a thread, the newest filter change wins ---------------------------------
    @staticmethod
    def _query(opponent: str | None, size: int | None, mode: str | None,
               with_filters: bool) -> tuple[list[HistoryEntry], Stats, Filters | None]:
        """Games and statistics for the filters (and the filters' options); raises HistoryError or
        StorageError."""
        path = history_db_path()
        if not path.exists():  # never create the database just to read it
            return [], Stats(), Filters()
        with History(path) as history:
            options = history.filters() if with_filters else None
            return history.games(opponent, size, mode), history.stats(opponent, size, mode), options

    @property
    def filters(self) -> tuple[str | None, int | None, str | None]:
        """(opponent kind, board size, mode) chosen, None for "any"."""
        values = []
        for select_id in ("#opponent", "#size", "#mode"):
            value = self.query_one(select_id, Select).value
            values.append(None if value == ANY or value == Select.NULL else value)
        return values[0], values[1], values[2]

    def refresh_games(self, with_filters: bool = False) -> None:
        """Query the history with the current filters, off the UI thread, and show the result."""
        self._asked = self.filters
        self._load(self._asked, with_filters)

    @work(thread=True, exclusive=True, group="history")
    def _load(self, filters: tuple[str | None, int | None, str | None], with_filters: bool) -> None:
        worker = get_current_worker()
        try:
            entries, stats, options = self._query(*filters, with_filters)
            error = None
        except (HistoryError, StorageError) as problem:
            entries, stats, options, error = [], Stats(), None, str(problem)
        if not worker.is_cancelled:
            self.app.call_from_thread(self._show, filters, entries, stats, options, error)

    def _show(self, filters, entries: list[HistoryEntry], stats: Stats, options: Filters | None,
              error: str | None) -> None:
        if not self.is_mounted:  # closed while the query ran
            return
        if options is not None:
            self._fill_filters(options)
        self.entries, self.stats, self.error = entries, stats, error
        table = self.query_one("#games", DataTable)
        table.clear()
        for entry in entries:
            table.add_row(_when(entry), cell(_players(entry.players), 60), f"{entry.size}x{entry.size}",
                          cell(entry.mode, 10), entry.score_text, cell(_result(entry), 30), key=str(entry.id))
        self.query_one("#stats", Static).update(stats_text(stats))
        if error is not None:
            message = f"Cannot read the history: {error}"
        elif entries:
            message = ""
        elif any(value is not None for value in filters):
            message = NO_MATCH_TEXT
        else:
            message = EMPTY_TEXT
        label = self.query_one("#history-message", Label)
        label.update(literal(message, 400))
        label.set_class(bool(message), "-shown")
        label.set_class(error is not None, "error")
        table.display = bool(entries)
        self.loaded = True

    def _fill_filters(self, options: Filters) -> None:
        """Offer the opponent kinds and board sizes in the history; filling the menus is no change
        of filter (no query)."""
        self.opponent_kinds = list(options.opponents)
        self.board_sizes = list(options.sizes)
        with self.prevent(Select.Changed):
            self.query_one("#opponent", Select).set_options(
                [("any", ANY), *((cell(o, 20), o) for o in self.opponent_kinds)])
            self.query_one("#size", Select).set_options(
                [("any", ANY), *((f"{n}x{n}", n) for n in self.board_sizes)])
            for select_id in ("#opponent", "#size"):
                self.query_one(select_id, Select).value = ANY

    @property
    def message(self) -> str:
        """The line shown instead of (or under) the table: empty history, no match, or an error."""
        return str(self.query_one("#history-message", Label).content)

    # -- events -----------------------------------------------------------------------------
    def on_select_changed(self, event: Select.Changed) -> None:
        """A new filter: query again. (The menus announce their first value as they mount: that is
        no change, and asks nothing.)"""
        event.stop()
        if self.filters != self._asked:
            self.refresh_games()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.replay(event.cursor_row)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "replay":
            self.action_replay()
        elif event.button.id == "review":
            self.action_review()
        else:
            self.action_back()

    # -- actions ----------------------------------------------------------------------------
    def action_replay(self) -> None:
        self.replay(self.query_one("#games", DataTable).cursor_row)

    def action_review(self) -> None:
        """The replay of the highlighted game with its review running."""
        self.replay(self.query_one("#games", DataTable).cursor_row, review=True)

    def replay(self, index: int, review: bool = False) -> None:
        if not 0 <= index < len(self.entries):
            self.notify("Choose a game to replay.", severity="warning", timeout=2)
            return
        try:
            record = self.entries[index].record
        except (RecordError, ValueError) as error:
            self.notify(f"This game's record cannot be read: {shown(error, 300)}", title="Cannot replay",
                        severity="error", markup=False)
            return
        self.app.push_screen(ReplayScreen(record, review=review), self._replayed)

    def _replayed(self, record: GameRecord | None) -> None:
        if record is not None:  # "play from here": this screen hands the game on
            self.dismiss(record)

    def action_back(self) -> None:
        self.dismiss(None)
