"""End to end: the installed sos-tui in a real terminal (tmux), driven by send-keys."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .support.helpers import until

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

SOS_TUI = Path(sys.executable).with_name("sos-tui")


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], capture_output=True, text=True, check=True, timeout=20).stdout


def wait_for(session: str, *texts: str, seconds: float = 20) -> str:
    """The screen of ``session`` once it shows every one of ``texts`` (a terminal draws a change
    of several widgets in more than one frame)."""
    screens = [""]

    def shown() -> str | None:
        screens.append(tmux("capture-pane", "-p", "-t", session))
        return screens[-1] if all(text in screens[-1] for text in texts) else None

    try:
        return until(shown, f"{', '.join(map(repr, texts))} on the screen", seconds)
    except AssertionError as stuck:
        raise AssertionError(f"{stuck}; the screen was:\n{screens[-1]}") from None


@pytest.fixture
def session(tmp_path):
    name = f"sos-test-{os.getpid()}"
    env = f"SOS_TUI_DATA_DIR={tmp_path} TERM=xterm-256color"
    tmux("new-session", "-d", "-s", name, "-x", "100", "-y", "30",
         f"env {env} {SOS_TUI} --size 3 --players Ana,Bo")
    yield name
    subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True)


@pytest.mark.skipif(not SOS_TUI.exists(), reason="sos-tui is not installed beside this Python")
def test_play_a_scoring_move_in_a_real_terminal(session, tmp_path):
    wait_for(session, "Ana to move")
    tmux("send-keys", "-t", session, "s", "Right", "o", "Right", "s")  # in order, as typed
    # the SOS on the board, the status line and the move log, drawn
    wait_for(session, "S─●─O─●─S", "Ana scored 1", "move again", "S c1  +1")
    tmux("send-keys", "-t", session, "C-q")
    until(lambda: subprocess.run(["tmux", "has-session", "-t", session], capture_output=True).returncode,
          "the app to quit and its session to end")
    autosaves = list((tmp_path / "autosaves").glob("*.json"))
    assert len(autosaves) == 1 and '"S c1"' in autosaves[0].read_text()  # quitting mid-game keeps it
