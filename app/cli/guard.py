"""What the ``arena`` command does without its command-line library (typer): printing user text
safely (:func:`printable`; :func:`terminal_text` for rich's markup), naming the file being worked on (:func:`working_on`) and reporting
an unexpected error as one line naming it, with its own exit status (:func:`run_guarded`, status
:data:`EXIT_INTERNAL`).  :mod:`app.cli.shared` re-exports these; ``arena check``'s plain command
line runs with only this module (:mod:`app.cli.checking`), ``arena validate``'s with
:mod:`app.cli.validating`.
"""

from __future__ import annotations

import os
import sys
import unicodedata
from collections.abc import Callable

#: Exit status of an unexpected error (a bug): not 1 ("the input has problems") nor 2 (usage).
EXIT_INTERNAL = 3
#: Set to 1 to see the traceback of an unexpected error.
DEBUG_ENV = "ARENA_DEBUG"

#: Unicode categories shown escaped on a terminal: control characters (escape sequences), format
#: characters (bidi overrides such as U+202E, which reorder what follows; zero-width characters),
#: line and paragraph separators, and lone surrogates.
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})
_current: list[str] = []


def printable(text: object, *, lines: bool = False) -> str:
    r"""``text`` with the characters of :data:`HIDDEN_CATEGORIES` shown as ``\xNN``, ``\uNNNN``
    or ``\UNNNNNNNN`` (for output printed with ``markup=False``, where markup needs no escaping):
    an escape sequence cannot drive the terminal, and a right-to-left override (U+202E) or a
    zero-width character cannot make a name read as another.  ``lines``: newlines are kept (text
    of several lines, each escaped).

    >>> printable("Fair\u202e arena\x1b[2J"), printable("a\nb"), printable("a\nb", lines=True)
    ('Fair\\u202e arena\\x1b[2J', 'a\\x0ab', 'a\nb')
    """
    text = str(text)
    if text.isprintable():  # the usual case: nothing to look at
        return text
    return "".join(_escaped(c) if unicodedata.category(c) in HIDDEN_CATEGORIES and not (lines and c == "\n") else c
                   for c in text)


def terminal_text(text: object) -> str:
    """``text`` made safe to print through rich on a terminal: markup is escaped (a name such as
    ``Fair [/] arena`` or ``[link=file:///etc/passwd]`` is shown as written, never interpreted)
    and control and format characters (escape sequences, newlines, bidi overrides) are shown
    escaped (:func:`printable`)."""
    from rich.markup import escape

    return escape(printable(text))


def _escaped(c: str) -> str:
    n = ord(c)
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}" if n < 0x10000 else f"\\U{n:08x}"


def _spaced(text: str) -> str:
    """``text`` with the characters of :data:`HIDDEN_CATEGORIES` replaced by spaces."""
    return "".join(" " if unicodedata.category(c) in HIDDEN_CATEGORIES else c for c in text)


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
            import traceback

            traceback.print_exc()
        what = "ran out of memory" if isinstance(exc, MemoryError) else f"{type(exc).__name__}: {exc}"
        what = _spaced(what)
        if len(what) > 300:
            what = what[:297] + "..."
        sys.stderr.write(f"arena: internal error while working on {_spaced(_inputs())}: {what} "
                         f"(a bug in Arena Studio; please report it with that file; {DEBUG_ENV}=1 shows the "
                         "traceback)\n")
        sys.exit(EXIT_INTERNAL)
