"""Which autosaves go: the one rule for pruning them, which asks the history what it holds.

Kept apart from ``files`` because it reads the history, and the history's own files are written
with ``atomic``: the game files never import the history.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Collection

from .errors import HistoryError, StorageError
from .files import SaveInfo, delete_save, list_autosaves
from .history import History
from .paths import history_db_path

__all__ = ["KEEP_AUTOSAVES", "KEEP_DAYS", "prune_autosaves"]

log = logging.getLogger(__name__)

KEEP_AUTOSAVES = 10
KEEP_DAYS = 30


def prune_autosaves(keep: int = KEEP_AUTOSAVES, days: float = KEEP_DAYS, spare: Collection[str] = ()) -> int:
    """Delete the autosaves nobody will continue; run when the app starts. The rule, in one place:

    - an unfinished game's autosave is kept while it is one of the ``keep`` newest unfinished
      ones (the newest always, even with ``keep=0``), younger than ``days`` days, or a game in
      progress in this app (its game id in ``spare``); an abandoned game older than that goes;
    - a finished game's autosave goes only once that game, with the same moves, is in the
      history: until then it may be the last copy of the game (the history and the ``pending/``
      outbox could not be written), so it stays;
    - a second file of the same game (an older copy under another name) goes;
    - a file that does not load stays, for a curious player to inspect.

    Returns how many files were deleted; a file that cannot be deleted is skipped."""
    old = time.time() - days * 24 * 3600
    seen: set[str] = set()
    doomed: list[SaveInfo] = []
    finished: list[SaveInfo] = []
    for info in list_autosaves():  # newest first
        if not info.ok or info.record is None:
            continue
        game_id = info.record.game_id
        if game_id in seen:
            doomed.append(info)
            continue
        seen.add(game_id)
        if info.finished:
            finished.append(info)
        elif (
            len(seen) - len(finished) > max(keep, 1)
            and info.modified.timestamp() < old
            and game_id not in spare
        ):
            doomed.append(info)
    doomed += _in_history(finished)
    deleted = 0
    for info in doomed:
        try:
            deleted += delete_save(info.path)
        except StorageError as error:
            log.warning("could not prune an autosave: %s", error)
    return deleted


def _in_history(finished: list[SaveInfo]) -> list[SaveInfo]:
    """The finished games among ``finished`` that the history holds with the same moves; none
    when the history cannot be read (or does not exist: looking does not create it)."""
    if not finished or not history_db_path().exists():
        return []
    try:
        with History() as history:
            recorded = {entry.game_id: entry for entry in history.games()}
            return [
                info
                for info in finished
                if info.record.game_id in recorded
                and _moves_of(recorded[info.record.game_id]) == info.record.moves
            ]
    except (HistoryError, StorageError) as error:
        log.warning("could not read the history to prune autosaves: %s", error)
        return []


def _moves_of(entry) -> tuple:
    try:
        return entry.record.moves
    except (ValueError, RecursionError):  # a damaged row: nothing matches it
        return ()
