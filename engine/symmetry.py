"""The symmetry groups arenas declare (``rotational`` N, ``mirror``, ``dihedral`` N about a centre),
as plain linear maps: shared by the ``symmetry`` validator (:mod:`validators.symmetry`) and the
arena generator (:mod:`engine.gravstrike.generate`), which places pieces in one fundamental domain
and copies them by every operation of the group.

An operation is ``(a, b, c, d)``, the matrix ``[[a, b], [c, d]]`` applied about the centre, and
whether it reflects:

>>> [round(v, 6) + 0.0 for v in operations("rotational", 4, 90.0)[1][0]]
[0.0, -1.0, 1.0, 0.0]
>>> len(operations("dihedral", 3, 0.0))   # identity, 2 rotations, 3 reflections
6
"""

from __future__ import annotations

import math

Matrix = tuple[float, float, float, float]
#: (matrix, reflects?, rotation angle in degrees (of a rotation) or axis angle (of a reflection))
Operation = tuple[Matrix, bool, float]

KINDS = ("rotational", "mirror", "dihedral")


def operations(kind: str, order: int, axis: float, *, identity: bool = True) -> list[Operation]:
    """Every operation of the group, the identity first (unless ``identity`` is false), then the
    rotations by ``360 k / order`` and the reflections about the axes ``axis + 180 k / n``
    (``n`` = order for dihedral, 1 for mirror)."""
    out: list[Operation] = [((1.0, 0.0, 0.0, 1.0), False, 0.0)] if identity else []
    if kind in ("rotational", "dihedral"):
        for k in range(1, order):
            deg = 360.0 * k / order
            t = math.radians(deg)
            out.append(((math.cos(t), -math.sin(t), math.sin(t), math.cos(t)), False, deg))
    if kind in ("mirror", "dihedral"):
        n = order if kind == "dihedral" else 1
        for k in range(n):
            a = axis + 180.0 * k / n
            t = math.radians(2 * a)
            out.append(((math.cos(t), math.sin(t), math.sin(t), -math.cos(t)), True, a))
    return out


def group_size(kind: str, order: int) -> int:
    """How many operations the group has (the identity included).

    >>> group_size("rotational", 4), group_size("mirror", 1), group_size("dihedral", 3)
    (4, 2, 6)
    """
    return {"rotational": order, "mirror": 2, "dihedral": 2 * order}[kind]


def apply_point(fn: Matrix, p: tuple[float, float], cx: float, cy: float) -> tuple[float, float]:
    """``p``'s image under ``fn`` about the centre ``(cx, cy)``."""
    a, b, c, d = fn
    x, y = p[0] - cx, p[1] - cy
    return (cx + a * x + b * y, cy + c * x + d * y)


def apply_angle(fn: Matrix, angle: float, mirror: bool) -> float:
    """A direction's image (degrees counter-clockwise from +x) under ``fn``."""
    a, _, c, _ = fn
    rot = math.degrees(math.atan2(c, a))
    return (rot - angle) % 360.0 if mirror else (rot + angle) % 360.0
