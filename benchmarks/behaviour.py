"""What a level plays, as a short hash: the key of the ladder's records (``ladder.py --record``).

    .venv/bin/python benchmarks/behaviour.py [LEVEL ...]     # prints each level's fingerprint

A level's *behaviour fingerprint* is a hash of the moves it chooses (untimed, seed 1) on a fixed
set of positions: positions of games between two outside-style bots (``ai/outside.py``, which
share no code with our players), taken at fixed numbers of empty cells on 3x3 to 8x8, in both
modes. They reach every strategy of the pipeline: the opening book, the small-board solve, the
greedy players, the exact endgame (general and simple), the mirror, the safe-move game and the
heuristic search. So a comment, a docstring or a faster implementation leaves a record's key as
it was, and a change of what a level plays on these positions changes it. (A change that shows
on none of them goes unseen here; ``ladder.py --carry-over`` replays recorded games, the
stronger check.)

The fingerprint of a level is worked out once per version of the sources and kept in
``$XDG_CACHE_HOME/sos-tui/behaviour/`` (by a hash of the sources: a cache, never the key).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from functools import cache
from pathlib import Path
from random import Random

import sos_tui
from sos_tui.ai.arena import player
from sos_tui.ai.outside import Negamax, SafeGreedy
from sos_tui.engine import GameState

PACKAGE = Path(sos_tui.__file__).resolve().parent  # the package that plays
# (size, mode, game seed, the numbers of empty cells at which a position is taken)
GAMES = [
    (3, "general", 1, (9, 7, 5)), (3, "simple", 2, (8, 6)),
    (4, "general", 3, (15, 12, 9)), (4, "simple", 4, (16, 13, 10)),
    (5, "general", 5, (20, 12)), (5, "simple", 6, (24, 14)),
    (6, "general", 7, (33, 24, 17, 14, 11)), (6, "simple", 8, (35, 26, 18, 12)),
    (6, "general", 9, (30, 20, 16, 12)), (6, "simple", 10, (36, 30, 20)),
    (8, "general", 11, (60, 40, 13)), (8, "simple", 12, (56, 30)),
]
# positions of random games (SOS on offer, sacrifices, wins to take), as above
RANDOM = [(4, "general", 13, (10,)), (5, "simple", 14, (15,)), (6, "general", 15, (24, 12)),
          (6, "simple", 16, (28,)), (8, "general", 17, (40,))]


@cache
def positions() -> tuple[GameState, ...]:
    """The fixed positions: a safe-greedy bot against a depth-2 negamax, and random games, each
    game seeded."""
    found = []
    for games, bots in ((GAMES, lambda seed: (SafeGreedy(seed), Negamax(2, seed))), (RANDOM, None)):
        for size, mode, seed, empties in games:
            state, rng = GameState.new(size, mode, 2), Random(seed)
            players = bots(seed) if bots else None
            while not state.is_over and state.empty_cells >= min(empties):
                if state.empty_cells in empties:
                    found.append(state)
                state = state.play(players[state.to_move].choose_move(state) if players
                                   else rng.choice(state.legal_moves()))
    return tuple(found)


def sources() -> str:
    """A hash of every Python file of the package: the cache's key, not the fingerprint."""
    digest = hashlib.sha256()
    for path in sorted(PACKAGE.rglob("*.py")):
        digest.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def compute(level: str) -> str:
    """The hash of the moves ``level`` plays (seed 1, no time limit) on ``positions()``."""
    me = player(level, 1, None)
    digest = hashlib.sha256(level.encode())
    for state in positions():
        digest.update(f"|{state.board}{state.to_move}{state.mode.value}:{me.choose_move(state)}".encode())
    return digest.hexdigest()[:16]


def fingerprint(level: str) -> str:
    """``compute(level)``, from the cache when these sources have been fingerprinted before."""
    folder = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "sos-tui" / "behaviour"
    path = folder / f"{sources()}.json"
    try:
        known = json.loads(path.read_text())
    except (OSError, ValueError):
        known = {}
    if level not in known:
        known[level] = compute(level)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            partial = path.with_suffix(f".{os.getpid()}")
            partial.write_text(json.dumps(known))
            partial.replace(path)  # whole, even with another run writing beside it
        except OSError:
            pass  # no cache: worked out again next time
    return known[level]


if __name__ == "__main__":
    from sos_tui.ai import LEVELS

    for name in sys.argv[1:] or LEVELS:
        print(name, fingerprint(name), flush=True)
