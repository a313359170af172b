"""Find the import circles in a package: every import counts.

An import at module level, inside a function and under `if TYPE_CHECKING:` is an arrow from the
importing module to the imported one (a type-only import is a dependency all the same). A circle is
a set of modules that reach one another by these arrows (a strongly connected component of two or
more modules, or a module that imports itself). Read with `ast`: nothing is imported or run.

    python tools/circles.py [package folder]     # default: sos_tui; exit status 1 if any circle

`from pkg import name` points at `pkg.name` when that is a module, else at `pkg`. A parent package
whose `__init__` runs on the way is not counted as an arrow: only what the code names.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path


def modules(folder: Path) -> dict[str, Path]:
    """Every module of the package at `folder`, by its dotted name."""
    found = {}
    for path in sorted(folder.rglob("*.py")):
        parts = list(path.relative_to(folder.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _absolute(name: str, level: int, importer: str, is_package: bool) -> str:
    """The dotted name a (possibly relative) `from` names, seen from `importer`."""
    if level == 0:
        return name
    base = importer.split(".")
    base = base[: len(base) - level + (1 if is_package else 0)]
    return ".".join([*base, name] if name else base)


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules of `known` that the module `name` at `path` imports, anywhere in its code."""
    is_package = path.name == "__init__.py"
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            source = _absolute(node.module or "", node.level, name, is_package)
            targets = [
                f"{source}.{alias.name}" if f"{source}.{alias.name}" in known else source
                for alias in node.names
            ]
        else:
            continue
        for target in targets:
            while target and target not in known:  # `import a.b.c` of a name below a module
                target = target.rpartition(".")[0]
            if target:
                found.add(target)
    return found


def graph(folder: Path) -> dict[str, set[str]]:
    """Module name -> the package's modules it imports."""
    found = modules(folder)
    return {name: imports(name, path, set(found)) for name, path in found.items()}


def circles(arrows: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components that make a circle, each sorted, in name order (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(arrows.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1 or node in arrows.get(node, ()):
                found.append(sorted(component))

    for node in sorted(arrows):
        if node not in index:
            visit(node)
    return sorted(found)


def describe(component: list[str], arrows: dict[str, set[str]]) -> str:
    """One circle as its modules and the arrows between them."""
    inside = set(component)
    ties = [f"{a} -> {b}" for a in component for b in sorted(arrows[a] & inside)]
    return " <-> ".join(component) + "\n    " + "\n    ".join(ties)


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else Path(__file__).resolve().parent.parent / "sos_tui"
    arrows = graph(folder)
    found = circles(arrows)
    for component in found:
        print(describe(component, arrows))
    print(f"{len(found)} import circle(s) in {folder.name}/ ({len(arrows)} modules)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
