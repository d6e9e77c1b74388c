"""Typed, validated element properties for the inspector (Qt-free).

A property has a name (a dotted path such as ``shape.radius``), a label, a type
(``str``, ``choice``, ``float``, ``int``, ``bool``, ``angle``) and limits. ``set_property``
returns an edited copy of the element or raises ``ValueError`` with a message for the user.

>>> from schema.games.gravstrike.model import Circle, Checkpoint
>>> cp = Checkpoint("A", "outlying", Circle((0.0, 0.0), 1.0))
>>> [p.name for p in properties_of(cp)]
['id', 'kind', 'decaying', 'shape.center.x', 'shape.center.y', 'shape.radius']
>>> set_property(cp, "shape.radius", 2.5).shape.radius
2.5
>>> set_property(cp, "shape.radius", -1)
Traceback (most recent call last):
...
ValueError: Radius must be greater than 0
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

from editor.elements import ID_PATTERN
from schema.shapes import Circle, Rect, Shape
from schema.games.gravstrike.model import AccelerationField, Checkpoint, Element, ExclusionField, Gate, StartPosition, StaticTarget


@dataclass(frozen=True)
class Prop:
    name: str
    label: str
    type: str  # str | choice | float | int | bool | angle
    value: Any
    minimum: float | None = None
    maximum: float | None = None
    exclusive_min: bool = False
    choices: tuple[str, ...] = ()


def _shape_props(s: Shape) -> list[Prop]:
    if isinstance(s, Circle):
        return [Prop("shape.center.x", "Centre x", "float", s.center[0]),
                Prop("shape.center.y", "Centre y", "float", s.center[1]),
                Prop("shape.radius", "Radius", "float", s.radius, 0, None, True)]
    if isinstance(s, Rect):
        return [Prop("shape.center.x", "Centre x", "float", s.center[0]),
                Prop("shape.center.y", "Centre y", "float", s.center[1]),
                Prop("shape.size.w", "Width", "float", s.size[0], 0, None, True),
                Prop("shape.size.h", "Height", "float", s.size[1], 0, None, True),
                Prop("shape.rotation", "Rotation", "angle", s.rotation)]
    out: list[Prop] = []
    if hasattr(s, "thickness"):
        out.append(Prop("shape.thickness", "Thickness", "float", s.thickness, 0, None, True))
    return out


def properties_of(el: Element) -> list[Prop]:
    if isinstance(el, StartPosition):
        return [Prop("player", "Player", "int", el.player, 1, 99),
                Prop("position.x", "x", "float", el.position[0]),
                Prop("position.y", "y", "float", el.position[1]),
                Prop("facing", "Facing", "angle", el.facing)]
    out = [Prop("id", "Id", "str", el.id)]
    if isinstance(el, Checkpoint):
        out += [Prop("kind", "Kind", "choice", el.kind, choices=("outlying", "central")),
                Prop("decaying", "Decaying", "bool", el.decaying)]
    elif isinstance(el, Gate):
        out += [Prop("kind", "Kind", "choice", el.kind, choices=("outlying", "central")),
                Prop("one_way", "One way", "bool", el.one_way),
                Prop("start.x", "From x", "float", el.start[0]), Prop("start.y", "From y", "float", el.start[1]),
                Prop("end.x", "To x", "float", el.end[0]), Prop("end.y", "To y", "float", el.end[1])]
    elif isinstance(el, AccelerationField):
        out += [Prop("direction", "Direction", "angle", el.direction)]
    elif isinstance(el, ExclusionField):
        out += [Prop("active_from_tier", "Active from tier", "int", el.active_from_tier, 1, 3)]
    elif isinstance(el, StaticTarget):
        out += [Prop("position.x", "x", "float", el.position[0]),
                Prop("position.y", "y", "float", el.position[1]),
                Prop("tn_modifier", "TN modifier", "int", el.tn_modifier, -6, 6),
                Prop("capacity", "Capacity", "int", el.capacity, 1, 99),
                Prop("exploding", "Exploding", "bool", el.exploding)]
    shape = getattr(el, "shape", None)
    if shape is not None:
        out += _shape_props(shape)
    return out


def prop_of(el: Element, name: str) -> Prop:
    for p in properties_of(el):
        if p.name == name:
            return p
    raise KeyError(f"{type(el).__name__} has no property {name!r}")


def coerce(p: Prop, value: Any) -> Any:
    """Convert and check ``value`` for property ``p``; raise ``ValueError`` with a message."""
    if p.type == "str":
        text = str(value).strip()
        if not ID_PATTERN.match(text):
            raise ValueError(f"{text!r} is not a valid id (a letter, then letters, digits, '_', '.', '-')")
        return text
    if p.type == "choice":
        if value not in p.choices:
            raise ValueError(f"{p.label} must be one of {', '.join(p.choices)}")
        return value
    if p.type == "bool":
        if not isinstance(value, bool):
            raise ValueError(f"{p.label} must be true or false")
        return value
    try:
        num = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{p.label} must be a number") from None
    if not math.isfinite(num):
        raise ValueError(f"{p.label} must be a finite number")
    if p.type == "int":
        if not num.is_integer():
            raise ValueError(f"{p.label} must be a whole number")
        num = int(num)
    if p.type == "angle":
        num = num % 360.0
        return 0.0 if num == 0 else num
    if p.minimum is not None:
        if p.exclusive_min and num <= p.minimum:
            raise ValueError(f"{p.label} must be greater than {p.minimum:g}")
        if not p.exclusive_min and num < p.minimum:
            raise ValueError(f"{p.label} must be at least {p.minimum:g}")
    if p.maximum is not None and num > p.maximum:
        raise ValueError(f"{p.label} must be at most {p.maximum:g}")
    return num


def _with_point(pt: tuple[float, float], axis: str, v: float) -> tuple[float, float]:
    return (float(v), pt[1]) if axis in ("x", "w") else (pt[0], float(v))


def _set(obj: Any, path: list[str], value: Any) -> Any:
    head = path[0]
    if len(path) == 1:
        return dataclasses.replace(obj, **{head: value})
    current = getattr(obj, head)
    if isinstance(current, tuple):
        return dataclasses.replace(obj, **{head: _with_point(current, path[1], value)})
    return dataclasses.replace(obj, **{head: _set(current, path[1:], value)})


def set_property(el: Element, name: str, value: Any) -> Element:
    """An edited copy of ``el`` with property ``name`` set to ``value`` (checked)."""
    p = prop_of(el, name)
    v = coerce(p, value)
    if p.type == "float" or p.type == "angle":
        v = float(v)
    return _set(el, name.split("."), v)  # type: ignore[no-any-return]
