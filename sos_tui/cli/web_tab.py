"""One tab of ``sos-tui web --separate-data``: ``sos-tui`` (the play command) in a data folder
of its own, made under the folder given, and removed when the app ends unless it holds an
unfinished game (an autosave).

    python -m sos_tui.cli.web_tab FOLDER

Run by textual-serve for each tab (``sos_tui.cli.web.app_command``), in the tab's one process."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path


def main(argv: list[str]) -> int:
    (base,) = argv
    Path(base).mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="tab-", dir=base))
    os.environ["SOS_TUI_DATA_DIR"] = str(folder)
    from sos_tui.cli import main as sos_tui

    try:
        return sos_tui([])
    finally:
        autosaves = folder / "autosaves"
        if not (autosaves.is_dir() and any(autosaves.iterdir())):
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
