"""Service limits and settings, and reading request bodies under a size limit.

The limit is enforced while the body streams in: a client that lies in (or omits)
``Content-Length`` is cut off as soon as it has sent more than the limit.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

MiB = 1024 * 1024


@dataclass(frozen=True)
class ServiceConfig:
    """Everything that bounds the service. Defaults are the documented ones."""

    #: Validation worker processes (each runs one job at a time).
    workers: int = field(default_factory=lambda: max(1, min(4, os.cpu_count() or 1)))
    #: Requests that may wait for a free worker beyond those running; more get 429.
    queue_size: int = 64
    #: Seconds one validation, travel query or render may run before its worker is killed (503).
    timeout: float = 10.0
    #: Seconds one pack verification may run (it re-validates every arena in the pack).
    pack_timeout: float = 60.0
    #: Largest request body (arena endpoints), in bytes; larger -> 413.
    max_body: int = 1 * MiB
    #: Largest pack upload, in bytes; larger -> 413.
    max_pack_body: int = 20 * MiB
    #: Responses kept in the content-hash cache (0 disables it).
    cache_size: int = 256
    #: Seconds a worker may take to start before the service reports it unavailable.
    startup_timeout: float = 120.0
    #: ``"module:function"`` run once in every worker process after it starts (plugins, tests).
    worker_init: str | None = None
    #: Parent of the service's temporary area (default: the system temp dir).
    temp_dir: str | None = None
    #: Seconds a client may take to send a request's line and headers (408 and closed past it).
    header_timeout: float = 10.0
    #: Seconds (whole: uvicorn takes an int) an idle kept-alive connection stays open.
    keep_alive_timeout: int = 5
    #: Seconds a client may take to send a request body (408 past it).
    body_timeout: float = 30.0
    #: Jobs a worker process runs before it is replaced by a fresh one (0: never).
    worker_max_jobs: int = 500
    #: Resident memory (MiB) past which a worker is replaced after its job (0: never).
    worker_max_rss_mib: int = 512
    #: Memory (MiB) one validation or travel query may hold, in its worker and the processes it
    #: starts (0: no cap); past it the analysis stops and answers undecided (engine.budget).
    #: Its time cap is 80 % of ``timeout``.
    analysis_memory_mib: float = 1024.0
    #: Seconds one job of ``POST /v1/jobs`` may run before it is stopped (its worker killed;
    #: its analysis caps are 80 % of it).
    job_timeout: float = 600.0
    #: Jobs that may be unfinished (queued or running) at once; one more gets 429.
    job_queue: int = 16
    #: Worker processes running jobs (beside the request workers): jobs run at once.
    job_workers: int = 1
    #: Seconds a finished job (and its result) is kept after it finished.
    job_ttl: float = 3600.0
    #: Finished jobs kept at most (the oldest are forgotten first).
    job_keep: int = 100
    #: A Dask scheduler's address (``tcp://HOST:PORT``): jobs run on that cluster instead.
    scheduler: str | None = None


class BodyTooLarge(Exception):
    def __init__(self, limit: int) -> None:
        super().__init__(limit)
        self.limit = limit


class BodyTimeout(Exception):
    """The client took longer than the limit to send the body."""

    def __init__(self, seconds: float) -> None:
        super().__init__(seconds)
        self.seconds = seconds


class ClientGone(Exception):
    """The client disconnected before its request body was complete (nobody to answer)."""


async def read_body(request: Any, limit: int, timeout: float | None = None) -> bytes:
    """The request body, read chunk by chunk; raises :class:`BodyTooLarge` past ``limit``
    bytes (at once if ``Content-Length`` already says so), :class:`BodyTimeout` when it takes
    longer than ``timeout`` seconds, :class:`ClientGone` when the client disconnects."""
    import asyncio

    from starlette.requests import ClientDisconnect

    declared = request.headers.get("content-length")
    if declared is not None:
        try:
            if int(declared) > limit:
                raise BodyTooLarge(limit)
        except ValueError:
            pass
    chunks: list[bytes] = []
    size = 0

    async def read() -> None:
        nonlocal size
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise BodyTooLarge(limit)
            chunks.append(chunk)

    try:
        await asyncio.wait_for(read(), timeout)
    except asyncio.TimeoutError:
        raise BodyTimeout(timeout or 0.0) from None
    except ClientDisconnect:
        raise ClientGone() from None
    return b"".join(chunks)


def human_size(n: int) -> str:
    """>>> human_size(1048576), human_size(1500)
    ('1 MiB', '1500 bytes')"""
    if n % MiB == 0:
        return f"{n // MiB} MiB"
    if n % 1024 == 0:
        return f"{n // 1024} KiB"
    return f"{n} bytes"
