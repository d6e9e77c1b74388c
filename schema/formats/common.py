"""Split an arena into per-element documents (with a ``kind``) and join them back.

Formats that can be read back carry each element's canonical document (see
:func:`schema.io.to_document`) in the target's property slots, and the arena's other
fields (name, units, scenario, ...) in one map- or collection-level slot.  :func:`join`
validates the reassembled document, so an edited file gets the usual located errors.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from functools import lru_cache
from typing import Any

from schema.document import shape_from
from schema.formats.base import FormatError
from schema.formats.systems import Doc, profile, profile_of
from schema.ruleset import ArenaModel, ruleset
from schema.shapes import Circle, Point, Shape


def split(arena: ArenaModel) -> tuple[Doc, list[tuple[str, Doc]]]:
    """The arena-level document (no bounds, no element lists) and (kind, element doc) pairs;
    the bounds come first as ``("bounds", {"shape": ...})``."""
    prof = profile_of(arena)
    doc = prof.to_document(arena)
    items: list[tuple[str, Doc]] = [("bounds", {"shape": doc.pop("bounds")})]
    for kind, key in prof.lists:
        items.extend((kind, d) for d in doc.pop(key))
    return doc, items


def join(meta: Doc, items: list[tuple[str, Doc]], *, source: str) -> ArenaModel:
    """Rebuild and validate an arena from :func:`split`'s parts (element order kept per kind);
    ``meta["system"]`` says which game."""
    prof = profile(meta.get("system"))
    doc = dict(meta)
    bounds = [d for k, d in items if k == "bounds"]
    if len(bounds) > 1:
        raise FormatError(f"{source}: {len(bounds)} bounds objects; an arena has one")
    if bounds:
        doc["bounds"] = bounds[0]["shape"]
    unknown = sorted({k for k, _ in items} - set(prof.kinds))
    if unknown:
        raise FormatError(f"{source}: unknown element kind(s) {', '.join(unknown)} for a {prof.system} arena; "
                          f"expected one of {', '.join(prof.kinds)}")
    for kind, key in prof.lists:
        doc[key] = [d for k, d in items if k == kind]
    return prof.build(doc, source)


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


def warn(warnings: list[str] | None, message: str) -> None:
    """Add an import warning (what was skipped or reinterpreted) when the caller collects them."""
    if warnings is not None:
        warnings.append(message)


@lru_cache(maxsize=None)
def field_types(kind: str, system: str) -> dict[str, tuple[str, ...]]:
    """JSON types of an element kind's own fields, from the game's schema (``{"decaying":
    ("boolean",), ...}``); the bounds' only field is its shape.  A field given by reference
    (a point, a shape) counts as ``object`` and ``array``: structured either way."""
    if kind == "bounds":
        return {"shape": ("object",)}
    key = profile(system).list_key(kind)
    props = ruleset(system).json_schema()["properties"][key]["items"].get("properties", {})
    out: dict[str, tuple[str, ...]] = {}
    for name, sub in props.items():
        t = sub.get("type")
        if t is None and ("$ref" in sub or "oneOf" in sub or "anyOf" in sub):
            t = ["object", "array"]
        out[name] = tuple(t) if isinstance(t, list) else ((t,) if t else ())
    return out


#: GDAL's text for a list field it cannot store as a list (GeoPackage, Shapefile, CSV):
#: ``(2:7.79,4.5)``, the count, a colon and the items.
GDAL_LIST = re.compile(r"\((\d+):(.*)\)", re.DOTALL)


def gdal_list(text: str) -> list[Any] | None:
    """The numbers of a GDAL list text (``(2:7.79,4.5)`` -> ``[7.79, 4.5]``), None when the
    text is not one; a count that does not match or an item that is not a number raises
    ``ValueError`` saying so.

    >>> gdal_list("(2:7.79,4.5)"), gdal_list("(0:)"), gdal_list("[1, 2]")
    ([7.79, 4.5], [], None)
    """
    m = GDAL_LIST.fullmatch(text.strip())
    if m is None:
        return None
    count, body = int(m.group(1)), m.group(2)
    items = [i.strip() for i in body.split(",")] if body.strip() else []
    if len(items) != count:
        raise ValueError(f"GDAL list text {text[:80]!r} says {count} item(s) but holds {len(items)}")
    out: list[Any] = []
    for item in items:
        try:
            v = json.loads(item)
        except json.JSONDecodeError:
            v = None
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise ValueError(f"GDAL list text {text[:80]!r}: {item[:40]!r} is not a number")
        out.append(v)
    return out


def tolerate_gis(kind: str, props: Doc, seen: Counter[str], system: str, *, where: str) -> Doc:
    """Undo what GIS tools do to a feature's properties (geopandas, ogr2ogr, GeoPackage round
    trips): every column on every feature, null where unset; booleans as 0/1 or 0.0/1.0;
    whole numbers as floats; nested values as JSON text, lists of numbers as GDAL's list text
    ``(2:7.79,4.5)``.  Nulls are "not set"; ``seen`` counts each reinterpretation for the
    import report.  Text in a structured field that is neither is refused naming ``where``
    (the feature) and the property."""
    types = field_types(kind, system)
    out: Doc = {}
    for name, value in props.items():
        want = types.get(name, ())
        if value is None and "null" not in want:
            seen["null properties read as not set"] += 1
            continue
        if "boolean" in want and not isinstance(value, bool) and isinstance(value, (int, float)) and value in (0, 1):
            value = bool(value)
            seen["0/1 values read as booleans"] += 1
        elif ("integer" in want and "number" not in want and isinstance(value, float) and value.is_integer()):
            value = int(value)
            seen["whole-number decimals read as integers"] += 1
        elif isinstance(value, str) and ("object" in want or "array" in want) and "string" not in want:
            try:
                listed = gdal_list(value)
            except ValueError as exc:
                raise FormatError(f"{where}: properties.{name}: {exc}") from None
            if listed is not None:
                value = listed
                seen["GDAL list texts (2:x,y) read as lists"] += 1
            else:
                try:
                    value = json.loads(value)
                except json.JSONDecodeError as exc:
                    raise FormatError(f"{where}: properties.{name}: {value[:80]!r} is neither a JSON value nor a GDAL "
                                      f"list text such as (2:1.5,4): {exc}") from None
                seen["JSON text read as structured values"] += 1
        out[name] = value
    return out


def describe_tolerated(seen: Counter[str]) -> list[str]:
    """Import-report sentences for :func:`tolerate_gis`'s counts."""
    return [f"accepted as GIS tools write them: {n} {what}" for what, n in sorted(seen.items())]


#: A closed ring with at least this many vertices, all this close to one circle (relative to
#: its radius), is read back as that circle.
CIRCLE_MIN_SIDES = 16
CIRCLE_TOLERANCE = 0.01


def as_circle(ring: list[Point]) -> Circle | None:
    """The circle a regular N-gon stands for (a circle a GIS or Tiled turned into a polygon):
    vertices evenly spread around the centroid, all within 1 % of the same radius."""
    if len(ring) < CIRCLE_MIN_SIDES:
        return None
    cx = sum(p[0] for p in ring) / len(ring)
    cy = sum(p[1] for p in ring) / len(ring)
    radii = [math.hypot(p[0] - cx, p[1] - cy) for p in ring]
    r = sum(radii) / len(radii)
    if r <= 0 or max(abs(q - r) for q in radii) > CIRCLE_TOLERANCE * r:
        return None
    angles = sorted(math.atan2(p[1] - cy, p[0] - cx) for p in ring)
    gaps = [b - a for a, b in zip(angles, angles[1:])] + [angles[0] + 2 * math.pi - angles[-1]]
    if max(gaps) > 2 * (2 * math.pi / len(ring)):
        return None
    # the polygon's vertices lie on the circle: the mean vertex distance is the radius
    return Circle((round(cx, 6) + 0.0, round(cy, 6) + 0.0), round(r, 6))
