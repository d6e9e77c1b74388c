"""Architecture: layers point one way (editor -> validators -> engine -> schema), games' packages
(rules, file format, validators) independent of each other, Qt only in editor/, and every
package - schema, engine (every game's rules package), validators, app and editor (every game's
editor modules) - type-checks under mypy --strict."""

from __future__ import annotations

import re
import subprocess
import warnings
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def test_import_contracts_hold() -> None:
    result = subprocess.run([str(BIN / "lint-imports"), "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    declared = (ROOT / "pyproject.toml").read_text(encoding="utf-8").count("[[tool.importlinter.contracts]]")
    assert f"Contracts: {declared} kept, 0 broken" in result.stdout


def test_mypy_strict_everywhere() -> None:
    """mypy --strict over every package of the product (the editor included: no module of it is
    left to silent following)."""
    config = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'files = ["schema", "engine", "validators", "editor", "app"]' in config
    assert "follow_imports" not in config
    result = subprocess.run([str(BIN / "mypy")], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


SOFT_LINES = 800  # a module past this is worth a look: is it one cohesive thing?
HARD_LINES = 1500  # past this a module is surely several things


def test_modules_stay_cohesive() -> None:
    """Cohesion over line counts: a whole class stays in one module even when it is long, so the
    check only warns at SOFT_LINES (pytest's warnings summary lists the modules) and fails at
    HARD_LINES."""
    soft, hard = [], []
    for pkg in ("schema", "engine", "validators", "editor"):
        for path in (ROOT / pkg).rglob("*.py"):
            lines = path.read_text(encoding="utf-8").count("\n")
            where = f"{path.relative_to(ROOT)}: {lines} lines"
            if lines > HARD_LINES:
                hard.append(where)
            elif lines > SOFT_LINES:
                soft.append(where)
    for where in soft:
        warnings.warn(f"long module (over {SOFT_LINES} lines): {where}", stacklevel=1)
    assert not hard, hard


PACKAGES = ("schema", "engine", "validators", "editor")


def _crossings(path: Path) -> list[str]:
    """``from pkg.mod import _name`` and ``mod._name`` (``mod`` imported from our packages) in
    ``path``: a private name used outside the module that defines it."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
    modules: set[str] = set()
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules |= {a.asname or a.name.split(".")[0] for a in node.names if a.name.split(".")[0] in PACKAGES}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module \
                and node.module.split(".")[0] in PACKAGES:
            for a in node.names:
                modules.add(a.asname or a.name)
                if a.name.startswith("_") and not a.name.startswith("__"):
                    out.append(f"{where}:{node.lineno}: imports {node.module}.{a.name}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules \
                and node.attr.startswith("_") and not node.attr.startswith("__"):
            out.append(f"{where}:{node.lineno}: uses {node.value.id}.{node.attr}")
    return out


def test_private_names_stay_in_their_module() -> None:
    found = [c for pkg in PACKAGES for path in sorted((ROOT / pkg).rglob("*.py")) for c in _crossings(path)]
    assert not found, found


def test_the_private_name_check_sees_both_forms(tmp_path: Path) -> None:
    bad = tmp_path / "crossing.py"
    bad.write_text("from editor import render as R\nfrom schema.io import _x\nR._alpha(1)\n", encoding="utf-8")
    assert [c.split(": ", 1)[1] for c in _crossings(bad)] == ["imports schema.io._x", "uses R._alpha"]


#: Underscore names that are public API of the standard library (``os._exit``, named tuples').
STDLIB_UNDERSCORED = frozenset({"_exit", "_getframe", "_replace", "_asdict", "_fields", "_make", "_field_defaults"})
#: Packages whose modules keep their objects' private attributes to themselves (the editor joins
#: when its classes are whole again: issue 37, point 5).
ATTRIBUTE_PACKAGES = ("schema", "engine", "validators")


def _foreign_privates(path: Path) -> list[str]:
    """``obj._name`` read or set in ``path`` (``obj`` not ``self``/``cls``) where ``path`` does not
    define ``_name`` (a def, a class, a variable or field, ``self._name = ...``): a private
    attribute of an object of another module's class - typically a method moved out of its class
    into a free function that takes the instance as a parameter."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
    defined: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defined.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) \
                and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            defined.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            defined.add(node.id)
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__") \
                and node.attr not in defined and node.attr not in STDLIB_UNDERSCORED \
                and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
            out.append((node.lineno, f"{where}:{node.lineno}: uses {ast.unparse(node.value)}.{node.attr}"))
    return [c for _, c in sorted(out)]


def test_private_attributes_stay_in_their_module() -> None:
    found = [c for pkg in ATTRIBUTE_PACKAGES for path in sorted((ROOT / pkg).rglob("*.py")) for c in _foreign_privates(path)]
    assert not found, found


def test_the_private_attribute_check_sees_a_moved_method(tmp_path: Path) -> None:
    bad = tmp_path / "moved.py"
    bad.write_text("def expand(search):\n    search._push(1)\n    search._seen = 2\n    self._own()\n    os._exit(0)\n"
                   "\nclass A:\n    def _mine(self): ...\n\ndef ok(a):\n    a._mine()\n", encoding="utf-8")
    assert [c.split(": ", 1)[1] for c in _foreign_privates(bad)] == ["uses search._push", "uses search._seen"]
