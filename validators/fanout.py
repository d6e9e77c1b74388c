"""Fan independent tasks out over local worker processes or a Dask cluster, results in task order.

Shared by batch validation (:mod:`app.batch`, one task per file) and tabletop robustness
(:mod:`validators.robustness`, one task per perturbed sample).  Whichever executor runs them,
each task is the same pure call, so the results are identical and come back in input order:

- ``jobs == 1`` and no scheduler: in this process, one task after another;
- ``jobs > 1``: a ``ProcessPoolExecutor`` of ``jobs`` spawned processes;
- ``scheduler="tcp://HOST:PORT"``: a Dask ``distributed`` cluster (its workers need Arena Studio
  installed); ``jobs`` is ignored there - the cluster decides.

``should_stop()`` (checked after each task) cancels the tasks not yet started and raises
:class:`Cancelled`.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from multiprocessing import get_context
from typing import Any

#: Seconds to wait for the Dask scheduler to answer.
CONNECT_TIMEOUT = 15
#: ``progress(done, total)`` after each task.
FanProgress = Callable[[int, int], None]


class Cancelled(Exception):
    """``should_stop()`` said so before every task was done."""


def _worker_init(parent: int | None = None, nice: int = 0) -> None:
    """First thing in a pool worker: no display, and end with the process that started the pool
    (``parent``), however it ends (:func:`validators.lifeline.follow_parent`); ``nice``: run at
    that much lower a priority (an editor's workers: its window gets the cores first)."""
    if nice > 0 and hasattr(os, "nice"):
        os.nice(nice)
    if parent is not None:
        from validators.lifeline import follow_parent

        follow_parent(parent, deathsig=False)  # the pool may start workers from its own threads
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def fan_out(fn: Callable[..., Any], tasks: Sequence[tuple[Any, ...]], *, jobs: int = 1, scheduler: str | None = None,
            progress: FanProgress | None = None, should_stop: Callable[[], bool] | None = None,
            name: str = "arena-task") -> list[Any]:
    """``[fn(*t) for t in tasks]``, run as the module docstring says."""
    with Session(jobs=min(jobs, len(tasks)), scheduler=scheduler, name=name) as session:
        results, complete = session.map(fn, tasks, progress=progress, should_stop=should_stop)
    if not complete:
        raise Cancelled
    return results


class Session:
    """Workers kept for several :meth:`map` calls (a search's rounds): a process pool of
    ``jobs`` spawned processes (``jobs > 1``, at ``nice`` lower a priority), a Dask client
    (``scheduler``), or this process."""

    def __init__(self, *, jobs: int = 1, scheduler: str | None = None, name: str = "arena-task", nice: int = 0) -> None:
        self.jobs, self.scheduler, self.name, self.nice = jobs, scheduler, name, nice
        self._pool: ProcessPoolExecutor | None = None
        self._client: Any = None
        self._cancelled = False

    def __enter__(self) -> Session:
        if self.scheduler:
            from distributed import Client

            self._client = Client(self.scheduler, set_as_default=False, timeout=CONNECT_TIMEOUT)
        elif self.jobs > 1:
            self._pool = ProcessPoolExecutor(max_workers=self.jobs, mp_context=get_context("spawn"),
                                             initializer=_worker_init, initargs=(os.getpid(), self.nice))
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:  # after a cancelled map, the running tasks are not waited for
            self._pool.shutdown(wait=not self._cancelled, cancel_futures=True)
        if self._client is not None:
            self._client.close()

    @property
    def cancelled(self) -> bool:
        """A :meth:`map` was stopped: its running tasks may still hold the workers."""
        return self._cancelled

    def warm(self, fn: Callable[..., Any], *args: Any) -> list[Future[Any]]:
        """Start the local workers now, before any :meth:`map` needs them: ``fn(*args)`` once per
        worker (each submitted while none is idle, so each starts a process), which should
        import what the tasks will need.  Returns its futures (none without a local pool)."""
        if self._pool is None:
            return []
        return [self._pool.submit(fn, *args) for _ in range(self.jobs)]

    def pids(self) -> list[int]:
        """The local workers' process ids (those started so far)."""
        procs = getattr(self._pool, "_processes", None) or {}
        return sorted(int(pid) for pid in procs)

    def kill(self) -> None:
        """End the session now: tasks not started are dropped and the local workers are killed,
        mid-task too (for an editor closing, or a cancelled search's pool)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            procs = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for proc in procs:
                if proc.is_alive():
                    proc.kill()
            for proc in procs:
                proc.join(5.0)
        if self._client is not None:
            client, self._client = self._client, None
            client.close()

    def map(self, fn: Callable[..., Any], tasks: Sequence[tuple[Any, ...]], *, progress: FanProgress | None = None,
            should_stop: Callable[[], bool] | None = None) -> tuple[list[Any], bool]:
        """(results in task order, whether every task ran): when ``should_stop()`` says so
        (checked after each task) the tasks not yet started are cancelled and their results
        are None."""
        total = len(tasks)
        results: list[Any] = [None] * total
        if self._client is not None:
            return self._on_dask(fn, tasks, progress, should_stop)
        if self._pool is None or total <= 1:
            for i, args in enumerate(tasks):
                if should_stop and should_stop():
                    return results, False
                results[i] = fn(*args)
                if progress:
                    progress(i + 1, total)
            return results, True
        futures = {self._pool.submit(fn, *args): i for i, args in enumerate(tasks)}
        for done, fut in enumerate(as_completed(futures), 1):
            results[futures[fut]] = fut.result()
            if progress:
                progress(done, total)
            if should_stop and should_stop() and done < total:
                for f in futures:
                    f.cancel()
                self._cancelled = True
                return results, False
        return results, True

    def _on_dask(self, fn: Callable[..., Any], tasks: Sequence[tuple[Any, ...]], progress: FanProgress | None,
                 should_stop: Callable[[], bool] | None) -> tuple[list[Any], bool]:
        from distributed import as_completed as dask_completed

        client, total = self._client, len(tasks)
        batch = uuid.uuid4().hex[:12]
        futures = [client.submit(fn, *args, pure=False, key=f"{self.name}-{batch}-{i}") for i, args in enumerate(tasks)]
        index = {f.key: i for i, f in enumerate(futures)}
        results: list[Any] = [None] * total
        for done, fut in enumerate(dask_completed(futures, loop=client.loop), 1):
            results[index[fut.key]] = fut.result()
            if progress:
                progress(done, total)
            if should_stop and should_stop() and done < total:
                client.cancel(futures)
                return results, False
        return results, True
