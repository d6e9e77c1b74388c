"""Proving goals unreachable before searching: a sound over-approximation of everywhere the
turbine's footprint can be at the end of a length.

The travel search (:mod:`engine.gravstrike.frontier`) answers "unreachable" only after it has run out of
states, which on a big arena with a sealed goal means exploring every pose for many turns.  This
module decides such goals first, with exact polygons rather than states.

Per heading of travel (a heading and its opposite are one: the footprint is centrally
symmetric and reverse moves are forward moves of the other end) take ``F``, the region where the
footprint's centre is clear of walls and inside the bounds.  Then allow more than the rules do:

* any speed at any time, every sideslip from none to a whole width either way (not only the
  planner's steps), a pivot wherever a turbine could stop, every acceleration field's push from
  anywhere its area may be touched, each field any number of times a turn;
* a length that keeps the heading may move by anything in the parallelogram ``P`` spanned by the
  straight moves forwards and backwards with their sideslips; so two points of ``F`` are linked
  when ``P/2`` around them overlap, and the parts of ``F ⊕ P/2`` are the places straight moves
  can never leave (*components*);
* a length (or a pivot) that turns from one heading to another may move by anything in the convex
  hull ``H`` of those moves' displacements; component ``A`` leads to component ``B`` of the other
  heading when ``(A ⊕ H) ∩ B`` is not empty;
* a field's push leads from the part of a component that touches the field to the component its
  push lands in.

The components reachable from the source's hold every end of a length of every plan (whatever
the sideslip steps, with or without reverse speeds); a goal none of them can touch is
unreachable.  A gate is crossed by the centre's path between two checked poses (a length's arc
and sideslip, or one push), whose ends are both in those components (or a source); a point of
that path is no farther from its two ends together than the path is long, so a gate farther
than half the longest such path (:func:`longest_piece`, 0.75 lengths for the reference
turbine) from every reached component is unreachable - whichever way a one-way gate faces (the
point just before the crossing may be as close to the gate as one likes, so the direction
would add nothing).  Circles enter as polygons that contain them (the free region is the complement of
the walls' inscribed polygons, zones use circumscribed ones), so nothing is lost to shapely's
approximation.

>>> from schema.games.gravstrike.model import Arena, Checkpoint, Circle, Rect, StartPosition, Wall
>>> cage = tuple(Wall(f"W{i}", Rect(c, s)) for i, (c, s) in enumerate(
...     [((5.0, 1.5), (3.5, 0.5)), ((5.0, -1.5), (3.5, 0.5)), ((6.5, 0.0), (0.5, 3.5)), ((3.5, 0.0), (0.5, 3.5))]))
>>> arena = Arena(name="t", bounds=Rect((0.0, 0.0), (20.0, 10.0)), walls=cage,
...               checkpoints=(Checkpoint("A", "outlying", Circle((5.0, 0.0), 0.4)),
...                            Checkpoint("B", "outlying", Circle((-5.0, 0.0), 0.4))),
...               start_positions=(StartPosition(1, (-8.0, 0.0), 0.0),))
>>> from engine.gravstrike.planner import Goal, Planner, StartSource
>>> planner = Planner(arena)
>>> sorted(g.id for g in planner.proven_unreachable(StartSource(1), [Goal("checkpoint", "A"), Goal("checkpoint", "B")]))
['A']
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Sequence

import shapely
from shapely.geometry.base import BaseGeometry

from engine.gravstrike.cspace import CIRCLE_SLACK, minkowski
from engine.gravstrike.motion import TURNS, Maneuver, Pose, local_displacement, local_path, pivot
from engine.gravstrike.travel_types import Goal
from schema.games.gravstrike.model import Turbine

if TYPE_CHECKING:  # pragma: no cover
    from engine.gravstrike.lattice import HeadingLattice
    from engine.gravstrike.planner import Planner

Points = list[tuple[float, float]]


def _hull(points: Points) -> BaseGeometry:
    return shapely.convex_hull(shapely.multipoints(points))


def longest_piece(turbine: Turbine) -> float:
    """The longest stretch of the centre's path between two poses the rules check: one length
    (its arc as :func:`~engine.gravstrike.motion.local_path` draws it, then a whole sideslip; a
    partial one is shorter, reverse the same backwards) or one push (a turbine length).

    >>> from schema.games.gravstrike.model import Turbine
    >>> round(longest_piece(Turbine()), 3)
    1.5
    """
    longest = turbine.length
    for turn in TURNS:
        for slip in (-1.0, 1.0):
            pts = local_path(Maneuver(turn, slip), turbine)
            longest = max(longest, sum(math.dist(p, q) for p, q in zip(pts, pts[1:])))
    return longest


def _sum(geom: BaseGeometry, hull: BaseGeometry) -> BaseGeometry:
    """``geom ⊕ hull`` for a convex ``hull`` (need not contain the origin)."""
    pts = list(shapely.get_coordinates(hull))
    ox, oy = pts[0]
    moved = shapely.affinity.translate(geom, ox, oy)
    return minkowski(moved, [(float(x - ox), float(y - oy)) for x, y in pts[:-1]] or [(0.0, 0.0)])


class ReachProof:
    """The components and their links for one heading lattice of one planner, explored lazily
    from sources and kept (see the module docstring)."""

    def __init__(self, planner: Planner, lat: HeadingLattice) -> None:
        self.p = planner
        self.lat = lat
        t = planner.turbine
        self.free: list[BaseGeometry] = []
        self.parts: list[list[BaseGeometry]] = []
        self.moves: dict[tuple[int, int], BaseGeometry] = {}
        for k in range(6):
            f = self._free(k)
            self.free.append(f)
            disp: dict[int, Points] = {}
            for d in (k, k + 6):
                h = math.radians(lat.headings[d])
                c, s = math.cos(h), math.sin(h)
                for turn in TURNS:
                    for slip in (-1.0, 1.0):
                        lx, ly = local_displacement(Maneuver(turn, slip), t)
                        disp.setdefault((k + turn // 30) % 6, []).append((lx * c - ly * s, lx * s + ly * c))
            origin = Pose(0.0, 0.0, lat.headings[k])
            for corner in range(4):
                for n in range(1, 12):
                    q = pivot(origin, corner, 30.0 * n, t)
                    disp.setdefault((k + n) % 6, []).append((q.x, q.y))
            half = [(x / 2.0, y / 2.0) for x, y in disp[k]]
            joined = minkowski(f, list(shapely.get_coordinates(_hull(half)))[:-1]) if not f.is_empty else f
            comps = [g for g in getattr(joined, "geoms", [joined]) if not g.is_empty]
            self.parts.append([p for p in (f.intersection(c) for c in comps) if not p.is_empty])
            for target, pts in disp.items():
                if target != k:
                    self.moves[(k, target)] = _hull(pts)
        for parts in self.parts:
            for g in parts:
                shapely.prepare(g)
        #: Half the longest stretch of the centre's path between two checked poses (gates).
        self.half_piece = longest_piece(t) / 2.0
        #: The components reached from earlier sources (each set closed under links once grown).
        self.closures: list[Closure] = []
        self._sums: dict[tuple[int, int, int], BaseGeometry] = {}

    def _free(self, k: int) -> BaseGeometry:
        """Where a footprint centre at heading k is clear of walls and inside the bounds, or
        larger (circular walls as their inscribed polygons); in avoid mode, minus where it
        overlaps an active exclusion field."""
        hs = self.lat.spaces[k]
        free = hs.free_base
        circles = self.p.cspace.wall_circles
        if circles:
            walls = shapely.union_all([shapely.Point(cx, cy).buffer(r, quad_segs=32) for cx, cy, r in circles])
            free = free.difference(minkowski(walls, hs.offsets[0]))
        if self.p.exclusions == "avoid" and self.p.n_excl:
            first = self.p.n_fields
            excl = [self._zone(k, z).buffer(-1e-9) for z in range(first, first + self.p.n_excl)]
            free = free.difference(shapely.union_all(excl))
        return free

    def _zone(self, k: int, z: int) -> BaseGeometry:
        """Zone z's region at heading k, grown to contain the true one if it is a circle's."""
        hs = self.lat.spaces[k]
        spec = hs.zone_circles.get(z)
        return hs.zones[z] if spec is None else hs.zones[z].buffer(CIRCLE_SLACK * spec[0][2])

    # -- exploring ----------------------------------------------------------------------------------
    def closure(self, starts: Sequence[tuple[Pose, int]]) -> Closure:
        """The exploration from the components the source poses lie in: an earlier one that
        holds them all (what they reach, it reached), else a new one."""
        seeds: set[tuple[int, int]] = set()
        for pose, _ in starts:
            point = shapely.Point(pose.x, pose.y)
            for k in range(6):
                seeds.update((k, i) for i, part in enumerate(self.parts[k]) if part.intersects(point))
        for c in self.closures:
            if seeds <= c.reached:
                return c
        c = Closure(self, seeds)
        self.closures.append(c)
        return c

    def _links(self, k: int, i: int, reached: set[tuple[int, int]]) -> list[tuple[int, int]]:
        a = self.parts[k][i]
        out: list[tuple[int, int]] = []
        for z, f in enumerate(self.p.geometry.fields):  # pushes, same heading
            touched = a.intersection(self._zone(k, z))
            if touched.is_empty:
                continue
            rad = math.radians(f.direction)
            t = self.p.turbine
            landed = shapely.affinity.translate(touched, t.length * math.cos(rad), t.length * math.sin(rad))
            out += [(k, j) for j, b in enumerate(self.parts[k]) if b.intersects(landed)]
        for k2 in range(6):
            if k2 == k:
                continue
            hull = self.moves[(k, k2)]
            for j, b in enumerate(self.parts[k2]):
                if (k2, j) not in reached and self._linked(k, i, a, k2, j, b, hull):
                    out.append((k2, j))
        return out

    def _linked(self, k: int, i: int, a: BaseGeometry, k2: int, j: int, b: BaseGeometry, hull: BaseGeometry) -> bool:
        """Is (a ⊕ hull) ∩ b not empty?  Cheap tests first; the Minkowski sum of the smaller."""
        hx0, hy0, hx1, hy1 = hull.bounds
        ax0, ay0, ax1, ay1 = a.bounds
        bx0, by0, bx1, by1 = b.bounds
        if ax0 + hx0 > bx1 or ax1 + hx1 < bx0 or ay0 + hy0 > by1 or ay1 + hy1 < by0:
            return False
        if shapely.contains_xy(hull, 0.0, 0.0) and a.intersects(b):
            return True
        if shapely.get_num_coordinates(a) <= shapely.get_num_coordinates(b):
            key = (k, i, k2)
            s = self._sums.get(key)
            if s is None:
                s = self._sums[key] = _sum(a, hull)
                shapely.prepare(s)
            return bool(s.intersects(b))
        key = (k2, j, -1 - k)
        s = self._sums.get(key)
        if s is None:
            s = self._sums[key] = _sum(b, shapely.affinity.scale(hull, -1.0, -1.0, origin=(0.0, 0.0)))
            shapely.prepare(s)
        return bool(s.intersects(a))

    def may_reach(self, reached: set[tuple[int, int]], goal: Goal,
                  sources: Sequence[tuple[Pose, int]] = ()) -> bool:
        """Might a plan reach ``goal`` from the components ``reached`` (grown from ``sources``)?

        A gate is crossed by a *piece* of the centre's path between two poses the rules check:
        a length's arc and sideslip (from where it began to where it ended) or one push.  Both
        ends of a piece are a source's pose or in a reached component, and a point on the piece
        is no farther from its two ends together than the piece is long; so some point of the
        gate lies within half the longest piece (:func:`longest_piece`) of a source or a reached
        component."""
        p = self.p
        if goal.kind == "gate":
            a, b, _ = p.gates[goal]
            line = shapely.LineString([a, b])
            near = self.half_piece + 1e-6
            return (any(self.parts[k][i].distance(line) <= near for k, i in reached)
                    or any(line.distance(shapely.Point(pose.x, pose.y)) <= near for pose, _ in sources))
        z = p.goal_zone[goal]
        return any(self.parts[k][i].intersects(self._zone(k, z)) for k, i in reached)


class Closure:
    """The components reached from some seeds, grown on demand (:meth:`grow`)."""

    def __init__(self, proof: ReachProof, seeds: set[tuple[int, int]]) -> None:
        self.proof = proof
        self.reached = set(seeds)
        self.todo = list(seeds)

    def grow(self, done: object = None) -> None:
        """Follow links until nothing new is reached, or ``done()`` says enough."""
        while self.todo:
            if done is not None and done():  # type: ignore[operator]
                return
            k, i = self.todo.pop()
            for target in self.proof._links(k, i, self.reached):
                if target not in self.reached:
                    self.reached.add(target)
                    self.todo.append(target)

    def may_reach(self, goal: Goal, sources: Sequence[tuple[Pose, int]] = ()) -> bool:
        return self.proof.may_reach(self.reached, goal, sources)


def _same_part(planner: Planner, lat: HeadingLattice, starts: Sequence[tuple[Pose, int]], goal: Goal) -> bool:
    """A quick sufficient sign that ``goal`` may be reached: it lies in the same connected part
    of the free region (at a source's heading) as that source - without any of the work the
    proof does; for a gate, that the centre may stand on its line in that part.  (The free polygon
    used is never larger than the true one, so the sign is sound.)"""
    for pose, speed in starts:
        k = int(round(((pose.heading + (180.0 if speed < 0 else 0.0) - lat.headings[0]) % 360.0) / 30.0)) % 6
        hs = lat.spaces[k]
        point = shapely.Point(pose.x, pose.y)
        part = next((g for g in getattr(hs.free, "geoms", [hs.free]) if g.intersects(point)), None)
        if part is None:
            continue
        if goal.kind == "gate":  # the centre may stand on the gate's line there
            a, b, _ = planner.gates[goal]
            if part.intersects(shapely.LineString([a, b])):
                return True
        elif part.intersects(hs.zones[planner.goal_zone[goal]]):
            return True
    return False


def proven_unreachable(planner: Planner, starts: Sequence[tuple[Pose, int]], goals: Sequence[Goal]) -> set[Goal]:
    """The goals of ``goals`` no plan from ``starts`` can reach (see the module docstring); empty
    when the proof doesn't apply (sources on several heading lattices)."""
    from engine.gravstrike.lattice import supported

    if not goals or not starts or not supported(planner, starts):
        return set()
    lat = planner.lattice(starts[0][0].heading % 30.0)
    if not (planner.exclusions == "avoid" and planner.n_excl):  # the quick sign ignores exclusion fields
        goals = [g for g in goals if not _same_part(planner, lat, starts, g)]
    if not goals:
        return set()
    proofs = planner.scratch.setdefault("proofs", {})
    key = (id(lat), planner.exclusions)
    proof = proofs.get(key)
    if proof is None:
        proof = proofs[key] = ReachProof(planner, lat)
    closure = proof.closure(starts)
    open_goals = list(goals)

    def done() -> bool:  # stop exploring once every goal might be reached: nothing to prove
        open_goals[:] = [g for g in open_goals if not closure.may_reach(g, starts)]
        return not open_goals

    if done():
        return set()
    closure.grow(done)
    return {g for g in goals if not closure.may_reach(g, starts)}
