"""The service's workers start warm (issue 38, goal 5): the validation code - every installed
game's runner, validators and engine, the travel queries, pack verification - is imported once,
in the process the workers are forked from, before any worker starts. A worker's first job of
each game imports none of it, and the worker that replaces one after ``--worker-max-jobs`` holds
it before its first job too.

A probe job (:func:`tests.service.helpers.probe_job`, installed through
``ServiceConfig.worker_init``) lists the modules a worker holds; nothing is timed. The workers
are the preloader's children now, not the service's: they still end with it, mid-job too."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.procs import alive, children_of, survivors_of_kill
from app.service.workers import WorkerPool

from .conftest import ROOT, free_port

ARENAS = ROOT / "arenas"
#: Looks 0.1-0.2 s apart: for the service to answer, for its worker to be at work; once the
#: service is killed, at its helpers.
LOOKS = 600
AFTER_KILL = 100


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


def test_a_killed_preloader_is_started_again_for_the_next_worker() -> None:
    """Its workers die with it (the kernel's parent-death signal): the job that finds one dead is
    answered as a crash, and the worker put in its place comes from a new preloader."""
    from app.service.workers import WorkerCrashed

    async def scenario() -> None:
        pool = WorkerPool(1, timeout=600, init="tests.service.helpers:install_probe")
        try:
            first = await _probe(pool)
            assert pool.preloader is not None and pool.preloader.pid == first["warmed_in"]
            os.kill(first["warmed_in"], signal.SIGKILL)
            worker = next(iter(pool._all)).process
            worker.join(60)
            assert not worker.is_alive()
            with pytest.raises(WorkerCrashed):
                await pool.run("probe")
            again = await _probe(pool)
            assert again["warmed_in"] not in (first["warmed_in"], again["pid"])
            assert pool.preloader.started == 2 and pool.replaced == 1
        finally:
            await pool.close()

    asyncio.run(scenario())


def test_without_preloading_each_worker_imports_for_itself() -> None:
    """``preload=False`` (and where there is no fork): spawned workers, each warmed up on its own."""
    async def scenario() -> dict[str, Any]:
        pool = WorkerPool(1, timeout=600, init="tests.service.helpers:install_probe", preload=False)
        try:
            assert pool.preloader is None
            return await _probe(pool)
        finally:
            await pool.close()

    doc = asyncio.run(scenario())
    assert doc["warmed_in"] == doc["pid"]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc (Linux)")
def test_the_preloader_and_its_workers_end_when_the_service_is_killed_mid_job() -> None:
    """``kill -9`` of ``arena serve`` while a worker validates: the preloader (the service's
    child) and the worker (the preloader's) end too. Looked at a bounded number of times; the
    wall limits are only a safety net against a hung test."""
    from schema.io import dumps
    from tests import runaway

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen([sys.executable, "-c", "from app.cli.main import main; main()", "serve", "--host",
                             "127.0.0.1", "--port", str(port), "--workers", "1", "--timeout", "300", "--log-level",
                             "warning"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    helpers: list[int] = []
    try:
        for _ in range(LOOKS):
            assert proc.poll() is None, "arena serve exited"
            try:
                if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.2)
        # the preloader is the service's child that has children: the workers
        preloaders = [p for p in children_of(proc.pid) if children_of(p)]
        assert len(preloaders) == 1, children_of(proc.pid)
        workers = children_of(preloaders[0])
        helpers = [*preloaders, *workers]
        body = dumps(runaway.gravstrike_sprawl()).encode()  # runs far longer than this test looks

        def post() -> None:
            try:
                httpx.post(base + "/v1/validate", content=body, headers={"content-type": "application/yaml"},
                           timeout=300)
            except httpx.HTTPError:
                pass  # the server is killed under it

        threading.Thread(target=post, daemon=True).start()
        for _ in range(LOOKS):  # the worker at work: its CPU time grows
            if _cpu_ticks(workers[0]) > 50:
                break
            time.sleep(0.1)
        assert all(alive(p) for p in helpers)
        survivors = survivors_of_kill(proc, helpers, AFTER_KILL)
        assert not survivors, f"still running after arena serve was killed: {survivors} (preloader {preloaders[0]})"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for p in helpers:
            if alive(p):
                os.kill(p, signal.SIGKILL)


def _cpu_ticks(pid: int) -> int:
    """User and system clock ticks process ``pid`` has used (0 when gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])
