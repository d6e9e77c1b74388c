"""Geometry an arena cannot take in GeoJSON (issue 17).  Files that GIS tools rewrote: real GDAL
in ``test_gis_round_trip.py`` (issue 43; this file imitated GIS tools before)."""

from __future__ import annotations

import json
from typing import Any

import pytest

import schema
from schema.games.gravstrike.model import Arena
from schema.formats import FormatError, get
from schema.shapes import Circle
from tests.packs.conftest import SHIPPED

def _fc(arena: Arena) -> dict[str, Any]:
    return json.loads(get("geojson").write(arena).data)


def _read(fc: dict[str, Any], warnings: list[str] | None = None) -> Arena:
    return get("geojson").read(json.dumps(fc).encode(), source="gis.geojson", warnings=warnings)


def test_a_polygon_hole_is_refused_not_dropped(default_arena: Arena) -> None:
    fc = _fc(default_arena)
    wall = next(f for f in fc["features"] if f["properties"].get("id") == "W1")
    hole = [[2.4, 4.3], [2.6, 4.3], [2.6, 4.4], [2.4, 4.3]]
    wall["geometry"]["coordinates"].append(hole)
    with pytest.raises(FormatError, match=r"/features/1 \('W1'\): the polygon has 1 hole\(s\)"):
        _read(fc)


def test_a_three_point_gate_is_refused() -> None:
    arena = schema.load(next(p for p in SHIPPED if p.stem == "gates-and-decay"))
    fc = _fc(arena)
    gate = next(f for f in fc["features"] if f["properties"]["kind"] == "gate")
    a, b = gate["geometry"]["coordinates"]
    gate["geometry"]["coordinates"] = [a, [(a[0] + b[0]) / 2 + 1, (a[1] + b[1]) / 2], b]
    with pytest.raises(FormatError, match="a gate is a straight line between two points; this LineString has 3 points"):
        _read(fc)


def test_multipart_geometry_is_refused(default_arena: Arena) -> None:
    fc = _fc(default_arena)
    wall = next(f for f in fc["features"] if f["properties"].get("id") == "W1")
    wall["geometry"] = {"type": "MultiPolygon", "coordinates": [wall["geometry"]["coordinates"]] * 2}
    with pytest.raises(FormatError, match="a MultiPolygon has several parts"):
        _read(fc)


def test_longitude_latitude_files_are_refused() -> None:
    """A plain GIS file (WGS 84 degrees) was imported as a 0.01-length arena."""
    ring = [[13.400, 52.520], [13.410, 52.520], [13.410, 52.526], [13.400, 52.526], [13.400, 52.520]]
    fc = {"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"kind": "bounds"}, "geometry": {"type": "Polygon", "coordinates": [ring]}}]}
    with pytest.raises(FormatError, match="span only 0.01 x 0.006 units.*longitude/latitude"):
        _read(fc)


def test_a_circle_edited_in_a_gis_comes_back_as_a_circle(default_arena: Arena) -> None:
    fc = _fc(default_arena)
    a = next(f for f in fc["features"] if f["properties"].get("id") == "A")
    a["geometry"]["coordinates"] = [[[x - 1.0, y + 0.5] for x, y in a["geometry"]["coordinates"][0]]]  # moved in QGIS
    warnings: list[str] = []
    back = _read(fc, warnings)
    shape = back.element("A").shape
    assert isinstance(shape, Circle) and shape.center == pytest.approx((9.2, 0.5)) and shape.radius == pytest.approx(0.9)
    assert any("48-point polygon (a circle) read back as the circle" in w for w in warnings)
