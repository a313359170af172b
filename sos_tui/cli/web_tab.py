"""One tab of ``sos-tui web``: ``sos-tui`` (the play command) in the tab's one process.

    python -m sos_tui.cli.web_tab [--separate FOLDER] [SOS-TUI OPTIONS ...]

Run by textual-serve for each tab (``sos_tui.cli.web.app_command``). The app is drawn by
``sos_tui.app.web_driver`` (which honours ``--no-mouse``). A tab is driven from a web page: it
saves games in the saves folder only (``storage.paths.CONFINE_VAR``). With ``--separate FOLDER``
(``sos-tui web --separate-data``, a public server) the tab plays in a data folder of its own made
under FOLDER (its settings too), removed when the app ends unless it holds an unfinished game (an
autosave), and confined to it: typed paths name only files there, and hosting listens on
loopback only."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

from sos_tui.cli.common import OUR_WEB_DRIVER, TEXTUAL_WEB_DRIVER  # imports no Textual


def main(argv: list[str]) -> int:
    # before anything imports Textual, which reads TEXTUAL_DRIVER once
    if os.environ.get("TEXTUAL_DRIVER") == TEXTUAL_WEB_DRIVER:
        os.environ["TEXTUAL_DRIVER"] = OUR_WEB_DRIVER
    from sos_tui.storage.paths import CONFINE_VAR, ENV_VAR, SAVES_ONLY
    from sos_tui.storage.settings import CONFIG_ENV_VAR

    if argv[:1] != ["--separate"]:
        os.environ[CONFINE_VAR] = SAVES_ONLY
        return _play(argv)
    base, rest = Path(argv[1]), argv[2:]
    base.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="tab-", dir=base))
    os.environ[ENV_VAR] = str(folder)
    os.environ[CONFIG_ENV_VAR] = str(folder / "config")  # one visitor's names are not the next one's
    os.environ[CONFINE_VAR] = "1"
    try:
        return _play(rest)
    finally:
        autosaves = folder / "autosaves"
        if not (autosaves.is_dir() and any(autosaves.iterdir())):
            shutil.rmtree(folder, ignore_errors=True)


def _play(argv: list[str]) -> int:
    from sos_tui.cli import main as sos_tui

    return sos_tui(argv)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
