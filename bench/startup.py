"""Start-up benchmark (issue 38, goal 1): each ``arena`` command's wall time as a ratio to the floor
measured in the same run - a fresh interpreter importing numpy, shapely, jsonschema and yaml, the
libraries no command that reads an arena can do without.

Every command runs in a fresh process (as a user runs it), alternated with the floor, ``--repeat``
times; the table gives the medians and each command's ratio to the floor's median, and the goal.

Usage: python bench/startup.py [--repeat N] [--json]
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5, help="runs of each command (median taken)")
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
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
    if args.json:
        print(json.dumps({"floor": round(floor, 3), "rows": rows}, indent=2))
        return
    print(f"floor (python -c 'import numpy, shapely, jsonschema, yaml'): {floor:.3f} s, median of {len(floors)}")
    print(f"{'command':46} {'wall':>8} {'x floor':>8} {'goal':>6}")
    for r in rows:
        goal = f"<= {r['goal']:g}" if r["goal"] else ""
        mark = "" if r["met"] is None else (" met" if r["met"] else " MISSED")
        print(f"{r['command']:46} {r['seconds']:>7.3f}s {r['ratio']:>7.2f}x {goal:>6}{mark}")


if __name__ == "__main__":
    main()
