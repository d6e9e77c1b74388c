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


class BodyTooLarge(Exception):
    def __init__(self, limit: int) -> None:
        super().__init__(limit)
        self.limit = limit


async def read_body(request: Any, limit: int) -> bytes:
    """The request body, read chunk by chunk; raises :class:`BodyTooLarge` past ``limit``
    bytes (at once if ``Content-Length`` already says so)."""
    declared = request.headers.get("content-length")
    if declared is not None:
        try:
            if int(declared) > limit:
                raise BodyTooLarge(limit)
        except ValueError:
            pass
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise BodyTooLarge(limit)
        chunks.append(chunk)
    return b"".join(chunks)


def human_size(n: int) -> str:
    """>>> human_size(1048576), human_size(1500)
    ('1 MiB', '1500 bytes')"""
    if n % MiB == 0:
        return f"{n // MiB} MiB"
    if n % 1024 == 0:
        return f"{n // 1024} KiB"
    return f"{n} bytes"
