"""Pure (Qt-free) operations on arena elements the editor needs, for any game: references,
kinds and roles, new ids, adding/removing/replacing/moving elements, and the YAML of elements
used on the clipboard.

Every element is addressed by a *ref*: its ``id`` (a start's ``start:N``).  What differs per game
(its kinds' order and titles, its ids' conventions, a piece's footprint, the clipboard's form,
the format's checks) is asked of the game's :class:`~editor.games.model.ElementModel`
(:meth:`editor.game.EditorGame.elements`); what an element *is* is asked of its kind in the
game's ruleset (:func:`kind_spec`, :func:`placement`), never of its class.

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
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar, overload

import yaml

from editor.game import editor_game, game_of
from editor.games import model as G
from editor.games.model import Element, ElementModel
from schema.io import TypedArena
from schema.ruleset import ElementKind, Placement, ruleset
from schema.shapes import AreaShape, Circle, Point, Polygon, Polyline, Rect, Shape

_E = TypeVar("_E", bound=Element)

ID_PATTERN = re.compile(r"^[A-Za-z][A-Za-z0-9_.-]{0,63}$")


def model(arena: TypedArena) -> ElementModel:
    """The element model of ``arena``'s game (:meth:`editor.game.EditorGame.elements`)."""
    return game_of(arena).elements()


def _model_of(el: object) -> ElementModel:
    """The element model of the game ``el`` belongs to (by its class); the generic one for an
    object no installed game's arena holds."""
    try:
        system, _ = G.home_of(el)
    except KeyError:
        return G.GENERIC
    return editor_game(system).elements()


def kind_of(el: object) -> str:
    """The key of the arena list holding ``el`` (``walls``, ``start_positions``), by its class."""
    return G.kind_of(el)


def kind_spec(el: object, arena: TypedArena | None = None) -> ElementKind:
    """The element's kind as its game's ruleset describes it (:class:`schema.ruleset.ElementKind`:
    title, placement, style...), found by the element's class in ``arena``'s game when given,
    else over every installed ruleset (:func:`editor.games.model.home_of`).  ``KeyError`` for an
    object no game's arena holds.

    >>> from schema.games.gravstrike.model import Gate
    >>> kind_spec(Gate("G1", "outlying", (0.0, 0.0), (1.0, 0.0))).key
    'gates'
    """
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
    """The arena's element kinds, in the order its game lists them."""
    return model(arena).kinds(arena)


def kind_label(kind: str, arena: TypedArena | None = None) -> str:
    """A kind's title in the Layers and Elements panels ("Walls", "Numbered card"), its game's."""
    if arena is None:
        return kind.replace("_", " ").capitalize()
    return model(arena).kind_label(kind, arena)


def ref_of(el: Element) -> str:
    return el.id


def used_ids(arena: TypedArena) -> set[str]:
    """The refs a new element's id must not take."""
    return model(arena).used_ids(arena)


def next_id(arena: TypedArena, kind: str, variant: str | None = None, taken: Iterable[str] = ()) -> str:
    """The next free id for a new element of ``kind``, by its game's conventions (Gravstrike's
    book: W1.., G1.., checkpoints A, B, C.. outlying and M, N.. central, ``start:N``);
    ``variant``: the ``kind`` field of the element to be named, for a game whose ids follow it."""
    return model(arena).next_id(arena, kind, variant, taken)


def next_player(arena: TypedArena, taken: Iterable[int] = (), kind: str | None = None) -> int:
    """The lowest player with no element of ``kind`` (of any kind named by its player when
    None: a start) and not in ``taken``."""
    return model(arena).next_player(arena, kind, taken)


def find(arena: TypedArena, ref: str) -> Any:
    """The element ``ref`` of ``arena`` (its game's own type), or None."""
    elements: tuple[Any, ...] = arena.elements()  # any game's elements: each has an id
    for el in elements:
        if el.id == ref:
            return el
    return None


_A = TypeVar("_A", bound=TypedArena)


def replaced(arena: _A, changes: Mapping[str, Any]) -> _A:
    """``arena`` (a game's frozen dataclass) with the fields ``changes``."""
    out: _A = dataclasses.replace(arena, **changes)  # type: ignore[type-var]
    return out


def add_element(arena: _A, el: Element) -> _A:
    kind = kind_of(el)
    return replaced(arena, {kind: (*getattr(arena, kind), el)})


def remove_elements(arena: _A, refs: Iterable[str]) -> _A:
    gone = set(refs)
    return replaced(arena, {k: tuple(e for e in getattr(arena, k) if e.id not in gone) for k in kinds(arena)})


def replace_element(arena: _A, ref: str, new: Element) -> _A:
    """Put ``new`` where the element ``ref`` is (same index, so file order is kept)."""
    old = find(arena, ref)
    if old is None:
        raise KeyError(ref)
    kind = kind_of(old)
    if kind_of(new) != kind:
        raise TypeError(f"cannot replace a {kind} element with a {kind_of(new)} element")
    return replaced(arena, {kind: tuple(new if e.id == ref else e for e in getattr(arena, kind))})


def map_elements(arena: _A, refs: Iterable[str], fn: Callable[[Any], object]) -> _A:
    """``arena`` with each element ``refs`` replaced by ``fn(element)``."""
    wanted = set(refs)
    return replaced(arena, {k: tuple(fn(e) if e.id in wanted else e for e in getattr(arena, k)) for k in kinds(arena)})


# ------------------------------------------------------------------ geometry


def field_names(cls: type) -> frozenset[str]:
    """The dataclass fields of an element class (what the geometry reads: a segment's ``start``
    and ``end``, a piece's ``position`` and ``facing``, a ``shape``, a field's ``direction``)."""
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = frozenset(f.name for f in dataclasses.fields(cls))
    return names


_FIELDS: dict[type, frozenset[str]] = {}


def segment_ends(el: object) -> tuple[Point, Point] | None:
    """A segment's two ends (a kind placed as a ``segment``: ``start`` and ``end``, e.g. a
    Gravstrike gate), else None."""
    cls: type = type(el)
    names = field_names(cls) if dataclasses.is_dataclass(cls) else frozenset()
    if "start" in names and "end" in names:
        return getattr(el, "start"), getattr(el, "end")
    return None


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


def translate(el: _E, dx: float, dy: float) -> _E:
    """``el`` moved by (dx, dy): a segment's two ends, a piece's or a point's position, else its
    shape."""
    ends = segment_ends(el)
    moved: dict[str, Any]
    if ends is not None:
        moved = {"start": _tp(ends[0], dx, dy), "end": _tp(ends[1], dx, dy)}
    elif "position" in field_names(type(el)):
        moved = {"position": _tp(getattr(el, "position"), dx, dy)}
    else:
        moved = {"shape": translate_shape(getattr(el, "shape"), dx, dy)}
    return dataclasses.replace(el, **moved)


def anchor(el: object) -> Point:
    """A representative point of an element (label position, framing): a segment's middle, a
    piece's position, a shape's centre (a polygon's representative point, a line's box centre)."""
    ends = segment_ends(el)
    if ends is not None:
        (x0, y0), (x1, y1) = ends
        return ((x0 + x1) / 2, (y0 + y1) / 2)
    return G.anchor(el)


def bounds_of(el: object, arena: TypedArena | None = None) -> tuple[float, float, float, float]:
    """(minx, miny, maxx, maxy) of an element's footprint, as its game sizes it
    (:meth:`editor.games.model.ElementModel.bounds_of`)."""
    return _model_of(el).bounds_of(el, arena)


# ------------------------------------------------------------------ clipboard

CLIPBOARD_MIME = "application/x-arena-studio-elements+yaml"


def elements_to_yaml(arena: TypedArena, refs: Sequence[str]) -> str:
    """YAML of the selected elements, grouped by kind like an arena file's element lists."""
    return model(arena).to_yaml(arena, refs)


def elements_from_yaml(text: str, arena: TypedArena) -> list[Element]:
    """Parse clipboard YAML into elements, renamed/renumbered so they do not collide with
    ``arena``. Raises ``ValueError`` on text that is not a group of arena elements."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ValueError(f"clipboard is not YAML: {exc}") from None
    return model(arena).from_data(data, arena)


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
    "CLIPBOARD_MIME", "ID_PATTERN", "Element", "ElementModel", "Polyline", "add_element", "anchor", "bounds_of",
    "elements_from_yaml", "elements_to_yaml", "field_names", "find", "kind_label", "kind_of", "kind_spec", "kinds",
    "map_elements", "model", "next_id", "next_player", "placement", "polygon_ok", "polyline_ok", "ref_of",
    "remove_elements", "renumbered_copy", "replace_element", "replaced", "segment_ends", "translate", "translate_shape", "used_ids",
]
