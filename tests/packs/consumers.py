"""Other people's readers of our exports, used by the consumer tests (never our own readers).

- SVG: CairoSVG (cairo, not Qt) rasterises an SVG; :func:`image_difference` compares it with
  the Qt render of the same arena.
- Tiled: PyTMX (``.tmx``) and pytiled-parser (``.tmx`` and ``.tmj``) load the maps; Tiled
  itself (``tiled --export-map``, Debian's ``tiled`` package) re-saves them when installed.
- GeoJSON: the ``geojson`` package's validation.
- Foundry VTT: the v13 data model's field types and enums for the scene, wall, region (and
  region shapes) and note documents, written down once here as :data:`FOUNDRY_V13` and checked
  by :func:`foundry_problems`.  Source: the ``defineSchema`` of ``BaseScene``, ``BaseWall``,
  ``BaseRegion``, ``BaseNote``, ``TextureData`` and the ``*ShapeData`` classes of Foundry
  v13 (schema version 13.341) and ``CONST`` (``GRID_MIN_SIZE`` = 20, ``WALL_SENSE_TYPES``...),
  as typed by the League of Foundry Developers' foundry-vtt-types.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import subprocess
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
