"""What ``arena check FILE...`` does, without the command-line library: load every file, print
the problems and the summary, return the exit status (0 every file valid, 1 some file invalid,
2 usage or I/O errors).  :mod:`app.cli.check` registers the command on the typer app; a plain
command line (``arena check`` and files, ``--json`` anywhere) is run by :func:`plain` straight
from :func:`app.cli.main.main`, without importing typer (about a tenth of the interpreter's
start-up floor: bench/startup.py).  Either way the output is :func:`report`'s.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from app.cli.guard import printable, working_on

if TYPE_CHECKING:
    from schema import Problem


def check_files(paths: Sequence[Path]) -> tuple[list[Problem], bool]:
    """Load every file; return all problems and whether any was an I/O error."""
    from schema import ArenaError, ArenaIOError, Problem, load

    problems: list[Problem] = []
    io_error = False
    for path in paths:
        working_on(path)
        try:
            if path.is_dir():
                raise ArenaIOError([Problem(str(path), 0, 0, "", "is a directory; name arena files")])
            load(path)
        except ArenaIOError as exc:
            io_error = True
            problems.extend(exc.problems)
        except ArenaError as exc:
            problems.extend(exc.problems)
    return problems, io_error


def _line(text: str, *, err: bool = False) -> None:
    """One line on stdout (``err``: stderr), as ``typer.echo`` writes it: then flushed."""
    out = sys.stderr if err else sys.stdout
    out.write(text + "\n")
    out.flush()


def report(files: Sequence[Path], as_json: bool) -> int:
    """Check ``files`` (a directory: its arena files, :func:`app.paths.expand`), print the
    problems (``--json``: as a JSON list on stdout; else each on stderr, then the summary on
    stdout) and return the exit status."""
    from app.paths import NoArenaFiles, expand

    try:
        files = expand(files)
    except NoArenaFiles as exc:
        _line(printable(f"error: {exc}"), err=True)
        return 2
    problems, io_error = check_files(files)
    if as_json:
        json.dump([p.to_json() for p in problems], sys.stdout, indent=2)
        sys.stdout.write("\n")
        sys.stdout.flush()
    else:
        for p in problems:
            _line(printable(str(p)), err=True)
        bad = {p.file for p in problems}
        ok = [f for f in files if str(f) not in bad]
        summary = f"{len(ok)} of {len(files)} file(s) valid"
        if problems:
            summary += f"; {len(problems)} problem(s) in {len(bad)} file(s)"
        _line(summary)  # the result on stdout; the problems above are diagnostics (stderr)
    return 2 if io_error else 1 if problems else 0


def plain(argv: Sequence[str]) -> int | None:
    """Run ``arena check`` when ``argv`` (after the program name) is its plain form - ``check``,
    then one or more files and optionally ``--json`` - and return the exit status; None for any
    other command line (help, other options, ``--``, no file: typer's parser answers those)."""
    if len(argv) < 2 or argv[0] != "check":
        return None
    words = list(argv[1:])
    files = [w for w in words if w != "--json"]
    if not files or any(w.startswith("-") for w in files):
        return None
    return report([Path(f) for f in files], "--json" in words)
