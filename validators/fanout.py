"""Fan independent tasks out over local worker processes or a Dask cluster, results in task order.

Shared by batch validation (:mod:`validators.batch`, one task per file) and tabletop robustness
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
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context
from typing import Any

#: Seconds to wait for the Dask scheduler to answer.
CONNECT_TIMEOUT = 15
#: ``progress(done, total)`` after each task.
FanProgress = Callable[[int, int], None]


class Cancelled(Exception):
    """``should_stop()`` said so before every task was done."""


def _worker_init() -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def fan_out(fn: Callable[..., Any], tasks: Sequence[tuple[Any, ...]], *, jobs: int = 1, scheduler: str | None = None,
            progress: FanProgress | None = None, should_stop: Callable[[], bool] | None = None,
            name: str = "arena-task") -> list[Any]:
    """``[fn(*t) for t in tasks]``, run as the module docstring says."""
    total = len(tasks)
    if scheduler:
        return _on_dask(fn, tasks, scheduler, progress, should_stop, name)
    if jobs <= 1 or total <= 1:
        out = []
        for i, args in enumerate(tasks):
            if should_stop and should_stop():
                raise Cancelled
            out.append(fn(*args))
            if progress:
                progress(i + 1, total)
        return out
    results: list[Any] = [None] * total
    with ProcessPoolExecutor(max_workers=min(jobs, total), mp_context=get_context("spawn"),
                             initializer=_worker_init) as pool:
        futures = {pool.submit(fn, *args): i for i, args in enumerate(tasks)}
        for done, fut in enumerate(as_completed(futures), 1):
            results[futures[fut]] = fut.result()
            if progress:
                progress(done, total)
            if should_stop and should_stop() and done < total:
                pool.shutdown(wait=False, cancel_futures=True)
                raise Cancelled
    return results


def _on_dask(fn: Callable[..., Any], tasks: Sequence[tuple[Any, ...]], address: str, progress: FanProgress | None,
             should_stop: Callable[[], bool] | None, name: str) -> list[Any]:
    from distributed import Client
    from distributed import as_completed as dask_completed

    total = len(tasks)
    batch = uuid.uuid4().hex[:12]
    with Client(address, set_as_default=False, timeout=CONNECT_TIMEOUT) as client:
        futures = [client.submit(fn, *args, pure=False, key=f"{name}-{batch}-{i}") for i, args in enumerate(tasks)]
        index = {f.key: i for i, f in enumerate(futures)}
        results: list[Any] = [None] * total
        for done, fut in enumerate(dask_completed(futures, loop=client.loop), 1):
            results[index[fut.key]] = fut.result()
            if progress:
                progress(done, total)
            if should_stop and should_stop() and done < total:
                client.cancel(futures)
                raise Cancelled
    return results
