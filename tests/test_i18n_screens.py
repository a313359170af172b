"""The setup, history, replay, open and save screens in Malay at 80x24: Malay words, no English
left, everything in view; the setup screen's language switch; and the screens' words that are
not in the app (statistics, results, review verdicts)."""

from __future__ import annotations

import re

import pytest
from textual.strip import Strip
from textual.widgets import Button, DataTable, Input, Label, Select, Static

from sos_tui import i18n
from sos_tui.ai.review import MoveReview
from sos_tui.app import SosApp
from sos_tui.app.screens.history import HistoryScreen, stats_text
from sos_tui.app.screens.open_dialog import ConfirmDelete, OlderSave, OpenDialog
from sos_tui.app.screens.replay import ReplayScreen, verdict_words
from sos_tui.app.screens.save_dialog import SaveDialog
from sos_tui.app.screens.setup import SetupScreen, resume_preview
from sos_tui.app.text import result_shown as result_words
from sos_tui.app.widgets.move_log import MoveLog
from sos_tui.app.widgets.scoreboard import Scoreboard
from sos_tui.engine import GameRecord, GameState, Mode, Move, PlayerInfo, check_name
from sos_tui.storage import History, LoadError, load_settings, save_record, saves_dir

from .support.games import ANA, BO, DRAW_4X4, P2_SWEEP, SIMPLE_P1, game
from .support.helpers import on_a_game, screen_strips, wait_for

SIZE = (80, 24)

ROBOT = PlayerInfo("Robot", "computer", "easy")  # a name that is no English word of the screens

# Hand-checked 3x3 games (as in tests/test_app_storage_screens.py).
P1_SWEEP = ["S a1", "S c3", "S c1", "S a3", "O b2", "O b1", "O b3", "O a2", "O c2"]  # 6-0, a chain of 6


GAMES = (game(P1_SWEEP, day=1), game(P2_SWEEP, players=(ANA, ROBOT), day=2),
         game(SIMPLE_P1, mode=Mode.SIMPLE, day=3), game(DRAW_4X4, size=4, day=4))

# English words (whole words, any case) that must not be left on a Malay screen. Player names
# and notation (S, O, a1) are data; "Status" is Malay too.
ENGLISH = (
    "board", "size", "game", "games", "player", "players", "seat", "human", "computer", "start",
    "open", "history", "quit", "host", "network", "join", "language", "write", "turn", "general", "simple",
    "most", "first", "wins", "win", "continue", "unfinished", "finished", "draw", "date", "mode", "score",
    "result", "opponent", "statistics", "longest", "chain", "best", "replay", "review", "back", "any",
    "easy", "medium", "hard", "expert", "vs", "move", "moves", "paused", "playing", "per", "change",
    "previous", "next", "close", "export", "saved", "save", "delete", "keep", "cancel", "type", "path",
    "file", "name", "autosaved", "press", "undone", "mistake", "blunder", "inaccuracy", "loses",
    "point", "points", "estimate", "stopped", "reviewing", "done",
)


def english_words(text: str) -> set[str]:
    words = {word.lower() for word in re.findall(r"[A-Za-z]+", text)}
    return words & set(ENGLISH)


def screen_lines(app, skip=()) -> list[str]:
    """The text the screen shows, line by line (as drawn: what is cut off is missing), with the
    regions of the widgets in ``skip`` blanked (widgets another part of the code puts into words:
    the replay's scoreboard and move log)."""
    width = app.size.width
    regions = [widget.region for widget in skip]
    lines = []
    for y, strip in enumerate(screen_strips(app)):
        for region in regions:
            if region.y <= y < region.bottom:
                strip = Strip.join([strip.crop(0, region.x), Strip.blank(region.width),
                                    strip.crop(region.right, width)])
        lines.append(strip.text)
    return lines


def footer_words(screen) -> list[str]:
    """The descriptions of the screen's own keys shown in the footer (in the current language)."""
    return [active.binding.description for active in screen.active_bindings.values() if active.binding.show]



def assert_malay(lines: list[str], *expected: str) -> None:
    text = "\n".join(lines)
    for words in expected:
        assert words in text, (words, text)
    assert english_words(text) == set(), text


def in_view(app, widget) -> bool:
    """``widget`` is shown whole inside the terminal."""
    region = widget.region
    return region.width > 0 and region.height > 0 and app.screen.region.contains_region(region)


# -- the setup screen ----------------------------------------------------------------------------
async def options_drawn(pilot, select: Select) -> list[str]:
    """The options ``select`` lists when opened, as drawn, one a line; it is closed again after."""
    app = pilot.app
    select.focus()
    await pilot.press("enter")
    await wait_for(pilot, lambda: select.expanded)
    await pilot.pause()
    listed = select.query_one("SelectOverlay").region  # the list that opens (its type, by name)
    strips = screen_strips(app)
    border = " ▔▁▊▎▌▐▕▏┃│"
    lines = [strips[y].crop(listed.x, listed.right).text.strip(border)
             for y in range(listed.y, listed.bottom)]
    await pilot.press("escape")
    await wait_for(pilot, lambda: not select.expanded)
    return [line for line in lines if line]


async def test_setup_screen_is_all_malay_and_fits_80x24():
    i18n.set_language("ms")
    app = SosApp(settings={})
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen))
        await pilot.pause()
        lines = screen_lines(app)
        assert_malay(lines[:-1], "Tulis S atau O", "Saiz grid", "Permainan", "Umum: SOS terbanyak menang",
                     "Pemain", "Tempat 1", "Tempat 2", "Pemain 1", "Manusia", "Bahasa", "Bahasa Melayu",
                     "Mula", "Buka…", "Sejarah", "Keluar", "Hos melalui rangkaian…", "Sertai permainan…")
        assert "Mula" in footer_words(app.screen)
        screen = app.screen
        assert screen.query_one("#setup").max_scroll_y == 0  # nothing scrolled out of view
        for widget in screen.query(Button).results():
            if widget.display and widget.id != "continue":
                assert in_view(app, widget), widget.id
                assert str(widget.label) in "\n".join(lines)  # the label whole, not cut
        for widget in [*screen.query(Select).results(), *screen.query(Input).results()]:
            if widget.parent.display and widget.display:
                assert in_view(app, widget), widget.id
        # the computer's levels are named in Malay too
        options = await options_drawn(pilot, screen.query_one("#kind-0", Select))
        assert "Komputer · sukar" in options and "Komputer · pakar" in options


async def test_setup_switches_language_with_keys_keeps_the_form_and_remembers_the_choice():
    app = SosApp(settings={})
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen))
        screen = app.screen
        screen.query_one("#name-0", Input).focus()
        await pilot.press("end", *["backspace"] * 8, "S", "i", "t", "i")
        screen.query_one("#size", Select).value = 8
        screen.query_one("#mode", Select).value = "simple"
        screen.query_one("#count", Select).value = 3
        screen.query_one("#kind-1", Select).value = "hard"
        await pilot.pause()
        assert str(screen.query_one("#start", Button).label) == "Start"

        async def choose(code: str) -> None:
            screen.query_one("#language", Select).focus()
            await pilot.press("enter")  # opens the menu
            await pilot.press("down" if code == "ms" else "up", "enter")
            await wait_for(pilot, lambda: i18n.language() == code)
            await pilot.pause()
            await pilot.pause()

        await choose("ms")
        assert app.screen is screen  # the same screen, drawn again
        assert str(screen.query_one("#start", Button).label) == "Mula"
        assert screen.query_one("#name-0", Input).value == "Siti"
        assert screen.query_one("#name-1", Input).value == "Komputer 2"  # an untouched default follows
        assert screen.query_one("#size", Select).value == 8
        assert screen.query_one("#mode", Select).value == "simple"
        assert screen.query_one("#count", Select).value == 3
        assert [row.id for row in screen.query(".seat") if row.display] == ["seat-0", "seat-1", "seat-2"]
        assert screen.query_one("#kind-1", Select).value == "hard"
        assert screen.focused is screen.query_one("#language", Select)
        assert_malay(screen_lines(app)[:-1], "Saiz grid", "Ringkas: SOS pertama menang", "Komputer · sukar")

        await choose("en")
        assert str(screen.query_one("#start", Button).label) == "Start"
        assert screen.query_one("#name-0", Input).value == "Siti"
        assert screen.query_one("#name-1", Input).value == "Computer 2"
        assert screen.query_one("#mode", Select).value == "simple"
        assert "Board size" in "\n".join(screen_lines(app))

        await choose("ms")
        await pilot.press("ctrl+s")  # start: the game is the one entered
        await wait_for(pilot, lambda: app.game is not None)
        assert app.game.size == 8 and app.game.mode is Mode.SIMPLE
        assert [p.name for p in app.game.players] == ["Siti", "Komputer 2", "Pemain 3"]
        assert app.game.players[1].level == "hard"
    assert load_settings()["language"] == "ms"  # the keeper wrote it: the next launch speaks Malay


async def test_setup_refusal_and_resume_preview_are_malay():
    i18n.set_language("ms")
    record = game(P1_SWEEP[:3])
    assert resume_preview(record).startswith("Permainan umum belum selesai, 3x3, 3 langkah — Ana 0, Bo 0")
    app = SosApp(settings={})
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen))
        app.screen.query_one("#name-1", Input).value = "B\x07"
        await pilot.press("ctrl+s")
        await pilot.pause()
        message = str(app.screen.query_one("#setup-message", Label).content)
        # the seat in Malay, the rule as the engine's error says it in the player's language
        with pytest.raises(ValueError) as refused:
            check_name("B\x07")
        assert message == "Tempat 2: " + i18n.explain(refused.value).replace("\x07", "\\x07")


# -- the history ---------------------------------------------------------------------------------
def record_games() -> None:
    with History() as history:
        for record in GAMES:
            assert history.record_game(record)


async def test_history_screen_is_malay_with_results_and_statistics_at_80x24():
    record_games()
    i18n.set_language("ms")
    app = on_a_game()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.screen is app.game_screen)
        app.action_history()
        await wait_for(pilot, lambda: isinstance(app.screen, HistoryScreen) and app.screen.loaded)
        await pilot.pause()
        screen = app.screen
        table = screen.query_one("#games", DataTable)
        rows = [[str(cell) for cell in table.get_row_at(i)] for i in range(table.row_count)]
        assert [row[5] for row in rows] == ["seri", "Ana menang", "Robot menang", "Ana menang"]
        assert [row[3] for row in rows] == ["umum", "ringkas", "umum", "umum"]
        assert rows[2][1] == "Ana lwn Robot (mudah)"
        assert [str(column.label) for column in table.columns.values()] == [
            "Tarikh", "Pemain", "Grid", "Mod", "Mata", "Keputusan"]
        stats = str(screen.query_one("#stats", Static).content)
        assert_malay(stats.splitlines(), "4 permainan", "Menang 2 · Seri 1 · Kalah 1", "Purata mata 2.2",
                     "Rantaian SOS terpanjang: 6 dalam satu giliran oleh Ana",
                     "Permainan terbaik: Ana menang dengan beza 6 (6-0, Ana lwn Bo")
        assert re.search(r"^manusia +3 +2 +1 +0 +3\.0$", stats, re.M)
        assert re.search(r"^mudah +1 +0 +0 +1 +0\.0$", stats, re.M)
        lines = screen_lines(app)
        assert_malay(lines[:-1], "Sejarah", "Lawan", "Grid", "Mod", "semua", "Statistik", "Ulang tayang",
                     "Ulasan", "Kembali")
        for widget in [*screen.query(Select).results(), *screen.query(Button).results()]:
            assert in_view(app, widget), widget.id
        assert {"Kembali", "Ulang tayang", "Ulasan"} <= set(footer_words(screen))
        await pilot.press("t")  # the ratings' tab
        ratings = str(screen.query_one("#ratings", Static).content).splitlines()
        assert ratings[0].split() == ["Nama", "Mod", "Penarafan", "±", "Permainan"]
        assert ratings[-1].startswith("? sementara (sedikit permainan)")
        assert any("Statistik  Penarafan" in line for line in screen_lines(app))
        await pilot.press("t")
        mode = screen.query_one("#mode", Select)
        assert await options_drawn(pilot, mode) == ["semua", "umum", "ringkas"]

        mode.value = "simple"  # a filter that matches nothing says so in Malay
        screen.query_one("#size", Select).value = 4
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.message == "Tiada permainan yang sepadan dengan penapis ini."


async def test_history_follows_a_language_switch_keeping_its_filters():
    record_games()
    app = on_a_game()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.screen is app.game_screen)
        app.action_history()
        await wait_for(pilot, lambda: isinstance(app.screen, HistoryScreen) and app.screen.loaded)
        screen = app.screen
        screen.query_one("#mode", Select).value = "general"
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        table = screen.query_one("#games", DataTable)
        assert table.row_count == 3 and str(table.get_row_at(0)[5]) == "draw"
        app.switch_language("ms")
        await pilot.pause()
        assert screen.query_one("#mode", Select).value == "general" and table.row_count == 3
        assert str(table.get_row_at(0)[5]) == "seri"
        assert "Keputusan" in [str(column.label) for column in table.columns.values()]
        assert "3 permainan" in str(screen.query_one("#stats", Static).content)
        assert_malay(screen_lines(app)[:-1], "Sejarah", "Statistik", "Ulang tayang", "Kembali")


def test_statistics_and_results_in_malay_without_the_app():
    i18n.set_language("ms")
    assert result_words(GAMES[0]) == "Ana menang"
    assert result_words(GAMES[3]) == "seri"
    assert result_words(game(P1_SWEEP[:2])) == i18n._("unfinished") != "unfinished"
    three = GameRecord(3, Mode.SIMPLE, (ANA, BO, PlayerInfo("Cy")))
    full = GameState.from_moves(["S a1", "S a2", "S a3", "S b1", "S b2", "S b3", "S c1", "S c2", "S c3"], 3,
                                Mode.SIMPLE, 3)
    assert result_words(three, full) == "seri"
    from sos_tui.storage.history import Stats

    assert str(stats_text(Stats())) == "Tiada permainan untuk dikira."


# -- the replay ----------------------------------------------------------------------------------
def side_panels(screen) -> list:
    """The scoreboard and the move log: the game screen's widgets, put into words by their part."""
    return [screen.query_one(Scoreboard), screen.query_one(MoveLog)]


async def test_replay_of_a_finished_game_is_malay_with_its_review():
    record = GAMES[0]
    i18n.set_language("ms")
    app = on_a_game()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.screen is app.game_screen)
        app.replay(record)
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        screen = app.screen
        # the footer fills in once the screen's bindings settle: wait for it, not for one idle
        await wait_for(pilot, lambda: "Tutup" in (screen_lines(app) or [""])[-1])
        lines = screen_lines(app, side_panels(screen))
        assert_malay(lines[:-1], "Ulang tayang · Ana lwn Bo · umum 3x3 · Ana menang",
                     "dijeda · langkah 9/9 · 0.5 s/langkah (+/- ubah) · home/end: mula/akhir")
        assert screen.query_one(Scoreboard).border_title == "Pemain"
        assert screen.query_one(MoveLog).border_title == "Langkah"
        assert {"Undur", "Maju", "Main/Jeda", "Ulasan", "Main dari sini", "Tutup"} <= set(
            footer_words(screen))
        assert "Tutup" in lines[-1]  # the way out is on screen at 80 columns (export is in the help)
        await pilot.press("home")
        await pilot.pause()
        assert "langkah 0/9 (mula)" in str(screen.query_one("#replay-status", Label).content)

        await pilot.press("v")  # the review, filled in move by move
        await wait_for(pilot, lambda: not screen.reviewing and len(screen.reviews) == screen.total, 60)
        await pilot.press("end", "left")
        await pilot.pause()
        panel = screen.query_one("#review-panel")
        assert panel.border_title == "Ulasan" and panel.border_subtitle == "selesai 9/9"
        verdict = str(screen.query_one("#review-verdict", Label).content)
        assert verdict.startswith("8. ") and english_words(verdict) == set(), verdict
        assert "langkah 8" in str(screen.query_one("#review-cursor", Label).content)
        lines = screen_lines(app, side_panels(screen))
        assert english_words("\n".join(lines[:-1])) == set(), lines


def test_review_verdicts_in_malay():
    i18n.set_language("ms")
    best = MoveReview(0, 0, Move(0, 0, "S"), Move(0, 0, "S"), 1.0, 1.0, True, Mode.GENERAL, 0.0)
    assert verdict_words(best) == "! terbaik"
    unclear = MoveReview(1, 1, Move(0, 1, "O"), Move(2, 2, "O"), -1.0, 1.0, False, Mode.GENERAL, 0.0)
    assert verdict_words(unclear) == "tidak pasti (anggaran): rugi ~2 beza mata, terbaik O c3?"
    mistake = MoveReview(1, 1, Move(0, 1, "O"), Move(2, 2, "O"), -5.0, 1.0, False, Mode.GENERAL, 0.0)
    assert verdict_words(mistake) == "? kesilapan: rugi ~6 beza mata, terbaik O c3"
    blunder = MoveReview(1, 1, Move(0, 1, "O"), Move(2, 2, "O"), -1.0, 1.0, True, Mode.SIMPLE, 0.0)
    assert verdict_words(blunder) == "?? silap besar: rugi 2 tahap keputusan, terbaik O c3"
    i18n.set_language("en")
    assert verdict_words(mistake) == "? mistake: loses ~6 in margin, best O c3"


# -- the open dialog -----------------------------------------------------------------------------


async def open_dialog(pilot, app) -> OpenDialog:
    await wait_for(pilot, lambda: app.screen is app.game_screen)
    app.action_open()
    await wait_for(pilot, lambda: isinstance(app.screen, OpenDialog) and app.screen.loaded)
    await pilot.pause()
    return app.screen


async def test_open_dialog_and_its_delete_confirmation_are_malay():
    save_record(GAMES[0], saves_dir() / "permainan.json")
    i18n.set_language("ms")
    app = on_a_game()
    async with app.run_test(size=SIZE) as pilot:
        dialog = await open_dialog(pilot, app)
        table = dialog.query_one("#saves", DataTable)
        assert [str(column.label) for column in table.columns.values()] == [
            "Nama", "Jenis", "Grid", "Pemain", "Langkah", "Disimpan"]
        assert [str(cell) for cell in table.get_row_at(0)][:5] == [
            "permainan", "selesai", "3x3 umum", "Ana, Bo", "9"]  # 80 columns: the short kind
        lines = screen_lines(app)
        assert_malay(lines[:-1], "Buka permainan yang disimpan", "…atau taip laluan fail permainan",
                     "⏎ buka · del padam · esc batal", "Buka", "Batal")
        for widget in dialog.query(Button).results():
            assert in_view(app, widget), widget.id
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmDelete))
        await pilot.pause()
        assert_malay(screen_lines(app)[:-1], "Padam fail permainan?", "y padam · n/esc kekalkan", "Padam",
                     "Kekalkan")
        question = app.screen.query_one("#question", Label)
        assert str(question.content) == (
            "Padam permainan yang disimpan permainan.json (Ana, Bo)? Ini tidak boleh dibuat asal.")
        for widget in [question, *app.screen.query(Button).results()]:
            assert in_view(app, widget), widget.id
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, OpenDialog) and (saves_dir() / "permainan.json").exists()


async def test_open_dialog_says_what_is_wrong_in_malay():
    i18n.set_language("ms")
    app = on_a_game()
    async with app.run_test(size=SIZE) as pilot:
        dialog = await open_dialog(pilot, app)
        assert "Belum ada permainan disimpan — taip laluan" in "\n".join(screen_lines(app))
        dialog.action_open()  # nothing typed, nothing listed
        await pilot.pause()
        assert str(dialog.query_one("#message", Label).content) == "Taip laluan fail permainan."


@pytest.mark.skipif(not hasattr(LoadError("x", "y"), "template"),
                    reason="needs the storage part's explainable LoadError (branch i18n-infra)")
async def test_a_corrupt_file_is_explained_in_malay_in_the_open_dialog(tmp_path):
    path = tmp_path / "rosak.json"  # a game file whose first player's name holds a control character
    save_record(GAMES[0], path)
    path.write_text(path.read_text(encoding="utf-8").replace('"Ana"', '"A\\u0007"', 1), encoding="utf-8")
    i18n.set_language("ms")
    app = on_a_game()
    async with app.run_test(size=SIZE) as pilot:
        dialog = await open_dialog(pilot, app)
        dialog.query_one("#path", Input).value = str(path)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, OpenDialog)
        message = str(dialog.query_one("#message", Label).content)
        assert "rosak.json" in message and "\\x07" in message
        assert "control character" not in message and "game record" not in message, message


# -- the save dialog -----------------------------------------------------------------------------
async def test_save_dialog_is_malay_with_its_prompts_and_errors():
    i18n.set_language("ms")
    record = GAMES[3]
    app = on_a_game()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.screen is app.game_screen)
        app.save_game(record)
        await wait_for(pilot, lambda: isinstance(app.screen, SaveDialog))
        await pilot.pause()
        dialog = app.screen
        lines = screen_lines(app, [dialog.query_one("#path", Input)])  # the path offered is data
        assert_malay(lines[:-1], "Simpan permainan", "Ana lwn Bo · umum 4x4 · 16 langkah · seri",
                     "Nama tanpa folder disimpan dalam folder simpanan.", "Simpan", "Batal")
        for widget in dialog.query(Button).results():
            assert in_view(app, widget), widget.id
        field = dialog.query_one("#path", Input)
        field.value = ""
        await pilot.press("enter")
        await pilot.pause()
        assert str(dialog.query_one("#message", Label).content) == "Taip nama fail."
        assert field.placeholder == "nama fail atau laluan"
        save_record(record, saves_dir() / "ada.json")
        field.value = "ada"
        await pilot.press("enter")
        await pilot.pause()
        assert str(dialog.query_one("#message", Label).content) == (
            "ada.json sudah wujud: tekan Simpan sekali lagi untuk menggantikannya.")
        app.switch_language("en")  # a switch keeps the typed name
        await pilot.pause()
        await pilot.pause()
        assert app.screen.query_one("#path", Input).value == "ada"
        assert str(app.screen.query_one("#title", Label).content) == "Save game"


@pytest.mark.skipif(not hasattr(LoadError("x", "y"), "template"),
                    reason="needs the storage part's translated errors (branch i18n-infra)")
async def test_save_dialog_says_a_storage_error_in_malay(tmp_path):
    blocker = tmp_path / "fail"
    blocker.write_text("not a folder", encoding="utf-8")
    i18n.set_language("ms")
    app = on_a_game()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.screen is app.game_screen)
        app.save_game(GAMES[0])
        await wait_for(pilot, lambda: isinstance(app.screen, SaveDialog))
        await pilot.pause()
        app.screen.query_one("#path", Input).value = str(blocker / "game.json")
        await pilot.press("enter")
        await pilot.pause()
        message = str(app.screen.query_one("#message", Label).content)
        assert message and "could not save" not in message and "not a folder" not in message, message


def test_the_footer_of_every_screen_reads_its_own_keys_through_the_catalog():
    """Each screen's key descriptions are marked for the catalog (English in the code)."""
    i18n.set_language("ms")
    for screen_class in (SetupScreen, HistoryScreen, ReplayScreen, OpenDialog, SaveDialog, ConfirmDelete,
                         OlderSave):
        for binding in screen_class.BINDINGS:
            assert i18n._(binding.description) != binding.description, (screen_class, binding.description)
