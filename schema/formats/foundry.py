"""Foundry Virtual Tabletop scene JSON (v12/v13 scene documents, importable with "Import Data"
on a scene).

Pixels, y down, one grid square (``grid.size`` px, ``grid.distance`` = 1) per unit of the
arena.  ``background.src`` names the rendered arena image (written beside the JSON; Foundry
scenes reference images by path, never embed them).  Which elements become ``walls`` segments
(blocking movement, sight and light), ``regions`` (Foundry region shapes: ellipse, rectangle
rotated about its centre, polygon: :func:`region_shape`) or map ``notes`` is the game's export
profile's (:meth:`schema.formats.systems.ExportProfile.foundry`; e.g. Gravstrike's in
``schema/games/gravstrike/exports.py``).  Our ids and fields ride along in each document's
``flags["arena-studio"]``.  Write-only.
"""

from __future__ import annotations

from schema.formats.base import DEFAULT_PX_PER_LENGTH, Canvas, Capabilities, ExportResult, FormatError, outline
from schema.formats.grid_games import refuse
from schema.formats.systems import Doc, profile_of
from schema.ruleset import ArenaModel
from schema.shapes import Circle, Point, Rect, Shape

#: CONST.GRID_MIN_SIZE: Foundry refuses smaller grid squares.
GRID_MIN_SIZE = 20


def _r(v: float) -> float:
    return round(v, 3) + 0.0


def region_shape(s: Shape, cv: Canvas) -> Doc:
    """A Foundry region shape of ``s`` in the pixels of ``cv``."""
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


def segments(points: list[Point], cv: Canvas) -> list[list[int]]:
    """Closed outline as wall segments: WallData.c is four integers (whole pixels); segments
    that rounding shrinks to a point are left out."""
    px = [(round(x), round(y)) for x, y in (cv.to_px(p) for p in points)]
    segs = [[px[i][0], px[i][1], px[(i + 1) % len(px)][0], px[(i + 1) % len(px)][1]] for i in range(len(px))]
    return [c for c in segs if (c[0], c[1]) != (c[2], c[3])]


class FoundryFormat:
    name: str = "foundry"
    extensions: tuple[str, ...] = (".json",)
    capabilities: Capabilities = Capabilities(read=False, write=True, needs_image=True)

    def write(self, arena: ArenaModel, *, image_png: bytes | None = None,
              px_per_length: int = DEFAULT_PX_PER_LENGTH, image_name: str | None = None,
              suffix: str | None = None) -> ExportResult:
        """The game's scene (its export profile's :meth:`~schema.formats.systems.ExportProfile.foundry`)."""
        refuse(self.name, arena)
        return profile_of(arena).foundry(arena, image_png, px_per_length, image_name)

    def read(self, data: bytes, *, source: str = "<foundry>", warnings: list[str] | None = None) -> ArenaModel:
        raise FormatError(f"{source}: Foundry scenes cannot be imported back (walls lose which element they were)")
