"""Reading and writing arena files of every installed game, for the editor's document: the
ruleset layer's :mod:`schema.io` (safe YAML/JSON under the format's limits, the game's JSON
Schema and semantic checks with located problems, canonical atomic writes), whatever the game."""

from __future__ import annotations

import os
from typing import Any

import schema
from schema.io import Format, format_of


def loads(text: str | bytes, source: str = "<string>") -> Any:
    """An arena of any installed game from YAML/JSON text, parsed under the format's limits
    (``schema.positions``: alias bombs, depth, size) and checked by its game's schema, problems
    located at ``FILE:LINE:COLUMN: /pointer``."""
    head = text[:200] if isinstance(text, str) else text[:200].decode("utf-8", "replace")
    return schema.loads(text, source=source, fmt=format_of(source, head))


def load(path: str | os.PathLike[str]) -> Any:
    return schema.load(path)


def dumps(arena: Any, fmt: Format = "yaml") -> str:
    return schema.dumps(arena, fmt)


def save(arena: Any, path: str | os.PathLike[str]) -> None:
    schema.save(arena, path)
