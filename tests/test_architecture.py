"""Architecture: layers point one way (editor -> validators -> engine -> schema), games' packages
(rules, file format, validators) independent of each other, Qt only in editor/, and schema +
engine (every game's rules package) type-check under mypy --strict."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def test_import_contracts_hold() -> None:
    result = subprocess.run([str(BIN / "lint-imports"), "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Contracts: 6 kept, 0 broken" in result.stdout


def test_mypy_strict_on_schema_and_engine() -> None:
    result = subprocess.run([str(BIN / "mypy")], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_modules_stay_small() -> None:
    big = []
    for pkg in ("schema", "engine", "validators", "editor"):
        for path in (ROOT / pkg).rglob("*.py"):
            lines = path.read_text(encoding="utf-8").count("\n")
            if lines > 600:
                big.append(f"{path.relative_to(ROOT)}: {lines} lines")
    assert not big, big
