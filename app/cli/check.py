"""``arena check FILE...``: validate arena files against the format.

Exit codes: 0 every file valid, 1 some file invalid, 2 usage or I/O errors.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from app.cli.checking import check_files as check_files
from app.cli.checking import report
from app.cli.shared import app


@app.command("check")
def check(
    files: Annotated[list[Path], typer.Argument(help="Arena files (.yaml, .yml or .json), or directories (their arena files).", show_default=False)],
    as_json: Annotated[bool, typer.Option("--json", help="Print problems as a JSON list on stdout.")] = False,
) -> None:
    """Check arena files against the format: schema, geometry, unique ids.

    Every problem is reported as FILE:LINE:COL: /json/pointer: message.
    """
    status = report(files, as_json)  # the same as a plain command line's (app.cli.checking.plain)
    if status:
        raise typer.Exit(status)
