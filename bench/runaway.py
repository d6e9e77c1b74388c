"""Runaway-arena benchmark (issue 36, point 9): the valid arenas whose analysis used to run
away - a 120 in Car Wars board with 1,500 walls and 1,500 obstacles, a 99 x 99 Gravstrike table
with 1,000 walls, 26 checkpoints and six starts, an 18,961-hex Glider-Pit pit - each through
``arena validate --json`` in its own process under the default caps (60 s, 1 GiB), with its
wall time, the peak memory of the analysis's processes (the ``arena`` process and its forked
helper: their proportional set sizes, read about every 0.1 s, :func:`validators.memory.in_use_mb`) and what
the report says (summary, the cap that stopped it).

Usage: python bench/runaway.py [--only NAME] [--time-limit S] [--memory-limit MIB] [--safety S]

``--safety`` (default 300 s) kills a run that outlives it (it should never be reached).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from schema.io import save  # noqa: E402
from tests import runaway  # noqa: E402
from validators.memory import in_use_mb  # noqa: E402

CASES: dict[str, Any] = {
    "Car Wars 120 in, 1,500 walls + 1,500 obstacles": runaway.carwars_sprawl,
    "Gravstrike 99 x 99, 1,000 walls, 26 checkpoints, 6 starts": runaway.gravstrike_sprawl,
    "Glider-Pit 18,961 hexes": runaway.gliderpit_sprawl,
    "Car Wars Crossroads at 6 ft (undecided start searches)": runaway.crossroads_six_feet,
}


def run(path: Path, extra: list[str], safety: float) -> dict[str, Any]:
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "app.cli.main", "validate", str(path), "--json", *extra],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    peak = 0.0
    out: list[bytes] = []
    import threading

    reader = threading.Thread(target=lambda: out.append(proc.stdout.read() if proc.stdout else b""), daemon=True)
    reader.start()
    while proc.poll() is None:
        if time.perf_counter() - t0 > safety:
            proc.kill()
            proc.wait()
            return {"seconds": time.perf_counter() - t0, "peak_mib": peak, "error": f"no answer in {safety:g} s"}
        peak = max(peak, in_use_mb(proc.pid, precise=True) or 0.0)
        time.sleep(0.1)
    seconds = time.perf_counter() - t0
    reader.join()
    try:
        doc = json.loads(b"".join(out))
    except ValueError:
        return {"seconds": seconds, "peak_mib": peak, "error": f"exit {proc.returncode}, no report"}
    return {"seconds": seconds, "peak_mib": peak, "summary": doc["summary"],
            "undecided": sum(len(f["metrics"].get("undecided", [])) for f in doc["findings"] if f["code"] == "analysis-limit"),
            "not_decided": sorted({c for f in doc["findings"] if f["code"] == "analysis-limit"
                                   for c in f["metrics"].get("not_decided", [])})}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", help="run only the cases whose name contains this")
    ap.add_argument("--time-limit", type=float, help="arena validate --time-limit (default: its default)")
    ap.add_argument("--memory-limit", type=float, help="arena validate --memory-limit (default: its default)")
    ap.add_argument("--safety", type=float, default=300.0)
    args = ap.parse_args()
    extra = ([] if args.time_limit is None else ["--time-limit", str(args.time_limit)]) + \
        ([] if args.memory_limit is None else ["--memory-limit", str(args.memory_limit)])
    with tempfile.TemporaryDirectory() as tmp:
        for name, make in CASES.items():
            if args.only and args.only.lower() not in name.lower():
                continue
            path = Path(tmp) / "arena.yaml"
            save(make(), path)
            r = run(path, extra, args.safety)
            print(f"{name}: {r['seconds']:.1f} s, peak {r['peak_mib']:.0f} MiB", flush=True)
            if "error" in r:
                print(f"    {r['error']}")
                continue
            print(f"    summary {r['summary']}; {r['undecided']} travel question(s) undecided; "
                  f"not decided: {', '.join(r['not_decided']) or 'none'}")


if __name__ == "__main__":
    main()
