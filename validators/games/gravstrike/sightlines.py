"""``safe-areas``: places from which a turbine sees too little of the arena around it.

The book warns against walls that give "unsurmountable protection". For points on a grid
over the open floor, the engine's exact visible region within ``safe_area_radius`` is compared
with the open floor within that radius; points that see less than ``safe_area_min_visible`` of
it are grouped into regions and reported. The sample grid is square, so in an arena that
declares a symmetry every low point is also taken at its images under the symmetry's operations
that map the walls and bounds onto themselves: a hiding place is reported at every one of its
symmetric places, not only where the grid happened to fall inside it.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np
import shapely
import shapely.affinity
from shapely.geometry import Point

from schema.games.gravstrike.model import Arena
from validators.findings import Finding, Result
from validators.games.gravstrike import sight_memo
from validators.games.gravstrike.common import fmt
from engine.gravstrike.invariance import transforms

#: Grid spacing of the sample points, in lengths.
STEP = 1.5
#: Tolerance (lengths) to which curved walls are simplified for this statistic.
SIMPLIFY = 0.02
#: Polygon segments used for the sight circle.
ARC_SEGMENTS = 48


@lru_cache(maxsize=32)
def _samples(walls_wkb: bytes, bounds_wkb: bytes, floor_wkb: bytes, width: float,
             radius: float) -> tuple[tuple[float, float, float], ...]:
    """(x, y, visible share) on a STEP grid of the places the turbine's centre can be. Cached by
    the walls and bounds, so edits that move no wall (the editor's live runs) cost nothing; after
    a wall edit only the samples within the radius of a changed wall part are recomputed
    (:mod:`validators.games.gravstrike.sight_memo`)."""
    floor = shapely.from_wkb(floor_wkb)
    if floor.is_empty:  # walls cover the whole arena: no place to stand, nothing to sample
        return ()
    # curved walls and bounds simplified to within SIMPLIFY lengths: a visibility share, not a ruling
    walls = shapely.from_wkb(walls_wkb)
    walls = walls.simplify(SIMPLIFY) if not walls.is_empty else shapely.Polygon()
    bounds = shapely.from_wkb(bounds_wkb).simplify(SIMPLIFY)
    # the turbine's centre can't be closer than half a width to a wall
    room = floor.buffer(-width / 2.0)
    shapely.prepare(room)
    minx, miny, maxx, maxy = floor.bounds
    gx = np.arange(minx + STEP / 2.0, maxx, STEP)
    gy = np.arange(miny + STEP / 2.0, maxy, STEP)
    xs, ys = (a.ravel() for a in np.meshgrid(gx, gy))  # row by row, as the report lists them
    keep = shapely.contains_xy(room, xs, ys)
    xs, ys = xs[keep], ys[keep]
    if not len(xs):
        return ()
    # the visible region stops at the (simplified) walls and the bounds: it lies in the open floor
    share = sight_memo.shares(xs, ys, radius, walls, bounds, ARC_SEGMENTS)
    return tuple(zip(xs.tolist(), ys.tolist(), share.tolist()))


class SafeAreasValidator:
    id = "safe-areas"
    title = "No hiding places that see little of the arena"
    severity = "warning"
    games = ("gravstrike",)
    needs_travel = False

    def evaluate(self, arena: Arena, context: Any) -> Result:
        th = arena.scenario.analysis
        radius, floor_share = th.safe_area_radius, th.safe_area_min_visible
        bounds = arena.bounds_geometry()
        walls = arena.walls_geometry() if arena.walls else shapely.Polygon()
        floor = bounds.difference(walls) if arena.walls else bounds
        samples = _samples(shapely.to_wkb(walls), shapely.to_wkb(bounds), shapely.to_wkb(floor), arena.turbine.width, radius)
        shares = [s for _, _, s in samples]
        metrics = {"safe_areas": {"samples": len(samples), "radius": radius,
                                  "min_visible": round(min(shares), 3) if shares else None,
                                  "mean_visible": round(sum(shares) / len(shares), 3) if shares else None}}
        low = [(x, y, s) for x, y, s in samples if s < floor_share]
        if not low:
            return Result([], metrics)
        boxes = [shapely.box(x - STEP / 2, y - STEP / 2, x + STEP / 2, y + STEP / 2) for x, y, _ in low]
        # The sample grid is not symmetric: a hiding place found at one of a symmetric arena's
        # places is, by the symmetry, at all of them - they are reported alike.
        sym = arena.symmetry
        ops = _wall_symmetries(shapely.to_wkb(walls), shapely.to_wkb(bounds), sym.kind, sym.order,
                               tuple(sym.center), sym.axis) if sym is not None else ()
        found, found_boxes = list(low), list(boxes)
        for matrix in ops:
            boxes += [shapely.affinity.affine_transform(b, matrix) for b in found_boxes]
            low += [(*_apply(matrix, x, y), v) for x, y, v in found]
        cells = shapely.union_all(boxes)
        regions = list(getattr(cells, "geoms", [cells]))
        out = []
        for region in sorted(regions, key=lambda r: (-r.area, r.centroid.x)):
            inside = [(x, y, s) for x, y, s in low if region.buffer(1e-9).contains(Point(x, y))]
            worst = min(inside, key=lambda t: t[2])
            c = region.centroid
            near = _nearest_walls(arena, region)
            out.append(Finding(
                self.id, "warning",
                f"a turbine around ({fmt(c.x)}, {fmt(c.y)}) sees only {worst[2]:.0%} of the open arena within "
                f"{fmt(radius)} lengths (threshold {floor_share:.0%}): a hiding place the book warns against — "
                f"open up or shorten {', '.join(near) if near else 'the walls around it'}",
                tuple(near),
                {"centre": [round(c.x, 2), round(c.y, 2)], "area": round(region.area, 2), "min_visible": round(worst[2], 3)},
            ))
        return Result(out, metrics)


@lru_cache(maxsize=32)
def _wall_symmetries(walls_wkb: bytes, bounds_wkb: bytes, kind: str, order: int, center: tuple[float, float],
                     axis: float) -> tuple[tuple[float, ...], ...]:
    """Affine matrices (shapely's ``[a, b, d, e, xoff, yoff]``) of the declared symmetry's
    operations under which the walls and the bounds - all that the statistic depends on - map
    onto themselves (to within 0.5 % of the walls' area)."""
    walls, bounds = shapely.from_wkb(walls_wkb), shapely.from_wkb(bounds_wkb)
    cx, cy = center
    out = []
    for _name, (a, b, c, d), _mirror in transforms(kind, order, axis):
        matrix = (a, b, c, d, cx - a * cx - b * cy, cy - c * cx - d * cy)
        if shapely.affinity.affine_transform(bounds, matrix).hausdorff_distance(bounds) > 0.05:
            continue
        if not walls.is_empty:
            image = shapely.affinity.affine_transform(walls, matrix)
            if image.symmetric_difference(walls).area > 0.005 * walls.area + 1e-3:
                continue
        out.append(matrix)
    return tuple(out)


def _apply(matrix: tuple[float, ...], x: float, y: float) -> tuple[float, float]:
    a, b, d, e, xoff, yoff = matrix
    return (a * x + b * y + xoff, d * x + e * y + yoff)


def _nearest_walls(arena: Arena, region: Any) -> list[str]:
    ranked = sorted((w.shape.to_shapely().distance(region), w.id) for w in arena.walls)
    return [wid for d, wid in ranked[:2] if d < 3.0 and math.isfinite(d)]
