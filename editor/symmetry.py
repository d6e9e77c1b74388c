"""Symmetry mode (Qt-free): keep an arena's declared symmetry while editing.

The arena's :class:`~schema.games.gravstrike.model.Symmetry` defines a group of operations about its centre:
``rotational`` order N — rotations by k·360/N; ``mirror`` — the reflection about the axis at
``axis`` degrees; ``dihedral`` order N — the N rotations and N reflections about the axes
``axis + k·180/N``. (The same operations the ``symmetry`` validator checks.)

:func:`propagate` turns one edit into a symmetric one by comparing the arena before and
after the edit:

* an **added** element gets its images under every operation (facings/directions rotated or
  mirrored), named by its game's rule (:mod:`editor.games.symmetry_rules`: fresh ids, the next
  free player, a Car Wars card's next free number and image owner); images that coincide with
  the element or each other are not duplicated;
* an element an operation leaves in place (on the mirror axis, at the centre) is **its own
  image**: it is kept once, as drawn.  Its direction is symmetric only if the operation keeps
  it (along the mirror axis); a field on the axis pushing across it, or at the centre of a
  rotation, cannot be its own image, and :func:`propagate` says so (``notes``) instead of
  stacking a copy pushing the other way;
* a **changed** element's counterparts (the elements that were its images before the edit)
  take what the edit changed, carried by the operation, and keep the rest and the fields that
  name them (:data:`IDENTITY`: ids, start players, a Car Wars card's number and owner) unless
  the game's rule carries an edit of those (a renumbered card renumbers its images);
* a **removed** element's counterparts are removed too.

An Arena Rex deployment zone has no place of its own (it is its board edge): its images are the
edges the operations carry its edge onto (:mod:`editor.games.arenarex.symmetry`, Arena Rex's rule),
so turning one zone round the circle turns its image zones too.

>>> from schema.games.gravstrike.model import Arena, Polygon, StartPosition, Symmetry
>>> box = Polygon(((-9.0, -9.0), (9.0, -9.0), (9.0, 9.0), (-9.0, 9.0)))
>>> a = Arena("t", box, symmetry=Symmetry("rotational", 4))
>>> b = Arena("t", box, symmetry=a.symmetry, start_positions=(StartPosition(1, (5.0, 0.0), 180.0),))
>>> [(s.player, s.position, s.facing) for s in propagate(a, b, a.symmetry).start_positions]
[(1, (5.0, 0.0), 180.0), (2, (0.0, 5.0), 270.0), (3, (-5.0, 0.0), 0.0), (4, (0.0, -5.0), 90.0)]
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any, Protocol

from editor import elements as E
from editor.arrange import Affine, reflection, rotation, transform_element
from editor.games.symmetry_rules import IDENTITY, Taken, rules_of
from editor.games.symmetry_rules import is_start as _is_start
from editor.snapping import segment_ends
from schema.ruleset import ArenaModel
from schema.shapes import Circle, Point, Polyline, Rect

#: An element of any game's arena (each game's own frozen dataclass, with an ``id``).
Element = Any


class Symmetry(Protocol):
    """A symmetry about a point of the table (:class:`schema.shapes.Symmetry`, the symmetry of
    every game placed freely): its ``kind`` (``rotational``, ``mirror`` or ``dihedral``), its
    rotation ``order``, its ``center`` and its first mirror ``axis`` (degrees).  A grid game's
    symmetry is about its grid's centre (:meth:`editor.game.EditorGame.grid_images`)."""

    @property
    def kind(self) -> str: ...
    @property
    def order(self) -> int: ...
    @property
    def center(self) -> Point: ...
    @property
    def axis(self) -> float: ...

TOL = 0.05
ANGLE_TOL = 0.5
KINDS = ("rotational", "mirror", "dihedral")


def check(sym: object) -> None:
    """Raise ``ValueError`` for a symmetry the file format would refuse: any game's (a grid
    game's has no centre, Mothership's neither order nor axis; what a game's schema refuses
    beyond these, the command's format check says)."""
    kind = getattr(sym, "kind", None)
    if kind not in KINDS:
        raise ValueError(f"symmetry kind must be one of {', '.join(KINDS)}")
    if not (1 <= int(getattr(sym, "order", 1)) <= 12):
        raise ValueError("symmetry order must be between 1 and 12")
    if not all(math.isfinite(v) for v in (*getattr(sym, "center", ()), getattr(sym, "axis", 0.0))):
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
    return _is_start(el)


def _points(el: Element) -> list[Point]:
    ends = segment_ends(el)
    if ends is not None:
        return list(ends)
    if "position" in {f.name for f in dataclasses.fields(el)}:
        return [el.position]
    s = el.shape
    if isinstance(s, Circle):
        return [s.center]
    if isinstance(s, Rect):
        return list(s.corners())
    return list(s.points)


def _angle(el: Element) -> float | None:
    """The direction an element points: a piece's ``facing`` (a pose), a field's ``direction``."""
    for name in ("facing", "direction"):
        value = getattr(el, name, None)
        if value is not None:
            return float(value)
    return None


def same_place(a: Element, b: Element, tol: float = TOL, angle: bool = True) -> bool:
    """Same kind, same footprint (as point sets, any order) and (``angle``) same
    direction/facing."""
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
    if segment_ends(a) is not None:  # a segment: the same whichever end is its start
        if not (_close(pa, pb, tol) or _close(pa, pb[::-1], tol)):
            return False
    elif not (all(min(math.dist(p, q) for q in pb) <= tol for p in pa)
              and all(min(math.dist(q, p) for p in pa) <= tol for q in pb)):
        return False
    aa, ab = _angle(a), _angle(b)
    if angle and aa is not None and ab is not None and abs((aa - ab + 180.0) % 360.0 - 180.0) > ANGLE_TOL:
        return False
    return True


def _close(pa: list[Point], pb: list[Point], tol: float) -> bool:
    return all(math.dist(p, q) <= tol for p, q in zip(pa, pb))


def placed(el: Element) -> bool:
    """Whether ``el`` has a place of its own (a shape, a position, a gate's ends); an element
    drawn from the arena (an Arena Rex deployment zone, on its board edge) has none: its images
    are what its game's rules say (:meth:`~editor.games.symmetry_rules.Rules.unplaced_image`)."""
    return segment_ends(el) is not None or hasattr(el, "position") or hasattr(el, "shape")


def image(el: Element, op: Affine, arena: ArenaModel | None = None) -> Element | None:
    """``el`` carried by ``op``; an element with no place of its own is carried as its game
    says (an Arena Rex zone with its edge of ``arena``'s board), or not at all (None)."""
    if placed(el):
        return transform_element(el, op)
    if arena is None:
        return None
    return rules_of(arena).unplaced_image(arena, el, op)


def _same(a: Element, b: Element, arena: ArenaModel | None = None, angle: bool = True) -> bool:
    if placed(a):
        return same_place(a, b, angle=angle)
    return arena is not None and rules_of(arena).same_unplaced(a, b)


def own_image(el: Element, img: Element, arena: ArenaModel | None = None) -> bool:
    """Whether ``img`` (an image of ``el``) lies where ``el`` lies: ``el`` is its own image under
    that operation (on the mirror axis, at the rotation centre), whatever its direction."""
    return _same(img, el, arena, angle=False)


def images(el: Element, sym: Symmetry, arena: ArenaModel | None = None) -> list[Element]:
    """The distinct images of ``el`` (not including ``el``), ids/players not yet assigned
    (``arena``: the arena whose board edges carry an element with no place of its own).  An
    element is its own image where an operation leaves its footprint in place: it is kept
    once, never stacked with a copy pointing another way (:func:`self_image_notes`)."""
    return [img for _, img in _images(el, sym, arena)]


def _images(el: Element, sym: Symmetry, arena: ArenaModel | None) -> list[tuple[Affine, Element]]:
    out: list[tuple[Affine, Element]] = []
    for op in operations(sym):
        img = image(el, op, arena)
        if img is None or own_image(el, img, arena) or any(_same(img, o, arena) for _, o in out):
            continue
        out.append((op, img))
    return out


def self_image_notes(el: Element, sym: Symmetry, arena: ArenaModel | None = None) -> list[str]:
    """What to tell the designer about an element that is its own image but whose direction is
    not: a field on the mirror axis pushing across it, a field at the rotation centre.  Such an
    element is kept once, as drawn (its image would be itself pushing another way); only a
    direction the operation keeps - along the mirror axis - is symmetric."""
    d = _angle(el)
    if d is None:
        return []
    for op in operations(sym):
        img = image(el, op, arena)
        if img is None or not own_image(el, img, arena) or _same(img, el, arena):
            continue
        if op.mirror:
            a = op.angle % 180.0
            return [f"{el.id} lies on the mirror axis ({a:g}°): it is its own image and is kept once, but its "
                    f"direction {d:g}° is not symmetric — point it along the axis ({a:g}° or {a + 180.0:g}°)"]
        return [f"{el.id} lies at the centre of the rotation: it is its own image and is kept once, but no "
                f"direction is symmetric under a turn of {op.angle % 360.0:g}° — move it off the centre"]
    return []


def counterparts(arena: ArenaModel, el: Element, sym: Symmetry) -> list[tuple[Affine, Element]]:
    """(operation, element of ``arena``) pairs: the elements that are images of ``el``."""
    found: list[tuple[Affine, Element]] = []
    pool = [o for o in getattr(arena, E.kind_of(el)) if o.id != el.id]
    for op in operations(sym):
        img = image(el, op, arena)
        if img is None or own_image(el, img, arena):
            continue
        for other in pool:
            if _same(img, other, arena) and all(other.id != f.id for _, f in found):
                found.append((op, other))
                break
    return found


def orbit_refs(arena: ArenaModel, ref: str, sym: Symmetry) -> list[str]:
    """``ref`` and the refs of its counterparts."""
    el = E.find(arena, ref)
    if el is None:
        return []
    return [ref, *[o.id for _, o in counterparts(arena, el, sym)]]


def propagate(before: ArenaModel, after: ArenaModel, sym: Symmetry, notes: list[str] | None = None) -> ArenaModel:
    """``after`` made symmetric: the edit from ``before`` applied to whole orbits.  Images are
    named by the game's rules (:mod:`editor.games.symmetry_rules`); what the designer should
    know (an element that is its own image but not its direction's) is appended to ``notes``."""
    if not operations(sym):
        return after
    rules = rules_of(after)
    old: dict[str, Element] = {getattr(el, "id"): el for el in before.elements()}
    new: dict[str, Element] = {getattr(el, "id"): el for el in after.elements()}
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
            img = _counterpart(img, was, now, other, rules.carry_identity(before, was, now, other, op))
            result = E.replace_element(result, other.id, img)
            touched.add(other.id)
    taken = Taken()
    for el in added:
        for op, img in _images(el, sym, after):
            result = E.add_element(result, rules.name_image(result, el, img, op, taken))
    if notes is not None:
        for el in [*added, *(now for _, now in changed)]:
            notes += self_image_notes(el, sym, after)
    return result


def _counterpart(img: Element, was: Element, now: Element, other: Element, carried: dict[str, object]) -> Element:
    """The counterpart ``other`` after the edit ``was`` -> ``now``: ``img`` (``now`` carried by
    the operation that carried ``was`` onto ``other``) for what the edit changed, ``other``'s
    own values for what it did not (a drag moves the images; it does not copy the dragged
    card's number to them) and for the fields that name it (:data:`IDENTITY`) - unless the
    game's rule ``carried`` them (a Car Wars card renumbered: its images renumbered)."""
    keep = {f.name: getattr(other, f.name) for f in dataclasses.fields(other)
            if f.name in IDENTITY or getattr(was, f.name) == getattr(now, f.name)}
    keep.update(carried)
    return dataclasses.replace(img, **keep)


@dataclasses.dataclass(frozen=True)
class Guide:
    """What the canvas draws while symmetry mode is on: the ``centre`` of the operations, the
    mirror ``axes`` through it (degrees, counter-clockwise from +x) and the rotation ``order``
    (1: no rotation)."""

    centre: Point
    axes: tuple[float, ...]
    order: int

    @property
    def kind(self) -> str:
        return "dihedral" if self.axes and self.order > 1 else "mirror" if self.axes else "rotational"


def guide(arena: object) -> Guide | None:
    """The mirror axes and rotation centre of ``arena``'s declared symmetry, in the canvas's
    arena coordinates (a grid game's about its grid's centre); None when it declares none."""
    sym = getattr(arena, "symmetry", None)
    if sym is None:
        return None
    if not hasattr(arena, "bounds"):  # a grid game: its grid's centre and axes
        from editor.games.grid_model import guide as grid_guide

        found = grid_guide(arena)
        return None if found is None else Guide(*found)
    order = sym.order if sym.kind in ("rotational", "dihedral") else 1
    n = sym.order if sym.kind == "dihedral" else 1 if sym.kind == "mirror" else 0
    axes = tuple((sym.axis + 180.0 * k / n) % 180.0 for k in range(n))
    return Guide((float(sym.center[0]), float(sym.center[1])), axes, max(order, 1))


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


__all__ = ["IDENTITY", "Guide", "check", "guide", "counterparts", "describe", "image", "images", "operations", "orbit_refs",
           "own_image", "propagate", "same_place", "self_image_notes", "Symmetry"]
