"""Reports of the shipped unfair arenas (one of each game), validated once per session: what
``arena validate --json`` prints for them (:meth:`validators.run.Report.to_json`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import schema
from validators.run import validate

ROOT = Path(__file__).resolve().parents[2]
#: The shipped unfair arenas: one per game.
UNFAIR = {
    "gravstrike": ROOT / "arenas" / "examples" / "lopsided.yaml",
    "car-wars-6e": ROOT / "arenas" / "car-wars" / "broken-yard-flawed.yaml",
    "arena-rex": ROOT / "arenas" / "arena-rex" / "lopsided-pit.yaml",
    "glider-pit-gladiators": ROOT / "arenas" / "glider-pit-gladiators" / "crooked-pit-unfair.yaml",
    "mothership-grid": ROOT / "arenas" / "mothership-grid" / "lopsided-battlefield-unfair.yaml",
}


@pytest.fixture(scope="session")
def unfair_reports() -> dict[str, tuple[Path, Any, dict[str, Any]]]:
    """game -> (file, arena, report document)."""
    out = {}
    for game, path in UNFAIR.items():
        arena = schema.load(path)
        out[game] = (path, arena, validate(arena, source=str(path)).to_json())
    return out
