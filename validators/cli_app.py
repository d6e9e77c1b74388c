"""The ``arena`` command-line application object; commands register on it from their modules."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="arena",
    help="Arena Studio: check, validate, analyse and export arena files.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root() -> None:
    """Arena Studio: check, validate, analyse and export arena files."""
