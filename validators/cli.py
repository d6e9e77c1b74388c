"""Entry point of the ``arena`` command: imports every command module, then runs the app."""

from __future__ import annotations

import importlib

from validators.cli_app import app

#: Modules that register commands on :data:`app` when imported.
COMMAND_MODULES = ("validators.cli_check",)


def _load_commands() -> None:
    for name in COMMAND_MODULES:
        importlib.import_module(name)


def main() -> None:
    _load_commands()
    app()


if __name__ == "__main__":
    main()
