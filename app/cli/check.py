"""``arena check FILE...``: validate arena files against the format.

Exit codes: 0 every file valid, 1 some file invalid, 2 usage or I/O errors.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from app.cli.shared import app, printable, working_on

if TYPE_CHECKING:
    from schema import Problem


def check_files(paths: list[Path]) -> tuple[list[Problem], bool]:
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


@app.command("check")
def check(
    files: Annotated[list[Path], typer.Argument(help="Arena files (.yaml, .yml or .json).", show_default=False)],
    as_json: Annotated[bool, typer.Option("--json", help="Print problems as a JSON list on stdout.")] = False,
) -> None:
    """Check arena files against the format: schema, geometry, unique ids.

    Every problem is reported as FILE:LINE:COL: /json/pointer: message.
    """
    problems, io_error = check_files(files)
    if as_json:
        json.dump([p.to_json() for p in problems], sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        for p in problems:
            typer.echo(printable(str(p)), err=True)
        bad = {p.file for p in problems}
        ok = [f for f in files if str(f) not in bad]
        summary = f"{len(ok)} of {len(files)} file(s) valid"
        if problems:
            summary += f"; {len(problems)} problem(s) in {len(bad)} file(s)"
        typer.echo(summary)  # the result on stdout; the problems above are diagnostics (stderr)
    if io_error:
        raise typer.Exit(2)
    if problems:
        raise typer.Exit(1)
