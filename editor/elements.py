"""Pure (Qt-free) operations on arena elements the editor needs: references, kinds, new ids
following the book's conventions, adding/removing/replacing/moving elements, and the YAML
of elements used on the clipboard.

Every element is addressed by a *ref*: its ``id``, or ``start:N`` for a start position.

>>> from schema.games.gravstrike.model import Arena, Rect, Wall
>>> a = Arena(name="t", bounds=Rect((0.0, 0.0), (24.0, 24.0)))
>>> next_id(a, "walls")
'W1'
>>> a = add_element(a, Wall("W1", Rect((1.0, 1.0), (2.0, 1.0))))
>>> next_id(a, "walls"), ref_of(a.walls[0])
('W2', 'W1')
>>> translate(a.walls[0], 1, -1).shape.center
(2.0, 0.0)
"""

from __future__ import annotations

import dataclasses
import re
import string
from collections.abc import Iterable, Sequence
from typing import Any, overload

import yaml

from schema.games.gravstrike import document as sdoc
from schema.io import TypedArena
from schema.ruleset import ElementKind, Placement, ruleset
from schema.shapes import AreaShape, Circle, Point, Polygon, Polyline, Rect, Shape
from schema.games.gravstrike.model import AccelerationField, Arena, Checkpoint, Element, ExclusionField, Gate, StartPosition, StaticTarget, Wall

#: Arena attribute holding each element class, in drawing/file order.
KIND_OF: dict[type, str] = {
    Wall: "walls",
    Checkpoint: "checkpoints",
    Gate: "gates",
    AccelerationField: "acceleration_fields",
    ExclusionField: "exclusion_fields",
    StaticTarget: "static_targets",
    StartPosition: "start_positions",
}
KINDS: tuple[str, ...] = tuple(KIND_OF.values())
KIND_LABEL = {
    "walls": "Walls",
    "checkpoints": "Checkpoints",
    "gates": "Gates",
    "acceleration_fields": "Acceleration fields",
    "exclusion_fields": "Exclusion fields",
    "static_targets": "Static targets",
    "start_positions": "Start positions",
}
#: Id prefixes of numbered kinds (book conventions).
PREFIX = {"walls": "W", "gates": "G", "acceleration_fields": "F", "exclusion_fields": "X", "static_targets": "T"}
OUTLYING_LETTERS = string.ascii_uppercase[:12]  # A..L
CENTRAL_LETTERS = string.ascii_uppercase[12:] + string.ascii_uppercase[:12]  # M..Z, then A..L
ID_PATTERN = re.compile(r"^[A-Za-z][A-Za-z0-9_.-]{0,63}$")


def kind_of(el: Element) -> str:
    kind = KIND_OF.get(type(el))
    if kind is None:  # another game's element (editor.games)
        from editor.games import model as G

        return G.kind_of(el)
    return kind


def kind_spec(el: object, arena: TypedArena | None = None) -> ElementKind:
    """The element's kind as its game's ruleset describes it (:class:`schema.ruleset.ElementKind`:
    title, placement, style...), found by the element's class in ``arena``'s game when given,
    else over every installed ruleset (:func:`editor.games.model.home_of`).  ``KeyError`` for an
    object no game's arena holds.

    >>> from schema.games.gravstrike.model import Gate
    >>> kind_spec(Gate("G1", "outlying", (0.0, 0.0), (1.0, 0.0))).key
    'gates'
    """
    from editor.games import model as G

    if arena is not None:
        key = G.type_kinds(type(arena)).get(type(el))
        if key is not None:
            return ruleset(arena.system).kind(key)
    system, key = G.home_of(el)
    return ruleset(system).kind(key)


def placement(el: object, arena: TypedArena | None = None) -> Placement:
    """How the element is placed on the table (its kind's ``placement``: ``shape``, ``pose``,
    ``point``, ``segment``, ``cells``...): the role shared code asks instead of its class.

    >>> from schema.games.gravstrike.model import StartPosition
    >>> placement(StartPosition(1, (0.0, 0.0), 0.0))
    'pose'
    """
    return kind_spec(el, arena).placement


def kinds(arena: TypedArena) -> tuple[str, ...]:
    """The arena's element kinds (Gravstrike's :data:`KINDS`, else its ruleset's)."""
    if isinstance(arena, Arena):
        return KINDS
    from editor.games import model as G

    return G.kind_keys(arena)


def kind_label(kind: str, arena: TypedArena | None = None) -> str:
    """A kind's plural title ("Walls", "Numbered cards")."""
    if kind in KIND_LABEL:
        return KIND_LABEL[kind]
    if arena is not None and not isinstance(arena, Arena):
        from editor.games import model as G

        return G.ruleset(arena).kind(kind).title
    return kind.replace("_", " ").capitalize()


def _generic(arena: object) -> bool:
    return not isinstance(arena, Arena)


def ref_of(el: Element) -> str:
    return el.id


def used_ids(arena: Arena) -> set[str]:
    return {el.id for el in arena.elements() if not isinstance(el, StartPosition)}


def next_id(arena: TypedArena, kind: str, checkpoint_kind: str = "outlying", taken: Iterable[str] = ()) -> str:
    """The next free id for a new element of ``kind``: W1.., G1.., F1.., X1.., T1..; checkpoints
    A, B, C.. when outlying and M, N, O.. when central; ``start:N`` for starts."""
    if not isinstance(arena, Arena):  # another game's (_generic)
        from editor.games import model as G

        return G.next_id(arena, kind, taken)
    used = used_ids(arena) | set(taken)
    if kind == "start_positions":
        return f"start:{next_player(arena)}"
    if kind == "checkpoints":
        letters = OUTLYING_LETTERS + CENTRAL_LETTERS[:14] if checkpoint_kind == "outlying" else CENTRAL_LETTERS
        for letter in letters:
            if letter not in used:
                return letter
        n = 1
        while f"{letters[0]}{n}" in used:
            n += 1
        return f"{letters[0]}{n}"
    prefix = PREFIX[kind]
    n = 1
    while f"{prefix}{n}" in used:
        n += 1
    return f"{prefix}{n}"


def next_player(arena: TypedArena, taken: Iterable[int] = (), kind: str | None = None) -> int:
    """The lowest player with no start (another game's: no element of ``kind``, a kind named by
    its player, :func:`editor.games.model.next_player`) and not in ``taken``."""
    if not isinstance(arena, Arena):  # another game's (_generic)
        from editor.games import model as G

        return G.next_player(arena, kind, taken)
    used = {s.player for s in arena.start_positions} | set(taken)
    n = 1
    while n in used:
        n += 1
    return n


@overload
def find(arena: Arena, ref: str) -> Element | None: ...
@overload
def find(arena: TypedArena, ref: str) -> Any: ...  # another game's element: its ruleset's own type
def find(arena: TypedArena, ref: str) -> Any:
    elements: tuple[Any, ...] = arena.elements()  # any game's elements: each has an id
    for el in elements:
        if el.id == ref:
            return el
    return None


def add_element(arena: Arena, el: Element) -> Arena:
    kind = kind_of(el)
    change: dict[str, Any] = {kind: (*getattr(arena, kind), el)}
    return dataclasses.replace(arena, **change)


def remove_elements(arena: Arena, refs: Iterable[str]) -> Arena:
    gone = set(refs)
    changes: dict[str, Any] = {k: tuple(e for e in getattr(arena, k) if e.id not in gone) for k in kinds(arena)}
    return dataclasses.replace(arena, **changes)


def replace_element(arena: Arena, ref: str, new: Element) -> Arena:
    """Put ``new`` where the element ``ref`` is (same index, so file order is kept)."""
    old = find(arena, ref)
    if old is None:
        raise KeyError(ref)
    kind = kind_of(old)
    if kind_of(new) != kind:
        raise TypeError(f"cannot replace a {kind} element with a {kind_of(new)} element")
    items = tuple(new if e.id == ref else e for e in getattr(arena, kind))
    change: dict[str, Any] = {kind: items}
    return dataclasses.replace(arena, **change)


def map_elements(arena: Arena, refs: Iterable[str], fn: Any) -> Arena:
    wanted = set(refs)
    changes: dict[str, Any] = {k: tuple(fn(e) if e.id in wanted else e for e in getattr(arena, k)) for k in kinds(arena)}
    return dataclasses.replace(arena, **changes)


# ------------------------------------------------------------------ geometry


def _tp(p: Point, dx: float, dy: float) -> Point:
    """``p`` moved, without float noise (10.2 - 4.7 is 5.499999999999999: written as 5.5)."""
    x, y = round(p[0] + dx, 9), round(p[1] + dy, 9)
    return (x if x else 0.0, y if y else 0.0)


@overload
def translate_shape(s: AreaShape, dx: float, dy: float) -> AreaShape: ...
@overload
def translate_shape(s: Shape, dx: float, dy: float) -> Shape: ...
def translate_shape(s: Shape, dx: float, dy: float) -> Shape:
    if isinstance(s, (Circle, Rect)):
        return dataclasses.replace(s, center=_tp(s.center, dx, dy))
    return dataclasses.replace(s, points=tuple(_tp(p, dx, dy) for p in s.points))


def translate(el: Element, dx: float, dy: float) -> Element:
    if type(el) not in KIND_OF:  # another game's element: its position or its shape
        names = {f.name for f in dataclasses.fields(el)}
        if "position" in names:
            moved: dict[str, Any] = {"position": _tp(getattr(el, "position"), dx, dy)}
        else:
            moved = {"shape": translate_shape(getattr(el, "shape"), dx, dy)}
        return dataclasses.replace(el, **moved)
    if isinstance(el, Gate):
        return dataclasses.replace(el, start=_tp(el.start, dx, dy), end=_tp(el.end, dx, dy))
    if isinstance(el, (StaticTarget, StartPosition)):
        return dataclasses.replace(el, position=_tp(el.position, dx, dy))
    if isinstance(el, Wall):  # the one kind whose shape may be a polyline
        return dataclasses.replace(el, shape=translate_shape(el.shape, dx, dy))
    return dataclasses.replace(el, shape=translate_shape(el.shape, dx, dy))


def anchor(el: Element) -> Point:
    """A representative point of an element (label position, framing)."""
    if type(el) not in KIND_OF:
        from editor.games import model as G

        return G.anchor(el)
    if isinstance(el, Gate):
        return ((el.start[0] + el.end[0]) / 2, (el.start[1] + el.end[1]) / 2)
    if isinstance(el, (StaticTarget, StartPosition)):
        return el.position
    s = el.shape
    if isinstance(s, (Circle, Rect)):
        return s.center
    c = s.to_shapely().representative_point() if isinstance(s, Polygon) else None
    if c is not None:
        return (c.x, c.y)
    xs = [p[0] for p in s.points]
    ys = [p[1] for p in s.points]
    return ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)


def bounds_of(el: Element) -> tuple[float, float, float, float]:
    """(minx, miny, maxx, maxy) of an element's footprint."""
    if type(el) not in KIND_OF:
        from editor.games import model as G

        return G.bounds_of(el)
    if isinstance(el, (StaticTarget,)):
        x, y = el.position
        return (x - 0.3, y - 0.3, x + 0.3, y + 0.3)
    if isinstance(el, StartPosition):
        x, y = el.position
        return (x - 0.6, y - 0.6, x + 0.6, y + 0.6)
    if isinstance(el, Gate):
        return (min(el.start[0], el.end[0]), min(el.start[1], el.end[1]),
                max(el.start[0], el.end[0]), max(el.start[1], el.end[1]))
    minx, miny, maxx, maxy = el.shape.to_shapely().bounds
    return (minx, miny, maxx, maxy)


# ------------------------------------------------------------------ clipboard

CLIPBOARD_MIME = "application/x-arena-studio-elements+yaml"


def elements_to_yaml(arena: TypedArena, refs: Sequence[str]) -> str:
    """YAML of the selected elements, grouped by kind like an arena file's element lists."""
    if not isinstance(arena, Arena):  # another game's (_generic)
        from editor.games import model as G

        return G.items_to_yaml(arena, refs)
    doc = sdoc.to_document(arena)
    wanted = set(refs)
    out: dict[str, list[Any]] = {}
    for kind in KINDS:
        for el, d in zip(getattr(arena, kind), doc[kind]):
            if el.id in wanted:
                out.setdefault(kind, []).append(d)
    return yaml.safe_dump(out, sort_keys=False, default_flow_style=None)


def elements_from_yaml(text: str, arena: TypedArena) -> list[Element]:
    """Parse clipboard YAML into elements, renamed/renumbered so they do not collide with
    ``arena``. Raises ``ValueError`` on text that is not a group of arena elements."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ValueError(f"clipboard is not YAML: {exc}") from None
    if not isinstance(arena, Arena):  # another game's (_generic)
        from editor.games import model as G

        return G.items_from_data(data, arena)
    if not isinstance(data, dict) or not data or not set(data) <= set(KINDS):
        raise ValueError("clipboard does not hold arena elements")
    from schema import ArenaError, from_document

    emptied: dict[str, Any] = {k: () for k in KINDS}
    base = sdoc.to_document(dataclasses.replace(arena, **emptied))
    base.update({k: v for k, v in data.items()})
    try:
        parsed = from_document(base, source="<clipboard>")
    except ArenaError as exc:
        raise ValueError(str(exc)) from None
    assert isinstance(parsed, Arena)  # built from this Gravstrike arena's document
    out: list[Element] = []
    taken: set[str] = set()
    players: set[int] = set()
    for el in parsed.elements():
        if isinstance(el, StartPosition):
            p = next_player(arena, players)
            players.add(p)
            el = dataclasses.replace(el, player=p)
        else:
            if el.id in used_ids(arena) or el.id in taken:
                kind = kind_of(el)
                new = next_id(arena, kind, getattr(el, "kind", "outlying"), taken)
                el = dataclasses.replace(el, id=new)
            taken.add(el.id)
        out.append(el)
    return out


def renumbered_copy(arena: TypedArena, refs: Sequence[str], dx: float, dy: float) -> list[Element]:
    """Copies of ``refs`` shifted by (dx, dy), with fresh ids/player numbers."""
    return [translate(el, dx, dy) for el in elements_from_yaml(elements_to_yaml(arena, refs), arena)]


def polyline_ok(points: Sequence[Point]) -> bool:
    return len(set(points)) >= 2 and all(points[i] != points[i - 1] for i in range(1, len(points)))


def polygon_ok(points: Sequence[Point]) -> bool:
    if len(set(points)) < 3:
        return False
    try:
        g = Polygon(tuple(points)).to_shapely()
    except Exception:  # noqa: BLE001 - degenerate input
        return False
    return bool(g.is_valid and g.area > 1e-9)


__all__ = [
    "CLIPBOARD_MIME", "ID_PATTERN", "KINDS", "KIND_LABEL", "KIND_OF", "Polyline", "add_element", "anchor",
    "bounds_of", "elements_from_yaml", "elements_to_yaml", "find", "kind_label", "kind_of", "kind_spec", "kinds", "map_elements", "next_id",
    "next_player", "placement", "polygon_ok", "polyline_ok", "ref_of", "remove_elements", "renumbered_copy",
    "replace_element", "translate", "translate_shape", "used_ids",
]
