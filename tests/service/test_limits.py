"""Limits: 413 (streamed and declared), 429 (queue full), 503 (time limit: the stuck worker is
killed and replaced), a crashed worker, and the pack size limit. Time limits are tiny so the
tests stay fast; nothing here asserts how long anything took."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import httpx

from app.service.app import create_app
from app.service.limits import MiB, ServiceConfig


YAML = {"content-type": "application/yaml"}


async def _with_app(config: ServiceConfig, body: Any) -> Any:
    app = create_app(config)
    transport = httpx.ASGITransport(app=app)
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://service") as client:
            return await body(client, app)
    finally:
        await app.state.pool.close()


def run(config: ServiceConfig, body: Any) -> Any:
    return asyncio.run(_with_app(config, body))


def check_problem(r: httpx.Response, status: int) -> dict[str, Any]:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    doc: dict[str, Any] = r.json()
    assert doc["status"] == status and doc["detail"] and "Traceback" not in r.text
    return doc


def test_body_limits_streamed_declared_and_pack(default_yaml: bytes) -> None:
    async def body(client: httpx.AsyncClient, app: Any) -> None:
        sent = 0

        async def chunks() -> AsyncIterator[bytes]:  # no Content-Length: chunked upload
            nonlocal sent
            for _ in range(64):
                sent += 64 * 1024
                yield b"#" * (64 * 1024)

        r = await client.post("/v1/validate", content=chunks(), headers=YAML)
        doc = check_problem(r, 413)
        assert "64 KiB" in doc["detail"]
        assert sent < 64 * 64 * 1024  # the service stopped reading early
        r = await client.post("/v1/validate", content=b"x" * (65 * 1024), headers=YAML)
        check_problem(r, 413)
        # just under the arena limit: read, then judged as an arena (422), not 413
        r = await client.post("/v1/validate", content=b"#" * (60 * 1024) + b"\nname: 1\n", headers=YAML)
        check_problem(r, 422)
        # packs have their own, larger limit
        r = await client.post("/v1/packs/verify", content=b"\0" * (100 * 1024))
        assert r.status_code in (422, 501), r.text
        r = await client.post("/v1/packs/verify", content=b"\0" * (129 * 1024))
        check_problem(r, 413)
        # the limit is also enforced on the travel and render endpoints
        check_problem(await client.post("/v1/travel?from=start:1&to=checkpoint:A", content=b"x" * (65 * 1024)), 413)
        check_problem(await client.post("/v1/render", content=b"x" * (65 * 1024)), 413)

    run(ServiceConfig(workers=1, max_body=64 * 1024, max_pack_body=128 * 1024), body)


def test_timeout_kills_the_worker_and_queue_full_gives_429(default_yaml: bytes) -> None:
    """The slow validator sleeps far past the limit, so it always times out; the job after it
    (one cheap validator, a few hundredths of a second) has the same limit, 3 s, which a loaded
    machine still meets with room (issue 36, point 15: nothing here depends on speed)."""
    cfg = ServiceConfig(workers=1, queue_size=0, timeout=3.0, worker_init="tests.service.helpers:install_test_plugins")

    async def body(client: httpx.AsyncClient, app: Any) -> None:
        pool = app.state.pool
        await pool.start()
        first_pid = next(iter(pool._all)).process.pid

        async def slow() -> httpx.Response:
            return await client.post("/v1/validate?enable=slow", content=default_yaml, headers=YAML)

        async def second() -> httpx.Response:
            while pool.busy == 0:  # wait until the slow job holds the only worker
                await asyncio.sleep(0.01)
            return await client.post("/v1/validate?enable=bounds", content=default_yaml, headers=YAML)

        r_slow, r_busy = await asyncio.gather(slow(), second())
        doc = check_problem(r_slow, 503)
        assert "3 s limit" in doc["detail"] and doc["type"].endswith("/timeout")
        doc = check_problem(r_busy, 429)
        assert r_busy.headers["retry-after"] == "1"
        # the stuck worker was killed and a fresh one serves the next request
        r = await client.post("/v1/validate?enable=bounds", content=default_yaml, headers=YAML)
        assert r.status_code == 200, r.text
        assert pool.replaced == 1
        (worker,) = pool._all
        assert worker.process.pid != first_pid and worker.process.is_alive()
        # a timed-out request is not cached
        again = await client.post("/v1/validate?enable=slow", content=default_yaml, headers=YAML)
        check_problem(again, 503)

    run(cfg, body)


def test_crashed_worker_is_replaced_and_fake_renderer(default_yaml: bytes) -> None:
    cfg = ServiceConfig(workers=1, timeout=20, worker_init="tests.service.helpers:install_test_plugins")

    async def body(client: httpx.AsyncClient, app: Any) -> None:
        r = await client.post("/v1/validate?enable=crash", content=default_yaml, headers=YAML)
        doc = check_problem(r, 500)
        assert doc["type"].endswith("/worker-crashed")
        svg = await client.post("/v1/render?format=svg", content=default_yaml, headers=YAML)
        assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
        assert b"Tri-Crown" in svg.content
        png = await client.post("/v1/render?format=png", content=default_yaml, headers=YAML)
        assert png.status_code == 200 and png.headers["content-type"] == "image/png"
        assert png.content.startswith(b"\x89PNG")
        assert app.state.pool.replaced == 1

    run(cfg, body)


def test_default_limits() -> None:
    cfg = ServiceConfig()
    assert cfg.max_body == 1 * MiB and cfg.max_pack_body == 20 * MiB and cfg.timeout == 10.0
