"""The house drawn from imports: no module of ours imports, directly or through others,
a module that imports it back (every import counts, also those only for type checking)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = {"diamant_tui": ROOT / "diamant_tui", "diamant_server": ROOT / "server"}


def modules() -> dict[str, Path]:
    """Every module of ours by its import name."""
    found = {}
    for top, folder in PACKAGES.items():
        for path in folder.rglob("*.py"):
            parts = [top, *path.relative_to(folder).with_suffix("").parts]
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of ours that module ``name`` imports."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            candidates = [target] + [f"{target}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            candidates = [alias.name for alias in node.names]
        else:
            continue
        for candidate in candidates:
            while candidate and candidate not in known:
                candidate = candidate.rpartition(".")[0]
            if candidate and candidate != name:
                found.add(candidate)
    return found


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other (Tarjan's strongly connected parts)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                other = stack.pop()
                group.append(other)
                if other == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def test_no_module_imports_one_that_imports_it_back():
    known = modules()
    graph = {name: imports(name, path, known) for name, path in known.items()}
    assert circles(graph) == []


def test_the_finder_sees_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_interface_does_not_import_the_server():
    known = modules()
    for name, path in known.items():
        if name.startswith("diamant_tui.") and name != "diamant_tui.cli":
            assert not any(m.startswith("diamant_server") for m in imports(name, path, known)), name


def test_the_engine_imports_only_the_engine():
    """The rules know nothing of tables, screens, players or tools (and so no asyncio)."""
    known = modules()
    for name, path in known.items():
        if name.startswith("diamant_tui.engine"):
            ours = imports(name, path, known)
            assert all(m.startswith("diamant_tui.engine") for m in ours), (name, ours)
            text = path.read_text(encoding="utf-8")
            assert "import asyncio" not in text and "textual" not in text, name


def test_the_table_does_not_import_the_interface():
    """The table sends views and events to its seats; it never draws them."""
    known = modules()
    for name, path in known.items():
        if name.startswith("diamant_tui.table"):
            ours = imports(name, path, known)
            assert not any(m.startswith(("diamant_tui.ui", "diamant_server")) for m in ours), name


def test_the_readme_draws_the_folders_as_they_are():
    """The README's map of the code names every package folder, and only folders that exist."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## How the code is laid out", 1)[1].split("\n## ", 1)[0]
    tree = section.split("```", 2)[1]
    named: set[str] = set()
    parent = ""
    for line in tree.splitlines():
        entry = line.split()[0] if line.strip() else ""
        if not entry.endswith("/"):
            continue
        if line.startswith(" "):
            named.add(parent + entry.rstrip("/"))
        else:
            parent = entry
            named.add(entry.rstrip("/"))
    assert all((ROOT / folder).is_dir() for folder in named), named
    packages = {str(p.parent.relative_to(ROOT)) for p in (ROOT / "diamant_tui").glob("*/__init__.py")}
    assert packages <= named, packages - named
