"""The board game's screens are compositions, read from the code with ``ast``
(as ``test_layers`` reads the layers).

A board screen is a table, two players and a toolbar, not a pile of classes
each switching inherited behaviour off. Read from the class graph of ``game``
and ``scenes``:

- no board screen class has more than three project ancestors;
- none overrides more than eight methods a project base class implements (a
  hook the base only declares, with an empty body, is filled, not overridden);
- none switches an inherited method off: no method bound to another one in the
  class body (``undo = redo = _not_here``), no override that does nothing in
  place of a base method that did something;
- no action is reused under another name: a method the toolbar runs has one
  label, and a method named for an action (``hint``) is only ever labelled so.

The checks run on the project, and on a small made-up screen shaped as the
old online table was, which they must refuse.
"""
from __future__ import annotations

import ast
from pathlib import Path

from .test_layers import ROOT, module_name, project_modules

BOARD_SCREEN = "scenes.table.board_screen.BoardScreen"
MAX_ANCESTORS = 3
MAX_OVERRIDES = 8
# Where the board's parts live: their classes are checked for switched-off methods too.
BOARD_MODULES = ("scenes.table.board_", "scenes.games.camelot_board_scene", "scenes.games.camelot_online",
                 "scenes.games.camelot_computer", "scenes.games.camelot_famous_demo",
                 "scenes.games.camelot_analysis", "scenes.screens.replay")


class ClassInfo:
    def __init__(self, name: str, module: str, node: ast.ClassDef, bases: list[str]) -> None:
        self.name, self.module, self.node, self.bases = name, module, node, bases

    @property
    def methods(self) -> dict[str, ast.FunctionDef]:
        return {n.name: n for n in self.node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}


def _resolve_relative(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def read_classes(sources: dict[str, tuple[str, bool]]) -> dict[str, ClassInfo]:
    """Every class by its qualified name, its bases resolved through the imports.
    ``sources``: module → (source text, is a package)."""
    classes: dict[str, ClassInfo] = {}
    for module, (text, is_package) in sources.items():
        tree = ast.parse(text)
        names: dict[str, str] = {}
        for node in tree.body:
            if isinstance(node, ast.ImportFrom):
                origin = _resolve_relative(module, is_package, node)
                for alias in node.names:
                    names[alias.asname or alias.name] = f"{origin}.{alias.name}"
            elif isinstance(node, ast.ClassDef):
                names[node.name] = f"{module}.{node.name}"
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                bases = [names.get(b.id, b.id) for b in node.bases if isinstance(b, ast.Name)]
                classes[f"{module}.{node.name}"] = ClassInfo(node.name, module, node, bases)
    return classes


def ancestors(name: str, classes: dict[str, ClassInfo]) -> list[str]:
    """The project classes ``name`` inherits from, nearest first, each once."""
    out: list[str] = []
    todo = list(classes[name].bases)
    while todo:
        base = todo.pop(0)
        if base in classes and base not in out:
            out.append(base)
            todo += classes[base].bases
    return out


def is_stub(func: ast.FunctionDef) -> bool:
    """A body that does nothing: a docstring, ``...``, ``pass``, a constant or an
    empty collection returned, or NotImplementedError raised."""
    body = [n for n in func.body
            if not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))]
    if not body:
        return True
    if len(body) > 1:
        return False
    only = body[0]
    if isinstance(only, ast.Pass):
        return True
    if isinstance(only, ast.Return):
        value = only.value
        return value is None or isinstance(value, ast.Constant) or (
            isinstance(value, (ast.List, ast.Tuple, ast.Dict, ast.Set)) and not getattr(
                value, "elts", getattr(value, "keys", [])))
    if isinstance(only, ast.Raise):
        exc = only.exc
        target = exc.func if isinstance(exc, ast.Call) else exc
        return isinstance(target, ast.Name) and target.id == "NotImplementedError"
    return False


def overrides(name: str, classes: dict[str, ClassInfo]) -> list[str]:
    """The methods of ``name`` that replace one a project ancestor implements."""
    implemented = {}
    for base in ancestors(name, classes):
        for method, func in classes[base].methods.items():
            implemented.setdefault(method, func)
    return sorted(m for m in classes[name].methods
                  if m != "__init__" and m in implemented and not is_stub(implemented[m]))


def switched_off(name: str, classes: dict[str, ClassInfo]) -> list[str]:
    """Methods bound to another in the class body, and overrides that do
    nothing where the base's method did something."""
    info = classes[name]
    known = set(info.methods)
    for base in ancestors(name, classes):
        known |= set(classes[base].methods)
    out = []
    for node in info.node.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name) and node.value.id in known:
            out += [f"{t.id} = {node.value.id}" for t in node.targets if isinstance(t, ast.Name)]
    for method in overrides(name, classes):
        if is_stub(info.methods[method]):
            out.append(f"{method}: does nothing in place of the base's")
    return out


def toolbar_labels(trees: list[ast.Module]) -> dict[str, set[str]]:
    """Each method a ``Command`` or ``Button`` runs (``self.x``) → its labels."""
    labels: dict[str, set[str]] = {}
    for tree in trees:
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("Command", "Button") and len(node.args) >= 2):
                continue
            label, run = node.args[0], node.args[1]
            if (isinstance(label, ast.Call) and isinstance(label.func, ast.Name)
                    and label.func.id == "N_" and label.args):     # marked for translation
                label = label.args[0]
            if isinstance(label, ast.Constant) and isinstance(run, ast.Attribute) and label.value:
                labels.setdefault(run.attr, set()).add(label.value.lower())
    return labels


def reused_actions(labels: dict[str, set[str]]) -> list[str]:
    """A method under two labels, or named for an action and labelled as another."""
    words = {label for names in labels.values() for label in names}
    out = [f"{method}: {sorted(names)}" for method, names in labels.items() if len(names) > 1]
    out += [f"{method} labelled {sorted(names)}" for method, names in labels.items()
            if method in words and len(names) == 1 and names != {method}]
    return out


def _project() -> tuple[dict[str, ClassInfo], list[ast.Module]]:
    modules = project_modules(ROOT)
    sources = {m: (p.read_text(encoding="utf-8"), p.name == "__init__.py") for m, p in modules.items()}
    board = [ast.parse(text) for m, (text, _) in sources.items() if m.startswith(BOARD_MODULES)]
    return read_classes(sources), board


def board_screens(classes: dict[str, ClassInfo]) -> list[str]:
    return sorted(n for n in classes if n == BOARD_SCREEN or BOARD_SCREEN in ancestors(n, classes))


def test_the_board_screens_are_thin_compositions():
    classes, _ = _project()
    screens = board_screens(classes)
    assert {"scenes.games.camelot_board_scene.CamelotBoardScene",
            "scenes.games.camelot_online.CamelotOnlineScene",
            "scenes.screens.replay.ReplayScene"} <= set(screens)
    for name in screens:
        assert len(ancestors(name, classes)) <= MAX_ANCESTORS, (name, ancestors(name, classes))
        assert len(overrides(name, classes)) <= MAX_OVERRIDES, (name, overrides(name, classes))


def test_no_board_class_switches_a_method_off():
    classes, _ = _project()
    board = [n for n in classes if classes[n].module.startswith(BOARD_MODULES)]
    assert len(board) > 10          # the screens, the table, its painter, the players, the parts
    assert {n: switched_off(n, classes) for n in board if switched_off(n, classes)} == {}


def test_no_action_is_reused_under_another_name():
    _, trees = _project()
    labels = toolbar_labels(trees)
    assert labels["hint"] == {"hint"} and labels["chat"] == {"chat"}
    assert reused_actions(labels) == []


# The checks refuse what the issue described: a screen on a long chain that
# switches four commands off and runs Chat through ``hint``.
OLD_SHAPE = '''
class Scene:
    def undo(self):
        self.game.undo()
    def redo(self):
        self.game.redo()
    def hint(self):
        self.show(self.game.best())
    def enter(self): ...
class A(Scene): pass
class B(A): pass
class C(B): pass
class Online(C):
    def _not_here(self):
        self.toast("not here")
    undo = redo = _not_here
    def hint(self):
        open_phrases(self)
    def enter(self):
        pass
    def buttons(self):
        return [Button("Hint", self.hint), Button("Chat", self.hint)]
class Quiet(Scene):
    def undo(self):
        pass
'''


def test_the_checks_refuse_the_old_shape():
    classes = read_classes({"old": (OLD_SHAPE, False)})
    assert ancestors("old.Online", classes) == ["old.C", "old.B", "old.A", "old.Scene"]
    assert len(ancestors("old.Online", classes)) > MAX_ANCESTORS
    assert overrides("old.Online", classes) == ["hint"]       # enter only filled a hook
    assert switched_off("old.Online", classes) == ["undo = _not_here", "redo = _not_here"]
    assert switched_off("old.Quiet", classes) == ["undo: does nothing in place of the base's"]
    assert reused_actions(toolbar_labels([ast.parse(OLD_SHAPE)])) == ["hint: ['chat', 'hint']"]


def test_module_names_resolve_as_the_layers_test_names_them():
    assert module_name(ROOT / "scenes" / "table" / "board_screen.py", ROOT) == "scenes.table.board_screen"
