"""GeoJSON (RFC 7946) FeatureCollections: one Feature per element, ``properties.kind`` says which.

Coordinates are *planar lengths* in the arena's own frame (x right, y up), not longitude and
latitude.  RFC 7946 has no other CRS, so the collection says so in the foreign member
``"coordinate_system": "arena-lengths"`` (§7.1 forbids a ``coordinates`` member on a
FeatureCollection) next to ``"length_mm"``.  Do not put these files on a world map; GIS tools
(QGIS, shapely, geopandas, ogr2ogr) read them fine as a local plane.

Geometry: areas are Polygons (circles as 48-gons; exterior rings counter-clockwise per the
right-hand rule), thick walls and gates LineStrings, targets and starts Points.  Each feature's
properties carry its element document (the exact shape in ``properties.shape``) and the game
(``game``); the arena's other fields are the bounds feature's property ``arena`` (a JSON
object), so they survive GIS tools that drop foreign members.  Reading back uses the exact
properties where a feature's geometry is unchanged (within 1e-7 lengths, whatever the ring's
start and direction) and the geometry otherwise.  A checkpoint's or gate's own ``kind``
(outlying/central) is ``checkpoint_kind``/``gate_kind``.  Grid games: :mod:`grid_geojson`.

Files rewritten by GIS tools (GDAL's ``ogr2ogr`` to and from GeoPackage or GeoJSON, QGIS,
geopandas) are accepted and the import report says what was reinterpreted: null columns are
"not set", 0/1 are booleans, JSON text in structured columns is parsed and so is GDAL's list
text ``(2:7.79,4.5)``, an element's id may be the feature's id or an ``id`` column (GDAL moves
one to the other), a single-part MultiPolygon (MultiLineString, MultiPoint) is its one part,
and a regular 16-gon or finer that was a circle comes back as the circle.  Files written
before the game travelled in the features keep the arena's fields in the foreign member
``"arena"``, read too; a file that names no game is read as the caller's ``game`` (``arena
import --game``), else as Gravstrike with a warning.  Refused with a located message: polygon
holes and multi-part geometries (an arena shape has neither), gates that are not two-point
lines, and files whose coordinates span less than one length (longitude/latitude, not arena
lengths).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import PurePath
from typing import Any

from schema.document import num, shape_doc
from schema.formats.base import DEFAULT_PX_PER_LENGTH, Capabilities, ExportResult, FormatError, close_enough, outline
from schema.formats.common import (as_circle, describe_tolerated, field_types, join, label, load_json, split,
                                   tolerate_gis, warn)
from schema.formats.grid_games import GridProfile, is_grid
from schema.formats.systems import Doc, ExportProfile, exporting_systems, profile, profile_of, unnamed_system
from schema.ruleset import ArenaModel, ruleset
from schema.shapes import Point, Polygon, Polyline

TOL = 1e-7
#: Smallest extent (in x or y) of an arena: anything smaller is longitude/latitude or a mistake.
MIN_EXTENT = 1.0


def _c(p: Point) -> list[float]:
    return [round(float(p[0]), 9) + 0.0, round(float(p[1]), 9) + 0.0]


def _ring(points: list[Point]) -> list[list[float]]:
    ring = [_c(p) for p in points]
    return ring + [ring[0]]


def geometry(kind: str, doc: Doc, prof: ExportProfile) -> Doc:
    """The GeoJSON geometry of an element document of ``prof``'s game."""
    if prof.is_point(kind):
        return {"type": "Point", "coordinates": _c(doc["position"])}
    if prof.is_segment(kind):
        return {"type": "LineString", "coordinates": [_c(doc["from"]), _c(doc["to"])]}
    s = prof.shape_of(kind, doc)
    if isinstance(s, Polyline):
        return {"type": "LineString", "coordinates": [_c(p) for p in s.points]}
    rings = outline(s)
    return {"type": "Polygon", "coordinates": [_ring(rings[0])]}


def _canonical(geom: Any) -> Any:
    """A geometry with each polygon ring opened, counter-clockwise and starting at its
    smallest vertex: the same shape compares equal whatever a GIS did to ring order."""
    if not isinstance(geom, dict) or geom.get("type") != "Polygon" or not isinstance(geom.get("coordinates"), list):
        return geom
    rings = []
    for ring in geom["coordinates"]:
        pts = [tuple(p[:2]) for p in ring]
        if len(pts) > 1 and pts[0] == pts[-1]:
            pts = pts[:-1]
        area = sum(pts[i - 1][0] * pts[i][1] - pts[i][0] * pts[i - 1][1] for i in range(len(pts)))
        if area < 0:
            pts = pts[::-1]
        k = min(range(len(pts)), key=lambda i: pts[i]) if pts else 0
        rings.append([list(p) for p in pts[k:] + pts[:k]])
    return {"type": "Polygon", "coordinates": rings}


def _unchanged(kind: str, props: Doc, geom: Any, prof: ExportProfile) -> bool:
    if not all(f in props for f in prof.geometry[kind]):
        return False
    try:
        return close_enough(_canonical(geometry(kind, props, prof)), _canonical(geom), TOL)
    except (FormatError, KeyError, TypeError, ValueError, IndexError):
        return False


def _derive(kind: str, geom: Any, stored: Doc, where: str, warnings: list[str] | None, prof: ExportProfile) -> Doc:
    """Our geometry fields from a feature's geometry; a card's or token's polygon must be a
    rectangle (or, for a barrel, a circle) and becomes its position, size and rotation."""
    out = _derive_shape(kind, geom, stored, where, warnings, prof)
    if kind in prof.posed and "shape" in out:
        from schema.document import shape_from

        shape = shape_from(out["shape"])
        if isinstance(shape, Polygon):
            rect = _as_rect(shape)
            if rect is None:
                raise FormatError(f"{where}: a {kind} is a rectangle{' or a circle' if kind == 'token' else ''}; "
                                  f"this polygon has {len(shape.points)} corners that are not one")
            shape = rect
        return prof.pose_fields(kind, shape, stored)
    return out


def _as_rect(p: Polygon) -> Any:
    """The rotated rectangle a 4-point polygon is (right angles within 1e-6), else None."""
    import math

    from schema.shapes import Rect

    pts = list(p.points)
    if len(pts) != 4:
        return None
    for i in range(4):
        a, b, c = pts[i - 1], pts[i], pts[(i + 1) % 4]
        if abs((a[0] - b[0]) * (c[0] - b[0]) + (a[1] - b[1]) * (c[1] - b[1])) > 1e-6:
            return None
    # the side from the lowest-left corner counter-clockwise is the width (our corner order)
    k = min(range(4), key=lambda i: (round(pts[i][1], 9), pts[i][0]))
    ring = pts[k:] + pts[:k]
    w = math.dist(ring[0], ring[1])
    h = math.dist(ring[1], ring[2])
    angle = math.degrees(math.atan2(ring[1][1] - ring[0][1], ring[1][0] - ring[0][0])) % 360.0
    if angle >= 90.0 - 1e-9:  # turned a quarter or more: swap sides so the angle is in [0, 90)
        w, h, angle = h, w, angle - 90.0
    cx, cy = sum(q[0] for q in pts) / 4, sum(q[1] for q in pts) / 4
    return Rect((round(cx, 9) + 0.0, round(cy, 9) + 0.0), (round(w, 9), round(h, 9)), round(angle, 6) + 0.0)


def _derive_shape(kind: str, geom: Any, stored: Doc, where: str, warnings: list[str] | None,
                  prof: ExportProfile) -> Doc:
    t = geom.get("type") if isinstance(geom, dict) else None
    coords: Any = geom.get("coordinates") if isinstance(geom, dict) else None
    try:
        if prof.is_point(kind):
            if t != "Point":
                raise FormatError(f"{where}: a {kind} is a Point, not {t}")
            return {"position": [num(coords[0]), num(coords[1])]}
        if prof.is_segment(kind):
            if t != "LineString":
                raise FormatError(f"{where}: a {kind} is a LineString, not {t}")
            if len(coords) != 2:
                raise FormatError(f"{where}: a {kind} is a straight line between two points; this LineString has "
                                  f"{len(coords)} points")
            return {"from": [num(v) for v in coords[0][:2]], "to": [num(v) for v in coords[1][:2]]}
        if t == "Polygon":
            if len(coords) != 1:
                raise FormatError(f"{where}: the polygon has {len(coords) - 1} hole(s); arena shapes have no holes "
                                  "(split it into separate features)")
            ring = [(float(p[0]), float(p[1])) for p in coords[0]]
            if len(ring) > 1 and ring[0] == ring[-1]:
                ring = ring[:-1]
            circle = as_circle(ring)
            if circle is not None:
                was = "a circle" if isinstance(stored.get("shape"), dict) and stored["shape"].get("type") == "circle" \
                    else "circular"
                warn(warnings, f"{where}: a {len(ring)}-point polygon ({was}) read back as the circle centred "
                               f"({circle.center[0]:g}, {circle.center[1]:g}), radius {circle.radius:g}")
                return {"shape": shape_doc(circle)}
            return {"shape": shape_doc(Polygon(tuple(ring)))}
        if t == "LineString" and kind == "wall":
            old = stored.get("shape")
            thickness = float(old.get("thickness", 0.5)) if isinstance(old, dict) else 0.5
            return {"shape": shape_doc(Polyline(tuple((float(p[0]), float(p[1])) for p in coords), thickness))}
    except (TypeError, IndexError, KeyError, ValueError) as exc:
        raise FormatError(f"{where}: bad coordinates: {exc}") from None
    if t in ("MultiPolygon", "MultiLineString", "MultiPoint", "GeometryCollection"):
        raise FormatError(f"{where}: a {t} has several parts; one element is one {'LineString' if prof.is_segment(kind) else 'Polygon'} "
                          "(split it into separate features)")
    raise FormatError(f"{where}: a {kind} needs a Polygon geometry, not {t}")


def _rename(kind: str, doc: Doc) -> Doc:
    """``properties.kind`` is the element kind, so a checkpoint's or gate's own ``kind``
    (outlying/central) travels as ``checkpoint_kind`` / ``gate_kind``."""
    return {(f"{kind}_kind" if k == "kind" else k): v for k, v in doc.items()}


def _positions(geom: Any) -> list[tuple[float, float]]:
    out: list[tuple[float, float]] = []

    def walk(v: Any) -> None:
        if isinstance(v, list) and len(v) >= 2 and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in v[:2]):
            out.append((float(v[0]), float(v[1])))
        elif isinstance(v, list):
            for x in v:
                walk(x)

    if isinstance(geom, dict):
        walk(geom.get("coordinates"))
    return out


def _check_extent(features: list[Any], source: str) -> None:
    """Refuse a file whose coordinates are longitude/latitude rather than arena lengths."""
    pts = [p for f in features if isinstance(f, dict) for p in _positions(f.get("geometry"))]
    if len(pts) < 2:
        return
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    dx, dy = max(xs) - min(xs), max(ys) - min(ys)
    if dx < MIN_EXTENT and dy < MIN_EXTENT:
        lonlat = all(-180 <= x <= 180 for x in xs) and all(-90 <= y <= 90 for y in ys)
        hint = (" It looks like longitude/latitude (WGS 84, GeoJSON's default): reproject it to a planar CRS "
                "and scale it so one unit is one arena length.") if lonlat else ""
        raise FormatError(f"{source}: the features span only {dx:.3g} x {dy:.3g} units, but arena coordinates are "
                          f"lengths and an arena is several lengths across.{hint}")


class GeoJSONFormat:
    name: str = "geojson"
    extensions: tuple[str, ...] = (".geojson", ".json")
    capabilities: Capabilities = Capabilities(read=True, write=True)

    def write(self, arena: ArenaModel, *, image_png: bytes | None = None,
              px_per_length: int = DEFAULT_PX_PER_LENGTH, image_name: str | None = None,
              suffix: str | None = None) -> ExportResult:
        if is_grid(arena):
            from schema.formats import grid_geojson

            return grid_geojson.write(arena)
        meta, items = split(arena)
        prof = profile_of(arena)
        features = [
            {"type": "Feature", "id": label(kind, doc), "geometry": geometry(kind, doc, prof),
             "properties": {"kind": kind, "game": prof.system, **_rename(kind, doc),
                            **({"arena": meta} if kind == "bounds" else {})}}
            for kind, doc in items
        ]
        fc = {"type": "FeatureCollection", **prof.geojson_members(arena), "features": features}
        return ExportResult((json.dumps(fc, indent=1) + "\n").encode("utf-8"), prof.geojson_losses(arena, items))

    def read(self, data: bytes, *, source: str = "<geojson>", warnings: list[str] | None = None,
             game: str | None = None) -> ArenaModel:
        """The arena of a FeatureCollection; ``game`` (``arena import --game``) says which game
        a file that names none is (a file that names another is refused)."""
        fc = load_json(data, source)
        if not isinstance(fc, dict) or fc.get("type") != "FeatureCollection":
            raise FormatError(f"{source}: not a GeoJSON FeatureCollection")
        features = fc.get("features")
        if not isinstance(features, list):
            raise FormatError(f"{source}: /features must be a list of Features, got {type(features).__name__}")
        meta, named = _arena_fields(fc, features, source, game, warnings)
        prof = profile(meta.get("system"))
        if isinstance(prof, GridProfile):
            from schema.formats import grid_geojson

            return grid_geojson.read(features, meta, source, warnings)
        meta = prof.geojson_meta(fc, meta)
        _check_extent(features, source)
        seen: Counter[str] = Counter()
        items: list[tuple[str, Doc]] = []
        for i, feature in enumerate(features):
            where = f"{source}: /features/{i}"
            if not isinstance(feature, dict):
                raise FormatError(f"{where}: a Feature is an object, got {type(feature).__name__}")
            raw = feature.get("properties")
            if raw is not None and not isinstance(raw, dict):
                raise FormatError(f"{where}/properties: must be an object, got {type(raw).__name__}")
            props = {k: v for k, v in (raw or {}).items() if k not in ("game", "arena")}
            kind = props.pop("kind", None)
            fid = feature.get("id")
            name = props.get("id") if isinstance(props.get("id"), str) else fid if isinstance(fid, (str, int)) else None
            where += f" ({name!r})" if name is not None else ""
            if kind not in prof.geometry:
                raise FormatError(f"{where}: properties.kind {kind!r} is not one of {', '.join(prof.geometry)}"
                                  + ("" if named else _game_hint(kind)))
            if f"{kind}_kind" in props:
                props["kind"] = props.pop(f"{kind}_kind")
            props = tolerate_gis(kind, props, seen, prof.system, where=where)
            if "id" not in field_types(kind, prof.system):
                # GDAL keeps a text feature id as an id column; bounds and starts have none
                extra = props.pop("id", None)
                if extra is not None and extra != label(kind, props):
                    warn(warnings, f"{where}: properties.id {extra!r} ignored: a {kind.replace('_', ' ')} has no id")
            elif "id" not in props:
                props["id"] = fid if isinstance(fid, str) else f"{kind}{i}"
            geom = _single(feature.get("geometry"), seen)
            if not _unchanged(kind, _rename(kind, props), geom, prof):
                props.update(_derive(kind, geom, props, where, warnings, prof))
            items.append((kind, props))
        for sentence in describe_tolerated(seen):
            warn(warnings, f"{source}: {sentence}")
        return join(meta, items, source=source)


def games() -> tuple[str, ...]:
    """The games a GeoJSON file can hold (``arena import --game``): those whose ruleset has an
    export profile."""
    return exporting_systems()


def _game_hint(kind: Any) -> str:
    """For a kind the game files that name none are read as has not, in a file that names no
    game: the games that have it."""
    games_with = [g for g in games() if kind in profile(g).kinds]
    if not games_with:
        return ""
    return (f"; the file names no game (no properties.game), so it was read as {ruleset(unnamed_system()).game}: "
            f"if it is {' or '.join(games_with)}, say so with --game {games_with[0]}")


def _single(geom: Any, seen: Counter[str]) -> Any:
    """A single-part MultiPolygon, MultiLineString or MultiPoint as its one part (GIS layers
    promoted to multi-geometries, as Shapefiles and many GeoPackages are)."""
    if isinstance(geom, dict) and geom.get("type") in ("MultiPolygon", "MultiLineString", "MultiPoint"):
        parts = geom.get("coordinates")
        if isinstance(parts, list) and len(parts) == 1:
            seen["single-part multi-geometries read as their one part"] += 1
            return {"type": str(geom["type"])[len("Multi"):], "coordinates": parts[0]}
    return geom


def _arena_fields(fc: Doc, features: list[Any], source: str, game: str | None,
                  warnings: list[str] | None) -> tuple[Doc, bool]:
    """The arena's own fields (``system`` set) and whether the file names its game: the bounds
    feature's property ``arena``, or the collection's foreign member ``arena`` (files written
    before the game travelled in the features); the game from those, from every feature's
    ``game`` (all alike) or from ``game``."""
    if game is not None and game not in games():
        raise FormatError(f"unknown game {game!r}; a GeoJSON file holds one of {', '.join(games())}")
    meta: Doc | None = None
    found: tuple[str, str] | None = None  # (game, where it is said)
    for i, f in enumerate(features):
        props = f.get("properties") if isinstance(f, dict) else None
        if not isinstance(props, dict):
            continue
        where = f"{source}: /features/{i}"
        g = props.get("game")
        if g is not None:
            if not isinstance(g, str):
                raise FormatError(f"{where}: properties.game must be a game's name, got {g!r}"[:300])
            if found is None:
                found = (g, f"properties.game of /features/{i}")
            elif g != found[0]:
                raise FormatError(f"{where}: properties.game {g!r} is not {found[0]!r} ({found[1]}): one file holds "
                                  "one arena of one game")
        carried = props.get("arena")
        if props.get("kind") == "bounds" and carried is not None and meta is None:
            if isinstance(carried, str):  # a GIS tool that keeps JSON as text
                try:
                    carried = json.loads(carried)
                except json.JSONDecodeError as exc:
                    raise FormatError(f"{where}: properties.arena (the arena's own fields) is not JSON: {exc}") from None
            if not isinstance(carried, dict):
                raise FormatError(f"{where}: properties.arena (the arena's own fields) must be an object, got "
                                  f"{type(carried).__name__}")
            meta = carried
            said = f"properties.arena of /features/{i}"
    if meta is None and isinstance(fc.get("arena"), dict):
        meta, said = fc["arena"], "the collection's \"arena\" member"
    if meta is not None:
        system = meta.get("system") or unnamed_system()
        if found is not None and found[0] != system:
            raise FormatError(f"{source}: {said} says {system!r} but {found[1]} says {found[0]!r}")
        found = (system, said)
    if game is not None and found is not None and found[0] != game:
        raise FormatError(f"{source}: a {found[0]} arena ({found[1]}), not {game} as --game says")
    named = found is not None or game is not None
    system = game or (found[0] if found else unnamed_system())
    if system not in games():
        raise FormatError(f"{source}: {found[1] if found else 'the file'} names the game {system!r}; a GeoJSON file "
                          f"holds one of {', '.join(games())}")
    if not named:
        warn(warnings, f"{source}: the file names no game (no properties.game, no arena fields): read as "
                       f"{ruleset(system).game}; say which game it is with --game")
    if meta is None:
        meta = {"format": "arena-studio/1", "name": PurePath(source).stem or "imported"}
        warn(warnings, f"{source}: no arena fields (the bounds feature's properties.arena, which GIS tools may drop): "
                       f"the name is {meta['name']!r} and units, scenario and symmetry take their defaults")
    return {**meta, "system": system}, named


__all__ = ["GeoJSONFormat", "games", "geometry"]
