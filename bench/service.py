"""Load benchmark of the validation service (not a test): starts ``arena serve`` on a free
127.0.0.1 port in a subprocess, then 50 concurrent clients (httpx.AsyncClient) POST the default
arena to /v1/validate — a cold burst (each client once, all at the same time, an arena the
server hasn't seen: one validation runs and the other requests wait for its answer), uncached
(``Cache-Control: no-cache``: every request is validated by a worker, the worst case), then
cached (identical requests answered from the content-hash cache), then distinct (issue 38,
goal 5: ``--distinct`` arenas, each the default arena with its walls moved a little - every
wall's centre scaled about the symmetry centre by 1 + k/100 000 for the k-th request, so the
arena keeps its symmetry and its cost and no two requests share a cache entry -
posted by ``--distinct-clients`` clients, default twice the workers). Reports throughput,
p50/p99 latency and failures per phase, the workers recycled and replaced, and the floor
measured in the same run (a fresh interpreter importing numpy, shapely, jsonschema and yaml,
as ``bench/startup.py``): the distinct phase's worker time per validation (workers x wall /
requests) as a multiple of it. Bounded in requests and time; only 127.0.0.1 is contacted.

    .venv/bin/python bench/service.py [--clients 50] [--uncached 100] [--cached 2000] [--workers 2]
                                      [--distinct 40] [--distinct-clients 4] [--floor-runs 5]
                                      [--only distinct] [--worker-max-jobs N]
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx
import yaml

ROOT = Path(__file__).resolve().parents[1]
DEADLINE = 300.0  # seconds per phase, whatever happens
#: What no command that reads an arena can do without (bench/startup.py's floor).
FLOOR = [sys.executable, "-c", "import numpy, shapely, jsonschema, yaml"]
#: The k-th distinct arena's walls are scaled about the symmetry centre by 1 + k * STEP.
STEP = 1e-5


def floor_seconds(runs: int) -> float:
    """Median wall time of ``runs`` fresh interpreters importing what every command imports."""
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(FLOOR, cwd=ROOT, check=True)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def _scaled(point: list[float], centre: list[float], factor: float) -> list[float]:
    return [round(c + (p - c) * factor, 6) for p, c in zip(point, centre)]


def variant(doc: dict, k: int) -> bytes:
    """The arena ``doc`` with every wall's centre (or points) scaled about its symmetry centre by
    ``1 + k * STEP``: the same symmetry, about the same analysis, a body of its own (JSON)."""
    out = copy.deepcopy(doc)
    centre = (out.get("symmetry") or {}).get("center") or [0.0, 0.0]
    factor = 1 + k * STEP
    for wall in out.get("walls", []):
        shape = wall.get("shape", {})
        if "center" in shape:
            shape["center"] = _scaled(shape["center"], centre, factor)
        elif "points" in shape:
            shape["points"] = [_scaled(p, centre, factor) for p in shape["points"]]
    out["name"] = f"{out.get('name', 'arena')} #{k}"
    return json.dumps(out).encode()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(port: int, workers: int, max_jobs: int | None = None) -> subprocess.Popen[str]:
    extra = [] if max_jobs is None else ["--worker-max-jobs", str(max_jobs)]
    proc = subprocess.Popen(
        [sys.executable, "-c", "from app.cli.main import main; main()", "serve", "--host", "127.0.0.1",
         "--port", str(port), "--workers", str(workers), "--log-level", "warning", *extra],
        cwd=ROOT, env={**os.environ}, text=True)
    base = f"http://127.0.0.1:{port}"
    t0 = time.monotonic()
    while time.monotonic() - t0 < 120:
        if proc.poll() is not None:
            raise SystemExit("arena serve exited")
        try:
            if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    proc.kill()
    raise SystemExit("arena serve did not start")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


async def phase(base: str, url: str, body: bytes | list[bytes], total: int, clients: int,
                nocache: bool) -> dict[str, float]:
    """``total`` POSTs of ``body`` (or of each of the bodies, JSON, in turn) by ``clients``
    concurrent clients."""
    bodies = body if isinstance(body, list) else None
    headers = {"content-type": "application/json" if bodies else "application/yaml"}
    if nocache:
        headers["cache-control"] = "no-cache"
    latencies: list[float] = []
    failures: dict[int | str, int] = {}
    cache: dict[str, int] = {}
    issued = 0
    deadline = time.monotonic() + DEADLINE

    async def client(http: httpx.AsyncClient) -> None:
        nonlocal issued
        while issued < total and time.monotonic() < deadline:
            content = bodies[issued % len(bodies)] if bodies else body
            issued += 1
            t0 = time.perf_counter()
            try:
                r = await http.post(url, content=content, headers=headers)
                status: int | str = r.status_code
                tag = r.headers.get("x-cache", "-")
                cache[tag] = cache.get(tag, 0) + 1
            except httpx.HTTPError as exc:
                status = type(exc).__name__
            latencies.append(time.perf_counter() - t0)
            if status != 200:
                failures[status] = failures.get(status, 0) + 1

    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(base_url=base, timeout=120, limits=limits) as http:
        t0 = time.perf_counter()
        await asyncio.gather(*(client(http) for _ in range(clients)))
        wall = time.perf_counter() - t0
    return {"requests": len(latencies), "failed": sum(failures.values()), "failures": failures,  # type: ignore[dict-item]
            "seconds": wall, "throughput": len(latencies) / wall, "cache": cache,  # type: ignore[dict-item]
            "p50": statistics.median(latencies), "p99": percentile(latencies, 0.99), "max": max(latencies)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--uncached", type=int, default=100, help="requests validated by workers")
    ap.add_argument("--cached", type=int, default=2000, help="requests answered from the cache")
    ap.add_argument("--distinct", type=int, default=40, help="distinct arenas validated by workers (0: none)")
    ap.add_argument("--distinct-clients", type=int, default=0, help="clients of the distinct phase (default: 2 x workers)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--worker-max-jobs", type=int, default=None,
                    help="arena serve's --worker-max-jobs (1: every job's worker is replaced after it)")
    ap.add_argument("--floor-runs", type=int, default=5, help="floor measurements before and after the service's")
    ap.add_argument("--only", choices=["cold burst", "uncached", "cached", "distinct"], action="append",
                    help="run only these phases (repeatable)")
    ap.add_argument("--arena", type=Path, default=ROOT / "arenas" / "default.yaml")
    ap.add_argument("--strict", action="store_true",
                    help="don't fall back to the non-travel validators when a full validation fails (e.g. 503)")
    args = ap.parse_args()
    body = args.arena.read_bytes()
    doc = yaml.safe_load(body)
    distinct = [variant(doc, k) for k in range(1, args.distinct + 1)]
    floors = [floor_seconds(1) for _ in range(args.floor_runs)]
    port = free_port()
    t0 = time.perf_counter()
    proc = start_server(port, args.workers, args.worker_max_jobs)
    ready = time.perf_counter() - t0
    base = f"http://127.0.0.1:{port}"
    results = {}
    try:
        system = doc.get("system", "gravstrike")
        # every validator of the arena's game that loads (all of them, once the installation is
        # complete; the service refuses one for another game)
        validators = [v for v in httpx.get(base + "/v1/validators").json() if system in v.get("games", [system])]
        listed = [v["code"] for v in validators]
        url = "/v1/validate?" + "&".join(f"enable={c}" for c in listed)
        warm = httpx.post(base + url, content=body, headers={"content-type": "application/yaml"}, timeout=120)
        print(f"one validation, {len(listed)} validators: HTTP {warm.status_code}, {warm.elapsed.total_seconds():.3f} s")
        if warm.status_code != 200 and not args.strict:
            listed = [v["code"] for v in validators if not v.get("needs_travel")]
            url = "/v1/validate?" + "&".join(f"enable={c}" for c in listed)
            warm = httpx.post(base + url, content=body, headers={"content-type": "application/yaml"}, timeout=120)
            print(f"falling back to the validators that need no travel planning: HTTP {warm.status_code}, "
                  f"{warm.elapsed.total_seconds():.3f} s")
        print(f"arena serve on {base}, {args.workers} workers, ready in {ready:.2f} s; {args.clients} clients; "
              f"{len(listed)} validators: {', '.join(listed)}")
        # cold burst: every client asks for the same validation at once, on a cold cache (a body
        # the server hasn't seen): one validation runs, the others share its answer
        burst = body + f"\n# burst {time.time()}\n".encode()
        clients = args.distinct_clients or 2 * args.workers
        for name, total, nocache, payload, n in (("cold burst", args.clients, False, burst, args.clients),
                                                 ("uncached", args.uncached, True, body, args.clients),
                                                 ("cached", args.cached, False, body, args.clients),
                                                 ("distinct", len(distinct), False, distinct, clients)):
            if not total or (args.only and name not in args.only):
                continue
            before = httpx.get(base + "/healthz").json()
            r = asyncio.run(phase(base, url, payload, total, n, nocache))
            after = httpx.get(base + "/healthz").json()
            r["recycled"] = after["recycled"] - before["recycled"]
            r["replaced"] = after["replaced"] - before["replaced"]
            results[name] = r
            print(f"{name:10s} {r['requests']:5d} requests in {r['seconds']:6.2f} s: {r['throughput']:7.2f} req/s, "
                  f"p50 {r['p50'] * 1000:7.1f} ms, p99 {r['p99'] * 1000:7.1f} ms, max {r['max'] * 1000:7.1f} ms, "
                  f"failed {r['failed']} {r['failures'] or ''}; {n} clients; X-Cache {r['cache']}; "
                  f"workers recycled {r['recycled']}, replaced {r['replaced']}")
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
    floors += [floor_seconds(1) for _ in range(args.floor_runs)]
    floor = statistics.median(floors)
    print(f"floor (python -c 'import numpy, shapely, jsonschema, yaml'): {floor:.3f} s, median of {len(floors)} "
          f"(before and after the service ran)")
    print(f"arena serve ready (the preloader's imports and {args.workers} workers forked): {ready:.2f} s, "
          f"{ready / floor:.1f}x the floor")
    if "distinct" in results:
        r = results["distinct"]
        per = args.workers * r["seconds"] / max(1, r["requests"])
        print(f"distinct arenas: {r['throughput']:.2f} req/s with {args.workers} workers - {per:.2f} s of a worker "
              f"per validation, {per / floor:.1f}x the floor" +
              (f"; cached answers: {results['cached']['throughput']:.1f} req/s" if "cached" in results else ""))
    ok = all(r["failed"] == 0 for r in results.values())
    print("no request failed" if ok else "SOME REQUESTS FAILED")
    for name, r in results.items():
        print(f"p99 target < 2 s ({name}): {'met' if r['p99'] < 2 else 'missed'}")


if __name__ == "__main__":
    main()
