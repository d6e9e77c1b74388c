"""The service's jobs (``/v1/jobs``, docs/service.md#jobs): long tasks run in the background,
polled, cancelled, their results kept for a while.

:class:`JobStore` holds the jobs and runs each through a *runner* (an async function: the
service's job worker pool, or a Dask cluster) - at most ``concurrency`` at once, the others
queued; at most ``queue`` jobs unfinished (queued or running): one more is refused
(:class:`JobsFull`, answered 429). A finished job (done, failed, cancelled) is kept ``ttl``
seconds after it finished, and at most ``keep`` finished jobs are kept (the oldest go first).
The clock is injectable (tests move it instead of sleeping).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from app.service.problems import problem

log = logging.getLogger("arena.service")

#: ``progress(done, total, note)`` as runners report it.
Progress = Callable[[int, "int | None", str], None]
STATES = ("queued", "running", "done", "failed", "cancelled")
UNFINISHED = ("queued", "running")


class JobsFull(Exception):
    """As many jobs as the queue holds are unfinished."""


class JobFailed(Exception):
    """A runner's way to fail a job with a problem document (time limit, crashed worker...)."""

    def __init__(self, doc: dict[str, Any]) -> None:
        super().__init__(doc.get("detail", ""))
        self.doc = doc


@dataclass(eq=False)
class Job:
    id: str
    kind: str
    body: bytes
    params: dict[str, Any]
    created: float
    #: The result's file name (``Content-Disposition``), for file results.
    filename: str | None = None
    state: str = "queued"
    started: float | None = None
    finished: float | None = None
    progress: dict[str, Any] | None = None
    media_type: str | None = None
    result: bytes | None = None
    error: dict[str, Any] | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    @property
    def path(self) -> str:
        return f"/v1/jobs/{self.id}"

    def inline(self) -> Any:
        """The result, when it is JSON (else None: fetch it from ``links.result``)."""
        if self.state != "done" or self.result is None or self.media_type != "application/json":
            return None
        return json.loads(self.result)

    def to_json(self) -> dict[str, Any]:
        links = {"self": self.path}
        if self.state == "done":
            links["result"] = self.path + "/result"
        return {"id": self.id, "kind": self.kind, "state": self.state, "progress": self.progress,
                "created": stamp(self.created), "started": stamp(self.started), "finished": stamp(self.finished),
                "result": self.inline(), "links": links, "error": self.error}


def stamp(t: float | None) -> str | None:
    """A time as ISO 8601 in UTC, to the millisecond (``2025-01-31T12:00:00.000Z``)."""
    if t is None:
        return None
    return datetime.fromtimestamp(t, timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


Runner = Callable[[Job, Progress], Awaitable[Any]]


class JobStore:
    def __init__(self, runner: Runner, *, queue: int = 16, concurrency: int = 1, ttl: float = 3600.0,
                 keep: int = 100, clock: Callable[[], float] = time.time) -> None:
        self.runner = runner
        self.queue = queue
        self.concurrency = concurrency
        self.ttl = ttl
        self.keep = keep
        self.clock = clock
        self._jobs: dict[str, Job] = {}
        self._slots: asyncio.Semaphore | None = None

    def __len__(self) -> int:
        return len(self._jobs)

    def unfinished(self) -> int:
        return sum(1 for j in self._jobs.values() if j.state in UNFINISHED)

    def submit(self, kind: str, body: bytes, params: dict[str, Any], filename: str | None = None) -> Job:
        """Queue a job (it starts when a slot is free); :class:`JobsFull` when the queue is."""
        self.sweep()
        if self.unfinished() >= self.queue:
            raise JobsFull()
        job = Job(uuid.uuid4().hex, kind, body, params, self.clock(), filename)
        self._jobs[job.id] = job
        job.task = asyncio.ensure_future(self._run(job))
        return job

    async def _run(self, job: Job) -> None:
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.concurrency)
        try:
            async with self._slots:
                if job.state != "queued":  # cancelled while it waited
                    return
                job.state, job.started = "running", self.clock()

                def progress(done: int, total: int | None, note: str) -> None:
                    job.progress = {"done": done, "total": total, "note": note}

                outcome = await self.runner(job, progress)
        except asyncio.CancelledError:
            self._end(job, "cancelled")
            return
        except JobFailed as exc:
            job.error = exc.doc
            self._end(job, "failed")
            return
        except Exception:  # noqa: BLE001 - a runner's bug fails its job, logged, never the service
            log.exception("the %s job %s failed unexpectedly", job.kind, job.id)
            job.error = problem(500, "internal-error", "Internal server error",
                                f"the {job.kind} job failed unexpectedly; the error was logged")
            self._end(job, "failed")
            return
        if outcome[0] == "ok":
            job.media_type, job.result = outcome[1], bytes(outcome[2])
            if job.progress is not None and job.progress.get("total") is not None:
                job.progress = {**job.progress, "done": job.progress["total"]}
            self._end(job, "done")
        else:
            job.error = outcome[1]
            self._end(job, "failed")

    def _end(self, job: Job, state: str) -> None:
        if job.finished is None:
            job.finished = self.clock()
        if job.state in UNFINISHED:
            job.state = state
        job.body = b""  # the input is no longer needed

    def get(self, job_id: str) -> Job | None:
        self.sweep()
        return self._jobs.get(job_id)

    def cancel(self, job_id: str) -> bool:
        """Cancel an unfinished job (a running one's worker is stopped by its runner) or forget a
        finished one; False for an unknown id."""
        job = self.get(job_id)
        if job is None:
            return False
        if job.state in UNFINISHED:
            job.state, job.finished = "cancelled", self.clock()
            if job.task is not None:
                job.task.cancel()
        else:
            del self._jobs[job_id]
        return True

    def sweep(self) -> None:
        """Forget finished jobs older than the TTL, then the oldest past ``keep``."""
        now = self.clock()
        for job in [j for j in self._jobs.values() if j.state not in UNFINISHED]:
            if job.finished is not None and now - job.finished >= self.ttl:
                del self._jobs[job.id]
        finished = sorted((j for j in self._jobs.values() if j.state not in UNFINISHED),
                          key=lambda j: (j.finished or 0.0, j.created))
        for job in finished[:max(0, len(finished) - self.keep)]:
            del self._jobs[job.id]

    async def close(self) -> None:
        tasks = [j.task for j in self._jobs.values() if j.task is not None and not j.task.done()]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
