"""Where the games A lost in a ladder record were lost: before or after A could solve them exactly.

    .venv/bin/python benchmarks/losses.py [RECORD] [--from 21] [--max-nodes 2000000]

RECORD is a file of ``benchmarks/ladder.py --record`` (default: expert against hard, 8x8
general). Each game A lost is played again (with fixed budgets a game depends only on its
number), and A's positions from ``--from`` empty cells down, with nothing on offer, are solved
exactly until one solves within ``--max-nodes``. For each game it prints A's margin with 27
empty cells left, the first position solved (empty cells, safe moves) with the final margin A
could still force there, and the final margin A got. A game whose forced margin there is
already a loss was lost before A's exact endgame could see it.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from sos_tui.ai import LEVELS
from sos_tui.ai.arena import Match, play_game
from sos_tui.ai.bitboard import grid, safe_sets, scoring
from sos_tui.ai.budget import OutOfBudget
from sos_tui.ai.players import ComputerPlayer
from sos_tui.ai.solver import Solver
from sos_tui.engine import GameState

RECORD = Path(__file__).with_name("ladder") / "ba20bfb" / "expert-hard-8-general-s1.jsonl"  # earlier code


def states_of(match: Match, number: int) -> tuple[list[GameState], int]:
    """Every position of game ``number`` of ``match`` (played by ``arena.play_game`` itself),
    the last one the finished game, and A's seat."""
    seen: list[GameState] = []
    choose = ComputerPlayer.choose_move

    def watched(player, state):
        move = choose(player, state)
        seen.extend((state, state.play(move)))
        return move

    ComputerPlayer.choose_move = watched
    try:
        play_game(match, number)
    finally:
        ComputerPlayer.choose_move = choose
    return [*seen[::2], seen[-1]], 0 if number % 2 == 0 else 1


def margin(state: GameState, seat: int) -> int:
    return state.scores[seat] - state.scores[1 - seat]


def quiet_and_safe(state: GameState) -> tuple[bool, int]:
    """Whether nothing is on offer, and the number of safe moves."""
    g = grid(state.size)
    s, o = g.masks(state.board)
    empty = g.empty(s, o)
    safe_s, safe_o = safe_sets(s, o, empty, g.dirs)
    return not scoring(s, o, empty, g.dirs), safe_s.bit_count() + safe_o.bit_count()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("record", nargs="?", type=Path, default=RECORD)
    parser.add_argument("--from", dest="start", type=int, default=21, help="solve from this many empty cells")
    parser.add_argument("--max-nodes", type=int, default=2_000_000)
    args = parser.parse_args(argv)
    name = re.fullmatch(r"(\w+)-(\w+)-(\d+)-(\w+)-s(\d+)", args.record.stem)
    if name is None:
        parser.error(f"{args.record}: not named as a record of benchmarks/ladder.py (A-B-SIZE-MODE-sSEED)")
    level_a, level_b, size, mode, seed = name.groups()
    if not {level_a, level_b} <= set(LEVELS):
        parser.error(f"{args.record}: levels are {', '.join(LEVELS)}")
    try:
        games = [json.loads(line) for line in args.record.read_text().splitlines()[1:]]
    except (OSError, ValueError) as error:
        parser.error(f"{args.record}: {error}")
    lost = {game["number"]: game["scores"][0] - game["scores"][1] for game in games if game["result"] == 0}
    if not lost:
        print(f"{level_a} lost none of the {len(games)} games")
        return 0
    match = Match(level_a, level_b, size=int(size), mode=mode, games=max(lost) + 1, seed=int(seed))
    print(f"{len(lost)} of {len(games)} games lost by {level_a}; solving {level_a}'s positions "
          f"from {args.start} empty cells, within {args.max_nodes:,} nodes")
    already = 0
    for number, final in sorted(lost.items()):
        states, a = states_of(match, number)
        at_27 = next(margin(state, a) for state in states if state.empty_cells <= 27)
        found = "none solved"
        for state in states:
            if state.to_move != a or state.empty_cells > args.start:
                continue
            quiet, safe = quiet_and_safe(state)
            if not quiet:
                continue
            try:
                value = Solver(state.size, state.mode, None, args.max_nodes).value(state.board)
            except OutOfBudget:
                continue
            forced = margin(state, a) + value
            found = f"first solved at {state.empty_cells} empty cells, {safe} safe moves: forces {forced:+d}"
            already += forced < 0
            break
        print(f"game {number}: margin {at_27:+d} at 27 empty cells; {found}; final {final:+d}", flush=True)
    print(f"{already} of {len(lost)} lost games were already lost at the first position solved")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
