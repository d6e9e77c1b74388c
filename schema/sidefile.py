"""Read a small side file (a generator's catalogue of pieces, ...) as arena files are read: YAML
or JSON with the same limits, checked against its own JSON Schema, every problem located as
``FILE:LINE:COLUMN: /pointer: message`` (:class:`schema.errors.ArenaError`).

>>> doc, where = read_checked_text("walls: 3\\n", {"type": "object", "properties": {"walls": {"type": "array"}}},
...                                source="c.yaml")
Traceback (most recent call last):
...
schema.errors.ArenaError: c.yaml:1:8: /walls: 3 is not of type 'array'
"""

from __future__ import annotations

import os
from typing import Any

import jsonschema

from schema.errors import ArenaError, Problem
from schema.io import MAX_FILE_BYTES, _schema_problems, format_of, read_raw
from schema.positions import Located, ParseError, parse_json, parse_yaml


def read_checked(path: str | os.PathLike[str], schema: dict[str, Any]) -> tuple[Any, Located]:
    """Read ``path`` and check it against ``schema``: (the document, its positions)."""
    source = str(path)
    raw = read_raw(path)
    if len(raw) > MAX_FILE_BYTES:
        raise ArenaError([Problem(source, 0, 0, "", f"file is larger than the {MAX_FILE_BYTES // (1024 * 1024)} MiB limit")])
    try:
        text = raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        raise ArenaError([Problem(source, 0, 0, "", "file is not UTF-8 text")]) from None
    return read_checked_text(text, schema, source=source, json_text=format_of(path, text[:200]) == "json")


def read_checked_text(text: str, schema: dict[str, Any], *, source: str, json_text: bool = False) -> tuple[Any, Located]:
    """:func:`read_checked` of text already read."""
    try:
        located = parse_json(text, source) if json_text else parse_yaml(text, source)
    except ParseError as exc:
        raise ArenaError(sorted(exc.problems)) from None
    problems: list[Problem] = []
    for error in jsonschema.Draft202012Validator(schema).iter_errors(located.data):
        problems.extend(_schema_problems(error, located, source))
    if problems:
        raise ArenaError(sorted(set(problems)))
    return located.data, located


def located_problems(located: Located, source: str, found: list[tuple[str, str]]) -> ArenaError:
    """The error for ``(pointer, message)`` pairs found in a checked document."""
    return ArenaError(sorted(Problem(source, *located.where(ptr), ptr, msg) for ptr, msg in found))


def read_catalogue(path: str | os.PathLike[str] | None, package: str, schema_name: str,
                   default_name: str, default_source: str = "<default catalogue>") -> tuple[Any, Located, str]:
    """A generator's catalogue: the file at ``path`` or, when None, the package resource
    ``default_name``, checked against the package resource ``schema_name``; returns (the
    document, its positions, the source name for messages)."""
    import json
    from importlib import resources

    schema = json.loads(resources.files(package).joinpath(schema_name).read_text(encoding="utf-8"))
    if path is None:
        text = resources.files(package).joinpath(default_name).read_text(encoding="utf-8")
        doc, located = read_checked_text(text, schema, source=default_source)
        return doc, located, default_source
    doc, located = read_checked(path, schema)
    return doc, located, str(path)
