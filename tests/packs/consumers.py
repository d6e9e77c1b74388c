"""Other people's readers of our exports, used by the consumer tests (never our own readers).

- SVG: CairoSVG (cairo, not Qt) rasterises an SVG; :func:`image_difference` compares it with
  the Qt render of the same arena.
- Tiled: PyTMX (``.tmx``) and pytiled-parser (``.tmx`` and ``.tmj``) load the maps; Tiled
  itself (``tiled --export-map``, Debian's ``tiled`` package) re-saves them when installed.
- GeoJSON: the ``geojson`` package's validation; GDAL (Debian's ``gdal-bin``): ``ogr2ogr``
  rewrites our collections through a GeoPackage or as GeoJSON, as GIS tools do, and ``ogrinfo``
  asks GEOS (``ST_IsValid`` in the GeoPackage's SQL) whether each geometry is valid.
- Foundry VTT: the v13 data model's field types and enums for the scene, wall, region (and
  region shapes) and note documents, written down once here as :data:`FOUNDRY_V13` and checked
  by :func:`foundry_problems`.  Source: the ``defineSchema`` of ``BaseScene``, ``BaseWall``,
  ``BaseRegion``, ``BaseNote``, ``TextureData`` and the ``*ShapeData`` classes of Foundry
  v13 (schema version 13.341) and ``CONST`` (``GRID_MIN_SIZE`` = 20, ``WALL_SENSE_TYPES``...),
  as typed by the League of Foundry Developers' foundry-vtt-types.
- Foundry's UVTT importer: :func:`dd_import` ports the reading code of moo-man/FVTT-DD-Import
  (the "Universal Battlemap Importer" module) with its default options: the walls, scene size,
  grid and picture placement it makes from a ``.dd2vtt``/``.uvtt`` file.
"""

from __future__ import annotations

import base64
import copy
import math
import os
import re
import shutil
import struct
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

# ------------------------------------------------------------------ images


def png_array(data: bytes) -> np.ndarray:
    """RGB pixels of a PNG (decoded by Qt's image reader, composited on white)."""
    from PySide6.QtGui import QColor, QImage, QPainter

    src = QImage()
    assert src.loadFromData(data), "not a PNG"
    img = QImage(src.size(), QImage.Format.Format_RGBA8888)
    img.fill(QColor("white"))
    p = QPainter(img)
    p.drawImage(0, 0, src)
    p.end()
    w, h = img.width(), img.height()
    buf = np.frombuffer(img.constBits(), np.uint8, count=img.sizeInBytes()).reshape(h, img.bytesPerLine())
    return buf[:, : w * 4].reshape(h, w, 4)[..., :3].astype(np.int16)


def cairo_png(svg: bytes, width: int, height: int) -> bytes:
    """The SVG rasterised by CairoSVG at ``width`` x ``height`` pixels, on white."""
    import cairosvg

    data: bytes = cairosvg.svg2png(bytestring=svg, output_width=width, output_height=height,
                                   background_color="white")
    return data


def image_difference(a: np.ndarray, b: np.ndarray, block: int = 4) -> tuple[float, float]:
    """(mean absolute difference per pixel, share of ``block`` x ``block`` blocks whose average
    colour differs by more than 40 of 255): fonts and antialiasing differ a little between
    renderers, misplaced or wrongly sized drawing differs a lot."""
    h, w = min(a.shape[0], b.shape[0]), min(a.shape[1], b.shape[1])
    a, b = a[:h, :w].astype(float), b[:h, :w].astype(float)
    mean = float(np.abs(a - b).max(axis=2).mean())
    hh, ww = h // block * block, w // block * block

    def blocks(x: np.ndarray) -> np.ndarray:
        return x[:hh, :ww].reshape(hh // block, block, ww // block, block, 3).mean(axis=(1, 3))

    share = float((np.abs(blocks(a) - blocks(b)).max(axis=2) > 40).mean())
    return mean, share


# ------------------------------------------------------------------ GDAL

OGR2OGR = shutil.which("ogr2ogr")
OGRINFO = shutil.which("ogrinfo")
#: GDAL's output format by the file's extension.
GDAL_FORMATS = {".gpkg": "GPKG", ".geojson": "GeoJSON", ".json": "GeoJSON"}


def ogr2ogr(src: Path, dst: Path, *options: str) -> None:
    """GDAL's ``ogr2ogr`` converts ``src`` into ``dst`` (GeoPackage or GeoJSON by dst's
    extension), one layer named ``arena``; ``options`` go before the file names."""
    assert OGR2OGR is not None
    cmd = [OGR2OGR, "-f", GDAL_FORMATS[dst.suffix], "-nln", "arena", *options, str(dst), str(src)]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and dst.exists(), f"ogr2ogr {src.name} -> {dst.name} failed: {r.stderr}"


def gdal_validity(gpkg: Path) -> tuple[int, int] | None:
    """(valid, total) geometries of the ``arena`` layer of a GeoPackage by GEOS's
    ``ST_IsValid`` through ``ogrinfo``; None when this GDAL has no ``ST_IsValid`` (built
    without GEOS)."""
    assert OGRINFO is not None
    sql = "SELECT SUM(ST_IsValid(geom)) AS valid, COUNT(*) AS total FROM arena"
    r = subprocess.run([OGRINFO, "-ro", "-q", str(gpkg), "-sql", sql], capture_output=True, text=True, timeout=120)
    found = dict(re.findall(r"(valid|total) \(Integer(?:64)?\) = (\d+)", r.stdout))
    if r.returncode != 0 or set(found) != {"valid", "total"}:
        return None
    return int(found["valid"]), int(found["total"])


# ------------------------------------------------------------------ Tiled

TILED = shutil.which("tiled")


def tiled_resave(src: Path, dst: Path) -> None:
    """Tiled 1.8+ opens ``src`` and writes ``dst`` in the format of dst's extension."""
    assert TILED is not None
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    fmt = "tmx" if dst.suffix == ".tmx" else "json"
    r = subprocess.run([TILED, "--export-map", fmt, str(src), str(dst)], env=env, capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0 and dst.exists(), f"Tiled could not open {src.name}: {r.stderr}"


def pytmx_objects(path: Path) -> dict[str, Any]:
    """PyTMX's objects of a ``.tmx`` map by name (it refuses maps with reserved property names)."""
    import logging

    import pytmx

    logging.getLogger("pytmx").setLevel(logging.CRITICAL)
    tmap = pytmx.TiledMap(str(path))
    return {o.name: o for o in tmap.objects}


def pytiled_objects(path: Path) -> dict[str, Any]:
    """pytiled-parser's objects of a ``.tmx`` or ``.tmj`` map by name."""
    import pytiled_parser

    tmap = pytiled_parser.parse_map(path)
    return {o.name: o for layer in tmap.layers for o in getattr(layer, "tiled_objects", [])}


# ------------------------------------------------------------------ Foundry VTT v13

INT, NUM, STR, BOOL, LIST, OBJ = "integer", "number", "string", "boolean", "array", "object"
WALL_SENSE_TYPES = {0, 10, 20, 30, 40}  # NONE, LIMITED, NORMAL, PROXIMITY, DISTANCE
WALL_MOVEMENT_TYPES = {0, 20}  # NONE, NORMAL
WALL_DIRECTIONS = {0, 1, 2}  # BOTH, LEFT, RIGHT
WALL_DOOR_TYPES = {0, 1, 2}  # NONE, DOOR, SECRET
WALL_DOOR_STATES = {0, 1, 2}  # CLOSED, OPEN, LOCKED
GRID_TYPES = {0, 1, 2, 3, 4, 5}  # GRIDLESS, SQUARE, HEXODDR, HEXEVENR, HEXODDQ, HEXEVENQ
GRID_MIN_SIZE = 20
TEXT_ANCHOR_POINTS = {0, 1, 2, 3, 4}  # CENTER, BOTTOM, TOP, LEFT, RIGHT
REGION_VISIBILITY = {0, 1, 2}  # LAYER, GAMEMASTER, ALWAYS
TEXTURE_DATA_FIT_MODES = {"fill", "contain", "cover", "width", "height"}
COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")

#: field -> (type, constraints) per document; constraints: choices, min, max, positive,
#: required, nullable, len (array length), color.
FOUNDRY_V13: dict[str, dict[str, tuple[str, dict[str, Any]]]] = {
    "Scene": {
        "name": (STR, {"required": True, "blank": False}),
        "navigation": (BOOL, {}),
        "width": (INT, {"positive": True}),
        "height": (INT, {"positive": True}),
        "padding": (NUM, {"min": 0, "max": 0.5}),
        "backgroundColor": (STR, {"color": True}),
        "tokenVision": (BOOL, {}),
        "background": (OBJ, {"required": True}),
        "grid": (OBJ, {"required": True}),
        "walls": (LIST, {}), "regions": (LIST, {}), "notes": (LIST, {}), "lights": (LIST, {}), "tokens": (LIST, {}),
        "drawings": (LIST, {}), "tiles": (LIST, {}), "sounds": (LIST, {}), "flags": (OBJ, {}),
    },
    "Grid": {
        "type": (INT, {"required": True, "choices": GRID_TYPES}),
        "size": (INT, {"required": True, "min": GRID_MIN_SIZE}),
        "distance": (NUM, {"required": True, "positive": True}),
        "units": (STR, {"required": True}),
        "color": (STR, {"color": True}),
        "alpha": (NUM, {"min": 0, "max": 1}),
    },
    "TextureData": {
        "src": (STR, {"required": True, "nullable": True}),
        "anchorX": (NUM, {}), "anchorY": (NUM, {}),
        "offsetX": (INT, {}), "offsetY": (INT, {}),
        "fit": (STR, {"choices": TEXTURE_DATA_FIT_MODES}),
        "scaleX": (NUM, {}), "scaleY": (NUM, {}), "rotation": (NUM, {}),
    },
    "Wall": {
        "c": (LIST, {"required": True, "len": 4, "items": INT}),
        "move": (INT, {"required": True, "choices": WALL_MOVEMENT_TYPES}),
        "sight": (INT, {"required": True, "choices": WALL_SENSE_TYPES}),
        "light": (INT, {"required": True, "choices": WALL_SENSE_TYPES}),
        "sound": (INT, {"required": True, "choices": WALL_SENSE_TYPES}),
        "dir": (INT, {"choices": WALL_DIRECTIONS}),
        "door": (INT, {"choices": WALL_DOOR_TYPES}),
        "ds": (INT, {"choices": WALL_DOOR_STATES}),
        "flags": (OBJ, {}),
    },
    "Region": {
        "name": (STR, {"required": True, "blank": False}),
        "color": (STR, {"required": True, "color": True}),
        "shapes": (LIST, {"required": True}),
        "elevation": (OBJ, {}),
        "behaviors": (LIST, {}),
        "visibility": (INT, {"required": True, "choices": REGION_VISIBILITY}),
        "locked": (BOOL, {}),
        "flags": (OBJ, {}),
    },
    "rectangle": {"x": (NUM, {"required": True}), "y": (NUM, {"required": True}),
                  "width": (NUM, {"required": True, "positive": True}), "height": (NUM, {"required": True, "positive": True}),
                  "rotation": (NUM, {}), "hole": (BOOL, {})},
    "circle": {"x": (NUM, {"required": True}), "y": (NUM, {"required": True}),
               "radius": (NUM, {"required": True, "positive": True}), "hole": (BOOL, {})},
    "ellipse": {"x": (NUM, {"required": True}), "y": (NUM, {"required": True}),
                "radiusX": (NUM, {"required": True, "positive": True}), "radiusY": (NUM, {"required": True, "positive": True}),
                "rotation": (NUM, {}), "hole": (BOOL, {})},
    "polygon": {"points": (LIST, {"required": True, "items": NUM, "min_len": 6, "even": True}), "hole": (BOOL, {})},
    "Note": {
        "x": (INT, {"required": True}), "y": (INT, {"required": True}),
        "entryId": (STR, {"nullable": True}), "pageId": (STR, {"nullable": True}),
        "text": (STR, {}),
        "texture": (OBJ, {}),
        "iconSize": (INT, {"min": 32}),
        "fontSize": (INT, {"min": 8, "max": 128}),
        "textAnchor": (INT, {"choices": TEXT_ANCHOR_POINTS}),
        "global": (BOOL, {}),
        "flags": (OBJ, {}),
    },
}


def _type_ok(value: Any, kind: str) -> bool:
    if kind == INT:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == NUM:
        return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    return isinstance(value, {STR: str, BOOL: bool, LIST: list, OBJ: dict}[kind])


def _check(doc: Any, model: str, where: str) -> list[str]:
    if not isinstance(doc, dict):
        return [f"{where}: a {model} is an object"]
    out = []
    for field, (kind, c) in FOUNDRY_V13[model].items():
        if field not in doc:
            if c.get("required"):
                out.append(f"{where}.{field}: required")
            continue
        v = doc[field]
        if v is None:
            if not c.get("nullable"):
                out.append(f"{where}.{field}: may not be null")
            continue
        if not _type_ok(v, kind):
            out.append(f"{where}.{field}: {v!r} is not a {kind}")
            continue
        if "choices" in c and v not in c["choices"]:
            out.append(f"{where}.{field}: {v!r} is not one of {sorted(c['choices'])}")
        if "min" in c and v < c["min"] or "max" in c and v > c["max"] or c.get("positive") and v <= 0:
            out.append(f"{where}.{field}: {v!r} is out of range")
        if c.get("blank") is False and v == "":
            out.append(f"{where}.{field}: may not be blank")
        if c.get("color") and not COLOR.match(v):
            out.append(f"{where}.{field}: {v!r} is not a #rrggbb colour")
        if kind == LIST and "items" in c:
            if "len" in c and len(v) != c["len"] or "min_len" in c and len(v) < c["min_len"] or c.get("even") and len(v) % 2:
                out.append(f"{where}.{field}: wrong length {len(v)}")
            out += [f"{where}.{field}[{i}]: {x!r} is not a {c['items']}" for i, x in enumerate(v) if not _type_ok(x, c["items"])]
    return out


def foundry_problems(scene: dict[str, Any]) -> list[str]:
    """Every way ``scene`` breaks Foundry v13's data model (empty when Foundry would accept it)."""
    out = _check(scene, "Scene", "scene")
    out += _check(scene.get("grid"), "Grid", "scene.grid")
    out += _check(scene.get("background"), "TextureData", "scene.background")
    for i, w in enumerate(scene.get("walls", [])):
        out += _check(w, "Wall", f"walls[{i}]")
        if isinstance(w, dict) and isinstance(w.get("c"), list) and w["c"][:2] == w["c"][2:]:
            out.append(f"walls[{i}].c: a wall of zero length")
    for i, r in enumerate(scene.get("regions", [])):
        out += _check(r, "Region", f"regions[{i}]")
        for j, s in enumerate(r.get("shapes", []) if isinstance(r, dict) else []):
            t = s.get("type") if isinstance(s, dict) else None
            out += [f"regions[{i}].shapes[{j}]: unknown shape type {t!r}"] if t not in FOUNDRY_V13 else \
                _check(s, t, f"regions[{i}].shapes[{j}]")
    for i, n in enumerate(scene.get("notes", [])):
        out += _check(n, "Note", f"notes[{i}]")
    return out


# ------------------------------------------------------------------ Foundry's UVTT importer

#: The importer ported below: ``ddimport.js`` and ``importer.hbs`` of moo-man/FVTT-DD-Import at
#: this commit (module version 6.0.1, 2026-04-27, Foundry v14).
DDIMPORT = "moo-man/FVTT-DD-Import@36dcf5a43bc584629f046c69d8b1bc6059372745"
#: The import form's defaults (importer.hbs, ``_prepareContext`` and the ``importSettings``
#: setting): fidelity slider ``value="1"``; offset ``settings.offset || 0`` (setting default
#: 0.0); padding ``settings.padding || 0.25``; layout "l" (Levels: ``_handleImport``); "Set
#: Custom Grid PPI" unchecked.
DD_FIDELITY, DD_OFFSET, DD_PADDING = 1, 0.0, 0.25
#: Foundry's ``BaseScene`` ``grid.size`` initial value: ``_initializeSceneData`` passes
#: ``grid: {size: undefined}`` unless a custom grid PPI is set, so the scene gets this.
FOUNDRY_DEFAULT_GRID = 100


@dataclass
class DDImportScene:
    """What FVTT-DD-Import's default mode makes of a UVTT file: the Scene's ``width``,
    ``height``, ``padding`` and ``grid_size``, ``getDimensions()``'s ``scene_x``/``scene_y``
    (where the map starts inside the padded canvas), the walls' ``c`` as the WallDocuments
    keep them, the size of the picture in the file (``image``) and of the canvas the importer
    draws it into and uploads as the level's background (``upload``)."""

    width: int
    height: int
    padding: float
    grid_size: int
    scene_x: int
    scene_y: int
    walls: list[list[int]]
    doors: list[dict[str, Any]]
    image: tuple[int, int]
    upload: tuple[int, int]

    @property
    def stretch(self) -> tuple[float, float]:
        """How much the importer scales the picture (x, y) when it draws it into the upload."""
        return self.upload[0] / self.image[0], self.upload[1] / self.image[1]

    def picture_to_scene(self, u: float, v: float) -> tuple[float, float]:
        """Scene pixel of the file's picture pixel (u, v): the importer draws the picture over
        its whole upload canvas (``drawImage(image, 0, 0, width, height)``) and Foundry draws
        the level background over the scene rectangle (sceneX, sceneY, width, height; texture
        ``fit`` "fill", the TextureData default)."""
        return (self.scene_x + u * self.width / self.image[0], self.scene_y + v * self.height / self.image[1])

    def scene_to_picture(self, x: float, y: float) -> tuple[float, float]:
        return ((x - self.scene_x) * self.image[0] / self.width, (y - self.scene_y) * self.image[1] / self.height)


def _js_round(v: float) -> int:
    """JavaScript's Math.round (halves up), as Foundry's integer NumberField cleans ``c``."""
    return math.floor(v + 0.5)


def _dd_distance(p1: dict[str, float], p2: dict[str, float]) -> float:
    # DDImporter.distance: Math.sqrt(Math.pow((p1.x - p2.x), 2) + Math.pow((p1.y - p2.y), 2))
    return math.sqrt((p1["x"] - p2["x"]) ** 2 + (p1["y"] - p2["y"]) ** 2)


def dd_preprocess_walls(wall_set: list[dict[str, float]], num_to_skip: int) -> list[dict[str, float]]:
    """``DDImporter.preprocessWalls``: marks interior points followed by a segment shorter than
    0.3 grid units, keeping every ``num_to_skip + 1``-th of a run, then removes the marked ones
    from the last down to the second (``for (i = toRemove.length - 1; i > 0; i--)``: the first
    marked point stays).  In place, like ``splice``."""
    to_remove: list[int] = []
    skip_counter = 0
    for i in range(len(wall_set) - 2):
        if i != 0 and i != len(wall_set) - 2 and _dd_distance(wall_set[i], wall_set[i + 1]) < 0.3:
            if skip_counter == num_to_skip:
                skip_counter = 0
            else:
                skip_counter += 1
                to_remove.append(i)
        else:
            skip_counter = 0
    for i in range(len(to_remove) - 1, 0, -1):
        del wall_set[to_remove[i]]
    return wall_set


def dd_is_within_map(file: dict[str, Any], position: dict[str, float]) -> bool:
    """``DDImporter.isWithinMap``."""
    res = file["resolution"]
    ox, oy = res["map_origin"]["x"], res["map_origin"]["y"]
    sx, sy = res["map_size"]["x"], res["map_size"]["y"]
    return bool(ox <= position["x"] <= ox + sx and oy <= position["y"] <= oy + sy)


def _dd_make_wall(file: dict[str, Any], scene_x: int, scene_y: int, a: dict[str, float], b: dict[str, float],
                  ppg: float) -> list[int]:
    """``DDImporter.makeWall``: ``new WallDocument({c: [...]})``, whose integer NumberFields
    round each coordinate (``_cleanType``: ``Math.round``); no other check on ``c`` than its
    length (a zero-length wall is accepted)."""
    ox, oy = file["resolution"]["map_origin"]["x"], file["resolution"]["map_origin"]["y"]
    c = [(a["x"] - ox) * ppg + scene_x, (a["y"] - oy) * ppg + scene_y,
         (b["x"] - ox) * ppg + scene_x, (b["y"] - oy) * ppg + scene_y]
    return [_js_round(v) for v in c]


def dd_get_walls(file: dict[str, Any], scene_x: int, scene_y: int, skip_num: int, offset: float,
                 ppg: float) -> list[list[int]]:
    """``DDImporter.GetWalls``: every ``line_of_sight`` polyline (never
    ``objects_line_of_sight``), simplified by :func:`dd_preprocess_walls`, one wall per
    segment kept if either end is within the map, plus a wall from a polyline's last point to
    each other polyline starting there and from each polyline ending at its first point."""
    if offset != 0:
        raise NotImplementedError("the port covers the default offset 0 (makeOffsetWalls is not ported)")
    walls: list[list[int]] = []
    dd_walls = file["line_of_sight"]
    for ws_index in range(len(dd_walls)):
        wall_set = dd_walls[ws_index]
        connect_to: list[dict[str, float]] = []
        connected_to: list[dict[str, float]] = []
        for i in range(len(dd_walls)):
            if i == ws_index:
                continue
            last, other = wall_set[-1], dd_walls[i]
            if last["x"] == other[0]["x"] and last["y"] == other[0]["y"]:
                connect_to.append(other[0])
            if wall_set[0]["x"] == other[-1]["x"] and wall_set[0]["y"] == other[-1]["y"]:
                connected_to.append(wall_set[0])
        wall_set = dd_preprocess_walls(wall_set, skip_num)
        for p in connected_to:
            if dd_is_within_map(file, p) or dd_is_within_map(file, wall_set[0]):
                walls.append(_dd_make_wall(file, scene_x, scene_y, p, wall_set[0], ppg))
        for i in range(len(wall_set) - 1):
            if dd_is_within_map(file, wall_set[i]) or dd_is_within_map(file, wall_set[i + 1]):
                walls.append(_dd_make_wall(file, scene_x, scene_y, wall_set[i], wall_set[i + 1], ppg))
        for p in connect_to:
            if dd_is_within_map(file, wall_set[-1]) or dd_is_within_map(file, p):
                walls.append(_dd_make_wall(file, scene_x, scene_y, wall_set[-1], p, ppg))
    return walls


def dd_get_doors(file: dict[str, Any], scene_x: int, scene_y: int, ppg: float) -> list[dict[str, Any]]:
    """``DDImporter.GetDoors`` (offset 0; "Openable Windows" off): a door wall per portal."""
    doors = []
    for door in file["portals"]:
        a, b = door["bounds"][0], door["bounds"][1]
        doors.append({"c": _dd_make_wall(file, scene_x, scene_y, a, b, ppg), "door": 1 if door["closed"] else 0,
                      "sight": 20 if door["closed"] else 30, "light": 20 if door["closed"] else 30})
    return doors


def _dd_image_size(data: bytes) -> tuple[int, int]:
    """The picture's pixel size as the browser decodes it (PNG, the only kind we write)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", "the importer's browser decodes PNG here"
    w, h = struct.unpack(">II", data[16:24])
    return int(w), int(h)


def dd_import(file: dict[str, Any], fidelity: int = DD_FIDELITY, offset: float = DD_OFFSET,
              padding: float = DD_PADDING) -> DDImportScene:
    """One UVTT file through FVTT-DD-Import's default mode (``_handleImport`` with one level):
    ``_getLargestDimensions`` (width ``map_size.x * pixels_per_grid``, height ``map_size.y *
    pixels_per_grid``), ``_initializeSceneData`` (no grid size: Foundry's 100 px),
    ``_addLevelData`` (walls and doors against ``new Scene(...).getDimensions()``, at
    ``pixels_per_grid`` px per grid unit, fidelity ``6 - fidelity`` skips) and
    ``_uploadLevelImages`` (a canvas ``map_size.x * pixels_per_grid`` px wide **and high**, the
    picture drawn stretched over all of it).  Lights are not ported (we write none)."""
    file = copy.deepcopy(file)  # preprocessWalls splices the file's own arrays
    assert not file.get("lights"), "lights are not ported"
    res = file["resolution"]
    ppg = res["pixels_per_grid"]
    width, height = res["map_size"]["x"] * ppg, res["map_size"]["y"] * ppg
    grid = FOUNDRY_DEFAULT_GRID
    # SquareGrid#calculateDimensions; Scene#getDimensions: sceneX = x - background.offsetX (0)
    scene_x = math.ceil((padding * width) * (1 / grid)) * grid
    scene_y = math.ceil((padding * height) * (1 / grid)) * grid
    walls = dd_get_walls(file, scene_x, scene_y, 6 - fidelity, offset, ppg)
    doors = dd_get_doors(file, scene_x, scene_y, ppg)
    side = res["map_size"]["x"] * ppg  # `let height = res.map_size.x * res.pixels_per_grid;` (sic)
    image = _dd_image_size(base64.b64decode(file["image"]))
    return DDImportScene(int(width), int(height), padding, grid, int(scene_x), int(scene_y), walls, doors, image,
                         (int(side), int(side)))

# ------------------------------------------------------------------ PDF (qpdf, poppler)


def qpdf_problems(data: bytes) -> list[str]:
    """What qpdf's syntax check (``qpdf --check``, through pikepdf) finds wrong with a PDF:
    damaged or misplaced cross-reference entries, unreadable objects or streams."""
    import io

    import pikepdf

    with pikepdf.open(io.BytesIO(data)) as pdf:
        problems: list[str] = pdf.check_pdf_syntax()
        return problems


def qpdf_font_subsets(data: bytes) -> list[tuple[str, str, bytes]]:
    """(descriptor ``/FontName``, ``/BaseFont``, raw bytes of the embedded font program) of every
    font the pages use, as qpdf reads them (pikepdf): one entry per font object."""
    import io

    import pikepdf

    out: dict[tuple[int, int], tuple[str, str, bytes]] = {}
    with pikepdf.open(io.BytesIO(data)) as pdf:
        for page in pdf.pages:
            fonts = page.obj.get("/Resources", {}).get("/Font", {})
            for key in fonts.keys():
                font = fonts[key]
                leaf = font.DescendantFonts[0] if "/DescendantFonts" in font else font
                desc = leaf.FontDescriptor
                program = next(desc[k] for k in ("/FontFile2", "/FontFile", "/FontFile3") if k in desc)
                out[font.objgen] = (str(desc.FontName), str(font.BaseFont), program.read_raw_bytes())
    return list(out.values())
