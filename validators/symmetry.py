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

from schema.model import Arena
from validators.builtin.common import fmt


def transforms(kind: str, order: int, axis: float) -> list[tuple[str, tuple[float, float, float, float], bool]]:
    """Linear parts (a, b, c, d) of the non-identity symmetry operations."""
    out = []
    if kind in ("rotational", "dihedral"):
        for k in range(1, order):
            t = math.radians(360.0 * k / order)
            out.append((f"rotation by {fmt(360.0 * k / order)}°", (math.cos(t), -math.sin(t), math.sin(t), math.cos(t)), False))
    if kind in ("mirror", "dihedral"):
        n = order if kind == "dihedral" else 1
        for k in range(n):
            a = axis + 180.0 * k / n
            t = math.radians(2 * a)
            out.append((f"reflection about the {fmt(a % 180)}° axis", (math.cos(t), math.sin(t), math.sin(t), -math.cos(t)), True))
    return out


def apply_point(fn: tuple[float, float, float, float], p: tuple[float, float], cx: float, cy: float) -> tuple[float, float]:
    a, b, c, d = fn
    x, y = p[0] - cx, p[1] - cy
    return (cx + a * x + b * y, cy + c * x + d * y)


def apply_angle(fn: tuple[float, float, float, float], angle: float, mirror: bool) -> float:
    a, _, c, _ = fn
    rot = math.degrees(math.atan2(c, a))
    return (rot - angle) % 360.0 if mirror else (rot + angle) % 360.0


def signatures(arena: Arena) -> dict[str, dict[str, tuple[list[tuple[float, float]], float | None]]]:
    """Per kind: id -> (characteristic points, direction or None)."""
    def shape_points(shape: Any) -> list[tuple[float, float]]:
        g = shape.to_shapely()
        return [(float(x), float(y)) for x, y in g.exterior.coords[:-1]]

    sig: dict[str, dict[str, tuple[list[tuple[float, float]], float | None]]] = {
        "wall": {w.id: (shape_points(w.shape), None) for w in arena.walls},
        "checkpoint": {c.id: (shape_points(c.shape), None) for c in arena.checkpoints},
        "acceleration field": {f.id: (shape_points(f.shape), f.direction) for f in arena.acceleration_fields},
        "exclusion field": {x.id: (shape_points(x.shape), None) for x in arena.exclusion_fields},
        "static target": {t.id: ([t.position], None) for t in arena.static_targets},
        "start": {s.id: ([s.position], s.facing) for s in arena.start_positions},
        "gate": {g.id: ([g.start, g.end], None) for g in arena.gates},
    }
    return sig


def same(pts: list[tuple[float, float]], angle: float | None, other: list[tuple[float, float]], other_angle: float | None,
          tol: float) -> bool:
    if len(pts) != len(other):
        return False
    if angle is not None and other_angle is not None:
        diff = abs((angle - other_angle + 180.0) % 360.0 - 180.0)
        if diff > 0.5:
            return False
    # cheap reject first: the two point sets' means must coincide
    n = len(pts)
    if n and math.dist((sum(p[0] for p in pts) / n, sum(p[1] for p in pts) / n),
                       (sum(q[0] for q in other) / n, sum(q[1] for q in other) / n)) > tol:
        return False
    # same point set (order may change under reflection and rotation)
    d = np.hypot(*(np.asarray(pts)[:, None, :] - np.asarray(other)[None, :, :]).transpose(2, 0, 1))
    return bool((d.min(axis=1) <= tol).all() and (d.min(axis=0) <= tol).all())


class KindIndex:
    """One kind's elements (from :func:`signatures`) as arrays, to find the element a
    transformed one lands on: only elements with as many points and the same mean (within the
    tolerance) are compared point by point - the test of :func:`same`, on arrays."""

    def __init__(self, items: dict[str, tuple[list[tuple[float, float]], float | None]]) -> None:
        self.ids = list(items)
        self.arrays = [np.asarray(p, dtype=float).reshape(-1, 2) for p, _ in items.values()]
        self.angles = [a for _, a in items.values()]
        self.lens = np.array([len(p) for p in self.arrays])
        self.means = np.array([p.mean(axis=0) if len(p) else (np.nan, np.nan) for p in self.arrays]).reshape(-1, 2)

    def image(self, i: int, fn: tuple[float, float, float, float], center: tuple[float, float],
              mirror: bool) -> tuple[np.ndarray, float | None]:
        """Element ``i``'s points and direction under the operation ``fn`` about ``center``."""
        a, b, c, d = fn
        img = (self.arrays[i] - center) @ np.array([[a, c], [b, d]]) + center
        ang = self.angles[i]
        return img, None if ang is None else apply_angle(fn, ang, mirror)

    def match(self, pts: np.ndarray, angle: float | None, tol: float) -> str | None:
        """The id of an element equal to (``pts``, ``angle``) within ``tol``, or None."""
        if not len(pts):
            close = self.lens == 0
        else:
            m = pts.mean(axis=0)
            close = (self.lens == len(pts)) & (np.hypot(self.means[:, 0] - m[0], self.means[:, 1] - m[1]) <= tol)
        for i in np.flatnonzero(close).tolist():
            other = self.angles[i]
            if angle is not None and other is not None and abs((angle - other + 180.0) % 360.0 - 180.0) > 0.5:
                continue
            diff = pts[:, None, :] - self.arrays[i][None, :, :]
            d2 = np.einsum("ijk,ijk->ij", diff, diff)
            t2 = tol * tol
            if not len(pts) or (d2.min(axis=1).max() <= t2 and d2.min(axis=0).max() <= t2):
                return self.ids[i]
        return None


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
        for kind, items in sigs.items():
            prefix = REF_PREFIX.get(kind, "")
            index = indexes[kind]
            for i, ident in enumerate(index.ids):
                match = index.match(*index.image(i, fn, (cx, cy), mirror), tol)
                if match is None:
                    break
                ids[prefix + ident] = prefix + match
            else:
                continue
            break
        else:
            out.append(Invariance(name, fn, mirror, (cx, cy), ids))
    return out
