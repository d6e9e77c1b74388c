"""What changed between two versions of an arena (``arena diff A B``), and how its verdict moved.

Elements are matched by id (a grid game's cells by their coordinates): an id only in B is
*added*, only in A *removed*; one whose kind differs is *retyped*; one whose geometry differs
is *moved* (with how far its centre moved and the largest distance between the two outlines,
the Hausdorff distance); one whose other fields differ is *changed*.  Geometry is read from each
arena's GeoJSON export (:mod:`schema.formats.geojson`), so every game that exports is compared
the same way.  The arena's own fields (name, bounds, scenario...) are compared field by field,
named by their JSON pointer.

The verdict: findings are matched by code and elements (as a multiset: two findings of one code
on the same elements pair up in order); those only in B are *gained*, only in A *lost*, and
those whose severity or message changed are listed too.  Metrics are compared leaf by leaf
(JSON pointers), numbers and every other value.

The document (:func:`diff_arenas`) is plain JSON, ``schema/diff.schema.json``.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from schema.ruleset import ArenaModel, ruleset

DIFF_FORMAT = "arena-studio-diff/1"
#: Distances under this (in the arena's units) are rounding, not a move.
EPSILON = 1e-6
#: Kinds that are a grid game's cells (compared as sets of coordinates, not one by one).
CELL_KINDS = ("cell", "square")


def _features(arena: ArenaModel) -> dict[str, dict[str, Any]]:
    from schema.formats import get

    fc = json.loads(get("geojson").write(arena).data)
    out: dict[str, dict[str, Any]] = {}
    for f in fc["features"]:
        props = f.get("properties") or {}
        ident = str(f.get("id") or props.get("id") or props.get("kind"))
        out[ident] = f
    return out


def _shape(feature: dict[str, Any]) -> Any:
    import shapely.geometry

    try:
        return shapely.geometry.shape(feature.get("geometry") or {})
    except (ValueError, TypeError, AttributeError, IndexError):
        return None


def _props(feature: dict[str, Any]) -> dict[str, Any]:
    """An element's fields besides its geometry (which the move compares)."""
    drop = {"shape", "position", "from", "to", "center", "rotation", "cells", "squares", "build_squares", "line",
            "game", "arena"}
    return {k: v for k, v in (feature.get("properties") or {}).items() if k not in drop}


def _r(v: float) -> float:
    return round(float(v), 4) + 0.0


def element_changes(a: ArenaModel, b: ArenaModel) -> dict[str, Any]:
    fa, fb = _features(a), _features(b)
    cells_a = {k for k, f in fa.items() if (f.get("properties") or {}).get("kind") in CELL_KINDS}
    cells_b = {k for k, f in fb.items() if (f.get("properties") or {}).get("kind") in CELL_KINDS}
    added, removed, moved, retyped, changed = [], [], [], [], []
    for ident, f in fb.items():
        if ident in cells_b or ident in fa:
            continue
        added.append({"id": ident, "kind": (f.get("properties") or {}).get("kind")})
    for ident, f in fa.items():
        if ident in cells_a:
            continue
        kind_a = (f.get("properties") or {}).get("kind")
        if ident not in fb:
            removed.append({"id": ident, "kind": kind_a})
            continue
        g = fb[ident]
        kind_b = (g.get("properties") or {}).get("kind")
        if kind_a != kind_b:
            retyped.append({"id": ident, "before": kind_a, "after": kind_b})
        sa, sb = _shape(f), _shape(g)
        if sa is not None and sb is not None and not sa.is_empty and not sb.is_empty and not sa.equals_exact(sb, EPSILON):
            hausdorff = sa.hausdorff_distance(sb)
            if hausdorff > EPSILON:
                ca, cb = sa.centroid, sb.centroid
                moved.append({"id": ident, "kind": kind_b, "distance": _r(ca.distance(cb)),
                              "shift": [_r(cb.x - ca.x), _r(cb.y - ca.y)], "outline": _r(hausdorff),
                              "area": {"before": _r(sa.area), "after": _r(sb.area)} if abs(sa.area - sb.area) > EPSILON
                              else None})
        pa, pb = _props(f), _props(g)
        fields = sorted(k for k in set(pa) | set(pb) if k != "kind" and pa.get(k) != pb.get(k))
        if fields:
            changed.append({"id": ident, "kind": kind_b,
                            "fields": [{"field": k, "before": pa.get(k), "after": pb.get(k)} for k in fields]})
    for m in moved:
        if m["area"] is None:
            del m["area"]
    out: dict[str, Any] = {"added": added, "removed": removed, "moved": moved, "retyped": retyped, "changed": changed}
    if cells_a or cells_b:
        out["cells"] = {"added": sorted(cells_b - cells_a), "removed": sorted(cells_a - cells_b)}
    return out


def _pointer(parts: list[str]) -> str:
    return "".join("/" + p.replace("~", "~0").replace("/", "~1") for p in parts)


def leaf_changes(a: Any, b: Any, parts: list[str] | None = None, out: list[dict[str, Any]] | None = None,
                 tolerance: float = 1e-9) -> list[dict[str, Any]]:
    """Every leaf that differs between two JSON values, by JSON pointer (objects by key; lists
    of equal length item by item, else the whole list)."""
    parts = parts or []
    out = [] if out is None else out
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if k not in b:
                out.append({"pointer": _pointer(parts + [str(k)]), "before": a[k], "after": None, "change": "removed"})
            elif k not in a:
                out.append({"pointer": _pointer(parts + [str(k)]), "before": None, "after": b[k], "change": "added"})
            else:
                leaf_changes(a[k], b[k], parts + [str(k)], out, tolerance)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and a != b:
        for i, (x, y) in enumerate(zip(a, b)):
            leaf_changes(x, y, parts + [str(i)], out, tolerance)
    elif _num(a) and _num(b):
        if abs(float(a) - float(b)) > tolerance:
            out.append({"pointer": _pointer(parts), "before": a, "after": b, "change": "changed",
                        "delta": _r(float(b) - float(a))})
    elif a != b:
        out.append({"pointer": _pointer(parts), "before": a, "after": b, "change": "changed"})
    return out


def _num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def field_changes(a: ArenaModel, b: ArenaModel) -> list[dict[str, Any]]:
    """The arena's own fields (not its element lists) that differ, by JSON pointer."""
    da, db = ruleset(a.system).document(a), ruleset(b.system).document(b)
    lists = {k.key for k in ruleset(a.system).kinds} | {k.key for k in ruleset(b.system).kinds}
    return leaf_changes({k: v for k, v in da.items() if k not in lists}, {k: v for k, v in db.items() if k not in lists})


def _key(f: dict[str, Any]) -> tuple[str, tuple[str, ...]]:
    return str(f.get("code")), tuple(sorted(str(e) for e in f.get("elements") or []))


def verdict_changes(ra: dict[str, Any], rb: dict[str, Any]) -> dict[str, Any]:
    """How the verdict moved from report ``ra`` to ``rb``."""
    fa, fb = list(ra.get("findings") or []), list(rb.get("findings") or [])
    pool: dict[tuple[str, tuple[str, ...]], list[dict[str, Any]]] = {}
    for f in fb:
        pool.setdefault(_key(f), []).append(f)
    lost, changed, kept = [], [], 0
    for f in fa:
        match = pool.get(_key(f))
        if not match:
            lost.append(_brief(f))
            continue
        g = match.pop(0)
        kept += 1
        if g.get("severity") != f.get("severity") or g.get("message") != f.get("message"):
            changed.append({"code": f.get("code"), "elements": list(f.get("elements") or []),
                            "before": {"severity": f.get("severity"), "message": f.get("message")},
                            "after": {"severity": g.get("severity"), "message": g.get("message")}})
    gained = [_brief(g) for rest in pool.values() for g in rest]
    order = {id(g): i for i, g in enumerate(fb)}
    gained.sort(key=lambda g: order.get(id(g), 0))
    sa, sb = ra.get("summary") or {}, rb.get("summary") or {}
    codes_a = Counter(str(f.get("code")) for f in fa)
    codes_b = Counter(str(f.get("code")) for f in fb)
    return {
        "summary": {"before": {s: int(sa.get(s, 0)) for s in ("error", "warning", "info")},
                    "after": {s: int(sb.get(s, 0)) for s in ("error", "warning", "info")}},
        "codes_gained": sorted(set(codes_b) - set(codes_a)), "codes_lost": sorted(set(codes_a) - set(codes_b)),
        "gained": gained, "lost": lost, "changed": changed, "kept": kept,
        "metrics": leaf_changes(ra.get("metrics") or {}, rb.get("metrics") or {}),
    }


def _brief(f: dict[str, Any]) -> dict[str, Any]:
    return {"code": f.get("code"), "severity": f.get("severity"), "elements": list(f.get("elements") or []),
            "message": f.get("message")}


def diff_arenas(a: ArenaModel, b: ArenaModel, *, before: str = "A", after: str = "B",
                report_a: dict[str, Any] | None = None, report_b: dict[str, Any] | None = None) -> dict[str, Any]:
    """The diff document of two arenas (``before``/``after``: how to name them, their files);
    with both reports, how the verdict moved (``verdict``, else null)."""
    doc: dict[str, Any] = {
        "format": DIFF_FORMAT,
        "before": {"file": before, "name": a.name, "system": a.system},
        "after": {"file": after, "name": b.name, "system": b.system},
    }
    if a.system != b.system:
        doc["elements"] = None
        doc["fields"] = [{"pointer": "/system", "before": a.system, "after": b.system, "change": "changed"}]
    else:
        doc["elements"] = element_changes(a, b)
        doc["fields"] = field_changes(a, b)
    doc["verdict"] = verdict_changes(report_a, report_b) if report_a is not None and report_b is not None else None
    return doc


def unchanged(doc: dict[str, Any]) -> bool:
    """Whether the two arenas are the same (elements, fields) and so is their verdict."""
    els = doc.get("elements") or {}
    same = not doc.get("fields") and not any(els.get(k) for k in ("added", "removed", "moved", "retyped", "changed"))
    cells = els.get("cells") or {}
    same = same and not cells.get("added") and not cells.get("removed")
    v = doc.get("verdict")
    if v is not None:
        same = same and not (v["gained"] or v["lost"] or v["changed"] or v["metrics"])
    return same
