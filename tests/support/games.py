"""Games the tests share: hand-checked records, positions and random games (data, no tests).

Test modules take these from here and never from each other."""

from __future__ import annotations

import hashlib
import os
import random
import time

from sos_tui.engine import GameRecord, GameState, Mode, Move, PlayerInfo
from sos_tui.engine.rules import triples
from sos_tui.storage import save_record, saves_dir

ANA = PlayerInfo("Ana")
BO = PlayerInfo("Bo")
EASY = PlayerInfo("Computer", "computer", "easy")
HARD = PlayerInfo("Deep Blue", "computer", "hard")

# Hand-checked games on a 3x3 board (seat 1 moves first):
# P1 writes four corner S's with P2, then O b2 scores both diagonals and P1 keeps scoring: 6-0, one turn of 6.
P1_SWEEP = ["S a1", "S c3", "S c1", "S a3", "O b2", "O b1", "O b3", "O a2", "O c2"]
# P1 passes the turn with S b1, then P2 scores 2 + 1 + 1 + 1 in one turn: 0-5.
P2_SWEEP = ["S a1", "S c3", "S c1", "S a3", "S b1", "O b2", "O b3", "O a2", "O c2"]
# Simple mode, first SOS wins: P1 completes a1-b1-c1 (1-0); P2 completes it (0-1).
SIMPLE_P1 = ["S a1", "S c1", "O b1"]
SIMPLE_P2 = ["S a1", "S c1", "S a3", "O b1"]
# A 4x4 general game drawn 2-2, no turn scoring more than 1.
DRAW_4X4 = ["S b1", "O d2", "O b3", "S a4", "S a1", "S b2", "S b4", "O c4", "S a3", "S d3", "S d1", "S c1",
            "O d4", "S c2", "S a2", "S c3"]


def make_record(moves, size=3, mode="general", players=(ANA, BO), when="2026-01-01T10:00:00+00:00",
                started=None, game_id=None) -> GameRecord:
    """A record whose game id follows from its arguments, so the same call makes the same game."""
    state = GameState.from_moves(moves, size, mode, len(players))
    key = repr((moves, size, mode, players, when, started)).encode()
    game_id = game_id or hashlib.sha256(key).hexdigest()[:32]
    return GameRecord(size, Mode(mode), tuple(players), state.moves, started or when, when, game_id)


def sample_games() -> list[GameRecord]:
    """Five finished games, oldest first; the statistics tests of test_storage.py are worked out by
    hand from them.

    From Ana's side: human win 6-0, easy loss 0-5, hard win 1-0 (Ana in seat 2), easy win 1-0,
    human draw 2-2 on 4x4.
    """
    day = "2026-01-0{}T10:00:00+00:00".format
    return [
        make_record(P1_SWEEP, players=(ANA, BO), when=day(1)),
        make_record(P2_SWEEP, players=(ANA, EASY), when=day(2)),
        make_record(SIMPLE_P2, mode="simple", players=(HARD, ANA), when=day(3)),
        make_record(SIMPLE_P1, mode="simple", players=(ANA, EASY), when=day(4)),
        make_record(DRAW_4X4, size=4, players=(ANA, BO), when=day(5)),
    ]


def game(moves, players=(ANA, BO), size=3, mode=Mode.GENERAL, day=1) -> GameRecord:
    state = GameState.from_moves(moves, size, mode, len(players))
    stamp = f"2026-01-{day:02d}T12:00:00+00:00"
    return GameRecord(size, mode, tuple(players), state.moves, stamp, stamp)


def two_saves() -> tuple[GameRecord, GameRecord]:
    """An older finished game and a newer unfinished one, saved with distinct times."""
    older, newer = game(P1_SWEEP, day=1), game(P2_SWEEP[:4], players=(ANA, EASY), day=2)
    now = time.time()
    for record, age, name in ((older, 3600, "older.json"), (newer, 60, "newer.json")):
        path = save_record(record, saves_dir() / name)
        os.utime(path, (now - age, now - age))
    return older, newer


# A whole 3x3 general game: Ana scores row 1; Bo then chains five SOSs and wins 5 to 1.
GAME = [(0, 0, "S"), (0, 1, "O"), (0, 2, "S"), (1, 1, "O"), (2, 2, "S"), (2, 0, "S"), (2, 1, "O"),
        (1, 0, "O"), (1, 2, "O")]
GAME_KEYS = ["s", "right", "o", "right", "s", "down", "left", "o", "down", "right", "s", "left", "left",
             "s", "right", "o", "up", "left", "o", "right", "right", "o"]


def position(rows: list[str], mode: str = "general", players: int = 2, to_move: int = 0) -> GameState:
    """A state with these letters on the board, played alternately without scoring (order: row-major)."""
    size = len(rows)
    letters = [(r, c, ch) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "."]
    state = GameState.new(size, mode, players)
    for r, c, ch in letters:
        state = state.play(Move(r, c, ch))
    assert sum(state.scores) == 0, "test positions must not contain an SOS"
    assert state.to_move == to_move, f"position has player {state.to_move} to move"
    return state


def random_game(size: int, mode: str, seed: int, moves: int | None = None,
                careful: bool = False) -> GameState:
    """Random legal moves; ``careful``: a move that leaves no SOS on offer while there is one
    (so a simple game lasts into its endgame)."""
    rng = random.Random(seed)
    state = GameState.new(size, mode)
    while not state.is_over and (moves is None or state.move_count < moves):
        options = state.legal_moves()
        if careful:
            quiet = [m for m in options if not state.completes(m) and not _offers(state.play(m))]
            options = quiet or options
        state = state.play(rng.choice(options))
    return state


def _offers(state: GameState) -> bool:
    return not state.is_over and any(state.completes(m) for m in state.legal_moves())


THREATS = ("S.S", "SO.", ".OS")  # two letters of an SOS, the third cell empty (either way round)


def lines(size: int) -> list[tuple[int, int, int]]:
    """Every straight triple of cell indexes (first, middle, last), from the engine's table."""
    return [(a, m, b) for m, row in enumerate(triples(size).for_o) for a, b, _ in row]


def threats_made(board: str, size: int, cell: int, letter: str) -> int:
    """Naive reference: the threats through ``cell`` once ``letter`` is written there."""
    after = board[:cell] + letter + board[cell + 1:]
    return sum(after[a] + after[m] + after[b] in THREATS for a, m, b in lines(size) if cell in (a, m, b))
