"""The editor's helper processes end with the editor (issue 18, point 7): after ``kill -9`` of
the process that started them, the travel workers, an overlay's child, the forkserver and the
resource tracker all exit within seconds - nothing keeps running (or holds memory)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.procs import alive, children_of, kill_leftovers

ROOT = Path(__file__).resolve().parents[2]

EDITOR_LIKE = r"""
import json, sys, time, multiprocessing.forkserver as fs, multiprocessing.resource_tracker as rt
from schema import load
from editor.games.gravstrike.travel_workers import TravelWorkers
from editor.validation import call_in_child

arena = load("arenas/examples/three-player.yaml")
workers = TravelWorkers(2)
workers.run(arena)                      # both workers started and busy once
import threading, multiprocessing
threading.Thread(target=lambda: call_in_child(time.sleep, (600,), lambda: False), daemon=True).start()
started = time.monotonic()              # wait until the overlay child is running (however loaded the machine)
while len(multiprocessing.active_children()) < len(workers.workers) + 1 and time.monotonic() - started < 300:
    time.sleep(0.05)
pids = {"workers": [w.proc.pid for w in workers.workers],
        "forkserver": fs._forkserver._forkserver_pid, "tracker": rt._resource_tracker._pid}
print(json.dumps(pids), flush=True)
time.sleep(600)
"""


def test_helpers_exit_when_the_editor_is_killed() -> None:
    proc = subprocess.Popen([sys.executable, "-c", EDITOR_LIKE], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        line = proc.stdout.readline()  # type: ignore[union-attr]
        assert line, "the editor-like process did not start its workers"
        pids = json.loads(line)
        overlay = [p for p in children_of(pids["forkserver"]) if p not in pids["workers"]]
        helpers = [*pids["workers"], pids["forkserver"], pids["tracker"], *overlay]
        assert len(helpers) == 5 and all(alive(p) for p in helpers)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(60)
        deadline = time.monotonic() + 120.0  # a safety net: they exit at once
        while time.monotonic() < deadline and any(alive(p) for p in helpers):
            time.sleep(0.1)
        survivors = [p for p in helpers if alive(p)]
        assert not survivors, f"still running after the editor died: {survivors} (workers {pids['workers']}, " \
                              f"forkserver {pids['forkserver']}, tracker {pids['tracker']}, overlay {overlay})"
    finally:
        if proc.poll() is None:
            proc.kill()
        for p in locals().get("helpers", []):
            if alive(p):
                os.kill(p, signal.SIGKILL)


WARM_POOL = r"""
import json, os, sys, time
from PySide6.QtCore import QCoreApplication
from editor.warm_pool import WarmPool

app = QCoreApplication(sys.argv[:1])
pool = WarmPool(workers=2)
assert pool.warm("gravstrike")          # as the Generate dialog opening does
for fut in pool._futures:               # both workers started and warm
    fut.result(timeout=300)
print(json.dumps({"workers": pool.pids()}), flush=True)
time.sleep(600)
"""


def test_the_generators_warm_workers_exit_when_the_editor_is_killed() -> None:
    """The generator's workers, started when its dialog opens (issue 42, point 9), end with the
    editor however it ends: ``kill -9`` of the editor leaves none running."""
    from tests.procs import survivors_of_kill

    proc = subprocess.Popen([sys.executable, "-c", WARM_POOL], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"})
    workers: list[int] = []
    try:
        line = proc.stdout.readline()  # type: ignore[union-attr]
        assert line, "the editor-like process did not start its workers"
        workers = json.loads(line)["workers"]
        assert len(workers) == 2 and all(alive(p) for p in workers)
        survivors = survivors_of_kill(proc, workers, looks=1200)  # a safety net: they exit within a second
        assert not survivors, f"still running after the editor died: {survivors}"
    finally:
        kill_leftovers(proc, workers)
