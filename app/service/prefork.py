"""The service's preloader: the process its workers are forked from, warm (issue 38, goal 5).

A spawned worker paid for a fresh interpreter and for importing the validation code - every
game's engine, runner and validators, the travel queries, numpy, shapely, scipy - each time one
started: at start-up, and again for every worker replaced after its job limit, a time limit or a
crash. Now one process, the *preloader*, is spawned when the pool starts; it imports all that
once (:func:`app.service.jobs.warm_up`), moves to the service's temporary area and then
only forks: each worker is a copy of it, warm from its first job, and starting one costs a fork.

How a worker is made: the service makes the worker's pipe, sends one end to the preloader
(``SCM_RIGHTS``, :func:`multiprocessing.reduction.send_handle`) and gets the new worker's pid
back; the worker then runs :func:`app.service.workers.serve` on that end. The preloader
forks from its single main thread and keeps nothing of a worker once it is forked; the kernel
reaps the workers (``SIGCHLD`` ignored), and the service, which is not their parent, watches and
kills them through a pidfd (Linux; their pid elsewhere): :class:`Forked`.

Lifetimes (:mod:`validators.lifeline`): the preloader follows the service (it is started from a
pool thread, so by the watch of its parent's id); each worker follows the preloader, with the
kernel's parent-death signal besides (it was forked from the preloader's main thread). When the
service ends, however it ends, the preloader exits within :data:`validators.lifeline.POLL`
seconds and the kernel kills its workers, mid-job too; a worker's own helpers (Car Wars's search
workers) follow the worker. A preloader that dies is started again when the next worker is
needed (its workers die with it: the service replaces them as crashed).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
import traceback
from multiprocessing.connection import Connection
from typing import Any


class PreloaderFailed(Exception):
    """The preloader could not be started, or could not fork a worker."""


class Forked:
    """A worker forked by the preloader, as the pool sees it (the interface of the
    :class:`multiprocessing.Process` it replaces: ``pid``, ``kill``, ``join``, ``is_alive``,
    ``exitcode``). The service is not its parent: it cannot wait for it, so it watches a pidfd
    (readable once the process is gone; a signal through it reaches that process only, never one
    that got its pid later) or, where there is none, the pid."""

    #: Not known: the preloader's kernel reaps the worker.
    exitcode: int | None = None

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self._fd: int | None = None
        self._gone = False
        try:
            self._fd = os.pidfd_open(pid)
        except ProcessLookupError:
            self._gone = True
        except (AttributeError, OSError):  # not Linux, or a kernel without pidfds: the pid
            pass

    def _exited(self, timeout_ms: int | None) -> bool:
        import select

        assert self._fd is not None
        poller = select.poll()
        poller.register(self._fd, select.POLLIN)
        return bool(poller.poll(timeout_ms))

    def is_alive(self) -> bool:
        if self._gone:
            return False
        if self._fd is not None:
            return not self._exited(0)
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            pass
        return True

    def join(self, timeout: float | None = None) -> None:
        if self._fd is not None and not self._gone:
            self._exited(None if timeout is None else max(0, round(timeout * 1000)))
            return
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.is_alive() and (deadline is None or time.monotonic() < deadline):
            time.sleep(0.01)

    def kill(self) -> None:
        if self._gone:
            return
        try:
            if self._fd is not None:
                signal.pidfd_send_signal(self._fd, signal.SIGKILL)
            else:
                os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    def close(self) -> None:
        """Release the pidfd (the process is gone, or no longer watched)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
        self._gone = True


class Preloader:
    """The service's end of the preloader: :meth:`fork` makes a warm worker. Thread-safe (the
    pool starts workers from its threads); blocking."""

    def __init__(self, context: Any, *, init: str | None = None, temp_dir: str | None = None,
                 startup_timeout: float = 120.0) -> None:
        self._ctx = context
        self.init = init
        self.temp_dir = temp_dir
        self.startup_timeout = startup_timeout
        self._lock = threading.Lock()
        self._process: Any = None
        self._conn: Connection | None = None
        #: Preloaders started (a second one means the first died).
        self.started = 0
        self._closed = False

    @property
    def pid(self) -> int | None:
        return None if self._process is None else int(self._process.pid)

    def start(self) -> None:
        """Start the preloader (if it is not running) and wait until it has imported everything."""
        with self._lock:
            self._ensure()

    def _ensure(self) -> None:
        if self._closed:
            raise PreloaderFailed("the workers' preloader is shut down")
        if self._process is not None and self._process.is_alive():
            return
        self._discard()
        mine, theirs = self._ctx.Pipe()
        proc = self._ctx.Process(target=preloader_main, args=(theirs, os.getpid(), self.init, self.temp_dir), daemon=True,
                                 name="arena-preloader")
        proc.start()
        theirs.close()
        if not mine.poll(self.startup_timeout):
            proc.kill()
            proc.join()
            mine.close()
            raise PreloaderFailed(f"the workers' preloader did not start within {self.startup_timeout:g} s")
        try:
            mine.recv()
        except (EOFError, OSError):
            proc.join()
            mine.close()
            raise PreloaderFailed(f"the workers' preloader failed to start (exit code {proc.exitcode})") from None
        self._process, self._conn = proc, mine
        self.started += 1

    def _discard(self) -> None:
        if self._conn is not None:
            self._conn.close()
        if self._process is not None:
            self._process.kill()
            self._process.join()
        self._process = self._conn = None

    def fork(self, conn: Connection) -> Forked:
        """A new worker serving ``conn`` (the caller closes its copy afterwards). The preloader
        is started (again) first if it is not running."""
        from multiprocessing.reduction import send_handle

        with self._lock:
            for attempt in (1, 2):
                self._ensure()
                assert self._conn is not None and self._process is not None
                try:
                    self._conn.send("fork")
                    send_handle(self._conn, conn.fileno(), self._process.pid)
                    if not self._conn.poll(self.startup_timeout):
                        raise PreloaderFailed(f"the workers' preloader did not fork within {self.startup_timeout:g} s")
                    pid = self._conn.recv()
                    return Forked(int(pid))
                except (EOFError, OSError, PreloaderFailed):
                    self._discard()  # dead or stuck: the next attempt starts a new one
                    if attempt == 2:
                        raise
            raise AssertionError("unreachable")

    def close(self) -> None:
        """Stop the preloader (its workers are stopped first, by the pool)."""
        with self._lock:
            self._closed = True
            if self._conn is not None:
                try:
                    self._conn.send(None)
                except OSError:
                    pass
            if self._process is not None:
                self._process.join(5)
            self._discard()


def preloader_main(conn: Connection, parent: int, init: str | None, temp_dir: str | None) -> None:
    """The preloader process: import the validation code, then fork a worker for each handle
    the service sends on ``conn``, until it closes or sends ``None``; each worker runs ``init``
    (``module:function``, :attr:`app.service.limits.ServiceConfig.worker_init`) first. It ends with the service
    process ``parent``, however that ends (:func:`validators.lifeline.follow_parent`)."""
    from multiprocessing.reduction import recv_handle

    from app.service import workers  # the loop the forked workers run

    workers.settle(parent, temp_dir)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps the workers; the service watches them
    me = os.getpid()
    conn.send(("ready", me))
    while True:
        try:
            msg = conn.recv()
            if msg is None:
                return
            fd = recv_handle(conn)
        except (EOFError, OSError):
            return
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _worker(conn, fd, me, init)  # never returns
        os.close(fd)
        conn.send(pid)


def _worker(control: Connection, fd: int, preloader: int, init: str | None) -> None:
    """In a freshly forked worker: serve jobs on ``fd``; exit, never return to the preloader's loop."""
    code = 1
    try:
        control.close()  # the preloader's line to the service is not the worker's
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # the worker waits for its own children
        from validators.lifeline import follow_parent
        from app.service.workers import serve

        follow_parent(preloader, deathsig=True)  # forked from the preloader's main thread
        serve(Connection(fd), init)
        code = 0
    except BaseException:  # noqa: BLE001 - whatever happens, this process must not go on as the preloader
        traceback.print_exc(file=sys.stderr)
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)
