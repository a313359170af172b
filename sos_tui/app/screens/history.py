"""Past games and statistics, with filters; enter replays a game. The history is read in a thread
worker, once when the screen opens (with the filters' options) and once per filter change."""

from __future__ import annotations

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Button, DataTable, Label, Select, Static, TabbedContent, TabPane
from textual.worker import get_current_worker

from sos_tui.engine import GameRecord, Mode, PlayerInfo, RecordError
from sos_tui.i18n import N_, _, bot_label, explain, level_name, mode_name, ngettext
from sos_tui.ratings import Standing
from sos_tui.storage import (
    Filters,
    History,
    HistoryEntry,
    HistoryError,
    Stats,
    StorageError,
    history_db_path,
)

from ..language import SosScreen
from ..text import cell, literal, shown
from ..widgets.buttons import ButtonRow
from ..widgets.footer import KeyFooter
from .replay import ReplayScreen

ANY = "any"
EMPTY_TEXT = N_("No finished games yet. Finish a game and it shows up here, with your statistics.")
NO_MATCH_TEXT = N_("No games match these filters.")

_OPPONENTS = {"human": N_("human"), "bot": N_("bot"), "computer": N_("computer"), "mixed": N_("mixed"),
              "computer-only": N_("computers only"), "unknown": N_("unknown")}
"""The opponent kinds of the history (besides the computer's levels) as the screen shows them."""

COLUMNS = ((N_("Date"), "date"), (N_("Players"), "players"), (N_("Board"), "size"), (N_("Mode"), "mode"),
           (N_("Score"), "score"), (N_("Result"), "result"))


def opponent_name(kind: str) -> str:
    """An opponent kind (``"human"``, ``"easy"``, ``"mixed"``...) in the current language."""
    if kind in _OPPONENTS:
        return _(_OPPONENTS[kind])
    return level_name(kind)


def _when(entry: HistoryEntry) -> str:
    return f"{entry.finished_at.astimezone():%Y-%m-%d %H:%M}"


def _players(players: tuple[PlayerInfo, ...], width: int = 16) -> str:
    """``"Ana vs Computer (easy)"`` or ``"Ana vs Randy (bot)"``, each name escaped and shortened."""
    # Translators: between the names of the players of a game: "Ana vs Bo vs Computer"
    return _(" vs ").join(_player(p, width) for p in players)


def _player(player: PlayerInfo, width: int) -> str:
    name = shown(player.name, width)
    if player.is_computer and player.level:
        return f"{name} ({level_name(player.level)})"
    return bot_label(name) if player.bot else name


def _result(entry: HistoryEntry) -> str:
    """``"Ana wins"``, ``"draw"`` or ``"draw between Ana, Bo"`` in the current language, from the
    stored winners (the stored result text is English); the names escaped."""
    return _winners(entry) + (f" ({shown(entry.ending, 40)})" if entry.ending else "")


def _winners(entry: HistoryEntry) -> str:
    players, winners = entry.players, entry.winners
    if winners and all(0 <= w < len(players) for w in winners):
        if len(winners) == 1:
            return _("{name} wins").format(name=shown(players[winners[0]].name, 16))
        if len(winners) == len(players):
            return _("draw")
        names = ", ".join(shown(players[w].name, 12) for w in winners)
        return _("draw between {names}").format(names=names)
    return shown(entry.result, 30)


MUTED = "$foreground-muted"  # asides: legible in every theme, where Rich's "dim" is not


def stats_text(stats: Stats) -> Content:
    """The statistics panel: totals, one line per opponent kind, longest SOS chain, best game."""
    parts: list[tuple[str, str]] = []

    def add(words: str, style: str = "") -> None:
        parts.append((words, style))

    if not stats.games:
        add(_("No games to count."), style=MUTED)
        return Content.assemble(*parts)
    add(ngettext("{n} game", "{n} games", stats.games).format(n=stats.games), style="bold")
    add(_(" (from the first human player's side)") + "\n", style=MUTED)
    add(_("Wins {wins} · Draws {draws} · Losses {losses}").format(
        wins=stats.wins, draws=stats.draws, losses=stats.losses) + "\n")
    add(_("Average score {score}").format(score=f"{stats.average_score:.1f}") + "\n\n")
    # the table of opponents: each column as wide as its heading or its widest value
    # Translators: the statistics' columns: opponent, games, wins, draws, losses, average score
    headings = (_("Opponent"), _("Games"), _("W"), _("D"), _("L"), _("Avg"))
    rows = [(shown(opponent_name(s.opponent), 20), str(s.games), str(s.wins), str(s.draws), str(s.losses),
             f"{s.average_score:.1f}") for s in stats.by_opponent.values()]
    widths = [max(len(row[i]) for row in [headings, *rows]) for i in range(len(headings))]
    widths[0] = max(8, widths[0])

    def line(row) -> str:
        rest = "".join(f"  {value:>{width}}" for value, width in zip(row[1:], widths[1:], strict=True))
        return f"{row[0]:<{widths[0]}}{rest}"

    add(line(headings) + "\n", style="bold")
    for row in rows:
        add(line(row) + "\n")
    add("\n")
    game = stats.longest_chain_game
    add(_("Longest SOS chain: "), style="bold")
    if game is not None:
        seat = game.chain_player
        who = shown(game.players[seat].name, 20) if seat is not None and seat < len(game.players) else "?"
        add(_("{n} in one turn by {name} ({players}, {when})").format(
            n=stats.longest_chain, name=who, players=_players(game.players), when=_when(game)) + "\n")
    else:
        add(_("none yet") + "\n", style=MUTED)
    best = stats.best_game
    add(_("Best game: "), style="bold")
    if best is not None:
        add(_("{name} won by {margin} ({score}, {players}, {when})").format(
            name=shown(best.pov_name, 20), margin=best.margin, score=best.score_text,
            players=_players(best.players), when=_when(best)))
    else:
        add(_("no win yet"), style=MUTED)
    return Content.assemble(*parts)


# Translators: the ratings' columns on the history screen: name, mode, rating, ±, games
RATING_HEADINGS = (N_("Name"), N_("Mode"), N_("Rating"), "±", N_("Games"))


def ratings_text(standings: list[Standing]) -> Content:
    """The ratings section: every player's rating (of the mode chosen), names escaped; "?" marks
    a provisional rating."""
    parts: list[tuple[str, str]] = []
    if not standings:
        parts.append((_("No ratings yet: finish a game and its players are rated."), MUTED))
        return Content.assemble(*parts)
    headings = tuple(_(h) for h in RATING_HEADINGS)
    rows = [(shown(s.name, 16), mode_name(s.mode), s.rating_text, str(s.deviation), str(s.games))
            for s in standings]
    widths = [max(len(row[i]) for row in [headings, *rows]) for i in range(len(headings))]

    def line(row) -> str:
        left = f"{row[0]:<{widths[0]}}  {row[1]:<{widths[1]}}"
        return left + "".join(f"  {value:>{width}}" for value, width in zip(row[2:], widths[2:], strict=True))

    parts.append((line(headings) + "\n", "bold"))
    parts += [(line(row) + "\n", "") for row in rows]
    parts.append((_("? provisional (few games); ± how far it may be off"), MUTED))
    return Content.assemble(*parts)


class HistoryScreen(SosScreen[GameRecord | None]):
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
    HistoryScreen #filters Label { padding: 1 1 0 1; color: $foreground-muted; }
    HistoryScreen #filters Select { width: 1fr; max-width: 22; }
    HistoryScreen #history-body { height: 1fr; }
    HistoryScreen #games-pane { width: 1fr; height: 1fr; }
    HistoryScreen #games { height: 1fr; border: round $frame; }
    HistoryScreen #games:focus { border: round $frame-focus; }
    HistoryScreen #history-message {
        width: 1fr;
        padding: 1 2;
        color: $foreground-muted;
        text-style: italic;
        display: none;
    }
    HistoryScreen #history-message.-shown { display: block; }
    HistoryScreen #history-message.error { color: $text-error; text-style: bold; }
    HistoryScreen.-narrow #history-body { layout: vertical; }
    HistoryScreen.-narrow #stats-pane { width: 1fr; height: 50%; }
    HistoryScreen #stats-pane {
        width: 52;
        height: 1fr;
        border: round $frame;
        background: $panel;
    }
    HistoryScreen #stats-pane ContentSwitcher, HistoryScreen #stats-pane TabPane { height: 1fr; }
    HistoryScreen #stats-pane TabPane { padding: 0 1; }
    /* the tab not shown is still text to read, and the rule under the tabs a line to see (Textual
       dims both below legible contrast); the shown tab is bold, with the theme's bar under it */
    HistoryScreen #stats-pane Tab { color: $foreground; }
    HistoryScreen #stats-pane Tab.-active { text-style: bold; }
    HistoryScreen #stats-pane Underline > .underline--bar {
        background: $foreground 80%; color: $text-accent;
    }
    HistoryScreen #buttons { height: auto; align-horizontal: right; padding: 0 1; }
    HistoryScreen #buttons Button { margin-left: 2; min-width: 10; }
    """

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (140, "-wide")]

    BINDINGS = [
        Binding("escape", "back", N_("Back")),
        Binding("r", "replay", N_("Replay")),
        Binding("v", "review", N_("Review")),
        Binding("t", "other_tab", N_("Stats/ratings")),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.entries: list[HistoryEntry] = []
        self.stats = Stats()
        self.ratings: list[Standing] = []
        self.error: str | None = None
        self.loaded = False
        """True once the first query has been shown."""
        self._asked: tuple | None = None  # the filters of the latest query
        self.opponent_kinds: list[str] = []
        """The opponent kinds in the history, offered by the filter (besides "any")."""
        self.board_sizes: list[int] = []

    WORDS = {"#history-title": N_("History"), "#opponent-label": N_("Opponent"), "#size-label": N_("Board"),
             "#mode-label": N_("Mode"), "#replay": N_("Replay"), "#review": N_("Review"), "#back": N_("Back")}
    """The screen's fixed words, by widget: put into the current language on mount and on a switch."""

    def compose(self) -> ComposeResult:
        yield Label(id="history-title")
        with Horizontal(id="filters"):
            yield Label(id="opponent-label")
            yield Select([(_("any"), ANY)], value=ANY, allow_blank=False, id="opponent")
            yield Label(id="size-label")
            yield Select([(_("any"), ANY)], value=ANY, allow_blank=False, id="size")
            yield Label(id="mode-label")
            yield Select(self._mode_options(), value=ANY, allow_blank=False, id="mode")
        with Horizontal(id="history-body"):
            with Vertical(id="games-pane"):
                yield DataTable(id="games", cursor_type="row", zebra_stripes=True)
                yield Label("", id="history-message", markup=False)
            with TabbedContent(id="stats-pane"):
                with TabPane("", id="stats-tab"), VerticalScroll():
                    yield Static("", id="stats")
                with TabPane("", id="ratings-tab"), VerticalScroll():
                    yield Static("", id="ratings")
        with ButtonRow(id="buttons"):
            yield Button("", id="replay", variant="primary")
            yield Button("", id="review")
            yield Button("", id="back")
        yield KeyFooter()

    def on_mount(self) -> None:
        self._words()
        self.query_one("#games", DataTable).focus()
        self.refresh_games(with_filters=True)

    def _words(self) -> None:
        """Every fixed word of the screen in the current language: labels, buttons, the table's
        headings, the statistics pane's title."""
        for selector, words in self.WORDS.items():
            widget = self.query_one(selector)
            if isinstance(widget, Button):
                widget.label = _(words)
                widget.refresh(layout=True)  # a new label, a new width
            else:
                widget.update(_(words))
        tabs = self.query_one("#stats-pane", TabbedContent)
        tabs.get_tab("stats-tab").label = _("Statistics")
        tabs.get_tab("ratings-tab").label = _("Ratings")
        table = self.query_one("#games", DataTable)
        table.clear(columns=True)
        for label, key in COLUMNS:
            table.add_column(_(label), key=key)

    def language_changed(self) -> None:
        """Say everything again in the new language, keeping the filters, the games shown and the
        highlighted row."""
        if not self.is_mounted:
            return
        table = self.query_one("#games", DataTable)
        row = table.cursor_row
        self._words()
        with self.prevent(Select.Changed):
            menus = (("#opponent", self._opponent_options()), ("#size", self._size_options()),
                     ("#mode", self._mode_options()))
            for select_id, options in menus:
                select = self.query_one(select_id, Select)
                value = select.value
                select.set_options(options)
                select.value = value
                select.mutate_reactive(Select.value)  # show the value's words even when it is unchanged
        if self.loaded:
            self._fill(self._asked or (None, None, None))
            table.move_cursor(row=row)
        self.refresh_bindings()

    @staticmethod
    def _mode_options() -> list[tuple[str, str]]:
        return [(_("any"), ANY), *((mode_name(m), m.value) for m in Mode)]

    def _opponent_options(self) -> list:
        return [(_("any"), ANY), *((cell(opponent_name(o), 20), o) for o in self.opponent_kinds)]

    def _size_options(self) -> list:
        return [(_("any"), ANY), *((f"{n}x{n}", n) for n in self.board_sizes)]

    # -- queries: in a thread, the newest filter change wins ---------------------------------
    @staticmethod
    def _query(opponent: str | None, size: int | None, mode: str | None,
               with_filters: bool) -> tuple[list[HistoryEntry], Stats, list[Standing], Filters | None]:
        """Games and statistics for the filters, the ratings of the mode (and the filters'
        options); raises HistoryError or StorageError."""
        path = history_db_path()
        if not path.exists():  # never create the database just to read it
            return [], Stats(), [], Filters()
        with History(path) as history:
            options = history.filters() if with_filters else None
            games, stats = history.games(opponent, size, mode), history.stats(opponent, size, mode)
            return games, stats, history.ratings(mode), options

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
            entries, stats, ratings, options = self._query(*filters, with_filters)
            error = None
        except (HistoryError, StorageError) as problem:
            entries, stats, ratings, options, error = [], Stats(), [], None, explain(problem)
        if not worker.is_cancelled:
            self.app.call_from_thread(self._show, filters, (entries, stats, ratings), options, error)

    def _show(self, filters, found: tuple[list[HistoryEntry], Stats, list[Standing]], options: Filters | None,
              error: str | None) -> None:
        if not self.is_open:  # closed while the query ran
            return
        if options is not None:
            self._fill_filters(options)
        (self.entries, self.stats, self.ratings), self.error = found, error
        self._fill(filters)
        self.loaded = True

    def _fill(self, filters) -> None:
        """Show the games, the statistics and the message read for ``filters``."""
        entries, error = self.entries, self.error
        table = self.query_one("#games", DataTable)
        table.clear()
        for entry in entries:
            table.add_row(_when(entry), cell(_players(entry.players), 60), f"{entry.size}x{entry.size}",
                          cell(mode_name(entry.mode), 10), entry.score_text, cell(_result(entry), 30),
                          key=str(entry.id))
        self.query_one("#stats", Static).update(stats_text(self.stats))
        self.query_one("#ratings", Static).update(ratings_text(self.ratings))
        if error is not None:
            message = _("Cannot read the history: {error}").format(error=error)
        elif entries:
            message = ""
        elif any(value is not None for value in filters):
            message = _(NO_MATCH_TEXT)
        else:
            message = _(EMPTY_TEXT)
        label = self.query_one("#history-message", Label)
        label.update(literal(message, 400))
        label.set_class(bool(message), "-shown")
        label.set_class(error is not None, "error")
        table.display = bool(entries)

    def _fill_filters(self, options: Filters) -> None:
        """Offer the opponent kinds and board sizes in the history; filling the menus is no change
        of filter (no query)."""
        self.opponent_kinds = list(options.opponents)
        self.board_sizes = list(options.sizes)
        with self.prevent(Select.Changed):
            self.query_one("#opponent", Select).set_options(self._opponent_options())
            self.query_one("#size", Select).set_options(self._size_options())
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
            self.notify(_("Choose a game to replay."), severity="warning", timeout=2)
            return
        try:
            record = self.entries[index].record
        except (RecordError, ValueError) as error:
            reason = shown(explain(error), 300)
            self.notify(_("This game's record cannot be read: {error}").format(error=reason),
                        title=_("Cannot replay"), severity="error", markup=False)
            return
        self.app.push_screen(ReplayScreen(record, review=review), self._replayed)

    def _replayed(self, record: GameRecord | None) -> None:
        if record is not None:  # "play from here": this screen hands the game on
            self.dismiss(record)

    def action_other_tab(self) -> None:
        """Show the ratings instead of the statistics, or the other way round."""
        tabs = self.query_one("#stats-pane", TabbedContent)
        tabs.active = "ratings-tab" if tabs.active == "stats-tab" else "stats-tab"

    def action_back(self) -> None:
        self.dismiss(None)
