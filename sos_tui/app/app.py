"""The Textual app: the screens, the theme, remembered settings, and the two helpers that outlive
a game (the computer's process pool and the keeper that writes to disk). The game itself is the
game screen's ``GameSession``."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from functools import partial

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.command import CommandPalette
from textual.screen import Screen

from sos_tui.engine import GameRecord, GameState
from sos_tui.i18n import LANGUAGES, N_, UnknownLanguage, _, language, set_language
from sos_tui.session import ComputerPool, Keeper, Store

from .colours import readable
from .screens.game import GameScreen
from .screens.play import PlayScreen
from .screens.setup import SetupScreen

# The screens a launch does not show (help, history, open, save, replay, network) are imported
# where they are opened: they bring the review (the AI), the history database and Markdown, which
# would otherwise be imported before the first screen is drawn (benchmarks/launch.py).
from .text import shown

# Okabe-Ito colours, which colour-blind players can tell apart; one set for dark themes, one for light.
DARK_PLAYERS = ("#56B4E9", "#E69F00", "#3DDC97", "#F07FC0", "#F0E442", "#FF7F50")
LIGHT_PLAYERS = ("#0065A8", "#BF4C00", "#00805C", "#B0407F", "#7A6A00", "#C0392B")

# Textual's own palette entries that have no place in this game.
_UNWANTED_COMMANDS = {"Maximize", "Minimize"}


class SosApp(App):
    """``game`` starts straight away (an empty or part-played record); without it, the setup screen.

    ``settings`` is what was remembered from the last launch (theme, last setup); the app reports
    changes to it through ``keeper``. ``store`` replaces the real disk, and ``now`` (milliseconds)
    the clocks' time source (tests).
    """

    CSS_PATH = "sos.tcss"
    TITLE = "SOS"

    BINDINGS = [
        Binding("question_mark,f1", "help", N_("Help"), key_display="?"),
        Binding("ctrl+q", "quit", N_("Quit"), priority=True),
    ]

    def __init__(self, game: GameRecord | None = None, *, mouse: bool = True, computer_delay: float = 0.5,
                 time_limit: float | None = 2.0, seed: int | None = None, store: Store | None = None,
                 settings: dict | None = None, network=None, now=None, puzzle: int | None = None) -> None:
        super().__init__()
        self.puzzle = puzzle  # open the puzzles at this one (0: the first not solved) and close with them
        self.puzzles_only = puzzle is not None
        self.network = network  # a sos_tui.net.run HostPlan or JoinPlan to play at once
        self.mouse = mouse
        self.initial_game = game
        self.settings = dict(settings or {})
        self.computer = ComputerPool(time_limit, seed)
        self.keeper = Keeper(store, on_error=self._storage_error, on_recovery=self._storage_recovered)
        self.exit_notes: list[str] = []  # after the app stops: finished games that could not be kept
        self.game_screen = GameScreen(self.computer, self.keeper, computer_delay, mouse=mouse, now=now)
        if isinstance(self.settings.get("theme"), str) and self.settings["theme"] in self.available_themes:
            self.theme = self.settings["theme"]

    # -- what tests and the palette read ----------------------------------------------------
    @property
    def session(self):
        return self.game_screen.session

    @property
    def state(self) -> GameState | None:
        return None if self.session is None else self.session.state

    @property
    def game(self) -> GameRecord | None:
        return None if self.session is None else self.session.record

    # -- theme ------------------------------------------------------------------------------
    def get_theme_variable_defaults(self) -> dict[str, str]:
        dark = self.current_theme.dark if self.current_theme else True
        colours = DARK_PLAYERS if dark else LIGHT_PLAYERS
        players = {f"player-{i + 1}": colour for i, colour in enumerate(colours)}
        return players | {"footer-muted": "ansi_default"}  # made from the theme in get_css_variables

    def get_css_variables(self) -> dict[str, str]:
        """The theme's variables, with the colours of text and frames made legible over the
        backgrounds they are drawn on (see colours.py)."""
        variables = super().get_css_variables()
        variables.update(readable(variables, self.ansi_theme))
        return variables

    def watch_theme(self, theme: str) -> None:
        if self.is_mounted and self.settings.get("theme") != theme:
            self.settings["theme"] = theme
            self.keeper.save_settings(dict(self.settings))

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        for command in super().get_system_commands(screen):  # Textual's own, in the player's language
            if command.title not in _UNWANTED_COMMANDS:
                yield SystemCommand(_(command.title), _(command.help), command.callback, command.discover)
        game = screen if isinstance(screen, PlayScreen) else self.game_screen  # a network game's too

        def offered(action: str) -> bool:  # what the game in front does, now or not now (no redo online)
            return hasattr(game, f"action_{action}") and game.check_action(action, ()) is not False

        yield SystemCommand(_("New game"), _("Choose the board, variant and players (ctrl+n)"),
                            self.action_new_game)
        if offered("rematch"):
            yield SystemCommand(_("Rematch"), _("Play again with the same settings (ctrl+r)"),
                                game.action_rematch)
        yield SystemCommand(_("Help"), _("Keys and rules (?)"), self.action_help)
        if offered("undo"):
            yield SystemCommand(_("Undo"), _("Take back the last move (u)"), game.action_undo)
        if offered("redo"):
            yield SystemCommand(_("Redo"), _("Play again a move taken back (r)"), game.action_redo)
        if offered("resign"):
            yield SystemCommand(_("Resign"), _("Give up this game: asked first (g)"), game.action_resign)
        if offered("offer_draw"):
            yield SystemCommand(_("Offer a draw"), _("The other player is asked (d)"), game.action_offer_draw)
        if offered("abort"):
            yield SystemCommand(_("Abort the game"),
                                _("End it with no result, before everyone has moved (A)"), game.action_abort)
        if offered("claim"):
            yield SystemCommand(_("Claim"), _("Claim a player gone too long: the win, or their seat (c)"),
                                game.action_claim)
        yield SystemCommand(_("Save game"), _("Save this game to a file (ctrl+s)"), game.action_save)
        yield SystemCommand(_("Open game"), _("Open a saved game (ctrl+o)"), self.action_open)
        yield SystemCommand(_("History"), _("Past games and statistics"), self.action_history)
        yield SystemCommand(_("Puzzles"), _("Find the only move that wins, proved by the solver"),
                            self.action_puzzles)
        if offered("replay"):
            yield SystemCommand(_("Replay"), _("Step through this game move by move"), game.action_replay)
        for code, name in LANGUAGES.items():
            if code != language():
                yield SystemCommand(_("Language: {name}").format(name=name),
                                    _("Play in {name} from now on (remembered)").format(name=name),
                                    partial(self.switch_language, code))

    def action_command_palette(self) -> None:
        if self.use_command_palette and not CommandPalette.is_open(self):
            self.push_screen(CommandPalette(placeholder=_("Search for commands…"), id="--command-palette"))

    # -- language ---------------------------------------------------------------------------
    def switch_language(self, code: str) -> None:
        """Speak ``code`` from now on: every open screen is drawn again in it, and the choice is
        remembered for the next launch. A language whose catalog is missing is refused with a
        message, and nothing changes."""
        try:
            set_language(code)
        except UnknownLanguage as error:
            self.notify(str(error), title=_("Language"), severity="error", timeout=8, markup=False)
            return
        if self.settings.get("language") != code:
            self.settings["language"] = code
            self.keeper.save_settings(dict(self.settings))
        for screen in self.screen_stack:
            changed = getattr(screen, "language_changed", None)
            if changed is not None:
                changed()
        self.notify(LANGUAGES[code], title=_("Language"), timeout=2)

    # -- the screens ------------------------------------------------------------------------
    async def on_mount(self) -> None:
        await self.push_screen(self.game_screen)
        if self.network is not None and type(self.network).__name__ == "LobbyPlan":  # net not imported
            from .dialogs import JoinDialog

            dialog = JoinDialog(self.network.name or "", self.network.server, self.settings.get("setup"))
            self.push_screen(dialog,
                             lambda plan: self.exit() if plan is None else self.play_network(plan))
        elif self.network is not None:
            self.play_network(self.network)
        elif self.puzzle is not None:
            self.action_puzzles(self.puzzle)
        elif self.initial_game is not None:
            self.play_record(self.initial_game)
        else:
            self.push_screen(SetupScreen(setup=self.settings.get("setup")), self._setup_done)

    def _back_to_game(self) -> None:
        while self.screen is not self.game_screen and len(self.screen_stack) > 1:
            self.pop_screen()

    def play_record(self, record: GameRecord | None) -> None:
        """Play ``record`` on the game screen, closing whatever is in front of it."""
        if record is None:
            return
        self._back_to_game()
        self.game_screen.start(record)

    def _setup_done(self, record: GameRecord | None) -> None:
        if record is None:
            return
        if not record.moves:  # a new game, not a continued one: remember how it was set up
            self.settings["setup"] = {
                "size": record.size, "mode": record.mode.value,
                "seats": [seat.to_dict() for seat in record.players],
                **({} if record.clock is None else {"clock": str(record.clock)}),
            }
            self.keeper.save_settings(dict(self.settings))
        self.play_record(record)

    def play_network(self, plan) -> None:
        """Host or join a game over the network (``HostPlan`` / ``JoinPlan``) on its own screen."""
        from .screens.net_game import NetGameScreen

        if plan is not None:
            self._back_to_game()
            self.push_screen(NetGameScreen(plan, self.computer, self.keeper, mouse=self.mouse))

    def host_game(self, record: GameRecord) -> None:
        """Host the game the setup describes, once the host dialog has said how."""
        from .screens.host_dialog import HostDialog

        if sum(not seat.is_computer for seat in record.players) < 2:
            self.notify(_("To host, leave at least two seats to people: yours and a friend's."),
                        severity="warning", timeout=4)
            return
        self.push_screen(HostDialog(record), self.play_network)

    def action_join(self) -> None:
        from .dialogs import JoinDialog

        if not isinstance(self.screen, JoinDialog):
            self.push_screen(JoinDialog(setup=self.settings.get("setup")), self.play_network)

    def leave_network(self, new_game: bool = False) -> None:
        """Close the network game; started from the command line, that ends the app unless the
        player asked for a new game (``new_game``: the setup screen)."""
        if self.network is not None and not new_game:
            self.exit()
            return
        self._back_to_game()
        if new_game or self.session is None:
            self.action_new_game()

    def action_help(self) -> None:
        from .screens.help import HelpScreen, key_table

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(key_table(self.screen)))

    def _network_asks(self, then) -> bool:
        """A network game in the stack that asks before it is left: ask, and ``then`` if agreed."""
        from .screens.net_game import NetGameScreen

        network = next((s for s in self.screen_stack if isinstance(s, NetGameScreen)), None)
        if network is None or not network.net.leaving_asks:
            return False
        network.ask_to_leave(then=then)
        return True

    def action_new_game(self) -> None:
        if isinstance(self.screen, SetupScreen) or self._network_asks(then=self.action_new_game):
            return
        self.game_screen.stop_computer()
        self._back_to_game()
        self.push_screen(SetupScreen(self.game, setup=self.settings.get("setup")), self._setup_done)

    def action_open(self) -> None:
        from .screens.open_dialog import OpenDialog

        if isinstance(self.screen, OpenDialog) or self._network_asks(then=self.action_open):
            return
        self.push_screen(OpenDialog(self.game), self.play_record)

    def action_puzzles(self, puzzle_id: int = 0) -> None:
        from .screens.puzzle import PuzzleScreen

        if not isinstance(self.screen, PuzzleScreen):
            self.push_screen(PuzzleScreen(puzzle_id, mouse=self.mouse))

    def action_history(self) -> None:
        from .screens.history import HistoryScreen

        if not isinstance(self.screen, HistoryScreen):
            self.push_screen(HistoryScreen(), self.play_record)

    def save_game(self, record: GameRecord) -> None:
        from .screens.save_dialog import SaveDialog

        if isinstance(self.screen, SaveDialog):
            return

        def saved(path) -> None:
            if path is not None:
                self.notify(shown(path, 300), title=_("Game saved"), timeout=4, markup=False)

        self.push_screen(SaveDialog(record), saved)

    def replay(self, record: GameRecord, review: bool = False) -> None:
        """Open the replay of ``record``; ``review``: with its review running."""
        from .screens.replay import ReplayScreen

        self.push_screen(ReplayScreen(record, review=review), self.play_record)

    # -- storage ----------------------------------------------------------------------------
    # notify is thread-safe and does not wait for the UI thread: the keeper's last writes happen
    # while the UI thread waits for the keeper to stop (on_unmount), where a call_from_thread
    # would wait for each other until close() gave up, 10 s later
    def _storage_error(self, message: str) -> None:
        """From the keeper's thread: tell the player (the keeper says a full disk once)."""
        with contextlib.suppress(RuntimeError):  # the app has stopped: nobody to tell
            self.notify(message, title=_("Not saved"), severity="error", timeout=8, markup=False)

    def _storage_recovered(self, message: str) -> None:
        with contextlib.suppress(RuntimeError):
            self.notify(message, title=_("Saved"), timeout=4, markup=False)

    async def action_quit(self) -> None:
        """Quit; from a network game where this player holds a seat, after asking (the others are
        told, and a host's quitting ends the game for everyone)."""
        if not self._network_asks(then=self.exit):
            self.exit()

    def on_unmount(self) -> None:
        self.game_screen.stop_computer()
        self.computer.shutdown()
        self.exit_notes = self.keeper.close()
