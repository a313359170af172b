"""Puzzles in line mode (``sos-tui puzzle --plain``): the position said, moves typed, each answered
exactly; a solved puzzle is counted in the data folder and the next one follows."""

from __future__ import annotations

import asyncio

from sos_tui.ai.puzzles import Puzzle, after, bundled, next_unsolved
from sos_tui.engine import COLUMNS, cell_name
from sos_tui.engine.text import RuleError
from sos_tui.i18n import N_, _, explain
from sos_tui.session.puzzle import PuzzleRun, outcome, said, streak, task
from sos_tui.storage import StorageError
from sos_tui.storage.puzzle_score import PuzzleScore, load_score, save_score

from . import words
from .front import Refused, parse_move
from .lines import BadLine, read_lines, say

HELP = (N_("Type a move, like S b2 or b2 o. Also: board, row 3, col b, moves, hint, next, help, quit."),)


class PuzzleFront:
    def __init__(self, puzzle: Puzzle, score: PuzzleScore):
        self.score = score
        self.start(puzzle)

    def start(self, puzzle: Puzzle) -> None:
        self.run, self.hinted = PuzzleRun(puzzle), None
        say(task(self.run, len(bundled())))
        self.board()

    def board(self) -> None:
        for line in words.board(self.run.state):
            say(line)

    def handle(self, line: str) -> bool:
        """Do one line; False to stop."""
        parts = line.split()
        word = parts[0].lower() if parts else ""
        state = self.run.state
        if not parts:
            return True
        if word in ("quit", "exit"):
            return False
        if word == "help":
            for text in HELP:
                say(_(text))
        elif word == "board":
            self.board()
        elif word == "row" and len(parts) == 2 and parts[1].isdigit() and 1 <= int(parts[1]) <= state.size:
            say(words.row(state, int(parts[1]) - 1))
        elif (
            word in ("col", "column")
            and len(parts) == 2
            and len(parts[1]) == 1
            and parts[1].lower() in COLUMNS[: state.size]
        ):
            say(words.column(state, COLUMNS.index(parts[1].lower())))
        elif word == "moves":
            say(_("Moves so far: {moves}.").format(moves=", ".join(said(m) for m in state.moves)))
        elif word == "hint":
            self.hint()
        elif word == "next":
            self.next()
        elif len(parts) == 1:
            say(_("{word} is not a command; type help for the list.").format(word=words.quoted(parts[0])))
        else:
            self.move(parts)
        return True

    def hint(self) -> None:
        if self.run.solved:
            say(_("This puzzle is solved: type next."))
            return
        move = self.run.hint()
        if self.hinted != self.run.state:  # the first hint: the cell; the second: the move
            self.hinted = self.run.state
            say(_("Hint: look at {cell}.").format(cell=cell_name(move.row, move.col)))
        else:
            say(_("Hint: {move}.").format(move=said(move)))

    def move(self, parts: list[str]) -> None:
        if self.run.solved:
            say(_("This puzzle is solved: type next."))
            return
        try:
            step = self.run.play(parse_move(parts))
        except RuleError as error:
            say(explain(error))
            return
        except Refused as refused:
            say(str(refused))
            return
        for text in outcome(step, self.run.puzzle.mode):
            say(text)
        if step.solved:
            self.finished()
        elif step.right:
            self.board()

    def finished(self) -> None:
        self.score.record(self.run.puzzle.id, self.run.clean)
        try:
            save_score(self.score)
        except StorageError as error:
            say(str(error))
        say(streak(self.score))
        say(_("Type next for the next puzzle, or quit."))

    def next(self) -> None:
        self.start(after(self.run.puzzle))


async def _play(front: PuzzleFront) -> None:
    lines = read_lines()
    while True:
        line = await lines.get()
        if line is None:
            return
        if isinstance(line, BadLine):
            say(words.unreadable(line))
        elif not front.handle(line):
            return


def run_puzzles(puzzle_id: int | None) -> int:
    """Play puzzles from standard input, from ``puzzle_id`` (default: the first not solved)."""
    score, problem = load_score()
    if problem is not None:
        say(str(problem))
    puzzle = bundled()[puzzle_id - 1] if puzzle_id else next_unsolved(score.solved)
    asyncio.run(_play(PuzzleFront(puzzle, score)))
    return 0
