"""Split an arena into per-element documents (with a ``kind``) and join them back.

Formats that can be read back carry each element's canonical document (see
:func:`schema.document.to_document`) in the target's property slots, and the arena's other
fields (name, units, scenario, ...) in one map- or collection-level slot.  :func:`join`
validates the reassembled document, so an edited file gets the usual located errors.
"""

from __future__ import annotations

import json
from typing import Any

from schema.document import shape_from, to_document
from schema.formats.base import FormatError
from schema.io import from_document
from schema.model import Arena, Shape

Doc = dict[str, Any]

#: (kind, key of the arena document's list), in file order.
LISTS: tuple[tuple[str, str], ...] = (
    ("wall", "walls"),
    ("checkpoint", "checkpoints"),
    ("gate", "gates"),
    ("acceleration_field", "acceleration_fields"),
    ("exclusion_field", "exclusion_fields"),
    ("static_target", "static_targets"),
    ("start_position", "start_positions"),
)
KINDS = ("bounds",) + tuple(k for k, _ in LISTS)
#: Which document fields hold an element's geometry.
GEOMETRY: dict[str, tuple[str, ...]] = {
    "bounds": ("shape",), "wall": ("shape",), "checkpoint": ("shape",), "acceleration_field": ("shape",),
    "exclusion_field": ("shape",), "gate": ("from", "to"), "static_target": ("position",),
    "start_position": ("position",),
}


def split(arena: Arena) -> tuple[Doc, list[tuple[str, Doc]]]:
    """The arena-level document (no bounds, no element lists) and (kind, element doc) pairs;
    the bounds come first as ``("bounds", {"shape": ...})``."""
    doc = to_document(arena)
    items: list[tuple[str, Doc]] = [("bounds", {"shape": doc.pop("bounds")})]
    for kind, key in LISTS:
        items.extend((kind, d) for d in doc.pop(key))
    return doc, items


def join(meta: Doc, items: list[tuple[str, Doc]], *, source: str) -> Arena:
    """Rebuild and validate an arena from :func:`split`'s parts (element order kept per kind)."""
    doc = dict(meta)
    bounds = [d for k, d in items if k == "bounds"]
    if len(bounds) > 1:
        raise FormatError(f"{source}: {len(bounds)} bounds objects; an arena has one")
    if bounds:
        doc["bounds"] = bounds[0]["shape"]
    unknown = sorted({k for k, _ in items} - set(KINDS))
    if unknown:
        raise FormatError(f"{source}: unknown element kind(s) {', '.join(unknown)}; expected one of {', '.join(KINDS)}")
    for kind, key in LISTS:
        doc[key] = [d for k, d in items if k == kind]
    return from_document(doc, source=source)


def label(kind: str, doc: Doc) -> str:
    """How an element is named in other tools: its id, ``start:N`` or ``bounds``."""
    if kind == "bounds":
        return "bounds"
    if kind == "start_position":
        return f"start:{doc.get('player')}"
    return str(doc.get("id", kind))


def shape_of(doc: Doc) -> Shape:
    try:
        return shape_from(doc["shape"])
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise FormatError(f"bad shape {doc.get('shape')!r}: {exc}") from None


def ids(items: list[tuple[str, Doc]], *kinds: str) -> str:
    """Comma-separated labels of the elements of ``kinds`` (for loss sentences)."""
    return ", ".join(label(k, d) for k, d in items if k in kinds)


def load_json(data: bytes, source: str) -> Any:
    """Parse an imported file's JSON, or raise :class:`FormatError` naming the file."""
    try:
        return json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise FormatError(f"{source}: not JSON: {exc}") from None
