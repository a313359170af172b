"""``sos-tui tournament``: a round robin or a Swiss tournament of levels, bots and engine
programs, with standings, tie-breaks and a crosstable; its results kept in a file as each game
ends, so that the same command run again resumes it."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from sos_tui.engine import Mode, engine_command, shorten
from sos_tui.i18n import _, explain, mode_name, ngettext

from .common import board_size, board_size_help, check_engines, entrant_name, fail, forfeit_line

FILE_FORMAT = "sos-tui-tournament"
"""The first line of a results file: ``{"format": FILE_FORMAT, "tournament": {...}}``."""
RESULT = {1.0: "1-0", 0.5: "½-½", 0.0: "0-1"}


class ResultsError(Exception):
    """A results file that cannot be used; the message says why."""


def add_parser(commands) -> None:
    commands.add_parser("tournament", help=_("a round robin or Swiss tournament of levels and engines"),
                        description=_("A round robin or Swiss tournament of computer levels and engine "
                                      "programs (engine:COMMAND, docs/engine-protocol.md)."),
                        options=_add_options).set_defaults(run=run)


def _add_options(parser: argparse.ArgumentParser) -> None:
    from sos_tui.ai.tournament import FORMATS  # the AI: only when a tournament runs

    parser.add_argument("--format", choices=FORMATS, required=True, help=_("round-robin or swiss"))
    parser.add_argument("--entrants", required=True, metavar=_("ENTRANT,ENTRANT..."), help=_(
        "levels (easy, medium, hard, expert), outside:greedy ... and engine:COMMAND, separated by commas"))
    parser.add_argument("--size", type=board_size, default=6, metavar="N", help=board_size_help())
    parser.add_argument("--mode", choices=[m.value for m in Mode], default="general",
                        help=_("general or simple; default general"))
    parser.add_argument("--games-per-pair", type=int, default=2, metavar="G",
                        help=_("games each pairing plays, first moves alternating; default 2"))
    parser.add_argument("--rounds", type=int, metavar="R",
                        help=_("Swiss rounds; default: log2 of the entrants, rounded up"))
    parser.add_argument("--seed", type=int, default=0, metavar="N",
                        help=_("seed of the first game (default 0)"))
    parser.add_argument("--time-limit", type=float, metavar=_("SECONDS"),
                        help=_("seconds per move; default: the levels' fixed budgets, 1 s for an engine"))
    parser.add_argument("--out", metavar=_("FILE"), help=_(
        "append each game's result to FILE (JSON lines); run the same command again to resume"))
    parser.add_argument("--json", action="store_true", help=_("print one JSON summary, for scripts"))


def load_results(path: Path, tournament) -> list:
    """The games already in the results file at ``path`` (none if it is missing or empty; then it
    is started with the tournament's first line). ResultsError if it holds another tournament,
    or is no results file. A last line cut short (an interrupted write) is dropped."""
    from sos_tui.ai.tournament import Played

    header = {"format": FILE_FORMAT, "tournament": tournament.identity()}
    try:
        data = path.read_bytes() if path.exists() else b""
    except OSError as error:
        raise ResultsError(_("cannot read {path}: {error}").format(path=path, error=error.strerror)) from None
    if not data.strip():
        _write(path, json.dumps(header) + "\n", "w")
        return []
    whole, _cut, _rest = data.rpartition(b"\n")
    lines = whole.decode("utf-8", "replace").splitlines()
    try:
        first = json.loads(lines[0]) if lines else None
    except ValueError:
        first = None
    if not isinstance(first, dict) or first.get("format") != FILE_FORMAT:
        raise ResultsError(_("{path} is not a tournament's results file").format(path=path))
    if first != header:
        raise ResultsError(_("{path} holds the results of another tournament (other entrants, settings or "
                             "seed): give another --out, or the same options as before").format(path=path))
    played = []
    for number, line in enumerate(lines[1:], 2):
        try:
            game = Played.from_dict(json.loads(line))
        except (KeyError, TypeError, ValueError, AttributeError):
            raise ResultsError(_("{path}, line {line}: not a game's result").format(
                path=path, line=number)) from None
        if game.pairing.number != len(played):
            raise ResultsError(_("{path}, line {line}: a game out of order").format(path=path, line=number))
        played.append(game)
    if len(whole) + 1 != len(data):  # the last line was cut short: drop it
        _write(path, None, "truncate", len(whole) + 1)
    return played


def _write(path: Path, text: str | None, how: str, size: int = 0) -> None:
    try:
        if how == "truncate":
            os.truncate(path, size)
        else:
            with path.open(how, encoding="utf-8") as out:
                out.write(text)
                out.flush()
                os.fsync(out.fileno())
    except OSError as error:
        raise ResultsError(_("cannot write {path}: {error}").format(
            path=path, error=error.strerror)) from None


def run(args: argparse.Namespace) -> int:
    """Play the tournament, print each game as it ends (not with --json) and the standings."""
    from sos_tui.ai import tournament as api  # the AI: only when a tournament runs

    entrants = tuple(part.strip() if engine_command(part) is not None else part.strip().lower()
                     for part in args.entrants.split(","))
    try:
        tournament = api.Tournament(args.format, entrants, args.size, args.mode, args.games_per_pair,
                                    args.rounds, args.seed, args.time_limit)
        check_engines(tournament.entrants)
        out = Path(args.out) if args.out else None
        played = load_results(out, tournament) if out else []
    except (ValueError, ResultsError) as error:
        return fail("tournament", explain(error))
    bar = sys.stderr.isatty() and not args.json
    status, games = 0, list(played)
    try:
        for game in api.run(tournament, played):
            games.append(game)
            if out:
                _write(out, json.dumps(game.to_dict()) + "\n", "a")
            _progress(bar, len(games), tournament.planned, None)
            if not args.json:
                print(_game_line(tournament, game), flush=True)
                if game.forfeit is not None:
                    print(forfeit_line(tournament.entrants[game.forfeit], game.reason), flush=True)
            _progress(bar, len(games), tournament.planned, True)
    except KeyboardInterrupt:
        status = 130
    except ResultsError as error:
        status = fail("tournament", str(error))
    _progress(bar, 0, 0, False)
    if status == 130:
        again = _("; run the same command to resume") if out else ""
        print("sos-tui tournament: " + ngettext("interrupted after {played} of {n} game{again}",
                                                "interrupted after {played} of {n} games{again}",
                                                tournament.planned).format(
            played=len(games), n=tournament.planned, again=again), file=sys.stderr)
    _report(tournament, api.Standings(tournament, games), len(games), args.json, status != 0)
    return status


def _progress(bar: bool, done: int, total: int, draw: bool | None) -> None:
    """The progress bar on stderr (a terminal only): cleared (``draw`` None or False, then a new
    line if False) or drawn."""
    if not bar:
        return
    if draw is False:
        print(file=sys.stderr)
    elif draw is None:
        print("\r\033[K", end="", file=sys.stderr)
    else:
        filled = 30 * done // max(1, total)
        print(f"[{'#' * filled}{' ' * (30 - filled)}] {done}/{total}", end="", file=sys.stderr, flush=True)


def _name(entrant: str, width: int = 24) -> str:
    return shorten(entrant_name(entrant), width)


def _game_line(tournament, game) -> str:
    p = game.pairing
    return _("game {number}/{total}, round {round}: {a} {result} {b} ({score})").format(
        number=p.number + 1, total=tournament.planned, round=p.round,
        a=_name(tournament.entrants[p.a if p.game % 2 == 0 else p.b]),
        b=_name(tournament.entrants[p.b if p.game % 2 == 0 else p.a]),
        result=RESULT[game.result if p.game % 2 == 0 else 1 - game.result],
        score="-".join(map(str, game.scores if p.game % 2 == 0 else game.scores[::-1])))


def _rating_text(row: dict) -> str:
    """``1623 ± 310``, with a ``?`` while provisional; ``-`` before the entrant's first game."""
    if row["rating"] is None:
        return "-"
    return f"{row['rating']}{'?' if row['provisional'] else ''} ± {row['deviation']}"


def _report(tournament, standings, played: int, as_json: bool, interrupted: bool) -> None:
    rows = standings.rows()
    if as_json:
        print(json.dumps({"tournament": tournament.identity(), "games_planned": tournament.planned,
                          "games": played, "interrupted": interrupted, "standings": rows}), flush=True)
        return
    title = _("Round robin") if tournament.format == "round-robin" else _("Swiss")
    print(ngettext("{title}: {n} entrant, {size}x{size} {mode}, {games} of {planned} games, seed {seed}",
                   "{title}: {n} entrants, {size}x{size} {mode}, {games} of {planned} games, seed {seed}",
                   len(tournament.entrants)).format(
        title=title, n=len(tournament.entrants), size=tournament.size, mode=mode_name(tournament.mode),
        games=played, planned=tournament.planned, seed=tournament.seed))
    tie = _("SB") if tournament.format == "round-robin" else _("Buchholz")
    width = max(len(_name(row["entrant"])) for row in rows)
    swiss = tournament.format == "swiss"  # a bye scores without a game: its column says how many
    entrant, points, won, drew, lost, byes = _("Entrant"), _("Points"), _("W"), _("D"), _("L"), _("Byes")
    rating = _("Rating")
    print(f"{'#':>3}  {entrant:<{width}}  {points:>6}  {tie:>8}  {won:>3} {drew:>3} {lost:>3}"
          + (f" {byes:>5}" if swiss else "") + f"  {rating:>11}")
    for row in rows:
        print(f"{row['rank']:>3}  {_name(row['entrant']):<{width}}  {row['points']:>6g}  "
              f"{row[standings.tie_break_name]:>8g}  {row['wins']:>3} {row['draws']:>3} {row['losses']:>3}"
              + (f" {row['byes']:>5}" if swiss else "") + f"  {_rating_text(row):>11}")
    print(_("Crosstable (points against each, by rank):"))
    print(f"{'#':>3}  {'':<{width}}  " + " ".join(f"{rank:>4}" for rank in range(1, len(rows) + 1)))
    for row in rows:
        cells = ("x" if rank == row["rank"] else "." if points is None else f"{points:g}"
                 for rank, points in enumerate(row["crosstable"], 1))
        print(f"{row['rank']:>3}  {_name(row['entrant']):<{width}}  "
              + " ".join(f"{cell:>4}" for cell in cells))
