"""Undo commands for shape editing, arranging and arena/scenario settings (one class per action).

Like :mod:`editor.commands`, constructors check their input and raise ``ValueError`` with a
message for the user, so a refused edit never enters the undo stack.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import typing
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtGui import QUndoCommand

from editor import arrange as A
from editor import elements as E
from editor import symmetry as S
from editor.commands import ArenaCommand, check_no_new_problems
from editor.elements import Element
from schema.ruleset import ArenaModel as Arena
from schema.shapes import AreaShape, Polygon, Polyline

if TYPE_CHECKING:
    from editor.document import ArenaDocument


def check_shape_points(el: Element | AreaShape) -> None:
    """Refuse polygons that cross themselves or have too few points, bad polylines, and a
    segment (a gate) whose ends are one point."""
    s = el if isinstance(el, (Polygon, Polyline)) else getattr(el, "shape", None)
    if isinstance(s, Polygon):
        if len(s.points) < 3:
            raise ValueError("a polygon needs at least 3 points")
        if not E.polygon_ok(s.points):
            raise ValueError("the polygon's edges would cross or it would have no area")
    elif isinstance(s, Polyline):
        if len(s.points) < 2:
            raise ValueError("a line needs at least 2 points")
        if not E.polyline_ok(s.points):
            raise ValueError("the line needs distinct consecutive points")
    ends = E.segment_ends(el)
    if ends is not None and ends[0] == ends[1]:
        raise ValueError(f"a {E.kind_spec(el).title.lower()}'s ends must differ")


class ReplaceElements(ArenaCommand):
    """Base: put edited copies in place of elements (same refs, same file order)."""

    def __init__(self, doc: ArenaDocument, new: Mapping[str, Element], text: str) -> None:
        self.new = {r: el for r, el in new.items() if E.find(doc.arena, r) is not None and E.find(doc.arena, r) != el}
        if not self.new:
            raise ValueError("nothing changes")
        for el in self.new.values():
            check_shape_points(el)
        super().__init__(doc, text)
        check_no_new_problems(self.before, self.after)

    def apply(self, arena: Arena) -> Arena:
        for ref, el in self.new.items():
            arena = E.replace_element(arena, ref, el)
        return arena

    def selection_after_default(self) -> list[str]:
        return [el.id for el in self.new.values()] if len(self.doc.selection) <= len(self.new) else self.doc.selection


def _selected(doc: ArenaDocument, refs: Sequence[str]) -> list[Element]:
    els = [el for r in refs if (el := E.find(doc.arena, r)) is not None]
    if not els:
        raise ValueError("nothing selected")
    return els


class EditShape(ReplaceElements):
    """A vertex drag, inserted/deleted vertex, resize or rotate handle on one element."""

    def __init__(self, doc: ArenaDocument, ref: str, element: Element, what: str = "Edit shape of") -> None:
        super().__init__(doc, {ref: element}, f"{what} {ref}")


class MirrorElements(ReplaceElements):
    def __init__(self, doc: ArenaDocument, refs: Sequence[str], axis: str) -> None:
        els = _selected(doc, refs)
        super().__init__(doc, {el.id: m for el, m in zip(els, A.mirrored(els, axis))}, f"Mirror {axis}ly")


class RotateElements(ReplaceElements):
    def __init__(self, doc: ArenaDocument, refs: Sequence[str], degrees: float,
                 center: tuple[float, float] | None = None) -> None:
        els = _selected(doc, refs)
        self.degrees = degrees
        super().__init__(doc, {el.id: r for el, r in zip(els, A.rotated(els, degrees, center))},
                         f"Rotate by {degrees:g}°")


class AlignElements(ReplaceElements):
    def __init__(self, doc: ArenaDocument, refs: Sequence[str], how: str) -> None:
        els = _selected(doc, refs)
        if len(els) < 2:
            raise ValueError("align needs at least two elements")
        super().__init__(doc, {el.id: a for el, a in zip(els, A.aligned(els, how))}, f"Align {how}")


class DistributeElements(ReplaceElements):
    def __init__(self, doc: ArenaDocument, refs: Sequence[str], direction: str) -> None:
        els = _selected(doc, refs)
        super().__init__(doc, {el.id: d for el, d in zip(els, A.distributed(els, direction))},
                         f"Distribute {direction}ly")


class SetBounds(ArenaCommand):
    """Edit the arena's outline (vertex tool with nothing selected).  The steps of one canvas
    drag (the same ``drag`` number, :func:`next_drag`) merge into one undo step."""

    symmetric = False

    def __init__(self, doc: ArenaDocument, bounds: AreaShape, drag: int | None = None) -> None:
        check_shape_points(bounds)
        self.bounds = bounds
        self.drag = drag
        super().__init__(doc, "Edit arena bounds")
        check_no_new_problems(self.before, self.after)

    def apply(self, arena: Arena) -> Arena:
        return E.replaced(arena, {"bounds": self.bounds})  # another game's board may be a circle

    def id(self) -> int:
        return BOUNDS_DRAG_ID if self.drag is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, SetBounds) or other.drag is None or other.drag != self.drag \
                or other.before != self.after:
            return False
        self.bounds, self.after = other.bounds, other.after
        self.setObsolete(self.after == self.before)  # dragged back where it started: no step
        return True


#: Merge id (QUndoCommand.id) of the steps of a bounds drag.
BOUNDS_DRAG_ID = 1002
_drags = itertools.count(1)


def next_drag() -> int:
    """A new drag number: the :class:`SetBounds` steps pushed with it merge into one."""
    return next(_drags)


class SetSymmetry(ArenaCommand):
    """Declare (or clear, with None) the arena's symmetry — recorded in the file."""

    symmetric = False

    def __init__(self, doc: ArenaDocument, symmetry: Any) -> None:
        """``symmetry``: the arena's game's own ``Symmetry`` (a pit's, a battlefield's, the
        table games' :class:`schema.games.gravstrike.model.Symmetry`) or None."""
        if symmetry is not None:
            want = symmetry_type(doc.arena)
            if want is not None and not isinstance(symmetry, want):
                raise ValueError(f"this arena's symmetry is a {want.__module__}.{want.__qualname__}, "
                                 f"not a {type(symmetry).__module__}.{type(symmetry).__qualname__}")
            S.check(symmetry)
        now: object = getattr(doc.arena, "symmetry", None)  # the game's own Symmetry
        if symmetry == now:
            raise ValueError("the symmetry is unchanged")
        self.symmetry = symmetry
        super().__init__(doc, "Set symmetry" if symmetry else "Clear symmetry")
        check_no_new_problems(self.before, self.after)

    def apply(self, arena: Arena) -> Arena:
        return E.replaced(arena, {"symmetry": self.symmetry})


def symmetry_type(arena: Any) -> type | None:
    """The class of ``arena``'s ``symmetry`` field (its game's ``Symmetry``), from the arena
    dataclass's annotation ``Symmetry | None``; None when it cannot be read."""
    try:
        hint = typing.get_type_hints(type(arena)).get("symmetry")
    except (NameError, TypeError):  # pragma: no cover - an annotation that does not resolve
        return None
    found = [t for t in typing.get_args(hint) if isinstance(t, type) and t is not type(None)]
    return found[0] if len(found) == 1 else None


def _number(label: str, value: Any, minimum: float | None = None, integer: bool = False,
            exclusive: bool = False) -> float | int:
    try:
        num = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{label} must be a number") from None
    if not math.isfinite(num):
        raise ValueError(f"{label} must be a finite number")
    if integer:
        if not num.is_integer():
            raise ValueError(f"{label} must be a whole number")
        num = int(num)
    if minimum is not None and (num <= minimum if exclusive else num < minimum):
        raise ValueError(f"{label} must be {'greater than' if exclusive else 'at least'} {minimum:g}")
    return num


#: One setting of the Arena or Scenario tab: (label, type, minimum, exclusive minimum); the type
#: is ``str``, ``text`` (empty: none), ``tags``, ``bool``, ``int``, ``optint`` (empty: auto) or ``float``.
SettingSpec = tuple[str, str, float | None, bool]

#: The settings every arena file has (its header): path -> spec.  A game's own arena-wide and
#: scenario settings come from its editor (:meth:`editor.game.EditorGame.arena_settings`,
#: :meth:`~editor.game.EditorGame.scenario_settings`).
HEADER_FIELDS: dict[str, SettingSpec] = {
    "name": ("Name", "str", None, False),
    "description": ("Description", "text", None, False),
    "author": ("Author", "text", None, False),
    "license": ("License", "text", None, False),
    "tags": ("Tags", "tags", None, False),
}


def coerce_setting(spec: SettingSpec, value: Any) -> Any:
    label, kind, minimum, exclusive = spec
    if kind == "bool":
        if not isinstance(value, bool):
            raise ValueError(f"{label} must be true or false")
        return value
    if kind == "str":
        text = str(value).strip()
        if not text:
            raise ValueError(f"{label} must not be empty")
        return text
    if kind == "text":
        text = str(value).strip()
        return text or None
    if kind == "tags":
        items = value if isinstance(value, (list, tuple)) else str(value).split(",")
        return tuple(t.strip() for t in items if str(t).strip())
    if kind == "optint" and (value is None or str(value).strip() in ("", "auto")):
        return None
    return _number(label, value, minimum, kind in ("int", "optint"), exclusive)


def _set_path(obj: Any, path: list[str], value: Any) -> Any:
    head = path[0]
    if len(path) == 1:
        return dataclasses.replace(obj, **{head: value})
    cur = getattr(obj, head)
    if isinstance(cur, tuple):
        items = list(cur)
        items[int(path[1])] = value
        return dataclasses.replace(obj, **{head: tuple(items)})
    return dataclasses.replace(obj, **{head: _set_path(cur, path[1:], value)})


def get_path(obj: Any, path: str) -> Any:
    for part in path.split("."):
        obj = obj[int(part)] if isinstance(obj, tuple) and part.isdigit() else getattr(obj, part)
    return obj


class SetArenaSetting(ArenaCommand):
    """Set one arena property: a header field (name, description, tags...) or one of the game's
    arena-wide settings (Gravstrike's units and turbine)."""

    symmetric = False
    root: str | None = None

    @classmethod
    def fields_of(cls, arena: Arena) -> Mapping[str, SettingSpec]:
        """The settings this command sets on ``arena``: path -> spec."""
        from editor.game import game_of

        return {**HEADER_FIELDS, **game_of(arena).arena_settings()}

    def __init__(self, doc: ArenaDocument, path: str, value: Any) -> None:
        fields = self.fields_of(doc.arena)
        if path not in fields:
            raise ValueError(f"unknown setting {path!r}")
        self.path = path
        self.value = coerce_setting(fields[path], value)
        super().__init__(doc, f"Set {fields[path][0].lower()}")
        if self.after == self.before:
            raise ValueError("unchanged")
        check_no_new_problems(self.before, self.after)

    def apply(self, arena: Arena) -> Arena:
        parts = ([self.root] if self.root else []) + self.path.split(".")
        return _set_path(arena, parts, self.value)  # type: ignore[no-any-return]


class SetScenarioSetting(SetArenaSetting):
    """Set one of the game's scenario settings (Gravstrike: players, VP, tier thresholds,
    variants, analysis thresholds)."""

    root = "scenario"

    @classmethod
    def fields_of(cls, arena: Arena) -> Mapping[str, SettingSpec]:
        from editor.game import game_of

        return game_of(arena).scenario_settings()


__all__ = ["HEADER_FIELDS", "AlignElements", "DistributeElements", "EditShape", "MirrorElements", "ReplaceElements",
           "RotateElements", "SettingSpec", "SetArenaSetting", "SetBounds", "SetScenarioSetting", "SetSymmetry",
           "check_shape_points", "get_path"]
