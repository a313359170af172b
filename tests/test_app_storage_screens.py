"""The storage screens of the app: save and open dialogs, the history, and the replay."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

from textual.widgets import Button, DataTable, Input, Label, Select, Static, TabbedContent

from sos_tui.app import SosApp
from sos_tui.app.screens.history import EMPTY_TEXT, NO_MATCH_TEXT, HistoryScreen
from sos_tui.app.screens.open_dialog import EMPTY_TEXT as NO_SAVES_TEXT
from sos_tui.app.screens.open_dialog import ConfirmDelete, OlderSave, OpenDialog
from sos_tui.app.screens.replay import ReplayScreen
from sos_tui.app.screens.save_dialog import SaveDialog
from sos_tui.app.screens.setup import SetupScreen
from sos_tui.app.widgets.board import Board
from sos_tui.app.widgets.move_log import MoveLog
from sos_tui.app.widgets.scoreboard import Scoreboard
from sos_tui.engine import GameRecord, GameState, Mode, PlayerInfo
from sos_tui.storage import (
    History,
    autosave_path,
    autosaves_dir,
    export_transcript,
    history_db_path,
    load_record,
    save_record,
    saves_dir,
    transcript_path,
)

from .support.games import ANA, BO, DRAW_4X4, EASY, P1_SWEEP, P2_SWEEP, SIMPLE_P1, game, two_saves
from .support.helpers import ScreenHost, footer_keys, loaded, make_app, recording, wait_for

SIZE = (100, 32)
def text_of(widget) -> str:
    return str(widget.content)


def cells(table: DataTable, row: int) -> list[str]:
    return [str(cell) for cell in table.get_row_at(row)]


async def requeried(pilot, app) -> None:
    """Wait for the query a filter change started."""
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()


# -- the save dialog ---------------------------------------------------------------------------
async def test_save_dialog_saves_a_file_that_loads_back_equal():
    record = game(P1_SWEEP[:5])
    app = ScreenHost(lambda: SaveDialog(record))
    async with app.run_test(size=SIZE) as pilot:
        field = app.screen.query_one("#path", Input)
        assert Path(field.value).parent == saves_dir()
        assert field.value.endswith("Ana vs Bo 3x3.json")
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, SaveDialog)
    [path] = app.results
    assert path.exists() and path.parent == saves_dir()
    assert load_record(path) == record


async def test_save_dialog_puts_a_bare_name_in_the_saves_folder_and_adds_json():
    record = game(P1_SWEEP)
    app = ScreenHost(lambda: SaveDialog(record))
    async with app.run_test(size=SIZE) as pilot:
        app.screen.query_one("#path", Input).value = "my best game"
        await pilot.click("#save")
        await pilot.pause()
    assert app.results == [saves_dir() / "my best game.json"]
    assert load_record(saves_dir() / "my best game.json") == record


async def test_save_dialog_expands_the_home_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    record = game(P1_SWEEP)
    app = ScreenHost(lambda: SaveDialog(record))
    async with app.run_test(size=SIZE) as pilot:
        app.screen.query_one("#path", Input).value = "~/game"
        await pilot.press("enter")
        await pilot.pause()
    assert app.results == [tmp_path / "game.json"]


async def test_save_dialog_shows_an_error_for_a_missing_folder_and_stays_open(tmp_path):
    record = game(P1_SWEEP)
    target = tmp_path / "no such folder" / "game.json"
    app = ScreenHost(lambda: SaveDialog(record))
    async with app.run_test(size=SIZE) as pilot:
        app.screen.query_one("#path", Input).value = str(target)
        await pilot.click("#save")
        await pilot.pause()
        assert isinstance(app.screen, SaveDialog)
        message = app.screen.query_one("#message", Label)
        assert message.has_class("error")
        assert "does not exist" in text_of(message)
        assert app.results == []
        # fixing the path saves
        app.screen.query_one("#path", Input).value = str(tmp_path / "game.json")
        await pilot.pause()
        assert text_of(message) == ""
        await pilot.press("enter")
        await pilot.pause()
    assert app.results == [tmp_path / "game.json"]
    assert not target.parent.exists()


async def test_save_dialog_asks_before_replacing_a_file(tmp_path):
    target = tmp_path / "game.json"
    target.write_text("old", encoding="utf-8")
    record = game(P1_SWEEP)
    app = ScreenHost(lambda: SaveDialog(record))
    async with app.run_test(size=SIZE) as pilot:
        app.screen.query_one("#path", Input).value = str(target)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, SaveDialog)
        assert "already exists" in text_of(app.screen.query_one("#message", Label))
        assert target.read_text(encoding="utf-8") == "old"
        await pilot.press("enter")
        await pilot.pause()
    assert app.results == [target]
    assert load_record(target) == record


async def test_save_dialog_escape_cancels_without_writing():
    app = ScreenHost(lambda: SaveDialog(game(P1_SWEEP)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("escape")
        await pilot.pause()
    assert app.results == [None]
    assert list(saves_dir().iterdir()) == []


# -- the open dialog ---------------------------------------------------------------------------
def local(path: Path) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(path.stat().st_mtime))


async def test_open_dialog_lists_name_kind_board_players_moves_and_date_newest_first_and_opens_one():
    older, _ = two_saves()
    autosaved = an_autosave()
    app = ScreenHost(OpenDialog)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot, app)
        table = app.screen.query_one("#saves", DataTable)
        saves = saves_dir()
        assert [str(column.label) for column in table.columns.values()] == [
            "Name", "Kind", "Board", "Players", "Moves", "Saved"]
        assert [cells(table, row) for row in range(3)] == [
            ["Autosave", "autosave, in progress", "3x3 general", "Ana, Bo", "3", local(autosaved)],
            ["newer", "saved, in progress", "3x3 general", "Ana, Computer", "4", local(saves / "newer.json")],
            ["older", "saved, finished", "3x3 general", "Ana, Bo", "9", local(saves / "older.json")]]
        await pilot.press("down", "down", "enter")  # the older game
        await pilot.pause()
        assert not isinstance(app.screen, OpenDialog)
    assert app.results == [older]


async def test_open_dialog_fits_80x24_and_100x30_cutting_long_names_short_with_an_ellipsis():
    names = ("Alexandria Longname", "Bartholomew Quince", "Cy", "Dmitri")
    record = game(["S a1"], players=tuple(PlayerInfo(name) for name in names), size=12)
    stamp = time.time() - 3600
    for number in range(15):
        path = save_record(record, saves_dir() / f"a very long file name for the game number {number}.json")
        os.utime(path, (stamp, stamp))
    when = local(path)
    for size, kind, day in (((80, 24), "in progress", when[:10]), ((100, 30), "saved, in progress", when)):
        app = ScreenHost(OpenDialog)
        async with app.run_test(size=size) as pilot:
            await loaded(pilot, app)
            table = app.screen.query_one("#saves", DataTable)
            await wait_for(pilot, lambda table=table: table.size.height > 1)  # laid out
            lines = [table.render_line(y).text for y in range(table.size.height)]
            assert lines[0].split() == ["Name", "Kind", "Board", "Players", "Moves", "Saved"], size
            assert all(len(line) <= table.size.width for line in lines)
            first = lines[1]
            assert "a very lo" in first and "…" in first and f" {kind} " in first, (size, first)
            assert "12x12 general" in first and "Alexandria" in first and first.rstrip().endswith(day), first
            for widget in (table, app.screen.query_one("#path", Input), *app.screen.query(Button)):
                assert app.screen.region.contains_region(widget.region), (size, widget)


async def test_open_dialog_table_shows_its_rows_even_when_laid_out_before_it_measured_them(monkeypatch):
    """The table measures its rows when it is next idle; under load the dialog may be laid out
    first. The table then stayed 0 lines high for good (1 full suite run in about 4): a layout
    between its rows' arrival and their measurement is forced here, every time."""
    for number in range(5):
        save_record(game(["S a1"]), saves_dir() / f"game {number}.json")
    measure = DataTable._on_idle  # Textual's own: where a DataTable measures its new rows

    async def laid_out_first(table, event):
        if table.id == "saves" and table.row_count and table.display:
            table.screen.refresh(layout=True)
            table.screen._refresh_layout()  # the dialog laid out now, before the rows are measured
        await measure(table, event)

    monkeypatch.setattr(DataTable, "_on_idle", laid_out_first)
    app = ScreenHost(OpenDialog)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot, app)
        table = app.screen.query_one("#saves", DataTable)
        await pilot.pause()
        assert table.size.height == 6  # a line of headings and 5 rows
        assert [line.split()[0] for line in (table.render_line(y).text for y in range(6))] == [
            "Name", *(["game"] * 5)]


async def test_open_dialog_shows_why_a_corrupt_file_does_not_open_and_leaves_it_alone():
    older, _ = two_saves()
    bad = saves_dir() / "broken.json"
    content = b'{"format": "sos-game", "version": 1, "size": 3, "mode": "general", "players": [], "moves": ['
    bad.write_bytes(content)
    app = ScreenHost(OpenDialog)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot, app)
        table = app.screen.query_one("#saves", DataTable)
        assert table.row_count == 3
        row = cells(table, 0)  # the newest file
        assert row[:4] == ["broken.json", "saved", "", "⚠ the file is not valid JSON"]
        message = app.screen.query_one("#message", Label)
        assert "not valid JSON" in text_of(message)  # highlighted: the whole error shows
        await pilot.press("down")
        await pilot.pause()
        assert text_of(message) == ""
        await pilot.press("up", "enter")
        await pilot.pause()
        assert isinstance(app.screen, OpenDialog)
        message = app.screen.query_one("#message", Label)
        assert message.has_class("error") and "broken.json" in text_of(message)
        assert "not valid JSON" in text_of(message)
        # the dialog still works: the last row opens
        await pilot.press("down", "down", "enter")
        await pilot.pause()
    assert app.results == [older]
    assert bad.read_bytes() == content


async def test_open_dialog_on_an_empty_folder_opens_a_typed_path(tmp_path):
    record = game(SIMPLE_P1, mode=Mode.SIMPLE)
    elsewhere = save_record(record, tmp_path / "elsewhere.json")
    app = ScreenHost(OpenDialog)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot, app)
        empty = app.screen.query_one("#empty", Label)
        assert empty.display and text_of(empty) == NO_SAVES_TEXT
        assert not app.screen.query_one("#saves", DataTable).display
        assert app.screen.focused is app.screen.query_one("#path", Input)
        path = app.screen.query_one("#path", Input)
        path.value = str(tmp_path / "missing.jso")  # typing a long temporary path key by key is slow
        path.cursor_position = len(path.value)
        await pilot.press("n", "enter")
        await pilot.pause()
        assert isinstance(app.screen, OpenDialog)
        assert "no such file" in text_of(app.screen.query_one("#message", Label))
        app.screen.query_one("#path", Input).value = str(elsewhere)
        await pilot.click("#open")
        await pilot.pause()
    assert app.results == [record]


async def test_open_dialog_finds_a_typed_name_in_the_saves_folder():
    older, _ = two_saves()
    app = ScreenHost(OpenDialog)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot, app)
        app.screen.query_one("#path", Input).focus()
        await pilot.press(*"older", "enter")
        await pilot.pause()
    assert app.results == [older]


async def test_open_dialog_escape_cancels():
    two_saves()
    app = ScreenHost(OpenDialog)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot, app)
        await pilot.press("escape")
        await pilot.pause()
    assert app.results == [None]


async def test_open_dialog_reads_the_list_in_a_thread(monkeypatch):
    import threading

    import sos_tui.app.screens.open_dialog as open_dialog

    two_saves()
    threads = []
    real = open_dialog.list_saves

    def listing(*args, **kwargs):
        threads.append(threading.current_thread() is threading.main_thread())
        return real(*args, **kwargs)

    monkeypatch.setattr(open_dialog, "list_saves", listing)
    app = ScreenHost(OpenDialog)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot, app)
        assert app.screen.query_one("#saves", DataTable).row_count == 2
    assert threads == [False]


def an_autosave() -> Path:
    """An abandoned game in the autosaves folder, newer than the two saves."""
    record = game(P1_SWEEP[:3], day=3)
    folder = autosaves_dir()
    folder.mkdir(parents=True, exist_ok=True)
    return save_record(record, folder / f"{record.game_id}.json")


async def test_open_dialog_deletes_an_autosave_only_after_a_confirmation():
    two_saves()
    autosaved = an_autosave()
    app = ScreenHost(OpenDialog)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot, app)
        table = app.screen.query_one("#saves", DataTable)
        assert cells(table, 0)[:2] == ["Autosave", "autosave, in progress"]
        for stray in ("enter", "escape", "n"):  # the focused answer, escape and "no" keep it
            await pilot.press("delete")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmDelete)
            assert "autosaved game in progress" in str(app.screen.query_one("#question", Label).content)
            await pilot.press(stray)
            await pilot.pause()
            assert isinstance(app.screen, OpenDialog) and autosaved.exists(), stray
        await pilot.press("delete", "delete", "d", "d")  # a key pressed again is no confirmation
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDelete) and autosaved.exists()
        await pilot.press("y")
        await wait_for(pilot, lambda: table.row_count == 2)
        assert not autosaved.exists()
        assert cells(table, 0)[:2] == ["newer", "saved, in progress"]
    assert app.results == []  # still open


async def test_open_dialog_deletes_a_saved_game_with_the_delete_button():
    _, newer = two_saves()
    app = ScreenHost(OpenDialog)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot, app)
        await pilot.press("down", "d")  # the older game
        await pilot.pause()
        assert "the saved game older.json" in str(app.screen.query_one("#question", Label).content)
        await pilot.click("#delete")
        await wait_for(pilot, lambda: app.screen.query_one("#saves", DataTable).row_count == 1)
        await pilot.press("enter")
        await pilot.pause()
    assert not (saves_dir() / "older.json").exists()
    assert app.results == [newer]


async def test_open_dialog_d_in_the_path_is_typed_not_a_delete():
    two_saves()
    app = ScreenHost(OpenDialog)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot, app)
        app.screen.query_one("#path", Input).focus()
        await pilot.press("d", "delete")
        await pilot.pause()
        assert isinstance(app.screen, OpenDialog)
        assert app.screen.query_one("#path", Input).value == "d"
    assert len(list(saves_dir().glob("*.json"))) == 2


# -- the history -------------------------------------------------------------------------------
GAMES = {
    "sweep": game(P1_SWEEP, day=1),  # Ana beats Bo 6-0, a chain of 6
    "lost": game(P2_SWEEP, players=(ANA, EASY), day=2),  # Ana loses 0-5 to the easy computer
    "simple": game(SIMPLE_P1, mode=Mode.SIMPLE, day=3),  # Ana beats Bo 1-0
    "draw": game(DRAW_4X4, size=4, day=4),  # Ana and Bo draw 2-2
}


def record_games() -> None:
    with History() as history:
        for record in GAMES.values():
            assert history.record_game(record)


async def test_history_lists_games_newest_first_and_filters():
    record_games()
    app = ScreenHost(HistoryScreen)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot, app)
        screen = app.screen
        table = screen.query_one("#games", DataTable)
        assert table.row_count == 4
        assert [cells(table, i)[2] for i in range(4)] == ["4x4", "3x3", "3x3", "3x3"]
        assert cells(table, 1)[3:] == ["simple", "1-0", "Ana wins"]
        assert cells(table, 2)[1:] == ["Ana vs Computer (easy)", "3x3", "general", "0-5", "Computer wins"]
        opponent = screen.query_one("#opponent", Select)
        assert screen.opponent_kinds == ["easy", "human"] and screen.board_sizes == [3, 4]

        screen.query_one("#mode", Select).value = "simple"
        await requeried(pilot, app)
        assert table.row_count == 1 and cells(table, 0)[3] == "simple"
        assert "1 game" in text_of(screen.query_one("#stats", Static))

        screen.query_one("#mode", Select).value = "any"
        screen.query_one("#size", Select).value = 4
        await requeried(pilot, app)
        assert table.row_count == 1 and cells(table, 0)[4] == "2-2"

        screen.query_one("#size", Select).value = "any"
        opponent.value = "easy"
        await requeried(pilot, app)
        assert table.row_count == 1 and cells(table, 0)[4] == "0-5"

        screen.query_one("#mode", Select).value = "simple"
        await requeried(pilot, app)
        assert table.row_count == 0
        assert screen.message == NO_MATCH_TEXT


async def test_history_statistics_show_the_right_numbers():
    record_games()
    app = ScreenHost(HistoryScreen)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot, app)
        text = text_of(app.screen.query_one("#stats", Static))
    assert "4 games" in text
    assert "Wins 2 · Draws 1 · Losses 1" in text
    assert f"Average score {(6 + 0 + 1 + 2) / 4:.1f}" in text
    lines = text.splitlines()
    human = next(line for line in lines if line.startswith("human"))
    easy = next(line for line in lines if line.startswith("easy"))
    assert human.split() == ["human", "3", "2", "1", "0", "3.0"]
    assert easy.split() == ["easy", "1", "0", "0", "1", "0.0"]
    assert "Longest SOS chain: 6 in one turn by Ana" in text
    assert "Best game: Ana won by 6 (6-0, Ana vs Bo" in text


async def test_history_shows_the_ratings_of_the_mode_chosen_with_names_as_text():
    hostile = PlayerInfo("[b]x[/b]")
    with History() as history:
        for day in (1, 2):
            history.record_game(game(P1_SWEEP, players=(hostile, BO), day=day))
        history.record_game(game(SIMPLE_P1, mode=Mode.SIMPLE, players=(ANA, EASY), day=3))
    app = ScreenHost(HistoryScreen)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot, app)
        screen = app.screen
        tabs = screen.query_one("#stats-pane", TabbedContent)
        assert tabs.active == "stats-tab"
        await pilot.press("t")  # the ratings' tab
        assert tabs.active == "ratings-tab" and screen.query_one("#ratings", Static).region.height > 0
        text = text_of(screen.query_one("#ratings", Static))
        lines = text.splitlines()
        assert lines[0].split() == ["Name", "Mode", "Rating", "±", "Games"]
        rows = [line.split() for line in lines[1:4]]
        assert [row[:2] for row in rows] == [["[b]x[/b]", "general"], ["Bo", "general"], ["Ana", "simple"]]
        assert rows[0][2].endswith("?") and int(rows[0][2][:-1]) > 1500 > int(rows[1][2][:-1])
        assert rows[0][4] == "2" and "provisional" in lines[-1]
        screen.query_one("#mode", Select).value = "simple"
        await requeried(pilot, app)
        rows = text_of(screen.query_one("#ratings", Static)).splitlines()[1:-1]
        assert [row.split()[0] for row in rows] == ["Ana", "computer:easy"]
        await pilot.press("t")
        assert tabs.active == "stats-tab"


async def test_history_enter_replays_the_game_and_escape_goes_back():
    record_games()
    app = ScreenHost(HistoryScreen)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot, app)
        history = app.screen
        await pilot.press("down", "enter")  # the second newest: the simple game
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        assert app.screen.record == GAMES["simple"]
        assert app.screen.query_one(Board).state == GAMES["simple"].state
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is history
        await pilot.click("#replay")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen) and app.screen.record == GAMES["simple"]
        await pilot.press("escape")
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, HistoryScreen)


async def test_history_when_empty_says_so():
    app = ScreenHost(HistoryScreen)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot, app)
        assert app.screen.message == EMPTY_TEXT
        assert not app.screen.query_one("#games", DataTable).display
        assert "No games" in text_of(app.screen.query_one("#stats", Static))
    assert not history_db_path().exists()  # looking does not create the database


async def test_history_with_a_broken_database_shows_the_error():
    history_db_path().write_bytes(b"this is not an SQLite database, just text" * 50)
    app = ScreenHost(HistoryScreen)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot, app)
        message = app.screen.query_one("#history-message", Label)
        assert message.display and message.has_class("error")
        assert "Cannot read the history" in text_of(message) and "history.sqlite3" in text_of(message)


# -- the replay --------------------------------------------------------------------------------
def replay_host(record: GameRecord, start_at: int | None = None) -> ScreenHost:
    return ScreenHost(lambda: ReplayScreen(record, start_at))


def position(app) -> int:
    return app.screen.query_one(Board).state.move_count


async def test_a_replay_in_a_big_enough_terminal_is_never_laid_out_as_too_small(monkeypatch):
    """The view is fitted to its room once it has some: opening a replay did it before the view was
    laid out (no room at all), styling the whole view for "too small" and then back, each time."""
    from sos_tui.app.widgets.game_view import GameView

    marked = []
    add_class = GameView.add_class

    def spied(self, *names, **kwargs):
        marked.extend(names)
        return add_class(self, *names, **kwargs)

    monkeypatch.setattr(GameView, "add_class", spied)
    app = replay_host(GAMES["sweep"])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert position(app) == 9 and not app.screen.query_one(GameView).too_small
    assert "-too-small" not in marked and "-narrow" not in marked


async def test_replay_steps_with_the_keys():
    record = GAMES["sweep"]
    app = replay_host(record)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert position(app) == 9 and screen.query_one(Scoreboard).state.scores == (6, 0)
        await pilot.press("home")
        assert position(app) == 0
        await pilot.press("right", "right", "right")
        await pilot.pause()
        board = screen.query_one(Board)
        assert board.state.move_count == 3
        assert board.state == GameState.from_moves(P1_SWEEP[:3], 3)
        assert board.interactive is False
        assert "move 3 of 9" in text_of(screen.query_one("#replay-status", Label))
        assert screen.query_one(MoveLog).cursor_row == 2
        await pilot.press("left")
        await pilot.pause()
        assert position(app) == 2 and screen.query_one(MoveLog).cursor_row == 1
        await pilot.press("end")
        await pilot.pause()
        assert position(app) == 9 and screen.query_one(MoveLog).cursor_row == 8
        await pilot.press("right")  # past the end: stays
        assert position(app) == 9
        await pilot.press("home", "left")
        await pilot.pause()
        assert position(app) == 0
        assert "move 0 of 9" in text_of(screen.query_one("#replay-status", Label))


async def test_replay_starts_where_asked_and_lists_the_whole_game():
    record = GAMES["sweep"]
    app = replay_host(record, start_at=4)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.2)  # let the log's own cursor moves settle: they must not move the replay
        log = app.screen.query_one(MoveLog)
        assert position(app) == 4
        assert log.row_count == 9 and log.cursor_row == 3
        assert log.row_cells(4)[2] == "O b2"


async def test_replay_jumps_to_a_clicked_or_selected_log_row():
    record = GAMES["sweep"]
    app = replay_host(record, start_at=0)
    async with app.run_test(size=SIZE) as pilot:
        log = app.screen.query_one(MoveLog)
        # the log has a border and a header: row r is drawn at y = 2 + r
        await pilot.click(log, offset=(4, 2 + 5))
        await pilot.pause()
        assert position(app) == 6 and log.cursor_row == 5
        await pilot.click(log, offset=(4, 2 + 1))
        await pilot.pause()
        assert position(app) == 2
        log.focus()
        await pilot.press("down", "down")
        await pilot.pause()
        assert position(app) == 4
        await pilot.press("up", "enter")
        await pilot.pause()
        assert position(app) == 3
        await pilot.press("right", "right")  # stepping afterwards is not undone by stale log events
        await pilot.pause(0.2)
        assert position(app) == 5 and log.cursor_row == 4


async def test_replay_space_plays_forward_and_the_speed_changes():
    record = GAMES["sweep"]
    app = replay_host(record, start_at=0)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        status = screen.query_one("#replay-status", Label)
        assert "paused" in text_of(status) and "0.5 s" in text_of(status)
        await pilot.press("plus")
        assert screen.delay == 0.3 and "0.3 s" in text_of(status)
        await pilot.press("minus", "minus")
        assert screen.delay == 0.75
        for _ in range(10):
            await pilot.press("minus")
        assert screen.delay == 2.0
        screen.delay = 0.1
        await pilot.press("space")
        assert "playing" in text_of(status)
        await wait_for(pilot, lambda: position(app) > 0)  # it moves on by itself...
        await wait_for(pilot, lambda: not screen.playing)
        assert position(app) == 9 and "paused" in text_of(status)  # ...and stops at the end
        # space at the end plays again from the start; space again pauses, and it stays paused
        screen.delay = 0.3
        await pilot.press("space")
        assert position(app) == 0 and "playing" in text_of(status)
        await wait_for(pilot, lambda: position(app) > 0)
        await pilot.press("space")
        stopped = position(app)
        assert stopped < 9 and "paused" in text_of(status)
        await pilot.pause(0.4)  # longer than a step: a timer left running would have moved it
        assert position(app) == stopped


async def test_replay_f_returns_the_game_so_far_to_play_on():
    record = GAMES["sweep"]
    app = replay_host(record, start_at=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("right", "right", "right", "right", "f")
        await pilot.pause()
        assert not isinstance(app.screen, ReplayScreen)
    [played] = app.results
    assert played.moves == record.moves[:4]
    assert (played.size, played.mode, played.players) == (3, Mode.GENERAL, (ANA, BO))
    assert not played.state.is_over


async def test_replay_f_at_the_end_of_a_finished_game_refuses():
    app = replay_host(GAMES["sweep"])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
    assert app.results == []


async def test_replay_x_exports_the_transcript():
    record = GAMES["sweep"]
    app = replay_host(record, start_at=2)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("x")
        await pilot.pause()
    path = transcript_path(record)
    assert path.parent == saves_dir() and path.suffix == ".txt"
    text = path.read_text(encoding="utf-8")
    last_mover = record.players[record.state.movers[-1]].name
    assert "1. Ana: S a1" in text and f"9. {last_mover}: O c2" in text
    for move in P1_SWEEP:
        assert move in text
    assert "Result: Ana wins" in text
    assert export_transcript(record) == path  # the same game again: the same file
    other = GameRecord(record.size, record.mode, record.players, record.moves[:4], record.started)
    second = export_transcript(other)  # another game with the same name: a new file, the first kept
    assert second.name.endswith(" (2).txt") and path.read_text(encoding="utf-8") == text


async def test_replay_of_a_game_without_moves():
    record = GameRecord(4, Mode.GENERAL, (ANA, BO))
    app = replay_host(record)
    async with app.run_test(size=SIZE) as pilot:
        assert position(app) == 0
        await pilot.press("right", "space", "end")
        await pilot.pause()
        assert position(app) == 0
        assert "move 0 of 0" in text_of(app.screen.query_one("#replay-status", Label))


async def test_replay_dims_the_keys_that_do_nothing_at_this_move_and_says_why_when_pressed():
    app = recording(replay_host(GAMES["sweep"]))  # at the end: the game is over
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: "Play from here" in footer_keys(app))
        keys = footer_keys(app)
        assert keys["Play from here"] is False and keys["Review"] and keys["Play/Pause"] and keys["Next"]
        await pilot.press("f")
        assert app.notices[-1].title == "Nothing to play" and isinstance(app.screen, ReplayScreen)
        await pilot.press("left")
        await wait_for(pilot, lambda: footer_keys(app)["Play from here"] is True)


async def test_replay_of_a_game_without_moves_dims_play_and_review():
    app = recording(replay_host(GameRecord(4, Mode.GENERAL, (ANA, BO))))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: "Review" in footer_keys(app))
        keys = footer_keys(app)
        assert (keys["Play/Pause"], keys["Review"], keys["Play from here"]) == (False, False, True)
        await pilot.press("space", "v")
        assert [notice.message for notice in app.notices] == [
            "This game has no moves to play.", "This game has no moves to review."]


# -- opening another copy of the game in progress ----------------------------------------------
async def open_the_file(pilot, app, name: str) -> None:
    """ctrl+o, then the file ``name`` highlighted and opened with enter."""
    app.action_open()
    await wait_for(pilot, lambda: isinstance(app.screen, OpenDialog) and app.screen.loaded)
    await pilot.pause()
    row = next(i for i, info in enumerate(app.screen.saves) if info.name == name)
    app.screen.query_one("#saves", DataTable).move_cursor(row=row)
    await pilot.press("enter")
    await pilot.pause()


async def written(app) -> None:
    """Wait until the app's keeper has written everything queued (the autosaves)."""
    assert await asyncio.to_thread(app.keeper.wait, 10)


async def test_opening_an_older_save_of_the_game_in_progress_asks_and_keeps_both():
    app = make_app(size=4)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("s", "right", "o")
        save_record(app.game, saves_dir() / "two moves.json")
        await pilot.press("right", "s", "down", "o")
        newer = app.game
        assert len(newer.moves) == 4
        await written(app)
        await open_the_file(pilot, app, "two moves.json")
        await wait_for(pilot, lambda: isinstance(app.screen, OlderSave))
        question = str(app.screen.query_one("#question", Label).content)
        assert "older than the game in progress (2 moves vs 4)" in question
        await pilot.press("enter")  # the focused answer: open it as a separate game
        await wait_for(pilot, lambda: app.screen is app.game_screen)
        opened = app.game
        assert opened.moves == newer.moves[:2] and opened.game_id != newer.game_id
        await pilot.press("down", "down", "s")  # the separate game goes on
        await written(app)
        assert len(app.game.moves) == 3
    assert load_record(autosave_path(newer)).moves == newer.moves  # the newer game is still there
    assert load_record(autosave_path(opened)).moves == app.game.moves


async def test_escape_at_the_older_save_question_goes_back_to_the_list_and_changes_nothing():
    app = make_app(size=4)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("s", "right", "o")
        save_record(app.game, saves_dir() / "two moves.json")
        await pilot.press("right", "s")
        newer = app.game
        await written(app)
        await open_the_file(pilot, app, "two moves.json")
        await wait_for(pilot, lambda: isinstance(app.screen, OlderSave))
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, OpenDialog))
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is app.game_screen)
        assert app.game == newer
        await written(app)
    assert load_record(autosave_path(newer)).moves == newer.moves


async def test_a_save_that_continues_the_game_in_progress_opens_as_that_game():
    app = make_app(size=4)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("s", "right", "o", "right", "s")
        saved = app.game
        save_record(saved, saves_dir() / "three moves.json")
        await pilot.press("u", "u")  # taken back: the save is ahead of the game in progress
        await written(app)
        await open_the_file(pilot, app, "three moves.json")
        await wait_for(pilot, lambda: app.screen is app.game_screen)
        assert app.game.moves == saved.moves and app.game.game_id == saved.game_id
        await written(app)
    assert load_record(autosave_path(saved)).moves == saved.moves


async def test_an_older_save_of_an_autosaved_game_asks_before_the_setup_screen_opens_it():
    newer = game(P1_SWEEP[:5])
    autosaves_dir().mkdir(parents=True, exist_ok=True)
    save_record(newer, autosave_path(newer))  # a game left unfinished last time
    save_record(GameRecord(3, Mode.GENERAL, (ANA, BO), newer.moves[:3], newer.started, newer.updated,
                           newer.game_id), saves_dir() / "early.json")
    app = SosApp(computer_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen))
        await open_the_file(pilot, app, "early.json")
        await wait_for(pilot, lambda: isinstance(app.screen, OlderSave))
        assert "(3 moves vs 5)" in str(app.screen.query_one("#question", Label).content)
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen is app.game_screen)
        assert app.game.moves == newer.moves[:3] and app.game.game_id != newer.game_id
        await written(app)
    assert load_record(autosave_path(newer)) == newer


async def test_the_history_and_its_replay_say_how_a_game_ended():
    state = GameState.from_moves(["S a1", "O b2"], 3).drop(1, "resign")
    record = GameRecord.for_state(state, (ANA, BO), started="2026-01-06T10:00:00+00:00")
    with History() as history:
        history.record_game(record)
    app = ScreenHost(HistoryScreen)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot, app)
        table = app.screen.query_one("#games", DataTable)
        assert cells(table, 0)[-1] == "Ana wins (Bo resigned)"
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        lines = [line.plain for line in app.screen.query_one(Scoreboard).lines(40)]
        assert "Game over: Ana wins" in lines and "Bo resigned" in lines
        assert any(line.startswith("✗ ▲ Bo") for line in lines)


async def test_a_game_against_a_bot_keeps_its_mark_in_the_history_and_its_replay():
    randy = PlayerInfo("Randy", bot=True)
    with History() as history:
        assert history.record_game(game(P1_SWEEP, players=(ANA, randy)))
        (entry,) = history.games()
    from sos_tui.cli.history import players_text

    assert entry.players == (ANA, randy) and entry.players_text == "Ana vs Randy (bot)"
    assert players_text(entry) == "Ana vs Randy (bot)"  # sos-tui history
    app = ScreenHost(HistoryScreen)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot, app)
        table = app.screen.query_one("#games", DataTable)
        assert cells(table, 0)[1] == "Ana vs Randy (bot)"
        await pilot.press("enter")  # the game's replay
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen), what="the replay")
        assert any("Randy (bot)" in line.plain for line in app.screen.query_one(Scoreboard).lines(40))
