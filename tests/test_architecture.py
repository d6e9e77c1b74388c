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
    assert "Contracts: 6 kept, 0 broken" in result.stdout


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
