"""Batch benchmark (not a test): N generated arenas (the default arena with its walls jittered)
validated by ``app.batch.validate_paths`` with 1 and with 2 worker processes; reports
times, the speed-up, and that both runs give identical reports.

    .venv/bin/python bench/batch.py [--count 200] [--enable CODE ...]
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from multiprocessing import get_context
from pathlib import Path

import yaml

from app.batch import Options, validate_paths
from validators.registry import default_registry

ROOT = Path(__file__).resolve().parents[1]


def generate(directory: Path, count: int, seed: int = 7) -> list[Path]:
    base = yaml.safe_load((ROOT / "arenas" / "default.yaml").read_text(encoding="utf-8"))
    rng = random.Random(seed)
    paths = []
    for i in range(count):
        doc = yaml.safe_load(yaml.safe_dump(base))
        doc["name"] = f"Tri-Crown variant {i:03d}"
        for wall in doc.get("walls", []):
            shape = wall["shape"]
            if "center" in shape:
                shape["center"] = [round(c + rng.uniform(-0.3, 0.3), 3) for c in shape["center"]]
            if "rotation" in shape:
                shape["rotation"] = round(shape["rotation"] + rng.uniform(-10, 10), 1)
        path = directory / f"variant-{i:03d}.yaml"
        path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
        paths.append(path)
    return paths


def loadable(travel: bool) -> list[str]:
    registry = default_registry()
    codes = []
    for code in registry.codes():
        try:
            v = registry.get(code)
        except Exception:
            continue
        if travel or not getattr(v, "needs_travel", False):
            codes.append(code)
    return codes


def _probe(codes: list[str]) -> None:
    validate_paths([ROOT / "arenas" / "default.yaml"], Options(enable=tuple(codes)))


def fast_enough(codes: list[str], seconds: float) -> bool:
    """Whether one validation of the default arena with ``codes`` ends within ``seconds``."""
    proc = get_context("spawn").Process(target=_probe, args=(codes,))
    proc.start()
    proc.join(seconds)
    if proc.is_alive():
        proc.kill()
        proc.join()
        return False
    return proc.exitcode == 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--enable", action="append", help="validators to run (default: every one that loads)")
    ap.add_argument("--probe", type=float, default=20.0,
                    help="leave out the travel validators if one default-arena validation with them takes longer")
    args = ap.parse_args()
    codes = args.enable or loadable(travel=True)
    if not args.enable and not fast_enough(codes, args.probe):
        codes = loadable(travel=False)
        print(f"one validation with every validator took over {args.probe:g} s: "
              "running only the validators that need no travel planning")
    options = Options(enable=tuple(codes))
    with tempfile.TemporaryDirectory(prefix="arena-batch-") as tmp:
        generate(Path(tmp), args.count)
        print(f"{args.count} generated arenas; {len(codes)} validators: {', '.join(codes)}")
        runs = {}
        for jobs in (1, 2):
            t0 = time.perf_counter()
            outcomes = validate_paths([tmp], options, jobs=jobs)
            runs[jobs] = (time.perf_counter() - t0, outcomes)
            bad = sum(1 for o in outcomes if not o.ok)
            print(f"jobs={jobs}: {runs[jobs][0]:7.2f} s ({args.count / runs[jobs][0]:.1f} arenas/s), "
                  f"{bad} not validated")
        same = [o.report.to_json() if o.report else o.problems for o in runs[1][1]] == \
               [o.report.to_json() if o.report else o.problems for o in runs[2][1]]
        print(f"speed-up 1 -> 2 processes: {runs[1][0] / runs[2][0]:.2f}x; identical reports: {same}")


if __name__ == "__main__":
    main()
