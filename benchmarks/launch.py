"""Launch time: from starting ``sos-tui`` to its first screen on a real terminal (tmux), against a
bare Textual app (one Label) started the same way in the same run.

Run: .venv/bin/python benchmarks/launch.py [--runs 7]

Each run starts a whole process in a fresh detached tmux session and polls ``capture-pane`` until
the screen's text appears: the time includes Python's start, every import, the CSS and the first
frame, as a player sees it. The runs alternate (bare, setup screen, game screen, bare, ...) so
load on the machine falls on all of them alike. Prints each run's figure, the medians, and the
ratio of each of the app's medians to the bare app's: the figure to compare across machines.
Saves and settings go to a temporary folder (SOS_TUI_DATA_DIR), so the setup screen is the one a
first launch shows.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PYTHON = Path(sys.executable)
SOS_TUI = PYTHON.with_name("sos-tui")
POLL = 0.01  # seconds between two looks at the screen
SOCKET = f"sos-launch-{os.getpid()}"  # a tmux server of our own: no other session is touched

BARE_APP = '''
from textual.app import App
from textual.widgets import Label


class Bare(App):
    def compose(self):
        yield Label("bare app ready")


Bare().run()
'''


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", "-L", SOCKET, *args], capture_output=True, text=True, timeout=20).stdout


def first_screen(command: str, text: str, env: dict[str, str], timeout: float = 30) -> float:
    """Seconds from starting ``command`` in a new terminal until ``text`` is on its screen."""
    name = f"launch-{time.monotonic_ns()}"
    words = " ".join(f"{key}={value}" for key, value in env.items())
    start = time.perf_counter()
    tmux("new-session", "-d", "-s", name, "-x", "100", "-y", "40", f"env {words} {command}")
    try:
        while time.perf_counter() - start < timeout:
            screen = tmux("capture-pane", "-p", "-t", name)
            if text in screen:
                return time.perf_counter() - start
            time.sleep(POLL)
        raise SystemExit(f"{text!r} never appeared from: {command}; the screen was:\n{screen}")
    finally:
        tmux("kill-session", "-t", name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    if shutil.which("tmux") is None:
        raise SystemExit("needs tmux")
    with tempfile.TemporaryDirectory() as folder:
        bare = Path(folder) / "bare.py"
        bare.write_text(BARE_APP)
        env = {"SOS_TUI_DATA_DIR": f"{folder}/data", "TERM": "xterm-256color", "LANG": "C.UTF-8",
               "LANGUAGE": "en", "PYTHONDONTWRITEBYTECODE": ""}
        env = {key: value for key, value in env.items() if value}
        cases = {
            "bare Textual app": (f"{PYTHON} {bare}", "bare app ready"),
            "sos-tui (setup screen)": (f"{SOS_TUI}", "complete S-O-S lines to score"),
            "sos-tui --players Ana,Bo (game)": (f"{SOS_TUI} --size 6 --players Ana,Bo", "Ana to move"),
        }
        times: dict[str, list[float]] = {case: [] for case in cases}
        try:
            # a session that lives for the whole run: the tmux server never exits between two
            # launches (a new session sent to a server that is exiting is lost)
            tmux("new-session", "-d", "-s", "keep", "cat")
            for command, text in cases.values():  # once unmeasured: bytecode written, files in the cache
                first_screen(command, text, env)
            for run in range(args.runs):
                for case, (command, text) in cases.items():
                    times[case].append(first_screen(command, text, env))
                print(f"run {run + 1}: " + ", ".join(f"{case} {t[-1]:.3f} s" for case, t in times.items()),
                      flush=True)
        finally:
            subprocess.run(["tmux", "-L", SOCKET, "kill-server"], capture_output=True)
    bare_median = statistics.median(times["bare Textual app"])
    print(f"\nmedian wall time to the first screen over {args.runs} runs "
          f"(tmux, polled every {POLL * 1000:.0f} ms):")
    for case, values in times.items():
        median = statistics.median(values)
        print(f"  {case:34} {median:.3f} s (min {min(values):.3f})  {median / bare_median:.2f}x the bare app")


if __name__ == "__main__":
    main()
