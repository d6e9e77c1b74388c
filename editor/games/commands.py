"""Undo commands of the generic path: one per editing action, like :mod:`editor.commands`
(adding, deleting and moving elements use those, which work for every game)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from editor.commands import ArenaCommand
from editor.games import model as G

if TYPE_CHECKING:
    from editor.document import ArenaDocument


class SetField(ArenaCommand):
    """Set one field of one element (``path`` into its document: ``("cover",)``,
    ``("shape", "radius")``); refused with the schema's words when the file would refuse it."""

    def __init__(self, doc: ArenaDocument, ref: str, path: Sequence[str | int], value: Any, label: str = "") -> None:
        if G.find(doc.arena, ref) is None:
            raise ValueError(f"no element {ref!r}")
        self.ref, self.path, self.value = ref, tuple(path), value
        # ids and start players are not mirrored; a number or owner edit reaches the images as
        # the game's rule says (editor.games.symmetry_rules.Rules.carry_identity)
        self.symmetric = self.path[0] not in ("id", "player")
        self.new_ref = ref
        if self.path == ("id",):
            self.new_ref = str(value)
        elif self.path == ("player",):
            self.new_ref = G.item_ref(doc.arena, G.kind_key(doc.arena, ref), {**G.item_doc(doc.arena, ref), "player": value})
        if self.new_ref != ref and G.find(doc.arena, self.new_ref) is not None:
            used = f"player {value!r}" if self.path == ("player",) else repr(self.new_ref)
            raise ValueError(f"{used} is already used")
        super().__init__(doc, f"Set {ref} {label or '.'.join(map(str, self.path))}")

    def apply(self, arena: Any) -> Any:
        out = G.set_field(arena, self.ref, self.path, self.value)
        if self.path == ("label",) and self.doc.symmetry_enabled and hasattr(arena, "rows"):
            # a pit's row total in symmetry mode: the image rows take the image total, as a
            # Label rows stroke gives them (grid arenas have no free-table propagation)
            from editor.games import grid_model as M

            row = next((r for r in arena.rows if r.id == self.ref), None)
            if row is not None and arena.symmetry is not None:
                out = M.label_rows_with_images(out, [row.line], int(self.value))
        return out

    def selection_after_default(self) -> list[str]:
        return [self.new_ref]
