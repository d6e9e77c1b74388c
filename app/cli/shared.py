"""The ``arena`` command-line application object; commands register on it from their modules.

Also what every command shares: printing user text safely on a terminal (:func:`terminal_text`)
and naming the file being worked on (:func:`working_on`) so that an unexpected error is reported
as one line naming it, with its own exit status (:func:`run_guarded`, status
:data:`EXIT_INTERNAL`); those that need no typer are :mod:`app.cli.guard`'s.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

# what needs no typer lives in app.cli.guard (the plain command lines of arena check and arena
# validate run without typer)
from app.cli.guard import DEBUG_ENV as DEBUG_ENV
from app.cli.guard import EXIT_INTERNAL as EXIT_INTERNAL
from app.cli.guard import HIDDEN_CATEGORIES as HIDDEN_CATEGORIES
from app.cli.guard import printable as printable
from app.cli.guard import run_guarded as run_guarded
from app.cli.guard import terminal_text as terminal_text
from app.cli.guard import working_on as working_on

if TYPE_CHECKING:
    from schema.io import TypedArena

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
    """Print ``error: message`` on stderr (each line :func:`printable`) and return the Exit to
    raise (2 = usage/I-O error)."""
    typer.echo(f"error: {printable(message, lines=True)}", err=True)
    return typer.Exit(code)


def load_arena(path: Path) -> TypedArena:
    """Load an arena file or exit 1 with the format layer's located error."""
    from schema import ArenaError, load

    working_on(path)
    try:
        return load(path)
    except ArenaError as exc:
        raise fail(str(exc), 1) from None
