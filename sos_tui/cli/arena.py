"""``sos-tui arena``: pit two computer levels against each other and report A's score rate;
``sos-tui arena --ladder``: the four levels round robin, and their ratings."""

from __future__ import annotations

import argparse
import json
import sys

from sos_tui.engine import COMPUTER_LEVELS, Mode
from sos_tui.i18n import N_, _, explain, level_name, mode_name, ngettext

from .common import board_size_help, check_engines, columns, entrant_name, fail, forfeit_line

ARENA_GAME_LINES = {
    (True, 1): N_("game {number}: {level} first, won {score}; so far {points}/{games} = {rate}"),
    (True, 0.5): N_("game {number}: {level} first, drew {score}; so far {points}/{games} = {rate}"),
    (True, 0): N_("game {number}: {level} first, lost {score}; so far {points}/{games} = {rate}"),
    (False, 1): N_("game {number}: {level} second, won {score}; so far {points}/{games} = {rate}"),
    (False, 0.5): N_("game {number}: {level} second, drew {score}; so far {points}/{games} = {rate}"),
    (False, 0): N_("game {number}: {level} second, lost {score}; so far {points}/{games} = {rate}"),
}
"""A game's line in ``sos-tui arena``: by whether A moved first and A's result."""


def add_parser(commands) -> None:
    commands.add_parser("arena", help=_("pit two computer levels against each other"),
                        description=_("Pit two computer levels against each other."),
                        options=_add_options).set_defaults(run=run)


def _add_options(parser: argparse.ArgumentParser) -> None:
    from sos_tui.ai.arena import MAX_GAMES  # the AI: only when the arena runs (or shows its --help)
    from sos_tui.ai.outside import OUTSIDE

    # and the outside-style bots of sos_tui/ai/outside.py, and engine programs (checked by Match)
    levels = " | ".join([*COMPUTER_LEVELS, *OUTSIDE, "engine:COMMAND"])
    parser.add_argument("level_a", metavar=_("LEVEL_A"), nargs="?", help=levels)
    parser.add_argument("level_b", metavar=_("LEVEL_B"), nargs="?", help=levels)
    parser.add_argument("--ladder", action="store_true", help=_(
        "instead of two levels: the four levels round robin, --games games each pair, then their ratings"))
    parser.add_argument("--size", type=int, default=6, metavar="N", help=board_size_help())
    parser.add_argument("--mode", choices=[m.value for m in Mode], default="general",
                        help=_("general or simple; default general"))
    parser.add_argument("--games", type=int, default=20, metavar="N",
                        help=_("games to play (with --ladder: each pair), at most {most:,}").format(
                            most=MAX_GAMES))
    parser.add_argument("--seed", type=int, default=0, metavar="N",
                        help=_("seed of the first game (default 0)"))
    parser.add_argument("--time-limit", type=float, default=None, metavar=_("SECONDS"),
                        help=_("seconds per move; default: the fixed, clock-free search budgets"))
    parser.add_argument("--jobs", type=int, default=1, metavar="N",
                        help=_("games played at once, at most the cores"))
    parser.add_argument("--json", action="store_true", help=_("print one JSON summary, for scripts"))


def _percent(rate: float | None) -> str:
    return "-" if rate is None else f"{rate:.1%}"


def run(args: argparse.Namespace) -> int:
    """Play two levels against each other and print each game's result as it finishes, then A's
    score rate with a 95% interval (``--json``: one JSON object instead). Ctrl+c stops the run:
    one line on stderr, the games played so far, exit status 130."""
    if args.ladder:
        return run_ladder(args)
    if args.level_b is None:
        return fail("arena", _("give two levels, {a} and {b}, or --ladder").format(
            a=_("LEVEL_A"), b=_("LEVEL_B")))
    from sos_tui.ai import arena as arena_api  # the AI: only when the arena runs

    try:
        match = arena_api.Match(args.level_a, args.level_b, args.size, args.mode, args.games, args.seed,
                                args.time_limit)
        check_engines((match.level_a, match.level_b))
        results = arena_api.run(match, args.jobs)
    except ValueError as error:
        return fail("arena", explain(error))
    tally = arena_api.Tally(match)
    bar = sys.stderr.isatty() and not args.json
    try:
        for game in results:
            tally.add(game)
            if bar:
                print("\r\033[K", end="", file=sys.stderr)
            if not args.json:
                print(_(ARENA_GAME_LINES[(game.a_first, game.result)]).format(
                    number=game.number + 1, level=entrant_name(match.level_a),
                    score=f"{game.scores[0]}-{game.scores[1]}", points=f"{tally.points:g}", games=tally.games,
                    rate=_percent(tally.rate)), flush=True)
                if game.forfeit is not None:
                    print(forfeit_line(match.level_a if game.forfeit == "a" else match.level_b, game.reason),
                          flush=True)
            if bar:
                _progress(tally.games, match.games)
        status = 0
    except KeyboardInterrupt:
        results.close()
        status = 130
    except arena_api.GameProcessDied:
        status = 1
    _stopped(status, bar, tally.games, match.games)
    _report(tally, args.json, interrupted=status != 0)
    return status


def _progress(done: int, total: int) -> None:
    """The progress bar on stderr (a terminal): ``[######      ] 12/30``."""
    filled = 30 * done // total
    print(f"[{'#' * filled}{' ' * (30 - filled)}] {done}/{total}", end="", file=sys.stderr, flush=True)


def _stopped(status: int, bar: bool, played: int, planned: int) -> None:
    """End the progress bar; say on stderr why the run stopped early (ctrl+c: 130, a game's
    process died: 1)."""
    if bar:
        print(file=sys.stderr)
    if status == 130:
        print("sos-tui arena: " + ngettext("interrupted after {played} of {n} game",
                                           "interrupted after {played} of {n} games", planned).format(
            played=played, n=planned), file=sys.stderr)
    elif status == 1:
        print("sos-tui arena: " + ngettext(
            "a process playing a game ended in the middle of it (killed, or out of memory?), "
            "after {played} of {n} game",
            "a process playing a game ended in the middle of it (killed, or out of memory?), "
            "after {played} of {n} games", planned).format(played=played, n=planned),
            file=sys.stderr)


def run_ladder(args: argparse.Namespace) -> int:
    """``--ladder``: every pair of levels plays ``--games`` games, round by round, a progress bar
    on stderr (a terminal), then the levels' ratings, highest first (``--json``: one object).
    Ctrl+c stops it and prints the ratings so far, exit status 130."""
    from sos_tui.ai import ladder as ladder_api  # the AI: only when the arena runs
    from sos_tui.ai.arena import GameProcessDied

    if args.level_a is not None:
        return fail("arena", _("--ladder plays the four levels: give no {a} or {b}").format(
            a=_("LEVEL_A"), b=_("LEVEL_B")))
    try:
        ladder = ladder_api.Ladder(args.size, args.mode, args.games, args.seed, args.time_limit)
        games = ladder_api.play(ladder, args.jobs)
    except ValueError as error:
        return fail("arena", explain(error))
    table = ladder_api.LadderTable()
    bar = sys.stderr.isatty()
    if bar:
        _progress(0, ladder.total)
    try:
        for match, game in games:
            table.add(match, game)
            if bar:
                print("\r\033[K", end="", file=sys.stderr)
                _progress(table.games, ladder.total)
        status = 0
    except KeyboardInterrupt:
        games.close()
        status = 130
    except GameProcessDied:
        status = 1
    _stopped(status, bar, table.games, ladder.total)
    _ladder_report(ladder, table, args.json, interrupted=status != 0)
    return status


LADDER_HEADINGS = (N_("Level"), N_("Rating"), "±", N_("Games"), N_("W/D/L"))


def _ladder_report(ladder, table, as_json: bool, interrupted: bool) -> None:
    standings = table.standings()
    if as_json:
        levels = [s.to_dict() for s in standings]
        for level in levels:
            level["level"] = level.pop("name")
            del level["last_played"]
        print(json.dumps({"format": "sos-tui-ladder", "size": ladder.size, "mode": ladder.mode,
                          "seed": ladder.seed, "games_per_pair": ladder.games, "games": table.games,
                          "interrupted": interrupted, "ratings": levels}), flush=True)
        return
    print(ngettext("Ladder: {size}x{size} {mode}, {n} game a pair, seed {seed}: {played} played",
                   "Ladder: {size}x{size} {mode}, {n} games a pair, seed {seed}: {played} played",
                   ladder.games).format(size=ladder.size, mode=mode_name(ladder.mode), n=ladder.games,
                                        seed=ladder.seed, played=table.games))
    rows = [(level_name(s.name), s.rating_text, str(s.deviation), str(s.games),
             f"{s.wins}/{s.draws}/{s.losses}") for s in standings]
    print(columns([tuple(_(h) for h in LADDER_HEADINGS), *rows], right=(1, 2, 3, 4)), end="")


def _report(tally, as_json: bool, interrupted: bool):
    summary = tally.summary()
    if as_json:
        print(json.dumps({**summary, "interrupted": interrupted}), flush=True)
        return
    m = tally.match
    a, b = entrant_name(m.level_a), entrant_name(m.level_b)
    limit = f"{m.time_limit}" if m.time_limit else _("none (fixed budgets)")
    print(ngettext("{a} vs {b}: {size}x{size} {mode}, {n} game, seed {seed}, time limit {limit}",
                   "{a} vs {b}: {size}x{size} {mode}, {n} games, seed {seed}, time limit {limit}",
                   tally.games).format(a=a, b=b, size=m.size, mode=mode_name(m.mode), n=tally.games,
                                       seed=m.seed, limit=limit))
    if not tally.games:
        return
    low, high = tally.interval()
    print(_("{level}: {wins} wins, {draws} draws, {losses} losses").format(
        level=a, wins=tally.wins, draws=tally.draws, losses=tally.losses))
    print(_("{level} score rate: {rate} (95% CI {low} to {high})").format(
        level=a, rate=_percent(tally.rate), low=_percent(low), high=_percent(high)))
    timings = ((N_("{level} (A) seconds per move: median {median}, max {most}"), a, "a_seconds_per_move"),
               (N_("{level} (B) seconds per move: median {median}, max {most}"), b, "b_seconds_per_move"))
    for template, level, key in timings:
        if seconds := summary[key]:
            print(_(template).format(level=level, median=f"{seconds['median']:.3f}",
                                     most=f"{seconds['max']:.3f}"))
