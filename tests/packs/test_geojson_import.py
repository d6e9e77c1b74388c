"""GeoJSON files that GIS tools rewrote, and geometry an arena cannot take (issue 17)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import schema
from schema.formats import FormatError, get
from schema.model import Circle
from tests.packs.conftest import SHIPPED

runner = CliRunner()


def gis_rewrite(fc: dict[str, Any]) -> dict[str, Any]:
    """What geopandas (to_file/read_file through a GeoPackage) and ogr2ogr do to our files:
    foreign members dropped and a ``crs`` member added; a table with every column on every
    feature (null where unset); booleans stored as 0/1 and whole numbers read back as floats;
    nested values as JSON text; feature ids dropped; exterior rings written clockwise."""
    columns: list[str] = []
    for f in fc["features"]:
        columns += [k for k in f["properties"] if k not in columns]
    features = []
    for f in fc["features"]:
        props: dict[str, Any] = {}
        for c in columns:
            v = f["properties"].get(c)
            if isinstance(v, bool):
                v = float(v)
            elif isinstance(v, int):
                v = float(v)
            elif isinstance(v, (dict, list)):
                v = json.dumps(v)
            props[c] = v
        geom = copy.deepcopy(f["geometry"])
        if geom["type"] == "Polygon":
            geom["coordinates"] = [ring[::-1] for ring in geom["coordinates"]]
        features.append({"type": "Feature", "properties": props, "geometry": geom})
    return {"type": "FeatureCollection", "name": "arena",
            "crs": {"type": "name", "properties": {"name": "urn:ogc:def:crs:OGC:1.3:CRS84"}}, "features": features}


def _fc(arena: schema.Arena) -> dict[str, Any]:
    return json.loads(get("geojson").write(arena).data)


def _read(fc: dict[str, Any], warnings: list[str] | None = None) -> schema.Arena:
    return get("geojson").read(json.dumps(fc).encode(), source="gis.geojson", warnings=warnings)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_files_rewritten_by_gis_tools_import_with_a_report(path: Path) -> None:
    arena = schema.load(path)
    warnings: list[str] = []
    back = _read(gis_rewrite(_fc(arena)), warnings)
    for key in ("bounds", "walls", "checkpoints", "gates", "acceleration_fields", "exclusion_fields", "static_targets",
                "start_positions"):
        assert getattr(back, key) == getattr(arena, key), key
    text = "\n".join(warnings)
    assert "null properties read as not set" in text and "whole-number decimals read as integers" in text
    assert "JSON text read as structured values" in text
    assert "no \"arena\" member (GIS tools drop it)" in text and back.name == "gis"
    if any(c.decaying is not None for c in arena.checkpoints):
        assert "0/1 values read as booleans" in text


def test_cli_reports_what_it_reinterpreted(tmp_path: Path) -> None:
    from validators.cli import load_commands
    from validators.cli_app import app

    load_commands()
    src = tmp_path / "from-qgis.geojson"
    src.write_text(json.dumps(gis_rewrite(_fc(schema.load(SHIPPED[0])))))
    r = runner.invoke(app, ["import", str(src), "-o", str(tmp_path / "a.yaml")], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    assert "warning: " in r.output and "accepted as GIS tools write them" in r.output


def test_a_polygon_hole_is_refused_not_dropped(default_arena: schema.Arena) -> None:
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


def test_multipart_geometry_is_refused(default_arena: schema.Arena) -> None:
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


def test_a_circle_edited_in_a_gis_comes_back_as_a_circle(default_arena: schema.Arena) -> None:
    fc = _fc(default_arena)
    a = next(f for f in fc["features"] if f["properties"].get("id") == "A")
    a["geometry"]["coordinates"] = [[[x - 1.0, y + 0.5] for x, y in a["geometry"]["coordinates"][0]]]  # moved in QGIS
    warnings: list[str] = []
    back = _read(fc, warnings)
    shape = back.element("A").shape
    assert isinstance(shape, Circle) and shape.center == pytest.approx((9.2, 0.5)) and shape.radius == pytest.approx(0.9)
    assert any("48-point polygon (a circle) read back as the circle" in w for w in warnings)
