"""``wall-tunnelling``: walls a turbine can get through within a single length.

Rams are only checked at the end of a length (the book: nothing happens in the middle of a
length), so a wall thinner than what one length can carry the footprint across is no wall.
The thickest passable wall follows from the motion model: for a length with displacement v,
start heading θ and end heading θ', a straight wall of thickness t with normal n is crossed
legally when v·n − e(θ, n) − e(θ', n) ≥ t, e being the footprint's half-extent along n. Walls
whose thinnest section (twice the largest inscribed circle's radius, or a polyline's
thickness) is within that bound are then confirmed with the engine — a start pose and a length
(or an acceleration-field push) that really end on the other side without a ram — and the
witness is reported as the finding's path.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np
import shapely
import shapely.affinity
from shapely.geometry import LineString

from engine import budget as caps
from engine.gravstrike.geometry import TOLERANCE, ArenaGeometry
from engine.gravstrike.motion import (MANEUVERS, Maneuver, Pose, centre_path, local_displacement, max_displacement_by_cost,
                                      move, push)
from schema.games.gravstrike.model import Arena, Polyline, Turbine
from validators.games.gravstrike.common import fmt
from validators.findings import Finding, Result

HEADING_STEP = 15
OFFSETS = (0.26, 0.32, 0.4, 0.5, 0.62)
SPACING = 0.15


def _extent(turbine: Turbine, heading: float, normal: float) -> float:
    a = math.radians(heading - normal)
    return abs(math.cos(a)) * turbine.length / 2.0 + abs(math.sin(a)) * turbine.width / 2.0


@lru_cache(maxsize=8)
def passable_thickness(turbine: Turbine) -> tuple[float, Maneuver, float]:
    """(thickest straight wall one length can cross, the maneuver that does it, push bound)."""
    best = (-math.inf, MANEUVERS[0])
    for m in MANEUVERS:
        lx, ly = local_displacement(m, turbine)
        for tenth in range(0, 3600, 5):
            n = tenth / 10.0
            r = math.radians(n)
            t = lx * math.cos(r) + ly * math.sin(r) - _extent(turbine, 0.0, n) - _extent(turbine, m.turn, n)
            if t > best[0]:
                best = (t, m)
    push_bound = turbine.length - turbine.width  # heading across the push: half-width each side
    return best[0], best[1], push_bound


def wall_thickness(shape: Any, geom: Any) -> float:
    if isinstance(shape, Polyline):
        return float(shape.thickness)
    circle = shapely.maximum_inscribed_circle(geom, 0.005)
    return 2.0 * float(circle.length)


class WallTunnellingValidator:
    id = "wall-tunnelling"
    title = "No wall thin enough to pass through in one length"
    severity = "warning"
    games = ("gravstrike",)
    needs_travel = False

    def evaluate(self, arena: Arena, context: Any) -> Result:
        return _evaluate(arena.walls, arena.acceleration_fields, arena.bounds, arena.turbine, self.id)


@lru_cache(maxsize=16)
def _evaluate(walls: Any, fields: Any, bounds: Any, turbine: Any, code: str) -> Result:
    """The verdict depends only on the walls, fields, bounds and turbine: cached on them, so
    edits that move none of these (the editor's live runs) cost nothing."""
    return _verdict(Arena(name="walls", bounds=bounds, walls=walls, acceleration_fields=fields, turbine=turbine), code)


def _verdict(arena: Arena, code: str) -> Result:
    turbine = arena.turbine
    t_move, how, t_push = passable_thickness(turbine)
    geo = ArenaGeometry(arena)
    # farthest a wall can be from the one tested and still meet a footprint before or after one
    # length from a sample: the length's longest move plus the footprint's half diagonal
    reach = max(max_displacement_by_cost(turbine).values()) + math.hypot(turbine.length, turbine.width) / 2.0 + 0.05
    out = []
    thickness: dict[str, float] = {}
    for wall in arena.walls:
        caps.tick()  # the analysis's caps (engine.budget), between two walls
        geom = wall.shape.to_shapely()
        t = wall_thickness(wall.shape, geom)
        thickness[wall.id] = round(t, 3)
        witness = None
        if t <= t_move + 1e-6:
            near = tuple(w for w in arena.walls if w.shape.to_shapely().distance(geom) <= OFFSETS[-1] + reach)
            witness = _wall_witness(wall, near, arena.acceleration_fields, arena.bounds, turbine)
        if witness is None and t <= t_push + 1e-6:
            witness = _push_witness(arena, geo, geom)
        if witness is None:
            continue
        start, end, label = witness
        need = max(t_move, t_push) if "push" in label else t_move
        out.append(Finding(
            code, "warning",
            f"wall {wall.id} is only {t:.2f} lengths thick: a turbine can get through it within one length "
            f"({label} from ({fmt(start.x)}, {fmt(start.y)}) heading {fmt(start.heading)}), since rams are only "
            f"checked at the end of a length — make it thicker than {need:.2f} lengths",
            (wall.id,), {"thickness": round(t, 3), "passable": round(need, 3)},
            tuple({"x": round(p.x, 3), "y": round(p.y, 3), "heading": round(p.heading, 3), "speed": 1, "turn": 1,
                   "length": i, "pushed_by": label.split()[-1] if "push" in label and i else None}
                  for i, p in enumerate((start, end)))))
    return Result(out, {"wall_thickness": thickness,
                        "passable_thickness": {"maneuver": round(t_move, 3), "maneuver_kind": how.label,
                                               "push": round(t_push, 3)}})


def _crosses(path: list[tuple[float, float]], wall: Any) -> bool:
    return bool(LineString(path).intersection(wall).length > 1e-6)


def _samples(wall: Any) -> list[tuple[float, float]]:
    pts = []
    for off in OFFSETS:
        ring = wall.buffer(off, quad_segs=4).exterior
        n = max(4, int(ring.length / SPACING))
        pts += [(p.x, p.y) for p in (ring.interpolate(i / n, normalized=True) for i in range(n))]
    return pts


@lru_cache(maxsize=256)
def _wall_witness(wall: Any, near: Any, fields: Any, bounds: Any, turbine: Any) -> tuple[Pose, Pose, str] | None:
    """:func:`_maneuver_witness` for ``wall`` among the walls ``near`` it (within a length's
    reach of its samples, itself included: the others can't meet the poses tested around it - on
    a big table, testing every wall for every pose cost most of a validation).  Cached on exactly
    what it reads, so dragging one wall tests again only the thin walls near it."""
    arena = Arena(name="walls", bounds=bounds, walls=near, acceleration_fields=fields, turbine=turbine)
    return _maneuver_witness(ArenaGeometry(arena), wall.shape.to_shapely())


def _maneuver_witness(geo: ArenaGeometry, wall: Any) -> tuple[Pose, Pose, str] | None:
    for x, y in _samples(wall):
        for k in range(0, 360, HEADING_STEP):
            pose = Pose(x, y, float(k))
            if geo.ram_feature(pose) is not None:
                continue
            for m in MANEUVERS:
                end = move(pose, m, geo.turbine)
                if geo.ram_feature(end) is None and _crosses(centre_path(pose, m, geo.turbine), wall):
                    return pose, end, f"a {m.label}"
    return None


def _push_witness(arena: Arena, geo: ArenaGeometry, wall: Any) -> tuple[Pose, Pose, str] | None:
    """Walk poses towards the wall along each nearby field's push, on parallel lines across the
    field (vectorised); the last legal pose of each run touching the field is the candidate."""
    turbine = arena.turbine
    reach = math.hypot(turbine.length, turbine.width) / 2.0
    hl, hw = turbine.length / 2.0 - TOLERANCE, turbine.width / 2.0 - TOLERANCE
    local = np.array([(hl, hw), (-hl, hw), (-hl, -hw), (hl, -hw)])
    for f in arena.acceleration_fields:
        area = f.shape.to_shapely()
        d = math.radians(f.direction)
        dx, dy, px, py = math.cos(d), math.sin(d), -math.sin(d), math.cos(d)
        near = area.buffer(reach)
        swept = shapely.union_all([near, shapely.affinity.translate(near, dx * turbine.length, dy * turbine.length)]).convex_hull
        if not swept.intersects(wall):
            continue
        c = area.centroid
        shapely.prepare(area)
        shapely.prepare(near)
        # footprints centred outside ``near`` can't touch the field; walls beyond twice the reach
        # can't touch a footprint centred inside it
        around = area.buffer(2.0 * reach + 0.01)
        walls = [g for _, g in geo.walls if g.intersects(around)]
        minx, miny, maxx, maxy = near.bounds
        span = math.hypot(maxx - minx, maxy - miny) / 2.0
        us = np.arange(-span, span + 1e-9, 0.01)
        for lateral in np.arange(-span, span + 1e-9, 0.1):
            for h in (f.direction + 90.0, f.direction + 60.0, f.direction + 120.0):
                hr = math.radians(h)
                rot = np.array([[math.cos(hr), -math.sin(hr)], [math.sin(hr), math.cos(hr)]])
                cx = c.x + us * dx + lateral * px
                cy = c.y + us * dy + lateral * py
                idx = np.flatnonzero(shapely.contains_xy(near, cx, cy))
                ok = np.zeros(len(us), dtype=bool)
                if not len(idx):
                    continue
                corners = np.stack([cx[idx], cy[idx]], axis=1)[:, None, :] + (local @ rot.T)[None, :, :]
                polys = shapely.polygons(corners)
                sub = shapely.contains(geo.bounds, polys) & shapely.intersects(area, polys)
                for g in walls:
                    sub &= ~shapely.intersects(g, polys)
                ok[idx] = sub
                ends = np.flatnonzero(ok & ~np.append(ok[1:], False))
                for i in ends:
                    pose = Pose(float(cx[i]), float(cy[i]), h % 360.0)
                    moved = push(pose, f.direction, turbine)
                    if geo.ram_feature(moved) is None and _crosses([(pose.x, pose.y), (moved.x, moved.y)], wall):
                        return pose, moved, f"a push by {f.id}"
    return None


def _frange(lo: float, hi: float, step: float) -> list[float]:
    n = int((hi - lo) / step)
    return [lo + i * step for i in range(n + 1)]
