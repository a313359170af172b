"""The SOS engine: immutable rules, notation and game records. Imports nothing else of sos_tui."""

from .record import FORMAT, MAX_PLAYERS, VERSION, GameRecord, RecordError, ending_text, transcript
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
from .seat import (
    COMPUTER_LEVELS,
    ENGINE_PREFIX,
    MAX_NAME,
    RECORDED_KINDS,
    PlayerInfo,
    Seat,
    SeatError,
    SeatKind,
    check_name,
    check_names,
    engine_command,
)
from .text import printable, shorten

__all__ = [
    "COLUMNS", "COMPUTER_LEVELS", "DROPS", "ENGINE_PREFIX", "FORMAT", "LETTERS", "MAX_NAME", "MAX_PLAYERS",
    "MAX_SIZE", "MIN_PLAYERS", "MIN_SIZE", "RECORDED_KINDS", "VERSION", "CellTakenError", "Drop", "Ending",
    "EndingError", "GameRecord", "GameState", "IllegalMoveError", "InvalidMoveError", "Mode", "Move",
    "Outcome", "PlayerInfo", "RecordError", "Seat", "SeatError", "SeatKind", "SosLine", "Termination",
    "cell_name", "check_name", "check_names", "ending_text", "engine_command", "parse_cell", "printable",
    "shorten", "transcript",
]  # fmt: skip
