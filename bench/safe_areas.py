"""safe-areas after a wall drag (issue 20): ``SafeAreasValidator().evaluate`` on a generated 48 × 48
table (``tests/engine/table_arenas.py``) and on the default arena, cold and then after moving wall
W1 by ``--step`` lengths ``--repeat`` times (each move a new wall geometry, as the editor's drag
makes), in one process.  Short on purpose: the machine is shared.

Usage: python bench/safe_areas.py [--repeat 5] [--step 0.1]
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from schema import load
from tests.engine.table_arenas import table_arena
from validators.games.gravstrike.sightlines import SafeAreasValidator


def moved(arena, dx: float):  # type: ignore[no-untyped-def]
    w = arena.walls[0]
    cx, cy = w.shape.center
    shape = dataclasses.replace(w.shape, center=(cx + dx, cy))
    return dataclasses.replace(arena, walls=(dataclasses.replace(w, shape=shape),) + tuple(arena.walls[1:]))


def run(name: str, arena, repeat: int, step: float) -> None:  # type: ignore[no-untyped-def]
    v = SafeAreasValidator()
    t = time.perf_counter()
    v.evaluate(arena, None)
    cold = time.perf_counter() - t
    times = []
    for k in range(1, repeat + 1):
        a = moved(arena, step * k)
        t = time.perf_counter()
        v.evaluate(a, None)
        times.append(time.perf_counter() - t)
    print(f"{name}: cold {cold:.3f} s; after W1 moved {step} (x{repeat}): median {statistics.median(times):.4f} s, "
          f"max {max(times):.4f} s  [{' '.join(f'{x:.4f}' for x in times)}]")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--step", type=float, default=0.1)
    args = p.parse_args()
    run("table 48", table_arena(48, 1), args.repeat, args.step)
    run("default", load(ROOT / "arenas" / "default.yaml"), args.repeat, args.step)


if __name__ == "__main__":
    main()
