"""Entry point of the ``arena`` command: imports the module of the command being run (every
command module for the top-level help), then runs the app.

A command's module is imported only when that command runs, and each module imports its heavy
dependencies (the planners, scipy, dask, Qt, rich) inside the command's function, so
``arena --help`` and ``arena check`` start without them (tests/test_import_weight.py).  A plain
``arena check FILE...`` or ``arena validate FILE...`` runs without typer at all
(:func:`app.cli.checking.plain`, :func:`app.cli.validating.plain`).
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

from app.cli.guard import run_guarded

if TYPE_CHECKING:
    import typer

#: Each built-in command (or command group) and the module that registers it on :data:`app`.
BUILTIN_COMMANDS = {
    "check": "app.cli.check",
    "validate": "app.cli.validate",
    "serve": "app.cli.serve",
    "export": "app.cli.export",
    "import": "app.cli.export",
    "pack": "app.cli.export",
    "travel": "app.cli.travel",
    "balance": "app.cli.balance",
    "generate": "app.cli.generate",
    "season": "app.cli.season",
    "simulate": "app.cli.simulate",
    "report": "app.cli.report",
    "diff": "app.cli.diff",
}
#: Every module that registers built-in commands, in the order they are listed.
COMMAND_MODULES = tuple(dict.fromkeys(BUILTIN_COMMANDS.values()))
#: Groups that installed command plug-ins add subcommands to (``arena pack build``).
PLUGIN_GROUPS = frozenset({"pack", "season"})

_loaded: set[str] = set()
_plugins_loaded = False


def command_name(argv: Sequence[str]) -> str | None:
    """The command named on a command line (its first word that is not an option), if any.

    >>> command_name(["validate", "--json", "a.yaml"]), command_name(["--help"]), command_name([])
    ('validate', None, None)
    """
    return next((a for a in argv if not a.startswith("-")), None)


def load_commands(argv: Sequence[str] | None = None) -> None:
    """Register the commands a command line needs on :data:`app`: only the module of a built-in
    command when ``argv`` names one, else (no ``argv``, the top-level help, a plug-in's command)
    every built-in module and every installed plug-in's commands."""
    global _plugins_loaded
    app = _app()
    name = command_name(argv) if argv is not None else None
    modules = [BUILTIN_COMMANDS[name]] if name in BUILTIN_COMMANDS else list(COMMAND_MODULES)
    for module in modules:
        if module not in _loaded:
            importlib.import_module(module)
            _loaded.add(module)
    if not _plugins_loaded and (name not in BUILTIN_COMMANDS or name in PLUGIN_GROUPS):
        from validators.plugins import command_registrars

        _plugins_loaded = True
        for register in command_registrars():
            register(app)
    tidy_help(app)


def tidy_help(app: typer.Typer) -> None:
    """Lay out the help of each command of ``app`` (and of its groups) for typer's rich help,
    which keeps a docstring's line breaks and then wraps the lines again (``arena export --help``
    read "picture via the / installed renderer"; ``arena --help`` listed travel's, balance's,
    generate's and simulate's summaries broken mid-sentence): each paragraph becomes one line
    (:func:`reflow`), and the list of commands shows the first (``short_help``)."""
    import inspect

    for info in app.registered_commands:
        text = info.help if info.help is not None else (
            inspect.getdoc(info.callback) if info.callback is not None else None)
        if text:
            info.help = reflow(text)
            if info.short_help is None:
                info.short_help = info.help.partition("\n\n")[0]
    for group in app.registered_groups:
        if group.typer_instance is not None:
            tidy_help(group.typer_instance)


def reflow(text: str) -> str:
    r"""``text`` with each paragraph on one line - except a paragraph laid out by hand (a line
    indented, a list item, click's ``\b`` no-rewrap marker), kept as written; what follows a
    ``\f`` (hidden from the help) is kept as it is.

    >>> reflow("Least time from a source\nto a goal.\n\n- a list\n- kept")
    'Least time from a source to a goal.\n\n- a list\n- kept'
    """
    shown, mark, hidden = text.partition("\f")
    out = []
    for para in shown.split("\n\n"):
        lines = para.split("\n")
        by_hand = any(ln.startswith((" ", "\t", "- ", "* ", "\b")) for ln in lines)
        out.append(para if by_hand else " ".join(ln.strip() for ln in lines if ln.strip()))
    return "\n\n".join(out) + mark + hidden


def main() -> None:
    """The ``arena`` command: every uncaught error ends as one line and exit status 3
    (:func:`app.cli.shared.run_guarded`)."""
    run_guarded(_main)


def _app() -> typer.Typer:
    from app.cli.shared import app

    return app


def __getattr__(name: str) -> typer.Typer:
    """``app.cli.main.app``: the typer app (:data:`app.cli.shared.app`), imported when asked for."""
    if name == "app":
        return _app()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def plain(argv: Sequence[str]) -> int | None:
    """Run a plain command line of ``arena check`` or ``arena validate`` without typer and
    return its exit status; None for any other command line."""
    name = argv[0] if argv else None
    if name == "check":
        from app.cli.checking import plain as check

        return check(argv)
    if name == "validate":
        from app.cli.validating import plain as validate

        return validate(argv)
    return None


def _main() -> None:
    import sys

    status = plain(sys.argv[1:])
    if status is not None:
        sys.exit(status)
    load_commands(sys.argv[1:])
    _app()()


if __name__ == "__main__":
    main()
