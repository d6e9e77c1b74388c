"""Fixtures for pack/export tests: shipped arenas, a tiny measurable arena, fast validators."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

import schema  # noqa: E402
from schema.shapes import Rect
from schema.games.gravstrike.model import Arena, Units, Wall

ROOT = Path(__file__).resolve().parents[2]
DEFAULT = ROOT / "arenas" / "default.yaml"
SHIPPED = [DEFAULT, *sorted((ROOT / "arenas" / "examples").glob("*.yaml"))]
#: Quick validators (placement and layout) so pack tests don't wait for travel analysis.
FAST = ["bounds", "overlap", "exclusion-placement", "checkpoint-mix", "field-orbit", "symmetry"]


@pytest.fixture(scope="session")
def default_arena() -> Arena:
    return schema.load(DEFAULT)


def measurable_arena(length_mm: float = 30.0) -> Arena:
    """6 x 3 lengths with one 4 x 1 wall in the middle: easy to find and measure on paper."""
    return Arena(name="Ruler test", bounds=Rect((0.0, 0.0), (6.0, 3.0)), units=Units(length_mm),
                 walls=(Wall("W1", Rect((0.0, 0.0), (4.0, 1.0))),))
