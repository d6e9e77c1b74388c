"""The ``arena`` command-line application object; commands register on it from their modules."""

from __future__ import annotations

from pathlib import Path

import typer

from schema import Arena, ArenaError, load

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


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print ``error: message`` on stderr and return the Exit to raise (2 = usage/I-O error)."""
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(code)


def load_arena(path: Path) -> Arena:
    """Load an arena file or exit 1 with the format layer's located error."""
    try:
        return load(path)
    except ArenaError as exc:
        raise fail(str(exc), 1) from None
