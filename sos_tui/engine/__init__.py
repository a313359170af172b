"""The SOS engine: immutable rules, notation and game records. Imports nothing else of sos_tui."""

from .record import (
    COMPUTER_LEVELS,
    FORMAT,
    MAX_NAME,
    MAX_PLAYERS,
    VERSION,
    GameRecord,
    PlayerInfo,
    RecordError,
    check_name,
    check_names,
    ending_text,
    transcript,
)
from .rules import (
    COLUMNS,
    DROPS,
    LETTERS,
    MAX_SIZE,
    MIN_PLAYERS,
    MIN_SIZE,
    CellTakenError,
    Drop,
    Ending,
    EndingError,
    GameState,
    IllegalMoveError,
    InvalidMoveError,
    Mode,
    Move,
    Outcome,
    SosLine,
    Termination,
    cell_name,
    parse_cell,
)
from .text import printable, shorten

__all__ = [
    "COLUMNS", "COMPUTER_LEVELS", "DROPS", "FORMAT", "LETTERS", "MAX_NAME", "MAX_PLAYERS", "MAX_SIZE",
    "MIN_PLAYERS", "MIN_SIZE", "VERSION", "CellTakenError", "Drop", "Ending", "EndingError", "GameRecord",
    "GameState", "IllegalMoveError", "InvalidMoveError", "Mode", "Move", "Outcome", "PlayerInfo",
    "RecordError", "SosLine", "Termination", "cell_name", "check_name", "check_names", "ending_text",
    "parse_cell", "printable", "shorten", "transcript",
]  # fmt: skip
