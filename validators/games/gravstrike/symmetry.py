"""Symmetry operations of an arena (rotations and reflections about its declared centre),
shared by the ``symmetry`` validator and the analysis context (which reuses one start's travel
for every start that a symmetry maps it to)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely
import shapely.affinity

from engine.symmetry import apply_angle, apply_point, operations
from schema.shapes import Circle
from schema.games.gravstrike.model import Arena
from validators.games.gravstrike.common import fmt


def transforms(kind: str, order: int, axis: float) -> list[tuple[str, tuple[float, float, float, float], bool]]:
    """Linear parts (a, b, c, d) of the non-identity symmetry operations, named."""
    return [(f"reflection about the {fmt(angle % 180)}° axis" if mirror else f"rotation by {fmt(angle)}°", fn, mirror)
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
                  tol: float) -> list[str | None]:
        """For every element, the id of the element its image under the operation ``fn`` about
        ``center`` equals within ``tol`` (the first in order when several do), or None."""
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
            close &= ~(turn > 0.5)  # NaN (no direction) never refuses a match
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


REF_PREFIX = {"start": "", "checkpoint": "checkpoint:", "static target": "target:", "gate": "gate:"}


def invariances(arena: Arena, tol: float = 0.05) -> list[Invariance]:
    """The declared symmetry operations under which the whole arena (bounds, every element, field
    directions and start facings) maps onto itself within ``tol`` lengths; none if undeclared.

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
            found = index.match_all(fn, (cx, cy), mirror, tol)
            if None in found:
                break
            ids.update({prefix + ident: prefix + str(m) for ident, m in zip(index.ids, found)})
        else:
            out.append(Invariance(name, fn, mirror, (cx, cy), ids))
    return out
