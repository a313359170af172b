"""The Textual app: holds the current GameState and turns messages into ``state.play(move)``."""

from __future__ import annotations

from collections.abc import Iterable

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.reactive import reactive
from textual.screen import Screen

from sos_tui import storage
from sos_tui.engine import GameRecord, GameState, IllegalMoveError, Move, cell_name

from .computer import ComputerRunner
from .screens.game import GameScreen
from .screens.game_over import GameOverScreen
from .screens.help import HelpScreen
from .screens.history import HistoryScreen
from .screens.open_dialog import OpenDialog
from .screens.replay import ReplayScreen
from .screens.save_dialog import SaveDialog
from .screens.setup import SetupScreen
from .widgets.board import Board
from .widgets.move_log import MoveLog
from .widgets.scoreboard import Scoreboard

# Okabe-Ito colours, which colour-blind players can tell apart; one set for dark themes, one for light.
DARK_PLAYERS = ("#56B4E9", "#E69F00", "#3DDC97", "#F07FC0", "#F0E442", "#FF7F50")
LIGHT_PLAYERS = ("#0065A8", "#C75000", "#00805C", "#B0407F", "#7A6A00", "#C0392B")


class SosApp(App):
    """``game`` starts straight away (an empty or part-played record); without it, the setup screen."""

    CSS_PATH = "sos.tcss"
    TITLE = "SOS"

    BINDINGS = [
        Binding("question_mark,f1", "help", "Help", key_display="?"),
        Binding("ctrl+q", "quit", "Quit", priority=True),
    ]

    state: reactive[GameState | None] = reactive(None, always_update=True)

    def __init__(self, game: GameRecord | None = None, *, mouse: bool = True, computer_delay: float = 0.5,
                 time_limit: float | None = 2.0, seed: int | None = None) -> None:
        super().__init__()
        self.mouse = mouse
        self.game = game
        self.timeline: list[GameState] = []  # every state of this game; undo and redo walk it
        self.position = -1
        self.paused = False
        self._storage_warned = False
        self.computer = ComputerRunner(self, delay=computer_delay, time_limit=time_limit, seed=seed)

    # -- theme ------------------------------------------------------------------------------
    def get_theme_variable_defaults(self) -> dict[str, str]:
        dark = self.current_theme.dark if self.current_theme else True
        colours = DARK_PLAYERS if dark else LIGHT_PLAYERS
        return {f"player-{i + 1}": colour for i, colour in enumerate(colours)}

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand("New game", "Choose the board, variant and players", self.action_new_game)
        yield SystemCommand("Rematch", "Play again with the same settings", self.action_rematch)
        yield SystemCommand("Help", "Keys and rules", self.action_help)
        yield SystemCommand("Undo", "Take back the last move (u)", self.action_undo)
        yield SystemCommand("Redo", "Play again a move taken back (r)", self.action_redo)
        yield SystemCommand("Save game", "Save this game to a file (ctrl+s)", self.action_save)
        yield SystemCommand("Open game", "Open a saved game (ctrl+o)", self.action_open)
        yield SystemCommand("History", "Past games and statistics", self.action_history)
        yield SystemCommand("Replay", "Step through this game move by move", self.action_replay)

    # -- the screens ------------------------------------------------------------------------
    async def on_mount(self) -> None:
        await self.push_screen(GameScreen(mouse=self.mouse))
        if self.game is not None:
            self.start(self.game)
        else:
            self.push_screen(SetupScreen(resume=self._resumable()))

    def _resumable(self) -> GameRecord | None:
        """The autosaved game, if one was left unfinished."""
        try:
            record = storage.load_autosave()
        except storage.StorageError:
            return None
        return record if record is not None and record.moves and not record.state.is_over else None

    @property
    def game_screen(self) -> GameScreen:
        return next(s for s in self.screen_stack if isinstance(s, GameScreen))

    def on_setup_screen_start(self, message: SetupScreen.Start) -> None:
        while isinstance(self.screen, SetupScreen):
            self.pop_screen()
        self.start(message.game)

    def start(self, game: GameRecord) -> None:
        """Begin ``game`` (it may hold moves already, e.g. a loaded or resumed game)."""
        self.computer.cancel()
        self.game = game
        state = game.state
        self.timeline, self.position = [state], 0
        self.paused = False
        board = self.game_screen.query_one(Board)
        board.cursor, board.hint = (0, 0), None
        self.state = state

    def watch_state(self, state: GameState | None) -> None:
        if state is None:
            return
        screen = self.game_screen
        board = screen.query_one(Board)
        scoreboard = screen.query_one(Scoreboard)
        scoreboard.seats = self.game.players
        scoreboard.paused = self.paused
        board.state = state
        scoreboard.state = state
        screen.query_one(MoveLog).show(state, self.game.players)
        self._keep(state)
        mover = self.game.players[state.to_move]
        if state.is_over:
            self.computer.cancel()
            scoreboard.thinking = False
            if self.position == len(self.timeline) - 1:
                self.call_after_refresh(self._game_over, state)
        elif mover.is_computer and not self.paused:
            self.computer.play_for(state, mover.level or "medium")

    def _keep(self, state: GameState) -> None:
        """Autosave the game in progress; file a finished game in the history."""
        self.game = self.game.with_state(state)
        try:
            if state.is_over:
                with storage.History() as history:
                    history.record_game(self.game)
                storage.clear_autosave(self.game)
            elif state.moves:
                storage.autosave(self.game)
        except (storage.StorageError, storage.HistoryError, OSError) as error:
            if not self._storage_warned:
                self._storage_warned = True
                self.notify(f"Could not save progress: {error}", severity="error", timeout=6)

    def _game_over(self, state: GameState) -> None:
        if self.state is not state or isinstance(self.screen, GameOverScreen):
            return
        self.push_screen(GameOverScreen(state, self.game.players), self._after_game)

    def _after_game(self, choice: str | None) -> None:
        action = {"rematch": self.action_rematch, "new": self.action_new_game, "quit": self.exit}.get(choice)
        if action is not None:
            self.call_later(action)  # once the dialog has gone

    # -- moves ------------------------------------------------------------------------------
    def on_board_cell_chosen(self, message: Board.CellChosen) -> None:
        state = self.state
        if state is None:
            return
        if state.is_over:
            self.notify("The game is over: ctrl+r for a rematch, ctrl+n for a new game.",
                        title="No more moves", severity="warning", timeout=3)
            return
        if self.game.players[state.to_move].is_computer:
            self.notify(f"Wait for {self.game.players[state.to_move].name} to move.", severity="warning",
                        timeout=2)
            return
        self.play(Move(message.row, message.col, message.letter))

    def on_board_letter_changed(self, message: Board.LetterChanged) -> None:
        self.game_screen.query_one(Scoreboard).letter = message.letter

    def play(self, move: Move) -> bool:
        """Ask the engine for the state after ``move``; refused moves leave everything as it was."""
        try:
            new = self.state.play(move)
        except IllegalMoveError as error:
            taken = self.state.cell(move.row, move.col) if 0 <= move.row < self.state.size else None
            text = (f"{cell_name(move.row, move.col)} already holds {taken}: choose an empty cell."
                    if taken else str(error))
            self.notify(text, title="Move refused", severity="warning", timeout=3)
            return False
        del self.timeline[self.position + 1:]
        self.timeline.append(new)
        self.position += 1
        self.state = new
        return True

    # -- actions ----------------------------------------------------------------------------
    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def action_new_game(self) -> None:
        self.computer.cancel()
        if not isinstance(self.screen, SetupScreen):
            while isinstance(self.screen, (GameOverScreen, HelpScreen)):
                self.pop_screen()
            self.push_screen(SetupScreen(self.game, resume=self._resumable()))

    def action_rematch(self) -> None:
        if self.game is None:
            return
        while not isinstance(self.screen, GameScreen):
            self.pop_screen()
        self.start(GameRecord(self.game.size, self.game.mode, self.game.players))

    def action_pause(self) -> None:
        if self.state is None or not any(p.is_computer for p in self.game.players):
            return
        self.paused = not self.paused
        if self.paused:
            self.computer.cancel()
        self.state = self.state  # redraw, and restart the computer on resume

    def action_undo(self) -> None:
        self._step(-1)

    def action_redo(self) -> None:
        self._step(+1)

    def _step(self, direction: int) -> None:
        """Undo or redo one move; against a computer, as far as the previous human turn."""
        if self.state is None:
            return
        target = self.position + direction
        if not 0 <= target < len(self.timeline):
            self.notify("Nothing to redo." if direction > 0 else "Nothing to undo.", timeout=2)
            return
        seats = self.game.players
        if not all(seat.is_computer for seat in seats):
            while 0 < target < len(self.timeline) - 1 and seats[self.timeline[target].to_move].is_computer:
                target += direction
        self.computer.cancel()
        self.position = target
        self.state = self.timeline[target]

    def action_hint(self) -> None:
        state = self.state
        if state is None or state.is_over or self.game.players[state.to_move].is_computer:
            return
        self.computer.hint_for(state)

    def show_hint(self, state: GameState, move: Move) -> None:
        if self.state is state:
            board = self.game_screen.query_one(Board)
            board.hint = move
            board.cursor = (move.row, move.col)
            self.notify(f"Hint: {move}", timeout=3)

    def set_thinking(self, thinking: bool) -> None:
        for screen in self.screen_stack:
            if isinstance(screen, GameScreen):
                for scoreboard in screen.query(Scoreboard):
                    scoreboard.thinking = thinking

    def action_save(self) -> None:
        if self.state is None or isinstance(self.screen, SaveDialog):
            return

        def saved(path) -> None:
            if path is not None:
                self.notify(f"Saved to {path}", title="Game saved", timeout=4)

        self.push_screen(SaveDialog(self.game.with_state(self.state)), saved)

    def action_open(self) -> None:
        if isinstance(self.screen, OpenDialog):
            return

        def opened(record: GameRecord | None) -> None:
            if record is not None:
                while not isinstance(self.screen, GameScreen):
                    self.pop_screen()
                self.start(record)

        self.push_screen(OpenDialog(), opened)

    def on_replay_screen_play_from_here(self, message: ReplayScreen.PlayFromHere) -> None:
        while not isinstance(self.screen, GameScreen):
            self.pop_screen()
        self.start(message.record)

    def action_continue(self) -> None:
        record = self._resumable()
        if record is None:
            self.notify("There is no unfinished game to continue.", severity="warning")
            return
        while isinstance(self.screen, SetupScreen):
            self.pop_screen()
        self.start(record)

    def action_history(self) -> None:
        if not isinstance(self.screen, HistoryScreen):
            self.push_screen(HistoryScreen())

    def action_replay(self) -> None:
        if self.game is not None and self.state is not None and self.state.moves:
            self.push_screen(ReplayScreen(self.game.with_state(self.state)))

    async def action_quit(self) -> None:
        self.computer.shutdown()
        self.exit()

    def on_unmount(self) -> None:
        self.computer.shutdown()
