"""Batch validation: many arena files on local worker processes or on a Dask cluster.

Whichever executor runs the work, the results are identical and in input order: the client
reads every file (so remote workers need no shared filesystem), each task parses and validates
one arena exactly as ``arena validate`` does, and results are put back in input order.

- ``jobs == 1`` and no scheduler: in this process, one file after another;
- ``jobs > 1``: a ``ProcessPoolExecutor`` of ``jobs`` spawned processes;
- ``scheduler="tcp://HOST:PORT"``: a Dask ``distributed`` cluster (its workers need Arena
  Studio installed); ``jobs`` is ignored there — the cluster decides.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from schema import ArenaError, Problem, loads
from schema.io import MAX_FILE_BYTES, format_of
from validators.context import ANALYSIS_TOLERANCE
from validators.registry import NotForGame, UnknownValidator
from validators.run import Report, validate

ARENA_SUFFIXES = (".yaml", ".yml", ".json")
#: Seconds to wait for the Dask scheduler to answer.
CONNECT_TIMEOUT = 15
#: ``progress(done, total)`` after each file.
BatchProgress = Callable[[int, int], None]


@dataclass(frozen=True)
class Options:
    """What ``arena validate`` passes to :func:`validators.run.validate`."""

    enable: tuple[str, ...] = ()
    disable: tuple[str, ...] = ()
    tier: int | None = None
    budget: int | None | str = "arena"
    tolerance: float = ANALYSIS_TOLERANCE


@dataclass
class Outcome:
    """One file's result: a report, or the problems that kept it from being read, or the unknown
    validator code that was asked for, or the unexpected error (``Type: message``) it met."""

    source: str
    report: Report | None = None
    problems: list[Problem] = field(default_factory=list)
    unknown_validator: str | None = None
    #: A validator enabled on a game it does not check: the message.
    not_for_game: str | None = None
    failure: str | None = None

    @property
    def ok(self) -> bool:
        return self.report is not None


def expand(paths: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """Files as given; a directory becomes its ``*.yaml``/``*.yml``/``*.json`` files, sorted."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(sorted(c for c in p.iterdir() if c.is_file() and c.suffix.lower() in ARENA_SUFFIXES))
        else:
            out.append(p)
    return out


def read(path: Path) -> tuple[str, bytes | None, list[Problem]]:
    """(source, raw bytes, problems) as :func:`schema.load` reads a file."""
    source = str(path)
    try:
        with open(path, "rb") as fh:
            return source, fh.read(MAX_FILE_BYTES + 1), []
    except OSError as exc:
        return source, None, [Problem(source, 0, 0, "", f"cannot read file: {exc.strerror or exc}")]


def validate_one(source: str, raw: bytes | None, problems: list[Problem], options: Options) -> Outcome:
    """Parse and validate one arena (runs on whichever worker)."""
    if raw is None:
        return Outcome(source, problems=list(problems))
    try:
        arena = loads(raw, source=source, fmt=format_of(source, raw[:200].decode("utf-8", "replace")))
    except ArenaError as exc:
        return Outcome(source, problems=list(exc.problems))
    try:
        report = validate(arena, source=source, enable=options.enable, disable=options.disable,
                          tier=options.tier, budget=options.budget, tolerance=options.tolerance)
    except NotForGame as exc:
        return Outcome(source, not_for_game=str(exc))
    except UnknownValidator as exc:
        return Outcome(source, unknown_validator=str(exc.args[0]))
    except Exception as exc:  # noqa: BLE001 - a bug: reported for this file, the batch goes on
        return Outcome(source, failure=f"{type(exc).__name__}: {exc}"[:300])
    report.timings = {}  # wall-clock times differ run to run; keep outcomes identical across executors
    return Outcome(source, report=report)


def _worker_init() -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def validate_paths(paths: Sequence[str | os.PathLike[str]], options: Options = Options(), *, jobs: int = 1,
                   scheduler: str | None = None, progress: BatchProgress | None = None) -> list[Outcome]:
    """Validate every file in ``paths`` (directories expanded); outcomes in input order."""
    files = [read(p) for p in expand(paths)]
    total = len(files)
    if scheduler:
        return _on_dask(files, options, scheduler, progress)
    if jobs <= 1 or total <= 1:
        out = []
        for i, (source, raw, problems) in enumerate(files):
            out.append(validate_one(source, raw, problems, options))
            if progress:
                progress(i + 1, total)
        return out
    results: list[Outcome | None] = [None] * total
    with ProcessPoolExecutor(max_workers=min(jobs, total), mp_context=get_context("spawn"),
                             initializer=_worker_init) as pool:
        futures = {pool.submit(validate_one, s, raw, pr, options): i for i, (s, raw, pr) in enumerate(files)}
        for done, fut in enumerate(as_completed(futures), 1):
            results[futures[fut]] = fut.result()
            if progress:
                progress(done, total)
    return [r for r in results if r is not None]


def _on_dask(files: list[tuple[str, bytes | None, list[Problem]]], options: Options, address: str,
             progress: BatchProgress | None) -> list[Outcome]:
    from distributed import Client
    from distributed import as_completed as dask_completed

    total = len(files)
    batch = uuid.uuid4().hex[:12]
    with Client(address, set_as_default=False, timeout=CONNECT_TIMEOUT) as client:
        futures = [client.submit(validate_one, s, raw, pr, options, pure=False, key=f"arena-validate-{batch}-{i}")
                   for i, (s, raw, pr) in enumerate(files)]
        index = {f.key: i for i, f in enumerate(futures)}
        results: list[Any] = [None] * total
        for done, fut in enumerate(dask_completed(futures, loop=client.loop), 1):
            results[index[fut.key]] = fut.result()
            if progress:
                progress(done, total)
    return list(results)
