"""The player's puzzle record: the puzzles solved and the current streak, in ``puzzles.json`` in
the data folder. Written atomically. A missing file is a fresh record; a corrupt or foreign one is
a fresh record too, with a note saying so (it is replaced at the next save, never half-read).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from sos_tui.i18n import N_

from .atomic import write_atomic
from .errors import Reason, StorageError, describe, shown_path
from .paths import data_dir

FORMAT = "sos-tui-puzzles"
VERSION = 1
NAME = "puzzles.json"
MAX_BYTES = 1024 * 1024


@dataclass
class PuzzleScore:
    """``solved``: the ids of the puzzles solved (in any way); ``streak``: puzzles solved in a row
    without a wrong move or a hint; ``best_streak``: the longest such run."""

    solved: set[int] = field(default_factory=set)
    streak: int = 0
    best_streak: int = 0

    def record(self, puzzle_id: int, clean: bool) -> None:
        """A puzzle finished: solved ``clean`` (no wrong move, no hint) or not."""
        self.solved.add(puzzle_id)
        self.streak = self.streak + 1 if clean else 0
        self.best_streak = max(self.best_streak, self.streak)

    def to_json(self) -> str:
        return (
            json.dumps(
                {
                    "format": FORMAT,
                    "version": VERSION,
                    "solved": sorted(self.solved),
                    "streak": self.streak,
                    "best_streak": self.best_streak,
                }
            )
            + "\n"
        )


def score_path() -> Path:
    return data_dir() / NAME


def load_score() -> tuple[PuzzleScore, Reason | None]:
    """The record and, if the file could not be used, why (a fresh record is returned then)."""
    try:
        path = score_path()
    except StorageError as error:
        return PuzzleScore(), Reason(N_("{error}: the puzzle count starts afresh"), error=str(error))
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except FileNotFoundError:
        return PuzzleScore(), None
    except OSError as error:
        return PuzzleScore(), Reason(
            N_("could not read {path} ({reason}): the puzzle count starts afresh"),
            path=shown_path(path),
            reason=describe(error),
        )
    try:
        data = json.loads(raw.decode("utf-8")) if len(raw) <= MAX_BYTES else None
        if data.get("format") != FORMAT:
            raise ValueError
        solved = {int(n) for n in data["solved"] if isinstance(n, int) and n > 0}
        streak, best = data["streak"], data["best_streak"]
        if not (isinstance(streak, int) and isinstance(best, int) and 0 <= streak <= best):
            raise ValueError
    except (ValueError, TypeError, KeyError, AttributeError):
        return PuzzleScore(), Reason(
            N_("{path} is not a puzzle record: the puzzle count starts afresh"), path=shown_path(path)
        )
    return PuzzleScore(solved, streak, best), None


def save_score(score: PuzzleScore) -> Path:
    """Write the record atomically; raises StorageError."""
    return write_atomic(score_path(), score.to_json())
