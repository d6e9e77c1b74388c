"""The arena files a command line names: :func:`expand` (directories to their arena files).

Its own module, importing nothing heavy, so that ``arena validate`` on one file does not load the
batch machinery (:mod:`app.batch`: worker pools, Dask) to expand its arguments."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

#: The suffixes of arena files in a directory named on the command line.
ARENA_SUFFIXES = (".yaml", ".yml", ".json")


def expand(paths: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """Files as given; a directory becomes its ``*.yaml``/``*.yml``/``*.json`` files, sorted."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(sorted(c for c in p.iterdir() if c.is_file() and c.suffix.lower() in ARENA_SUFFIXES))
        else:
            out.append(p)
    return out
