# PYTHON_ARGCOMPLETE_OK: argcomplete's global completion may ask this program (completion.py)
"""The command line: every argument parsed and every line printed lives in this package, one
module per command, each with its parser (``add_parser``) next to its ``run``.

    sos-tui [play] [--size N] [--mode MODE] [--players NAMES] [--load FILE] [--no-mouse]
    sos-tui history [--opponent KIND] [--size N] [--mode MODE] [--limit N] [--json]
    sos-tui history export ID FILE [--force]
    sos-tui ratings [--mode MODE] [--json]
    sos-tui arena LEVEL_A LEVEL_B [...]
    sos-tui review FILE [--json]
    sos-tui puzzle [--id N] [--json] [--plain]
    sos-tui host [--size N] [--mode MODE] [--players Ana,remote] [--bind ADDR] [--port N]
                 [--headless] [--server URL [--public] [--rated]]
    sos-tui join ws://HOST:PORT/CODE [--name NAME]
    sos-tui server [--bind ADDR] [--port N]
    sos-tui games [N] [--open N] [--json] [--plain]
    sos-tui web [--bind ADDR] [--port N] [--public-url URL] [--max-sessions N]
    sos-tui engine [--level LEVEL]
    sos-tui tournament --format round-robin|swiss --entrants A,B,C [...]
    sos-tui bot ws://HOST:PORT --engine COMMAND [--name NAME] [--games N]
    sos-tui leaderboard ws://HOST:PORT [--mode MODE] [--count N] [--json]

One error policy for all of them, here in ``main``: a bad argument, an unreadable file or an
unusable history prints one line on stderr and exits 2, never a traceback. Text from outside
(names, paths, error details) is printed as data: escaped by ``printable`` and shortened, so no
escape sequence in a player's name or a file name ever reaches the terminal.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Sequence

from sos_tui import __version__
from sos_tui.i18n import (
    LANGUAGES,
    UnknownLanguage,
    _,
    check_language,
    choose_language,
    ngettext,
    set_language,
)
from sos_tui.storage import load_settings

from . import (
    arena,
    bot,
    completion,
    engine,
    games,
    history,
    leaderboard,
    net,
    play,
    puzzle,
    ratings,
    review,
    tournament,
    web,
)
from .common import PROG, Exit, Parser, UsageError, discard_stdout, fail

COMMANDS = ("play", "history", "ratings", "review", "puzzle", "arena", "host", "join", "server", "games",
            "web", "engine", "tournament", "bot", "leaderboard")


def build_parser() -> argparse.ArgumentParser:
    """The main parser and every command's, described in the current language (``main`` sets it
    first). A command's own options are added when it runs (``Parser``'s ``options``)."""
    parser = Parser(
        prog=PROG,
        description=_("Play SOS in the terminal. With no options, a setup screen opens."),
        epilog=_("Also: 'sos-tui arena LEVEL_A LEVEL_B ...' pits computer players against each other; "
                 "'sos-tui history' lists past games; 'sos-tui review FILE' marks a saved game's moves. "
                 "Each has its own --help."),
    )
    play.add_options(parser)  # 'play' is the default command: its options work without the word
    parser.add_argument("--version", action=VersionAction,
                        help=_("show program's version number and exit"))  # argparse 3.11 leaves it English
    parser.add_argument("--lang", metavar=_("CODE"), choices=list(LANGUAGES), help=_(
        "the game's language: {choices}; default: the one chosen in the game, else LANGUAGE, LC_ALL, "
        "LC_MESSAGES or LANG, else English (works with every command)").format(
            choices=", ".join(f"{code} ({name})" for code, name in LANGUAGES.items())))
    parser.set_defaults(run=play.run)
    commands = parser.add_subparsers(dest="command", metavar=_("COMMAND"), parser_class=Parser)
    for command in (play, history, ratings, review, puzzle, arena, net, games, web, engine, tournament,
                    bot, leaderboard):
        command.add_parser(commands)
    return parser


def version_text() -> str:
    """What ``--version`` prints: the program's version and the versions of the formats it speaks
    (the network protocol, major.minor; the game record files); the protocol is read only here."""
    from sos_tui.engine.record import VERSION as RECORD_VERSION
    from sos_tui.net.protocol import PROTOCOL, PROTOCOL_MINOR

    return "\n".join((
        f"{PROG} {__version__}",
        _("network protocol {major}.{minor}").format(major=PROTOCOL, minor=PROTOCOL_MINOR),
        _("game record format {version}").format(version=RECORD_VERSION),
    ))


class VersionAction(argparse.Action):
    """``--version``: prints ``version_text()`` and exits 0."""

    def __init__(self, option_strings, dest, help=None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        print(version_text(), flush=True)
        raise Exit(0)


def take_lang(argv: list[str]) -> tuple[list[str], str | None]:
    """``argv`` without its ``--lang CODE`` (allowed before or after the command), and CODE."""
    rest, lang = [], None
    words = iter(argv)
    for word in words:
        if word == "--":
            rest += [word, *words]
            break
        if word == "--lang":
            lang = next(words, None)
            if lang is None:
                raise UsageError(_("--lang needs a language: {choices}").format(choices=", ".join(LANGUAGES)))
        elif word.startswith("--lang="):
            lang = word.partition("=")[2]
        else:
            rest.append(word)
    return rest, lang


def _safe_streams() -> None:
    """Characters the terminal's encoding lacks are written as escapes, not a crash."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, ValueError, OSError):
            stream.reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``sos-tui`` with ``argv`` (default: the process's arguments); returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    _safe_streams()
    # argparse looks its own words (usage:, options, its errors) up through its module's ``_`` and
    # ``ngettext`` (gettext's global domain): point them at our catalog, which holds them, rather
    # than change gettext's global domain or the environment that child processes inherit
    argparse._, argparse.ngettext = _, ngettext
    # the language without --lang first, so that a bad --lang is answered in it; a language
    # whose catalog is missing (a broken install) leaves English, which --lang ms then reports
    with contextlib.suppress(UnknownLanguage):
        set_language(choose_language(None, load_settings().get("language")))
    try:
        argv, lang = take_lang(argv)
    except UsageError as error:
        argv, lang = [word for word in argv if word != "--lang"], error
    command = argv[0] if argv and argv[0] in COMMANDS else ""
    try:
        if isinstance(lang, UsageError):
            raise lang
        if lang is not None:
            set_language(check_language(lang))
    except (UsageError, UnknownLanguage) as error:
        return fail(command, str(error))
    if completion.asked():  # the shell's tab key (completion.py): answered, and nothing else
        completion.complete(build_parser())
        return 0
    try:
        args = build_parser().parse_args(argv)
        args.lang = lang  # as given (or None): sos-tui web passes it on to its tabs
        return args.run(args)
    except Exit as done:  # --help, --version
        return done.status
    except UsageError as error:
        return fail(command, _("{error} (see {command} --help)").format(
            error=error, command=f"{PROG}{' ' + command if command else ''}"))
    except KeyboardInterrupt:  # ctrl+c: stop quietly
        return 130
    except BrokenPipeError:  # `sos-tui history | head`
        discard_stdout()
        return 0
