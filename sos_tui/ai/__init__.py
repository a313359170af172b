"""Computer players for SOS: pure Python, importing only the engine and the standard library.

>>> from sos_tui.engine import GameState
>>> from sos_tui.ai import computer_player, LEVELS
>>> list(LEVELS)
['easy', 'medium', 'hard', 'expert']
>>> state = GameState.from_moves(["S a1", "O b1"], size=3)
>>> str(computer_player("medium", seed=1).choose_move(state))
'S c1'
"""

from .levels import LEVELS
from .players import ComputerPlayer, choose_move, computer_player

__all__ = ["LEVELS", "ComputerPlayer", "choose_move", "computer_player"]
