"""Hostile input through every screen of the app: names, file names and file contents are data.

Each name of the corpus is run through the setup screen (with the "Continue" preview), the game
screen (scoreboard, move log, notifications), the game-over dialog, the save and open dialogs,
the history screen, the replay and the help. Nothing may crash; every name shows literally
(Textual markup is not parsed, control characters are escaped as ``printable`` writes them);
no ESC byte reaches anything rendered; a long name is shortened.

One app per test: the names go through it one after another (``play`` starts each game as
opening a saved game does, closing whatever is in front of the game screen; the help stays open
while the games behind it change). Where what a screen shows of a name does not depend on its
role in the game, up to six names share one game (``tables``), each still checked on its own;
where it does (the winner, the computer a notification names), every name gets its own game. A
failure, or a crash of the app, says which names it was with (``about``).

The game screen's scoreboard and move log, and the game-over dialog, are checked per widget in a
bare app (``Shelf``) for every name; one whole game, with one hostile name, checks them together.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json

import pytest
from textual.app import App
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
from sos_tui.app.text import shown as shortened
from sos_tui.app.widgets.move_log import MoveLog
from sos_tui.app.widgets.scoreboard import Scoreboard
from sos_tui.engine import (
    MAX_NAME,
    MAX_PLAYERS,
    GameRecord,
    GameState,
    Mode,
    Move,
    PlayerInfo,
    check_name,
    printable,
)
from sos_tui.storage import History, autosave, autosaves_dir, save_record, saves_dir

from .support.examples import nightly
from .support.helpers import recording, wait_for

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
# The screens that seat the names one game (or one table) at a time sweep SWEPT: every name of
# NAMES in the nightly run (--runslow), one of each kind in every other run (each screen shows its
# names through the same escaping: a kind missed here is the same code as a kind kept).
KINDS = ("markup-action", "csi-colour", "c1-csi", "osc-hyperlink", "bidi-override", "lone-surrogate",
         "newline", "long-escapes")
SWEPT = NAMES if nightly() else {key: NAMES[key] for key in KINDS}
SWEEP = ["S a1", "S c3", "S c1", "S a3", "O b2", "O b1", "O b3", "O a2", "O c2"]  # seat 1 wins 6-0
STAMP = "2026-01-01T10:00:00+00:00"


@functools.cache  # escaping a 5000-character name for every line looked at is slow
def visible(name: str) -> str:
    """What must show of ``name``: its escaped form, or the start of it when it is long."""
    shown = printable(name)
    return shown if len(shown) <= 12 else shown[:10]


def record_for(name: str, moves=(), index: int = 0) -> GameRecord:
    """A 3x3 game with ``name`` in the first seat, built directly (no check is trusted here)."""
    state = GameState.from_moves(list(moves), 3)
    return GameRecord(3, Mode.GENERAL, (PlayerInfo(name), PlayerInfo("Bo")), state.moves, STAMP, STAMP,
                      f"hostile{index}")


def table_for(keys: list[str], moves=()) -> GameRecord:
    """A 3x3 game with the names of ``keys`` in its seats, in order, built directly."""
    state = GameState.from_moves(list(moves), 3, players=len(keys))
    seats = tuple(PlayerInfo(NAMES[key]) for key in keys)
    return GameRecord(3, Mode.GENERAL, seats, state.moves, STAMP, STAMP, "hostile-table")


@functools.cache
def clash(a: str, b: str) -> bool:
    """The shown form of one of the names of keys ``a`` and ``b`` holds what must show of the
    other (``[/]`` in ``[b red]x[/]``): seen on one screen, a check of one could pass on the other."""
    return visible(NAMES[a]) in printable(NAMES[b]) or visible(NAMES[b]) in printable(NAMES[a])


def tables(keys) -> list[list[str]]:
    """``keys`` shared out among games of at most MAX_PLAYERS seats, each key seated at the first
    with room and no name that clashes with it."""
    games: list[list[str]] = []
    for key in keys:
        free = (game for game in games
                if len(game) < MAX_PLAYERS and not any(clash(key, other) for other in game))
        game = next(free, None)
        if game is None:
            games.append([key])
        else:
            game.append(key)
    assert all(len(game) >= 2 for game in games), games  # a game has two seats at least
    return games


ON_SCREEN: list[str] = []  # the keys of the names an ``about`` block is showing


def name_them(error: BaseException) -> None:
    """Note on ``error`` the names on screen (once)."""
    names = ", ".join(f"{key!r} ({NAMES[key][:30]!r})" for key in ON_SCREEN)
    note = f"with the hostile name(s) {names}"
    if ON_SCREEN and note not in getattr(error, "__notes__", ()):
        error.add_note(note)


@contextlib.contextmanager
def about(*keys: str):
    """Whatever fails in this block (an assertion, a wait that timed out) says which names of
    NAMES it was with; so does a crash of the app in it, raised when the app stops (``running``)."""
    ON_SCREEN[:] = keys
    try:
        yield
    except Exception as error:
        name_them(error)
        raise
    ON_SCREEN.clear()


@contextlib.asynccontextmanager
async def running(app):
    """``app.run_test`` (SIZE, with notifications), whose crash names the names it was showing."""
    ON_SCREEN.clear()
    try:
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            yield pilot
    except Exception as error:
        name_them(error)
        raise
    finally:
        ON_SCREEN.clear()


# -- what the app draws --------------------------------------------------------------------------
def hidden(char: str) -> bool:
    """A character a terminal acts on or hides (spaces aside)."""
    return not (char.isprintable() or char in " \u3000\xa0")


def raw_names_in(text: str) -> list[str]:
    """The keys of the names of NAMES whose raw form holds the word of ``text`` (drawn) around its
    first hidden character: which name a failed check of a screen showing several is about."""
    first = next((i for i, char in enumerate(text) if hidden(char)), None)
    if first is None:
        return []
    end = text.find(" ", first)
    word = text[text.rfind(" ", 0, first) + 1:None if end < 0 else end].rstrip("…")
    return [key for key, name in NAMES.items() if word in name]


def screen_lines(app) -> list[str]:
    """Every line every widget of the screens in view draws (the current screen, and those behind
    it while it is a modal dialog; notifications included); asserts that no drawn segment holds
    ESC or any character a terminal acts on or hides."""
    screens = []
    for screen in reversed(app.screen_stack):
        screens.append(screen)
        if not screen.is_modal:
            break
    return [line for screen in screens for widget in screen.query("*") for line in drawn_lines(widget)]


def drawn_lines(widget) -> list[str]:
    """Every line ``widget`` draws; asserts that no drawn segment holds ESC or any character a
    terminal acts on or hides."""
    width, height = widget.outer_size
    lines = []
    for strip in widget.render_lines(Region(0, 0, width, height)) if width and height else ():
        for segment in strip:
            text = segment.text
            if text.isprintable():  # the usual case, at C speed
                continue
            assert "\x1b" not in text and "\x9b" not in text, (widget, text, raw_names_in(text))
            assert not any(hidden(c) for c in text), (widget, repr(text), raw_names_in(text))
            text.encode("utf-8")  # no lone surrogate
        lines.append(strip.text)
    return lines


async def lines_showing(pilot, texts) -> list[str]:
    """``screen_lines`` once each of ``texts`` shows in them: a table laid out again for the rows
    it was just given may be drawn a frame later on a busy machine. After wait_for's bound, the
    lines as they are, so that the caller's assertion names what is missing."""
    def shown() -> bool:
        lines = screen_lines(pilot.app)
        return all(any(text in line for line in lines) for text in texts)

    with contextlib.suppress(AssertionError):
        await wait_for(pilot, shown)
    return screen_lines(pilot.app)


def screen_lines_of(widget) -> list[str]:
    width, height = widget.outer_size
    return [strip.text for strip in widget.render_lines(Region(0, 0, width, height))]


def text_of(widget) -> str:
    """What ``widget`` draws, its lines joined as a reader reads them (a long title folds)."""
    return " ".join(line.strip() for line in screen_lines_of(widget))


def toast_lines(app) -> list[str]:
    """The lines the toasts on the current screen draw (none before they are laid out)."""
    return [line for toast in app.screen.query("Toast") for line in screen_lines_of(toast)]


def shown_in(lines: list[str], name: str) -> bool:
    return any(visible(name) in line for line in lines)


def shows(app, name: str) -> bool:
    return shown_in(screen_lines(app), name)


def in_front(app, kind) -> bool:
    """A ``kind`` screen is in front, composed and laid out (its widgets have their sizes)."""
    screen = app.screen
    return isinstance(screen, kind) and any(child.size.area for child in screen.children)


def help_drawn(app) -> bool:
    """The help is in front, its rules and keys drawn, down to the last row of the keys' table
    (the command palette's)."""
    tables = app.screen.query("#help-keys") if in_front(app, HelpScreen) else ()
    return bool(tables) and tables.first().outer_size.area > 0 and any(
        line.lstrip().startswith("^p") for line in screen_lines_of(tables.first()))


# -- driving the app -----------------------------------------------------------------------------
def game_app(record: GameRecord, **kwargs) -> SosApp:
    kwargs.setdefault("computer_delay", 0)
    return recording(SosApp(record, **kwargs))



async def settle(pilot) -> None:
    """Every widget on screen has handled what was sent to it, and the screen is laid out and
    drawn again: what it draws can be read (``pause()`` waits for the process to go idle too)."""
    await pilot.pause(0)


async def play(pilot, record: GameRecord) -> None:
    """Play ``record`` in the running app as opening a saved game does (``play_record``): whatever
    is in front of the game screen is closed, and the game starts on it."""
    app = pilot.app
    app.play_record(record)
    await wait_for(pilot, lambda: app.screen is app.game_screen and app.game.players == record.players)
    await settle(pilot)


async def a_new_game(pilot, before) -> None:
    """Wait until the game screen is in front again, playing a game other than the session
    ``before`` (the game a dialog or the setup screen starts, once it has closed)."""
    app = pilot.app
    await wait_for(pilot, lambda: app.screen is app.game_screen and app.session is not before)


async def settled(pilot) -> None:
    """The app's workers have ended and what they sent has been handled (they may have started
    others: those end too)."""
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()


async def quiet(pilot) -> None:
    """No notification left, and no toast on the current screen: the next toast is a new one."""
    pilot.app.clear_notifications()
    await wait_for(pilot, lambda: not pilot.app.screen.query("Toast"))


# -- the game screen (scoreboard, move log, notifications) and game over --------------------------
class Shelf(App):
    """A bare app with the game screen's scoreboard and move log, as wide as the game screen
    makes them: what each draws of a name, without a whole game behind it."""

    CSS = "Scoreboard { width: 36; height: auto; } MoveLog { width: 40; height: 14; }"

    def compose(self):
        yield Scoreboard()
        yield MoveLog()


async def test_the_scoreboard_and_the_move_log_draw_each_hostile_name_literally():
    app = Shelf()
    async with running(app) as pilot:
        scoreboard, log = app.query_one(Scoreboard), app.query_one(MoveLog)
        for key, name in NAMES.items():  # each name in a game, in play and then won
            with about(key):
                seats = (PlayerInfo(name), PlayerInfo("Bo"))
                for moves in (SWEEP[:3], SWEEP):
                    state = GameState.from_moves(moves, 3)
                    scoreboard.seats, scoreboard.state = seats, state
                    log.show(state, seats)
                    await settle(pilot)
                    board_lines, log_lines = drawn_lines(scoreboard), drawn_lines(log)
                    assert shown_in(board_lines, name), key
                    assert visible(name) in log_lines[1], key  # move 1 was the hostile seat's
                    assert all(len(line) <= 36 for line in board_lines), key
                    assert all(len(line) <= 40 for line in log_lines), key
                # won: the status says who, by the name as shortened for screens (up to 40
                # characters), whole: wrapped over the scoreboard's last lines, never cut
                status = f"Game over: {shortened(name)} wins"
                drawn = "".join("".join(board_lines).split())
                assert drawn.endswith("".join(status.split())), (key, board_lines[-3:])


async def test_the_game_over_dialog_names_each_hostile_winner_literally():
    app = Shelf()
    async with running(app) as pilot:
        for key, name in SWEPT.items():
            with about(key):
                seats = (PlayerInfo(name), PlayerInfo("Bo"))
                app.push_screen(GameOverScreen(GameState.from_moves(SWEEP, 3), seats))
                await wait_for(pilot, lambda: in_front(app, GameOverScreen))
                await settle(pilot)
                assert text_of(app.screen.query_one("#result")) == f"{shortened(name)} wins!", key
                lines = screen_lines(app)
                assert shown_in(lines, name), key
                assert any(f"{shortened(name)}: 6" in line for line in lines), key  # the final scores
                app.pop_screen()
                await wait_for(pilot, lambda: not isinstance(app.screen, GameOverScreen))


async def test_a_whole_game_with_a_hostile_name_shows_it_literally_to_its_end():
    """The smoke test of the app as a whole: a name with escapes and a hyperlink, long enough to
    be shortened, through the game screen to the game-over dialog."""
    name = NAMES["osc-hyperlink"]
    assert len(printable(name)) > 40  # so the screens shorten it
    app = game_app(record_for(name, SWEEP[:3]))
    async with running(app) as pilot:
        with about("osc-hyperlink"):
            await wait_for(pilot, lambda: app.screen is app.game_screen and app.game is not None)
            await settle(pilot)
            lines = screen_lines(app)
            assert shown_in(lines, name)
            assert max(len(line) for line in lines) <= SIZE[0]
            for move in SWEEP[3:]:  # to the end: the hostile seat wins, and the game-over dialog says so
                assert app.game_screen.apply(Move.parse(move)), move
            await wait_for(pilot, lambda: in_front(app, GameOverScreen))
            await settle(pilot)
            assert shown_in(screen_lines(app), name)
            assert text_of(app.screen.query_one("#result")) == f"{shortened(name)} wins!"  # folded: joined


async def test_notifications_naming_hostile_players_are_literal():
    app = game_app(record_for("Ann"))

    async def never(*args, **kwargs):
        await asyncio.Event().wait()

    app.computer.choose = never
    async with running(app) as pilot:
        for key, name in SWEPT.items():  # each name the computer that is to move, and never does
            with about(key):
                seats = (PlayerInfo("Ana"), PlayerInfo(name, "computer", "easy"))
                await play(pilot, GameRecord(3, Mode.GENERAL, seats, (), STAMP, STAMP, "hostile-n"))
                await quiet(pilot)
                seen = len(app.notices)
                # as the board's keys and clicks play: Ana writes S at a1, and the computer is to move
                assert app.game_screen.apply(Move.parse("S a1")), key
                assert not app.game_screen.apply(Move.parse("S b1")), key  # refused, naming the computer
                await wait_for(pilot, lambda: toast_lines(app))
                notice = next(notice.message for notice in app.notices[seen:] if "Wait for" in notice.message)
                assert visible(name) in notice and notice.isprintable(), key
                assert any(visible(name)[:8] in line for line in toast_lines(app)), key
                assert shows(app, name), key


# -- setup: the "Continue" preview of a hostile autosave, and the names it accepts ------------
async def test_setup_previews_autosaves_with_markup_names_literally():
    games = tables(MARKUP)
    autosave(table_for(games[0], SWEEP[:3]))
    app = recording(SosApp())  # no game: it opens on the setup screen, which offers the autosave
    async with running(app) as pilot:
        for number, keys in enumerate(games):
            record = table_for(keys, SWEEP[:3])
            with about(*keys):
                if number:  # the setup screen again, over the game continued before
                    await asyncio.to_thread(app.keeper.wait, 10)  # that game's own autosave written
                    autosave(record)
                    app.action_new_game()
                await wait_for(pilot, lambda: in_front(app, SetupScreen) and app.screen.resume is not None)
                await settle(pilot)
                assert app.screen.resume.players == record.players, keys  # the autosave just written
                preview, lines = text_of(app.screen.query_one("#resume-preview")), screen_lines(app)
                for key in keys:
                    assert visible(NAMES[key]) in preview, key
                    assert shown_in(lines, NAMES[key]), key
                before = app.session
                await pilot.click("#continue")
                await a_new_game(pilot, before)
                assert app.game is not None and app.game.players == record.players, keys
                lines = screen_lines(app)
                for key in keys:
                    assert shown_in(lines, NAMES[key]), key


async def test_an_autosave_whose_name_holds_a_lone_surrogate_is_listed_and_can_be_deleted():
    folder = autosaves_dir()
    folder.mkdir(parents=True, exist_ok=True)
    data = record_for("Ann", SWEEP[:3]).to_dict()
    data["players"][0]["name"] = "An\udce9"
    bad = folder / "hostile.json"
    bad.write_text(json.dumps(data), encoding="utf-8")  # "\\udce9" in the file
    app = recording(SosApp())
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_for(pilot, lambda: in_front(app, SetupScreen))
        await app.workers.wait_for_complete()  # the setup's look for an autosave has ended
        await settle(pilot)
        assert isinstance(app.screen, SetupScreen) and app.screen.resume is None  # not offered
        assert not any("An" in line and "udce9" in line for line in screen_lines(app))  # nor previewed
        await pilot.click("#open")
        await wait_for(pilot, lambda: isinstance(app.screen, OpenDialog) and app.screen.loaded)
        await settle(pilot)
        lines = screen_lines(app)
        assert any("hostile.json" in line and "surr" in line for line in lines)
        message = str(app.screen.query_one("#message", Label).content)  # the whole error, escaped
        assert "lone surrogate" in message and "\\udce9" in message
        await pilot.press("delete")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmDelete))
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, OpenDialog) and not app.screen.listed)
    assert not bad.exists()


async def test_setup_after_hostile_games_prefills_safe_names():
    app = game_app(record_for("Ann"))
    async with running(app) as pilot:
        for keys in tables(SWEPT):
            with about(*keys):
                await play(pilot, table_for(keys, SWEEP[:2]))
                app.action_new_game()  # ctrl+n
                await wait_for(pilot, lambda: in_front(app, SetupScreen))
                await settle(pilot)
                lines = screen_lines(app)
                values = [app.screen.query_one(f"#name-{seat}", Input).value for seat in range(len(keys))]
                for key, value in zip(keys, values, strict=True):
                    assert value.isprintable() and len(value) <= MAX_NAME, (key, value)
                    assert any(value in line for line in lines), (key, value)  # drawn as prefilled
                before = app.session
                app.screen.action_start()  # ctrl+s: whatever was prefilled is a valid name
                await a_new_game(pilot, before)
                for key, value, player in zip(keys, values, app.game.players, strict=True):
                    assert player.name == value.strip(), key


async def test_setup_checks_the_names_typed():
    """A name holds MAX_NAME characters at most; a bad name is refused, saying which seat and which
    rule; two names the same but for case and spaces are refused; markup is a fine name."""
    app = recording(SosApp())
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_for(pilot, lambda: in_front(app, SetupScreen))
        await settle(pilot)
        assert app.screen.query_one("#name-0", Input).max_length == MAX_NAME
        for typed, rule in [
            ("Ann\x1b[31m", "control character"),
            ("\u202eevil", "invisible formatting character"),
            ("a\u200bb", "invisible formatting character"),
        ]:
            app.screen.query_one("#name-0", Input).value = typed
            await pilot.press("ctrl+s")
            await settle(pilot)
            assert isinstance(app.screen, SetupScreen) and app.game is None, typed
            message = str(app.screen.query_one("#setup-message", Label).content)
            assert "Seat 1" in message and rule in message, (typed, message)
            assert any("Seat 1" in line for line in screen_lines(app)), typed  # drawn, not only set
        app.screen.query_one("#name-0", Input).value = "Ann"
        app.screen.query_one("#name-1", Input).value = " ann "
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, SetupScreen) and app.game is None
        assert "names must differ" in str(app.screen.query_one("#setup-message", Label).content)
        app.screen.query_one("#name-1", Input).value = "[b red]x[/]"  # markup is a fine name
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.screen is app.game_screen and app.game is not None)
    assert [p.name for p in app.game.players] == ["Ann", "[b red]x[/]"]


async def test_setup_ignores_a_remembered_setup_with_bad_names():
    setup = {"size": 5, "mode": "general", "seats": [{"name": "\x1b]0;pwned\x07"}, {"name": "Bo"}]}
    app = recording(SosApp(settings={"setup": setup}))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_for(pilot, lambda: in_front(app, SetupScreen))
        await settle(pilot)
        assert app.screen.query_one("#name-0", Input).value == "Player 1"
        lines = screen_lines(app)
        assert any("Player 1" in line for line in lines)
        assert not any("pwned" in line for line in lines)  # the remembered name shows nowhere


# -- the save dialog ---------------------------------------------------------------------------
async def test_save_dialog_shows_hostile_names_literally():
    app = game_app(record_for("Ann"))
    async with running(app) as pilot:
        for saved, keys in enumerate(tables(SWEPT), 1):
            with about(*keys):
                await play(pilot, table_for(keys, SWEEP[:2]))
                await quiet(pilot)
                app.game_screen.action_save()  # ctrl+s
                await wait_for(pilot, lambda: in_front(app, SaveDialog))
                await settle(pilot)
                said = text_of(app.screen.query_one("#about"))  # the dialog's own words about the game
                lines = screen_lines(app)
                for key in keys:
                    assert visible(NAMES[key]) in said, key
                    assert shown_in(lines, NAMES[key]), key
                app.screen.action_save()  # enter, or the Save button
                await wait_for(pilot, lambda: app.screen is app.game_screen and toast_lines(app))
                assert any("Game saved" in line for line in screen_lines(app)), keys  # the notice
                assert len(list(saves_dir().glob("*.json"))) == saved, keys


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
        await settle(pilot)
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
        await settle(pilot)
        table = app.screen.query_one("#saves", DataTable)
        lines = []
        message = app.screen.query_one("#message", Label)
        for row in range(table.row_count):  # every row, with its whole error when highlighted
            table.move_cursor(row=row)
            error = app.screen.listed[row].info.error or ""
            await wait_for(pilot, lambda error=error: str(message.content) == error)  # a busy machine
            await settle(pilot)
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
        await settle(pilot)
        table = app.screen.query_one("#saves", DataTable)
        assert "[b red]x[/]" in table.render_line(1).text  # the row under the header
        before = app.session
        await pilot.press("enter")
        await a_new_game(pilot, before)
        await settle(pilot)
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
        lines = await lines_showing(pilot, [visible(name) for name in NAMES.values()])
        for name in NAMES.values():
            assert any(visible(name) in line for line in lines), (name, "\n".join(lines))


async def test_replay_title_shows_hostile_names_literally():
    app = game_app(record_for("Ann"))
    async with running(app) as pilot:
        for keys in tables(SWEPT):
            with about(*keys):
                await play(pilot, table_for(keys, SWEEP))
                app.replay(app.game)
                await wait_for(pilot, lambda: in_front(app, ReplayScreen))
                await settle(pilot)
                title, lines = text_of(app.screen.query_one("#replay-title", Label)), screen_lines(app)
                for key in keys:
                    assert visible(NAMES[key]) in title, key
                    assert shown_in(lines, NAMES[key]), key
                await quiet(pilot)
                app.screen.action_export()  # x: the export's notice names a path
                await wait_for(pilot, lambda: toast_lines(app))
                assert any("Transcript saved" in line for line in screen_lines(app)), keys


async def test_help_over_hostile_games():
    games = tables(SWEPT)
    app = game_app(table_for(games[0], SWEEP[:2]))
    async with running(app) as pilot:
        for number, keys in enumerate(games):
            with about(*keys):
                if not number:  # the help, over the first game
                    app.action_help()  # ? or F1
                    await wait_for(pilot, lambda: help_drawn(app))
                else:  # the next game, behind the help (as a computer's move changes the game there)
                    app.game_screen.start(table_for(keys, SWEEP[:2]))
                await settle(pilot)
                assert isinstance(app.screen, HelpScreen), keys
                lines = screen_lines(app)  # the help, and the hostile game behind it
                for key in keys:
                    assert shown_in(lines, NAMES[key]), key


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
        await settled(pilot)
        assert calls == [False]
        app.screen.query_one("#mode", Select).value = "simple"
        await wait_for(pilot, lambda: len(calls) == 2)
        await settled(pilot)  # and no third
        assert calls == [False, False]


async def test_closing_the_history_or_open_dialog_while_it_reads_is_no_crash(hostile_history, monkeypatch):
    import threading

    games, listing = History.games, open_dialog.read_saves
    reading, read, closed = threading.Event(), threading.Event(), threading.Event()

    def slow(read_them):
        reading.set()
        closed.wait(10)  # the read goes on until its screen has closed
        try:
            return read_them()
        finally:
            read.set()

    def slow_games(self, *args, **kwargs):
        return slow(lambda: games(self, *args, **kwargs))

    def slow_listing():
        return slow(listing)

    monkeypatch.setattr(History, "games", slow_games)
    monkeypatch.setattr(open_dialog, "read_saves", slow_listing)
    app = SosApp(record_for("Ann"))
    async with app.run_test(size=SIZE) as pilot:
        for open_screen in (app.action_history, app.action_open):
            reading.clear()
            read.clear()
            closed.clear()
            open_screen()
            await wait_for(pilot, reading.is_set)
            await pilot.press("escape")  # closed while it reads
            await wait_for(pilot, lambda: app.screen is app.game_screen)
            closed.set()
            await wait_for(pilot, read.is_set)  # then the read ends
            await pilot.pause()
            assert app.screen is app.game_screen
        assert app.return_code is None


async def test_a_read_that_ends_as_its_screen_closes_is_no_crash(hostile_history):
    """What a dialog read reaches the app just as the dialog closes: after its reader checked it
    was still wanted, once the screen is gone (here every call a dialog makes from its thread
    closes the dialog first). The dialog drops it: nothing raises (in the app, a raise there is
    a crash whenever the reader has not been cancelled yet)."""
    app = SosApp(record_for("Ann"))
    call_from_thread, raised = app.call_from_thread, []

    def closing_first(callback, *args, **kwargs):
        async def close_then_call():
            if getattr(callback, "__self__", None) is app.screen and app.screen is not app.game_screen:
                await app.pop_screen()
            try:
                return callback(*args, **kwargs)
            except Exception as error:
                raised.append(error)
        return call_from_thread(close_then_call)

    app.call_from_thread = closing_first
    async with app.run_test(size=SIZE) as pilot:
        for open_screen in (app.action_history, app.action_open):
            open_screen()
            await wait_for(pilot, lambda: app.screen is app.game_screen)
            await settled(pilot)
        assert raised == []
        assert app.return_code is None
