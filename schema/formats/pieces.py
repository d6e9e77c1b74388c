"""Games of pieces on a table that block sight and movement by their own fields (a cover and a
weight, or ``blocks_sight`` / ``blocks_movement``) in the VTT formats, and each format's loss
report for them: :class:`PiecesProfile`, the export profile such a game subclasses (the texts
and the names of its kinds are the game's; the writing is here).

The VTT grid is one unit per square (``--px`` pixels per unit, 64 by default) and Foundry's
``grid.units`` is the ruleset's unit symbol.  How each element kind maps is ``ElementKind.exports``
of the game's ruleset (:meth:`PiecesProfile.kind_export`); within a kind mapped to ``wall``
each element's attributes pick the wall's restrictions:

- UVTT: the bounds, walls and every piece that blocks sight are ``line_of_sight`` polylines,
  where Foundry's UVTT importer reads them (``schema.formats.uvtt``); UVTT has one kind of
  wall, so partial cover, weight and durability are listed in the loss report.
- Foundry: walls and the bounds block movement, sight and light (``NORMAL``); a piece blocks
  movement when it is heavy (or a wall) and not when it is light or drive-thru (Foundry has no
  pushing), blocks sight when it gives full cover and is a ``LIMITED`` sight wall when it gives
  partial cover (Foundry's limited walls let a sightline through one and stop it at a second:
  the nearest Foundry has to a defense bonus); pieces that block nothing are regions.  Kinds
  mapped to ``region`` are regions, others map notes.  Every document carries our element in
  ``flags["arena-studio"]``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from schema.formats.base import ExportResult, FormatError, canvas, outline
from schema.formats.foundry import GRID_MIN_SIZE, region_shape, segments
from schema.formats.systems import Doc, ExportProfile, units_mm
from schema.ruleset import ArenaModel
from schema.shapes import Circle, Point

FLAGS = "arena-studio"
NONE, LIMITED, NORMAL = 0, 10, 20


def blocks_sight(kind: str, doc: Doc) -> bool:
    """A piece's own ``blocks_sight``, else full cover blocks sightlines (the bounds and walls
    give full cover unless they say otherwise)."""
    if "blocks_sight" in doc:
        return bool(doc["blocks_sight"])
    return kind == "bounds" or doc.get("cover", "full" if kind == "wall" else "none") == "full"


def blocks_movement(kind: str, doc: Doc) -> bool:
    """A piece's own ``blocks_movement``, else the bounds, walls and heavy pieces block (light
    ones are pushed, drive-thru ones driven over)."""
    if "blocks_movement" in doc:
        return bool(doc["blocks_movement"])
    return kind in ("bounds", "wall") or doc.get("weight", "heavy") in ("heavy", "wall")


@dataclass(frozen=True)
class PiecesProfile(ExportProfile):
    """The export profile of a game of pieces that block by their own fields."""

    #: The arena's own fields, as the GeoJSON loss report lists them (``vehicle, turning key,
    #: scenario, symmetry``).
    own_fields: str = "scenario, symmetry"
    #: Tiled's loss sentence for the fields that are object properties only.
    tiled_properties: str = "the elements' own fields are object properties only: Tiled draws no icons"
    #: UVTT's last loss sentence: what is dropped.
    uvtt_dropped: str = "scenario and symmetry are dropped"
    #: Foundry's last loss sentence: what is in the flags only.
    foundry_flags_only: str = "scenario and symmetry are in flags only"
    #: (list key, what) of the lists UVTT leaves on the image only when the ruleset omits them.
    uvtt_omitted: tuple[tuple[str, str], ...] = ()
    #: (list key, what) of the lists Foundry writes as map notes (no footprint) when they are objects.
    foundry_noted: tuple[tuple[str, str], ...] = ()
    #: Kinds whose ``weight`` decides whether Foundry's walls stop movement (light or heavy).
    weighted: frozenset[str] = field(default_factory=frozenset)
    #: Region colours by kind (``#rrggbb``; black otherwise).
    colours: Mapping[str, str] = field(default_factory=dict)

    # ------------------------------------------------------------ the game's hooks

    def blocks_sight(self, kind: str, doc: Doc) -> bool:
        return blocks_sight(kind, doc)

    def blocks_movement(self, kind: str, doc: Doc) -> bool:
        return blocks_movement(kind, doc)

    def common_losses(self, arena: ArenaModel, items: list[tuple[str, Doc]]) -> list[str]:
        """Loss sentences every format of the game shares (Tiled and GeoJSON)."""
        return []

    def region_name(self, kind: str, doc: Doc) -> str:
        """How a Foundry region (or note) names an element."""
        return str(doc.get("id", kind))

    def foundry_notes(self, arena: ArenaModel) -> list[str]:
        """Foundry loss sentences about the game's own fields (before :attr:`foundry_noted`'s)."""
        return []

    # ------------------------------------------------------------ shared

    def kind_export(self, key: str, fmt: str) -> str:
        """How the list ``key`` (``obstacles``...) exports to ``fmt``: the ruleset's
        ``ElementKind.exports`` (``object`` when it does not say)."""
        try:
            kind = self.ruleset.kind(key)
        except KeyError:
            return "object"
        return str(kind.exports.get(fmt, "object"))

    def _kind_key(self, kind: str) -> str:
        return dict(self.lists)[kind]

    def _round(self, kind: str, doc: Doc) -> bool:
        if isinstance(doc.get("shape"), dict):
            return bool(doc["shape"].get("type") == "circle")
        return kind in self.posed and isinstance(self.shape_of(kind, doc), Circle)

    def _solid_items(self, items: list[tuple[str, Doc]], fmt: str) -> list[tuple[str, Doc]]:
        return [(k, d) for k, d in items if k == "bounds" or self.kind_export(self._kind_key(k), fmt) == "wall"]

    def _rings(self, kind: str, doc: Doc) -> list[list[Point]]:
        return outline(self.shape_of(kind, doc))

    @property
    def _plural(self) -> str:
        return self.ruleset.units.plural_name

    # ------------------------------------------------------------ Tiled and GeoJSON

    def tiled_losses(self, arena: ArenaModel, items: list[tuple[str, Doc]]) -> list[str]:
        out = self.common_losses(arena, items)
        circles = _names(items, self._round)
        if circles:
            out.append(f"Tiled has no circles: {circles} are ellipse objects with width = height")
        out.append(self.tiled_properties)
        out.append("no background image: the map has object layers only (export svg or png for a picture)")
        return out

    def geojson_members(self, arena: ArenaModel) -> Doc:
        from schema.document import num

        return {"coordinate_system": f"arena-{self._plural}", "printed_mm": num(units_mm(arena))}

    def geojson_losses(self, arena: ArenaModel, items: list[tuple[str, Doc]]) -> list[str]:
        out = [f"coordinates are planar {self._plural} (x right, y up), not longitude/latitude as RFC 7946 expects"]
        circles = _names(items, self._round)
        if circles:
            out.append(f"GeoJSON has no circles: {circles} are 48-sided polygons (the exact values stay in the "
                       "properties, and a GIS-edited 48-gon comes back as a circle)")
        out += self.common_losses(arena, items)
        out.append(f"the arena's own fields ({self.own_fields}...) are in the foreign member "
                   "\"arena\", which GIS tools drop when they rewrite the file")
        return out

    # ------------------------------------------------------------ UVTT

    def uvtt(self, arena: ArenaModel, image_png: bytes | None, px_per_length: int) -> ExportResult:
        from schema.formats.common import label, split
        from schema.formats.uvtt import check_image, document, encode, frame, frame_losses, rings, round_loss

        fr = frame(arena, px_per_length)
        image = check_image(image_png, fr)
        items = split(arena)[1]
        outlines: list[list[Point]] = []
        partial: list[str] = []
        soft: list[str] = []
        round_pieces: list[tuple[str, float]] = []
        for kind, doc in self._solid_items(items, "uvtt"):
            if not self.blocks_sight(kind, doc):
                (partial if doc.get("cover") == "partial" else soft).append(label(kind, doc))
                continue
            shape = self.shape_of(kind, doc)
            if isinstance(shape, Circle):
                round_pieces.append((label(kind, doc), shape.radius))
            outlines.extend(rings(shape))
        losses = [f"one grid square is 1 {self.unit} ({fr.px} px per {self.unit})"]
        if partial:
            losses.append(f"UVTT walls block sight fully or not at all: partial-cover pieces ({', '.join(partial)}) "
                          "are on the image only")
        if soft:
            losses.append(f"pieces giving no cover ({', '.join(soft)}) are on the image only")
        light = _names(items, lambda k, d: k in self.weighted and d.get("cover") == "full"
                       and not self.blocks_movement(k, d))
        if light:
            losses.append(f"UVTT cannot say a wall is pushable: light full-cover pieces ({light}) are sight walls")
        for key, what in self.uvtt_omitted:
            if getattr(arena, key, ()) and self.kind_export(key, "uvtt") == "omit":
                losses.append(f"UVTT has no {what}: they are on the image only")
        round_text = round_loss(round_pieces, "round pieces", self._plural)
        if round_text:
            losses.append(round_text)
        losses += frame_losses(arena, fr, self._plural)
        losses.append(self.uvtt_dropped)
        return ExportResult(encode(document(fr, outlines, image)), losses)

    # ------------------------------------------------------------ Foundry

    def foundry(self, arena: ArenaModel, image_png: bytes | None, px_per_length: int,
                image_name: str | None) -> ExportResult:
        from schema.formats.common import label, split

        unit = self.unit
        if px_per_length < GRID_MIN_SIZE:
            raise FormatError(f"Foundry grid squares are at least {GRID_MIN_SIZE} px (CONST.GRID_MIN_SIZE); "
                              f"got {px_per_length} px per {unit}: use --px {GRID_MIN_SIZE} or more")
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
            how = "wall" if kind == "bounds" else self.kind_export(self._kind_key(kind), "foundry")
            sight_blocked, move_blocked = self.blocks_sight(kind, doc), self.blocks_movement(kind, doc)
            if how == "wall" and (sight_blocked or move_blocked or doc.get("cover") == "partial"):
                sight = NORMAL if sight_blocked else (LIMITED if doc.get("cover") == "partial" else NONE)
                move = NORMAL if move_blocked else NONE
                walled.append(ref)
                if sight == LIMITED:
                    partial.append(ref)
                if kind in self.weighted and doc.get("weight", "heavy") in ("light", "heavy"):
                    (heavy if move == NORMAL else light).append(ref)
                for pts in self._rings(kind, doc):
                    walls.extend({"c": c, "move": move, "sight": sight, "light": sight, "sound": NONE, "dir": 0,
                                  "door": 0, "ds": 0, "flags": {FLAGS: {"element": ref}}} for c in segments(pts, cv))
            elif how in ("wall", "region") and kind != "start_position":
                regions.append({"name": self.region_name(kind, doc), "color": self.colours.get(kind, "#000000"),
                                "shapes": [region_shape(self.shape_of(kind, doc), cv)],
                                "elevation": {"bottom": None, "top": None}, "behaviors": [], "visibility": 2,
                                "locked": True, "flags": flags})
            elif how != "omit":
                pos = tuple(doc["position"])
                x, y = cv.to_px((float(pos[0]), float(pos[1])))
                text = (f"Start {doc['player']} (facing {doc['facing']}°)" if kind == "start_position"
                        else self.region_name(kind, doc))
                notes.append({"x": round(x), "y": round(y), "entryId": None, "pageId": None, "text": text,
                              "texture": {"src": "icons/svg/wing.svg" if kind == "start_position" else "icons/svg/book.svg"},
                              "iconSize": 40, "fontSize": 24, "textAnchor": 1, "global": True, "flags": flags})
        symbol = self.ruleset.units.symbol
        scene = {
            "name": arena.name, "navigation": True, "width": cv.width, "height": cv.height, "padding": 0,
            "backgroundColor": "#c9c9c4",
            "background": {"src": image_name or "", "offsetX": 0, "offsetY": 0, "fit": "fill"},
            "grid": {"type": 1, "size": cv.px, "distance": 1, "units": symbol, "color": "#000000", "alpha": 0.2},
            "tokenVision": True, "walls": walls, "regions": regions, "notes": notes, "lights": [], "tokens": [],
            "drawings": [], "tiles": [], "sounds": [],
            "flags": {FLAGS: {"format": arena.format, "system": arena.system, "printed_mm": _units(arena).printed_mm,
                              f"px_per_{unit}": cv.px, "origin": [cv.left, cv.top], "arena": meta}},
        }
        losses = [f"one grid square is 1 {unit} ({cv.px} px per {unit}, grid.units \"{symbol}\")"]
        if partial:
            losses.append(f"partial cover ({', '.join(partial)}) is a LIMITED sight wall: Foundry lets a sightline "
                          "through one limited wall and stops it at the second, it adds no defense bonus")
        if heavy:
            losses.append(f"Foundry walls cannot be pushed: heavy pieces ({', '.join(heavy)}) block movement outright")
        if light:
            losses.append(f"light pieces ({', '.join(light)}) do not block movement in Foundry (cars push them in the game)")
        round_ones = _names(items, lambda k, d: self._round(k, d) and label(k, d) in walled)
        if round_ones:
            losses.append(f"Foundry walls are straight segments: round pieces ({round_ones}) are 48-sided where they "
                          "are walls")
        losses.append("wall ends and note positions are whole pixels (Foundry stores integers): within half a pixel, "
                      f"1/{2 * cv.px} {unit}")
        losses += self.foundry_notes(arena)
        for key, what in self.foundry_noted:
            if getattr(arena, key, ()) and self.kind_export(key, "foundry") in ("object", "token"):
                losses.append(f"{what} are map notes at their centres: no footprint, they block nothing")
        losses.append(self.foundry_flags_only)
        if not image_name:
            losses.append("no background image: background.src is empty")
        return ExportResult((json.dumps(scene, indent=1, ensure_ascii=False) + "\n").encode("utf-8"), losses)


def _units(arena: ArenaModel) -> Any:
    return getattr(arena, "units")


def _names(items: list[tuple[str, Doc]], pred: Callable[[str, Doc], Any]) -> str:
    from schema.formats.common import label

    return ", ".join(label(k, d) for k, d in items if pred(k, d))


__all__ = ["FLAGS", "LIMITED", "NONE", "NORMAL", "PiecesProfile", "blocks_movement", "blocks_sight"]
