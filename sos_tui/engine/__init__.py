"""The SOS engine: immutable rules, notation and game records. Imports nothing else of sos_tui."""

from .record import FORMAT, VERSION, GameRecord, PlayerInfo, RecordError, transcript
from .rules import (
    COLUMNS,
    LETTERS,
    MAX_SIZE,
    MIN_PLAYERS,
    MIN_SIZE,
    GameState,
    IllegalMoveError,
    InvalidMoveError,
    Mode,
    Move,
    SosLine,
    cell_name,
    parse_cell,
)

__all__ = [
    "COLUMNS", "FORMAT", "LETTERS", "MAX_SIZE", "MIN_PLAYERS", "MIN_SIZE", "VERSION",
    "GameRecord", "GameState", "IllegalMoveError", "InvalidMoveError", "Mode", "Move",
    "PlayerInfo", "RecordError", "SosLine", "cell_name", "parse_cell", "transcript",
]  # fmt: skip
