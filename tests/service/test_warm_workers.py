"""The service's workers start warm (issue 38, goal 5): the validation code - every installed
game's runner, validators and engine, the travel queries, pack verification - is imported once,
in the process the workers are forked from, before any worker starts. A worker's first job of
each game imports none of it, and the worker that replaces one after ``--worker-max-jobs`` holds
it before its first job too.

A probe job (:func:`tests.service.helpers.probe_job`, installed through
``ServiceConfig.worker_init``) lists the modules a worker holds; nothing is timed."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from validators.service.workers import WorkerPool

from .conftest import ROOT

ARENAS = ROOT / "arenas"


def _validate(path: Path) -> tuple[str, dict[str, Any]]:
    return "validate", {"body": path.read_bytes(), "fmt": "yaml", "source": path.name, "enable": [], "disable": [],
                        "tier": None, "budget": "arena"}


def _travel(path: Path, origin: str, goal: str) -> tuple[str, dict[str, Any]]:
    return "travel", {"body": path.read_bytes(), "fmt": "yaml", "source": path.name, "origin": origin, "goal": goal,
                      "tier": None, "budget": "arena", "exclusions": "pay"}


def _pack() -> tuple[str, dict[str, Any]]:
    from schema import loads
    from schema.packs import PackArena, PackInfo, build_pack
    from validators.run import validate

    arena = loads((ARENAS / "default.yaml").read_bytes())
    report = json.loads(json.dumps(validate(arena, enable=["bounds"]).to_json()))
    return "pack", {"body": build_pack(PackInfo("Warm"), [PackArena("warm", arena, report, b"png", b"<svg/>", b"%PDF")])}


def jobs_of_every_game() -> list[tuple[str, dict[str, Any]]]:
    """A full validation of a shipped arena of each game, a travel query of each game that has
    travel, a pack verification."""
    return [_validate(ARENAS / "default.yaml"),
            _validate(ARENAS / "car-wars" / "twin-pillars-2p.yaml"),
            _validate(ARENAS / "arena-rex" / "colosseum-30.yaml"),
            _validate(ARENAS / "glider-pit-gladiators" / "hexagonal-pit.yaml"),
            _validate(ARENAS / "mothership-grid" / "battlefield-3x5.yaml"),
            _travel(ARENAS / "default.yaml", "start:1", "checkpoint:A"),
            _travel(ARENAS / "car-wars" / "twin-pillars-2p.yaml", "start:1", "centre"),
            _travel(ARENAS / "arena-rex" / "colosseum-30.yaml", "deploy:1", "centre"),
            _pack()]


def not_stdlib(modules: set[str]) -> list[str]:
    """The modules that are not the standard library's (the validation code, its libraries)."""
    return sorted(m for m in modules if m.partition(".")[0] not in sys.stdlib_module_names)


async def _probe(pool: WorkerPool) -> dict[str, Any]:
    outcome = await pool.run("probe")
    assert outcome[0] == "ok", outcome
    doc: dict[str, Any] = json.loads(outcome[2])
    return doc


def test_a_workers_first_jobs_import_nothing_and_its_replacement_starts_warm() -> None:
    jobs = jobs_of_every_game()

    async def scenario() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], int]:
        # the first worker serves two probes and the jobs, then is recycled: the third probe
        # is its replacement's first job
        pool = WorkerPool(1, timeout=600, init="tests.service.helpers:install_probe", max_jobs=len(jobs) + 2,
                          max_rss_mib=0)
        try:
            before = await _probe(pool)
            for job, kwargs in jobs:
                outcome = await pool.run(job, **kwargs)
                assert outcome[0] == "ok", (job, outcome)
            after = await _probe(pool)
            fresh = await _probe(pool)
            return before, after, fresh, pool.recycled
        finally:
            await pool.close()

    before, after, fresh, recycled = asyncio.run(scenario())
    assert before["pid"] == after["pid"] != fresh["pid"] and recycled == 1
    # the first jobs of every game imported nothing but bits of the standard library
    assert not_stdlib(set(after["modules"]) - set(before["modules"])) == []
    # the replacement held, before its first job, everything the first worker had after all of them
    assert not_stdlib(set(after["modules"]) - set(fresh["modules"])) == []
    # and paid nothing for it: both got the imports from the one process that made them
    assert before["warmed_in"] is not None
    assert before["warmed_in"] == fresh["warmed_in"] not in (before["pid"], fresh["pid"])
