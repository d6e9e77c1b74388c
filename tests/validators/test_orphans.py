"""``arena validate``'s helper processes end with it (issue 36, point 14): killed with SIGKILL
while its analysis runs on two cores, it used to leave its forked helper computing (Gravstrike's
:mod:`validators.parallel` helper; Car Wars's search worker) until that helper's work was done.

The helper is found as the CLI's child, the CLI is killed, and the helper is looked at a bounded
number of times; the wall limits are only a safety net against a hung test."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from schema.io import save
from tests import runaway
from tests.procs import alive, children_of, kill_leftovers, survivors_of_kill

ROOT = Path(__file__).resolve().parents[2]
#: Looks at the CLI's children (it forks after reading the arena and setting up) and, once it
#: is killed, at its helper: 0.1 s apart.
LOOKS = 600
AFTER_KILL = 100


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc (Linux)")
@pytest.mark.parametrize("make", ["gravstrike_sprawl", "carwars_sprawl"])
def test_the_forked_helper_exits_when_arena_validate_is_killed(make: str, tmp_path: Path) -> None:
    path = tmp_path / "runaway.yaml"
    save(getattr(runaway, make)(), path)  # an analysis that forks and runs long: the helper is busy when killed
    proc = subprocess.Popen([sys.executable, "-m", "app.cli.main", "validate", str(path), "--time-limit", "600",
                             "--memory-limit", "0"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    helpers: list[int] = []
    try:
        for _ in range(LOOKS):
            helpers = children_of(proc.pid)
            if helpers or proc.poll() is not None:
                break
            time.sleep(0.1)
        assert helpers, "arena validate started no helper process"
        time.sleep(0.5)  # the helper at work
        assert all(alive(p) for p in helpers), "the helper ended before the test could kill its parent"
        survivors = survivors_of_kill(proc, helpers, AFTER_KILL)
        assert not survivors, f"still running after arena validate was killed: {survivors}"
    finally:
        kill_leftovers(proc, helpers)


def test_follow_parent_calls_back_once_the_parent_is_gone_and_not_before() -> None:
    """The watch of the parent's id (the service's and the batch pools' workers rely on it:
    they are started from threads, where the kernel's parent-death signal would follow the
    thread): a parent that is not this process's parent any more is gone."""
    import threading

    from validators.lifeline import follow_parent

    gone = threading.Event()
    follow_parent(os.getppid() + 10_000_000, False, poll=0.01, on_death=gone.set)
    assert gone.wait(5.0)
    here = threading.Event()
    watcher = follow_parent(os.getppid(), False, poll=0.01, on_death=here.set)
    watcher.join(0.2)
    assert watcher.is_alive() and not here.is_set()
