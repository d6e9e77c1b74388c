"""Gravstrike (``system: gravstrike``) in the other tools' formats: its export profile.

Coordinates are lengths (``units.length_mm`` each when printed).  The formats were first
written for Gravstrike, and files of other tools that name no game are read as Gravstrike's
(its ruleset's :attr:`~schema.ruleset.Ruleset.default`).

- UVTT: the bounds and the walls are line-of-sight polylines; checkpoints, gates, fields,
  targets and starts are on the image only.
- Foundry: the bounds and walls block movement, sight and light; checkpoints, acceleration and
  exclusion fields are regions, gates thin rectangular regions, static targets and starts map
  notes.
- GeoJSON: the collection says ``"coordinate_system": "arena-lengths"`` next to
  ``"length_mm"`` (read back as the arena's ``units`` when its own fields were dropped).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from schema.document import num, shape_from
from schema.formats.base import ExportResult, FormatError, canvas, outline
from schema.formats.foundry import GRID_MIN_SIZE, region_shape, segments
from schema.formats.systems import Doc, ExportProfile
from schema.games.gravstrike.model import Arena
from schema.ruleset import ArenaModel
from schema.shapes import Circle, Point, Polygon

#: GeoJSON's foreign member naming the plane of the coordinates.
COORDINATES = "arena-lengths"
FLAGS = "arena-studio"
#: Foundry's wall restriction levels (CONST.WALL_SENSE_TYPES / WALL_MOVEMENT_TYPES).
NONE, NORMAL = 0, 20
COLOURS = {"checkpoint": "#0072b2", "acceleration_field": "#009e73", "exclusion_field": "#d55e00", "gate": "#e69f00"}
GATE_WIDTH = 0.1


def _arena(arena: ArenaModel) -> Arena:
    if not isinstance(arena, Arena):
        raise TypeError(f"a Gravstrike arena expected, got {type(arena).__name__}")
    return arena


def _circles(items: list[tuple[str, Doc]]) -> list[str]:
    from schema.formats.common import label

    return [label(k, d) for k, d in items if isinstance(d.get("shape"), dict) and d["shape"].get("type") == "circle"]


@dataclass(frozen=True)
class GravstrikeExports(ExportProfile):
    """Gravstrike's profile: its loss sentences, its UVTT walls and its Foundry scene."""

    def tiled_losses(self, arena: ArenaModel, items: list[tuple[str, Doc]]) -> list[str]:
        from schema.formats.common import ids

        a = _arena(arena)
        losses = []
        if a.acceleration_fields or a.start_positions:
            losses.append("Tiled draws no directions: acceleration field directions and start facings are "
                          "properties only")
        circles = _circles(items)
        if circles:
            losses.append(f"Tiled has no circles: {', '.join(circles)} are ellipse objects with width = height")
        losses.append("no background image: the map has object layers only (export svg or png for a picture)")
        if a.gates:
            losses.append("one-way gate directions are properties only (%s)" % ids(items, "gate"))
        return losses

    def geojson_members(self, arena: ArenaModel) -> Doc:
        return {"coordinate_system": COORDINATES, "length_mm": num(_arena(arena).units.length_mm)}

    def geojson_losses(self, arena: ArenaModel, items: list[tuple[str, Doc]]) -> list[str]:
        a = _arena(arena)
        losses = ["coordinates are planar arena lengths (x right, y up), not longitude/latitude as RFC 7946 expects"]
        circles = _circles(items)
        if circles:
            losses.append(f"GeoJSON has no circles: {', '.join(circles)} are 48-sided polygons (the exact circle "
                          "stays in properties.shape, and a GIS-edited 48-gon comes back as a circle)")
        if a.acceleration_fields or a.start_positions:
            losses.append("acceleration field directions and start facings are properties only (no arrows on a map)")
        losses.append("GeoJSON has no arena-level fields: the arena's own fields (scenario, turbine, symmetry...) are "
                      "JSON in the bounds feature's property \"arena\"")
        return losses

    def geojson_meta(self, collection: Doc, meta: Doc) -> Doc:
        if "length_mm" in collection and "units" not in meta:
            return {**meta, "units": {"length_mm": collection["length_mm"]}}
        return meta

    def uvtt(self, arena: ArenaModel, image_png: bytes | None, px_per_length: int) -> ExportResult:
        from schema.formats.common import ids, split
        from schema.formats.uvtt import check_image, document, encode, frame, frame_losses, rings, round_loss

        a = _arena(arena)
        fr = frame(a, px_per_length)
        image = check_image(image_png, fr)
        _, items = split(a)
        outlines = list(rings(a.bounds))
        for wall in a.walls:
            outlines.extend(rings(wall.shape))
        doc = document(fr, outlines, image)
        losses = []
        if a.acceleration_fields:
            losses.append("UVTT has no acceleration fields: %s dropped (painted on the image only; field directions "
                          "not representable)" % ids(items, "acceleration_field"))
        for kinds, what in ((("checkpoint",), "checkpoints"), (("gate",), "gates"),
                            (("exclusion_field",), "exclusion fields (and their tiers)"),
                            (("static_target",), "static targets"), (("start_position",), "start positions and facings")):
            if ids(items, *kinds):
                losses.append(f"UVTT has no {what}: {ids(items, *kinds)} are on the image only")
        circles = round_loss([(w.id, w.shape.radius) for w in a.walls if isinstance(w.shape, Circle)],
                             "circular walls")
        if circles:
            losses.append(circles)
        losses += frame_losses(a, fr)
        losses.append("scenario, turbine, symmetry, tags and author/licence are dropped")
        return ExportResult(encode(doc), losses)

    def foundry(self, arena: ArenaModel, image_png: bytes | None, px_per_length: int,
                image_name: str | None) -> ExportResult:
        from schema.formats.common import ids, label, split

        a = _arena(arena)
        if px_per_length < GRID_MIN_SIZE:
            raise FormatError(f"Foundry grid squares are at least {GRID_MIN_SIZE} px (CONST.GRID_MIN_SIZE); "
                              f"got {px_per_length} px per length: use --px {GRID_MIN_SIZE} or more")
        cv = canvas(a, px_per_length)
        _, items = split(a)
        walls = [_wall(c, "bounds") for pts in outline(a.bounds) for c in segments(pts, cv)]
        for w in a.walls:
            walls.extend(_wall(c, w.id) for pts in outline(w.shape) for c in segments(pts, cv))
        regions: list[Doc] = []
        notes: list[Doc] = []
        for kind, doc in items:
            ref = label(kind, doc)
            flags: dict[str, Any] = {FLAGS: {"kind": kind, **doc}}
            if kind in ("checkpoint", "acceleration_field", "exclusion_field"):
                shape = shape_from(doc["shape"])
                regions.append({"name": ref, "color": COLOURS[kind], "shapes": [region_shape(shape, cv)],
                                "elevation": {"bottom": None, "top": None}, "behaviors": [], "visibility": 2,
                                "locked": True, "flags": flags})
            elif kind == "gate":
                band = _band(tuple(doc["from"]), tuple(doc["to"]), GATE_WIDTH)
                regions.append({"name": ref, "color": COLOURS[kind], "shapes": [region_shape(band, cv)],
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
            "name": a.name, "navigation": True, "width": cv.width, "height": cv.height, "padding": 0,
            "backgroundColor": "#c9c9c4",
            "background": {"src": image_name or "", "offsetX": 0, "offsetY": 0, "fit": "fill"},
            "grid": {"type": 1, "size": cv.px, "distance": 1, "units": "len", "color": "#000000", "alpha": 0.2},
            "tokenVision": True, "walls": walls, "regions": regions, "notes": notes, "lights": [], "tokens": [],
            "drawings": [], "tiles": [], "sounds": [],
            "flags": {FLAGS: {"format": a.format, "length_mm": a.units.length_mm, "px_per_length": cv.px,
                              "origin": [cv.left, cv.top]}},
        }
        circles = [w.id for w in a.walls if isinstance(w.shape, Circle)] + (
            ["bounds"] if isinstance(a.bounds, Circle) else [])
        losses = []
        if a.acceleration_fields:
            losses.append("Foundry regions have no push direction: acceleration field directions (%s) are in flags only"
                          % ids(items, "acceleration_field"))
        if circles:
            losses.append("Foundry walls are straight segments: circular walls (%s) are 48-sided polygons"
                          % ", ".join(circles))
        losses.append("wall ends and note positions are whole pixels (Foundry stores integers): within half a "
                      f"pixel, 1/{2 * cv.px} length")
        if a.exclusion_fields or a.checkpoints:
            losses.append("exclusion field tiers and checkpoint kinds are in flags only (no Foundry behaviour is attached)")
        if a.start_positions or a.static_targets:
            losses.append("start positions and static targets are map notes, not tokens (no facing shown)")
        losses.append("scenario, turbine and symmetry are dropped")
        if a.gates:
            losses.append(f"gates ({ids(items, 'gate')}) are thin rectangular regions; one-way direction in flags only")
        if not image_name:
            losses.append("no background image: background.src is empty")
        return ExportResult((json.dumps(scene, indent=1, ensure_ascii=False) + "\n").encode("utf-8"), losses)


def _wall(c: list[int], ref: str) -> Doc:
    return {"c": c, "move": NORMAL, "sight": NORMAL, "light": NORMAL, "sound": NONE, "dir": 0, "door": 0, "ds": 0,
            "flags": {FLAGS: {"element": ref}}}


def _band(a: Point, b: Point, width: float) -> Polygon:
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = (dx * dx + dy * dy) ** 0.5 or 1.0
    ox, oy = -dy / n * width / 2, dx / n * width / 2
    return Polygon(((a[0] + ox, a[1] + oy), (a[0] - ox, a[1] - oy), (b[0] - ox, b[1] - oy), (b[0] + ox, b[1] + oy)))


EXPORTS = GravstrikeExports(
    system="gravstrike",
    lists=(("wall", "walls"), ("checkpoint", "checkpoints"), ("gate", "gates"),
           ("acceleration_field", "acceleration_fields"), ("exclusion_field", "exclusion_fields"),
           ("static_target", "static_targets"), ("start_position", "start_positions")),
    geometry={"bounds": ("shape",), "wall": ("shape",), "checkpoint": ("shape",), "acceleration_field": ("shape",),
              "exclusion_field": ("shape",), "gate": ("from", "to"), "static_target": ("position",),
              "start_position": ("position",)},
    owner="an arena",
)

__all__ = ["COORDINATES", "EXPORTS", "GravstrikeExports"]
