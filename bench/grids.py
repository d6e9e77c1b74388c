"""Grid games benchmark.  First what the issue's target (0.2 s) is about: validating each
game's shipped default arena through ``validators.run.validate`` (as ``arena validate`` does)
in a *fresh process* — imports of the game's validators and engine, the maneuver tables and
the pit's lookup tables included; the arena file already loaded — median of N processes, wall
and CPU time.  (Byte-code is compiled once first: where PYTHONDONTWRITEBYTECODE is set, the
processes share a temporary PYTHONPYCACHEPREFIX, as an installed package has its .pyc files.)
Then, in this process: every setup check plus the fairness comparison, cold per arena (the
engine's per-arena caches cleared; the per-process maneuver tables built once, reported
separately), median of N runs, with a breakdown; then pit travel questions and a heat map.

Usage: python bench/grids.py [--repeat N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.gliderpit import checks as gp_checks  # noqa: E402
from engine.gliderpit import fairness as gp_fairness  # noqa: E402
from engine.gliderpit import movement, pit, search, travel  # noqa: E402
from engine.mothership import battlefield  # noqa: E402
from engine.mothership import checks as mg_checks  # noqa: E402
from engine.mothership import fairness as mg_fairness  # noqa: E402
from schema.games import gliderpit, mothership  # noqa: E402


def cold() -> None:
    """Forget everything computed for an arena (not the maneuver tables of the rules)."""
    pit.pit_of.cache_clear()
    travel._grid.cache_clear()
    battlefield.battlefield_of.cache_clear()


def timed(fn: Callable[[], Any], repeat: int, reset: bool = True) -> tuple[float, float, float, float, Any]:
    """(median wall, min wall, max wall, median CPU time of this process, last result): the
    machine is shared, so the CPU time says what the code costs when it has a core."""
    runs, cpu = [], []
    out: Any = None
    for _ in range(repeat):
        if reset:
            cold()
        t, c = time.perf_counter(), time.process_time()
        out = fn()
        runs.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    return statistics.median(runs), min(runs), max(runs), statistics.median(cpu), out


def line(label: str, med: float, lo: float, hi: float, cpu: float, extra: str = "") -> None:
    print(f"  {label:44s} {1000 * med:8.1f} ms  (min {1000 * lo:.1f}, max {1000 * hi:.1f}; cpu {1000 * cpu:.1f}){extra}")


COLD = """
import sys, time
from schema import load
arena = load(sys.argv[1])
t, c = time.perf_counter(), time.process_time()
from validators.run import validate
report = validate(arena, source=sys.argv[1])
print(time.perf_counter() - t, time.process_time() - c, len(report.findings))
"""
SHIPPED = {"Glider-Pit default pit": "arenas/glider-pit-gladiators/hexagonal-pit.yaml",
           "Mothership 3 x 5 battlefield": "arenas/mothership-grid/battlefield-3x5.yaml"}


def cold_validation(n: int) -> None:
    import os
    import subprocess
    import tempfile

    env = dict(os.environ)
    prefix = None
    if env.pop("PYTHONDONTWRITEBYTECODE", None):
        prefix = tempfile.TemporaryDirectory(prefix="arena-bench-pyc-")
        env["PYTHONPYCACHEPREFIX"] = prefix.name
    print(f"validators.run.validate in a fresh process (target 200 ms), median of {n}:")
    for label, rel in SHIPPED.items():
        path = str(ROOT / rel)
        subprocess.run([sys.executable, "-c", COLD, path], env=env, cwd=ROOT, check=True, capture_output=True)
        walls, cpus = [], []
        for _ in range(n):
            out = subprocess.run([sys.executable, "-c", COLD, path], env=env, cwd=ROOT, check=True,
                                 capture_output=True, text=True).stdout.split()
            walls.append(float(out[0]))
            cpus.append(float(out[1]))
        line(label, statistics.median(walls), min(walls), max(walls), statistics.median(cpus),
             f"  {out[2]} findings")
    if prefix is not None:
        prefix.cleanup()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    n = args.repeat
    cold_validation(n)

    t = time.perf_counter()
    for speed in range(1, 6):
        for facing in range(6):
            movement.placed_macros(speed, facing)
        search.groups(speed)
    print(f"load average {', '.join(f'{x:.1f}' for x in __import__('os').getloadavg())} on {__import__('os').cpu_count()} cores")
    print(f"once per process: maneuver tables {1000 * (time.perf_counter() - t):.1f} ms")

    gp = gliderpit.default_arena()

    def gp_all() -> list[Any]:
        return [*gp_checks.check_all(gp), *gp_fairness.compare(gp)]

    print(f"Glider-Pit default pit ({len(gp.cells)} hexes, {len(gp.launch_zones)} zones), cold, median of {n}:")
    *t4, issues = timed(gp_all, n)
    line("checks + fairness (with travel to centre)", *t4, f"  {len(issues)} issues")
    line("  setup checks", *timed(lambda: gp_checks.check_all(gp), n)[:4])
    line("  zone metrics without travel", *timed(lambda: gp_fairness.zone_metrics(gp), n)[:4])
    line("  zone metrics with travel", *timed(lambda: gp_fairness.zone_metrics(gp, travel=True), n)[:4])
    line("checks + fairness without travel", *timed(lambda: [*gp_checks.check_all(gp),
                                                             *gp_fairness.compare(gp, travel=False)], n)[:4])

    print("Glider-Pit travel, warm pit:")
    travel.plan(gp, "Z1", "centre")
    for src, goal in (("Z2", "centre"), ("Z1", "centre"), ("Z1", "Z6"), ("Z2", "Z5")):
        *t4, r = timed(lambda: travel.plan(gp, src, goal), n, reset=False)
        line(f"plan {src} -> {goal}", *t4, f"  {r.turns} turns, {r.states} states")
    *t4, m = timed(lambda: travel.reach(gp, "Z1", 12), n, reset=False)
    line("heat map from Z1 (whole pit)", *t4, f"  {len(m.turns)} hexes, {m.states} states")
    line("pit tables (cold, per pit)", *timed(lambda: travel._grid(tuple(sorted(gp.cells)), 0, "never"), n)[:4])

    mg = mothership.default_arena()

    def mg_all() -> list[Any]:
        return [*mg_checks.check_all(mg), *mg_fairness.compare(mg)]

    print(f"Mothership battlefield ({len(mg.squares)} squares), cold, median of {n}:")
    *t4, issues = timed(mg_all, n)
    line("checks + fairness", *t4, f"  {len(issues)} issues")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
