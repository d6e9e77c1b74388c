"""Qt-free geometric transforms of elements: rotate, mirror, align and distribute.

An :class:`Affine` is a rotation or a reflection about a centre. Applying it to an element
transforms every point and also the element's angles: a rotation by φ turns directions and
facings by φ; a reflection about an axis at angle α maps a direction θ to 2α − θ (about a
vertical axis θ → 180 − θ, about a horizontal one θ → −θ). Reflections reverse polygon point
order so polygons keep their orientation, and swap gate ends so a one-way gate still scores
in the mirrored direction.  What is transformed is read from the element's fields, whatever
its game: a segment's ``start`` and ``end``, a piece's ``position`` and ``facing``, a card's
``rotation``, a ``shape``, a field's push ``direction``.

>>> from schema.games.gravstrike.model import StartPosition
>>> s = StartPosition(1, (2.0, 0.0), 30.0)
>>> transform_element(s, reflection(90.0, (0.0, 0.0)))
StartPosition(player=1, position=(-2.0, 0.0), facing=150.0, extensions={})
>>> transform_element(s, rotation(90.0, (0.0, 0.0))).position
(0.0, 2.0)
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, overload

from editor import elements as E
from editor.elements import Element
from schema.shapes import AreaShape, Circle, Point, Polygon, Rect, Shape

_E = TypeVar("_E", bound=Element)


def clean(v: float) -> float:
    """Round float noise away (cos 90° = 6e-17) so transformed values are written cleanly."""
    r = round(v, 9)
    return 0.0 if r == 0 else r


def norm_angle(deg: float) -> float:
    return clean(deg % 360.0) % 360.0


@dataclass(frozen=True)
class Affine:
    """``p -> centre + M (p - centre)`` with M a rotation by ``angle`` or, when ``mirror``, the
    reflection about the axis through ``centre`` at ``angle`` degrees."""

    angle: float
    center: Point = (0.0, 0.0)
    mirror: bool = False

    def matrix(self) -> tuple[float, float, float, float]:
        if self.mirror:
            t = math.radians(2 * self.angle)
            return (math.cos(t), math.sin(t), math.sin(t), -math.cos(t))
        t = math.radians(self.angle)
        return (math.cos(t), -math.sin(t), math.sin(t), math.cos(t))

    def point(self, p: Point) -> Point:
        a, b, c, d = self.matrix()
        cx, cy = self.center
        x, y = p[0] - cx, p[1] - cy
        return (clean(cx + a * x + b * y), clean(cy + c * x + d * y))

    def direction(self, deg: float) -> float:
        return norm_angle(2 * self.angle - deg if self.mirror else deg + self.angle)

    def is_identity(self) -> bool:
        return not self.mirror and abs(math.remainder(self.angle, 360.0)) < 1e-9


def rotation(deg: float, center: Point) -> Affine:
    return Affine(deg, center, False)


def reflection(axis_deg: float, center: Point) -> Affine:
    return Affine(axis_deg, center, True)


@overload
def transform_shape(s: AreaShape, t: Affine) -> AreaShape: ...
@overload
def transform_shape(s: Shape, t: Affine) -> Shape: ...
def transform_shape(s: Shape, t: Affine) -> Shape:
    if isinstance(s, Circle):
        return dataclasses.replace(s, center=t.point(s.center))
    if isinstance(s, Rect):
        # a rectangle is symmetric about its own axes, so a reflection maps rotation r to 2α − r
        rot = norm_angle(2 * t.angle - s.rotation if t.mirror else s.rotation + t.angle)
        return dataclasses.replace(s, center=t.point(s.center), rotation=rot)
    pts = tuple(t.point(p) for p in s.points)
    if isinstance(s, Polygon) and t.mirror:
        pts = (pts[0], *reversed(pts[1:]))  # keep orientation and the first vertex
    return dataclasses.replace(s, points=pts)


def transform_element(el: _E, t: Affine) -> _E:
    """``el`` carried by ``t``: its segment's ends (swapped by a reflection, so the side a
    one-way gate scores from is mirrored too), position, facing, rotation (a card's, modulo
    180), shape and push direction, those of them it has."""
    names = E.field_names(type(el))
    changes: dict[str, Any] = {}
    ends = E.segment_ends(el)
    if ends is not None:
        a, b = t.point(ends[0]), t.point(ends[1])
        if t.mirror:
            a, b = b, a  # the scoring side (left of from -> to) is mirrored too
        changes["start"], changes["end"] = a, b
    if "position" in names:
        changes["position"] = t.point(getattr(el, "position"))
    if "facing" in names:
        changes["facing"] = t.direction(getattr(el, "facing"))
    if "rotation" in names:
        changes["rotation"] = t.direction(getattr(el, "rotation")) % 180.0
    if "shape" in names:
        changes["shape"] = transform_shape(getattr(el, "shape"), t)
    if "direction" in names:
        changes["direction"] = t.direction(getattr(el, "direction"))
    return dataclasses.replace(el, **changes)


# ------------------------------------------------------------------ selections

def bbox(els: Sequence[Element]) -> tuple[float, float, float, float]:
    boxes = [E.bounds_of(el) for el in els]
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def selection_center(els: Sequence[Element]) -> Point:
    """Centre of the selection's bounding box; a lone piece or point (a start, a target) turns
    about its position."""
    if len(els) == 1 and E.placement(els[0]) in ("pose", "point") and not hasattr(els[0], "shape"):
        position: Point = getattr(els[0], "position")
        return position
    shape = getattr(els[0], "shape", None) if len(els) == 1 else None
    if isinstance(shape, (Circle, Rect)):
        return shape.center
    x0, y0, x1, y1 = bbox(els)
    return (clean((x0 + x1) / 2), clean((y0 + y1) / 2))


def mirrored(els: Sequence[_E], axis: str) -> list[_E]:
    """Mirror about the selection centre: ``horizontal`` flips left/right (about a vertical
    axis), ``vertical`` flips top/bottom (about a horizontal axis)."""
    if axis not in ("horizontal", "vertical"):
        raise ValueError(f"unknown mirror axis {axis!r}")
    t = reflection(90.0 if axis == "horizontal" else 0.0, selection_center(els))
    return [transform_element(el, t) for el in els]


def rotated(els: Sequence[_E], degrees: float, center: Point | None = None) -> list[_E]:
    """Rotate counter-clockwise by ``degrees`` about ``center`` (default: selection centre)."""
    if not math.isfinite(degrees):
        raise ValueError("the angle must be a number")
    t = rotation(degrees, center if center is not None else selection_center(els))
    return [transform_element(el, t) for el in els]


ALIGN = ("left", "centre", "right", "top", "middle", "bottom")


def aligned(els: Sequence[_E], how: str) -> list[_E]:
    """Align bounding boxes to the selection's left/centre/right (x) or top/middle/bottom (y)."""
    if how not in ALIGN:
        raise ValueError(f"unknown alignment {how!r}")
    x0, y0, x1, y1 = bbox(els)
    out = []
    for el in els:
        a0, b0, a1, b1 = E.bounds_of(el)
        dx = dy = 0.0
        if how == "left":
            dx = x0 - a0
        elif how == "right":
            dx = x1 - a1
        elif how == "centre":
            dx = (x0 + x1) / 2 - (a0 + a1) / 2
        elif how == "top":
            dy = y1 - b1
        elif how == "bottom":
            dy = y0 - b0
        else:
            dy = (y0 + y1) / 2 - (b0 + b1) / 2
        out.append(E.translate(el, clean(dx), clean(dy)) if (dx or dy) else el)
    return [_cleaned(el) for el in out]


def distributed(els: Sequence[_E], direction: str) -> list[_E]:
    """Spread centres evenly between the outermost two (``horizontal`` or ``vertical``)."""
    if direction not in ("horizontal", "vertical"):
        raise ValueError(f"unknown direction {direction!r}")
    if len(els) < 3:
        raise ValueError("distribute needs at least three elements")
    i = 0 if direction == "horizontal" else 1

    def centre(el: Element) -> float:
        b = E.bounds_of(el)
        return (b[i] + b[i + 2]) / 2

    order = sorted(range(len(els)), key=lambda k: centre(els[k]))
    lo, hi = centre(els[order[0]]), centre(els[order[-1]])
    step = (hi - lo) / (len(els) - 1)
    out = list(els)
    for rank, k in enumerate(order):
        d = clean(lo + rank * step - centre(els[k]))
        if d:
            out[k] = _cleaned(E.translate(els[k], d if i == 0 else 0.0, d if i == 1 else 0.0))
    return out


def _cleaned(el: _E) -> _E:
    """Translate by zero through :func:`transform_element`'s cleaning of coordinates."""
    return transform_element(el, rotation(0.0, (0.0, 0.0)))


__all__ = ["ALIGN", "Affine", "aligned", "bbox", "distributed", "mirrored", "norm_angle", "reflection",
           "rotated", "rotation", "selection_center", "transform_element", "transform_shape"]
