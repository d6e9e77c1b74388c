"""Car Wars sixth edition (``system: car-wars-6e``) in the VTT formats, and each format's loss
report for Car Wars arenas.

Coordinates are inches; the VTT grid is one inch per square (``--px`` pixels per inch, 64 by
default) and Foundry's ``grid.units`` is ``in``.  How each element kind maps is
``ElementKind.exports`` of the Car Wars ruleset (:func:`kind_export`); within a kind mapped to
``wall`` each element's attributes pick the wall's restrictions:

- UVTT: the bounds, walls and every full-cover obstacle or token (Arena Rex: every hazard that
  blocks sight) are ``line_of_sight`` polylines, where Foundry's UVTT importer reads them
  (``schema.formats.uvtt``); UVTT has one kind of wall, so partial cover, weight and durability
  are listed in the loss report.
- Foundry: walls and the bounds block movement, sight and light (``NORMAL``); an obstacle or
  token blocks movement when it is heavy (or a wall) and not when it is light or drive-thru
  (Foundry has no pushing), blocks sight when it gives full cover and is a ``LIMITED`` sight
  wall when it gives partial cover (Foundry's limited walls let a sightline through one and
  stop it at a second: the nearest Foundry has to a defense bonus); no-cover drive-thru pieces
  are regions.  Terrain, hazards and the numbered cards are regions, start positions map
  notes.  Every document carries our element in ``flags["arena-studio"]``.
"""

from __future__ import annotations

import json
from typing import Any

from schema.formats.base import Canvas, ExportResult, FormatError, canvas, outline
from schema.formats.systems import shape_of_doc
from schema.shapes import Circle, Point

Doc = dict[str, Any]
FLAGS = "arena-studio"
NONE, LIMITED, NORMAL = 0, 10, 20
GRID_MIN_SIZE = 20
COLOURS = {"terrain": "#8c6d31", "hazard": "#d55e00", "card": "#0072b2", "obstacle": "#6b6b6b", "token": "#cc79a7"}

#: How each Car Wars kind exports when the ruleset does not say (``ElementKind.exports``).
DEFAULT_EXPORTS: dict[str, dict[str, str]] = {
    "walls": {"uvtt": "wall", "foundry": "wall"},
    "obstacles": {"uvtt": "wall", "foundry": "wall"},
    "terrain": {"uvtt": "omit", "foundry": "region"},
    "hazards": {"uvtt": "omit", "foundry": "region"},
    "cards": {"uvtt": "omit", "foundry": "region"},
    "tokens": {"uvtt": "wall", "foundry": "wall"},
    "start_positions": {"uvtt": "omit", "foundry": "object"},
}
KIND_KEYS = {"wall": "walls", "obstacle": "obstacles", "terrain": "terrain", "hazard": "hazards", "card": "cards",
             "token": "tokens", "start_position": "start_positions", "pit": "pits", "spike": "spikes"}


def kind_export(arena: Any, key: str, fmt: str) -> str:
    """How the list ``key`` (``obstacles``...) exports to ``fmt``: the ruleset's
    ``ElementKind.exports`` when the ruleset is installed, else :data:`DEFAULT_EXPORTS`."""
    try:
        from schema.ruleset import ruleset

        kind = ruleset(arena.system).kind(key)
    except (KeyError, ImportError, TypeError, ValueError):
        return DEFAULT_EXPORTS.get(key, {}).get(fmt, "object")
    default = DEFAULT_EXPORTS.get(key, {}).get(fmt, "object")
    return str(kind.exports.get(fmt, default))


def _split(arena: Any) -> list[tuple[str, Doc]]:
    from schema.formats.common import split

    return split(arena)[1]


def _names(items: list[tuple[str, Doc]], pred: Any) -> str:
    from schema.formats.common import label

    return ", ".join(label(k, d) for k, d in items if pred(k, d))


def _rex(arena: Any) -> bool:
    return getattr(arena, "system", "") == "arena-rex"


def _own_fields(arena: Any) -> str:
    return "bases, deployment, scenario, symmetry" if _rex(arena) else "vehicle, turning key, scenario, symmetry"


def _common_losses(arena: Any, items: list[tuple[str, Doc]]) -> list[str]:
    out = []
    if _rex(arena) and arena.deployment:
        out.append("deployment zones are not objects: each player's edge (side or arc) and centre travel with the "
                   "arena's own fields and come back exactly")
    if getattr(arena, "start_positions", ()):
        out.append("start facings are properties only (no arrows); the turning key each car starts against is not "
                   "an element (the editor and the render draw it from the arena edge)")
    return out


def tiled_losses(arena: Any, items: list[tuple[str, Doc]]) -> list[str]:
    out = _common_losses(arena, items)
    circles = _names(items, lambda k, d: isinstance(d.get("shape"), dict) and d["shape"].get("type") == "circle"
                     or (k == "token" and d.get("kind") == "barrel"))
    if circles:
        out.append(f"Tiled has no circles: {circles} are ellipse objects with width = height")
    if _rex(arena):
        out.append("hazard kinds and whether they block movement or sight are object properties only: Tiled draws "
                   "no icons")
    else:
        out.append("cover, weight, durability, terrain levels, hazard dice and card roles are object properties only: "
                   "Tiled draws no icons")
    out.append("no background image: the map has object layers only (export svg or png for a picture)")
    return out


def geojson_losses(arena: Any, items: list[tuple[str, Doc]]) -> list[str]:
    out = ["coordinates are planar inches (x right, y up), not longitude/latitude as RFC 7946 expects"]
    circles = _names(items, lambda k, d: isinstance(d.get("shape"), dict) and d["shape"].get("type") == "circle"
                     or (k == "token" and d.get("kind") == "barrel"))
    if circles:
        out.append(f"GeoJSON has no circles: {circles} are 48-sided polygons (the exact values stay in the "
                   "properties, and a GIS-edited 48-gon comes back as a circle)")
    out += _common_losses(arena, items)
    out.append(f"the arena's own fields ({_own_fields(arena)}...) are in the foreign member "
               "\"arena\", which GIS tools drop when they rewrite the file")
    return out


# ------------------------------------------------------------------ what blocks what


def blocks_sight(kind: str, doc: Doc) -> bool:
    """Full cover blocks sightlines ("If a sightline cannot be drawn without crossing a
    full-cover obstacle, the attacker cannot attack that target")."""
    if "blocks_sight" in doc:  # Arena Rex terrain hazards say it themselves
        return bool(doc["blocks_sight"])
    return kind == "bounds" or doc.get("cover", "full" if kind == "wall" else "none") == "full"


def blocks_movement(kind: str, doc: Doc) -> bool:
    """Touching a heavy obstacle or a wall is a collision; light ones are pushed, drive-thru
    ones driven over."""
    if "blocks_movement" in doc:  # Arena Rex terrain hazards say it themselves
        return bool(doc["blocks_movement"])
    return kind in ("bounds", "wall") or doc.get("weight", "heavy") in ("heavy", "wall")


def _solid_items(arena: Any, items: list[tuple[str, Doc]], fmt: str) -> list[tuple[str, Doc]]:
    return [(k, d) for k, d in items if k == "bounds" or kind_export(arena, KIND_KEYS[k], fmt) == "wall"]


def _rings(kind: str, doc: Doc) -> list[list[Point]]:
    return outline(shape_of_doc(kind, doc))


# ------------------------------------------------------------------ UVTT


def uvtt_write(arena: Any, image_png: bytes | None, px_per_length: int) -> ExportResult:
    from schema.formats.common import label
    from schema.formats.uvtt import check_image, document, encode, frame, frame_losses, rings, round_loss

    fr = frame(arena, px_per_length)
    image = check_image(image_png, fr)
    items = _split(arena)
    outlines: list[list[Point]] = []
    partial: list[str] = []
    soft: list[str] = []
    round_pieces: list[tuple[str, float]] = []
    for kind, doc in _solid_items(arena, items, "uvtt"):
        if not blocks_sight(kind, doc):
            (partial if doc.get("cover") == "partial" else soft).append(label(kind, doc))
            continue
        shape = shape_of_doc(kind, doc)
        if isinstance(shape, Circle):
            round_pieces.append((label(kind, doc), shape.radius))
        outlines.extend(rings(shape))
    losses = [f"one grid square is 1 inch ({fr.px} px per inch)"]
    if partial:
        losses.append(f"UVTT walls block sight fully or not at all: partial-cover pieces ({', '.join(partial)}) "
                      "are on the image only")
    if soft:
        losses.append(f"pieces giving no cover ({', '.join(soft)}) are on the image only")
    light = _names(items, lambda k, d: k in ("obstacle", "token") and d.get("cover") == "full"
                   and not blocks_movement(k, d))
    if light:
        losses.append(f"UVTT cannot say a wall is pushable: light full-cover pieces ({light}) are sight walls")
    for key, what in (("terrain", "terrain levels"), ("hazards", "hazard cards (dice, effects)"),
                      ("cards", "numbered cards"), ("tokens", "tokens (barrels, barriers, wrecks)"),
                      ("start_positions", "start positions and facings")):
        if getattr(arena, key, ()) and kind_export(arena, key, "uvtt") == "omit":
            losses.append(f"UVTT has no {what}: they are on the image only")
    round_text = round_loss(round_pieces, "round pieces", "inches")
    if round_text:
        losses.append(round_text)
    losses += frame_losses(arena, fr, "inches")
    losses.append("bases, deployment edges, scenario and symmetry are dropped (the zones are on the image)" if _rex(arena)
                  else "weight, durability, face up, vehicle, turning key, scenario and symmetry are dropped")
    return ExportResult(encode(document(fr, outlines, image)), losses)


# ------------------------------------------------------------------ Foundry


def _r(v: float) -> float:
    return round(v, 3) + 0.0


def _region_shape(kind: str, doc: Doc, cv: Canvas) -> Doc:
    from schema.shapes import Rect

    s = shape_of_doc(kind, doc)
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
    px = [(round(x), round(y)) for x, y in (cv.to_px(p) for p in points)]
    segs = [[px[i][0], px[i][1], px[(i + 1) % len(px)][0], px[(i + 1) % len(px)][1]] for i in range(len(px))]
    return [c for c in segs if (c[0], c[1]) != (c[2], c[3])]


def _region_name(kind: str, doc: Doc) -> str:
    if kind == "terrain":
        return f"{doc['id']} (terrain level {doc.get('level', 1)})"
    if kind == "hazard":
        return f"{doc['id']} ({doc.get('name') or 'hazard'}, {doc.get('dice', 0)} dice)"
    if kind == "card":
        owner = f", player {doc['owner']}'s" if doc.get("owner") is not None else ""
        return f"card {doc['number']} ({doc.get('role', 'checkpoint')}{owner})"
    if kind == "token":
        return f"{doc.get('kind', 'token')} {doc['id']} ({doc.get('cover')} cover, {doc.get('weight')})"
    return str(doc.get("id", kind))


def foundry_write(arena: Any, image_png: bytes | None, px_per_length: int, image_name: str | None) -> ExportResult:
    from schema.formats.common import label, split

    if px_per_length < GRID_MIN_SIZE:
        raise FormatError(f"Foundry grid squares are at least {GRID_MIN_SIZE} px (CONST.GRID_MIN_SIZE); "
                          f"got {px_per_length} px per inch: use --px {GRID_MIN_SIZE} or more")
    cv = canvas(arena, px_per_length)
    meta, items = split(arena)
    walls: list[Doc] = []
    regions: list[Doc] = []
    notes: list[Doc] = []
    partial: list[str] = []
    walled: list[str] = []
    heavy: list[str] = []
    light: list[str] = []
    for kind, doc in items:
        ref = label(kind, doc)
        flags: Doc = {FLAGS: {"kind": kind, **doc}}
        how = "wall" if kind == "bounds" else kind_export(arena, KIND_KEYS[kind], "foundry")
        if how == "wall" and (blocks_sight(kind, doc) or blocks_movement(kind, doc) or doc.get("cover") == "partial"):
            sight = NORMAL if blocks_sight(kind, doc) else (LIMITED if doc.get("cover") == "partial" else NONE)
            move = NORMAL if blocks_movement(kind, doc) else NONE
            walled.append(ref)
            if sight == LIMITED:
                partial.append(ref)
            if kind in ("obstacle", "token") and doc.get("weight", "heavy") in ("light", "heavy"):
                (heavy if move == NORMAL else light).append(ref)
            for pts in _rings(kind, doc):
                walls.extend({"c": c, "move": move, "sight": sight, "light": sight, "sound": NONE, "dir": 0,
                              "door": 0, "ds": 0, "flags": {FLAGS: {"element": ref}}} for c in _segments(pts, cv))
        elif how in ("wall", "region") and kind != "start_position":
            regions.append({"name": _region_name(kind, doc), "color": COLOURS.get(kind, "#000000"),
                            "shapes": [_region_shape(kind, doc, cv)], "elevation": {"bottom": None, "top": None},
                            "behaviors": [], "visibility": 2, "locked": True, "flags": flags})
        elif how != "omit":
            pos = tuple(doc["position"])
            x, y = cv.to_px((float(pos[0]), float(pos[1])))
            text = (f"Start {doc['player']} (facing {doc['facing']}°)" if kind == "start_position"
                    else _region_name(kind, doc))
            notes.append({"x": round(x), "y": round(y), "entryId": None, "pageId": None, "text": text,
                          "texture": {"src": "icons/svg/wing.svg" if kind == "start_position" else "icons/svg/book.svg"},
                          "iconSize": 40, "fontSize": 24, "textAnchor": 1, "global": True, "flags": flags})
    scene = {
        "name": arena.name, "navigation": True, "width": cv.width, "height": cv.height, "padding": 0,
        "backgroundColor": "#c9c9c4",
        "background": {"src": image_name or "", "offsetX": 0, "offsetY": 0, "fit": "fill"},
        "grid": {"type": 1, "size": cv.px, "distance": 1, "units": "in", "color": "#000000", "alpha": 0.2},
        "tokenVision": True, "walls": walls, "regions": regions, "notes": notes, "lights": [], "tokens": [],
        "drawings": [], "tiles": [], "sounds": [],
        "flags": {FLAGS: {"format": arena.format, "system": arena.system, "printed_mm": arena.units.printed_mm,
                          "px_per_inch": cv.px, "origin": [cv.left, cv.top], "arena": meta}},
    }
    losses = [f"one grid square is 1 inch ({cv.px} px per inch, grid.units \"in\")"]
    if partial:
        losses.append(f"partial cover ({', '.join(partial)}) is a LIMITED sight wall: Foundry lets a sightline "
                      "through one limited wall and stops it at the second, it adds no defense bonus")
    if heavy:
        losses.append(f"Foundry walls cannot be pushed: heavy pieces ({', '.join(heavy)}) block movement outright")
    if light:
        losses.append(f"light pieces ({', '.join(light)}) do not block movement in Foundry (cars push them in the game)")
    round_ones = _names(items, lambda k, d: (isinstance(d.get("shape"), dict) and d["shape"].get("type") == "circle"
                                             or k == "token" and d.get("kind") == "barrel") and label(k, d) in walled)
    if round_ones:
        losses.append(f"Foundry walls are straight segments: round pieces ({round_ones}) are 48-sided where they "
                      "are walls")
    losses.append("wall ends and note positions are whole pixels (Foundry stores integers): within half a pixel, "
                  f"1/{2 * cv.px} inch")
    if getattr(arena, "terrain", ()) or getattr(arena, "cards", ()) or any(hasattr(h, "dice") for h in arena.hazards):
        losses.append("terrain levels, hazard dice and effects, and card roles are region names and flags only "
                      "(no Foundry behaviour is attached)")
    if getattr(arena, "start_positions", ()):
        losses.append("start positions are map notes, not tokens (no car, facing or turning key shown)")
    for key, what in (("tokens", "tokens (barrels, barriers, wrecks)"), ("cards", "numbered cards")):
        if getattr(arena, key, ()) and kind_export(arena, key, "foundry") in ("object", "token"):
            losses.append(f"{what} are map notes at their centres: no footprint, they block nothing")
    losses.append("bases, deployment edges, scenario and symmetry are in flags only (the zones are on the image)"
                  if _rex(arena) else "durability, face up, vehicle, turning key, scenario and symmetry are in flags only")
    if not image_name:
        losses.append("no background image: background.src is empty")
    return ExportResult((json.dumps(scene, indent=1, ensure_ascii=False) + "\n").encode("utf-8"), losses)


__all__ = ["DEFAULT_EXPORTS", "blocks_movement", "blocks_sight", "foundry_write", "geojson_losses", "kind_export",
           "tiled_losses", "uvtt_write"]
