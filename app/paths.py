"""The arena files a command line names: :func:`expand` (directories to their arena files).

Its own module, importing nothing heavy, so that ``arena validate`` on one file does not load the
batch machinery (:mod:`app.batch`: worker pools, Dask) to expand its arguments.

A directory may hold Arena Studio's other documents beside its arenas - a season file (the
shipped ``arenas/autumn-league.season.yml``), a saved report, a simulation record, a diff, a
pack manifest.  They are left out of the directory's arena files, each with a note saying so
(:func:`other_document`); a file named on its own is always taken, and the loader says what it is.

>>> import tempfile
>>> d = Path(tempfile.mkdtemp())
>>> _ = (d / "a.yaml").write_text("format: arena-studio/1\\nname: A\\n")
>>> _ = (d / "league.season.yml").write_text("# the league\\nformat: 'arena-studio-season/1'\\nevents: []\\n")
>>> _ = (d / "report.json").write_text('{"format": "arena-studio-report/1", "findings": []}')
>>> notes = []
>>> [p.name for p in expand([d], note=notes.append)]
['a.yaml']
>>> [n.split(": ", 1)[1] for n in notes]  # doctest: +NORMALIZE_WHITESPACE
['skipped: a season file (arena-studio-season/1), not an arena - `arena season check` reads it',
 'skipped: a validation report (arena-studio-report/1), not an arena']
>>> (d / "a.yaml").unlink()
>>> try:
...     expand([d], note=notes.append)
... except NoArenaFiles as exc:
...     print(str(exc).split(": ", 1)[1])
no arena file in this directory (its *.yaml, *.yml and *.json files are read)
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

#: The suffixes of arena files in a directory named on the command line.
ARENA_SUFFIXES = (".yaml", ".yml", ".json")
#: Arena Studio's documents that are not arenas, by the ``format`` they declare: what to call
#: them, and what reads them.
OTHER_DOCUMENTS = {
    "arena-studio-season": ("a season file", "`arena season check` reads it"),
    "arena-studio-report": ("a validation report", ""),
    "arena-studio-simulation": ("a simulation record", ""),
    "arena-studio-diff": ("an arena diff", ""),
    "arena-studio-pack": ("a pack manifest", ""),
    "arena-studio-games": ("a games list", ""),
}
#: A YAML document's top-level ``format`` key (a line at column 0: nothing nested is), as
#: Arena Studio writes it, plain or quoted, with an optional comment.
_YAML_FORMAT = re.compile(r"""^format:[ \t]*(["']?)(arena-studio-[a-z-]+/\d+)\1[ \t]*(?:#.*)?$""", re.MULTILINE)
#: How much of a file the sniff reads: Arena Studio writes ``format`` first; a key further down
#: leaves the file to the loader.
_SNIFF_BYTES = 64 * 1024


def other_document(path: Path) -> str | None:
    """The ``format`` that ``path`` declares when it is one of Arena Studio's documents that is
    not an arena (:data:`OTHER_DOCUMENTS`), else None - an arena, or anything else, which the
    loader judges (and explains) as it does every file."""
    try:
        with path.open("rb") as fh:
            head = fh.read(_SNIFF_BYTES)
    except OSError:
        return None  # the loader reports what it cannot read
    text = head.decode("utf-8", errors="replace")
    fmt: object = None
    if path.suffix.lower() == ".json":
        try:
            doc = json.loads(text)
        except ValueError:
            return None  # malformed, or longer than the sniff: the loader's to judge
        fmt = doc.get("format") if isinstance(doc, dict) else None
    else:
        m = _YAML_FORMAT.search(text)
        fmt = m.group(2) if m else None
    if isinstance(fmt, str) and fmt.partition("/")[0] in OTHER_DOCUMENTS:
        return fmt
    return None


class NoArenaFiles(ValueError):
    """A directory named on the command line holds no arena file: an input error (exit 2), not
    an empty verdict."""


def _stderr(text: str) -> None:
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def expand(paths: Iterable[str | os.PathLike[str]], note: Callable[[str], None] = _stderr) -> list[Path]:
    """Files as given; a directory becomes its ``*.yaml``/``*.yml``/``*.json`` files, sorted,
    without Arena Studio's other documents (:func:`other_document`): ``note`` gets a line for
    each one left out (default: standard error).  A directory left with no arena file raises
    :class:`NoArenaFiles` (the commands exit 2 saying so: an empty folder is no clean verdict)."""
    out: list[Path] = []
    for p in map(Path, paths):
        if not p.is_dir():
            out.append(p)
            continue
        found = 0
        for c in sorted(c for c in p.iterdir() if c.is_file() and c.suffix.lower() in ARENA_SUFFIXES):
            fmt = other_document(c)
            if fmt is None:
                out.append(c)
                found += 1
                continue
            what, reader = OTHER_DOCUMENTS[fmt.partition("/")[0]]
            note(f"{c}: skipped: {what} ({fmt}), not an arena" + (f" - {reader}" if reader else ""))
        if not found:
            raise NoArenaFiles(f"{p}: no arena file in this directory (its *.yaml, *.yml and *.json files are read)")
    return out
