"""Hostile-input benchmark (issue 16, items 8 and 9; issue 36, items 11 and 13): the inputs that
hung, ran away or crashed, each in its own process under a time limit, with wall time and peak
memory.

Each case is written to a temporary file and run through ``check`` (the loader: schema, reading
limits and geometry checks) and, for Gravstrike arenas, through ``validate`` with the validators
that need no travel search (``--travel`` adds the travel validators, whose time and memory bounds
belong to the planner); a pack case is run through ``pack verify``'s reader. A case the format
refuses is reported as refused, with its first problem.

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


def arena_rex(**parts: Any) -> dict[str, Any]:
    """The Arena Rex colosseum (a 30 in circle, two arcs) with ``parts`` replaced."""
    return {**HEAD, "system": "arena-rex", "bounds": {"type": "circle", "center": [0, 0], "radius": 15},
            "deployment": [{"player": 1, "arc": [225, 315]}, {"player": 2, "arc": [45, 135]}], **parts}


def extension_list(n: int) -> str:
    """A valid arena in YAML holding one ``x-`` list of ``n`` numbers (199 000: 1 MB)."""
    return "format: arena-studio/1\nsystem: gravstrike\nname: Data\nx-data: [" + \
        ", ".join(f"{(i * 7919) % 20000 / 100 - 100:.3f}" for i in range(n)) + "]\n"


def yaml_walls(n: int, points: int) -> str:
    """A valid arena in YAML (block style) with ``n`` walls of ``points``-point rings: a large file
    the YAML reader must read whole."""
    walls = [{"id": f"W{i}", "shape": {"type": "polygon", "points": [[round(x, 4), round(y, 4)] for x, y in
                                                                      ring(points, 3 + 2 * i)]}} for i in range(n)]
    import yaml

    return yaml.safe_dump({**HEAD, "walls": walls}, sort_keys=False, default_flow_style=None)


def listing_pack(entries: int) -> bytes:
    """A pack whose manifest lists ``entries`` files (200 000: a 660 KB pack, 21 MB inflated)."""
    import io
    import zipfile

    entry = b'{"path": "previews/x.png", "size": 1, "sha256": "' + b"0" * 64 + b'"}'
    manifest = (b'{"pack_format": "arena-studio-pack/1", "name": "Many", "version": "1", "arena_format": '
                b'"arena-studio/1", "arenas": [], "files": [' + b", ".join([entry] * entries) + b"]}")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("manifest.json", manifest)
    return buf.getvalue()


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
    "Arena Rex circle board of radius 0": lambda: arena_rex(bounds={"type": "circle", "center": [0, 0], "radius": 0}),
    "Arena Rex deployment centre of 1e300": lambda: arena_rex(
        bounds={"type": "rect", "center": [0, 0], "size": [24, 24]},
        deployment=[{"player": 1, "side": 0, "center": [1e300, 0]}, {"player": 2, "side": 2}]),
    "1 MB YAML, an x- list of 199 000 numbers": lambda: extension_list(199_000),
    "1.6 MB YAML, 4 walls of 10 000-point polygons": lambda: yaml_walls(4, 10_000),
    "pack whose manifest lists 200 000 files": lambda: listing_pack(200_000),
}

CHILD = r"""
import json, resource, sys, time
t0 = time.perf_counter()
from schema import ArenaError, load
from schema.packs import PackError, read_pack
if sys.argv[1].endswith(".arenapack.zip"):
    try:
        read_pack(sys.argv[1])
    except PackError as exc:
        print(json.dumps({"check": time.perf_counter() - t0, "refused": str(exc)[:160]}))
        sys.exit(0)
    print(json.dumps({"check": time.perf_counter() - t0,
                      "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
    sys.exit(0)
try:
    a = load(sys.argv[1])
except ArenaError as exc:
    print(json.dumps({"check": time.perf_counter() - t0, "refused": str(exc.problems[0])[:160]}))
    sys.exit(0)
t1 = time.perf_counter()
out = {"check": t1 - t0}
if sys.argv[2] and a.system == "gravstrike":
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
            if doc is None:
                path = ROOT / "arenas" / "default.yaml"
            elif isinstance(doc, bytes):
                path = Path(tmp) / "case.arenapack.zip"
                path.write_bytes(doc)
            elif isinstance(doc, str):
                path = Path(tmp) / "case.yaml"
                path.write_text(doc)
            else:
                path = Path(tmp) / "case.json"
                path.write_text(json.dumps(doc))
            print(f"{name:44s} {run(path, codes, args.limit)}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
