"""The ladder table of docs/ai.md: each level against the one below, as Markdown rows.

    .venv/bin/python benchmarks/ladder.py [--games 200] [--seed 1] [--jobs 1] [--record DIR] [ROW ...]

A ROW is ``A:B:SIZE:MODE`` (default: the nine rows of docs/ai.md, medium:easy:6:general ...).
Each row is printed as soon as its games are played; the games are those of
``sos-tui arena A B --size SIZE --mode MODE --games G --seed S``.

With ``--record DIR`` every finished game is appended to ``DIR/A-B-SIZE-MODE-sS.jsonl`` and a
later run plays only the games not yet there, so a row of several hours can be played in
parts (with fixed budgets a game depends only on its number). The file's first line holds a
fingerprint of the code that plays (the rules, the players and their searches: ``PLAYS``); a
run with other code refuses to add to it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

from sos_tui.ai.arena import GameProcessDied, GameResult, Match, Tally, run

ROWS = [f"{a}:{b}:{board}" for a, b in (("medium", "easy"), ("hard", "medium"), ("expert", "hard"))
        for board in ("6:general", "6:simple", "8:general")]
PACKAGE = Path(__file__).resolve().parent.parent / "sos_tui"


# what a game of the arena runs: the rules, the players and their searches (not review, text, records)
PLAYS = ["engine/rules.py", *(f"ai/{name}.py" for name in (
    "__init__", "arena", "bitboard", "book", "book_data", "budget", "levels", "players", "safe_game",
    "search", "solver", "table"))]


def fingerprint() -> str:
    """A hash of the sources a game's moves depend on."""
    digest = hashlib.sha256()
    for path in sorted(PACKAGE / name for name in PLAYS):
        digest.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def recorded(path: Path, code: str) -> list[GameResult]:
    """The games already in ``path`` (creating it, headed by ``code``, if it is new)."""
    if not path.exists():
        path.write_text(json.dumps({"code": code}) + "\n")
        return []
    text = path.read_text()
    if not text.endswith("\n"):  # a run was stopped while it wrote a game: that game is played again
        text = text[: text.rfind("\n") + 1]
        path.write_text(text)
    header, *lines = text.splitlines()
    if (theirs := json.loads(header)["code"]) != code:
        sys.exit(f"{path}: recorded with other code ({theirs}, now {code}); move it away to start again")
    games = []
    for line in lines:
        game = json.loads(line)
        games.append(GameResult(game["number"], game["a_first"], game["result"], tuple(game["scores"]),
                                tuple(game["a_seconds"]), tuple(game["b_seconds"])))
    return games


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
    args = parser.parse_args(argv)
    code = fingerprint()
    print("| pairing (A vs B) | board | games | A: W / D / L | A's score rate (95% CI) "
          "| median / max s per move, A | B |")
    print("|---|---|---|---|---|---|---|", flush=True)
    for spec in args.rows:
        a, b, size, mode = spec.split(":")
        match = Match(a, b, int(size), mode, args.games, args.seed)
        tally = Tally(match)
        done: set[int] = set()
        record = None
        if args.record:
            args.record.mkdir(parents=True, exist_ok=True)
            record = args.record / f"{a}-{b}-{size}-{mode}-s{args.seed}.jsonl"
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
