"""What a ``state`` after a move costs a client, whole (protocol revision 0 and 1) or as the move
alone (revision 2, ``since``), on the late moves of a 26x26 game: the frame's bytes, and the time
a client takes to read the frame and take it in (``parse_server`` and ``RemoteGame``'s own handling,
which replays a whole record through the engine, or plays the one move on the game it holds).

    .venv/bin/python benchmarks/mirror.py                 # moves 600..675 of a random 26x26 game
    .venv/bin/python benchmarks/mirror.py --size 10 --from 80 --repeats 5

The frames are the server's own (``Room``'s ``Mirrors``, for one client of each revision); the
client is a ``RemoteGame`` with no connection, fed frame after frame as its ``updates`` would.
Each way is timed ``--repeats`` times over all the late moves, in turn; the best run is kept.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from sos_tui.engine import GameRecord, Mode, PlayerInfo
from sos_tui.net.client import RemoteGame
from sos_tui.net.mirrors import Mirrors
from sos_tui.net.protocol import SeatView, StateMessage, parse_server
from sos_tui.net.tokens import TokenStore
from sos_tui.session import GameSession


@dataclass(eq=False)
class Peer:
    """A client as ``Mirrors`` sees it: its revision."""

    minor: int


def frames(size: int, start: int, seed: int) -> tuple[list[str], list[str], str, str]:
    """A random game's late states, as the frames a revision-1 and a revision-2 client get, and
    the whole state each gets first (at move ``start``)."""
    rng = random.Random(seed)
    session = GameSession(GameRecord(size, Mode.GENERAL, (PlayerInfo("Ana"), PlayerInfo("Bo"))))
    session.announce_start()
    mirrors, old, new = Mirrors(), Peer(1), Peer(2)
    seats = (SeatView(PlayerInfo("Ana")), SeatView(PlayerInfo("Bo")))

    def state(change: str, move=None) -> dict:
        message = StateMessage("7f3kq-x9m2c", "playing", size, Mode.GENERAL, session.version,
                               session.state.to_move, change, move, seats, (), 0, session.record)
        return dict(mirrors.frames(message, [old, new]))

    olds, news = [], []
    first = None
    while not session.state.is_over:
        if session.state.move_count == start:
            first = state("join")
        change = session.play(rng.choice(session.state.legal_moves()))
        if first is not None:
            told = state("move", change.move)
            olds.append(told[old])
            news.append(told[new])
    return olds, news, first[old], first[new]


def client_time(first: str, told: list[str], folder: Path, repeats: int) -> tuple[float, RemoteGame]:
    """The best of ``repeats`` runs: seconds to take in every frame of ``told`` after ``first``."""
    best, game = float("inf"), None
    for _ in range(repeats):
        game = RemoteGame("ws://127.0.0.1:7531/7f3kq-x9m2c", "Ana", tokens=TokenStore(folder / "seats.json"))
        game._apply(parse_server(first))
        start = time.perf_counter()
        for frame in told:
            game._apply(parse_server(frame))  # as ``updates`` does, frame by frame
        best = min(best, time.perf_counter() - start)
        assert not game._gap, "a frame did not fit the game held"
    return best, game


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=26)
    parser.add_argument("--from", dest="start", type=int, default=600, help="the first late move (600)")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    olds, news, old_first, new_first = frames(args.size, args.start, args.seed)
    with tempfile.TemporaryDirectory() as folder:
        old_time, old_game = client_time(old_first, olds, Path(folder), args.repeats)
        new_time, new_game = client_time(new_first, news, Path(folder), args.repeats)
    assert old_game.record == new_game.record and old_game.state == new_game.state, "the two ways disagree"
    count = len(olds)
    print(f"{args.size}x{args.size}, moves {args.start + 1} to {args.start + count} of a random game "
          f"(seed {args.seed}); Python {sys.version.split()[0]}; best of {args.repeats} runs\n")
    header = f"{'state after a move':>24} | {'bytes (median)':>14} {'max':>7} | {'client us/frame':>15}"
    print(header)
    print("-" * len(header))
    rows = (("whole (revision 0, 1)", olds, old_time), ("move alone (rev. 2)", news, new_time))
    medians = []
    for label, told, seconds in rows:
        sizes = [len(frame.encode()) for frame in told]
        medians.append(statistics.median(sizes))
        print(f"{label:>24} | {medians[-1]:>14,.0f} {max(sizes):>7,} | {seconds / count * 1e6:>15,.0f}")
    print(f"\nBoth clients end with the same record and state. Bytes: {medians[0] / medians[1]:.0f}x fewer; "
          f"client time: {old_time / new_time:.0f}x less.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
