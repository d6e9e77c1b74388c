"""GeoJSON (RFC 7946) FeatureCollections: one Feature per element, ``properties.kind`` says which.

Coordinates are *planar lengths* in the arena's own frame (x right, y up), not longitude and
latitude: RFC 7946 allows no other CRS, so the collection says so in its foreign members
``"coordinates": "arena-lengths"`` and ``"length_mm"``.  Do not put these files on a world map;
GIS tools (QGIS, shapely, turf) read them fine as a local plane.

Geometry: areas are Polygons (circles as 48-gons; exterior rings counter-clockwise per the
right-hand rule), thick walls and gates LineStrings, targets and starts Points.  Each feature's
properties carry its element document (the exact shape in ``properties.shape``); the arena's
other fields sit in the foreign member ``"arena"``.  Reading back uses the exact properties
where a feature's geometry is unchanged (within 1e-7 lengths) and the geometry otherwise.
A checkpoint's or gate's own ``kind`` (outlying/central) is ``checkpoint_kind``/``gate_kind``.
"""

from __future__ import annotations

import json
from typing import Any

from schema.document import num, shape_doc
from schema.formats.base import DEFAULT_PX_PER_LENGTH, Capabilities, ExportResult, FormatError, close_enough, outline
from schema.formats.common import GEOMETRY, Doc, ids, join, label, load_json, shape_of, split
from schema.model import Arena, Point, Polygon, Polyline

COORDINATES = "arena-lengths"
TOL = 1e-7


def _c(p: Point) -> list[float]:
    return [round(float(p[0]), 9) + 0.0, round(float(p[1]), 9) + 0.0]


def _ring(points: list[Point]) -> list[list[float]]:
    ring = [_c(p) for p in points]
    return ring + [ring[0]]


def geometry(kind: str, doc: Doc) -> Doc:
    """The GeoJSON geometry of an element document."""
    if kind in ("static_target", "start_position"):
        return {"type": "Point", "coordinates": _c(doc["position"])}
    if kind == "gate":
        return {"type": "LineString", "coordinates": [_c(doc["from"]), _c(doc["to"])]}
    s = shape_of(doc)
    if isinstance(s, Polyline):
        return {"type": "LineString", "coordinates": [_c(p) for p in s.points]}
    rings = outline(s)
    return {"type": "Polygon", "coordinates": [_ring(rings[0])]}


def _derive(kind: str, geom: Any, stored: Doc, where: str) -> Doc:
    t = geom.get("type") if isinstance(geom, dict) else None
    coords: Any = geom.get("coordinates") if isinstance(geom, dict) else None
    try:
        if kind in ("static_target", "start_position"):
            if t != "Point":
                raise FormatError(f"{where}: a {kind} is a Point, not {t}")
            return {"position": [num(coords[0]), num(coords[1])]}
        if kind == "gate":
            if t != "LineString":
                raise FormatError(f"{where}: a gate is a LineString, not {t}")
            return {"from": [num(v) for v in coords[0][:2]], "to": [num(v) for v in coords[-1][:2]]}
        if t == "Polygon":
            ring = [(float(p[0]), float(p[1])) for p in coords[0]]
            if len(ring) > 1 and ring[0] == ring[-1]:
                ring = ring[:-1]
            return {"shape": shape_doc(Polygon(tuple(ring)))}
        if t == "LineString" and kind == "wall":
            old = stored.get("shape")
            thickness = float(old.get("thickness", 0.5)) if isinstance(old, dict) else 0.5
            return {"shape": shape_doc(Polyline(tuple((float(p[0]), float(p[1])) for p in coords), thickness))}
    except (TypeError, IndexError, KeyError, ValueError) as exc:
        raise FormatError(f"{where}: bad coordinates: {exc}") from None
    raise FormatError(f"{where}: a {kind} needs a Polygon geometry, not {t}")


def _rename(kind: str, doc: Doc) -> Doc:
    """``properties.kind`` is the element kind, so a checkpoint's or gate's own ``kind``
    (outlying/central) travels as ``checkpoint_kind`` / ``gate_kind``."""
    return {(f"{kind}_kind" if k == "kind" else k): v for k, v in doc.items()}


class GeoJSONFormat:
    name: str = "geojson"
    extensions: tuple[str, ...] = (".geojson", ".json")
    capabilities: Capabilities = Capabilities(read=True, write=True)

    def write(self, arena: Arena, *, image_png: bytes | None = None,
              px_per_length: int = DEFAULT_PX_PER_LENGTH, image_name: str | None = None) -> ExportResult:
        meta, items = split(arena)
        features = [
            {"type": "Feature", "id": label(kind, doc), "geometry": geometry(kind, doc),
             "properties": {"kind": kind, **_rename(kind, doc)}}
            for kind, doc in items
        ]
        fc = {"type": "FeatureCollection", "coordinates": COORDINATES, "length_mm": num(arena.units.length_mm),
              "arena": meta, "features": features}
        losses = [
            "coordinates are planar arena lengths (x right, y up), not longitude/latitude as RFC 7946 expects",
            "GeoJSON has no circles: circles are 48-sided polygons (the exact circle stays in properties.shape)",
            "acceleration field directions (%s) and start facings are properties only"
            % (ids(items, "acceleration_field") or "none"),
        ]
        return ExportResult((json.dumps(fc, indent=1) + "\n").encode("utf-8"), losses)

    def read(self, data: bytes, *, source: str = "<geojson>") -> Arena:
        fc = load_json(data, source)
        if not isinstance(fc, dict) or fc.get("type") != "FeatureCollection":
            raise FormatError(f"{source}: not a GeoJSON FeatureCollection")
        meta = fc.get("arena") or {"format": "arena-studio/1", "system": "gravstrike", "name": source}
        if "length_mm" in fc and isinstance(meta, dict):
            meta = {**meta, "units": {"length_mm": fc["length_mm"]}}
        items: list[tuple[str, Doc]] = []
        for i, feature in enumerate(fc.get("features", [])):
            props = dict(feature.get("properties") or {}) if isinstance(feature, dict) else {}
            kind = props.pop("kind", None)
            where = f"{source}: feature {i} ({feature.get('id', '') if isinstance(feature, dict) else ''!r})"
            if kind not in GEOMETRY:
                raise FormatError(f"{where}: properties.kind {kind!r} is not one of {', '.join(GEOMETRY)}")
            if kind not in ("bounds", "start_position"):
                props.setdefault("id", feature.get("id") or f"{kind}{i}")
            geom = feature.get("geometry")
            keep = all(f in props for f in GEOMETRY[kind])
            if keep:
                try:
                    keep = close_enough(geometry(kind, props), geom, TOL)
                except (FormatError, KeyError, TypeError, ValueError, IndexError):
                    keep = False
            if not keep:
                props.update(_derive(kind, geom, props, where))
            if f"{kind}_kind" in props:
                props["kind"] = props.pop(f"{kind}_kind")
            items.append((kind, props))
        return join(meta, items, source=source)
