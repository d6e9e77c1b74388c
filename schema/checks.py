"""Checks a JSON Schema cannot express: simple polygons, distinct points, unique ids and
players, finite numbers, text that is real Unicode, gates long enough to drive through, a
printable size, consistent thresholds. :func:`format_problems` (finite numbers, real Unicode,
the tool extensions' size) runs on every document; the games' checks run on a document that
passed the schema and it (``schema.io``), and stay defensive all the same. They return
(pointer, message). Every check is linear or n log n in its input."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import numpy as np
import shapely
from shapely.geometry import LinearRing, LineString

from schema.starts import start_set_problems
from schema.errors import pointer
from schema.positions import EXTENSION_LIMIT_MESSAGE, MAX_EXTENSION_VALUES

#: Largest magnitude of any number in an arena (lengths, degrees, counts).
MAX_NUMBER = 10_000.0
#: Largest extent of the bounds (lengths): 4 m at 40 mm a length, bigger than any table; the
#: analysis grids grow with the square of it.
MAX_EXTENT = 100.0
#: Most vertices of one polygon or polyline (the schema's maxItems; larger shapes are not analysed).
MAX_POINTS = 10_000
#: Shortest gate, in lengths: the reference turbine's width (a shorter gate could not be driven
#: through between its markers).
MIN_GATE_LENGTH = 0.5
#: Largest ``units.length_mm`` (the schema's maximum).
MAX_LENGTH_MM = 1000.0
#: Largest printed size of an arena (its extent times ``units.length_mm``), in millimetres.
MAX_PRINTED_MM = 4000.0
ELEMENT_LISTS = ("walls", "checkpoints", "gates", "acceleration_fields", "exclusion_fields", "static_targets")
Found = tuple[str, str]


def semantic_problems(doc: Any) -> list[Found]:
    """Gravstrike's checks, on a document that passed the schema and :func:`format_problems`."""
    if not isinstance(doc, dict):
        return []
    out: list[Found] = _unique_ids(doc)
    out += _unique_players(doc)
    if isinstance(doc.get("bounds"), dict):
        out += _shape(doc["bounds"], ("bounds",))
        out += _extent(doc["bounds"])
    for kind in ELEMENT_LISTS:
        for i, el in enumerate(_list(doc.get(kind))):
            if isinstance(el, dict) and isinstance(el.get("shape"), dict):
                out += _shape(el["shape"], (kind, i, "shape"))
    for i, gate in enumerate(_list(doc.get("gates"))):
        if isinstance(gate, dict) and _point(gate.get("from")) and gate.get("from") == gate.get("to"):
            out.append((pointer(("gates", i, "to")), "a gate's 'to' must differ from its 'from'"))
        elif isinstance(gate, dict) and _point(gate.get("from")) and _point(gate.get("to")):
            length = math.dist(gate["from"], gate["to"])
            if length < MIN_GATE_LENGTH:
                out.append((pointer(("gates", i, "to")),
                            f"the gate is {_fmt(length)} lengths long; a gate is at least {MIN_GATE_LENGTH:g} "
                            "lengths long (a turbine's width) so a turbine can pass between its markers"))
    out += _printed_size(doc)
    out += _scenario(doc)
    return out


def format_problems(doc: Any) -> list[Found]:
    """The file format's own rules, the same for every game, that a JSON Schema cannot state:
    numbers are finite and text is real Unicode everywhere (tool extensions included), and the
    tool extensions (``x-`` keys) of one arena hold at most :data:`MAX_EXTENSION_VALUES` values
    in all.  The readers enforce the last while reading (``schema.positions``); this says it of
    a document built in memory."""
    out: list[Found] = list(_non_finite(doc, ()))
    where = _extensions_past_cap(doc)
    if where is not None:
        out.append((pointer(where), EXTENSION_LIMIT_MESSAGE))
    return out


def _extensions_past_cap(doc: Any) -> tuple[str | int, ...] | None:
    """The path of the ``x-`` key at which the values of the extensions, counted together, pass
    :data:`MAX_EXTENSION_VALUES` (counting stops there), or None."""
    count = 0
    stack: list[tuple[Any, tuple[str | int, ...], tuple[str | int, ...] | None]] = [(doc, (), None)]
    while stack:
        node, path, ext = stack.pop()
        if ext is not None:
            count += 1
            if count > MAX_EXTENSION_VALUES:
                return ext
        if isinstance(node, dict):
            for k, child in node.items():
                here = (*path, str(k))
                stack.append((child, here, ext if ext is not None else here if str(k).startswith("x-") else None))
        elif isinstance(node, list):
            stack.extend((child, (*path, i), ext) for i, child in enumerate(node))
    return None


def element_problems(doc: Any, lists: tuple[str, ...]) -> list[Found]:
    """The checks every free-table game shares, for a game whose element lists are ``lists``:
    ids unique across those lists, one start per player, simple polygons and polylines (bounds
    and every element's ``shape``).  (Finite numbers and real Unicode are the format's:
    :func:`format_problems`, checked first.)"""
    if not isinstance(doc, dict):
        return []
    out: list[Found] = _unique_ids(doc, lists)
    out += _unique_players(doc)
    if isinstance(doc.get("bounds"), dict):
        out += _shape(doc["bounds"], ("bounds",))
    for kind in lists:
        for i, el in enumerate(_list(doc.get(kind))):
            if isinstance(el, dict) and isinstance(el.get("shape"), dict):
                out += _shape(el["shape"], (kind, i, "shape"))
    return out


def _list(v: Any) -> list[Any]:
    return v if isinstance(v, list) else []


def _point(v: Any) -> bool:
    return isinstance(v, list) and len(v) == 2 and all(_num(c) for c in v)


def _num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _fmt(v: float) -> str:
    """A number for a message: short, and never a 4 000-digit integer."""
    if isinstance(v, int) and abs(v) >= 10**15:
        return f"an integer of about {int(v.bit_length() * 0.30103) + 1} digits"
    return f"{v:.3g}" if isinstance(v, float) and v != 0 and abs(v) < 1e-3 else f"{v:g}"


def _non_finite(v: Any, path: tuple[str | int, ...]) -> Iterator[Found]:
    """Numbers that are not finite (anywhere, tool extensions included: JSON cannot write them)
    and text that is not valid Unicode (a lone surrogate such as JSON's "\\ud800" cannot be
    written as UTF-8: saving, printing or answering with it would fail later). The range of
    numbers (±MAX_NUMBER) is the schema's: every number it describes states it."""
    if isinstance(v, float) and not math.isfinite(v):
        yield pointer(path), f"{v} is not a finite number"
    elif isinstance(v, str):
        bad = _surrogate(v)
        if bad is not None:
            yield pointer(path), f"the text holds a lone surrogate ({bad}), which is not a character; write the character itself"
    elif isinstance(v, dict):
        for k, child in v.items():
            bad = _surrogate(k)
            if bad is not None:
                yield pointer((*path, k)), f"the key holds a lone surrogate ({bad}), which is not a character"
                continue
            yield from _non_finite(child, (*path, str(k)))
    elif isinstance(v, list):
        for i, child in enumerate(v):
            yield from _non_finite(child, (*path, i))


def _surrogate(text: str) -> str | None:
    """The first lone surrogate in ``text`` as ``\\udXXX``, or None."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return f"\\u{ord(text[exc.start]):04x}"
    return None


def _extent(bounds: dict[str, Any]) -> list[Found]:
    """Polygon bounds may not exceed MAX_EXTENT lengths across (the schema limits a rect's size)."""
    t = bounds.get("type")
    size = 0.0
    if t == "polygon":
        pts = [p for p in _list(bounds.get("points")) if _point(p)]
        if pts:
            size = max(max(p[0] for p in pts) - min(p[0] for p in pts), max(p[1] for p in pts) - min(p[1] for p in pts))
    if size > MAX_EXTENT:
        return [(pointer(("bounds",)), f"the bounds are {_fmt(size)} lengths across; an arena may be at most "
                                       f"{MAX_EXTENT:g} lengths across")]
    return []


def _size(bounds: Any) -> float:
    """The bounds' extent in lengths (the default bounds are 24 across; 0 when unreadable)."""
    if not isinstance(bounds, dict):
        return 24.0
    if bounds.get("type") == "rect" and isinstance(bounds.get("size"), list) and all(_num(c) for c in bounds["size"]):
        return float(max(abs(c) for c in bounds["size"])) if bounds["size"] else 0.0
    pts = [p for p in _list(bounds.get("points")) if _point(p)]
    if bounds.get("type") == "polygon" and pts:
        return float(max(max(p[0] for p in pts) - min(p[0] for p in pts), max(p[1] for p in pts) - min(p[1] for p in pts)))
    return 0.0


def _printed_size(doc: dict[str, Any]) -> list[Found]:
    """At ``units.length_mm`` the arena must fit MAX_PRINTED_MM when printed (``arena print``
    tiles it over pages at true size)."""
    units = doc.get("units")
    value: Any = units.get("length_mm") if isinstance(units, dict) else None
    if not _num(value) or not 0 < value <= MAX_LENGTH_MM:
        return []  # the schema reports it
    mm = float(value)
    extent = _size(doc.get("bounds"))
    if extent > MAX_EXTENT or extent * mm <= MAX_PRINTED_MM:
        return []
    return [(pointer(("units", "length_mm")),
             f"at {_fmt(mm)} mm a length the arena prints {_fmt(extent * mm / 1000)} m across; the printed arena may be "
             f"at most {MAX_PRINTED_MM / 1000:g} m across (use at most {_fmt(MAX_PRINTED_MM / extent)} mm a length)")]


def _unique_ids(doc: dict[str, Any], lists: tuple[str, ...] = ELEMENT_LISTS) -> list[Found]:
    first: dict[str, str] = {}
    out: list[Found] = []
    for kind in lists:
        for i, el in enumerate(_list(doc.get(kind))):
            if not isinstance(el, dict) or not isinstance(el.get("id"), str):
                continue
            ptr = pointer((kind, i, "id"))
            ident = el["id"]
            if ident in first:
                out.append((ptr, f"duplicate id {ident!r}: already used at {first[ident]} (ids are unique across the arena)"))
            else:
                first[ident] = pointer((kind, i))
    return out


def _unique_players(doc: dict[str, Any]) -> list[Found]:
    seen: dict[int, str] = {}
    out: list[Found] = []
    for i, s in enumerate(_list(doc.get("start_positions"))):
        if isinstance(s, dict) and isinstance(s.get("player"), int):
            p = s["player"]
            if p in seen:
                out.append((pointer(("start_positions", i, "player")), f"duplicate start position for player {p}: already at {seen[p]}"))
            else:
                seen[p] = pointer(("start_positions", i))
    return out


def _shape(shape: dict[str, Any], path: tuple[str | int, ...]) -> list[Found]:
    kind = shape.get("type")
    pts = shape.get("points")
    if kind not in ("polygon", "polyline") or not isinstance(pts, list) or not all(_point(p) for p in pts):
        return []
    if len(pts) > MAX_POINTS or any(abs(c) > MAX_NUMBER for p in pts for c in p):
        return []  # the schema reports it; analysing it would only cost time (or overflow)
    coords = [(float(p[0]), float(p[1])) for p in pts]
    distinct = list(dict.fromkeys(coords))
    ptr = pointer((*path, "points"))
    if kind == "polyline":
        if len(distinct) < 2:
            return [(ptr, "a polyline needs at least 2 distinct points")]
        for i in range(1, len(coords)):
            if coords[i] == coords[i - 1]:
                return [(pointer((*path, "points", i)), f"point {i} repeats point {i - 1}")]
        if LineString(coords).length <= 0:
            return [(ptr, "a polyline must have a positive length")]
        return []
    if len(distinct) < 3:
        return [(ptr, f"a polygon needs at least 3 distinct points; it has {len(distinct)}")]
    if coords[0] == coords[-1]:
        return [(pointer((*path, "points", len(coords) - 1)), "do not repeat the first point at the end; polygons close themselves")]
    for i in range(1, len(coords)):
        if coords[i] == coords[i - 1]:
            return [(pointer((*path, "points", i)), f"point {i} repeats point {i - 1}")]
    x0, y0 = coords[0]
    if all(abs((x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0)) <= 1e-12 for (x1, y1) in coords for (x2, y2) in coords[:3]):
        return [(ptr, "the polygon has no area (its points are collinear)")]
    if not LinearRing(coords).is_simple:
        return [(ptr, f"the polygon's edges cross each other ({_where_crossing(coords)})")]
    return []


def _where_crossing(coords: list[tuple[float, float]]) -> str:
    """Name the first pair of edges that cross: non-adjacent edges that meet, or adjacent ones
    that overlap beyond their shared vertex. Candidate pairs come from an STR-tree of the edges'
    boxes, so a polygon of 10 000 points is answered in a fraction of a second."""
    n = len(coords)
    pts = np.asarray(coords, dtype=np.float64)
    segments = shapely.linestrings(np.stack([pts, np.roll(pts, -1, axis=0)], axis=1))
    tree = shapely.STRtree(segments)
    left, right = tree.query(segments, predicate="intersects")
    keep = left < right
    left, right = left[keep], right[keep]
    adjacent = (right == left + 1) | ((left == 0) & (right == n - 1))
    crossing = ~adjacent
    if adjacent.any():  # adjacent edges must meet in their shared vertex only
        meet = shapely.intersection(segments[left[adjacent]], segments[right[adjacent]])
        crossing[np.flatnonzero(adjacent)] = shapely.get_type_id(meet) != 0  # 0: a single point
    found = sorted(zip(left[crossing].tolist(), right[crossing].tolist()))
    if not found:
        return "self-touching outline"
    i, j = found[0]
    return f"edge {i}-{(i + 1) % n} meets edge {j}-{(j + 1) % n}"


def _scenario(doc: dict[str, Any]) -> list[Found]:
    sc = doc.get("scenario")
    if not isinstance(sc, dict):
        return []
    out: list[Found] = []
    tt = sc.get("tier_thresholds")
    if isinstance(tt, list) and len(tt) == 2 and all(isinstance(t, int) for t in tt) and tt[0] >= tt[1]:
        out.append((pointer(("scenario", "tier_thresholds")), f"tier thresholds must increase; got {tt}"))
    if isinstance(tt, list) and tt and isinstance(tt[-1], int) and isinstance(sc.get("vp_to_win"), int) and tt[-1] >= sc["vp_to_win"]:
        out.append((pointer(("scenario", "vp_to_win")), f"vp_to_win ({sc['vp_to_win']}) must exceed the tier 3 threshold ({tt[-1]})"))
    starts = _list(doc.get("start_positions"))
    players = sc.get("players")
    if isinstance(players, int) and starts and players > len(starts):
        out.append((pointer(("scenario", "players")), f"{players} players but only {len(starts)} start positions"))
    out += start_set_problems(doc, [s["player"] for s in starts if isinstance(s, dict) and isinstance(s.get("player"), int)])
    return out
