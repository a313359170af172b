"""No import circles in sos_tui/: every import counts (module level, in a function, type-only)."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _tool():
    spec = importlib.util.spec_from_file_location("circles_tool", ROOT / "tools" / "circles.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


circles_tool = _tool()


def test_sos_tui_has_no_import_circle():
    arrows = circles_tool.graph(ROOT / "sos_tui")
    found = circles_tool.circles(arrows)
    assert not found, "import circles:\n" + "\n".join(circles_tool.describe(c, arrows) for c in found)


def _package(tmp_path, files):
    for name, text in files.items():
        path = tmp_path / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    for folder in [tmp_path / "pkg", *(tmp_path / "pkg").rglob("*")]:
        if folder.is_dir() and not (folder / "__init__.py").exists():
            (folder / "__init__.py").write_text("")
    return circles_tool.circles(circles_tool.graph(tmp_path / "pkg"))


def test_a_type_only_import_back_makes_a_circle(tmp_path):
    found = _package(
        tmp_path,
        {
            "room.py": "import typing\nif typing.TYPE_CHECKING:\n    from .server import Server\n",
            "server.py": "from pkg.room import Room\n",
        },
    )
    assert found == [["pkg.room", "pkg.server"]]


def test_an_import_inside_a_function_makes_a_circle_through_a_subpackage(tmp_path):
    found = _package(
        tmp_path,
        {
            "files.py": "def load():\n    from pkg.history import History\n",
            "history/__init__.py": "from .schema import History\n",
            "history/schema.py": "from .. import files\n",
            "atomic.py": "import pkg.files\n",
        },
    )
    assert found == [["pkg.files", "pkg.history", "pkg.history.schema"]]


def test_imports_one_way_make_no_circle(tmp_path):
    found = _package(
        tmp_path,
        {
            "atomic.py": "import os\n",
            "files.py": "from . import atomic\nfrom .atomic import write\n",
            "history/schema.py": "from pkg import atomic\nimport pkg.files\n",
        },
    )
    assert found == []
