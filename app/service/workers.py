"""Worker processes for the service: each job runs in a separate process with a time limit. A
worker that overruns is killed (SIGKILL) and replaced; one that dies is replaced.  A worker ends
with the service process, however the service ends.

Workers start warm: they are forked from the pool's preloader (:mod:`app.service.prefork`),
one process that imported the validation code once, so a worker - the first ones and every
replacement - costs a fork, not an interpreter and its imports. Where there is no fork (or with
``preload=False``) each worker is spawned and imports it itself (:func:`worker_main`).

Concurrency is bounded: ``size`` jobs run at once and at most ``queue_size`` more wait for a
worker; past that :class:`QueueFull` is raised at once (the app answers 429).

Workers are recycled: after ``max_jobs`` jobs, or once a job leaves one with more than
``max_rss_mib`` MiB resident (caches, allocator fragmentation), a worker is stopped between jobs
and a fresh one takes its place, so a long-lived service does not grow.

The pool is asyncio-native: waiting for a result happens on a small thread pool
(``Connection.poll``), so the event loop is never blocked.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import multiprocessing
import os
import signal
import sys
import traceback
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from app.service.prefork import Preloader, PreloaderFailed
from app.service.problems import problem

log = logging.getLogger("arena.service")


class QueueFull(Exception):
    """Every worker is busy and the wait queue is full."""


class JobTimeout(Exception):
    """A job overran its time limit; its worker was killed."""

    def __init__(self, seconds: float) -> None:
        super().__init__(seconds)
        self.seconds = seconds


class WorkerCrashed(Exception):
    """The worker process died while running a job."""


class PoolUnavailable(Exception):
    """No worker could be started."""


def _resolve(ref: str) -> Any:
    module, _, name = ref.partition(":")
    obj: Any = importlib.import_module(module)
    for part in name.split(".") if name else ():
        obj = getattr(obj, part)
    return obj


def worker_main(conn: Connection, init: str | None, temp_dir: str | None = None, parent: int | None = None) -> None:
    """A spawned worker process (where there is no fork, or ``preload=False``): import the
    validation code itself, then :func:`serve`. Its working and temporary directory is the
    service's temp area.  It ends with the service process ``parent``, however that ends
    (``kill -9`` too; mid-job too: :func:`validators.lifeline.follow_parent`)."""
    settle(parent, temp_dir)
    serve(conn, init)


def settle(parent: int | None, temp_dir: str | None) -> None:
    """What a process the service starts (a spawned worker, the preloader) does first: end with
    the service process ``parent`` however that ends (:func:`validators.lifeline.follow_parent`),
    ignore Ctrl-C (it stops the server, which stops us), import the validation code
    (:func:`app.service.jobs.warm_up`), then work in the service's temp area."""
    if parent is not None:
        from validators.lifeline import follow_parent

        follow_parent(parent, deathsig=False)  # started from a pool thread: the signal would follow the thread
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from app.service import jobs

    jobs.warm_up()
    if temp_dir:
        import tempfile

        os.environ["TMPDIR"] = temp_dir
        tempfile.tempdir = temp_dir
        os.chdir(temp_dir)


def serve(conn: Connection, init: str | None) -> None:
    """A worker's loop: run ``init`` (``module:function``, if any), say it is ready, then run
    the jobs sent on ``conn`` until it closes or sends ``None``."""
    from app.service import jobs

    if init:
        _resolve(init)()
    conn.send(("ready", os.getpid()))
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        name, kwargs = msg
        if kwargs.pop("_progress", False):  # a service job's progress, sent before its outcome
            kwargs["progress"] = _progress_sender(conn)
        try:
            result: Any = jobs.JOBS[name](**kwargs)
        except Exception:
            traceback.print_exc(file=sys.stderr)
            result = ("problem", problem(500, "internal-error", "Internal server error",
                                         f"the {name} job failed unexpectedly; the error was logged"))
        try:
            conn.send(result)
        except (EOFError, OSError):
            return


#: Seconds between two progress messages of a job (the last one is always sent).
PROGRESS_INTERVAL = 0.2


def _progress_sender(conn: Connection) -> Any:
    """``progress(done, total, note)`` sending ``("progress", done, total, note)`` on ``conn``, at
    most every :data:`PROGRESS_INTERVAL` seconds (and when ``done`` reaches ``total``)."""
    import time

    last = [float("-inf")]

    def send(done: int, total: int | None, note: str) -> None:
        now = time.monotonic()
        if now - last[0] < PROGRESS_INTERVAL and (total is None or done < total):
            return
        last[0] = now
        try:
            conn.send(("progress", int(done), None if total is None else int(total), str(note)[:200]))
        except (OSError, ValueError):
            pass

    return send


@dataclass(eq=False)
class _Worker:
    process: Any
    conn: Connection
    jobs: int = 0


def resident_mib(pid: int) -> float | None:
    """Resident memory of process ``pid`` in MiB, or None where it cannot be read."""
    try:
        import psutil

        return float(psutil.Process(pid).memory_info().rss) / (1024 * 1024)
    except Exception:  # noqa: BLE001 - no psutil, process gone, no permission: don't recycle on it
        return None


class WorkerPool:
    def __init__(self, size: int, *, queue_size: int = 32, timeout: float = 10.0,
                 init: str | None = None, startup_timeout: float = 120.0, temp_dir: str | None = None,
                 max_jobs: int = 0, max_rss_mib: float = 0, preload: bool = True,
                 preloader: Preloader | None = None) -> None:
        if size < 1:
            raise ValueError("a worker pool needs at least one worker")
        self.size = size
        self.queue_size = queue_size
        self.timeout = timeout
        self.init = init
        self.startup_timeout = startup_timeout
        self.temp_dir = temp_dir
        self.max_jobs = max_jobs
        self.max_rss_mib = max_rss_mib
        self._ctx = multiprocessing.get_context("spawn")
        #: The process the workers are forked from, warm (None: each worker is spawned and
        #: imports the validation code itself).
        self.preloader: Preloader | None = preloader
        #: Whether :meth:`close` stops the preloader (not one shared with another pool).
        self._own_preloader = preloader is None
        if preloader is None and preload and hasattr(os, "fork"):
            self.preloader = Preloader(self._ctx, init=init, temp_dir=temp_dir, startup_timeout=startup_timeout)
        self._threads = ThreadPoolExecutor(max_workers=size + 2, thread_name_prefix="arena-pool")
        self._idle: asyncio.Queue[_Worker] | None = None
        self._all: set[_Worker] = set()
        self._admitted = 0
        self._started = False
        self._closed = False
        self._start_lock: asyncio.Lock | None = None
        self.replaced = 0
        #: Workers stopped after max_jobs or max_rss_mib and replaced.
        self.recycled = 0
        self._tasks: set[asyncio.Task[None]] = set()

    # -- lifecycle ---------------------------------------------------------------------------
    def _spawn(self) -> _Worker:
        """Start one worker and wait for it to be ready (blocking; run on a thread): forked from
        the preloader, or spawned."""
        parent, child = self._ctx.Pipe()
        proc: Any
        if self.preloader is not None:
            try:
                proc = self.preloader.fork(child)
            except (PreloaderFailed, EOFError, OSError) as exc:
                parent.close()
                raise PoolUnavailable(f"no worker could be started: {exc}") from None
            finally:
                child.close()
        else:
            proc = self._ctx.Process(target=worker_main, args=(child, self.init, self.temp_dir, os.getpid()),
                                     daemon=True, name="arena-worker")
            proc.start()
            child.close()
        if not parent.poll(self.startup_timeout):
            proc.kill()
            proc.join()
            parent.close()
            raise PoolUnavailable(f"a worker did not start within {self.startup_timeout:g} s")
        try:
            parent.recv()
        except EOFError:
            proc.join()
            parent.close()
            code = "" if proc.exitcode is None else f" (exit code {proc.exitcode})"
            raise PoolUnavailable(f"a worker failed to start{code}") from None
        return _Worker(proc, parent)

    async def start(self) -> None:
        if self._started:
            return
        if self._start_lock is None:
            self._start_lock = asyncio.Lock()
        async with self._start_lock:
            if self._started:
                return
            if self._closed:
                raise PoolUnavailable("the worker pool is shut down")
            loop = asyncio.get_running_loop()
            if self.preloader is not None:  # the imports, once, before the workers are forked
                try:
                    await loop.run_in_executor(self._threads, self.preloader.start)
                except PreloaderFailed as exc:
                    raise PoolUnavailable(str(exc)) from None
            workers = await asyncio.gather(*(loop.run_in_executor(self._threads, self._spawn)
                                             for _ in range(self.size)))
            self._idle = asyncio.Queue()
            for w in workers:
                self._all.add(w)
                self._idle.put_nowait(w)
            self._started = True

    async def close(self) -> None:
        self._closed = True
        loop = asyncio.get_running_loop()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        for w in list(self._all):
            await loop.run_in_executor(self._threads, self._stop, w)
        self._all.clear()
        if self.preloader is not None and self._own_preloader:
            await loop.run_in_executor(self._threads, self.preloader.close)
        self._threads.shutdown(wait=False, cancel_futures=True)

    @staticmethod
    def _stop(w: _Worker) -> None:
        try:
            w.conn.send(None)
        except (OSError, ValueError):
            pass
        w.process.join(2)
        if w.process.is_alive():
            w.process.kill()
            w.process.join()
        w.conn.close()
        w.process.close()

    @staticmethod
    def _kill(w: _Worker) -> None:
        w.process.kill()
        w.process.join()
        w.conn.close()
        w.process.close()

    async def _replace(self, w: _Worker, graceful: bool = False) -> None:
        """Kill ``w`` (if still running; or stop it, ``graceful``) and put a fresh worker in its
        place."""
        loop = asyncio.get_running_loop()
        self._all.discard(w)
        await loop.run_in_executor(self._threads, self._stop if graceful else self._kill, w)
        if graceful:
            self.recycled += 1
        else:
            self.replaced += 1
        if self._closed:
            return
        try:
            fresh = await loop.run_in_executor(self._threads, self._spawn)
        except PoolUnavailable:
            log.exception("could not replace a worker")
            return
        if self._closed:
            await loop.run_in_executor(self._threads, self._stop, fresh)
            return
        self._all.add(fresh)
        assert self._idle is not None
        self._idle.put_nowait(fresh)

    def _schedule_replace(self, w: _Worker, graceful: bool = False) -> None:
        task = asyncio.ensure_future(self._replace(w, graceful))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- jobs -------------------------------------------------------------------------------
    @property
    def busy(self) -> int:
        """Jobs admitted: running plus waiting."""
        return self._admitted

    async def run(self, job: str, timeout: float | None = None, progress: Any = None, **kwargs: Any) -> Any:
        """Run ``jobs.JOBS[job](**kwargs)`` in a worker; its outcome, or QueueFull, JobTimeout,
        WorkerCrashed. ``progress(done, total, note)``: called with the job's progress reports
        (the job gets a ``progress`` callable that sends them)."""
        if progress is not None:
            kwargs["_progress"] = True
        if self._admitted >= self.size + self.queue_size:
            raise QueueFull()
        self._admitted += 1
        try:
            await self.start()
            assert self._idle is not None
            worker = await self._idle.get()
            return await self._call(worker, job, kwargs, self.timeout if timeout is None else timeout, progress)
        finally:
            self._admitted -= 1

    async def _call(self, w: _Worker, job: str, kwargs: dict[str, Any], timeout: float, progress: Any = None) -> Any:
        loop = asyncio.get_running_loop()
        assert self._idle is not None
        deadline = loop.time() + timeout
        try:
            w.conn.send((job, kwargs))
            while True:
                ready = await loop.run_in_executor(self._threads, w.conn.poll, max(0.0, deadline - loop.time()))
                if not ready:
                    self._schedule_replace(w)
                    raise JobTimeout(timeout)
                result = await loop.run_in_executor(self._threads, w.conn.recv)
                if isinstance(result, tuple) and result and result[0] == "progress":
                    if progress is not None:
                        progress(*result[1:])
                    continue
                break
        except (EOFError, OSError, BrokenPipeError) as exc:
            self._schedule_replace(w)
            raise WorkerCrashed(str(exc)) from None
        except asyncio.CancelledError:
            # the client went away mid-job: the worker's state is unknown, so replace it
            self._schedule_replace(w)
            raise
        w.jobs += 1
        if self._worn(w):
            self._schedule_replace(w, graceful=True)
        else:
            self._idle.put_nowait(w)
        return result

    def _worn(self, w: _Worker) -> bool:
        """Whether ``w`` is due for recycling (after its job, between jobs)."""
        if self.max_jobs and w.jobs >= self.max_jobs:
            log.info("recycling worker %s after %d jobs", w.process.pid, w.jobs)
            return True
        if self.max_rss_mib:
            rss = resident_mib(w.process.pid)
            if rss is not None and rss > self.max_rss_mib:
                log.info("recycling worker %s: %.0f MiB resident (limit %g)", w.process.pid, rss, self.max_rss_mib)
                return True
        return False
