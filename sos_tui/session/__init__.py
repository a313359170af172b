"""One game in progress, with no screen: seats, timeline, undo, whose turn; computer moves from a
separate process; the game kept on disk from a background thread.

The Textual app, a network server and a test all drive the same ``GameSession``. Nothing here
imports Textual.
"""

from sos_tui.engine import SeatKind

from .computer import HINT_LEVEL, ComputerFailed, ComputerPool, computer_move
from .keeper import Keeper, StorageStore, Store
from .replay import Replay
from .session import Change, ChangeKind, GameSession, NotYourTurnError
from .source import Action, GameSource
from .timing import OutOfTimeError

__all__ = [
    "HINT_LEVEL", "Action", "Change", "ChangeKind", "ComputerFailed", "ComputerPool", "GameSession",
    "GameSource", "Keeper",
    "NotYourTurnError", "OutOfTimeError", "Replay", "SeatKind", "StorageStore", "Store", "computer_move",
]  # fmt: skip
