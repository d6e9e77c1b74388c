"""The grid games in GeoJSON (issue 15: exports of grid arenas are "either correct (cells as
polygons) or refused"): checked with the ``geojson`` package (RFC 7946 validity) and shapely
(where each polygon is and that the cells tile the plane without overlapping)."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from typing import Any

import geojson
import pytest
from shapely.geometry import Point, Polygon, shape
from shapely.ops import unary_union

from schema.formats import get
from schema.games import gliderpit, mothership

HEX_AREA = math.sqrt(3) / 2  # a regular hexagon one unit across the flats


def centre(q: int, r: int, orientation: str) -> tuple[float, float]:
    """Hex centres one unit apart, y up: pointy rows of constant r, flat columns of constant q."""
    if orientation == "pointy":
        return q + r / 2, r * math.sqrt(3) / 2
    return q * math.sqrt(3) / 2, r + q / 2


def collection(arena: Any) -> dict[str, Any]:
    data = get("geojson").write(arena).data
    obj = geojson.loads(data.decode())
    assert obj.is_valid, obj.errors()
    return json.loads(data)


@pytest.mark.parametrize("orientation", ["pointy", "flat"])
def test_every_pit_hex_is_a_hexagon_around_its_centre(orientation: str) -> None:
    arena = replace(gliderpit.default_arena(), orientation=orientation)  # type: ignore[arg-type]
    fc = collection(arena)
    assert fc["coordinate_system"] == "arena-hexes" and fc["printed_mm"] == 19.05
    cells = [f for f in fc["features"] if f["properties"]["kind"] == "cell"]
    assert {(f["properties"]["q"], f["properties"]["r"]) for f in cells} == set(arena.cells)
    polys = []
    for f in cells:
        poly = shape(f["geometry"])
        c = centre(f["properties"]["q"], f["properties"]["r"], orientation)
        assert poly.is_valid and poly.area == pytest.approx(HEX_AREA)
        assert poly.centroid.distance(Point(c)) < 1e-9
        assert poly.exterior.is_ccw  # RFC 7946: exterior rings counter-clockwise
        polys.append(poly)
    # neighbours share a side: the union has no gaps or overlaps (271 hexes' area, one piece)
    union = unary_union(polys)
    assert union.geom_type == "Polygon" and union.area == pytest.approx(len(polys) * HEX_AREA)


def hexagon(q: int, r: int, orientation: str = "pointy") -> Polygon:
    """The hex one unit across the flats around its centre, built here from the centre."""
    cx, cy = centre(q, r, orientation)
    start = 30 if orientation == "pointy" else 0
    radius = 1 / math.sqrt(3)
    return Polygon([(cx + radius * math.cos(math.radians(start + 60 * i)), cy + radius * math.sin(math.radians(start + 60 * i)))
                    for i in range(6)])


def test_rows_and_zones_are_their_hexes_with_the_books_numbers() -> None:
    """Each row and zone is the outline of its hexes (one valid Polygon, issue 43: it was a
    MultiPolygon of hexes sharing edges, "Self-intersection" for shapely and QGIS)."""
    arena = gliderpit.default_arena()
    features = {f["id"]: f for f in collection(arena)["features"]}
    for zone in arena.launch_zones:
        f = features[zone.id]
        assert f["properties"]["kind"] == "launch_zone" and f["properties"]["track"] == zone.track
        assert f["properties"]["cells"] == [list(c) for c in zone.cells]
        g = shape(f["geometry"])
        expected = unary_union([hexagon(*c) for c in zone.cells])
        assert g.geom_type == "Polygon" and g.is_valid and g.exterior.is_ccw
        assert g.symmetric_difference(expected).area < 1e-6  # coordinates have 9 decimals
    for row in arena.rows:
        f = features[row.id]
        assert (f["properties"]["label"], f["properties"]["line"]) == (row.label, row.line)
        g = shape(f["geometry"])
        on_line = [c for c in arena.cells if c[1] == row.line]
        assert g.geom_type == "Polygon" and g.is_valid and g.area == pytest.approx(len(on_line) * HEX_AREA)
        assert g.symmetric_difference(unary_union([hexagon(*c) for c in on_line])).area < 1e-6
    pit = shape(features["bounds"]["geometry"])  # the pit's outline carries the arena's fields
    assert pit.is_valid and pit.area == pytest.approx(len(arena.cells) * HEX_AREA)
    assert features["bounds"]["properties"]["arena"]["grid"] == {"shape": "hex", "orientation": "pointy"}


def test_battlefield_squares_and_motherships() -> None:
    arena = mothership.default_arena()
    fc = collection(arena)
    squares = [f for f in fc["features"] if f["properties"]["kind"] == "square"]
    assert {(f["properties"]["x"], f["properties"]["y"]) for f in squares} == set(arena.squares)
    assert unary_union([shape(f["geometry"]) for f in squares]).bounds == (0, 0, 3, 5)
    features = {f["id"]: f for f in fc["features"]}
    assert shape(features["M1"]["geometry"]).bounds == (0, -1, 3, 0)  # the row below the battlefield
    assert shape(features["M2-build"]["geometry"]).bounds == (0, 4, 3, 5)
    assert features["M1"]["properties"]["hp"] == 5
