"""End to end: the installed sos-tui in a real terminal (tmux), driven by send-keys."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

SOS_TUI = Path(sys.executable).with_name("sos-tui")


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], capture_output=True, text=True, check=True, timeout=20).stdout


def wait_for(session: str, text: str, seconds: float = 20) -> str:
    deadline = time.monotonic() + seconds
    screen = ""
    while time.monotonic() < deadline:
        screen = tmux("capture-pane", "-p", "-t", session)
        if text in screen:
            return screen
        time.sleep(0.2)
    raise AssertionError(f"{text!r} never appeared; the screen was:\n{screen}")


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
    for key in ("s", "Right", "o", "Right", "s"):
        tmux("send-keys", "-t", session, key)
        time.sleep(0.15)
    screen = wait_for(session, "S─●─O─●─S")
    assert "Ana scored 1" in screen and "move again" in screen
    assert "S c1  +1" in screen  # the move log
    tmux("send-keys", "-t", session, "C-q")
    time.sleep(1)
    autosaves = list((tmp_path / "autosaves").glob("*.json"))
    assert len(autosaves) == 1 and '"S c1"' in autosaves[0].read_text()  # quitting mid-game keeps it
