"""Gravstrike's element operations (Qt-free): the :class:`~editor.games.model.ElementModel` its
editor gives the shared one (:meth:`editor.game.EditorGame.elements`, asked by
:mod:`editor.elements`).

Edits stay on Gravstrike's typed dataclasses (never through the arena's JSON document: a wall
drag of the default arena is the editor's slowest edit).  Ids follow the book's conventions:
W1.. walls, G1.. gates, F1.. acceleration fields, X1.. exclusion fields, T1.. static targets;
checkpoints A, B, C.. when outlying and M, N, O.. when central; a start is ``start:N``.

>>> from schema.games.gravstrike.model import Arena, Rect, Wall
>>> a = Arena(name="t", bounds=Rect((0.0, 0.0), (24.0, 24.0)))
>>> ELEMENTS.next_id(a, "walls")
'W1'
>>> a = Arena(name="t", bounds=Rect((0.0, 0.0), (24.0, 24.0)), walls=(Wall("W1", Rect((1.0, 1.0), (2.0, 1.0))),))
>>> ELEMENTS.next_id(a, "walls"), ELEMENTS.next_id(a, "checkpoints", "central"), ELEMENTS.next_player(a)
('W2', 'M', 1)
"""

from __future__ import annotations

import dataclasses
import string
from collections.abc import Iterable, Sequence
from typing import Any

import yaml

from editor.games.model import Element, ElementModel
from schema.games.gravstrike import document as sdoc
from schema.games.gravstrike.model import (AccelerationField, Arena, Checkpoint, ExclusionField, Gate, StartPosition,
                                           StaticTarget, Wall)
from schema.ruleset import ArenaModel

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
#: Half the side of the square a point element's footprint is taken to be (a target's token, a
#: start's turbine base), in lengths.
TARGET_HALF = 0.3
START_HALF = 0.6


def _arena(arena: ArenaModel) -> Arena:
    if not isinstance(arena, Arena):
        raise TypeError(f"a Gravstrike arena expected, got {type(arena).__name__} (system {arena.system!r})")
    return arena


class GravstrikeElements(ElementModel):
    """Gravstrike's element model: its seven kinds in file order with plural titles, the book's
    ids, a start's footprint the size of its base, the clipboard in its own document form, and
    the format's problems from its reader (schema and semantic checks)."""

    def kinds(self, arena: ArenaModel) -> tuple[str, ...]:
        return KINDS

    def kind_label(self, kind: str, arena: ArenaModel) -> str:
        return KIND_LABEL[kind]

    def used_ids(self, arena: ArenaModel) -> set[str]:
        return {el.id for el in _arena(arena).elements() if not isinstance(el, StartPosition)}

    def next_id(self, arena: ArenaModel, kind: str, variant: str | None = None, taken: Iterable[str] = ()) -> str:
        """W1.., G1.., F1.., X1.., T1..; checkpoints A, B, C.. when ``variant`` is ``outlying``
        (the default) and M, N, O.. when ``central``; ``start:N`` for starts."""
        used = self.used_ids(arena) | set(taken)
        if kind == "start_positions":
            return f"start:{self.next_player(arena)}"
        if kind == "checkpoints":
            outlying = variant in (None, "outlying")
            letters = OUTLYING_LETTERS + CENTRAL_LETTERS[:14] if outlying else CENTRAL_LETTERS
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

    def next_player(self, arena: ArenaModel, kind: str | None = None, taken: Iterable[int] = ()) -> int:
        used = {s.player for s in _arena(arena).start_positions} | set(taken)
        n = 1
        while n in used:
            n += 1
        return n

    def bounds_of(self, el: object, arena: ArenaModel | None = None) -> tuple[float, float, float, float]:
        if isinstance(el, StaticTarget):
            x, y = el.position
            return (x - TARGET_HALF, y - TARGET_HALF, x + TARGET_HALF, y + TARGET_HALF)
        if isinstance(el, StartPosition):
            x, y = el.position
            return (x - START_HALF, y - START_HALF, x + START_HALF, y + START_HALF)
        if isinstance(el, Gate):
            return (min(el.start[0], el.end[0]), min(el.start[1], el.end[1]),
                    max(el.start[0], el.end[0]), max(el.start[1], el.end[1]))
        if isinstance(el, (Wall, Checkpoint, AccelerationField, ExclusionField)):
            minx, miny, maxx, maxy = el.shape.to_shapely().bounds
            return (minx, miny, maxx, maxy)
        return super().bounds_of(el, arena)

    def to_yaml(self, arena: ArenaModel, refs: Sequence[str]) -> str:
        a = _arena(arena)
        doc = sdoc.to_document(a)
        wanted = set(refs)
        out: dict[str, list[Any]] = {}
        for kind in KINDS:
            for el, d in zip(getattr(a, kind), doc[kind]):
                if el.id in wanted:
                    out.setdefault(kind, []).append(d)
        return yaml.safe_dump(out, sort_keys=False, default_flow_style=None)

    def from_data(self, data: object, arena: ArenaModel) -> list[Element]:
        """Starts take the next free players; another element whose id is taken the next free
        id of its kind (a checkpoint: of its own kind, outlying or central)."""
        a = _arena(arena)
        if not isinstance(data, dict) or not data or not set(data) <= set(KINDS):
            raise ValueError("clipboard does not hold arena elements")
        from schema import ArenaError, from_document

        emptied: dict[str, Any] = {k: () for k in KINDS}
        base = sdoc.to_document(dataclasses.replace(a, **emptied))
        base.update({k: v for k, v in data.items()})
        try:
            parsed = from_document(base, source="<clipboard>")
        except ArenaError as exc:
            raise ValueError(str(exc)) from None
        assert isinstance(parsed, Arena)  # built from this Gravstrike arena's document
        out: list[Element] = []
        taken: set[str] = set()
        players: set[int] = set()
        used = self.used_ids(a)
        for el in parsed.elements():
            if isinstance(el, StartPosition):
                p = self.next_player(a, taken=players)
                players.add(p)
                el = dataclasses.replace(el, player=p)
            else:
                if el.id in used or el.id in taken:
                    new = self.next_id(a, KIND_OF[type(el)], getattr(el, "kind", "outlying"), taken)
                    el = dataclasses.replace(el, id=new)
                taken.add(el.id)
            out.append(el)
        return out

    def problems(self, arena: ArenaModel) -> tuple[str, ...]:
        """The problems the arena file's reader reports (schema and semantic checks)."""
        from schema import ArenaError, from_document, to_document

        try:
            from_document(to_document(arena), source="<arena>")
        except ArenaError as exc:
            return tuple(str(p) for p in exc.problems)
        return ()


#: Gravstrike's element model (:meth:`editor.games.gravstrike.GravstrikeEditor.elements`).
ELEMENTS = GravstrikeElements()

__all__ = ["CENTRAL_LETTERS", "ELEMENTS", "KINDS", "KIND_LABEL", "KIND_OF", "OUTLYING_LETTERS", "PREFIX",
           "GravstrikeElements"]
