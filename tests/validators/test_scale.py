"""Analysis at table scale (issue 20): the start searches shared by cost over both cores, with the
same report as one core."""

from __future__ import annotations

from pathlib import Path

from schema import load
from tests.engine.table_arenas import table_arena
from validators.context import AnalysisContext
from validators.run import split_starts, validate

ROOT = Path(__file__).resolve().parents[2]


def test_starts_are_shared_by_cost_and_symmetric_images_are_not_searched() -> None:
    """The default arena's six starts are images of start 1 (its declared, real symmetry): one
    search, here.  A generated table has no symmetry: four searches, three here and one in the
    helper (whose other work costs about one search)."""
    default = AnalysisContext(load(ROOT / "arenas" / "default.yaml"))
    assert split_starts(default) == (["start:1"], [])
    table = AnalysisContext(table_arena(24.0, 1))
    assert split_starts(table) == (["start:1", "start:2", "start:4"], ["start:3"])


def test_two_cores_give_the_same_report_as_one_on_a_generated_table() -> None:
    """With a start searched in the helper, the report (travel matrix, findings, paths) is byte
    for byte the one-core report."""
    arena = table_arena(12.0, 2)
    one = validate(arena, source="table").to_json()
    two = validate(arena, source="table", parallel=True).to_json()
    assert two == one
    assert set(one["metrics"]["travel"]) == {"start:1", "start:2", "start:3", "start:4"}
