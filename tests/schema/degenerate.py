"""Degenerate numbers for every numeric field of every game's schema (issue 36, item 11).

The numeric fields are read from the schemas themselves: :func:`schema_fields` walks a game's
schema (following ``$ref`` into ``common.schema.json``, every ``allOf``/``oneOf`` branch, array
items) and names each number or integer it holds by a *pattern*: the keys of its path, ``*`` for
an item of a list, ``{i}`` for the i-th branch of an ``allOf``/``oneOf`` (a circle's radius is not
a rectangle's size).  :func:`document_fields` walks a document the same way, taking only the
branches the document's values select, and gives each number's pattern, JSON pointer and schema.
A game's base documents must hold every pattern its schema has, so a numeric field added to a
schema without a case here fails the test instead of going untested.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import yaml


from schema.errors import pointer
from schema.io import schema_registry
from schema.ruleset import ruleset

ROOT = Path(__file__).resolve().parents[2]
Pattern = tuple[str, ...]
Field = tuple[Pattern, str, dict[str, Any]]

#: The values each numeric field is fed: zero, the tiniest and the largest finite floats of
#: either sign, a huge size, and the field's own bounds (which must pass or give a finding).
DEGENERATE: tuple[float, ...] = (0, 1e-300, -1e-300, 1e300, -1e300, 1e9, -1e9)


def _number(node: dict[str, Any]) -> bool:
    types = node.get("type")
    types = types if isinstance(types, list) else [types]
    return "number" in types or "integer" in types


def _resolve(node: dict[str, Any], resolver: Any) -> tuple[dict[str, Any], Any]:
    while isinstance(node.get("$ref"), str):
        resolved = resolver.lookup(node["$ref"])
        node, resolver = resolved.contents, resolved.resolver
    return node, resolver


def schema_fields(system: str) -> dict[Pattern, dict[str, Any]]:
    """Every numeric field of ``system``'s schema: pattern -> its schema."""
    root = ruleset(system).json_schema()
    return dict(_walk(root, schema_registry().resolver(base_uri=root["$id"]), ()))


def document_fields(system: str, doc: Any) -> Iterator[Field]:
    """(pattern, pointer, schema) of every number ``doc`` holds where its schema describes one."""
    root = ruleset(system).json_schema()
    for pattern, node, where in _walk_doc(root, schema_registry().resolver(base_uri=root["$id"]), (), doc, ()):
        yield pattern, pointer(where), node


def _walk(node: Any, resolver: Any, pattern: Pattern) -> Iterator[tuple[Pattern, dict[str, Any]]]:
    if not isinstance(node, dict):
        return
    node, resolver = _resolve(node, resolver)
    if _number(node):
        yield pattern, node
    for key, sub in node.get("properties", {}).items():
        yield from _walk(sub, resolver, (*pattern, key))
    if isinstance(node.get("items"), dict):
        yield from _walk(node["items"], resolver, (*pattern, "*"))
    for i, sub in enumerate(node.get("prefixItems", [])):
        yield from _walk(sub, resolver, (*pattern, str(i)))
    for key in ("allOf", "oneOf", "anyOf"):
        for i, branch in enumerate(node.get(key, [])):
            sub = branch.get("then", branch) if isinstance(branch, dict) else branch
            yield from _walk(sub, resolver, (*pattern, f"{{{key}{i}}}"))


def _walk_doc(node: Any, resolver: Any, pattern: Pattern, doc: Any,
              where: tuple[str | int, ...]) -> Iterator[tuple[Pattern, dict[str, Any], tuple[str | int, ...]]]:
    if not isinstance(node, dict):
        return
    node, resolver = _resolve(node, resolver)
    if _number(node) and isinstance(doc, (int, float)) and not isinstance(doc, bool):
        yield pattern, node, where
    if isinstance(doc, dict):
        for key, sub in node.get("properties", {}).items():
            if key in doc:
                yield from _walk_doc(sub, resolver, (*pattern, key), doc[key], (*where, key))
    if isinstance(doc, list):
        prefix = node.get("prefixItems", [])
        for i, item in enumerate(doc):
            if i < len(prefix):
                yield from _walk_doc(prefix[i], resolver, (*pattern, str(i)), item, (*where, i))
            elif isinstance(node.get("items"), dict):
                yield from _walk_doc(node["items"], resolver, (*pattern, "*"), item, (*where, i))
    for key in ("allOf", "oneOf", "anyOf"):
        for i, branch in enumerate(node.get(key, [])):
            if not isinstance(branch, dict):
                continue
            test = branch.get("if", branch)  # (the branches' tests hold no references)
            if jsonschema.Draft202012Validator(test).is_valid(doc):
                yield from _walk_doc(branch.get("then", branch), resolver, (*pattern, f"{{{key}{i}}}"), doc, where)


def accepts(node: dict[str, Any], value: float) -> bool:
    """Does the field's own schema take ``value``?"""
    return bool(jsonschema.Draft202012Validator(node).is_valid(value))


def bounds_of(node: dict[str, Any]) -> list[float]:
    """The field's own bounds, as values to feed it."""
    return [v for k, v in node.items() if k in ("minimum", "maximum") and isinstance(v, (int, float))]


def with_value(doc: dict[str, Any], ptr: str, value: float) -> dict[str, Any]:
    """A deep copy of ``doc`` with the number at ``ptr`` replaced."""
    out = copy.deepcopy(doc)
    parts = [p.replace("~1", "/").replace("~0", "~") for p in ptr.split("/")[1:]]
    node: Any = out
    for part in parts[:-1]:
        node = node[int(part)] if isinstance(node, list) else node[part]
    last = parts[-1]
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return out


def shipped(system: str) -> list[dict[str, Any]]:
    """The canonical documents (every field written, defaults included) of the game's shipped arenas."""
    from schema.io import load

    rs = ruleset(system)
    docs = []
    for path in sorted((ROOT / "arenas").rglob("*.yaml")):
        if yaml.safe_load(path.read_text(encoding="utf-8")).get("system") == system:
            docs.append(rs.document(load(path)))
    return docs


def finite(value: float) -> bool:
    return math.isfinite(value)
