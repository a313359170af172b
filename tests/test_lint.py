"""The code base stays clean by the project's own lint rules (configured in pyproject.toml)."""

import subprocess
import sys
from pathlib import Path


def test_ruff_finds_nothing():
    root = Path(__file__).resolve().parent.parent
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", str(root)],
                            capture_output=True, text=True, cwd=root, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
