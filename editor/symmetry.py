"""Symmetry mode (Qt-free): keep an arena's declared symmetry while editing.

The arena's :class:`~schema.model.Symmetry` defines a group of operations about its centre:
``rotational`` order N — rotations by k·360/N; ``mirror`` — the reflection about the axis at
``axis`` degrees; ``dihedral`` order N — the N rotations and N reflections about the axes
``axis + k·180/N``. (The same operations the ``symmetry`` validator checks.)

:func:`propagate` turns one edit into a symmetric one by comparing the arena before and
after the edit:

* an **added** element gets its images under every operation (fresh ids, next free player
  numbers, facings/directions rotated or mirrored); images that coincide with the element or
  each other (an element on an axis or at the centre) are not duplicated;
* a **changed** element's counterparts (the elements that were its images before the edit)
  take what the edit changed, carried by the operation, and keep the rest and the fields that
  name them (:data:`IDENTITY`: ids, start players, a Car Wars card's number and owner);
* a **removed** element's counterparts are removed too.

An Arena Rex deployment zone has no place of its own (it is its board edge): its images are the
edges the operations carry its edge onto (:mod:`editor.games.rex_symmetry`), so turning one zone
round the circle turns its image zones too.

>>> from schema.model import Arena, Polygon, StartPosition, Symmetry
>>> box = Polygon(((-9.0, -9.0), (9.0, -9.0), (9.0, 9.0), (-9.0, 9.0)))
>>> a = Arena("t", box, symmetry=Symmetry("rotational", 4))
>>> b = Arena("t", box, symmetry=a.symmetry, start_positions=(StartPosition(1, (5.0, 0.0), 180.0),))
>>> [(s.player, s.position, s.facing) for s in propagate(a, b, a.symmetry).start_positions]
[(1, (5.0, 0.0), 180.0), (2, (0.0, 5.0), 270.0), (3, (-5.0, 0.0), 0.0), (4, (0.0, -5.0), 90.0)]
"""

from __future__ import annotations

import dataclasses
import math

from editor import elements as E
from editor.arrange import Affine, reflection, rotation, transform_element
from schema.model import (
    AccelerationField,
    Arena,
    Circle,
    Element,
    Gate,
    Point,
    Polyline,
    Rect,
    StartPosition,
    StaticTarget,
    Symmetry,
)

TOL = 0.05
ANGLE_TOL = 0.5
KINDS = ("rotational", "mirror", "dihedral")


def check(sym: Symmetry) -> None:
    """Raise ``ValueError`` for a symmetry the file format would refuse."""
    if sym.kind not in KINDS:
        raise ValueError(f"symmetry kind must be one of {', '.join(KINDS)}")
    if not (1 <= sym.order <= 12):
        raise ValueError("symmetry order must be between 1 and 12")
    if not all(math.isfinite(v) for v in (*sym.center, sym.axis)):
        raise ValueError("symmetry centre and axis must be numbers")


def operations(sym: Symmetry) -> list[Affine]:
    """The non-identity operations of the symmetry group (rotations first)."""
    out: list[Affine] = []
    if sym.kind in ("rotational", "dihedral"):
        out += [rotation(360.0 * k / sym.order, sym.center) for k in range(1, sym.order)]
    if sym.kind in ("mirror", "dihedral"):
        n = sym.order if sym.kind == "dihedral" else 1
        out += [reflection(sym.axis + 180.0 * k / n, sym.center) for k in range(n)]
    return out


def is_start(el: object) -> bool:
    """A start position of any game (a ``player`` and no ``id`` field)."""
    if isinstance(el, StartPosition):
        return True
    names = {f.name for f in dataclasses.fields(el)} if dataclasses.is_dataclass(el) else set()
    return "player" in names and "id" not in names


def _points(el: Element) -> list[Point]:
    if isinstance(el, Gate):
        return [el.start, el.end]
    if isinstance(el, (StartPosition, StaticTarget)) or "position" in {f.name for f in dataclasses.fields(el)}:
        return [el.position]  # type: ignore[union-attr]
    s = el.shape
    if isinstance(s, Circle):
        return [s.center]
    if isinstance(s, Rect):
        return list(s.corners())
    return list(s.points)


def _angle(el: Element) -> float | None:
    if isinstance(el, StartPosition):
        return el.facing
    if isinstance(el, AccelerationField):
        return el.direction
    if type(el) not in E.KIND_OF:
        return getattr(el, "facing", None)
    return None


def same_place(a: Element, b: Element, tol: float = TOL) -> bool:
    """Same kind, same footprint (as point sets, any order) and same direction/facing."""
    if type(a) is not type(b):
        return False
    sa, sb = getattr(a, "shape", None), getattr(b, "shape", None)
    if type(sa) is not type(sb):
        return False
    if isinstance(sa, Circle) and abs(sa.radius - sb.radius) > tol:  # type: ignore[union-attr]
        return False
    if isinstance(sa, Polyline) and abs(sa.thickness - sb.thickness) > tol:  # type: ignore[union-attr]
        return False
    pa, pb = _points(a), _points(b)
    if len(pa) != len(pb):
        return False
    if isinstance(a, Gate) and isinstance(b, Gate):
        if not (_close(pa, pb, tol) or _close(pa, pb[::-1], tol)):
            return False
    elif not (all(min(math.dist(p, q) for q in pb) <= tol for p in pa)
              and all(min(math.dist(q, p) for p in pa) <= tol for q in pb)):
        return False
    aa, ab = _angle(a), _angle(b)
    if aa is not None and ab is not None and abs((aa - ab + 180.0) % 360.0 - 180.0) > ANGLE_TOL:
        return False
    return True


def _close(pa: list[Point], pb: list[Point], tol: float) -> bool:
    return all(math.dist(p, q) <= tol for p, q in zip(pa, pb))


def placed(el: Element) -> bool:
    """Whether ``el`` has a place of its own (a shape, a position, a gate's ends); an element
    drawn from the arena (an Arena Rex deployment zone, on its board edge) has none: its images
    are its edge's (:func:`image`)."""
    return isinstance(el, Gate) or hasattr(el, "position") or hasattr(el, "shape")


def image(el: Element, op: Affine, arena: Arena | None = None) -> Element | None:
    """``el`` carried by ``op``; an element with no place of its own is carried with its edge
    of ``arena``'s board (an Arena Rex zone), or not at all (None)."""
    if placed(el):
        return transform_element(el, op)
    if arena is not None and getattr(arena, "system", "") == "arena-rex":
        from editor.games.rex_symmetry import zone_image

        return zone_image(arena.bounds, el, op)  # type: ignore[no-any-return]
    return None


def _same(a: Element, b: Element) -> bool:
    if placed(a):
        return same_place(a, b)
    from editor.games.rex_symmetry import same_zone

    return type(a) is type(b) and same_zone(a, b)


def images(el: Element, sym: Symmetry, arena: Arena | None = None) -> list[Element]:
    """The distinct images of ``el`` (not including ``el``), ids/players not yet assigned
    (``arena``: the arena whose board edges carry an element with no place of its own)."""
    out: list[Element] = []
    for op in operations(sym):
        img = image(el, op, arena)
        if img is None or _same(img, el) or any(_same(img, o) for o in out):
            continue
        out.append(img)
    return out


def counterparts(arena: Arena, el: Element, sym: Symmetry) -> list[tuple[Affine, Element]]:
    """(operation, element of ``arena``) pairs: the elements that are images of ``el``."""
    found: list[tuple[Affine, Element]] = []
    pool = [o for o in getattr(arena, E.kind_of(el)) if o.id != el.id]
    for op in operations(sym):
        img = image(el, op, arena)
        if img is None or _same(img, el):
            continue
        for other in pool:
            if _same(img, other) and all(other.id != f.id for _, f in found):
                found.append((op, other))
                break
    return found


def orbit_refs(arena: Arena, ref: str, sym: Symmetry) -> list[str]:
    """``ref`` and the refs of its counterparts."""
    el = E.find(arena, ref)
    if el is None:
        return []
    return [ref, *[o.id for _, o in counterparts(arena, el, sym)]]


def _with_identity(img: Element, arena: Arena, taken_ids: set[str], taken_players: set[int]) -> Element:
    if is_start(img):
        p = E.next_player(arena, taken_players)
        taken_players.add(p)
        return dataclasses.replace(img, player=p)
    kind = E.kind_of(img)
    new = E.next_id(arena, kind, getattr(img, "kind", "outlying"), taken_ids)
    taken_ids.add(new)
    return dataclasses.replace(img, id=new)  # type: ignore[arg-type]


def propagate(before: Arena, after: Arena, sym: Symmetry) -> Arena:
    """``after`` made symmetric: the edit from ``before`` applied to whole orbits."""
    if not operations(sym):
        return after
    old = {el.id: el for el in before.elements()}
    new = {el.id: el for el in after.elements()}
    added = [el for ref, el in new.items() if ref not in old]
    removed = [el for ref, el in old.items() if ref not in new]
    changed = [(old[ref], el) for ref, el in new.items() if ref in old and old[ref] != el]
    touched = {el.id for el in added} | {el.id for el in removed} | {o.id for o, _ in changed}
    result = after
    gone: set[str] = set()
    for el in removed:
        gone |= {o.id for _, o in counterparts(before, el, sym) if o.id not in touched}
    if gone:
        result = E.remove_elements(result, gone)
    for was, now in changed:
        for op, other in counterparts(before, was, sym):
            if other.id in touched or other.id in gone:
                continue
            img = image(now, op, after)
            if img is None:
                continue
            img = _counterpart(img, was, now, other)
            result = E.replace_element(result, other.id, img)
            touched.add(other.id)
    taken_ids: set[str] = set()
    taken_players: set[int] = set()
    for el in added:
        for img in images(el, sym, after):
            result = E.add_element(result, _with_identity(img, result, taken_ids, taken_players))
    return result


#: Fields that name an element rather than place it: a counterpart keeps its own (a Car Wars
#: card's number and owner - "four cards numbered 0 through 3", one own-colour checkpoint per
#: player - a start's player, every id).
IDENTITY = ("id", "player", "number", "owner")


def _counterpart(img: Element, was: Element, now: Element, other: Element) -> Element:
    """The counterpart ``other`` after the edit ``was`` -> ``now``: ``img`` (``now`` carried by
    the operation that carried ``was`` onto ``other``) for what the edit changed, ``other``'s
    own values for what it did not (a drag moves the images; it does not copy the dragged
    card's number to them) and for the fields that name it (:data:`IDENTITY`)."""
    keep = {f.name: getattr(other, f.name) for f in dataclasses.fields(other)
            if f.name in IDENTITY or getattr(was, f.name) == getattr(now, f.name)}
    return dataclasses.replace(img, **keep)


def describe(sym: Symmetry | None) -> str:
    if sym is None:
        return "none"
    if not hasattr(sym, "center"):  # a grid game's: about the grid's centre
        order = getattr(sym, "order", 1)
        axis = f" about {sym.axis:g}°" if sym.kind in ("mirror", "dihedral") and hasattr(sym, "axis") else ""
        return f"{sym.kind}" + (f" order {order}" if order > 1 else "") + axis + " (grid centre)"
    if sym.kind == "mirror":
        return f"mirror about {sym.axis:g}° through ({sym.center[0]:g}, {sym.center[1]:g})"
    return f"{sym.kind} order {sym.order} about ({sym.center[0]:g}, {sym.center[1]:g})"


__all__ = ["check", "counterparts", "describe", "image", "images", "operations", "orbit_refs", "propagate",
           "same_place"]
