"""Tabletop-robustness benchmark (not a test): ``arena validate --robustness N`` on the default
Gravstrike arena (Tri-Crown), timed as the CLI runs it: the drawn arena's validation, then N
placements on ``--workers`` local processes.  Prints wall and CPU time, the load average before
and after (the machine is shared: read the numbers with it) and, with ``--check``, that one
worker gives the same section.

    .venv/bin/python bench/robustness.py [--samples 50] [--workers 2] [--seed 0] [--check]

Target (issue 19): N = 50 in at most 30 s on two cores.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import time
from pathlib import Path

from schema import load
from validators.robustness import Settings, robustness
from validators.run import validate

ROOT = Path(__file__).resolve().parents[1]
TARGET_S = 30.0


def cpu() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def run(samples: int, workers: int, seed: int) -> tuple[dict, float, float]:
    arena = load(ROOT / "arenas" / "default.yaml")
    t0, c0 = time.perf_counter(), cpu()
    nominal = validate(arena, parallel=True)
    section = robustness(arena, nominal, Settings(samples, seed), workers=workers)
    return section, time.perf_counter() - t0, cpu() - c0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--samples", type=int, default=50)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--check", action="store_true", help="also run on one worker and compare the sections")
    args = ap.parse_args()
    load_before = os.getloadavg()
    section, wall, spent = run(args.samples, args.workers, args.seed)
    load_after = os.getloadavg()
    print(f"robustness N={args.samples} on the default arena, {args.workers} workers: {wall:.1f} s wall, "
          f"{spent:.1f} s CPU ({spent / args.samples:.2f} s CPU a placement); target <= {TARGET_S:.0f} s: "
          f"{'met' if wall <= TARGET_S else 'NOT met'}")
    print(f"load average before {load_before[0]:.2f} / after {load_after[0]:.2f} (1 min), {os.cpu_count()} CPUs")
    print(f"validated {section['validated']}, skipped {section['skipped']}, piece redraws {section['redraws']}")
    for f in section["findings"][:8]:
        print(f"  {f['code']} {', '.join(f['elements'])}: drawn {'found' if f['nominal'] else 'clear'}, "
              f"in {f['share']:.0%} of placements")
    risky = sorted(section["metrics"], key=lambda m: -m["share_over"])[:5]
    for m in risky:
        print(f"  {m['label']}: drawn {m['nominal']}, {m['min']}-{m['max']} (median {m['median']}), "
              f"beyond {m['tolerance']} in {m['share_over']:.0%}")
    if args.check:
        one, wall1, _ = run(args.samples, 1, args.seed)
        print(f"one worker: {wall1:.1f} s wall; same section: {json.dumps(one) == json.dumps(section)}")


if __name__ == "__main__":
    main()
