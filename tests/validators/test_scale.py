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


def test_validate_json_reports_each_process_peak_memory_when_asked(tmp_path: Path) -> None:
    """``arena validate --json --memory`` adds ``metrics.memory``: the analysis's peak resident
    memory in the main process and in the forked helper (issue 20: "memory of any analysis ...
    reported in --json metrics"); plain ``--json`` stays deterministic, without it."""
    import json
    import subprocess
    import sys

    import jsonschema

    arena = table_arena(12.0, 2)
    path = tmp_path / "table.yaml"
    from schema.io import save

    save(arena, path)
    cmd = [sys.executable, "-c", "from validators.cli import main; main()", "validate", str(path), "--json"]
    plain = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    withmem = subprocess.run([*cmd, "--memory"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert plain.returncode == withmem.returncode in (0, 1), withmem.stderr
    doc, mem_doc = json.loads(plain.stdout), json.loads(withmem.stdout)
    assert "memory" not in doc["metrics"]
    peaks = mem_doc["metrics"].pop("memory")["peak_rss_mb"]
    assert mem_doc == doc  # the rest is the same report
    # the whole process holds numpy, shapely, scipy and the searches: tens of MiB at least, each
    assert 40 < peaks["main"] < 4096 and 40 < peaks["helper"] < 4096, peaks
    mem_doc["metrics"]["memory"] = {"peak_rss_mb": peaks}
    jsonschema.validate(mem_doc, json.loads((ROOT / "schema" / "report.schema.json").read_text(encoding="utf-8")))


def test_memory_peak_is_reset_at_the_start_of_an_analysis() -> None:
    """The figure is the analysis's peak, not the process's: memory held and freed before the
    analysis began does not count (where the platform lets a process reset its peak)."""
    import numpy as np

    from validators import memory

    big = np.ones(300 * 1024 * 1024 // 8)  # 300 MiB, touched
    before = memory.peak_mb()
    del big
    report = validate(load(ROOT / "arenas" / "default.yaml"), enable=["bounds"])
    assert before is not None and report.memory["main"] is not None
    if memory.start():
        assert report.memory["main"] < before - 200
    assert report.memory["helper"] is None  # one core: no helper
