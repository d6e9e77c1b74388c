"""Foundry Virtual Tabletop scene JSON (v12/v13 scene documents, importable with "Import Data"
on a scene).

Pixels, y down, one grid square (``grid.size`` px, ``grid.distance`` = 1, ``grid.units`` =
``"len"``) per length.  ``background.src`` names the rendered arena image (written beside the
JSON; Foundry scenes reference images by path, never embed them).  Walls and the bounds become
``walls`` segments blocking movement, sight and light; checkpoints, acceleration fields,
exclusion fields and gates become ``regions`` (Foundry region shapes: ellipse, rectangle
rotated about its centre, polygon); static targets and starts become map ``notes``.  Our ids and
fields ride along in each document's ``flags["arena-studio"]``.  Write-only.
"""

from __future__ import annotations

import json
from typing import Any

from schema.document import shape_from
from schema.formats.grid_games import refuse
from schema.formats.base import DEFAULT_PX_PER_LENGTH, Canvas, Capabilities, ExportResult, FormatError, canvas, outline
from schema.formats.common import Doc, ids, label, split
from schema.shapes import Circle, Point, Polygon, Rect, Shape
from schema.games.gravstrike.model import Arena

FLAGS = "arena-studio"
#: Foundry's wall restriction levels (CONST.WALL_SENSE_TYPES / WALL_MOVEMENT_TYPES).
NONE, NORMAL = 0, 20
#: CONST.GRID_MIN_SIZE: Foundry refuses smaller grid squares.
GRID_MIN_SIZE = 20
COLOURS = {"checkpoint": "#0072b2", "acceleration_field": "#009e73", "exclusion_field": "#d55e00", "gate": "#e69f00"}
GATE_WIDTH = 0.1


def _r(v: float) -> float:
    return round(v, 3) + 0.0


def _region_shape(s: Shape, cv: Canvas) -> Doc:
    if isinstance(s, Circle):
        x, y = cv.to_px(s.center)
        r = s.radius * cv.px
        return {"type": "ellipse", "x": _r(x), "y": _r(y), "radiusX": _r(r), "radiusY": _r(r), "rotation": 0,
                "hole": False}
    if isinstance(s, Rect):
        x, y = cv.to_px(s.center)
        w, h = s.size[0] * cv.px, s.size[1] * cv.px
        return {"type": "rectangle", "x": _r(x - w / 2), "y": _r(y - h / 2), "width": _r(w), "height": _r(h),
                "rotation": _r((-s.rotation) % 360.0), "hole": False}
    flat: list[float] = []
    for p in outline(s)[0]:
        flat.extend(_r(v) for v in cv.to_px(p))
    return {"type": "polygon", "points": flat, "hole": False}


def _segments(points: list[Point], cv: Canvas) -> list[list[int]]:
    """Closed outline as wall segments: WallData.c is four integers (whole pixels); segments
    that rounding shrinks to a point are left out."""
    px = [(round(x), round(y)) for x, y in (cv.to_px(p) for p in points)]
    segs = [[px[i][0], px[i][1], px[(i + 1) % len(px)][0], px[(i + 1) % len(px)][1]] for i in range(len(px))]
    return [c for c in segs if (c[0], c[1]) != (c[2], c[3])]


def _wall(c: list[int], ref: str) -> Doc:
    return {"c": c, "move": NORMAL, "sight": NORMAL, "light": NORMAL, "sound": NONE, "dir": 0, "door": 0, "ds": 0,
            "flags": {FLAGS: {"element": ref}}}


class FoundryFormat:
    name: str = "foundry"
    extensions: tuple[str, ...] = (".json",)
    capabilities: Capabilities = Capabilities(read=False, write=True, needs_image=True)

    def write(self, arena: Arena, *, image_png: bytes | None = None,
              px_per_length: int = DEFAULT_PX_PER_LENGTH, image_name: str | None = None,
              suffix: str | None = None) -> ExportResult:
        refuse(self.name, arena)
        if getattr(arena, "system", "gravstrike") != "gravstrike":
            from schema.formats.carwars import foundry_write

            return foundry_write(arena, image_png, px_per_length, image_name)
        if px_per_length < GRID_MIN_SIZE:
            raise FormatError(f"Foundry grid squares are at least {GRID_MIN_SIZE} px (CONST.GRID_MIN_SIZE); "
                              f"got {px_per_length} px per length: use --px {GRID_MIN_SIZE} or more")
        cv = canvas(arena, px_per_length)
        _, items = split(arena)
        walls = [_wall(c, "bounds") for pts in outline(arena.bounds) for c in _segments(pts, cv)]
        for w in arena.walls:
            walls.extend(_wall(c, w.id) for pts in outline(w.shape) for c in _segments(pts, cv))
        regions: list[Doc] = []
        notes: list[Doc] = []
        for kind, doc in items:
            ref = label(kind, doc)
            flags: dict[str, Any] = {FLAGS: {"kind": kind, **doc}}
            if kind in ("checkpoint", "acceleration_field", "exclusion_field"):
                shape = shape_from(doc["shape"])
                regions.append({"name": ref, "color": COLOURS[kind], "shapes": [_region_shape(shape, cv)],
                                "elevation": {"bottom": None, "top": None}, "behaviors": [], "visibility": 2,
                                "locked": True, "flags": flags})
            elif kind == "gate":
                band = _band(tuple(doc["from"]), tuple(doc["to"]), GATE_WIDTH)
                regions.append({"name": ref, "color": COLOURS[kind], "shapes": [_region_shape(band, cv)],
                                "elevation": {"bottom": None, "top": None}, "behaviors": [], "visibility": 2,
                                "locked": True, "flags": flags})
            elif kind in ("static_target", "start_position"):
                x, y = cv.to_px(tuple(doc["position"]))
                text = f"Target {doc['id']}" if kind == "static_target" else f"Start {doc['player']} (facing {doc['facing']}°)"
                icon = "icons/svg/target.svg" if kind == "static_target" else "icons/svg/wing.svg"
                notes.append({"x": round(x), "y": round(y), "entryId": None, "pageId": None, "text": text,
                              "texture": {"src": icon}, "iconSize": 40, "fontSize": 24, "textAnchor": 1,
                              "global": True, "flags": flags})
        scene = {
            "name": arena.name, "navigation": True, "width": cv.width, "height": cv.height, "padding": 0,
            "backgroundColor": "#c9c9c4",
            "background": {"src": image_name or "", "offsetX": 0, "offsetY": 0, "fit": "fill"},
            "grid": {"type": 1, "size": cv.px, "distance": 1, "units": "len", "color": "#000000", "alpha": 0.2},
            "tokenVision": True, "walls": walls, "regions": regions, "notes": notes, "lights": [], "tokens": [],
            "drawings": [], "tiles": [], "sounds": [],
            "flags": {FLAGS: {"format": arena.format, "length_mm": arena.units.length_mm, "px_per_length": cv.px,
                              "origin": [cv.left, cv.top]}},
        }
        circles = [w.id for w in arena.walls if isinstance(w.shape, Circle)] + (
            ["bounds"] if isinstance(arena.bounds, Circle) else [])
        losses = []
        if arena.acceleration_fields:
            losses.append("Foundry regions have no push direction: acceleration field directions (%s) are in flags only"
                          % ids(items, "acceleration_field"))
        if circles:
            losses.append("Foundry walls are straight segments: circular walls (%s) are 48-sided polygons"
                          % ", ".join(circles))
        losses.append("wall ends and note positions are whole pixels (Foundry stores integers): within half a "
                      f"pixel, 1/{2 * cv.px} length")
        if arena.exclusion_fields or arena.checkpoints:
            losses.append("exclusion field tiers and checkpoint kinds are in flags only (no Foundry behaviour is attached)")
        if arena.start_positions or arena.static_targets:
            losses.append("start positions and static targets are map notes, not tokens (no facing shown)")
        losses.append("scenario, turbine and symmetry are dropped")
        if arena.gates:
            losses.append(f"gates ({ids(items, 'gate')}) are thin rectangular regions; one-way direction in flags only")
        if not image_name:
            losses.append("no background image: background.src is empty")
        return ExportResult((json.dumps(scene, indent=1, ensure_ascii=False) + "\n").encode("utf-8"), losses)

    def read(self, data: bytes, *, source: str = "<foundry>", warnings: list[str] | None = None) -> Arena:
        raise FormatError(f"{source}: Foundry scenes cannot be imported back (walls lose which element they were)")


def _band(a: Point, b: Point, width: float) -> Polygon:
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = (dx * dx + dy * dy) ** 0.5 or 1.0
    ox, oy = -dy / n * width / 2, dx / n * width / 2
    return Polygon(((a[0] + ox, a[1] + oy), (a[0] - ox, a[1] - oy), (b[0] - ox, b[1] - oy), (b[0] + ox, b[1] + oy)))
