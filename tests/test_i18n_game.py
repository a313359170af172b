"""The game screen, the game-over dialog, the help and the network game in Malay, at 80x24: a whole
game played by keys, no English left on screen, the footer's keys, a language switch from the
palette in the middle of a game, and the words of these screens outside the app (level and mode
names, results)."""

from __future__ import annotations

import re

import pytest
from rich.cells import cell_len
from textual.command import CommandList, CommandPalette
from textual.geometry import Region
from textual.widgets import Button, Markdown

from sos_tui import i18n
from sos_tui.app import SosApp
from sos_tui.app.dialogs import Choice
from sos_tui.app.screens.game_over import GameOverScreen, result_line
from sos_tui.app.screens.help import HelpScreen
from sos_tui.app.screens.net_game import NetGameScreen
from sos_tui.app.text import names_list, result_shown
from sos_tui.app.widgets.board import Board
from sos_tui.app.widgets.move_log import MoveLog
from sos_tui.app.widgets.scoreboard import seat_label
from sos_tui.engine import GameRecord, GameState, Mode, Move, PlayerInfo, Seat, SeatKind
from sos_tui.i18n import level_name, mode_name
from sos_tui.net.run import HostPlan

from .support.games import GAME, GAME_KEYS
from .support.helpers import make_app, recording, scoreboard_text, screen_lines, screen_text, wait_for

# English a player could meet on these screens; none may be left when the game speaks Malay.
ENGLISH = [
    "Players", "Moves", "Player", "Move", "Pts", "Letter", "to move", "general", "simple", "easy",
    "medium", "hard", "expert", "Hint", "Undo", "Redo", "Quit", "Help", "palette", "Game over", "wins",
    "draw", "Rematch", "New", "Review", "Board", "scored", "again", "thinking", "Paused", "resume",
    "How to play", "cell", "letter", "turn", "score", "Keys here", "Key", "Does", "Command palette",
    "Close", "Scroll", "Page", "Focus", "Copy", "Place", "the", "and", "an", "is", "with", "or",
    "of", "Waiting", "Connecting", "Friends", "join", "Leave", "Reconnect", "Your",
]  # fmt: skip


def english_left(text: str) -> list[str]:
    """The words of ENGLISH found in ``text`` (whole words, any case)."""
    return [word for word in ENGLISH if re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text, re.I)]


def malay() -> None:
    i18n.set_language("ms")


# -- a whole game in Malay ------------------------------------------------------------------------
# a whole game: the Malay game-over dialog is checked by the two tests of it below, the game by test_app's
# whole games
@pytest.mark.slow
async def test_a_whole_game_by_keys_in_malay_ends_in_a_malay_game_over_dialog():
    malay()
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        start = screen_text(app)
        assert "Giliran Ana" in start and "Huruf:" in start and "SOS · umum · 3x3" in start
        assert "Pemain" in start and "Langkah" in start and "Mata" in start
        assert english_left(start) == []

        await pilot.press(*GAME_KEYS[:5])  # S a1, O b1, S c1: Ana scores and moves again
        await pilot.pause()
        scored = screen_text(app)
        assert "Ana dapat 1 mata — main lagi!" in scored
        assert english_left(scored) == []

        await pilot.press("left", "left", "o")  # a1 is taken
        await pilot.pause()
        assert app.notices[-1].message == "a1 sudah berisi S: pilih petak yang kosong."
        assert app.notices[-1].title == "Langkah ditolak"
        await pilot.press("right", "right")  # back where the game's keys expect the cursor

        await pilot.press(*GAME_KEYS[5:])
        await pilot.pause()
        assert app.state.moves == tuple(Move(*m) for m in GAME)
        assert isinstance(app.screen, GameOverScreen)
        dialog = screen_text(app)
        assert "Permainan tamat" in dialog and "Bo menang!" in dialog
        for word in ("Main semula", "Baharu", "Ulasan", "Grid", "esc grid"):
            assert word in dialog, word
        assert english_left(dialog) == []

        await pilot.press("escape")  # the finished board, in Malay
        await pilot.pause()
        final = screen_text(app)
        assert "Permainan tamat: Bo menang" in final
        assert english_left(final) == []
        await pilot.press("s")
        assert app.notices[-1].message.startswith("Permainan sudah tamat: ctrl+r untuk main semula")
        assert app.notices[-1].title == "Tiada langkah lagi"


def help_text(app) -> str:
    """The help's rules (its Markdown) and every line its key table draws, scrolled out of view or not."""
    keys = app.screen.query_one("#help-keys")
    width, height = keys.outer_size
    return app.screen.query_one(Markdown).source + "\n".join(
        strip.text for strip in keys.render_lines(Region(0, 0, width, height)))


async def test_the_help_in_malay_gives_the_rules_of_both_variants_and_the_keys():
    malay()
    app = make_app(size=6)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        shown = screen_text(app)
        assert "Cara bermain SOS" in shown
        assert english_left(shown) == []
        text = help_text(app)  # all of it, beyond what one screen shows
        for words in ("Permainan umum", "Permainan ringkas", "dapat mata, main lagi", "seri", "Ulasan",
                      "silap besar", "Kekunci di sini", "Gerakkan kursor", "Petunjuk", "Buat asal",
                      "Main semula", "Palet arahan"):
            assert words in text, words
        assert "Tatal ke awal" not in text  # the UI library's scroll keys are not the game's
        # the notation and the keys stay as they are; the words (not the key column) are all Malay
        assert "**S**" in text and "**O**" in text
        assert re.search(r"^ *u \^z +Buat asal", text, re.MULTILINE)
        assert english_left(re.sub(r"^ *\S+(?: \S+)* {2,}", "", text, flags=re.MULTILINE)) == []


async def test_the_game_over_dialogs_keys_are_described_in_malay():
    malay()
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*GAME_KEYS)
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        described = {active.binding.description for active in app.screen.active_bindings.values()}
        assert {"Kembali ke grid", "Main semula", "Permainan baharu", "Keluar", "Ulasan"} <= described
        assert english_left(" ".join(described)) == []


async def test_the_footer_describes_the_keys_in_malay():
    malay()
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: "palet" in (screen_lines(app) or [""])[-1])  # the footer fills in last
        footer = screen_lines(app)[-1]
        for words in ("Petunjuk", "Buat asal", "Keluar", "Bantuan", "palet"):
            assert words in footer, words
        assert english_left(footer) == []
        descriptions = {active.binding.description for active in app.screen.active_bindings.values()}
        assert "Permainan baharu" in descriptions and "New game" not in descriptions


# -- switching language in the middle of a game -----------------------------------------------------
async def choose_in_palette(pilot, words: str) -> None:
    """Open the command palette, type ``words``, and run the command it highlights once that
    command's title holds them; the palette has closed on return."""
    app = pilot.app
    await pilot.press("ctrl+p")
    await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette))
    await pilot.press(*words)
    commands = app.screen.query_one(CommandList)

    def offered() -> bool:
        index = commands.highlighted
        return index is not None and words in str(commands.get_option_at_index(index).prompt)

    await wait_for(pilot, offered)
    await pilot.press("enter")
    await wait_for(pilot, lambda: not isinstance(app.screen, CommandPalette))
    await pilot.pause()


async def test_switching_language_from_the_palette_mid_game_keeps_the_game_and_changes_the_words():
    app = make_app(size=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s", "right", "o", "down", "tab")  # two moves, the cursor on b2, letter O
        await pilot.pause()
        screen, board, log = app.game_screen, app.game_screen.board, app.game_screen.query_one(MoveLog)
        before = app.state
        assert "Ana to move" in screen_text(app)

        await choose_in_palette(pilot, "Melayu")
        assert i18n.language() == "ms"
        assert app.settings["language"] == "ms"
        assert app.screen is screen and app.state is before  # the same game, not a new one
        assert screen.board is board and board.cursor == (1, 1) and board.letter == "O"
        assert log.row_count == 2 and log.cursor_row == 1
        shown = screen_text(app)
        assert "Giliran Ana" in shown and "Huruf:  s  O" in shown and "Pemain" in shown
        assert "S a1" in shown and "O b1" in shown
        assert english_left(shown) == []

        await pilot.press("s")  # the game goes on from the cursor
        assert [str(m) for m in app.state.moves] == ["S a1", "O b1", "S b2"]

        await choose_in_palette(pilot, "English")
        assert i18n.language() == "en"
        shown = screen_text(app)
        assert "Bo to move" in shown and "Players" in shown and "Giliran" not in shown
        assert [str(m) for m in app.state.moves] == ["S a1", "O b1", "S b2"]


async def test_a_language_switch_redraws_an_open_game_over_dialog_and_help():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*GAME_KEYS)
        await pilot.pause()
        assert "Game over" in screen_text(app)
        app.switch_language("ms")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        dialog = screen_text(app)
        assert "Permainan tamat" in dialog and "Bo menang!" in dialog
        assert english_left(dialog) == []
        assert app.screen.focused is app.screen.query_one("#board")  # the harmless button, still
        await pilot.press("escape")
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert "Cara bermain SOS" in screen_text(app)
        app.switch_language("en")
        await pilot.pause()
        assert "How to play SOS" in screen_text(app)
        assert "Hint" in help_text(app)


# -- the 80x24 fit ----------------------------------------------------------------------------------
async def test_the_game_screen_fits_80x24_in_malay():
    malay()
    app = make_app(size=6, names=("Aminah", "computer:expert"), time_limit=0.2)  # the words, not its move
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: "palet" in (screen_lines(app) or [""])[-1])  # the footer fills in last
        screen = app.game_screen
        lines = screen_lines(app)
        assert len(lines) == 24 and all(cell_len(line) <= 80 for line in lines)
        assert not screen.view.too_small
        board = screen.query_one(Board)
        assert board.region.height >= 6 * 2 + 1 + 2  # every row of the 6x6 board, with its border
        shown = "\n".join(lines)
        for row in range(1, 7):
            assert re.search(rf"│\s*{row}\s+·", shown), row
        scoreboard = scoreboard_text(app)
        for words in ("SOS · umum · 6x6", "Computer 2 (pakar)", "Giliran Aminah", "Huruf:  S  o   tab"):
            assert words in scoreboard and words in shown, words
        assert "…" not in scoreboard  # nothing cut
        header = MoveLog.render_line(screen.query_one(MoveLog), 0).text
        assert re.search(r"# Pemain +Langkah +Mata", header)
        footer = lines[-1]
        assert "Buat asal" in footer and "^p palet" in footer  # the whole footer, to its last key

        moves = app.state.move_count
        await pilot.press("s")  # the computer answers; the scoreboard keeps its size
        await wait_for(pilot, lambda: app.state.move_count >= moves + 2)
        assert all(cell_len(line) <= 80 for line in screen_lines(app))


async def test_in_a_narrow_terminal_the_malay_move_log_keeps_its_headings_and_the_names():
    malay()
    app = make_app(size=4, names=("Aminah", "Bonda"))
    async with app.run_test(size=(60, 30)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        await wait_for(pilot, lambda: app.game_screen.view.has_class("-narrow"))
        log = app.game_screen.query_one(MoveLog)
        width = log.scrollable_content_region.width
        assert log.render_line(0).text.rstrip().endswith("Langkah Mata")
        assert re.search(r"● Aminah +S a1", log.render_line(1).text)
        assert all(cell_len(log.render_line(y).text) == width for y in range(2))


async def test_the_game_over_dialog_fits_80x24_in_malay_with_every_button_whole():
    malay()
    app = make_app(names=("Aminah", "Bonda"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*GAME_KEYS)
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, GameOverScreen)
        box = dialog.query_one("#dialog").region
        assert box.right <= 80 and box.bottom <= 24 and box.x >= 0 and box.y >= 0
        shown = screen_text(app)
        for button in dialog.query(Button):
            label = str(button.label)
            assert button.region.right <= box.right and button.region.bottom <= box.bottom
            assert label in shown, label
            assert button.region.width >= cell_len(label) + 2, label
        assert "^r main semula · ^n baharu · v ulasan" in shown and "esc grid" in shown
        assert "Bonda menang!" in shown


async def test_too_small_a_terminal_says_so_in_malay():
    malay()
    app = make_app(size=8)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.resize_terminal(30, 10)
        await wait_for(pilot, lambda: app.game_screen.view.too_small)
        text = str(app.game_screen.query_one("#too-small").render())
        assert "terlalu kecil" in text and "44 x 15" in text and "Permainan anda selamat" in text
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        app.switch_language("en")  # a switch while it is shown
        await pilot.resize_terminal(30, 10)
        await wait_for(pilot, lambda: "too small" in str(app.game_screen.query_one("#too-small").render()))


# -- the network game ---------------------------------------------------------------------------------


async def test_hosting_in_malay_says_the_status_the_keys_and_the_refusals_in_malay():
    malay()
    plan = HostPlan(3, "general", (Seat("Ana"), Seat(None, SeatKind.REMOTE)), port=0)
    app = recording(SosApp(network=plan, computer_delay=0))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, NetGameScreen) and app.screen.game is not None
                    and app.screen.net.join_url is not None)
        screen = app.screen
        status = str(screen.query_one("#net-status").render())
        assert f"Kawan menyertai dengan:  sos-tui join {screen.net.join_url} --name NAMA" in status
        assert "Menunggu 1 lagi pemain untuk menyertai…" in status
        await pilot.press("ctrl+n")  # a new game leaves this one: the host is asked first
        await wait_for(pilot, lambda: isinstance(app.screen, Choice))
        assert app.screen.text == "Keluar dan tamatkan permainan rangkaian ini untuk semua orang?"
        await pilot.press("escape")  # stay
        await wait_for(pilot, lambda: app.screen is screen)
        await pilot.press("H")  # no hints in a network game: the key is not bound there
        assert not app.notices
        assert "Tinggalkan" in screen_lines(app)[-1]
        app.switch_language("en")
        await pilot.pause()
        assert "Waiting for 1 more player to join…" in str(screen.query_one("#net-status").render())


async def test_the_join_dialog_in_malay_fits_and_keeps_what_was_typed_across_a_switch():
    from sos_tui.app.dialogs import JoinDialog

    malay()
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(JoinDialog("Ana"))
        await pilot.pause()
        app.screen.query_one("#url").value = "ws://127.0.0.1:7531/abcde-fghij"
        shown = screen_text(app)
        for words in ("Sertai permainan: alamat daripada hos (ws://HOS:PORT/KOD)", "Nama anda", "Sertai",
                      "Batal"):
            assert words in shown, words
        app.switch_language("en")
        await pilot.pause()
        assert "Your name" in screen_text(app)
        assert app.screen.query_one("#url").value == "ws://127.0.0.1:7531/abcde-fghij"
        assert app.screen.query_one("#name").value == "Ana"


async def test_a_network_question_is_asked_again_in_the_new_language():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(Choice(lambda: i18n._("{name} asks to undo the last turn. Agree?").format(name="Bo"),
                               lambda: i18n._("Accept"), lambda: i18n._("Decline")))
        await pilot.pause()
        assert "Bo asks to undo" in screen_text(app)
        app.switch_language("ms")
        await pilot.pause()
        shown = screen_text(app)
        assert "Bo meminta untuk buat asal giliran terakhir. Setuju?" in shown
        assert "Terima" in shown and "Tolak" in shown


# -- the words outside the screens ------------------------------------------------------------------
def test_level_and_mode_names_are_said_in_malay_and_the_keywords_stay_english():
    assert [level_name(level) for level in ("easy", "medium", "hard", "expert")] == [
        "easy", "medium", "hard", "expert"]
    malay()
    assert [level_name(level) for level in ("easy", "medium", "hard", "expert")] == [
        "mudah", "sederhana", "sukar", "pakar"]
    assert [mode_name(mode) for mode in (Mode.GENERAL, "simple")] == ["umum", "ringkas"]
    assert level_name("grandmaster") == "grandmaster" and level_name(None) == ""
    seat = PlayerInfo("Deep", "computer", "hard")
    assert seat_label(seat) == "Deep (sukar)"
    assert seat.to_dict()["level"] == "hard"  # what files keep


def test_results_and_lists_of_names_in_malay():
    record = GameRecord(3, Mode.GENERAL, (PlayerInfo("Ana"), PlayerInfo("Bo")))
    won = GameState.from_moves([Move(*m) for m in GAME], 3)
    malay()
    assert result_shown(record) == "belum selesai"
    assert result_shown(record, won) == "Bo menang"
    assert result_line(won, record.players) == "Bo menang!"
    assert names_list(["Ana", "Bo", "Cy"]) == "Ana, Bo dan Cy"
    assert names_list(["Ana"]) == "Ana"
    full = GameState.from_moves([f"S {c}{r}" for c in "abc" for r in "123"], 3, Mode.SIMPLE)
    assert full.is_over and full.is_draw
    assert result_line(full, record.players) == "Seri!"
    assert result_shown(record, full) == "seri"


async def test_a_language_whose_catalog_is_missing_is_a_message_not_a_crash(tmp_path, monkeypatch):
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path / "no-locale")
    app = recording(SosApp(GameRecord(3, Mode.GENERAL, (PlayerInfo("Ana"), PlayerInfo("Bo"))), settings={}))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        app.switch_language("ms")
        await pilot.pause()
        assert i18n.language() == "en" and "language" not in app.settings
        assert any("Bahasa Melayu is not installed" in n.message for n in app.notices)
        assert app.screen is app.game_screen
