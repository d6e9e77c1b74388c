"""Arena Rex validation benchmark: the full validation of an Arena Rex arena (default: the shipped
30 in circle) as ``arena validate`` runs it (every setup check and the zones' fairness for every
listed base), cold (shape caches cleared), median of N runs, wall and CPU time, with a per-check
breakdown of the median run and the machine's load average (the machine is shared: compare CPU
times).  Target: <= 1 s on two cores.  Also times one shortest path (``arena travel``), the
heat map of one zone, and re-validation after moving a pit 1 in (what the editor would redo
after a drag).

Usage: python bench/arenarex.py [FILES...] [--repeat N]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.arenarex import fairness, space  # noqa: E402
from engine.arenarex.fairness import heat_map  # noqa: E402
from schema.games.gravstrike import model  # noqa: E402
from schema.games import arenarex as ar  # noqa: E402
from schema.games import arenarex_edges  # noqa: E402
from schema.io import load  # noqa: E402
from validators.games.arenarex.run import validate  # noqa: E402
from validators.games.arenarex.travel import plan  # noqa: E402

DEFAULT = ROOT / "arenas" / "arena-rex" / "colosseum-30.yaml"


def cold() -> None:
    model._geometry.cache_clear()
    arenarex_edges.deployment_edge.cache_clear()
    space.grow.cache_clear()
    fairness._near.cache_clear()
    fairness._SIGHT.clear()


def timed(fn, repeat: int) -> tuple[float, float, object]:  # type: ignore[no-untyped-def]
    walls, cpus, out = [], [], None
    for _ in range(repeat):
        cold()
        t0, c0 = time.perf_counter(), time.process_time()
        out = fn()
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return statistics.median(walls), statistics.median(cpus), out


def moved_pit(a: ar.ArenaRexArena) -> ar.ArenaRexArena:
    p = a.pits[0]
    s = p.shape
    assert isinstance(s, model.Circle)
    return dataclasses.replace(a, pits=(ar.Pit(p.id, model.Circle((s.center[0] + 1.0, s.center[1]), s.radius)),
                                        *a.pits[1:]))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="*", default=[str(DEFAULT)])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} (2 cores shared)")
    for path in args.files:
        a = load(path)
        assert isinstance(a, ar.ArenaRexArena)
        validate(a)  # warm imports
        wall, cpu, report = timed(lambda: validate(a), args.repeat)
        n = len(report.findings)  # type: ignore[attr-defined]
        print(f"{Path(path).name}: full validation {wall * 1000:.0f} ms wall, {cpu * 1000:.0f} ms CPU "
              f"(median of {args.repeat}; {len(a.base_radii())} bases, {len(a.deployment)} zones, {n} findings)")
        for code, t in sorted(report.timings.items(), key=lambda kv: -kv[1]):  # type: ignore[attr-defined]
            print(f"  {code:18s} {t * 1000:7.1f} ms")
        moved = moved_pit(a)
        wall, cpu, _ = timed(lambda: validate(moved), args.repeat)
        print(f"  after moving {a.pits[0].id} 1 in: {wall * 1000:.0f} ms wall, {cpu * 1000:.0f} ms CPU")
        wall, cpu, _ = timed(lambda: plan(a, "deploy:1", "centre"), args.repeat)
        print(f"  one shortest path deploy:1 -> centre: {wall * 1000:.1f} ms")
        wall, cpu, _ = timed(lambda: heat_map(a, 1), args.repeat)
        print(f"  heat map of deploy:1 (largest base): {wall * 1000:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
