"""Hostile input through every screen of the app: names, file names and file contents are data.

Each name of the corpus is run through the setup screen (with the "Continue" preview), the game
screen (scoreboard, move log, notifications), the game-over dialog, the save and open dialogs,
the history screen, the replay and the help. Nothing may crash; every name shows literally
(Textual markup is not parsed, control characters are escaped as ``printable`` writes them);
no ESC byte reaches anything rendered; a long name is shortened.
"""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from textual.geometry import Region
from textual.widgets import DataTable, Input, Label, Select

from sos_tui.app import SosApp
from sos_tui.app.screens import open_dialog
from sos_tui.app.screens.game_over import GameOverScreen
from sos_tui.app.screens.help import HelpScreen
from sos_tui.app.screens.history import HistoryScreen
from sos_tui.app.screens.open_dialog import ConfirmDelete, OpenDialog
from sos_tui.app.screens.replay import ReplayScreen
from sos_tui.app.screens.save_dialog import SaveDialog
from sos_tui.app.screens.setup import SetupScreen
from sos_tui.engine import MAX_NAME, GameRecord, GameState, Mode, Move, PlayerInfo, check_name, printable
from sos_tui.storage import History, autosave, autosaves_dir, save_record, saves_dir

from .helpers import recording

SIZE = (150, 45)

NAMES = {
    "markup-close": "[/]",
    "markup-stray": "x[/b]",
    "markup-style": "[b red]x[/]",
    "markup-tag": "[AFK] Bob",
    "markup-action": "[@click=app.quit]q[/]",
    "markup-link": "[link=x.y]x[/link]",
    "markup-variable": "$text [$accent]x",
    "csi-clear": "\x1b[2J\x1b[H",
    "csi-colour": "Ann\x1b[31mred",
    "c1-csi": "\x9b31mAnn",
    "osc-title": "\x1b]0;pwned\x07",
    "osc-hyperlink": "\x1b]8;;https://e.vil\x1b\\click\x1b]8;;\x1b\\",
    "dcs": "\x1bP1$r\x1b\\",
    "bidi-override": "\u202eevil\u202c",
    "bidi-isolate": "\u2066x\u2069",
    "zero-width-joiner": "\U0001f468\u200d\U0001f469\u200d\U0001f467",
    "zero-width-space": "a\u200bb",
    "lone-surrogate": "An\udce9",
    "newline": "a\nb\r\x00",
    "long": "L" * 5000,
    "long-escapes": "\x1b" * 5000,
}
MARKUP = [key for key in NAMES if key.startswith("markup")]  # names check_name accepts
assert all(check_name(NAMES[key]) == NAMES[key] for key in MARKUP)
SWEEP = ["S a1", "S c3", "S c1", "S a3", "O b2", "O b1", "O b3", "O a2", "O c2"]  # seat 1 wins 6-0
STAMP = "2026-01-01T10:00:00+00:00"

needs_names = pytest.mark.parametrize("key", NAMES)


def visible(name: str) -> str:
    """What must show of ``name``: its escaped form, or the start of it when it is long."""
    shown = printable(name)
    return shown if len(shown) <= 12 else shown[:10]


def record_for(name: str, moves=(), index: int = 0) -> GameRecord:
    """A 3x3 game with ``name`` in the first seat, built directly (no check is trusted here)."""
    state = GameState.from_moves(list(moves), 3)
    return GameRecord(3, Mode.GENERAL, (PlayerInfo(name), PlayerInfo("Bo")), state.moves, STAMP, STAMP,
                      f"hostile{index}")


def screen_lines(app) -> list[str]:
    """Every line every widget of the screens in view draws (the current screen, and those behind
    it while it is a modal dialog; notifications included); asserts that no drawn segment holds
    ESC or any character a terminal acts on or hides."""
    screens = []
    for screen in reversed(app.screen_stack):
        screens.append(screen)
        if not screen.is_modal:
            break
    lines = []
    for widget in (widget for screen in screens for widget in screen.query("*")):
        width, height = widget.outer_size
        if not width or not height:
            continue
        for strip in widget.render_lines(Region(0, 0, width, height)):
            for segment in strip:
                text = segment.text
                assert "\x1b" not in text and "\x9b" not in text, (widget, text)
                assert all(c.isprintable() or c in " \u3000\xa0" for c in text), (widget, repr(text))
                text.encode("utf-8")  # no lone surrogate
            lines.append(strip.text)
    return lines


def screen_lines_of(widget) -> list[str]:
    width, height = widget.outer_size
    return [strip.text for strip in widget.render_lines(Region(0, 0, width, height))]


def shows(app, name: str) -> bool:
    return any(visible(name) in line for line in screen_lines(app))


async def wait_for(pilot, condition, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await pilot.pause(0.05)


def game_app(record: GameRecord, **kwargs) -> SosApp:
    kwargs.setdefault("computer_delay", 0)
    return recording(SosApp(record, **kwargs))


# -- the game screen: scoreboard, move log, notifications --------------------------------------
@needs_names
async def test_game_screen_shows_a_hostile_name_literally(key):
    name = NAMES[key]
    app = game_app(record_for(name, SWEEP[:3]))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        scoreboard = app.screen.query_one("#scoreboard")
        log = app.screen.query_one("#log")
        assert any(visible(name) in line for line in screen_lines(app))
        board_lines = [scoreboard.render_line(y).text for y in range(scoreboard.size.height)]
        assert any(visible(name) in line for line in board_lines)
        assert visible(name) in log.render_line(1).text  # move 1 was the hostile seat's
        assert max(len(line) for line in screen_lines(app)) <= SIZE[0]


@needs_names
async def test_a_notification_naming_a_hostile_player_is_literal(key):
    name = NAMES[key]
    seats = (PlayerInfo("Ana"), PlayerInfo(name, "computer", "easy"))
    record = GameRecord(3, Mode.GENERAL, seats, (), STAMP, STAMP, "hostile-n")
    app = game_app(record)

    async def never(*args, **kwargs):
        await asyncio.Event().wait()

    app.computer.choose = never
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.press("enter")  # Ana writes S at a1; the computer is to move and never does
        await pilot.pause()
        await pilot.press("right", "enter")  # Ana tries again: refused, naming the computer
        await pilot.pause()
        notice = next(notice.message for notice in app.notices if "Wait for" in notice.message)
        assert visible(name) in notice and notice.isprintable()
        toasts = [line for toast in app.screen.query("Toast") for line in screen_lines_of(toast)]
        assert any(visible(name)[:8] in line for line in toasts)
        assert shows(app, name)


# -- game over --------------------------------------------------------------------------------
@needs_names
async def test_game_over_shows_a_hostile_winner_literally(key):
    name = NAMES[key]
    app = game_app(record_for(name, SWEEP[:-1]))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        app.game_screen.apply(Move.parse(SWEEP[-1]))
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.pause()
        assert shows(app, name)
        lines = screen_lines(app)
        assert any(f"{visible(name)}" in line and "wins" in line for line in lines) or len(
            printable(name)) > 12


# -- setup: the "Continue" preview of a hostile autosave, and the names it accepts ------------
@pytest.mark.parametrize("key", MARKUP)
async def test_setup_previews_an_autosave_with_a_markup_name_literally(key):
    name = NAMES[key]
    autosave(record_for(name, SWEEP[:3]))
    app = recording(SosApp())
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen) and app.screen.resume is not None)
        await pilot.pause()
        assert shows(app, name)
        await pilot.click("#continue")
        await pilot.pause()
        assert app.game is not None and app.game.players[0].name == name
        assert shows(app, name)


async def test_an_autosave_whose_name_holds_a_lone_surrogate_is_listed_and_can_be_deleted():
    folder = autosaves_dir()
    folder.mkdir(parents=True, exist_ok=True)
    data = record_for("Ann", SWEEP[:3]).to_dict()
    data["players"][0]["name"] = "An\udce9"
    bad = folder / "hostile.json"
    bad.write_text(json.dumps(data), encoding="utf-8")  # "\\udce9" in the file
    app = recording(SosApp())
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause(0.3)
        assert isinstance(app.screen, SetupScreen) and app.screen.resume is None  # not offered
        screen_lines(app)
        await pilot.click("#open")
        await wait_for(pilot, lambda: isinstance(app.screen, OpenDialog) and app.screen.loaded)
        await pilot.pause()
        lines = screen_lines(app)
        assert any("hostile.json" in line and "surr" in line for line in lines)
        message = str(app.screen.query_one("#message", Label).content)  # the whole error, escaped
        assert "lone surrogate" in message and "\\udce9" in message
        await pilot.press("delete")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmDelete))
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, OpenDialog) and not app.screen.listed)
    assert not bad.exists()


@needs_names
async def test_setup_after_a_hostile_game_prefills_a_safe_name(key):
    name = NAMES[key]
    app = game_app(record_for(name, SWEEP[:2]))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.press("ctrl+n")
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen))
        await pilot.pause()
        screen_lines(app)
        value = app.screen.query_one("#name-0", Input).value
        assert value.isprintable() and len(value) <= MAX_NAME
        await pilot.press("ctrl+s")  # start: whatever was prefilled is a valid name
        await pilot.pause()
        assert not isinstance(app.screen, SetupScreen)
        assert app.game.players[0].name == value.strip()


async def test_setup_input_length_follows_max_name():
    app = recording(SosApp())
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        assert app.screen.query_one("#name-0", Input).max_length == MAX_NAME


@pytest.mark.parametrize(("typed", "rule"), [
    ("Ann\x1b[31m", "control character"),
    ("\u202eevil", "invisible formatting character"),
    ("a\u200bb", "invisible formatting character"),
])
async def test_setup_refuses_a_bad_name_saying_which_rule(typed, rule):
    app = recording(SosApp())
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        app.screen.query_one("#name-0", Input).value = typed
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen) and app.game is None
        message = str(app.screen.query_one("#setup-message", Label).content)
        assert "Seat 1" in message and rule in message
        screen_lines(app)


async def test_setup_refuses_two_players_of_the_same_name():
    app = recording(SosApp())
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        app.screen.query_one("#name-0", Input).value = "Ann"
        app.screen.query_one("#name-1", Input).value = " ann "
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen) and app.game is None
        assert "names must differ" in str(app.screen.query_one("#setup-message", Label).content)
        app.screen.query_one("#name-1", Input).value = "[b red]x[/]"  # markup is a fine name
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert [p.name for p in app.game.players] == ["Ann", "[b red]x[/]"]


async def test_setup_ignores_a_remembered_setup_with_bad_names():
    setup = {"size": 5, "mode": "general", "seats": [{"name": "\x1b]0;pwned\x07"}, {"name": "Bo"}]}
    app = recording(SosApp(settings={"setup": setup}))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        assert app.screen.query_one("#name-0", Input).value == "Player 1"
        screen_lines(app)


# -- the save dialog ---------------------------------------------------------------------------
@needs_names
async def test_save_dialog_shows_a_hostile_name_literally(key):
    name = NAMES[key]
    app = game_app(record_for(name, SWEEP[:2]))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, SaveDialog))
        await pilot.pause()
        assert shows(app, name)
        await pilot.press("enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, SaveDialog))
        await pilot.pause()
        screen_lines(app)  # the "Game saved" notice
    assert len(list(saves_dir().glob("*.json"))) == 1


async def test_save_dialog_saves_into_a_folder_of_that_name(tmp_path):
    folder = tmp_path / "games"
    folder.mkdir()
    app = game_app(record_for("Ann", SWEEP[:2]))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, SaveDialog))
        app.screen.query_one("#path", Input).value = str(folder)
        await pilot.press("enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, SaveDialog))
    assert not (tmp_path / "games.json").exists()
    assert len(list(folder.glob("*.json"))) == 1


async def test_save_dialog_shows_an_error_about_a_hostile_path_literally(tmp_path):
    where = tmp_path / "[b]no[/b]\x1b]0;pwned\x07" / "x.json"
    app = game_app(record_for("Ann", SWEEP[:2]))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, SaveDialog))
        app.screen.query_one("#path", Input).value = str(where)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, SaveDialog)
        message = str(app.screen.query_one("#message", Label).content)
        assert "[b]no[/b]\\x1b]0;pwned\\x07" in message
        assert any("[b]no[/b]" in line for line in screen_lines(app))


# -- the open dialog ---------------------------------------------------------------------------
def hostile_saves() -> None:
    folder = saves_dir()
    for index, name in enumerate(NAMES.values()):
        save_record(record_for(name, SWEEP[:3], index), folder / f"game {index}.json")
    (folder / "[b]x[\\b]\x1b]0;pwned\x07.json").write_text("{", encoding="utf-8")  # a hostile file name


async def test_open_dialog_lists_hostile_saves_literally():
    hostile_saves()
    app = SosApp(record_for("Ann"))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: isinstance(app.screen, OpenDialog) and app.screen.loaded)
        assert app.screen.query_one("#saves", DataTable).row_count == len(NAMES) + 1
        await pilot.pause()
        table = app.screen.query_one("#saves", DataTable)
        lines = []
        message = app.screen.query_one("#message", Label)
        for row in range(table.row_count):  # every row, with its whole error when highlighted
            table.move_cursor(row=row)
            error = app.screen.listed[row].info.error or ""
            await wait_for(pilot, lambda error=error: str(message.content) == error)  # a busy machine
            await pilot.pause()
            lines += screen_lines(app)
            # a long path folds the message: its lines joined, as a reader reads them
            lines.append("".join(line.rstrip() for line in screen_lines_of(message)))
        for key in MARKUP:  # the loadable ones: shown by name
            assert any(visible(NAMES[key]) in line for line in lines), key
        assert any("[b]x[\\b]\\x1b]0;pwned\\x07.json" in line for line in lines)


async def test_open_dialog_loads_a_markup_name_and_plays_it():
    save_record(record_for("[b red]x[/]", SWEEP[:3]), saves_dir() / "g.json")
    app = SosApp(record_for("Ann"))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: isinstance(app.screen, OpenDialog) and app.screen.loaded)
        assert app.screen.query_one("#saves", DataTable).row_count == 1
        await pilot.pause()
        table = app.screen.query_one("#saves", DataTable)
        assert "[b red]x[/]" in table.render_line(1).text  # the row under the header
        await pilot.press("enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, OpenDialog))
        await pilot.pause()
        assert app.game.players[0].name == "[b red]x[/]"
        assert shows(app, "[b red]x[/]")


# -- history and replay --------------------------------------------------------------------------
@pytest.fixture
def hostile_history(data):
    with History() as history:
        for index, name in enumerate(NAMES.values()):
            history.record_game(record_for(name, SWEEP, index))


async def test_history_lists_hostile_names_literally(hostile_history):
    app = SosApp(record_for("Ann"))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        app.action_history()
        await wait_for(pilot, lambda: isinstance(app.screen, HistoryScreen) and app.screen.loaded)
        assert app.screen.query_one("#games", DataTable).row_count == len(NAMES)
        await pilot.pause()
        lines = screen_lines(app)
        for name in NAMES.values():
            assert any(visible(name) in line for line in lines), name


@needs_names
async def test_replay_title_shows_a_hostile_name_literally(key):
    name = NAMES[key]
    app = game_app(record_for(name, SWEEP))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        app.replay(app.game)
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.pause()
        title = app.screen.query_one("#replay-title", Label)
        assert visible(name) in title.render_line(0).text
        assert shows(app, name)
        await pilot.press("x")  # the export's notice names a path
        await pilot.pause()
        screen_lines(app)


@needs_names
async def test_help_over_a_hostile_game(key):
    app = game_app(record_for(NAMES[key], SWEEP[:2]))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.pause()
        screen_lines(app)


# -- the history's queries: off the UI thread, once per filter change ------------------------------
async def test_history_queries_once_per_filter_change_off_the_ui_thread(hostile_history, monkeypatch):
    import threading

    calls = []
    games = History.games

    def counting(self, *args, **kwargs):
        calls.append(threading.current_thread() is threading.main_thread())
        return games(self, *args, **kwargs)

    monkeypatch.setattr(History, "games", counting)
    app = SosApp(record_for("Ann"))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        app.action_history()
        await wait_for(pilot, lambda: isinstance(app.screen, HistoryScreen) and calls)
        await app.workers.wait_for_complete()
        await pilot.pause(0.3)
        assert calls == [False]
        app.screen.query_one("#mode", Select).value = "simple"
        await pilot.pause(0.3)
        await app.workers.wait_for_complete()
        assert calls == [False, False]


async def test_closing_the_history_or_open_dialog_while_it_reads_is_no_crash(hostile_history, monkeypatch):
    games, listing = History.games, open_dialog.read_saves

    def slow_games(self, *args, **kwargs):
        time.sleep(0.4)
        return games(self, *args, **kwargs)

    def slow_listing():
        time.sleep(0.4)
        return listing()

    monkeypatch.setattr(History, "games", slow_games)
    monkeypatch.setattr(open_dialog, "read_saves", slow_listing)
    app = SosApp(record_for("Ann"))
    async with app.run_test(size=SIZE) as pilot:
        for open_screen in (app.action_history, app.action_open):
            open_screen()
            await pilot.pause(0.1)
            await pilot.press("escape")
            await pilot.pause(0.6)
            assert app.screen is app.game_screen
        assert app.return_code is None
