"""Undo commands: one class per editing action (verb + noun).

Each command computes the edited arena once from the arena it was pushed on and undo
restores that exact arena value, so undo/redo round-trips are exact (``==``). Commands
check their input *before* being pushed (constructors raise ``ValueError``), so an invalid
edit never enters the undo stack.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

from PySide6.QtGui import QUndoCommand

from editor import elements as E
from editor.elements import Element
from editor.game import game_of
from editor.games import model as G
from schema.ruleset import ArenaModel as Arena
from schema.ruleset import ruleset

if TYPE_CHECKING:
    from editor.document import ArenaDocument

#: Merge ids (QUndoCommand.id) of mergeable commands.
NUDGE_ID = 1001


def format_problems(arena: Arena) -> tuple[str, ...]:
    """Messages the format layer would report for ``arena`` (empty when it is valid): its
    game's :meth:`editor.games.model.ElementModel.problems` (the last few arenas' remembered:
    each edit asks of the arena before it and after it)."""
    return _format_problems(cast(Hashable, arena))


@lru_cache(maxsize=16)
def _format_problems(arena: Hashable) -> tuple[str, ...]:
    typed = cast(Arena, arena)  # every game's arena is a frozen dataclass
    return game_of(typed).elements().problems(typed)


def check_no_new_problems(before: Arena, after: Arena) -> None:
    """Refuse an edit that introduces problems the format layer would report."""
    new = [p for p in format_problems(after) if p not in set(format_problems(before))]
    if new:
        msgs = [p.split(": ", 2)[-1] if p.count(": ") >= 2 else p for p in new]
        raise ValueError("; ".join(msgs))


class ArenaCommand(QUndoCommand):
    """Base: subclasses implement :meth:`apply` (arena -> edited arena) and may set
    ``selection_after`` (refs to select after redo).

    In symmetry mode (:meth:`ArenaDocument.active_symmetry`) the edit is applied to whole
    orbits (:func:`editor.symmetry.propagate`) — still one undo step. Commands that must not
    be mirrored (renames, arena settings) set ``symmetric = False``."""

    symmetric = True

    def __init__(self, doc: ArenaDocument, text: str) -> None:
        super().__init__(text)
        self.doc = doc
        self.before: Arena = doc.arena
        self.after: Arena = self.apply(self.before)
        sym = doc.active_symmetry() if self.symmetric else None
        #: What symmetry mode wants the designer to know about this edit (shown once, on push).
        self.notes: list[str] = []
        if sym is not None:
            from editor.symmetry import propagate

            self.after = propagate(self.before, self.after, sym, self.notes)
        self.selection_before: list[str] = list(doc.selection)
        self.selection_after: list[str] = self.selection_after_default()

    def apply(self, arena: Arena) -> Arena:  # pragma: no cover - abstract
        raise NotImplementedError

    def selection_after_default(self) -> list[str]:
        return list(self.doc.selection)

    def redo(self) -> None:
        self.doc._set_arena(self.after, self.selection_after)
        if self.notes:
            self.doc.notice.emit("; ".join(self.notes))
            self.notes = []

    def undo(self) -> None:
        self.doc._set_arena(self.before, self.selection_before)


class AddElement(ArenaCommand):
    def __init__(self, doc: ArenaDocument, element: Element) -> None:
        if E.find(doc.arena, element.id) is not None:
            raise ValueError(f"id {element.id!r} is already used")
        self.element = element
        super().__init__(doc, f"Add {element.id}")
        check_no_new_problems(self.before, self.after)

    def apply(self, arena: Arena) -> Arena:
        return E.add_element(arena, self.element)

    def selection_after_default(self) -> list[str]:
        return [self.element.id]


class AddElements(ArenaCommand):
    """Paste / duplicate: add several elements in one step."""

    def __init__(self, doc: ArenaDocument, elements: Sequence[Element], text: str = "Paste") -> None:
        self.elements = list(elements)
        if not self.elements:
            raise ValueError("nothing to add")
        super().__init__(doc, f"{text} {len(self.elements)} element(s)")
        check_no_new_problems(self.before, self.after)

    def apply(self, arena: Arena) -> Arena:
        for el in self.elements:
            arena = E.add_element(arena, el)
        return arena

    def selection_after_default(self) -> list[str]:
        return [el.id for el in self.elements]


class DeleteElements(ArenaCommand):
    def __init__(self, doc: ArenaDocument, refs: Iterable[str]) -> None:
        self.refs = [r for r in refs if E.find(doc.arena, r) is not None]
        if not self.refs:
            raise ValueError("nothing selected to delete")
        super().__init__(doc, "Delete " + ", ".join(self.refs))

    def apply(self, arena: Arena) -> Arena:
        return E.remove_elements(arena, self.refs)

    def selection_after_default(self) -> list[str]:
        return []


class MoveElements(ArenaCommand):
    """Translate elements by (dx, dy). Nudges (``mergeable=True``) of the same selection
    merge into one undo step."""

    def __init__(self, doc: ArenaDocument, refs: Iterable[str], dx: float, dy: float, mergeable: bool = False) -> None:
        self.refs = [r for r in refs if E.find(doc.arena, r) is not None]
        if not self.refs:
            raise ValueError("nothing to move")
        if not (math.isfinite(dx) and math.isfinite(dy)):
            raise ValueError("invalid offset")
        self.dx, self.dy, self.mergeable = dx, dy, mergeable
        super().__init__(doc, "Move " + ", ".join(self.refs))

    def apply(self, arena: Arena) -> Arena:
        zones = game_of(arena).moves_by_document(arena, list(self.refs))
        if zones:  # e.g. an Arena Rex zone moves along its board edge (editor.games.arenarex.edges.dragged)
            arena = G.move(arena, zones, self.dx, self.dy)
        rest = [r for r in self.refs if r not in zones]
        return E.map_elements(arena, rest, lambda el: E.translate(el, self.dx, self.dy)) if rest else arena

    def selection_after_default(self) -> list[str]:
        return list(self.refs)

    def id(self) -> int:
        return NUDGE_ID if self.mergeable else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, MoveElements) or not other.mergeable or other.refs != self.refs:
            return False
        if other.before != self.after:
            return False
        self.after = other.after
        self.dx += other.dx
        self.dy += other.dy
        return True


class SetProperty(ArenaCommand):
    """Set one typed property of one element (its game's :meth:`editor.game.EditorGame.set_element_property`)."""

    def __init__(self, doc: ArenaDocument, ref: str, name: str, value: Any) -> None:
        el = E.find(doc.arena, ref)
        if el is None:
            raise ValueError(f"no element {ref!r}")
        self.ref, self.name = ref, name
        self.symmetric = name not in ("id", "player")  # a rename is not mirrored
        self.new_element: Element = game_of(doc.arena).set_element_property(el, name, value)
        new_ref = self.new_element.id
        if new_ref != ref and E.find(doc.arena, new_ref) is not None:
            what = "player" if G.player_named(ruleset(doc.arena.system), E.kind_of(el)) else "id"
            raise ValueError(f"{what} {new_ref.removeprefix('start:')!r} is already used")
        super().__init__(doc, f"Set {ref} {name}")
        check_no_new_problems(self.before, self.after)

    def apply(self, arena: Arena) -> Arena:
        return E.replace_element(arena, self.ref, self.new_element)

    def selection_after_default(self) -> list[str]:
        return [self.new_element.id]


class SetFieldDirection(SetProperty):
    """Set a directed field's direction (degrees CCW from +x: where a Gravstrike acceleration
    field pushes)."""

    def __init__(self, doc: ArenaDocument, ref: str, degrees: float) -> None:
        el = E.find(doc.arena, ref)
        if el is None or E.placement(el, doc.arena) != "shape" or "direction" not in E.field_names(type(el)):
            raise ValueError(f"{ref!r} is not a directed field")
        super().__init__(doc, ref, "direction", degrees)
        self.setText(f"Set {ref} direction")


class SetStartFacing(SetProperty):
    """Set a piece's facing (degrees CCW from +x: a start position's)."""

    def __init__(self, doc: ArenaDocument, ref: str, degrees: float) -> None:
        el = E.find(doc.arena, ref)
        if el is None or E.placement(el, doc.arena) != "pose":
            raise ValueError(f"{ref!r} is not a start position")
        super().__init__(doc, ref, "facing", degrees)
        self.setText(f"Set {ref} facing")


class SetArenaName(ArenaCommand):
    symmetric = False

    def __init__(self, doc: ArenaDocument, name: str) -> None:
        name = name.strip()
        if not name:
            raise ValueError("the arena needs a name")
        self.name = name
        super().__init__(doc, "Rename arena")

    def apply(self, arena: Arena) -> Arena:
        return E.replaced(arena, {"name": self.name})
