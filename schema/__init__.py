"""Arena Studio's file format: JSON Schema, typed model, load/save, migrations. No Qt."""

from schema.document import to_document
from schema.errors import ArenaError, ArenaIOError, Problem
from schema.io import (
    arena_schema,
    dumps,
    from_document,
    load,
    loads,
    remove_stale_temp_files,
    save,
    validate_text,
    write_atomic,
)
from schema.model import FORMAT, Arena

__all__ = [
    "FORMAT",
    "Arena",
    "ArenaError",
    "ArenaIOError",
    "Problem",
    "arena_schema",
    "dumps",
    "from_document",
    "load",
    "loads",
    "remove_stale_temp_files",
    "save",
    "to_document",
    "validate_text",
    "write_atomic",
]
