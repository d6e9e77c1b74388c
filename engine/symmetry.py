"""The symmetry groups arenas declare (``rotational`` N, ``mirror``, ``dihedral`` N about a centre),
as plain linear maps: shared by the arena invariances (:mod:`engine.gravstrike.invariance`, which
the ``symmetry`` validator and simulated play use) and the arena generators (:mod:`engine.gravstrike.generate`, :mod:`engine.arenarex.generate`), which place
pieces in one fundamental domain and copy them by every operation of the group (they share the
symmetry parsing and orbit counting below too).

An operation is ``(a, b, c, d)``, the matrix ``[[a, b], [c, d]]`` applied about the centre, and
whether it reflects:

>>> [round(v, 6) + 0.0 for v in operations("rotational", 4, 90.0)[1][0]]
[0.0, -1.0, 1.0, 0.0]
>>> len(operations("dihedral", 3, 0.0))   # identity, 2 rotations, 3 reflections
6
"""

from __future__ import annotations

import math
from typing import Literal

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


# ------------------------------------------------------------------ generators' shared parts

#: Where a generated piece's orbit sits: a generic point of the fundamental domain (a whole
#: orbit of the group), on a mirror axis (half an orbit) or at the centre (one piece).
Where = Literal["generic", "axis", "centre"]


class GenerateError(ValueError):
    """Parameters an arena generator cannot honour (the message says which and why)."""


def parse_symmetry(text: str) -> tuple[str, int]:
    """``rotational:N``, ``mirror`` or ``dihedral:N`` -> (kind, order).

    >>> parse_symmetry("dihedral:2"), parse_symmetry("mirror")
    (('dihedral', 2), ('mirror', 1))
    """
    kind, _, order = text.strip().partition(":")
    if kind not in KINDS:
        raise GenerateError(f"symmetry {text!r}: use rotational:N, mirror or dihedral:N (the schema's kinds)")
    if kind == "mirror":
        if order not in ("", "1"):
            raise GenerateError(f"symmetry {text!r}: a mirror has one axis; write 'mirror' (or dihedral:N for N axes)")
        return kind, 1
    try:
        n = int(order)
    except ValueError:
        raise GenerateError(f"symmetry {text!r}: give the order, e.g. {kind}:4") from None
    if not 1 <= n <= 12:
        raise GenerateError(f"symmetry {text!r}: the order must be 1 to 12 (the schema's range)")
    return kind, n


def orbits(n: int, group: int, mirrors: bool, centre: bool) -> list[Where]:
    """Orbits whose sizes add up to as near ``n`` as they can (at least one orbit when ``n`` >
    0): generic ones of ``group`` pieces, axis ones of ``group / 2`` (with mirrors), the centre
    (one piece, when ``centre`` allows it), fewest orbits among the nearest totals.

    >>> orbits(4, 2, False, False), orbits(3, 2, False, True), orbits(2, 4, True, False)
    (['generic', 'generic'], ['centre', 'generic'], ['axis'])
    """
    if n <= 0:
        return []
    best: tuple[tuple[int, int], list[Where]] | None = None
    for c in (0, 1) if centre else (0,):
        for b in range(0, 7) if mirrors and group > 1 else (0,):
            for a in range(0, n // group + 2):
                total = a * group + b * (group // 2) + c
                if total == 0:
                    continue
                key = (abs(total - n), a + b + c)
                if best is None or key < best[0]:
                    centre_: list[Where] = ["centre"]
                    generic: list[Where] = ["generic"]
                    axis: list[Where] = ["axis"]
                    best = (key, centre_ * c + generic * a + axis * b)
    assert best is not None
    return best[1]
