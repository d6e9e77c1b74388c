"""Arena Studio's file format: JSON Schema, typed model, load/save, migrations. No Qt.

The names below are imported when first used (PEP 562): importing a light module of this
package (``schema.errors``, ``schema.outputs``) does not load jsonschema, YAML or shapely, so a
command that needs none of them (``arena --help``) starts without them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names as mypy and readers see them ("X as X": re-exported)
    from schema.errors import ArenaError as ArenaError, ArenaIOError as ArenaIOError, Problem as Problem
    from schema.io import (
        arena_schema as arena_schema,
        to_document as to_document,
        dumps as dumps,
        from_document as from_document,
        load as load,
        loads as loads,
        remove_stale_temp_files as remove_stale_temp_files,
        save as save,
        validate_text as validate_text,
        write_atomic as write_atomic,
    )
    from schema.ruleset import FORMAT as FORMAT

#: Each public name and the module that defines it.
_HOMES = {
    "to_document": "schema.io",
    "ArenaError": "schema.errors",
    "ArenaIOError": "schema.errors",
    "Problem": "schema.errors",
    "arena_schema": "schema.io",
    "dumps": "schema.io",
    "from_document": "schema.io",
    "load": "schema.io",
    "loads": "schema.io",
    "remove_stale_temp_files": "schema.io",
    "save": "schema.io",
    "validate_text": "schema.io",
    "write_atomic": "schema.io",
    "FORMAT": "schema.ruleset",
}

__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'schema' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOMES))
