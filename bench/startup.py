"""Start-up benchmark (issue 38, goal 1): each ``arena`` command's wall time as a ratio to the floor
measured in the same run - a fresh interpreter importing numpy, shapely, jsonschema and yaml, the
libraries no command that reads an arena can do without.

Every command runs in a fresh process (as a user runs it), alternated with the floor, ``--repeat``
times; the table gives the medians and each command's ratio to the floor's median, and the goal.

``--searches`` adds what bounds the two heaviest rows from below: the one travel search each of
their validations cannot skip (the default arena's six starts are images of start 1 under its
rotations and mirrors; the crossroads' four, of start 1 under its quarter turns), timed in a
process that has imported everything, with numpy and then with each game's compiled search
kernels (numba) loaded and warmed beforehand - their start-up (about 0.4 s of CPU) left out: the
best the present engines do.  The first run with the kernels compiles them (minutes) and caches
the machine code next to the modules.

Usage: python bench/startup.py [--repeat N] [--json] [--searches]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARENA = str(Path(sys.executable).with_name("arena"))
FLOOR = [sys.executable, "-c", "import numpy, shapely, jsonschema, yaml"]
#: (label, command line, goal as a multiple of the floor)
CASES: list[tuple[str, list[str], float]] = [
    ("arena --help", [ARENA, "--help"], 1.5),
    ("arena check default.yaml", [ARENA, "check", "arenas/default.yaml"], 1.5),
    ("arena validate Mothership 3 x 5 battlefield", [ARENA, "validate", "arenas/mothership-grid/battlefield-3x5.yaml"],
     2.0),
    ("arena validate Glider-Pit hexagonal pit", [ARENA, "validate", "arenas/glider-pit-gladiators/hexagonal-pit.yaml"],
     2.0),
    ("arena validate Arena Rex colosseum", [ARENA, "validate", "arenas/arena-rex/colosseum-30.yaml"], 0.0),
    ("arena validate default.yaml", [ARENA, "validate", "arenas/default.yaml"], 3.0),
    ("arena validate Car Wars crossroads-4p", [ARENA, "validate", "arenas/car-wars/crossroads-4p.yaml"], 3.0),
]


#: The commands' environment: as a user's, Python writes its compiled modules (``__pycache__``) on
#: the first run - a ``PYTHONDONTWRITEBYTECODE`` inherited from the shell would make every run
#: compile the project's modules again (0.05-0.1 s a command, a third of the floor) and measure
#: that instead of the start-up.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | {"QT_QPA_PLATFORM": "offscreen"}


def wall(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV, check=False)
    return time.perf_counter() - start


#: Times, in one process after its imports, the searches the two heaviest validations cannot skip
#: (argv[1]: "0" numpy, "1" each game's compiled kernels, loaded and warmed first); best of three
#: each; prints JSON.
SEARCHES = r"""
import json, os, sys, time
os.environ["ARENA_STUDIO_JIT"] = sys.argv[1]
from schema import load
from validators.games.gravstrike.context import AnalysisContext
from engine.gravstrike import kernels
from engine.carwars import fairness
from engine.carwars.rules import POLICIES
out = {}
gs = load("arenas/default.yaml")
if sys.argv[1] == "1":
    kernels.enable()
    AnalysisContext(gs, tier=1, budget="arena", tolerance=0.25).search("start:1")  # the kernels' code loaded
best = []
for _ in range(3):
    ctx = AnalysisContext(gs, tier=1, budget="arena", tolerance=0.25)
    ctx.planner.lattice(gs.start(1).facing % 30.0)
    t = time.perf_counter()
    ctx.search("start:1")
    best.append(time.perf_counter() - t)
out["default.yaml: start 1's search"] = min(best)
cw = load("arenas/car-wars/crossroads-4p.yaml")
jobs, _ = fairness.travel_jobs(cw, POLICIES, True)
if sys.argv[1] == "1":
    from engine.carwars import kernels as cw_kernels
    cw_kernels.enable()
    for job in jobs:  # the kernels' code loaded
        fairness.set_job_context(cw)
        fairness.run_job(job)
for job in jobs:
    times = []
    for _ in range(3):
        fairness.set_job_context(cw)
        t = time.perf_counter()
        fairness.run_job(job)
        times.append(time.perf_counter() - t)
    out[f"crossroads-4p: start {job[1]}'s {job[0]} search"] = min(times)
print(json.dumps(out))
"""


def searches(floor: float) -> list[dict[str, object]]:
    """The ``--searches`` rows: each search's best of three, and its ratio to ``floor``."""
    rows: list[dict[str, object]] = []
    for jit, how in (("0", "numpy"), ("1", "compiled kernels, warm")):
        done = subprocess.run([sys.executable, "-c", SEARCHES, jit], cwd=ROOT, env=ENV, capture_output=True, text=True,
                              check=False)
        if done.returncode != 0:
            rows.append({"search": f"({how}: failed: {done.stderr.strip().splitlines()[-1:]})"})
            continue
        for label, t in json.loads(done.stdout).items():
            rows.append({"search": f"{label} ({how})", "seconds": round(t, 3), "ratio": round(t / floor, 2)})
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5, help="runs of each command (median taken)")
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    ap.add_argument("--searches", action="store_true",
                    help="also time the one search each of the two heaviest validations cannot skip")
    args = ap.parse_args()
    for cmd in (FLOOR, *(c for _, c, _ in CASES)):  # warm the file cache and write every compiled module once
        wall(cmd)
    floors: list[float] = []
    times: dict[str, list[float]] = {label: [] for label, _, _ in CASES}
    for _ in range(args.repeat):
        for label, cmd, _ in CASES:
            floors.append(wall(FLOOR))
            times[label].append(wall(cmd))
    floor = statistics.median(floors)
    rows = []
    for label, _, goal in CASES:
        t = statistics.median(times[label])
        rows.append({"command": label, "seconds": round(t, 3), "ratio": round(t / floor, 2),
                     "goal": goal or None, "met": None if not goal else t / floor <= goal})
    extra = searches(floor) if args.searches else []
    if args.json:
        print(json.dumps({"floor": round(floor, 3), "rows": rows, "searches": extra}, indent=2))
        return
    print(f"floor (python -c 'import numpy, shapely, jsonschema, yaml'): {floor:.3f} s, median of {len(floors)}")
    print(f"{'command':46} {'wall':>8} {'x floor':>8} {'goal':>6}")
    for r in rows:
        goal = f"<= {r['goal']:g}" if r["goal"] else ""
        mark = "" if r["met"] is None else (" met" if r["met"] else " MISSED")
        print(f"{r['command']:46} {r['seconds']:>7.3f}s {r['ratio']:>7.2f}x {goal:>6}{mark}")
    if extra:
        print("the search each validation cannot skip, after the imports (best of 3):")
    for e in extra:
        print(f"  {e['search']:66} {e['seconds']:>6.3f}s {e['ratio']:>6.2f}x" if "seconds" in e else f"  {e['search']}")


if __name__ == "__main__":
    main()
