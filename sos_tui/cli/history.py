"""``sos-tui history``: the finished games as a table and statistics, or as JSON for scripts;
``sos-tui history export ID FILE``: one of them as a game file, for ``review`` and ``--load``."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from sos_tui.engine import MAX_SIZE, MIN_SIZE, Mode, PlayerInfo, printable, shorten
from sos_tui.i18n import LEVEL_NAMES, N_, _, bot_label, explain, level_name, mode_name, ngettext
from sos_tui.storage import (
    History,
    HistoryEntry,
    HistoryError,
    Stats,
    StorageError,
    describe,
    history_db_path,
    save_record,
)
from sos_tui.storage.history.facts import OPPONENT_KINDS

from .common import discard_stdout, fail, int_in

# What a player types stays English (general, computer:hard, --opponent easy); prose shows these.
OPPONENT_NAMES = {"human": N_("human"), "bot": N_("bot"), **LEVEL_NAMES, "computer": N_("computer"),
                  "mixed": N_("mixed"), "computer-only": N_("computer-only"), "all": N_("all")}


def opponent_name(kind: str) -> str:
    """An opponent kind of the history's statistics in the player's language."""
    return _(OPPONENT_NAMES[kind]) if kind in OPPONENT_NAMES else kind


def _opponent(text: str) -> str:
    kind = text.strip().lower()
    if kind not in OPPONENT_KINDS:
        raise argparse.ArgumentTypeError(_("no opponent kind {text!r}: choose {kinds}").format(
            text=text, kinds=", ".join(OPPONENT_KINDS)))
    return kind


def add_parser(commands) -> None:
    commands.add_parser("history", help=_("list finished games and statistics"),
                        description=_("Show finished games and statistics."),
                        options=_add_options).set_defaults(run=run)


def _add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--opponent", metavar=_("KIND"), type=_opponent, help=_(
        "only games against this opponent: {kinds}").format(kinds=", ".join(OPPONENT_KINDS)))
    parser.add_argument("--size", type=int_in(MIN_SIZE, MAX_SIZE), metavar="N", help=_(
        "only games on an N x N board ({low}-{high})").format(low=MIN_SIZE, high=MAX_SIZE))
    parser.add_argument("--mode", choices=[m.value for m in Mode], help=_("only games in this mode"))
    parser.add_argument("--limit", type=int_in(1), metavar="N",
                        help=_("list only the N newest games (statistics still cover all)"))
    parser.add_argument("--json", action="store_true", help=_(
        "print every selected game, with its moves, as one JSON document, for scripts"))
    usage = parser.format_usage()
    actions = parser.add_subparsers(dest="action", metavar=_("COMMAND"))
    export = actions.add_parser(
        "export", help=_("write a finished game as a game file"),
        description=_("Write a finished game of the history as a game file, the same file ctrl+s saves: "
                      "'sos-tui review FILE' marks its moves and 'sos-tui --load FILE' opens it."))
    export.add_argument("id", metavar=_("ID"), help=_(
        "the game: its number in the # column of 'sos-tui history', or its id from 'sos-tui history --json'"))
    export.add_argument("file", metavar=_("FILE"), help=_(
        "where to write it ('-' for standard output; in an existing folder: a fresh name inside it)"))
    export.add_argument("--force", action="store_true", help=_("replace FILE if it exists"))
    export.set_defaults(run=run_export)
    # both forms, as `git` shows its commands: argparse would show the optional COMMAND as required
    prefix = _("usage: ")
    parser.usage = ("\n" + " " * len(prefix)).join(
        text.removeprefix(prefix).rstrip() for text in (usage, export.format_usage()))


def _when(entry) -> str:
    return f"{entry.finished_at.astimezone():%Y-%m-%d %H:%M}"


def _shown(text: str, limit: int) -> str:
    return shorten(printable(text), limit)


HISTORY_HEADINGS = (N_("Date"), N_("Players"), N_("Size"), N_("Mode"), N_("Score"), N_("Result"))
STATS_HEADINGS = (N_("Opponent"), N_("Games"), N_("Wins"), N_("Draws"), N_("Losses"), N_("Avg score"))


def _label(player: PlayerInfo) -> str:
    """``"Ana"`` or ``"Deep (hard)"``, the level in the player's language; the name escaped."""
    name = printable(player.name)
    if player.is_computer and player.level:
        return _("{name} ({level})").format(name=name, level=level_name(printable(player.level)))
    return bot_label(name) if player.bot else name


def players_text(entry) -> str:
    """``"Ana vs Deep (hard)"`` in the player's language (names escaped)."""
    # Translators: the separator between the players of a game: "Ana vs Bo"
    return _(" vs ").join(_label(p) for p in entry.players)


def result_text(entry) -> str:
    """The game's result in the player's language, from the stored winners and players (the
    history stores the English text, which ``--json`` prints)."""
    players = entry.players
    ending = f" ({printable(entry.ending)})" if entry.ending else ""
    if not entry.winners or any(not 0 <= w < len(players) for w in entry.winners):
        return printable(entry.result) + ending
    names = [printable(players[w].name) for w in entry.winners]
    if len(names) == 1:
        return _("{name} wins").format(name=names[0]) + ending
    if len(names) < len(players):
        return _("draw between {names}").format(names=", ".join(names)) + ending
    return _("draw") + ending


def format_history(entries: Sequence, stats) -> str:
    """The text ``sos-tui history`` prints: a table of games (as given, newest first), then the
    statistics from the first human player's side, in the player's language. Dates are local
    time; names are escaped."""
    if not entries and not stats.games:
        return _("No finished games in the history yet. Play one with `sos-tui`!") + "\n"
    header = ("#", *(_(word) for word in HISTORY_HEADINGS))
    rows = [(str(e.id), _when(e), shorten(players_text(e), 40), f"{e.size}x{e.size}",
             _shown(mode_name(e.mode), 10), e.score_text, shorten(result_text(e), 40)) for e in entries]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(cell.ljust(width) for cell, width in zip(cells, widths, strict=True)).rstrip()

    out = [line(header), line(["-" * w for w in widths]), *(line(row) for row in rows)]
    if len(entries) < stats.games:
        out.append(ngettext("(showing the {shown} newest of {total} game)",
                            "(showing the {shown} newest of {total} games)", stats.games).format(
            shown=len(entries), total=stats.games))
    out += ["", ngettext("Statistics over {n} game, from the first human player's side:",
                         "Statistics over {n} games, from the first human player's side:",
                         stats.games).format(n=stats.games)]
    table = [tuple(_(word) for word in STATS_HEADINGS)]
    overall = [*stats.by_opponent.values(), stats]
    for s in overall:
        name = opponent_name(s.opponent if s is not stats else "all")
        table.append((_shown(name, 16), str(s.games), str(s.wins), str(s.draws), str(s.losses),
                      f"{s.average_score:.1f}"))
    widths2 = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    for row in table:
        out.append("  " + "  ".join(row[0].ljust(widths2[0]) if i == 0 else cell.rjust(widths2[i])
                                    for i, cell in enumerate(row)))
    game = stats.longest_chain_game
    if game is not None:
        seat = game.chain_player
        who = game.players[seat].name if seat is not None and seat < len(game.players) else "?"
        out.append(_("Longest SOS chain: {count} in one turn by {name} ({players}, {when})").format(
            count=stats.longest_chain, name=_shown(who, 24), players=shorten(players_text(game), 40),
            when=_when(game)))
    best = stats.best_game
    if best is not None:
        out.append(_("Best game: {name} won by {margin} ({score}, {players}, {when})").format(
            name=_shown(best.pov_name, 24), margin=best.margin, score=best.score_text,
            players=shorten(players_text(best), 40), when=_when(best)))
    return "\n".join(out) + "\n"


def game_json(entry: HistoryEntry) -> dict:
    """One game of ``history --json``: its settings, seats, result, how it ended (``termination``:
    ``normal`` for a game that ran to its end, older games included; ``drops``, the seats that
    dropped out, as in game files) and moves (in the notation of game files, with the seat that
    made each). A game whose stored record cannot be read has
    ``drops``, ``moves`` and ``movers`` null, and ``moves_error`` says why (it is null otherwise)."""
    try:
        started = json.loads(entry.record_json).get("started")
    except (ValueError, AttributeError, RecursionError):
        started = None
    try:
        state = entry.record.state
        moves, movers, problem = [str(m) for m in state.moves], list(state.movers), None
        drops = [{"seat": d.seat, "why": d.why.value, "after": d.after} for d in state.drops]
    except (ValueError, TypeError, RecursionError) as error:
        moves = movers = drops = None
        problem = f"the moves of this game cannot be read: {error}"  # English, like "result"
    return {
        "number": entry.id,
        "id": entry.game_id,
        "started": started if isinstance(started, str) else None,
        "finished": entry.finished_at.isoformat(),
        "size": entry.size,
        "mode": entry.mode,
        "players": [p.to_dict(full=True) for p in entry.players],
        "scores": list(entry.scores),
        "winners": list(entry.winners),
        "result": entry.result,
        "termination": entry.termination,
        "drops": drops,
        "moves": moves,
        "movers": movers,
        "moves_error": problem,
    }


def history_json(entries: Sequence[HistoryEntry]) -> str:
    """Every game as one JSON document for scripts (ASCII only: names are \\u-escaped)."""
    games = [game_json(entry) for entry in entries]
    return json.dumps({"format": "sos-tui-history", "version": 1, "games": games}, indent=2) + "\n"


def run(args: argparse.Namespace) -> int:
    entries, stats, skipped, total = [], Stats(), (), 0
    try:
        path = history_db_path()
        if path.exists() or path.is_symlink():  # looking must not create the database
            with History(path) as database:
                filters = (args.opponent, args.size, args.mode)
                stats = database.stats(*filters)
                entries = database.games(*filters, limit=None if args.json else args.limit)
                skipped, total = database.skipped, database.count()
    except (HistoryError, StorageError) as error:
        return fail("history", explain(error))
    if skipped:
        fail("history", ngettext("warning: skipped {n} damaged game (row {rows})",
                                 "warning: skipped {n} damaged games (row {rows})", len(skipped)).format(
            n=len(skipped), rows=", ".join(str(row) for row in skipped[:10])))
    if args.json:
        sys.stdout.write(history_json(entries))
    elif total and not stats.games:
        print(_("No games in the history match those filters."))
    else:
        sys.stdout.write(format_history(entries, stats))
    return 0


EXPORT = "history export"


def _find(ident: str) -> HistoryEntry | None:
    """The history's game ``ident`` (see ``History.find``); None, and no database made, when
    there is no history yet."""
    path = history_db_path()
    if not (path.exists() or path.is_symlink()):
        return None
    with History(path) as database:
        return database.find(ident)


def run_export(args: argparse.Namespace) -> int:
    """``sos-tui history export ID FILE``: the game's record, written by ``save_record`` as ctrl+s
    writes it; a FILE that exists is kept unless --force. Every problem is one line, status 2."""
    try:
        entry = _find(args.id)
    except (HistoryError, StorageError) as error:
        return fail(EXPORT, explain(error))
    if entry is None:
        return fail(EXPORT, _("no game {ident!r} in the history (`sos-tui history` lists the games with "
                              "their numbers)").format(ident=args.id))
    try:
        record = entry.record
    except (ValueError, TypeError, RecursionError) as error:
        return fail(EXPORT, _("game {number} has no moves to export: its stored record cannot be read "
                              "({reason})").format(number=entry.id, reason=explain(error)))
    if args.file == "-":
        try:
            sys.stdout.write(record.to_json())
            sys.stdout.flush()
        except BrokenPipeError:
            raise
        except OSError as error:
            discard_stdout()  # what could not be written is not tried again at exit
            return fail(EXPORT, explain(StorageError(N_("could not write to standard output: {reason}"),
                                                     reason=describe(error))))
        return 0
    if not args.file.strip():
        return fail(EXPORT, _("no file name given"))
    path = Path(args.file)
    if not args.force and os.path.lexists(path) and not os.path.isdir(path):
        return fail(EXPORT, _("{path} already exists: add --force to replace it").format(path=args.file))
    try:
        written = save_record(record, path)
    except StorageError as error:
        return fail(EXPORT, explain(error))
    print(_("Saved to {path}.").format(path=printable(str(written))))
    return 0
