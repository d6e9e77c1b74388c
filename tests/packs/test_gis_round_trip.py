"""GeoJSON through real GIS software (issue 43): GDAL's ``ogr2ogr`` rewrites the export of
every shipped arena of every game, through a GeoPackage and as GeoJSON, and ``arena import``
of what it wrote gives the same arena; every exported geometry is valid for shapely, the
``geojson`` package and GEOS inside GDAL.

What GDAL does to our files (GDAL 3.6, Debian's ``gdal-bin``): through a GeoPackage a text
feature id becomes an ``id`` column on every feature (``start:1`` on a start position), lists
of numbers become text ``(2:7.79,4.5)``, every column is on every feature (null where unset);
GeoJSON to GeoJSON moves ``properties.id`` to the feature's id.  ``-noNativeData`` keeps only
GDAL's feature model (no foreign members), as a program that rebuilds the file from it does;
``-mapFieldType Integer=Real,...`` stores integers and booleans as decimals, as geopandas does
with integer columns that have gaps; ``-nlt PROMOTE_TO_MULTI`` makes every geometry a
single-part MultiPolygon (MultiLineString, MultiPoint), as Shapefile and many GeoPackage
layers are.  Before issue 43 the import refused all but the arenas
the GeoJSON route kept whole (``/start_positions/0/id: unknown property 'id'``,
``/launch_zones/0: 'id' is a required property``) and the rows, zones and Motherships were
self-intersecting MultiPolygons of their cells.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import geojson
import pytest
from shapely.geometry import shape
from shapely.validation import explain_validity
from typer.testing import CliRunner

import schema
import tests.packs.consumers as C
from schema.formats import FormatError, get
from schema.formats.grid_games import grid_profile
from schema.formats.systems import exporting_systems, profile
from schema.ruleset import ruleset
from tests.packs.conftest import ROOT

runner = CliRunner()
needs_gdal = pytest.mark.skipif(C.OGR2OGR is None, reason="GDAL's ogr2ogr is not installed (Debian package gdal-bin; "
                                                            ".ci/run installs it)")
#: Every shipped arena of every game.
ARENAS = sorted((ROOT / "arenas").rglob("*.yaml"))
#: The arena documents' keys that hold the board and its elements (the rest is the arena's own fields).
ELEMENTS = {"bounds", "cells", "squares", "rows", "launch_zones", "motherships",
            *(key for system in exporting_systems() for _, key in profile(system).lists)}
#: Route name -> the ogr2ogr steps: (output suffix, options).
ROUTES: dict[str, list[tuple[str, tuple[str, ...]]]] = {
    "gpkg": [(".gpkg", ()), (".geojson", ())],
    "gpkg-plain": [(".gpkg", ("-noNativeData",)), (".geojson", ("-noNativeData",))],
    "gpkg-decimals": [(".gpkg", ("-noNativeData", "-mapFieldType", "Integer=Real,Integer(Boolean)=Real")),
                      (".geojson", ("-noNativeData",))],
    "gpkg-multi": [(".gpkg", ("-nlt", "PROMOTE_TO_MULTI")), (".geojson", ())],
    "geojson": [(".geojson", ())],
    "geojson-plain": [(".geojson", ("-noNativeData",))],
}


def _id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


def document(arena: Any) -> dict[str, Any]:
    return ruleset(getattr(arena, "system", "gravstrike")).document(arena)


def differences(a: Any, b: Any, path: str = "") -> list[str]:
    """Where two arena documents differ (numbers within 1e-9)."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = [f"{path}/{k}: only in the {'original' if k in a else 'import'}" for k in sorted(set(a) ^ set(b))]
        for k in sorted(set(a) & set(b)):
            out += differences(a[k], b[k], f"{path}/{k}")
        return out
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{path}: {len(a)} items became {len(b)}"]
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in differences(x, y, f"{path}/{i}")]
    if (isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool)
            and not isinstance(b, bool)):
        return [] if math.isclose(a, b, rel_tol=0, abs_tol=1e-9) else [f"{path}: {a!r} became {b!r}"]
    return [] if a == b and type(a) is type(b) else [f"{path}: {a!r} became {b!r}"]


def cli(*args: str) -> Any:
    from app.cli.main import load_commands
    from app.cli.shared import app

    load_commands()
    return runner.invoke(app, list(args), catch_exceptions=False)


def export(path: Path, dest: Path) -> Path:
    r = cli("export", str(path), "--to", "geojson", "-o", str(dest), "-q")
    assert r.exit_code == 0, r.output
    return dest


def through_gdal(src: Path, route: str, tmp: Path) -> Path:
    for n, (suffix, options) in enumerate(ROUTES[route]):
        dst = tmp / f"step{n}{suffix}"
        C.ogr2ogr(src, dst, *options)
        src = dst
    return src


@needs_gdal
@pytest.mark.parametrize("route", list(ROUTES))
@pytest.mark.parametrize("path", ARENAS, ids=_id)
def test_gdal_round_trip_imports_the_same_arena(path: Path, route: str, tmp_path: Path) -> None:
    original = schema.load(path)
    exported = export(path, tmp_path / "x.geojson")
    rewritten = through_gdal(exported, route, tmp_path)
    text = rewritten.read_text(encoding="utf-8")
    assert text != exported.read_text(encoding="utf-8") and '"name": "arena"' in text  # GDAL wrote it
    r = cli("import", str(rewritten), "-o", str(tmp_path / "back.yaml"))
    assert r.exit_code == 0, r.output
    back = schema.load(tmp_path / "back.yaml")
    assert differences(document(original), document(back)) == []
    if route.startswith("gpkg"):  # what GDAL did is in the import report
        assert "accepted as GIS tools write them" in r.output


@needs_gdal
def test_what_gdal_writes_is_what_the_importer_reads(tmp_path: Path) -> None:
    """The GDAL behaviours the importer undoes, seen in GDAL's own output (if a GDAL version
    stops doing one, this says which)."""
    gpkg = through_gdal(export(ROOT / "arenas/car-wars/crossroads-4p.yaml", tmp_path / "cw.geojson"), "gpkg-plain",
                        tmp_path)
    fc = json.loads(gpkg.read_text(encoding="utf-8"))
    start = next(f for f in fc["features"] if f["properties"]["kind"] == "start_position")
    assert start["properties"]["id"] == "start:1" and start["properties"]["position"] == "(2:0,-14.75)"
    assert "arena" not in fc and fc["features"][0]["properties"]["arena"]["system"] == "car-wars-6e"
    (tmp_path / "gj").mkdir()
    pit = through_gdal(export(ROOT / "arenas/glider-pit-gladiators/hexagonal-pit.yaml", tmp_path / "gp.geojson"),
                       "geojson", tmp_path / "gj")
    zone = next(f for f in json.loads(pit.read_text(encoding="utf-8"))["features"]
                if f["properties"]["kind"] == "launch_zone")
    assert zone["id"] == "Z1" and "id" not in zone["properties"]


@needs_gdal
@pytest.mark.parametrize("path", [ROOT / "arenas/car-wars/crossroads-4p.yaml",
                                  ROOT / "arenas/glider-pit-gladiators/hexagonal-pit.yaml",
                                  ROOT / "arenas/mothership-grid/battlefield-3x5.yaml",
                                  ROOT / "arenas/arena-rex/colosseum-30.yaml"], ids=_id)
def test_a_file_that_lost_its_game_imports_with_game(path: Path, tmp_path: Path) -> None:
    """A GIS tool that keeps only some columns (here ``ogr2ogr -select``) drops ``game`` and
    ``arena``: the import says to name the game, and ``--game`` reads it."""
    exported = export(path, tmp_path / "x.geojson")
    columns: list[str] = []
    for f in json.loads(exported.read_text(encoding="utf-8"))["features"]:
        columns += [k for k in f["properties"] if k not in columns and k not in ("game", "arena")]
    bare = tmp_path / "bare.geojson"
    C.ogr2ogr(exported, bare, "-noNativeData", "-select", ",".join(columns))
    assert '"game"' not in bare.read_text(encoding="utf-8")
    original = schema.load(path)
    r = cli("import", str(bare), "-o", str(tmp_path / "a.yaml"))
    assert r.exit_code == 1 and f"--game {original.system}" in r.output, r.output
    r = cli("import", str(bare), "-o", str(tmp_path / "a.yaml"), "--game", original.system)
    assert r.exit_code == 0, r.output
    assert "no arena fields" in r.output
    back = schema.load(tmp_path / "a.yaml")
    assert back.system == original.system
    elements = {k: v for k, v in document(original).items() if k in ELEMENTS}
    # the elements come back; the arena's own fields (name, scenario...) take their defaults
    assert differences(elements, {k: document(back)[k] for k in elements}) == []


def test_game_on_the_command_line_must_match_the_file(tmp_path: Path) -> None:
    exported = export(ROOT / "arenas/default.yaml", tmp_path / "x.geojson")
    r = cli("import", str(exported), "-o", str(tmp_path / "a.yaml"), "--game", "car-wars-6e")
    assert r.exit_code == 1 and "a gravstrike arena (properties.arena of /features/0), not car-wars-6e" in r.output
    r = cli("import", str(exported), "-o", str(tmp_path / "a.yaml"), "--game", "chess")
    assert r.exit_code == 2 and "--game 'chess': unknown game" in r.output
    tmx = tmp_path / "x.tmj"
    assert cli("export", str(ROOT / "arenas/default.yaml"), "--to", "tiled", "-o", str(tmx), "-q").exit_code == 0
    r = cli("import", str(tmx), "-o", str(tmp_path / "b.yaml"), "--game", "gravstrike")
    assert r.exit_code == 2 and "--game is for GeoJSON files" in r.output


def _features(path: Path) -> dict[str, Any]:
    return json.loads(get("geojson").write(schema.load(path)).data)


def test_unreadable_gdal_lists_and_json_name_the_feature() -> None:
    fc = _features(ROOT / "arenas/default.yaml")
    start = next(f for f in fc["features"] if f["properties"]["kind"] == "start_position")
    start["properties"]["position"] = "(3:7.79,4.5)"
    with pytest.raises(FormatError, match=r"x.geojson: /features/\d+ \('start:1'\): properties.position: GDAL list "
                                          r"text '\(3:7.79,4.5\)' says 3 item\(s\) but holds 2"):
        get("geojson").read(json.dumps(fc).encode(), source="x.geojson")
    start["properties"]["position"] = "(2:7.79,east)"
    with pytest.raises(FormatError, match=r"\('start:1'\): properties.position: .*'east' is not a number"):
        get("geojson").read(json.dumps(fc).encode(), source="x.geojson")
    pit = _features(ROOT / "arenas/glider-pit-gladiators/hexagonal-pit.yaml")
    zone = next(f for f in pit["features"] if f["properties"]["kind"] == "launch_zone")
    zone["properties"]["cells"] = "[[-9, 8], [-9, 7"
    with pytest.raises(FormatError, match=r"/features/\d+ \('Z1'\): properties.cells: '\[\[-9, 8\], \[-9, 7' is neither "
                                          "a JSON value nor a GDAL list text"):
        get("geojson").read(json.dumps(pit).encode(), source="x.geojson")
    zone["properties"]["cells"] = json.dumps([[-9, 8], [-9, 7], [-9, 6], [-9, 5], [-9, 4]])  # JSON text: read
    assert get("geojson").read(json.dumps(pit).encode()) == schema.load(ROOT / "arenas/glider-pit-gladiators/hexagonal-pit.yaml")


def test_files_with_the_arena_member_of_earlier_exports_still_import() -> None:
    """Exports before issue 43 kept the arena's fields in the foreign member ``arena`` and named
    no game in the features."""
    for path in (ROOT / "arenas/car-wars/crossroads-4p.yaml", ROOT / "arenas/mothership-grid/battlefield-3x5.yaml"):
        fc = _features(path)
        fc["arena"] = fc["features"][0]["properties"].pop("arena")
        for f in fc["features"]:
            f["properties"].pop("game")
        if grid_profile(fc["arena"]["system"]) is not None:  # grid exports had no bounds feature
            fc["features"] = [f for f in fc["features"] if f["id"] != "bounds"]
        assert get("geojson").read(json.dumps(fc).encode()) == schema.load(path)


def test_a_pit_without_its_grid_settings_keeps_its_orientation() -> None:
    from dataclasses import replace

    from schema.games import gliderpit

    arena = replace(gliderpit.default_arena(), orientation="flat")  # type: ignore[arg-type]
    fc = json.loads(get("geojson").write(arena).data)
    fc["features"][0]["properties"].pop("arena")
    warnings: list[str] = []
    back = get("geojson").read(json.dumps(fc).encode(), warnings=warnings)
    assert back.orientation == "flat" and back.cells == arena.cells
    assert any("the hexes are flat-topped" in w for w in warnings)


# ------------------------------------------------------------------ valid geometries


@pytest.mark.parametrize("path", ARENAS, ids=_id)
def test_every_exported_geometry_is_valid(path: Path, tmp_path: Path) -> None:
    """Rows, launch zones, Motherships and build squares were MultiPolygons of cells sharing
    edges ("Self-intersection" for shapely, QGIS and PostGIS); now every geometry is valid for
    shapely and, through a GeoPackage, for GEOS inside GDAL."""
    data = get("geojson").write(schema.load(path)).data
    assert geojson.loads(data.decode()).is_valid
    fc = json.loads(data)
    bad = [(f.get("id"), explain_validity(shape(f["geometry"]))) for f in fc["features"]
           if not shape(f["geometry"]).is_valid]
    assert bad == []
    if C.OGR2OGR is None or C.OGRINFO is None:
        pytest.skip("GDAL's ogr2ogr/ogrinfo are not installed (Debian package gdal-bin): shapely's check ran")
    src = tmp_path / "x.geojson"
    src.write_bytes(data)
    C.ogr2ogr(src, tmp_path / "x.gpkg")
    counts = C.gdal_validity(tmp_path / "x.gpkg")
    if counts is None:
        pytest.skip("this GDAL has no ST_IsValid (built without GEOS): shapely's check ran")
    assert counts == (len(fc["features"]), len(fc["features"]))


def test_an_id_column_on_a_start_and_games_that_disagree() -> None:
    fc = _features(ROOT / "arenas/default.yaml")
    start = next(f for f in fc["features"] if f["properties"]["kind"] == "start_position")
    start["properties"]["id"] = "pole"  # a start position has no id: said, not kept
    warnings: list[str] = []
    assert get("geojson").read(json.dumps(fc).encode(), warnings=warnings) == schema.load(ROOT / "arenas/default.yaml")
    assert any("properties.id 'pole' ignored: a start position has no id" in w for w in warnings)
    start["properties"]["game"] = "car-wars-6e"
    with pytest.raises(FormatError, match=r"/features/\d+: properties.game 'car-wars-6e' is not 'gravstrike' "
                                          r"\(properties.game of /features/0\): one file holds one arena of one game"):
        get("geojson").read(json.dumps(fc).encode())
