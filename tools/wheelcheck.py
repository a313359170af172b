"""Build the sdist and the wheel, and check the wheel as a new user gets it.

    python tools/wheelcheck.py [--dist DIR]

Run by ``.ci/run`` after the tests, and by hand the same way (the Python that runs it needs the
``build`` package: the test extra has it). It

1. builds the sdist and, from the sdist, the wheel (``python -m build``), then a second wheel
   straight from the tree, and checks both wheels hold the same files;
2. checks the wheel holds every file of the package: each module (the opening books are modules),
   the stylesheets, the web page's files and the message catalogs, compiled (``.mo``, readable by
   gettext, with Malay in it);
3. installs the wheel (not the tree) into a fresh virtual environment in a temporary folder,
   outside the checkout, and runs from there: ``sos-tui --version``, ``sos-tui --help``, a whole
   ``--plain`` game from a pipe in English and in Malay, ``sos-tui history export`` and
   ``sos-tui review`` of that game, and ``python -m sos_tui --version``.

It prints each step, the wheel's size and the time it took; any failure is one line on stderr and
exit status 1. The data folder of the installed game is a temporary one (``SOS_TUI_DATA_DIR``).
"""

from __future__ import annotations

import argparse
import gettext
import io
import os
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "sos_tui"
MUST_HAVE = (
    "sos_tui/app/sos.tcss",
    "sos_tui/locale/ms/LC_MESSAGES/sos_tui.mo",
    "sos_tui/net/page/index.html",
    "sos_tui/net/page/main.js",
    "sos_tui/cli/web_page/app_index.html",
    "sos_tui/ai/book_data.py",
    "sos_tui/ai/book5_data.py",
)
"""Named so that the check says what it is for; every other file of the package is checked too."""
MOVES = ["S a1", "O b2", "S c3", "S c1", "O b1", "S a3", "O a2", "S c2", "S b3"]
"""A whole 3x3 game: Ana's diagonal SOS (she moves again), then the board filled."""


class CheckFailed(Exception):
    pass


def step(text: str) -> None:
    print(f"wheelcheck: {text}", flush=True)


def run(*words: str | Path, cwd: Path | None = None, env: dict | None = None, stdin: str = "") -> str:
    """Run a command; its standard output, or CheckFailed with what it said."""
    done = subprocess.run(
        [str(w) for w in words], cwd=cwd, env=env, input=stdin.encode(), capture_output=True, timeout=600
    )
    if done.returncode != 0:
        said = (done.stderr or done.stdout).decode(errors="replace").strip().splitlines()[-5:]
        raise CheckFailed(f"{' '.join(map(str, words[:4]))} exited {done.returncode}: {' | '.join(said)}")
    return done.stdout.decode()


def expect(condition: bool, problem: str) -> None:
    if not condition:
        raise CheckFailed(problem)


def build(dist: Path) -> tuple[Path, Path]:
    """The sdist and the wheel built from it; a second wheel from the tree holds the same files."""
    step("building the sdist and, from it, the wheel")
    run(sys.executable, "-m", "build", "--outdir", dist, ROOT)
    [sdist], [wheel] = sorted(dist.glob("*.tar.gz")), sorted(dist.glob("*.whl"))
    step("building a wheel from the tree")
    run(sys.executable, "-m", "build", "--wheel", "--outdir", dist / "tree", ROOT)
    [tree_wheel] = sorted((dist / "tree").glob("*.whl"))
    ours, theirs = names(wheel), names(tree_wheel)
    expect(
        ours == theirs,
        f"the sdist's wheel and the tree's differ: only from the sdist "
        f"{sorted(ours - theirs)}, only from the tree {sorted(theirs - ours)}",
    )
    with tarfile.open(sdist) as tar:
        expect(any(n.endswith("/CHANGELOG.md") for n in tar.getnames()), "the sdist has no CHANGELOG.md")
    return sdist, wheel


def names(wheel: Path) -> set[str]:
    with zipfile.ZipFile(wheel) as archive:
        return {name for name in archive.namelist() if not name.endswith("/")}


def package_files() -> set[str]:
    """What the wheel must hold: every file of the package in the tree (no caches, no compiled
    catalogs of an editable install), and a compiled catalog for every ``.po``."""
    wanted = set()
    for path in PACKAGE.rglob("*"):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix not in (".pyc", ".mo"):
            wanted.add(path.relative_to(ROOT).as_posix())
            if path.suffix == ".po":
                wanted.add(path.relative_to(ROOT).with_suffix(".mo").as_posix())
    return wanted


def check_contents(wheel: Path) -> None:
    step("checking the wheel's files")
    held = names(wheel)
    missing = sorted((package_files() | set(MUST_HAVE)) - held)
    expect(not missing, f"the wheel lacks {missing}")
    with zipfile.ZipFile(wheel) as archive:
        for name in sorted(n for n in held if n.endswith(".mo")):
            catalog = gettext.GNUTranslations(io.BytesIO(archive.read(name)))
            expect(catalog.gettext("general") != "general", f"{name} is a catalog with no translations")
        metadata = archive.read(next(n for n in held if n.endswith(".dist-info/METADATA"))).decode()
    for field in (
        "License-Expression: MIT",
        "Requires-Python: >=3.11",
        "Classifier: ",
        "Provides-Extra: web",
        "Provides-Extra: redis",
        "# sos-tui",
    ):
        expect(field in metadata, f"the wheel's metadata lacks {field!r}")


def check_installed(wheel: Path, home: Path) -> None:
    """Install ``wheel`` in a fresh venv under ``home`` and play from there."""
    step("installing the wheel into a fresh virtual environment")
    venv = home / "venv"
    run(sys.executable, "-m", "venv", venv)
    python, sos = venv / "bin" / "python", venv / "bin" / "sos-tui"
    run(python, "-m", "pip", "install", "-q", "--disable-pip-version-check", wheel)
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env.update(
        SOS_TUI_DATA_DIR=str(home / "data"),
        XDG_CONFIG_HOME=str(home / "config"),
        LANGUAGE="",
        LC_ALL="C.UTF-8",
        LANG="C.UTF-8",
        PYTHONSAFEPATH="1",
    )
    where = run(python, "-c", "import sos_tui; print(sos_tui.__file__)", cwd=home, env=env).strip()
    expect(Path(where).is_relative_to(venv), f"sos_tui was imported from {where}, not the installed wheel")

    def sos_tui(*words: str, stdin: str = "") -> str:
        return run(sos, *words, cwd=home, env=env, stdin=stdin)

    step("running the installed sos-tui")
    version = sos_tui("--version")
    expect(version.startswith("sos-tui ") and "protocol" in version, f"--version said {version!r}")
    expect(
        run(python, "-m", "sos_tui", "--version", cwd=home, env=env) == version,
        "python -m sos_tui --version differs from sos-tui --version",
    )
    expect("history" in sos_tui("--help"), "--help lists no commands")
    lines = "".join(move + "\n" for move in MOVES)
    english = sos_tui("--plain", "--size", "3", "--players", "Ana,Bo", stdin=lines)
    expect(
        "Game over" in english and "SOS for Ana" in english, f"the English game ended as {english[-200:]!r}"
    )
    malay = sos_tui("--plain", "--size", "3", "--players", "Ana,Bo", "--lang", "ms", stdin=lines)
    expect("Permainan tamat" in malay, f"the Malay game ended as {malay[-200:]!r}")
    sos_tui("history", "export", "1", str(home / "game.json"))
    review = sos_tui("review", str(home / "game.json"))
    expect("1. Ana: S a1" in review and "9. Ana: S b3" in review, f"the review said {review[:200]!r}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dist", type=Path, help="where to build (default: a temporary folder)")
    args = parser.parse_args(argv)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="sos-wheelcheck-") as scratch:
        dist = args.dist or Path(scratch) / "dist"
        try:
            _sdist, wheel = build(dist)
            check_contents(wheel)
            home = Path(scratch) / "home"
            home.mkdir()
            check_installed(wheel, home)
        except CheckFailed as problem:
            print(f"wheelcheck: FAILED: {problem}", file=sys.stderr)
            return 1
        size = wheel.stat().st_size
    step(f"ok: {wheel.name}, {size / 1024:.0f} KiB, checked in {time.monotonic() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
