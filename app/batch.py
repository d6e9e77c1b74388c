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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from schema import ArenaError, Problem, loads
from schema.io import MAX_FILE_BYTES, format_of
from validators.fanout import CONNECT_TIMEOUT, FanProgress, fan_out
from validators.options import Options
from app.paths import ARENA_SUFFIXES, expand
from validators.registry import NotForGame, UnknownValidator
from validators.run import Report, validate

#: ``progress(done, total)`` after each file.
BatchProgress = FanProgress
__all__ = ["ARENA_SUFFIXES", "CONNECT_TIMEOUT", "BatchProgress", "Options", "Outcome", "expand", "read",
           "validate_one", "validate_paths"]


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
                          tier=options.tier, budget=options.budget, tolerance=options.tolerance, limits=options.limits,
                          players=options.players)
    except NotForGame as exc:
        return Outcome(source, not_for_game=str(exc))
    except UnknownValidator as exc:
        return Outcome(source, unknown_validator=str(exc.args[0]))
    except Exception as exc:  # noqa: BLE001 - a bug: reported for this file, the batch goes on
        return Outcome(source, failure=f"{type(exc).__name__}: {exc}"[:300])
    report.timings = {}  # wall-clock times differ run to run; keep outcomes identical across executors
    return Outcome(source, report=report)


def validate_paths(paths: Sequence[str | os.PathLike[str]], options: Options = Options(), *, jobs: int = 1,
                   scheduler: str | None = None, progress: BatchProgress | None = None) -> list[Outcome]:
    """Validate every file in ``paths`` (directories expanded); outcomes in input order."""
    files = [read(p) for p in expand(paths)]
    return fan_out(validate_one, [(s, raw, pr, options) for s, raw, pr in files], jobs=jobs, scheduler=scheduler,
                   progress=progress, name="arena-validate")
