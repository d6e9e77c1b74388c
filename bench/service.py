"""Load benchmark of the validation service (not a test): starts ``arena serve`` on a free
127.0.0.1 port in a subprocess, then 50 concurrent clients (httpx.AsyncClient) POST the default
arena to /v1/validate — a cold burst (each client once, all at the same time, an arena the
server hasn't seen: one validation runs and the other requests wait for its answer), uncached
(``Cache-Control: no-cache``: every request is validated by a worker, the worst case), then
cached (identical requests answered from the content-hash cache). Reports
throughput, p50/p99 latency and failures per phase. Bounded in requests and time; only
127.0.0.1 is contacted.

    .venv/bin/python bench/service.py [--clients 50] [--uncached 100] [--cached 2000] [--workers 2]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
DEADLINE = 300.0  # seconds per phase, whatever happens


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(port: int, workers: int) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", "from validators.cli import main; main()", "serve", "--host", "127.0.0.1",
         "--port", str(port), "--workers", str(workers), "--log-level", "warning"],
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


async def phase(base: str, url: str, body: bytes, total: int, clients: int, nocache: bool) -> dict[str, float]:
    headers = {"content-type": "application/yaml"}
    if nocache:
        headers["cache-control"] = "no-cache"
    latencies: list[float] = []
    failures: dict[int | str, int] = {}
    issued = 0
    deadline = time.monotonic() + DEADLINE

    async def client(http: httpx.AsyncClient) -> None:
        nonlocal issued
        while issued < total and time.monotonic() < deadline:
            issued += 1
            t0 = time.perf_counter()
            try:
                r = await http.post(url, content=body, headers=headers)
                status: int | str = r.status_code
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
            "seconds": wall, "throughput": len(latencies) / wall, "p50": statistics.median(latencies),
            "p99": percentile(latencies, 0.99), "max": max(latencies)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--uncached", type=int, default=100, help="requests validated by workers")
    ap.add_argument("--cached", type=int, default=2000, help="requests answered from the cache")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--arena", type=Path, default=ROOT / "arenas" / "default.yaml")
    ap.add_argument("--strict", action="store_true",
                    help="don't fall back to the non-travel validators when a full validation fails (e.g. 503)")
    args = ap.parse_args()
    body = args.arena.read_bytes()
    port = free_port()
    proc = start_server(port, args.workers)
    base = f"http://127.0.0.1:{port}"
    try:
        validators = httpx.get(base + "/v1/validators").json()
        # every validator that loads (all of them, once the installation is complete)
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
        print(f"arena serve on {base}, {args.workers} workers; {args.clients} clients; "
              f"{len(listed)} validators: {', '.join(listed)}")
        results = {}
        # cold burst: every client asks for the same validation at once, on a cold cache (a body
        # the server hasn't seen): one validation runs, the others share its answer
        burst = body + f"\n# burst {time.time()}\n".encode()
        for name, total, nocache, payload in (("cold burst", args.clients, False, burst),
                                              ("uncached", args.uncached, True, body),
                                              ("cached", args.cached, False, body)):
            r = asyncio.run(phase(base, url, payload, total, args.clients, nocache))
            results[name] = r
            print(f"{name:10s} {r['requests']:5d} requests in {r['seconds']:6.2f} s: {r['throughput']:7.1f} req/s, "
                  f"p50 {r['p50'] * 1000:7.1f} ms, p99 {r['p99'] * 1000:7.1f} ms, max {r['max'] * 1000:7.1f} ms, "
                  f"failed {r['failed']} {r['failures'] or ''}")
        ok = all(r["failed"] == 0 for r in results.values())
        print("no request failed" if ok else "SOME REQUESTS FAILED")
        for name, r in results.items():
            print(f"p99 target < 2 s ({name}): {'met' if r['p99'] < 2 else 'missed'}")
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()


if __name__ == "__main__":
    main()
