"""Hostile-input benchmark (issue 16, items 8 and 9): the inputs that hung or ran away, each in
its own process under a time limit, with wall time and peak memory.

Each case is written to a temporary file and run through ``check`` (the loader: schema, reading
limits and geometry checks) and through ``validate`` with the validators that need no travel
search (``--travel`` adds the travel validators, whose time and memory bounds belong to the
planner). A case the format refuses is reported as refused, with its first problem.

Usage: python bench/hostile.py [--limit SECONDS] [--travel] [--only NAME]

To measure an older version of the code, run this file with ``PYTHONPATH`` pointing at a checkout
of it (e.g. ``git archive REV schema engine validators | tar -x -C /tmp/base`` and
``PYTHONPATH=/tmp/base``): the child processes import whatever ``schema`` comes first.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HEAD: dict[str, Any] = {"format": "arena-studio/1", "system": "gravstrike", "name": "Hostile"}
STARTS = [{"player": 1, "position": [-8, -8], "facing": 90}, {"player": 2, "position": [8, -8], "facing": 90}]
CHECKPOINTS = [{"id": "A", "kind": "outlying", "shape": {"type": "circle", "center": [-8, 8], "radius": 0.9}},
               {"id": "M", "kind": "central", "shape": {"type": "circle", "center": [8, 8], "radius": 0.9}}]
NO_TRAVEL = ["bounds", "overlap", "exclusion-placement", "checkpoint-mix", "field-orbit", "symmetry", "safe-areas",
             "wall-tunnelling"]
TRAVEL = ["reachability", "start-spacing", "start-checkpoint-access", "checkpoint-spacing", "target-access"]


def arena(**parts: Any) -> dict[str, Any]:
    return {**HEAD, "start_positions": STARTS, "checkpoints": CHECKPOINTS, **parts}


def ring(n: int, r: float = 10.0) -> list[list[float]]:
    return [[r * math.cos(2 * math.pi * i / n), r * math.sin(2 * math.pi * i / n)] for i in range(n)]


def crossing_polygon(n: int) -> dict[str, Any]:
    pts = ring(n)
    pts[n - 5], pts[n - 3] = pts[n - 3], pts[n - 5]  # the only crossing, among the last edges
    return {**HEAD, "walls": [{"id": "W1", "shape": {"type": "polygon", "points": pts}}]}


def chained_fields(n: int) -> dict[str, Any]:
    fields = [{"id": f"F{i}", "shape": {"type": "circle", "center": [-11 + (i % 22) + 0.5, -4 + (i // 22) * 0.5],
                                        "radius": 0.2}, "direction": 0} for i in range(n)]
    return arena(acceleration_fields=fields)


def small_walls(n: int) -> dict[str, Any]:
    per = math.ceil(math.sqrt(n))
    walls = [{"id": f"W{i}", "shape": {"type": "circle", "center": [-10 + (i % per + 0.5) * 20 / per,
                                                                   -6 + (i // per + 0.5) * 12 / per], "radius": 0.2}}
             for i in range(n)]
    return arena(walls=walls)


CASES: dict[str, Any] = {
    "default arena (reference)": lambda: None,
    "10 000-point self-crossing polygon": lambda: crossing_polygon(10_000),
    "4 MiB file (90 000-point polygon)": lambda: crossing_polygon(90_000),
    "440 chained acceleration fields": lambda: chained_fields(440),
    "32 chained acceleration fields (the cap)": lambda: chained_fields(32),
    "200 small circular walls": lambda: small_walls(200),
    "100 x 100 bounds": lambda: arena(bounds={"type": "rect", "center": [0, 0], "size": [100, 100]}),
    "10 000-point bounds": lambda: arena(bounds={"type": "polygon", "points": ring(10_000, 12)}),
    "gate of length 1e-9": lambda: arena(gates=[{"id": "G1", "kind": "outlying", "from": [0, 0], "to": [1e-9, 0]}],
                                         scenario={"variants": {"gates": True}}),
    "wall covering the bounds": lambda: arena(bounds={"type": "rect", "center": [0, 0], "size": [10, 10]},
                                              walls=[{"id": "W1", "shape": {"type": "rect", "center": [0, 0], "size": [10, 10]}}]),
}

CHILD = r"""
import json, resource, sys, time
t0 = time.perf_counter()
from schema import ArenaError, load
try:
    a = load(sys.argv[1])
except ArenaError as exc:
    print(json.dumps({"check": time.perf_counter() - t0, "refused": str(exc.problems[0])[:160]}))
    sys.exit(0)
t1 = time.perf_counter()
out = {"check": t1 - t0}
if sys.argv[2]:
    from validators.run import validate
    validate(a, enable=sys.argv[2].split(","))
    out["validate"] = time.perf_counter() - t1
out["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(out))
"""


def run(path: Path, codes: list[str], limit: float) -> str:
    t0 = time.perf_counter()
    try:
        r = subprocess.run([sys.executable, "-c", CHILD, str(path), ",".join(codes)], capture_output=True, text=True,
                           timeout=limit, cwd=path.parent, env={**os.environ})
    except subprocess.TimeoutExpired:
        return f"no answer in {limit:g} s"
    if r.returncode != 0:
        return "crashed: " + (r.stderr.strip().splitlines() or ["?"])[-1][:120]
    doc = json.loads(r.stdout.strip().splitlines()[-1])
    if "refused" in doc:
        return f"refused in {doc['check']:.2f} s: {doc['refused']}"
    parts = [f"check {doc['check']:.2f} s"]
    if "validate" in doc:
        parts.append(f"validate {doc['validate']:.2f} s")
    parts.append(f"{doc['rss_mb']:.0f} MB")
    return ", ".join(parts) + f" (process {time.perf_counter() - t0:.1f} s)"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=float, default=120.0, help="seconds per case before giving up")
    ap.add_argument("--travel", action="store_true", help="also run the travel validators")
    ap.add_argument("--only", help="run the cases whose name contains this")
    args = ap.parse_args()
    codes = NO_TRAVEL + (TRAVEL if args.travel else [])
    with tempfile.TemporaryDirectory() as tmp:
        for name, make in CASES.items():
            if args.only and args.only not in name:
                continue
            doc = make()
            path = ROOT / "arenas" / "default.yaml" if doc is None else Path(tmp) / "case.json"
            if doc is not None:
                path.write_text(json.dumps(doc))
            print(f"{name:44s} {run(path, codes, args.limit)}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
