"""Architecture: layers point one way (editor -> validators -> engine -> schema), games' packages
(rules, file format, validators) independent of each other, Qt only in editor/, and schema +
engine (every game's rules package) and validators type-check under mypy --strict."""

from __future__ import annotations

import subprocess
import warnings
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def test_import_contracts_hold() -> None:
    result = subprocess.run([str(BIN / "lint-imports"), "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Contracts: 7 kept, 0 broken" in result.stdout


def test_mypy_strict_on_schema_engine_and_validators() -> None:
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
