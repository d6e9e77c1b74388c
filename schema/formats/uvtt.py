"""Universal VTT (``.dd2vtt``), as written by Dungeondraft and read by Foundry importers,
Owlbear Rodeo, Fantasy Grounds Unity and others.

Units are grid cells (one cell = one length) measured from the image's top-left corner, y down;
``resolution.map_origin`` is (0, 0), ``map_size`` the image size in cells and
``pixels_per_grid`` the image's pixels per cell.  ``line_of_sight`` holds one closed polyline
per wall outline plus the arena bounds, so VTT dynamic lighting blocks sight and movement there.
Everything else exists only in the embedded image (base64 PNG of :func:`~schema.formats.base.canvas`).
Write-only: UVTT has nowhere to keep our fields.
"""

from __future__ import annotations

import base64
import json

from schema.formats.grid_games import refuse
from schema.formats.base import DEFAULT_PX_PER_LENGTH, Capabilities, ExportResult, FormatError, canvas, outline
from schema.formats.common import ids, split
from schema.model import Arena, Circle, Point

UVTT_FORMAT = 0.3


def _pt(p: tuple[float, float]) -> dict[str, float]:
    return {"x": round(p[0], 6) + 0.0, "y": round(p[1], 6) + 0.0}


class UVTTFormat:
    name: str = "uvtt"
    extensions: tuple[str, ...] = (".dd2vtt", ".uvtt")
    capabilities: Capabilities = Capabilities(read=False, write=True, needs_image=True)

    def write(self, arena: Arena, *, image_png: bytes | None = None,
              px_per_length: int = DEFAULT_PX_PER_LENGTH, image_name: str | None = None,
              suffix: str | None = None) -> ExportResult:
        refuse(self.name, arena)
        if getattr(arena, "system", "gravstrike") != "gravstrike":
            from schema.formats.carwars import uvtt_write

            return uvtt_write(arena, image_png, px_per_length)
        if image_png is None:
            raise FormatError("UVTT embeds the map image: render the arena first (no image was given)")
        cv = canvas(arena, px_per_length)
        _, items = split(arena)

        def ring(points: list[Point]) -> list[dict[str, float]]:
            return [_pt(cv.to_cells(p)) for p in points + points[:1]]

        los = [ring(pts) for pts in outline(arena.bounds)]
        for wall in arena.walls:
            los.extend(ring(pts) for pts in outline(wall.shape))
        doc = {
            "format": UVTT_FORMAT,
            "resolution": {"map_origin": {"x": 0, "y": 0}, "map_size": {"x": cv.cols, "y": cv.rows},
                           "pixels_per_grid": cv.px},
            "line_of_sight": los,
            "objects_line_of_sight": [],
            "portals": [],
            "environment": {"baked_lighting": True, "ambient_light": "ffffffff"},
            "lights": [],
            "image": base64.b64encode(image_png).decode("ascii"),
        }
        circles = [w.id for w in arena.walls if isinstance(w.shape, Circle)]
        losses = []
        if arena.acceleration_fields:
            losses.append("UVTT has no acceleration fields: %s dropped (painted on the image only; field directions "
                          "not representable)" % ids(items, "acceleration_field"))
        for kinds, what in ((("checkpoint",), "checkpoints"), (("gate",), "gates"),
                            (("exclusion_field",), "exclusion fields (and their tiers)"),
                            (("static_target",), "static targets"), (("start_position",), "start positions and facings")):
            if ids(items, *kinds):
                losses.append(f"UVTT has no {what}: {ids(items, *kinds)} are on the image only")
        if circles:
            losses.append("UVTT walls are polylines: circular walls (%s) are 48-sided polygons" % ", ".join(circles))
        losses.append("scenario, turbine, symmetry, tags and author/licence are dropped")
        return ExportResult((json.dumps(doc, indent=1) + "\n").encode("utf-8"), losses)

    def read(self, data: bytes, *, source: str = "<uvtt>", warnings: list[str] | None = None) -> Arena:
        raise FormatError(f"{source}: UVTT files cannot be imported (they keep only walls and an image)")
