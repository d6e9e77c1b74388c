"""The ``arena`` command-line application object; commands register on it from their modules.

Also what every command shares: printing user text safely on a terminal (:func:`terminal_text`)
and naming the file being worked on (:func:`working_on`) so that an unexpected error is reported
as one line naming it, with its own exit status (:func:`run_guarded`, status
:data:`EXIT_INTERNAL`).
"""

from __future__ import annotations

import os
import re
import sys
import traceback
from collections.abc import Callable
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

#: Exit status of an unexpected error (a bug): not 1 ("the input has problems") nor 2 (usage).
EXIT_INTERNAL = 3
#: Set to 1 to see the traceback of an unexpected error.
DEBUG_ENV = "ARENA_DEBUG"

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_current: list[str] = []


@app.callback()
def _root() -> None:
    """Arena Studio: check, validate, analyse and export arena files."""


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print ``error: message`` on stderr and return the Exit to raise (2 = usage/I-O error)."""
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(code)


def load_arena(path: Path) -> Arena:
    """Load an arena file or exit 1 with the format layer's located error."""
    working_on(path)
    try:
        return load(path)
    except ArenaError as exc:
        raise fail(str(exc), 1) from None


def terminal_text(text: object) -> str:
    """``text`` made safe to print through rich on a terminal: markup is escaped (a name such as
    ``Fair [/] arena`` or ``[link=file:///etc/passwd]`` is shown as written, never interpreted)
    and control characters (escape sequences, newlines) are shown as ``\\xNN``."""
    from rich.markup import escape

    return escape(printable(text))


def printable(text: object) -> str:
    """``text`` with control characters shown as ``\\xNN`` (for output printed with
    ``markup=False``, where markup needs no escaping)."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", str(text))


def working_on(path: str | os.PathLike[str]) -> None:
    """Record the input being worked on, for :func:`run_guarded`'s message."""
    _current[:] = [str(path)]


def _inputs() -> str:
    if _current:
        return _current[0]
    named = [a for a in sys.argv[1:] if not a.startswith("-") and os.path.exists(a)]
    return ", ".join(named) if named else "arena " + " ".join(sys.argv[1:2])


def run_guarded(main: Callable[[], object]) -> None:
    """Run the CLI; an unexpected error becomes one line on stderr naming the input being worked
    on and what went wrong, and exit status :data:`EXIT_INTERNAL` (the traceback only with
    ``ARENA_DEBUG=1``). Ctrl-C exits 130; a closed output pipe exits quietly."""
    try:
        main()
    except KeyboardInterrupt:
        sys.stderr.write("arena: interrupted\n")
        sys.exit(130)
    except BrokenPipeError:
        try:  # the reader went away (`arena validate ... | head`): nothing more to say
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - replaces stdout for the exit
        except OSError:
            pass
        sys.exit(141)
    except Exception as exc:  # noqa: BLE001 - the last line of defence: report, never a traceback
        if os.environ.get(DEBUG_ENV) == "1":
            traceback.print_exc()
        what = "ran out of memory" if isinstance(exc, MemoryError) else f"{type(exc).__name__}: {exc}"
        what = _CONTROL.sub(" ", what)
        if len(what) > 300:
            what = what[:297] + "..."
        sys.stderr.write(f"arena: internal error while working on {_CONTROL.sub(' ', _inputs())}: {what} "
                         f"(a bug in Arena Studio; please report it with that file; {DEBUG_ENV}=1 shows the "
                         "traceback)\n")
        sys.exit(EXIT_INTERNAL)
