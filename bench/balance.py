"""Proposed-fix benchmark (not a test): ``arena balance`` on an arena derived from the default
Gravstrike arena (Tri-Crown, dihedral of order 3) whose three outlying checkpoints were pulled in
to ``--radius`` lengths from the centre, where the pillars W4-W6 cover a quarter of each
(``overlap`` warns three times).  Times :func:`validators.balance.propose` as the CLI runs it
(the drawn arena's validation included), prints the edits, the validations it took, wall and CPU
time and the load average (the machine is shared: read the numbers with it).

    .venv/bin/python bench/balance.py [--radius 7.5] [--budget 30] [--repeat 3]
    .venv/bin/python bench/balance.py --system car-wars-6e     # Twin Pillars, its pillar walls 3 in from the edges
    .venv/bin/python bench/balance.py --file ARENA [--code CODE]   # any arena with a balance hook
    .venv/bin/python bench/balance.py --file arenas/glider-pit-gladiators/crooked-pit-unfair.yaml

Target (issue 19): a fix in at most 10 s on two cores.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
import resource
import statistics
import time
from pathlib import Path
from typing import Any

from schema import load
from schema.shapes import Circle
from validators.balance import propose

ROOT = Path(__file__).resolve().parents[1]
TARGET_S = 10.0


def cpu() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def pulled_in(radius: float) -> Any:
    """The default arena with its outlying checkpoints ``radius`` lengths from the centre."""
    arena = load(ROOT / "arenas" / "default.yaml")
    out = []
    for c in arena.checkpoints:
        if c.kind == "outlying":
            x, y = c.shape.center
            n = math.hypot(x, y)
            c = dataclasses.replace(c, shape=Circle((round(x / n * radius, 4), round(y / n * radius, 4)), c.shape.radius))
        out.append(c)
    return dataclasses.replace(arena, checkpoints=tuple(out))


def chosen(args: argparse.Namespace) -> tuple[Any, str]:
    """The arena to fix and its description."""
    if args.file:
        return load(args.file), args.file
    if args.system == "car-wars-6e":
        arena = load(ROOT / "arenas" / "car-wars" / "twin-pillars-2p.yaml")
        west, east = arena.walls
        walls = (dataclasses.replace(west, shape=dataclasses.replace(west.shape, center=(-14.0, 0.0))),
                 dataclasses.replace(east, shape=dataclasses.replace(east.shape, center=(14.0, 0.0))))
        return dataclasses.replace(arena, walls=walls), "Car Wars Twin Pillars with its pillars 3 in from the edges"
    return pulled_in(args.radius), f"the default arena with its outlying checkpoints at {args.radius:g} lengths"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--radius", type=float, default=7.5)
    ap.add_argument("--budget", type=float, default=30.0)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--system", default="gravstrike", help="gravstrike (the default arena, pulled in) or car-wars-6e "
                    "(Twin Pillars with its pillars pulled out to the edges)")
    ap.add_argument("--file", help="an arena file to fix instead")
    ap.add_argument("--code", help="fix only the findings of this code")
    args = ap.parse_args()
    arena, what = chosen(args)
    load_before = os.getloadavg()
    walls, cpus = [], []
    for _ in range(args.repeat):
        t0, c0 = time.perf_counter(), cpu()
        p = propose(arena, budget=args.budget, code=args.code)
        walls.append(time.perf_counter() - t0)
        cpus.append(cpu() - c0)
    load_after = os.getloadavg()
    median = statistics.median(walls)
    print(f"propose a fix on {what}: "
          f"median {median:.1f} s wall (runs {', '.join(f'{w:.1f}' for w in walls)}), {statistics.median(cpus):.1f} s CPU, "
          f"{p.validations} validations; target <= {TARGET_S:.0f} s: {'met' if median <= TARGET_S else 'NOT met'}")
    print(f"load average before {load_before[0]:.2f} / after {load_after[0]:.2f} (1 min), {os.cpu_count()} CPUs")
    for f in p.fixes:
        print(f"  {f.finding.code} {', '.join(f.finding.elements)}: {f.status}{' - ' + f.note if f.note else ''}")
    for e in p.edits:
        print("  " + e.words(p.unit))


if __name__ == "__main__":
    main()
