"""The house's layers, read from the code with ``ast``: imports run one way.

Top to bottom: the launcher, the screens (menu, help, statistics, navigation),
the game scenes, the table (shared card and board machinery and art), the app's
plumbing (core), the files and the background work (store, work: no pygame),
and the engine (game: no pygame, no scenes). A module may import its own layer
or any layer below it, never one above, and no modules import each other in a
circle. Every import counts: at module level, inside a function, and under
``TYPE_CHECKING``. An import inside a function is allowed only to keep start-up
fast, and says so in a comment ("start-up") on its line or the line above.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("game", "scenes")

# Higher number = higher layer. A module's layer is its longest matching prefix.
LAYERS = {
    "game": 0,
    "scenes.store": 1,
    "scenes.work": 1,
    "scenes.core": 2,
    "scenes.table": 3,
    "scenes.games": 4,
    "scenes.screens": 5,
    "scenes.launcher": 6,
    "scenes": 6,          # the package's own __init__: a docstring
}
NO_PYGAME = ("game", "scenes.store", "scenes.work")


def layer_of(module: str) -> int:
    parts = module.split(".")
    for n in range(len(parts), 0, -1):
        prefix = ".".join(parts[:n])
        if prefix in LAYERS:
            return LAYERS[prefix]
    raise KeyError(module)


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules(root: Path) -> dict[str, Path]:
    return {module_name(p, root): p for pkg in PACKAGES for p in sorted((root / pkg).rglob("*.py"))}


class Import:
    """One import statement: who, what, where, and whether it sits in a function."""

    def __init__(self, source: str, target: str, line: int, in_function: bool) -> None:
        self.source, self.target, self.line, self.in_function = source, target, line, in_function

    def __repr__(self) -> str:
        where = "in a function" if self.in_function else "at module level"
        return f"{self.source}:{self.line} imports {self.target} ({where})"


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute name a ``from … import`` names (relative ones resolved)."""
    if node.level == 0:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(module: str, path: Path, known: set[str]) -> list[Import]:
    """Every import in a file, as the project modules (or outside names) it loads."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    is_package = path.name == "__init__.py"
    found: list[Import] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            if isinstance(child, ast.Import):
                for alias in child.names:
                    found.append(Import(module, alias.name, child.lineno, in_function))
            elif isinstance(child, ast.ImportFrom):
                base = _resolve(module, is_package, child)
                for alias in child.names:
                    # "from pkg import mod" loads the module pkg.mod when there is one.
                    full = f"{base}.{alias.name}"
                    found.append(Import(module, full if full in known else base, child.lineno,
                                        in_function))
            visit(child, inner)

    visit(tree, False)
    return found


def read_graph(root: Path = ROOT) -> tuple[dict[str, Path], list[Import]]:
    modules = project_modules(root)
    known = set(modules)
    edges = [imp for name, path in modules.items() for imp in imports_of(name, path, known)]
    return modules, edges


def is_project(name: str) -> bool:
    return name.split(".")[0] in PACKAGES


def circles(modules, edges) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan), plus self-imports."""
    graph = {m: sorted({e.target for e in edges if e.source == m and e.target in modules
                        and e.target != m}) for m in modules}
    index, low, stack, on_stack, out = {}, {}, [], set(), []

    def connect(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return out


def upward(edges) -> list[Import]:
    """Imports of a project module from a layer above the importer's."""
    return [e for e in edges if is_project(e.target) and layer_of(e.target) > layer_of(e.source)]


def forbidden_pygame(edges) -> list[Import]:
    """pygame in the engine, the files or the background work; scenes in the engine."""
    bad = []
    for e in edges:
        low = any(e.source == p or e.source.startswith(p + ".") for p in NO_PYGAME)
        if low and e.target.split(".")[0] == "pygame":
            bad.append(e)
        if e.source.split(".")[0] == "game" and e.target.split(".")[0] == "scenes":
            bad.append(e)
    return bad


def _comments_over(lines: list[str], line: int) -> str:
    """The import's own line and the block of imports and comments right above it."""
    text = [lines[line - 1]]
    k = line - 2
    while k >= 0 and lines[k].strip().startswith(("#", "from ", "import ")):
        text.append(lines[k])
        k -= 1
    return " ".join(text).lower()


def unexplained_lazy_imports(modules, edges) -> list[Import]:
    """Imports of project modules inside a function, in scenes/, without a
    comment saying they are there for start-up."""
    bad = []
    for e in edges:
        if not (e.in_function and is_project(e.target) and e.source.startswith("scenes")):
            continue
        lines = modules[e.source].read_text(encoding="utf-8").splitlines()
        if "start-up" not in _comments_over(lines, e.line):
            bad.append(e)
    return bad


@pytest.fixture(scope="module")
def graph():
    return read_graph()


def test_the_graph_is_read(graph):
    """The reader sees the house: every layer has modules, and it finds imports of
    every kind (relative, absolute, in functions)."""
    modules, edges = graph
    for prefix in LAYERS:
        assert any(m == prefix or m.startswith(prefix + ".") for m in modules), prefix
    assert any(e.source == "scenes.core.app" and e.target == "scenes.core.scene" for e in edges)
    assert any(e.source.startswith("scenes.games.") and e.target.startswith("game.") for e in edges)


def test_no_circle(graph):
    assert circles(*graph) == []


def test_no_import_from_a_layer_above(graph):
    assert upward(graph[1]) == []


def test_no_pygame_in_the_engine_the_files_or_the_work_and_no_scenes_in_the_engine(graph):
    assert forbidden_pygame(graph[1]) == []


def test_imports_inside_functions_say_they_are_for_start_up(graph):
    assert unexplained_lazy_imports(*graph) == []


# --- the checks themselves catch what they are for ---------------------------------


def _house(tmp_path, files: dict[str, str]):
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    for pkg in PACKAGES:
        (tmp_path / pkg).mkdir(exist_ok=True)
        (tmp_path / pkg / "__init__.py").touch()
    return read_graph(tmp_path)


def test_the_checks_catch_a_circle_an_upward_import_pygame_and_a_silent_lazy_import(tmp_path):
    modules, edges = _house(tmp_path, {
        "scenes/core/__init__.py": "",
        "scenes/core/app.py": "from ..screens import menu\n",
        "scenes/screens/__init__.py": "",
        "scenes/screens/menu.py": "def f():\n    from scenes.core import app\n",
        "scenes/store/__init__.py": "",
        "scenes/store/saves.py": "import pygame\n",
        "game/cards.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import scenes.core.app\n",
    })
    assert circles(modules, edges) == [["scenes.core.app", "scenes.screens.menu"]]
    assert [(e.source, e.target) for e in upward(edges)] == [
        ("game.cards", "scenes.core.app"), ("scenes.core.app", "scenes.screens.menu")]
    assert {(e.source, e.target) for e in forbidden_pygame(edges)} == {
        ("scenes.store.saves", "pygame"), ("game.cards", "scenes.core.app")}
    assert [(e.source, e.line) for e in unexplained_lazy_imports(modules, edges)] == [
        ("scenes.screens.menu", 2)]


# --- the server's house ------------------------------------------------------------

NETWORK_AND_DATABASES = ("websockets", "sqlite3", "socket", "http", "asyncio", "psycopg", "redis")
COMMAND_LINE = ("game.cli", "game.__main__")


def is_rules_module(name: str) -> bool:
    return (name.split(".")[0] == "game" and name not in COMMAND_LINE
            and not name.startswith(("game.net", "game.server")))


def server_house_breaches(edges) -> list[Import]:
    """A rules module importing network play, sockets or a database; the client side
    (game.net) importing the server (game.server)."""
    bad = []
    for e in edges:
        top = e.target.split(".")[0]
        if is_rules_module(e.source) and (top in NETWORK_AND_DATABASES
                                          or e.target.startswith(("game.net", "game.server"))):
            bad.append(e)
        if e.source.startswith("game.net") and e.target.startswith("game.server"):
            bad.append(e)
    return bad


def test_the_server_has_a_house_of_its_own(graph):
    modules, edges = graph
    assert any(m.startswith("game.server.") for m in modules)
    assert any(e.source.startswith("game.server") and e.target == "game.net.protocol" for e in edges)
    assert server_house_breaches(edges) == []


def test_the_house_check_catches_a_rules_module_with_a_socket_and_a_client_importing_the_server(tmp_path):
    modules, edges = _house(tmp_path, {
        "game/hamilton.py": "import sqlite3\n",
        "game/net/__init__.py": "",
        "game/net/client.py": "from ..server import storage\n",
        "game/server/__init__.py": "",
        "game/server/storage.py": "from ..net import client\n",
    })
    found = {(e.source, e.target) for e in server_house_breaches(edges)}
    assert found == {("game.hamilton", "sqlite3"), ("game.net.client", "game.server.storage")}


def test_the_client_side_and_the_default_server_load_without_the_server_extras():
    """psycopg and redis are the ``server`` extra: nothing else may need them."""
    import subprocess
    import sys
    code = ("import sys, game.net.client, game.net.bridge, game.net.view, game.server.game_server, "
            "game.server.cli, game.server.host, game.cli; "
            "print(sorted(m for m in ('psycopg', 'redis') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
