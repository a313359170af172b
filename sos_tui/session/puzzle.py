"""A puzzle being played, for every front end: the player's move checked exactly, the solver's
best defence played back, a wrong move refuted and taken back, a hint; and the player's streak.

``PuzzleRun.play(move)`` answers with a ``Step``: ``right`` (and the defence's replies, and
whether the puzzle is solved) or not (the move's value and the refutation's first moves); the
position only moves on with a right move, so a retry is just another ``play``. The solver's work
is pure Python and takes up to a second or so on 5x5 and 6x6: a front end with a screen runs
``play`` and ``hint`` off its UI thread.
"""

from __future__ import annotations

from dataclasses import dataclass

from sos_tui.ai.puzzles import Puzzle, best_defence, best_moves, decided, keeps, refutation
from sos_tui.ai.solver import Solver
from sos_tui.engine.rules import GameState, IllegalMoveError, Mode, Move, cell_name
from sos_tui.i18n import _, mode_name


@dataclass(frozen=True)
class Step:
    """What a move did: ``right`` with the defence's ``replies`` (``solved`` at the end), or
    wrong with its ``value`` for the player (against the position's ``best``) and the
    ``refutation``."""

    move: Move
    right: bool
    replies: tuple[Move, ...] = ()
    solved: bool = False
    value: int = 0
    best: int = 0
    refutation: tuple[Move, ...] = ()


class PuzzleRun:
    def __init__(self, puzzle: Puzzle):
        self.puzzle = puzzle
        self.state: GameState = puzzle.state()
        self.player = self.state.to_move
        self.solver = Solver(puzzle.size, puzzle.mode)
        self.solved = False
        self.mistakes = 0  # wrong moves so far
        self.hints = 0

    @property
    def clean(self) -> bool:
        """Solved without a wrong move or a hint: what a streak counts."""
        return self.solved and not self.mistakes and not self.hints

    def play(self, move: Move) -> Step:
        """Check the player's ``move`` exactly; raises IllegalMoveError for an illegal one."""
        if self.solved or self.state.to_move != self.player:
            raise IllegalMoveError("the puzzle is over")
        after = self.state.play(move)  # the engine's own error for a taken cell or one off the board
        if not keeps(self.solver, self.state, move):
            self.mistakes += 1
            value, line = refutation(self.solver, self.state, move)
            best = self.solver.value(self.state.board)
            return Step(move, False, value=value, best=best, refutation=tuple(line))
        self.state, replies = after, []
        while not self.state.is_over and self.state.to_move != self.player:
            reply = best_defence(self.solver, self.state)
            replies.append(reply)
            self.state = self.state.play(reply)
        self.solved = decided(self.solver, self.state)
        return Step(move, True, tuple(replies), self.solved)

    def hint(self) -> Move:
        """A move that keeps the value (the first the solver finds)."""
        self.hints += 1
        return best_moves(self.solver, self.state)[1][0]


# -- the sentences, shared by the app and line mode ------------------------------------------
def said(move: Move) -> str:
    """``S at c3``."""
    return _("{letter} at {cell}").format(letter=move.letter, cell=cell_name(move.row, move.col))


def said_line(moves) -> str:
    return ", ".join(said(move) for move in moves)


def task(run: PuzzleRun, total: int) -> str:
    """``Puzzle 12 of 560: 5 by 5, simple mode. Player 1 to move: find the only move that wins.``"""
    puzzle = run.puzzle
    head = _("Puzzle {id} of {total}: {size} by {size}, {mode} mode.").format(
        id=puzzle.id, total=total, size=puzzle.size, mode=mode_name(puzzle.mode)
    )
    return f"{head} {ask(run)}"


def ask(run: PuzzleRun) -> str:
    """``Player 1 to move: find the only move that wins.``"""
    puzzle = run.puzzle
    who = _("Player {number}").format(number=run.player + 1)
    if puzzle.mode is Mode.SIMPLE:
        text = _("{name} to move: find the only move that wins (first SOS wins).")
    else:
        # Translators: a margin is the player's points from here on minus the opponent's
        text = _(
            "{name} to move: find the only move that keeps the best margin, {value:+d} "
            "(your points from here on minus the opponent's)."
        )
    return text.format(name=who, value=puzzle.value)


def outcome(step: Step, mode: Mode) -> list[str]:
    """What a move did, as sentences."""
    if step.right:
        out = [_("Right: {move}.").format(move=said(step.move))]
        if step.replies:
            out.append(_("The answer: {moves}.").format(moves=said_line(step.replies)))
        out.append(_("Solved!") if step.solved else _("Your move: find the move that keeps it."))
        return out
    if mode is Mode.SIMPLE:
        wrong = _("{move} only draws.") if step.value == 0 else _("{move} loses.")
    else:
        wrong = _("{move} leaves a margin of {value:+d}, not {best:+d}.")
    out = [wrong.format(move=said(step.move), value=step.value, best=step.best)]
    if step.refutation:
        out.append(_("The refutation: {moves}.").format(moves=said_line(step.refutation)))
    out.append(_("Try again, or ask for a hint."))
    return out


def streak(score) -> str:
    return _("Puzzles solved: {solved}. Streak: {streak} (best {best}).").format(
        solved=len(score.solved), streak=score.streak, best=score.best_streak
    )
