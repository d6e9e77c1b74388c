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

import json
import os
from collections.abc import Callable
from functools import lru_cache
from importlib import resources
from typing import Any, TypeVar

import jsonschema

from schema.errors import ArenaError, Problem
from schema.io import MAX_FILE_BYTES, format_of, read_raw, schema_problems
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
        problems.extend(schema_problems(error, located, source))
    if problems:
        raise ArenaError(sorted(set(problems)))
    return located.data, located


def located_problems(located: Located, source: str, found: list[tuple[str, str]]) -> ArenaError:
    """The error for ``(pointer, message)`` pairs found in a checked document."""
    return ArenaError(sorted(Problem(source, *located.where(ptr), ptr, msg) for ptr, msg in found))


#: The source name of a catalogue shipped with the studio.
DEFAULT_SOURCE = "<default catalogue>"


def read_catalogue(path: str | os.PathLike[str] | None, package: str, default: str,
                   schema: dict[str, Any]) -> tuple[Any, Located, str]:
    """A generator's catalogue of pieces: ``path`` checked against ``schema``, or when ``path``
    is None the default one shipped as the resource ``default`` of ``package``: (the document,
    its positions, its source name for messages)."""
    if path is None:
        text = resources.files(package).joinpath(default).read_text(encoding="utf-8")
        doc, located = read_checked_text(text, schema, source=DEFAULT_SOURCE)
        return doc, located, DEFAULT_SOURCE
    doc, located = read_checked(path, schema)
    return doc, located, str(path)


T = TypeVar("T")


@lru_cache(maxsize=16)
def package_json(package: str, name: str) -> dict[str, Any]:
    """A JSON document shipped as the resource ``name`` of ``package`` (a side file's schema)."""
    data: dict[str, Any] = json.loads(resources.files(package).joinpath(name).read_text(encoding="utf-8"))
    return data


def load_catalogue_of(path: str | os.PathLike[str] | None, package: str, build: Callable[[Any, str], T],
                      semantic: Callable[[T], list[tuple[str, str]]]) -> T:
    """A game's generator catalogue: ``path`` (None: the ``catalogue.yaml`` shipped in
    ``package``) checked against the package's ``catalogue.schema.json``, built (``build(doc,
    source)``) and checked for what the schema cannot say (``semantic``: ``(pointer, message)``
    pairs); :class:`ArenaError` with every problem located."""
    doc, located, source = read_catalogue(path, package, "catalogue.yaml", package_json(package, "catalogue.schema.json"))
    cat = build(doc, source)
    found = semantic(cat)
    if found:
        raise located_problems(located, source, found)
    return cat
