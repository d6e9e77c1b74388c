"""What every game's document <-> model conversion shares: shapes, numbers written canonically
(integral numbers as integers, so saving is deterministic), the header fields and ``x-``
extensions.  Each game's own conversion is in its package (``schema.games.<game>``)."""

from __future__ import annotations

from typing import Any, cast

from schema import shapes as m

Doc = dict[str, Any]


def point(v: Any) -> m.Point:
    """A document's ``[x, y]`` as a point."""
    return (float(v[0]), float(v[1]))


def extensions_of(d: Doc) -> m.Extensions:
    """The ``x-`` keys of a document (tool extensions, kept as they are)."""
    return {k: v for k, v in d.items() if k.startswith("x-")}


def shape_from(d: Doc) -> m.Shape:
    t = d["type"]
    if t == "circle":
        return m.Circle(center=point(d["center"]), radius=float(d["radius"]))
    if t == "rect":
        return m.Rect(center=point(d["center"]), size=point(d["size"]), rotation=float(d.get("rotation", 0.0)))
    if t == "polygon":
        return m.Polygon(points=tuple(point(p) for p in d["points"]))
    if t == "polyline":
        return m.Polyline(points=tuple(point(p) for p in d["points"]), thickness=float(d["thickness"]))
    raise ValueError(f"unknown shape type {t!r}")


# ------------------------------------------------------------------ model -> document


def num(v: float) -> int | float:
    """Integral floats are written as integers: ``num(2.0) == 2``; ``num(0.5) == 0.5``."""
    f = float(v)
    if f == 0:
        return 0
    return int(f) if f.is_integer() and abs(f) < 2**53 else f


def header_document(a: Any) -> Doc:
    """The fields every game's arena document begins with, in schema order: format, system,
    name, then description, author and license when given, and tags when there are any."""
    doc: Doc = {"format": a.format, "system": a.system, "name": a.name}
    for key in ("description", "author", "license"):
        if getattr(a, key) is not None:
            doc[key] = getattr(a, key)
    if a.tags:
        doc["tags"] = list(a.tags)
    return doc


def point_doc(p: m.Point) -> list[int | float]:
    """A point as the document writes it."""
    return [num(p[0]), num(p[1])]


def shape_doc(s: m.Shape) -> Doc:
    if isinstance(s, m.Circle):
        return {"type": "circle", "center": point_doc(s.center), "radius": num(s.radius)}
    if isinstance(s, m.Rect):
        return {"type": "rect", "center": point_doc(s.center), "size": point_doc(s.size), "rotation": num(s.rotation)}
    if isinstance(s, m.Polygon):
        return {"type": "polygon", "points": [point_doc(p) for p in s.points]}
    return {"type": "polyline", "points": [point_doc(p) for p in s.points], "thickness": num(s.thickness)}


def with_extensions(d: Doc, ext: m.Extensions) -> Doc:
    """``d`` with the extensions ``ext`` added after its fields, in key order."""
    d.update({k: ext[k] for k in sorted(ext)})
    return d
