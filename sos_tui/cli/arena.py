"""``sos-tui arena``: pit two computer levels against each other and report A's score rate."""

from __future__ import annotations

import argparse
import json
import sys

from sos_tui.engine import COMPUTER_LEVELS, Mode
from sos_tui.i18n import N_, _, explain, mode_name, ngettext

from .common import board_size_help, check_engines, entrant_name, fail, forfeit_line

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
    parser.add_argument("level_a", metavar=_("LEVEL_A"), help=levels)
    parser.add_argument("level_b", metavar=_("LEVEL_B"), help=levels)
    parser.add_argument("--size", type=int, default=6, metavar="N", help=board_size_help())
    parser.add_argument("--mode", choices=[m.value for m in Mode], default="general",
                        help=_("general or simple; default general"))
    parser.add_argument("--games", type=int, default=20, metavar="N",
                        help=_("games to play, at most {most:,}").format(most=MAX_GAMES))
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
                done = 30 * tally.games // match.games
                print(f"[{'#' * done}{' ' * (30 - done)}] {tally.games}/{match.games}", end="",
                      file=sys.stderr, flush=True)
        status = 0
    except KeyboardInterrupt:
        results.close()
        status = 130
    except arena_api.GameProcessDied:
        status = 1
    if bar:
        print(file=sys.stderr)
    if status == 130:
        print("sos-tui arena: " + ngettext("interrupted after {played} of {n} game",
                                           "interrupted after {played} of {n} games", match.games).format(
            played=tally.games, n=match.games), file=sys.stderr)
    elif status == 1:
        print("sos-tui arena: " + ngettext(
            "a process playing a game ended in the middle of it (killed, or out of memory?), "
            "after {played} of {n} game",
            "a process playing a game ended in the middle of it (killed, or out of memory?), "
            "after {played} of {n} games", match.games).format(played=tally.games, n=match.games),
            file=sys.stderr)
    _report(tally, args.json, interrupted=status != 0)
    return status


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
