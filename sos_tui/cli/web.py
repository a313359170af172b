"""``sos-tui web``: the whole app in a browser, through Textualize's textual-serve.

Every browser tab that opens the page gets its own ``sos-tui`` process (the play command, setup
screen first), driven over the page's WebSocket (``/ws``) by xterm.js; the tab closing asks the
process to quit, which autosaves an unfinished game. The processes inherit this one's
environment, so they use the same data folder (``SOS_TUI_DATA_DIR`` when set); their settings are
the data folder's ``web-settings`` unless ``--shared-settings``.

A tab plays as the user who runs this command, so only the page's own origin may open one: the
public URL or the address the server listens on, checked before any process starts; the page
names its socket by that address, never by the Host a browser sent (DNS rebinding). A tab saves
in the saves folder only and joins games on this computer only, unless ``--allow-server``.

textual-serve (aiohttp) is imported only when this command runs; the page is ours
(``web_page/app_index.html``)."""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from pathlib import Path
from urllib.parse import urlsplit

from sos_tui.i18n import _

from .common import UsageError, fail, int_in
from .net import _warn_bind

DEFAULT_PORT = 8000
DEFAULT_SESSIONS = 8
"""Tabs served at once by default: each is a process of its own (tens of megabytes)."""
ANY_SERVER = "any"


def add_parser(commands) -> None:
    commands.add_parser(
        "web", help=_("play in a web browser: serve the app to browser tabs"),
        description=_("Serve the game to web browsers: each tab that opens the address plays its own "
                      "sos-tui, with this machine's saved games and history."),
        options=_options).set_defaults(run=run)


def _options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bind", default="127.0.0.1", metavar=_("ADDRESS"), help=_(
        "the address to listen on (default 127.0.0.1: this machine only; 0.0.0.0 for every network)"))
    parser.add_argument("--port", type=int_in(1, 65535), default=DEFAULT_PORT, metavar=_("PORT"),
                        help=_("the port to listen on (default {port})").format(port=DEFAULT_PORT))
    parser.add_argument("--public-url", metavar="URL", help=_(
        "the address browsers use, behind a reverse proxy (e.g. https://sos.example.org); default: "
        "the address listened on. Only pages from there or from the address listened on may play"))
    parser.add_argument("--max-sessions", type=int_in(1), default=DEFAULT_SESSIONS, metavar="N",
                        help=_("the most tabs playing at once, each a process (default {count})").format(
                            count=DEFAULT_SESSIONS))
    parser.add_argument("--separate-data", action="store_true", help=_(
        "give each tab a data folder of its own (for a public server), removed when the tab closes "
        "unless it holds an unfinished game; typed paths are then confined to it, and games are "
        "hosted for the other tabs only"))
    parser.add_argument("--no-mouse", action="store_true",
                        help=_("the tabs play by keyboard only, and the mouse selects text"))
    parser.add_argument("--allow-server", action="append", default=[], metavar="ws://HOST:PORT", help=_(
        "a game server on another computer that the tabs may join, list and host on (again for "
        "more; '{any}' for every one); by default the tabs reach this computer only").format(any=ANY_SERVER))
    parser.add_argument("--shared-settings", action="store_true", help=_(
        "the tabs use and change this account's settings (theme, last setup, language), as sos-tui "
        "in a terminal does; by default they keep their own in the data folder's web-settings"))


def app_command(separate: Path | None = None, lang: str | None = None, mouse: bool = True) -> str:
    """The shell command textual-serve runs for each tab: this Python running ``web_tab`` (the
    play command, drawn by our web driver), with ``separate`` in a data folder of the tab's own
    under it; ``lang`` when ``--lang`` was given here (else the tab chooses as ``sos-tui`` does:
    the game's setting, else the environment). ``exec`` so the shell does not stay on as the app's
    parent."""
    words = [sys.executable, "-m", "sos_tui.cli.web_tab"]
    if separate is not None:
        words += ["--separate", str(separate)]
    if lang is not None:
        words += ["--lang", lang]
    if not mouse:
        words.append("--no-mouse")
    return "exec " + " ".join(shlex.quote(word) for word in words)


def check_public_url(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise UsageError(_("--public-url: expected http://HOST[:PORT] or https://HOST[:PORT], "
                           "not {url!r}").format(url=url))
    return url.rstrip("/")


def allowed_servers(values: list[str]) -> str | None:
    """``--allow-server``'s values as ``net.reach.SERVERS_VAR`` holds them; None for any."""
    from sos_tui.i18n import explain
    from sos_tui.net import parse_url

    if ANY_SERVER in values:
        return None
    servers = []
    for value in values:
        try:
            servers.append(parse_url(value, need_code=False).server)
        except ValueError as error:
            raise UsageError(f"--allow-server: {explain(error)}") from None
    return " ".join(servers)


def tab_settings(shared: bool) -> None:
    """The tabs' settings apart from this account's (the data folder's ``web-settings``), unless
    ``shared``: a theme chosen in a page does not change the terminal's."""
    if not shared:
        from sos_tui.storage.paths import data_dir
        from sos_tui.storage.settings import CONFIG_ENV_VAR

        os.environ[CONFIG_ENV_VAR] = str(data_dir() / "web-settings")


def free_port(bind: str, port: int) -> None:
    """Raise OSError if ``bind``:``port`` cannot be listened on, before anything is printed."""
    import socket

    for family, kind, proto, _name, address in socket.getaddrinfo(bind, port, type=socket.SOCK_STREAM):
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as aiohttp does
            probe.bind(address)


def make_server(command: str, bind: str, port: int, public_url: str | None, max_sessions: int):
    """The server of the tabs (``web_server.SosServer``); textual-serve is imported only now."""
    from .web_server import SosServer

    return SosServer(command, bind, port, public_url, max_sessions)


def run(args: argparse.Namespace) -> int:
    public_url = None if args.public_url is None else check_public_url(args.public_url)
    servers = allowed_servers(args.allow_server)
    try:
        import textual_serve.server  # noqa: F401
    except ImportError:
        return fail("web", _("needs the web extra, which a terminal player does without: "
                             "pip install 'sos-tui[web]' (or pipx install 'sos-tui[web]')"))
    _warn_bind("web", args.bind)
    os.environ.pop("TEXTUAL_DRIVER", None)  # the tabs' apps get the web driver from textual-serve
    try:
        free_port(args.bind, args.port)
    except OSError as error:
        return fail("web", _("cannot listen on {address}:{port}: {reason}").format(
            address=args.bind, port=args.port, reason=error.strerror or error))
    from sos_tui.i18n import explain
    from sos_tui.net.reach import SERVERS_VAR
    from sos_tui.storage import StorageError
    from sos_tui.storage.paths import data_dir

    # the tabs inherit this environment: where they may connect, where their settings are
    if servers is None:
        os.environ.pop(SERVERS_VAR, None)
    else:
        os.environ[SERVERS_VAR] = servers
    try:
        tab_settings(args.shared_settings)
        separate = data_dir() / "web-tabs" if args.separate_data else None
    except StorageError as error:
        return fail("web", explain(error))
    command = app_command(separate, getattr(args, "lang", None), mouse=not args.no_mouse)
    server = make_server(command, args.bind, args.port, public_url, args.max_sessions)
    try:
        server.serve()
    except OSError as error:
        return fail("web", _("cannot listen on {address}:{port}: {reason}").format(
            address=args.bind, port=args.port, reason=error.strerror or error))
    return 0
