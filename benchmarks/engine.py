"""Benchmark: moves per second through GameState.play, beside a naive rescan-the-board baseline,
and beside the engine of another git revision.

    .venv/bin/python benchmarks/engine.py                      # engine vs naive, 5x5 10x10 20x20
    .venv/bin/python benchmarks/engine.py --against HEAD~1     # ... and vs HEAD~1's engine on 10x10

Each game's moves are made in advance from a seeded random permutation of the cells and random
letters, so only the playing is timed. Every implementation plays the very same games, and their
final scores are checked against each other before anything is timed; their timed runs are taken
in turn, so that a load that comes and goes falls on all of them alike.

The baseline is what a first attempt often looks like: a mutable list for the board, and after
every move a rescan of every triple on the board to count the S-O-S lines. Its cost per move
grows with the number of cells (N^2); the engine's should not.

``--against REV`` extracts ``sos_tui/engine`` of git revision REV (``git archive``) into a temporary
folder and imports it under another name, so both engines live in this one process. They play the
same 10x10 games (final scores, turn and lines must agree), timed in alternating rounds (A B, then
B A, ...) so that a load that comes and goes falls on both alike; the verdict is the median of the
rounds' ratios. Every rate is also given per yardstick (``benchmarks/yardstick.py``, timed in the
same run): moves played in the time the fixed workload takes, a figure that survives a busy machine.
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import random
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from types import ModuleType

from yardstick import Yardstick

import sos_tui.engine
from sos_tui.engine import GameState, Move

SIZES = (5, 10, 20)
AGAINST_SIZE = 10
TARGET_MOVES_PER_SECOND = 100_000  # through play() on 10x10
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
REPO = Path(__file__).resolve().parent.parent

Game = list[Move]


def make_games(size: int, count: int, seed: int) -> list[Game]:
    """``count`` full games on a ``size`` board: every cell once, in a random order, random letters."""
    rng = random.Random(f"{seed}-{size}")
    cells = [(r, c) for r in range(size) for c in range(size)]
    games = []
    for _ in range(count):
        order = cells[:]
        rng.shuffle(order)
        games.append([Move(r, c, rng.choice("SO")) for r, c in order])
    return games


# -- the two implementations, each playing one whole game ------------------------------------------


@cache
def empty_board(size: int) -> GameState:
    return GameState.new(size=size, mode="general", players=2)  # immutable, so one per size will do


def play_engine(size: int, game: Game) -> tuple[int, ...]:
    state = empty_board(size)
    for move in game:
        state = state.play(move)
    return state.scores


def play_naive(size: int, game: Game) -> tuple[int, ...]:
    board = [["."] * size for _ in range(size)]
    scores = [0, 0]
    player = 0
    found = 0
    for move in game:
        if board[move.row][move.col] != ".":
            raise ValueError(f"{move}: cell taken")
        board[move.row][move.col] = move.letter
        total = 0  # rescan every triple on the board
        for r in range(size):
            for c in range(size):
                for dr, dc in DIRECTIONS:
                    r2, c2 = r + 2 * dr, c + 2 * dc
                    if (0 <= r2 < size and 0 <= c2 < size and board[r][c] == "S"
                            and board[r + dr][c + dc] == "O" and board[r2][c2] == "S"):
                        total += 1
        gained, found = total - found, total
        if gained:
            scores[player] += gained
        else:
            player = 1 - player
    return tuple(scores)


# -- another revision's engine, in this same process ----------------------------------------------


def load_engine(rev: str, repo: Path = REPO) -> ModuleType:
    """``sos_tui/engine`` as it is in git revision ``rev``, imported as a package of its own name.

    The engine imports only itself (relatively), so the copy runs beside ``sos_tui.engine`` without
    touching it. Raises ValueError when git cannot give that folder at ``rev``.
    """
    try:
        git = ["git", "-C", str(repo)]
        sha = subprocess.run([*git, "rev-parse", "--verify", "--short", f"{rev}^{{commit}}"],
                             capture_output=True, text=True, check=True).stdout.strip()
        tar = subprocess.run([*git, "archive", "--format=tar", sha, "sos_tui/engine"],
                             capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        detail = getattr(error, "stderr", b"") or b""
        detail = detail.decode(errors="replace") if isinstance(detail, bytes) else detail
        raise ValueError(f"cannot extract sos_tui/engine at {rev!r}: {detail.strip() or error}") from None
    name = "sos_engine_at_" + re.sub(r"\W", "_", sha)
    if name in sys.modules:
        return sys.modules[name]
    with tempfile.TemporaryDirectory() as folder:
        with tarfile.open(fileobj=io.BytesIO(tar)) as archive:
            archive.extractall(folder, filter="data")
        package = Path(folder) / "sos_tui" / "engine"
        spec = importlib.util.spec_from_file_location(name, package / "__init__.py",
                                                      submodule_search_locations=[str(package)])
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)  # imports every submodule now, while the files exist
        except BaseException:
            for key in [key for key in sys.modules if key == name or key.startswith(name + ".")]:
                del sys.modules[key]
            raise
    module.revision = sha
    return module


def engine_player(engine: ModuleType, size: int) -> Callable[[Sequence], object]:
    """Play a game of ``(row, col, letter)`` moves (made into ``engine.Move`` values by
    ``engine_games``) through ``engine.GameState.play``; returns the final state."""
    empty = engine.GameState.new(size=size, mode="general", players=2)

    def play(game: Sequence) -> object:
        state = empty
        for move in game:
            state = state.play(move)
        return state

    return play


def engine_games(engine: ModuleType, games: Sequence[Game]) -> list[list]:
    return [[engine.Move(m.row, m.col, m.letter) for m in game] for game in games]


def ending(state) -> tuple:
    """What two engines must agree on after a game: scores, turn, end, board and every line."""
    return (state.scores, state.to_move, state.is_over, state.board,
            [(line.player, line.cells, line.move_index) for line in state.lines])


def check_agree(engines: dict[str, ModuleType], size: int, games: Sequence[Game]) -> None:
    """Raise AssertionError naming the first game on which the engines end differently."""
    endings = {label: [ending(engine_player(engine, size)(game)) for game in engine_games(engine, games)]
               for label, engine in engines.items()}
    (first, expected), *others = endings.items()
    for label, got in others:
        for number, (want, have) in enumerate(zip(expected, got, strict=True)):
            if want != have:
                raise AssertionError(f"game {number}: {first} ends {want[:3]}, {label} ends {have[:3]}")


def race(engines: dict[str, ModuleType], size: int, games: Sequence[Game],
         rounds: int) -> dict[str, list[float]]:
    """Moves per second of each engine in each round; every round plays all ``games`` with each
    engine, the order of the engines turning round every round."""
    players = {label: (engine_player(engine, size), engine_games(engine, games))
               for label, engine in engines.items()}
    moves = sum(len(game) for game in games)
    rates: dict[str, list[float]] = {label: [] for label in engines}
    labels = list(engines)
    for number in range(rounds):
        for label in labels if number % 2 == 0 else labels[::-1]:
            play, own_games = players[label]
            start = time.perf_counter()
            for game in own_games:
                play(game)
            rates[label].append(moves / (time.perf_counter() - start))
    return rates


# -- timing ---------------------------------------------------------------------------------------


def moves_per_second(play: Callable[[int, Game], object], size: int, games: Sequence[Game],
                     min_time: float) -> float:
    """One timed run: play games (cycling through them) for at least ``min_time``."""
    moves = 0
    start = time.perf_counter()
    elapsed = 0.0
    i = 0
    while elapsed < min_time:
        game = games[i % len(games)]
        play(size, game)
        moves += len(game)
        i += 1
        elapsed = time.perf_counter() - start
    return moves / elapsed


def best_rates(plays: Sequence[Callable[[int, Game], object]], size: int, games: Sequence[Game],
               min_time: float, repeats: int) -> list[float]:
    """Each of ``plays``' best of ``repeats`` runs, the runs taken in turn (and in turned-round
    order every other repeat) so that a load that comes and goes falls on all alike."""
    best = [0.0] * len(plays)
    order = list(range(len(plays)))
    for repeat in range(repeats):
        for k in order if repeat % 2 == 0 else order[::-1]:
            best[k] = max(best[k], moves_per_second(plays[k], size, games, min_time))
    return best


def against(rev: str, other: ModuleType, args: argparse.Namespace, stick: Yardstick) -> float:
    """Race the working tree's engine against ``other``, ``rev``'s, on 10x10; print the table and
    return the ratio. Raises AssertionError if the two end a game differently."""
    engines = {"this tree": sos_tui.engine, rev: other}
    games = make_games(AGAINST_SIZE, args.games, args.seed)
    check_agree(engines, AGAINST_SIZE, games)
    rates = race(engines, AGAINST_SIZE, games, args.rounds)
    stick.again()
    ratios = [new / old for new, old in zip(*rates.values(), strict=True)]
    ratio = statistics.median(ratios)
    moves = sum(len(game) for game in games)
    print(f"\nThis tree's engine against {rev} ({other.revision}) on {AGAINST_SIZE}x{AGAINST_SIZE}: "
          f"the same {len(games)} games ({moves:,} moves), final scores, turns and lines identical;")
    print(f"{args.rounds} rounds, each timing both engines on all of them, in alternating order\n")
    header = f"{'engine':>14} | {'best moves/s':>12} {'median':>10} | {'moves/yardstick':>15}"
    print(header)
    print("-" * len(header))
    for label, got in rates.items():
        print(f"{label:>14} | {max(got):>12,.0f} {statistics.median(got):>10,.0f} | "
              f"{max(got) * stick.seconds:>15,.0f}")
    best = max(rates["this tree"]) / max(rates[rev])
    print(f"\nSpeed-up of this tree over {rev}: {ratio:.2f}x (median of the {args.rounds} rounds' ratios, "
          f"from {min(ratios):.2f}x to {max(ratios):.2f}x; best against best {best:.2f}x)")
    return ratio


def naive_table(args: argparse.Namespace, stick: Yardstick) -> bool:
    """The engine beside the naive baseline on every size; True when the 10x10 target is met."""
    print(f"Engine beside the naive baseline: best of {args.repeats} runs of >= {args.time:g} s each, "
          f"taken in turn\n")
    rows = []
    for size in SIZES:
        games = make_games(size, args.games, args.seed)
        for game in games[:20]:  # the two implementations must agree before either is timed
            assert play_engine(size, game) == play_naive(size, game), "engine and baseline disagree"
        engine, naive = best_rates([play_engine, play_naive], size, games, args.time, args.repeats)
        rows.append((size, engine, naive))
    stick.again()

    header = (f"{'board':>6} | {'engine moves/s':>14} {'us/move':>8} {'/yardstick':>10} | "
              f"{'naive moves/s':>13} {'us/move':>8} {'/yardstick':>10} | {'speed-up':>8}")
    print(header)
    print("-" * len(header))
    per = stick.seconds  # moves/s times seconds per yardstick: moves per yardstick
    for size, engine, naive in rows:
        print(f"{f'{size}x{size}':>6} | {engine:>14,.0f} {1e6 / engine:>8.2f} {engine * per:>10,.0f} | "
              f"{naive:>13,.0f} {1e6 / naive:>8.1f} {naive * per:>10,.0f} | {engine / naive:>7.0f}x")
    print("(/yardstick: moves played in the time the yardstick takes; it stays put when the machine is busy)")

    (_, small_engine, small_naive), (_, large_engine, large_naive) = rows[0], rows[-1]
    print(f"\nCost per move, {SIZES[-1]}x{SIZES[-1]} vs {SIZES[0]}x{SIZES[0]}: "
          f"engine {small_engine / large_engine:.2f}x, naive {small_naive / large_naive:.1f}x")
    ten = dict((size, engine) for size, engine, _ in rows)[10]
    verdict = "met" if ten >= TARGET_MOVES_PER_SECOND else "MISSED"
    print(f"Target >= {TARGET_MOVES_PER_SECOND:,} moves/s through play() on 10x10: {verdict} ({ten:,.0f})")
    return ten >= TARGET_MOVES_PER_SECOND


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2024, help="seed for the random games (default 2024)")
    parser.add_argument("--games", type=int, default=200, help="games made in advance per board size")
    parser.add_argument("--time", type=float, default=0.5, help="seconds per timed run (default 0.5)")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per measurement; best is kept")
    parser.add_argument("--against", metavar="REV",
                        help="also race the engine of git revision REV on 10x10, in this same process")
    parser.add_argument("--rounds", type=int, default=15, help="rounds of the --against race (default 15)")
    parser.add_argument("--expect", type=float, metavar="RATIO",
                        help="with --against: exit 1 unless this tree is at least RATIO times as fast")
    parser.add_argument("--only-against", action="store_true",
                        help="with --against: skip the table against the naive baseline")
    args = parser.parse_args(argv)
    if (args.expect is not None or args.only_against) and not args.against:
        parser.error("--expect and --only-against need --against REV")

    other = None
    if args.against:
        try:
            other = load_engine(args.against)
        except ValueError as error:
            print(f"engine.py: {error}", file=sys.stderr)
            return 2
    stick = Yardstick()
    print(f"SOS engine benchmark: general mode, 2 players, random full games, seed {args.seed}")
    print(f"Python {sys.version.split()[0]}; {stick}")

    failed = False
    if not args.only_against:
        failed = not naive_table(args, stick)
    if other is not None:
        try:
            ratio = against(args.against, other, args, stick)
        except AssertionError as error:
            print(f"engine.py: the two engines disagree, so neither is timed: {error}", file=sys.stderr)
            return 1
        if args.expect is not None:
            verdict = "met" if ratio >= args.expect else "MISSED"
            print(f"Expected >= {args.expect:g}x: {verdict}")
            failed = failed or ratio < args.expect
    print(f"\n{stick} (taken again at the end)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
