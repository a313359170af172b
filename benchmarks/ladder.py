"""The ladder rows of docs/ai-results.md (and docs/ai-changelog.md): each level against the one below.

    .venv/bin/python benchmarks/ladder.py [--games 200] [--seed 1] [--jobs 1] [--record DIR] [--carry-over K]
                                          [ROW ...]

A ROW is ``A:B:SIZE:MODE`` (default: the nine ladder rows, medium:easy:6:general ...).
Each row is printed as soon as its games are played; the games are those of
``sos-tui arena A B --size SIZE --mode MODE --games G --seed S``.

With ``--record DIR`` every finished game is appended to ``DIR/A-B-SIZE-MODE-sS.jsonl`` and a
later run plays only the games not yet there, so a row of several hours can be played in
parts (with fixed budgets a game depends only on its number). The file's first line holds the
*behaviour fingerprints* of A and B (``behaviour.py``: a hash of the moves each plays on a fixed
set of positions), so a comment or a faster implementation keeps the record, and a run whose
levels play otherwise refuses to add to it. With ``--carry-over K`` it first plays K of the
recorded games again (spread over the record), and goes on with the record only if every one
ends exactly as recorded.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from behaviour import fingerprint

from sos_tui.ai.arena import GameProcessDied, GameResult, Match, Tally, run

ROWS = [f"{a}:{b}:{board}" for a, b in (("medium", "easy"), ("hard", "medium"), ("expert", "hard"))
        for board in ("6:general", "6:simple", "8:general")]
def plays(match: Match) -> dict[str, str]:
    """What keys a record: the behaviour fingerprint of each of the match's levels."""
    return {level: fingerprint(level) for level in (match.level_a, match.level_b)}


def recorded(path: Path, code: dict[str, str]) -> list[GameResult]:
    """The games already in ``path`` (creating it, headed by ``code``, if it is new)."""
    if not path.exists():
        path.write_text(json.dumps({"plays": code}) + "\n")
        return []
    text = path.read_text()
    if not text.endswith("\n"):  # a run was stopped while it wrote a game: that game is played again
        text = text[: text.rfind("\n") + 1]
        path.write_text(text)
    header, *lines = text.splitlines()
    if (theirs := json.loads(header).get("plays")) != code:
        sys.exit(f"{path}: recorded with other code (playing {theirs}, now {code}); move it away to start "
                 f"again, or --carry-over K")
    games = []
    for line in lines:
        game = json.loads(line)
        games.append(GameResult(game["number"], game["a_first"], game["result"], tuple(game["scores"]),
                                tuple(game["a_seconds"]), tuple(game["b_seconds"])))
    return games


def carry_over(path: Path, match: Match, code: dict[str, str], checks: int, jobs: int):
    """If ``path`` was recorded by other code: play ``checks`` of its games again, spread over
    the record. If every one ends as recorded (the same result and scores), the record is headed
    by ``code`` (the earlier codes and the games checked are kept in the header); otherwise the
    run stops, saying which game ended differently."""
    text = path.read_text()
    header, *lines = text[: text.rfind("\n") + 1].splitlines()  # not a game cut off as it was written
    theirs = json.loads(header)
    if theirs.get("plays") == code:
        return
    numbers = sorted(json.loads(line)["number"] for line in lines)
    shift = len(theirs.get("carried", []))  # each carry-over checks other games
    picked = sorted({numbers[(k * len(numbers) // checks + shift) % len(numbers)] for k in range(checks)}) \
        if numbers else []
    was = {game["number"]: game for game in map(json.loads, lines) if game["number"] in picked}
    for game in run(match, min(jobs, max(1, len(picked))), picked):
        old = was[game.number]
        if (game.result, list(game.scores)) != (old["result"], old["scores"]):
            sys.exit(f"{path}: game {game.number} ends otherwise with this code ({game.result}, scores "
                     f"{list(game.scores)}; recorded {old['result']}, {old['scores']}): not carried over")
    before = {key: theirs[key] for key in ("plays", "code") if key in theirs}  # "code": a source hash, once
    carried = [*theirs.get("carried", []), {**before, "checked": picked}]
    path.write_text("\n".join([json.dumps({"plays": code, "carried": carried}), *lines]) + "\n")


def row(tally: Tally) -> str:
    m, s = tally.match, tally.summary()
    low, high = tally.interval()
    a, b = s["a_seconds_per_move"], s["b_seconds_per_move"]
    return (f"| {m.level_a} vs {m.level_b} | {m.size}x{m.size} {m.mode} | {tally.games} | "
            f"{tally.wins} / {tally.draws} / {tally.losses} | **{tally.rate:.1%}** ({low:.1%}-{high:.1%}) | "
            f"{a['median']:.3f} / {a['max']:.3f} | {b['median']:.3f} / {b['max']:.3f} |")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rows", nargs="*", default=ROWS, metavar="ROW")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--record", type=Path, metavar="DIR")
    parser.add_argument("--carry-over", type=int, default=0, metavar="K",
                        help="a record of other code: play K of its games again; go on if they end the same")
    args = parser.parse_args(argv)
    print("| pairing (A vs B) | board | games | A: W / D / L | A's score rate (95% CI) "
          "| median / max s per move, A | B |")
    print("|---|---|---|---|---|---|---|", flush=True)
    for spec in args.rows:
        a, b, size, mode = spec.split(":")
        match = Match(a, b, int(size), mode, args.games, args.seed)
        code = plays(match) if args.record else {}
        tally = Tally(match)
        done: set[int] = set()
        record = None
        if args.record:
            args.record.mkdir(parents=True, exist_ok=True)
            record = args.record / f"{a}-{b}-{size}-{mode}-s{args.seed}.jsonl"
            if args.carry_over > 0 and record.exists():
                carry_over(record, match, code, args.carry_over, args.jobs)
            for game in recorded(record, code):
                if game.number < args.games and game.number not in done:
                    done.add(game.number)
                    tally.add(game)
        todo = [n for n in range(args.games) if n not in done]
        try:
            for game in run(match, min(args.jobs, max(1, len(todo))), todo) if todo else ():
                tally.add(game)
                if record:
                    with record.open("a") as out:
                        out.write(json.dumps(game._asdict()) + "\n")
        except GameProcessDied:
            print(row(tally), flush=True)
            print(f"ladder.py: a process playing a game of {spec} ended in the middle of it (killed, or out "
                  f"of memory?) after {tally.games} games; with --record, run again to play the rest",
                  file=sys.stderr)
            return 1
        print(row(tally), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
