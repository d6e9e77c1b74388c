"""Where a start's turning key lies (Starting Positions: "Place the turning key against the arena
edge and then position the car in any orientation, so long as some part of the base is touching
the turning key").

The key lies inside the arena with its outer long side against the edge, in one of three ways:

- **flush** along a straight stretch of the edge at least a key long (searched exactly: the key
  slides along the stretch);
- **its two outer corners on the edge**: a chord across a curved or many-sided edge (a round arena
  is a polygon of many short sides), where the edge under the key turns by at most
  ``CHORD_MAX_TURN`` degrees in all (an octagon's corner, not a square's: a key across a 90-degree
  corner touches the walls only at its two corners);
- **a point of its outer side between the corners on the edge**: tangent to an edge that bulges
  inward (the key rests on an inward corner of the outline, turned anywhere the edge allows).

A key with a single corner on the edge and the rest of its side off it is not against the edge.
The last two ways are searched near the car (keys whose corners lie within one key length plus
the key's diagonal of it): a placement every ``KEY_SAMPLE`` car lengths along the edge (chords) or
of turn at the key's far end (tangents), and wherever consecutive placements go from clear of the
car to overlapping it, bisection to the placement that just touches it.

>>> from schema.games.carwars import CarWarsArena, StartPosition
>>> from schema.games.gravstrike.model import Circle
>>> round_arena = CarWarsArena(name="r", bounds=Circle((0.0, 0.0), 18.0),
...                            start_positions=(StartPosition(1, (0.0, -14.5), 90.0),))
>>> k = start_key(round_arena, 1)
>>> k.polygon is not None, k.gap < 1e-6
(True, True)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry import Polygon as ShapelyPolygon
from shapely.geometry.base import BaseGeometry
from shapely.geometry.polygon import orient

from engine.carwars.issues import fmt
from engine.carwars.motion import Pose, car_outline
from schema.games.carwars import CarWarsArena

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
#: Placement step of the chord and tangent searches, in car lengths (along the edge; of turn, at
#: the key's far end).
KEY_SAMPLE = 1.0 / 60.0
#: How far (key lengths) beyond touching the chord and tangent searches look for the nearest key,
#: for the message of a start whose car no key touches.
KEY_REACH = 1.0
#: The tangent search turns the key this many placement steps (at its far end) at a time: a
#: turn from clear of the car to overlapping it is bisected all the same.
TURN_STEPS = 4.0
#: The most the edge may turn, in degrees (the sum of its corners' turns, either way), between
#: the two outer corners of a key resting on it as a chord: 45 admits a regular octagon's corner and
#: anything rounder, not a square's 90.
CHORD_MAX_TURN = 45.0
#: Halvings that bring a placement from clear of the car to just touching it.
BISECTIONS = 40
#: Placements whose corners move more than this many steps between neighbours are not neighbours
#: (the chord's far end jumped to another part of the edge).
JUMP = 10.0

Placement = Callable[[IntArray, FloatArray], tuple[FloatArray, FloatArray, npt.NDArray[np.bool_]]]


@dataclass(frozen=True)
class KeyPlacement:
    """A turning key against the arena edge touching the start's car (``polygon``), or None with
    ``gap`` the car's distance from the nearest key that fits and ``reason``."""

    player: int
    polygon: tuple[tuple[float, float], ...] | None
    gap: float
    reason: str = ""
    overlaps: tuple[str, ...] = ()


def placement_obstacles(arena: CarWarsArena) -> list[tuple[str, BaseGeometry]]:
    """What neither a starting car nor its turning key may overlap: walls, obstacles and tokens
    (flat things - terrain, hazard cards one drives over, numbered cards - excepted)."""
    out = [(w.id, w.shape.to_shapely()) for w in arena.walls]
    out += [(o.id, o.shape.to_shapely()) for o in arena.obstacles if o.weight != "drive-thru"]
    out += [(t.id, t.shape.to_shapely()) for t in arena.tokens if t.weight != "drive-thru"]
    out += [(h.id, h.shape.to_shapely()) for h in arena.hazards if not h.drive_over]
    return out


@dataclass
class _Search:
    """One start's search: the car, what the key may not overlap, and the best key so far."""

    car: BaseGeometry
    things: list[tuple[str, BaseGeometry]]
    thing_geoms: npt.NDArray[Any]
    inner: BaseGeometry
    length: float
    width: float
    tol: float
    found: tuple[tuple[float, float], tuple[tuple[float, float], ...]] | None = None
    gap: float = math.inf
    why: str = ""

    def blockers(self, key: BaseGeometry) -> list[str]:
        return [self.things[k][0] for k in np.flatnonzero(shapely.intersects(self.thing_geoms, key.buffer(-1e-6)))]

    def take(self, key: BaseGeometry, gap: float) -> None:
        rank = (round(gap, 9), key.centroid.distance(self.car.centroid))
        if self.found is None or rank < self.found[0]:
            self.found = (rank, tuple((float(x), float(y)) for x, y in np.asarray(key.exterior.coords)[:-1]))


def start_key(arena: CarWarsArena, player: int) -> KeyPlacement:
    """Where the turning key lies for start ``player`` (see the module's text): against the arena
    edge, inside the arena, touching the car (within the scenario's ``key_touch_tolerance``),
    neither the key nor the car overlapping walls, obstacles, tokens or the other starting cars."""
    st = arena.start(player)
    v = arena.vehicle
    car = car_outline(Pose(st.position[0], st.position[1], st.facing), v)
    others = [(s.id, car_outline(Pose(s.position[0], s.position[1], s.facing), v))
              for s in arena.start_positions if s.player != player]
    things = placement_obstacles(arena) + others
    bounds = arena.bounds_geometry()
    hit = [i for i, g in things if g.intersects(car.buffer(-1e-6))]
    if not bounds.buffer(1e-6).covers(car):
        hit.append("bounds")
    if hit:
        return KeyPlacement(player, None, math.inf, f"the car overlaps {', '.join(hit)}", tuple(hit))
    inner = bounds.buffer(1e-6)
    shapely.prepare(inner)
    shapely.prepare(car)  # a new polygon of this search's own: the many keys are tested against it
    search = _Search(car, things, np.array([g for _, g in things], dtype=object), inner, v.key_length, v.key_width,
                     arena.scenario.analysis.key_touch_tolerance)
    _flush(search, bounds)
    if search.found is None:
        _resting(search, bounds, KEY_SAMPLE * v.length)
    if search.found is not None:
        return KeyPlacement(player, search.found[1], search.found[0][0])
    why = search.why or (f"no turning key fits against the arena edge within {fmt(KEY_REACH * v.key_length)} in "
                         "of the car")
    return KeyPlacement(player, None, search.gap, why)


def start_keys(arena: CarWarsArena) -> dict[int, KeyPlacement]:
    """Every start's turning key (for the editor to draw)."""
    return {s.player: start_key(arena, s.player) for s in arena.start_positions}


# ------------------------------------------------------------------ flush on a straight stretch


def _edges(bounds: BaseGeometry) -> list[tuple[FloatArray, FloatArray]]:
    """Straight stretches of the arena edge (collinear pieces merged), counter-clockwise."""
    c = np.asarray(orient(bounds, 1.0).exterior.coords)[:-1]
    n = len(c)
    keep = []
    for k in range(n):
        a, v, b = c[k - 1], c[k], c[(k + 1) % n]
        if abs((v[0] - a[0]) * (b[1] - v[1]) - (v[1] - a[1]) * (b[0] - v[0])) > 1e-9 * max(1.0, float(np.hypot(*(b - a))) ** 2):
            keep.append(v)
    keep = keep or list(c)
    return [(keep[k], keep[(k + 1) % len(keep)]) for k in range(len(keep))]


def _flush(search: _Search, bounds: BaseGeometry) -> None:
    """Keys flush against the straight stretches a key long, slid to where they touch the car."""
    car, tol, L, w = search.car, search.tol, search.length, search.width
    cc = np.asarray(car.exterior.coords)
    for a, b in _edges(bounds):
        d = b - a
        length = float(np.hypot(*d))
        if length < L - 1e-9:
            continue
        u = d / length
        n = np.array([-u[1], u[0]])
        band = ShapelyPolygon([a, b, b + w * n, a + w * n])
        near = band.distance(car)
        if near > tol + 1e-9:  # no key along this stretch can touch the car
            if near < search.gap:
                search.gap, search.why = near, f"the car is {fmt(near)} in from the nearest turning key against the edge"
            continue
        proj = (cc - a) @ u
        cands = set(np.clip(np.concatenate([proj - L, proj, proj - L / 2.0, [0.0, length - L]]), 0.0, length - L).round(9).tolist())
        for s in sorted(cands):
            p0 = a + s * u
            key = ShapelyPolygon([p0, p0 + L * u, p0 + L * u + w * n, p0 + w * n])
            if not search.inner.covers(key):
                continue
            gap = key.distance(car)
            if gap > tol + 1e-9:
                if gap < search.gap and not shapely.intersects(search.thing_geoms, key.buffer(-1e-6)).any():
                    search.gap, search.why = gap, f"the car is {fmt(gap)} in from the nearest turning key that fits"
                continue
            if key.buffer(-max(tol, 1e-6)).intersects(car):
                continue
            blocked = search.blockers(key)
            if blocked:
                if search.gap > 0:
                    search.gap, search.why = 0.0, f"the turning key would overlap {', '.join(blocked)}"
                continue
            search.take(key, gap)


# ------------------------------------------------------------------ chords and tangents


def _resting(search: _Search, bounds: BaseGeometry, step: float) -> None:
    """Keys resting on the edge at both corners (chords) or at an inward corner (tangents), near
    the car."""
    ring = np.asarray(orient(bounds, 1.0).exterior.coords)[:-1]
    d = np.roll(ring, -1, axis=0) - ring
    ring = ring[np.hypot(d[:, 0], d[:, 1]) > 1e-12]
    if len(ring) < 3:
        return
    L, w = search.length, search.width
    radius = math.hypot(L, w) + max(search.tol, KEY_REACH * L)
    near_point = shapely.distance(shapely.points(ring), search.car) <= radius
    segments = shapely.linestrings(np.stack([ring, np.roll(ring, -1, axis=0)], axis=1))
    near_segment = shapely.distance(segments, search.car) <= radius
    if near_segment.any():
        lane, param, place = _chords(ring, near_segment, L, step)
        _scan(search, lane, param, place, JUMP * step)
    if near_point.any():
        lane, param, place = _tangents(ring, near_point, np.asarray(search.car.exterior.coords)[:-1], L, step)
        if len(lane):
            _scan(search, lane, param, place, math.inf)  # a tangent turns smoothly: no jumps


def _chords(ring: FloatArray, near: npt.NDArray[np.bool_], L: float, step: float) -> tuple[IntArray, FloatArray, Placement]:
    """Chord placements: the key's first outer corner at arc length ``param`` along the edge
    (counter-clockwise, unwrapped past the end), the second where the edge first leaves the
    circle of one key length about it; a lane per run of segments near the car."""
    m = len(ring)
    a, b = ring, np.roll(ring, -1, axis=0)
    seg = np.hypot(*(b - a).T)
    start = np.concatenate([[0.0], np.cumsum(seg)])
    total = float(start[-1])
    starts = np.concatenate([start[:-1], start[:-1] + total])
    # turned[j]: the edge's turn (absolute, summed) from segment 0 to segment j (unwrapped, j < 2m)
    d = b - a
    heading = np.arctan2(d[:, 1], d[:, 0])
    corner = np.abs((heading - np.roll(heading, 1) + math.pi) % (2.0 * math.pi) - math.pi)  # at each segment's start
    turned = np.concatenate([[0.0], np.cumsum(np.concatenate([corner[1:], corner]))])
    limit = math.radians(CHORD_MAX_TURN) + 1e-9
    if near.all():
        runs = [list(range(m))]
    else:
        first = int(np.flatnonzero(~near)[0])
        runs, run = [], []
        for k in [(first + i) % m for i in range(1, m + 1)]:
            if near[k]:
                run.append(k)
            elif run:
                runs.append(run)
                run = []
        if run:
            runs.append(run)
    lanes, params = [], []
    for r, run in enumerate(runs):
        t0 = float(start[run[0]])
        offsets = np.concatenate([[0.0], np.cumsum(seg[run])])  # unwrapped: a run may pass the ring's start
        ts = np.linspace(t0, t0 + offsets[-1], max(2, int(math.ceil(offsets[-1] / step)) + 1))
        ts = np.union1d(ts, t0 + offsets)  # every vertex of the run
        params.append(ts)
        lanes.append(np.full(len(ts), r, dtype=np.int64))

    def place(lane: IntArray, t: FloatArray) -> tuple[FloatArray, FloatArray, npt.NDArray[np.bool_]]:
        k = np.clip(np.searchsorted(starts, t, side="right") - 1, 0, 2 * m - 1)
        seg_k = k % m
        lam = np.clip((t - starts[k]) / seg[seg_k], 0.0, 1.0)
        p = a[seg_k] + lam[:, None] * (b[seg_k] - a[seg_k])
        q, ok, q_seg = _first_exit(a, b, p, seg_k, L)
        ok &= turned[q_seg + np.where(q_seg < seg_k, m, 0)] - turned[seg_k] <= limit
        u = np.where(ok[:, None], (q - p) / L, 0.0)
        return p, u, ok

    return np.concatenate(lanes), np.concatenate(params), place


def _first_exit(a: FloatArray, b: FloatArray, p: FloatArray, k: IntArray,
                L: float) -> tuple[FloatArray, npt.NDArray[np.bool_], IntArray]:
    """Where the edge, followed counter-clockwise from ``p`` (on segment ``k``), first leaves the
    circle of radius ``L`` about ``p``, and that point's segment; ``ok`` False where it never does."""
    m, n = len(a), len(p)
    q = np.zeros((n, 2))
    ok = np.zeros(n, dtype=bool)
    q_seg = k.copy()
    todo = np.arange(n)
    origin, seg = p.copy(), k.copy()
    for _ in range(m + 1):
        if not len(todo):
            break
        o, e, c = origin[todo], b[seg[todo]], p[todo]
        dv, f = e - o, o - c
        aa = np.einsum("ij,ij->i", dv, dv)
        bb = 2.0 * np.einsum("ij,ij->i", f, dv)
        cc = np.einsum("ij,ij->i", f, f) - L * L
        real = aa > 1e-24
        lam = np.where(real, (-bb + np.sqrt(np.maximum(bb * bb - 4.0 * aa * cc, 0.0))) / (2.0 * np.where(real, aa, 1.0)), 2.0)
        hit = real & (lam <= 1.0)
        q[todo[hit]] = o[hit] + lam[hit, None] * dv[hit]
        ok[todo[hit]] = True
        q_seg[todo[hit]] = seg[todo[hit]]
        todo = todo[~hit]
        seg[todo] = (seg[todo] + 1) % m
        origin[todo] = a[seg[todo]]
    return q, ok, q_seg


def _tangents(ring: FloatArray, near: npt.NDArray[np.bool_], car: FloatArray, L: float,
              step: float) -> tuple[IntArray, FloatArray, Placement]:
    """Tangent placements: the key's outer side through an inward (reflex) corner of the edge,
    turned by ``param`` radians anywhere between the corner's two sides, slid so that one end or
    the middle of the key is level with a corner of the car (or an end of the key on the edge's
    corner); a lane per edge corner and slide rule."""
    m = len(ring)
    d_in = ring - np.roll(ring, 1, axis=0)
    d_out = np.roll(ring, -1, axis=0) - ring
    cross = d_in[:, 0] * d_out[:, 1] - d_in[:, 1] * d_out[:, 0]
    reflex = (cross < -1e-9 * np.hypot(*d_in.T) * np.hypot(*d_out.T)) & near
    corners = np.flatnonzero(reflex)
    n_car = len(car)
    rules = 3 * n_car + 2
    lanes, params = [], []
    for i in corners:
        out_angle = math.atan2(d_out[i, 1], d_out[i, 0])
        span = (math.atan2(d_in[i, 1], d_in[i, 0]) - out_angle) % (2.0 * math.pi)
        thetas = out_angle + np.linspace(0.0, span, max(2, int(math.ceil(span * L / (TURN_STEPS * step))) + 1))
        for r in range(rules):
            lanes.append(np.full(len(thetas), i * rules + r, dtype=np.int64))
            params.append(thetas)
    if not lanes:
        return np.zeros(0, dtype=np.int64), np.zeros(0), _no_place

    def place(lane: IntArray, theta: FloatArray) -> tuple[FloatArray, FloatArray, npt.NDArray[np.bool_]]:
        corner, rule = ring[lane // rules], lane % rules
        u = np.column_stack([np.cos(theta), np.sin(theta)])
        j = np.minimum(rule // 3, n_car - 1)
        level = np.einsum("ij,ij->i", car[j] - corner, u)  # the car corner's place along the key's side
        slide = np.select([rule == rules - 2, rule == rules - 1, rule % 3 == 0, rule % 3 == 1],
                          [np.zeros(len(lane)), np.full(len(lane), L), -level, L - level], L / 2.0 - level)
        p = corner - np.clip(slide, 0.0, L)[:, None] * u
        return p, u, np.ones(len(lane), dtype=bool)

    return np.concatenate(lanes), np.concatenate(params), place


def _no_place(lane: IntArray, param: FloatArray) -> tuple[FloatArray, FloatArray, npt.NDArray[np.bool_]]:
    return np.zeros((len(lane), 2)), np.zeros((len(lane), 2)), np.zeros(len(lane), dtype=bool)


def _keys(p: FloatArray, u: FloatArray, L: float, w: float) -> npt.NDArray[Any]:
    """The keys with outer side from ``p`` along ``u`` (length ``L``), ``w`` wide to its left."""
    n = np.column_stack([-u[:, 1], u[:, 0]])
    q = p + L * u
    coords = np.stack([p, q, q + w * n, p + w * n, p], axis=1)
    out: npt.NDArray[Any] = shapely.polygons(coords)
    return out


def _scan(search: _Search, lane: IntArray, param: FloatArray, place: Placement, jump: float) -> None:
    """Every placement of the lanes, and each one where neighbours (whose corners move at most
    ``jump``) go from clear of the car to overlapping it bisected to where it just touches; the
    ones that fit offered to ``search``."""
    L, w, car = search.length, search.width, search.car
    p, u, ok = place(lane, param)
    keys = _keys(p, u, L, w)
    hits = ok & shapely.intersects(keys, car)
    corner_a, corner_b = p, p + L * u
    moved = np.maximum(np.hypot(*(corner_a[1:] - corner_a[:-1]).T), np.hypot(*(corner_b[1:] - corner_b[:-1]).T))
    flip = np.flatnonzero((lane[1:] == lane[:-1]) & ok[1:] & ok[:-1] & (hits[1:] != hits[:-1]) & (moved <= jump))
    if len(flip):
        clear = np.where(hits[flip], param[flip + 1], param[flip])
        over = np.where(hits[flip], param[flip], param[flip + 1])
        lanes = lane[flip]
        for _ in range(BISECTIONS):
            mid = (clear + over) / 2.0
            mp, mu, mok = place(lanes, mid)
            mhit = shapely.intersects(_keys(mp, mu, L, w), car)
            clear = np.where(mok & ~mhit, mid, clear)
            over = np.where(mok & mhit, mid, over)
            over = np.where(~mok, mid, over)
        rp, ru, rok = place(lanes, clear)
        p, u, ok = np.concatenate([p, rp]), np.concatenate([u, ru]), np.concatenate([ok, rok])
        keys = np.concatenate([keys, _keys(rp, ru, L, w)])
    _offer(search, keys[ok])


def _offer(search: _Search, keys: npt.NDArray[Any]) -> None:
    """The keys inside the arena: the best of those touching the car (not overlapping it, nor
    anything else) taken; failing that, the nearest of the others that overlaps nothing as the
    gap."""
    keys = keys[shapely.covers(search.inner, keys)]
    if not len(keys):
        return
    gaps = shapely.distance(keys, search.car)
    touching = gaps <= search.tol + 1e-9
    if touching.any():
        touching[touching] = ~shapely.intersects(shapely.buffer(keys[touching], -max(search.tol, 1e-6)), search.car)
    blocked = np.zeros(len(keys), dtype=bool)
    pairs = np.zeros((2, 0), dtype=np.int64)
    if search.things:
        pairs = shapely.STRtree(search.thing_geoms).query(shapely.buffer(keys, -1e-6), predicate="intersects")
        blocked[pairs[0]] = True
    free = np.flatnonzero(touching & ~blocked)
    if len(free):
        far = shapely.distance(shapely.centroid(keys[free]), search.car.centroid)
        k = free[np.lexsort((far, np.round(gaps[free], 9)))[0]]
        search.take(keys[k], float(gaps[k]))
        return
    if (touching & blocked).any():
        if search.gap > 0:
            k = int(np.flatnonzero(touching & blocked)[0])
            names = [search.things[int(t)][0] for t in sorted(set(pairs[1][pairs[0] == k].tolist()))]
            search.gap, search.why = 0.0, f"the turning key would overlap {', '.join(names)}"
        return
    rest = np.flatnonzero(~touching & ~blocked & (gaps > search.tol + 1e-9))
    if len(rest):
        k = int(rest[np.argmin(gaps[rest])])
        if gaps[k] < search.gap:
            search.gap, search.why = float(gaps[k]), (f"the car is {fmt(float(gaps[k]))} in from the nearest turning key "
                                                      "that fits against the edge")


__all__ = ["BISECTIONS", "CHORD_MAX_TURN", "KEY_REACH", "KEY_SAMPLE", "TURN_STEPS", "KeyPlacement", "placement_obstacles", "start_key", "start_keys"]
