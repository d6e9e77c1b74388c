"""Analysis at table scale (issue 20): the analysis's tasks shared over both cores, with the same
report as one core."""

from __future__ import annotations

from pathlib import Path

import pytest

from schema import load
from tests.engine.table_arenas import table_arena
from validators.games.gravstrike.context import AnalysisContext
from validators.parallel import TaskQueue
from validators.run import validate

ROOT = Path(__file__).resolve().parents[2]


def test_symmetric_images_of_a_start_are_not_searched() -> None:
    """The default arena's six starts are images of start 1 (its declared, real symmetry): one
    search.  A generated table has no symmetry: every start is searched."""
    assert AnalysisContext(load(ROOT / "arenas" / "default.yaml")).searched_starts() == ["start:1"]
    table = AnalysisContext(table_arena(24.0, 1))
    assert table.searched_starts() == ["start:1", "start:2", "start:3", "start:4"]


def test_the_task_queue_gives_each_task_to_one_process_in_order() -> None:
    """Issue 20, "share the work by cost, not by kind": both processes take the next task from
    one queue until none is left; every task is taken exactly once, each process's in rising
    order (the dearest first)."""
    import os
    import pickle

    queue = TaskQueue(200)
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        taken = []
        while (i := queue.take()) is not None:
            taken.append(i)
        os.write(w, pickle.dumps(taken))
        os._exit(0)
    os.close(w)
    mine = []
    while (i := queue.take()) is not None:
        mine.append(i)
    queue.close()
    with os.fdopen(r, "rb") as f:
        theirs = pickle.loads(f.read())
    os.waitpid(pid, 0)
    assert sorted(mine + theirs) == list(range(200))
    assert mine == sorted(mine) and theirs == sorted(theirs)
    with pytest.raises(ValueError):
        TaskQueue(256)


@pytest.mark.parametrize("name", ["table 12 #2", "default.yaml", "examples/three-player.yaml"])
def test_two_cores_give_the_same_report_as_one(name: str) -> None:
    """Whichever process takes which task, the report (travel matrix, findings, paths) is byte
    for byte the one-core report: on a generated table (every start searched), on the default
    arena (one start searched, the rest its symmetric images; the checkpoints' images from one
    search) and on a three-player arena."""
    arena = table_arena(12.0, 2) if name.startswith("table") else load(ROOT / "arenas" / name)
    one = validate(arena, source=name).to_json()
    two = validate(arena, source=name, parallel=True).to_json()
    assert two == one
    assert set(one["metrics"]["travel"]) >= {"start:1", "start:2", "start:3"}


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
    cmd = [sys.executable, "-c", "from app.cli.main import main; main()", "validate", str(path), "--json"]
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


def test_each_process_begins_on_its_own_heading_lattice() -> None:
    """Issue 38, goal 3 (memory): a generated table's starts face in from the edges, on two
    heading lattices (facings modulo 30 degrees), each a configuration-space stack that a process
    searching on it builds (20-25 MB on a 48-length table).  The main process takes the first
    lattice's starts first and the helper the other's, so that each builds one where the work
    allows; the checkpoints' searches (the lattice of 0) come next for the process that began
    there, after the validators for the other; each task is in one queue."""
    from validators.registry import default_registry
    from validators.games.gravstrike.run import _queue_plan

    arena = table_arena(12.0, 2)
    ctx = AnalysisContext(arena)
    side = [v for v in default_registry().select([], [], game="gravstrike") if not v.needs_travel]
    sources = ["checkpoint:A", "checkpoint:B"]
    plan, mine, helper = _queue_plan(arena, ctx.searched_starts(), side, sources)
    facing = {s.id: s.facing % 30.0 for s in arena.start_positions}
    starts = [[what for kind, what in tasks if kind == "start"] for tasks in plan]
    lanes = [lane for lane in starts if lane]
    assert len(lanes) == 2 and sorted(s for lane in lanes for s in lane) == ctx.searched_starts()
    assert all(len({round(facing[s], 6) for s in lane}) == 1 for lane in lanes)  # one lattice each
    assert mine[:2] == helper[:2][::-1] == [0, 1]  # each begins on its own lattice, then the other's
    zero = next(i for i, lane in enumerate(starts) if lane and round(facing[lane[0]], 6) == 0.0)
    cps = next(i for i, tasks in enumerate(plan) if ("checkpoints", sources) in tasks)
    validators = next(i for i, tasks in enumerate(plan) if tasks and tasks[0][0] == "validator")
    first, other = (mine, helper) if mine[0] == zero else (helper, mine)
    assert first.index(cps) < first.index(validators) and other.index(validators) < other.index(cps)
    assert sum(len(tasks) for tasks in plan) == len(ctx.searched_starts()) + len(side) + 1
