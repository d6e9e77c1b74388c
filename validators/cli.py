"""Entry point of the ``arena`` command: imports every command module, then runs the app."""

from __future__ import annotations

import importlib

from validators.cli_app import app, run_guarded
from validators.plugins import command_registrars

#: Modules that register commands on :data:`app` when imported.
COMMAND_MODULES = ("validators.cli_check", "validators.cli_validate", "validators.cli_serve",
                   "validators.cli_export", "validators.cli_travel", "validators.cli_balance",
                   "validators.cli_generate")


_loaded = False


def _load_commands() -> None:
    """Register every command once (built-in modules, then plugins)."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    for name in COMMAND_MODULES:
        importlib.import_module(name)
    for register in command_registrars():
        register(app)


def main() -> None:
    """The ``arena`` command: every uncaught error ends as one line and exit status 3
    (:func:`validators.cli_app.run_guarded`)."""
    run_guarded(_main)


def _main() -> None:
    _load_commands()
    app()


if __name__ == "__main__":
    main()
