"""The code base stays clean by the project's own lint rules (configured in pyproject.toml)."""

import ast
import subprocess
import sys
from pathlib import Path


def test_ruff_finds_nothing():
    root = Path(__file__).resolve().parent.parent
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", str(root)],
                            capture_output=True, text=True, cwd=root, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def test_modules_imported_from_another_module(tmp_path):
    (tmp_path / "test_a.py").write_text("from .helpers import wait_for\nfrom . import games\n")
    (tmp_path / "test_b.py").write_text("def f():\n    from .test_a import x\n")
    (tmp_path / "test_c.py").write_text("import tests.test_b\nfrom tests import test_a\n")
    assert imported_test_modules(tmp_path) == {
        "test_b.py": ["test_a"],
        "test_c.py": ["test_b", "test_a"],
    }


def test_no_test_module_imports_another_test_module():
    """Shared helpers live in tests/support/ (helpers, games, webpage): importing a test module
    runs its fixtures and tests' collection twice and ties two files together."""
    assert imported_test_modules(Path(__file__).parent) == {}
    assert imported_test_modules(Path(__file__).parent / "support") == {}


def imported_test_modules(folder: Path) -> dict[str, list[str]]:
    """For each Python file of ``folder`` (conftest.py and the helpers too), the test modules
    (``test_*``) it imports, inside functions too; files that import none are left out."""
    found = {}
    for path in sorted(folder.glob("*.py")):
        names = []
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names += [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                module = node.module or ""
                names += [module] if module else []
                names += [f"{module}.{alias.name}" for alias in node.names]
        tests = [name.rpartition(".")[2] for name in names if name.rpartition(".")[2].startswith("test_")]
        if tests:
            found[path.name] = list(dict.fromkeys(tests))
    return found
