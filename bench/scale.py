"""Scale benchmark (issue 20): cold ``validate`` on generated square tables from 12 to 96 lengths
across (4 starts, 5 checkpoints, 5 walls per 6 lengths, no symmetry to reuse; seeded:
``tests/engine/table_arenas.py``), each run side by side with the default arena so that the
ratio holds on a noisy shared machine.

Every measurement is a fresh process (cold: nothing cached, one arena) that validates as
``arena validate`` does (two cores: a forked helper) and reports its wall time, its CPU time
(main process and helper) and peak resident memory (main process and helper: each process's
own peak, ``ru_maxrss`` - the pages the helper shares with its parent after the fork are in
both; ``--pss`` adds the peak of the two processes' proportional set sizes added up, each
page once, as the analysis's memory cap reads it, sampled every 50 ms).  For each size
the default arena and the table are measured alternately ``--repeat`` times; the table gives
medians and the median of the per-pair ratios.  "busiest" is the CPU time of the busier of the
two processes: on an idle 2-core machine the wall time is about that; on a loaded one the wall
time says more about the other users than about the code.

Usage: python bench/scale.py [--sizes 12 24 34 36 48 64 80 96] [--perturbed 0 1] [--repeat 3] [--seed 1]
       [--sequential] [--pss] [--json out.json]

``--perturbed K``: also placement K of the default arena as ``arena validate --robustness``
draws it (seed ``--seed``): the drawn arena's symmetry is broken, so every start is searched.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEFAULT = ROOT / "arenas" / "default.yaml"


def measure_one(what: str, seed: int, sequential: bool) -> dict[str, object]:
    """Validate one arena in this (fresh) process and return what it cost."""
    from schema import load
    from tests.engine.table_arenas import table_arena
    from validators.run import validate

    if what == "default":
        arena = load(str(DEFAULT))
    elif what.startswith("perturbed:"):  # a tabletop-robustness placement of the default arena: no symmetry left
        from validators.robustness import hook_of, sample_arena

        default = load(str(DEFAULT))
        arena, _ = sample_arena(default, seed, int(what.split(":")[1]), hook_of(default).tolerance(default))
    else:
        arena = table_arena(float(what), seed)
    t0, c0 = time.perf_counter(), time.process_time()
    report = validate(arena, source=what, parallel=not sequential)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    counts = report.counts()
    return {"arena": what, "wall": wall, "cpu_main": cpu, "cpu_helper": kids.ru_utime + kids.ru_stime,
            "rss_main_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, "rss_helper_mb": kids.ru_maxrss / 1024,
            "walls": len(arena.walls), "errors": counts["error"], "warnings": counts["warning"],
            "codes": sorted({f"{f.severity}:{f.code}" for f in report.findings})}


def _pss_kib(root: int) -> int:
    """The proportional set sizes of ``root`` and the processes it started, added up (a page
    shared by a forked helper and its parent counts once): what the analysis's memory cap reads
    (:func:`validators.memory.in_use_mb` with ``precise``)."""
    from validators.memory import in_use_mb

    got = in_use_mb(root, precise=True)
    return 0 if got is None else int(got * 1024)


def run(what: str, seed: int, sequential: bool, pss: bool = False) -> dict[str, object]:
    """Measure ``what`` in a fresh process; with ``pss``, also sample the summed proportional set
    size of that process and its helper every 50 ms (``pss_sum_mb``: the peak seen)."""
    cmd = [sys.executable, __file__, "--one", what, "--seed", str(seed)] + (["--sequential"] if sequential else [])
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            env={**os.environ, "PYTHONHASHSEED": "0"})
    peak = 0
    while pss and proc.poll() is None:
        peak = max(peak, _pss_kib(proc.pid))
        time.sleep(0.05)
    out, err = proc.communicate()
    if proc.returncode:
        raise subprocess.CalledProcessError(proc.returncode, cmd, out, err)
    got: dict[str, object] = json.loads(out.strip().splitlines()[-1])
    if pss:
        got["pss_sum_mb"] = peak / 1024
    return got


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=float, nargs="*", default=[12, 24, 34, 36, 48, 64, 80, 96])
    ap.add_argument("--perturbed", type=int, nargs="*", default=[],
                    help="also these placements of the default arena (bench/robustness.py's, seed --seed)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sequential", action="store_true", help="one core (no forked helper)")
    ap.add_argument("--json", type=Path, help="write every measurement here")
    ap.add_argument("--pss", action="store_true",
                    help="also the peak of the processes' proportional set sizes added up (sampled every 50 ms: "
                         "each reading walks every page, a little CPU beside the runs)")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        print(json.dumps(measure_one(args.one, args.seed, args.sequential)))
        return 0
    print(f"load average at start: {' '.join(f'{v:.1f}' for v in os.getloadavg())}; {os.cpu_count()} cores")
    print(f"{'across':>6} {'walls':>5} {'wall s':>8} {'cpu s':>8} {'busiest':>8} {'default cpu':>11} {'cpu ratio':>9} "
          f"{'wall ratio':>10} {'rss MB main/helper':>19}{' pss sum MB' if args.pss else ''}  findings")
    rows = []

    def pss_cell(row: dict[str, object]) -> str:
        return f" {float(row['pss_sum_mb']):11.0f}" if args.pss else ""  # type: ignore[arg-type]

    for size in [*(f"perturbed:{k}" for k in args.perturbed), *(f"{s:g}" for s in args.sizes)]:
        pairs = []
        for _ in range(args.repeat):
            base = run("default", args.seed, args.sequential)
            got = run(size, args.seed, args.sequential, args.pss)
            pairs.append((base, got))
        cpu = [float(g["cpu_main"]) + float(g["cpu_helper"]) for _, g in pairs]  # type: ignore[arg-type]
        bcpu = [float(b["cpu_main"]) + float(b["cpu_helper"]) for b, _ in pairs]  # type: ignore[arg-type]
        busy = [max(float(g["cpu_main"]), float(g["cpu_helper"])) for _, g in pairs]  # type: ignore[arg-type]
        ratio = statistics.median(c / b for c, b in zip(cpu, bcpu))
        wratio = statistics.median(float(g["wall"]) / float(b["wall"]) for b, g in pairs)  # type: ignore[arg-type]
        last = pairs[-1][1]
        row = {"size": size, "walls": last["walls"], "wall": statistics.median(float(g["wall"]) for _, g in pairs),  # type: ignore[arg-type]
               "cpu": statistics.median(cpu), "busiest_core": statistics.median(busy), "default_cpu": statistics.median(bcpu), "cpu_ratio": ratio, "wall_ratio": wratio,
               "rss_main_mb": max(float(g["rss_main_mb"]) for _, g in pairs),  # type: ignore[arg-type]
               "rss_helper_mb": max(float(g["rss_helper_mb"]) for _, g in pairs),  # type: ignore[arg-type]
               "pss_sum_mb": max(float(g.get("pss_sum_mb", 0.0)) for _, g in pairs),  # type: ignore[arg-type]
               "errors": last["errors"], "warnings": last["warnings"], "runs": pairs}
        rows.append(row)
        print(f"{size:>6} {row['walls']:5d} {row['wall']:8.2f} {row['cpu']:8.2f} {row['busiest_core']:8.2f} {row['default_cpu']:11.2f} {ratio:9.2f} "
              f"{wratio:10.2f} {row['rss_main_mb']:9.0f}/{row['rss_helper_mb']:<9.0f}{pss_cell(row)}  "
              f"{row['errors']} errors, {row['warnings']} warnings", flush=True)
    print(f"load average at end: {' '.join(f'{v:.1f}' for v in os.getloadavg())}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
