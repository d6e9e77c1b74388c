"""Symmetry operations an arena really has (rotations and reflections about its declared centre,
under which every element maps onto one of its kind), and the images of poses, goals, maneuvers
and travel results under them.

Shared by the ``symmetry`` validator, the analysis context (which reuses one start's travel for
every start a symmetry maps it to: :mod:`validators.games.gravstrike.context`) and simulated play
(:mod:`engine.gravstrike.play.kit`: a seat plans in the frame of the first start of its orbit, so
that the discretisation of the planner's raster, which a rotation or an oblique mirror does not
map onto itself, cannot favour one of two starts the arena treats alike)."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import shapely
import shapely.affinity

from engine.symmetry import apply_angle, apply_point, operations
from schema.shapes import Circle
from schema.games.gravstrike.model import Arena
from engine.gravstrike.motion import Maneuver, Pose
from engine.gravstrike.travel_types import Goal, PathStep, TravelResult


def _fmt(v: float) -> str:
    """An angle in a name: one decimal, no trailing ``.0``."""
    return f"{v:.1f}".removesuffix(".0")


def transforms(kind: str, order: int, axis: float) -> list[tuple[str, tuple[float, float, float, float], bool]]:
    """Linear parts (a, b, c, d) of the non-identity symmetry operations, named."""
    return [(f"reflection about the {_fmt(angle % 180)}° axis" if mirror else f"rotation by {_fmt(angle)}°", fn, mirror)
            for fn, mirror, angle in operations(kind, order, axis, identity=False)]


#: Per element: its characteristic points, its direction (or None) and, for a circle, its
#: radius (a circle is its centre and radius: its image is the circle of the same radius about
#: the centre's image).
Signature = tuple[list[tuple[float, float]], "float | None", "float | None"]


def signatures(arena: Arena) -> dict[str, dict[str, Signature]]:
    """Per kind: id -> :data:`Signature`."""
    def shape_sig(shape: Any, direction: float | None = None) -> Signature:
        if isinstance(shape, Circle):
            return [(float(shape.center[0]), float(shape.center[1]))], direction, float(shape.radius)
        g = shape.to_shapely()
        return [(float(x), float(y)) for x, y in g.exterior.coords[:-1]], direction, None

    sig: dict[str, dict[str, Signature]] = {
        "wall": {w.id: shape_sig(w.shape) for w in arena.walls},
        "checkpoint": {c.id: shape_sig(c.shape) for c in arena.checkpoints},
        "acceleration field": {f.id: shape_sig(f.shape, f.direction) for f in arena.acceleration_fields},
        "exclusion field": {x.id: shape_sig(x.shape) for x in arena.exclusion_fields},
        "static target": {t.id: ([t.position], None, None) for t in arena.static_targets},
        "start": {s.id: ([s.position], s.facing, None) for s in arena.start_positions},
        "gate": {g.id: ([g.start, g.end], None, None) for g in arena.gates},
    }
    return sig


class KindIndex:
    """One kind's elements (from :func:`signatures`) as arrays, to find the element each
    transformed one lands on: only elements with as many points and the same mean (within the
    tolerance) are compared point by point (as sets: order may change under reflection and
    rotation), for all elements of a kind at once; circles by centre and radius (within the
    tolerance together: their Hausdorff distance)."""

    def __init__(self, items: dict[str, Signature]) -> None:
        self.ids = list(items)
        arrays = [np.asarray(p, dtype=float).reshape(-1, 2) for p, _, _ in items.values()]
        angles = [np.nan if a is None else a for _, a, _ in items.values()]
        radii = [np.nan if r is None else r for _, _, r in items.values()]
        #: (point count, circle?) -> (element indices, their points (n, k, 2), directions and
        #: radii (NaN: none))
        self.groups: dict[tuple[int, bool], tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = {}
        for key in sorted({(len(p), not np.isnan(r)) for p, r in zip(arrays, radii)}):
            idx = np.array([i for i, (p, r) in enumerate(zip(arrays, radii)) if (len(p), not np.isnan(r)) == key],
                           dtype=np.int64)
            pts = np.stack([arrays[i] for i in idx.tolist()]) if key[0] else np.zeros((len(idx), 0, 2))
            self.groups[key] = (idx, pts, np.array(angles, dtype=float)[idx], np.array(radii, dtype=float)[idx])

    def match_all(self, fn: tuple[float, float, float, float], center: tuple[float, float], mirror: bool,
                  tol: float, angle_tol: float = 0.5) -> list[str | None]:
        """For every element, the id of the element its image under the operation ``fn`` about
        ``center`` equals within ``tol`` (directions within ``angle_tol`` degrees; the first in
        order when several do), or None."""
        a, b, c, d = fn
        lin = np.array([[a, c], [b, d]])
        rot = math.degrees(math.atan2(c, a))
        out: list[str | None] = [None] * len(self.ids)
        t2 = tol * tol
        for (k, _), (idx, pts, ang, rad) in self.groups.items():
            if k == 0:  # nothing to compare: any element without points matches the first one
                for i in idx.tolist():
                    out[i] = self.ids[int(idx[0])]
                continue
            img = (pts - center) @ lin + center
            img_ang = ((rot - ang) if mirror else (rot + ang)) % 360.0
            mi, mo = img.mean(axis=1), pts.mean(axis=1)
            apart = np.hypot(mi[:, None, 0] - mo[None, :, 0], mi[:, None, 1] - mo[None, :, 1])
            close = np.where(np.isnan(rad[:, None]), apart, apart + np.abs(rad[:, None] - rad[None, :])) <= tol
            turn = np.abs((img_ang[:, None] - ang[None, :] + 180.0) % 360.0 - 180.0)
            close &= ~(turn > angle_tol)  # NaN (no direction) never refuses a match
            ii, jj = np.nonzero(close)
            if not len(ii):
                continue
            diff = img[ii][:, :, None, :] - pts[jj][:, None, :, :]
            d2 = np.einsum("pijk,pijk->pij", diff, diff)
            ok = (d2.min(axis=2).max(axis=1) <= t2) & (d2.min(axis=1).max(axis=1) <= t2)
            for i, j in zip(ii[ok].tolist(), jj[ok].tolist()):
                if out[int(idx[i])] is None:
                    out[int(idx[i])] = self.ids[int(idx[j])]
        return out


@dataclass(frozen=True)
class Invariance:
    """A symmetry operation the arena really has: ``ids`` maps every element reference
    (``start:N``, ``checkpoint:A``, ``target:T1``, ``gate:G1``, wall and field ids) to its image."""

    name: str
    fn: tuple[float, float, float, float]
    mirror: bool
    center: tuple[float, float]
    ids: dict[str, str]

    def point(self, p: tuple[float, float]) -> tuple[float, float]:
        return apply_point(self.fn, p, *self.center)

    def angle(self, a: float) -> float:
        return apply_angle(self.fn, a, self.mirror)

    def inverse(self) -> Invariance:
        """The operation undoing this one (a reflection undoes itself; a rotation's inverse turns
        back by the same angle)."""
        if self.mirror:
            return self
        a, b, c, d = self.fn
        back = {v: k for k, v in self.ids.items()}
        return Invariance(f"inverse of {self.name}", (a, c, b, d), False, self.center, back)

    def pose(self, p: Pose) -> Pose:
        return Pose(*self.point((p.x, p.y)), self.angle(p.heading))

    def goal(self, g: Goal) -> Goal:
        return Goal.parse(self.ids[g.ref])

    def maneuver(self, m: Maneuver) -> Maneuver:
        """A length's maneuver as its image moves: a reflection turns and slips the other way."""
        return Maneuver(-m.turn, -m.sideslip) if self.mirror else m

    def label(self, label: str) -> str:
        """A path step's maneuver label as its image moves: under a reflection left and right swap,
        and a pivot of ``a`` degrees (counter-clockwise) about a corner becomes one of ``360 - a``
        about the mirrored corner (0 front-left <-> 3 front-right, 1 rear-left <-> 2 rear-right)."""
        if not self.mirror:
            return label
        if label.startswith("pivot "):
            words = label.split()  # "pivot 30 about corner 2"
            angle, corner = float(words[1]), int(words[4])
            return f"pivot {(360.0 - angle) % 360.0:g} about corner {3 - corner}"
        return label.translate(str.maketrans("LR", "RL"))

    def result(self, r: TravelResult) -> TravelResult:
        """The travel result of the symmetric image: goal, path poses, maneuvers and the ids of
        the fields that pushed mapped."""
        path = tuple(
            PathStep(*self.point((p.x, p.y)), self.angle(p.heading), p.speed, p.turn, p.length,
                     self.label(p.maneuver), None if p.pushed_by is None else self.ids.get(p.pushed_by, p.pushed_by))
            for p in r.path)
        return replace(r, goal=self.goal(r.goal), path=path)


REF_PREFIX = {"start": "", "checkpoint": "checkpoint:", "static target": "target:", "gate": "gate:"}


def invariances(arena: Arena, tol: float = 0.05, *, angle_tol: float = 0.5) -> list[Invariance]:
    """The declared symmetry operations under which the whole arena (bounds, every element, field
    directions and start facings) maps onto itself within ``tol`` lengths (directions within
    ``angle_tol`` degrees); none if undeclared.

    >>> from schema import load
    >>> len(invariances(load("arenas/default.yaml")))   # dihedral of order 3: 2 rotations, 3 mirrors
    5
    """
    sym = arena.symmetry
    if sym is None:
        return []
    cx, cy = sym.center
    sigs = signatures(arena)
    indexes = {kind: KindIndex(items) for kind, items in sigs.items()}
    bounds = arena.bounds.to_shapely()
    out = []
    for name, fn, mirror in transforms(sym.kind, sym.order, sym.axis):
        if mirror and any(g.one_way for g in arena.gates):
            continue  # a reflection reverses the scoring direction of one-way gates
        image = shapely.affinity.affine_transform(bounds, [fn[0], fn[1], fn[2], fn[3],
                                                           cx - fn[0] * cx - fn[1] * cy, cy - fn[2] * cx - fn[3] * cy])
        if image.hausdorff_distance(bounds) > tol:
            continue
        ids: dict[str, str] = {}
        for kind in sigs:
            prefix = REF_PREFIX.get(kind, "")
            index = indexes[kind]
            found = index.match_all(fn, (cx, cy), mirror, tol, angle_tol)
            if None in found:
                break
            ids.update({prefix + ident: prefix + str(m) for ident, m in zip(index.ids, found)})
        else:
            out.append(Invariance(name, fn, mirror, (cx, cy), ids))
    return out
