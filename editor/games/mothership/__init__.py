"""The Mothership grid game's editor (:class:`~editor.game.EditorGame`, registered as
``mothership-grid`` in the ``arena_studio.editors`` entry points): the square-grid palette and
canvas of :mod:`editor.games.grid_model` (game-free), with the battlefield's symmetry - a mirror
across the middle between its short sides, or a half turn, onto the other player's half
(:func:`engine.mothership.battlefield.battlefield_of`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from editor.game import EditorGame

Cell = tuple[int, int]


class MothershipEditor(EditorGame):
    def grid_images(self, arena: Any, cells: Iterable[Cell]) -> list[tuple[Cell, int]]:
        """Each cell's image on the other player's half (the battlefield's mirror or half turn)."""
        from engine.mothership.battlefield import battlefield_of

        sym = arena.symmetry
        bf = battlefield_of(arena)
        if sym is None or not bf.squares:
            return []
        out: list[tuple[Cell, int]] = []
        for c in cells:
            img = bf.mirror(c, sym.kind)
            if img != c:
                out.append((img, 1))
        return out

    def grid_guide(self, arena: Any) -> tuple[tuple[float, float], tuple[float, ...], int] | None:
        """The battlefield's centre, and its mirror axis or half turn."""
        from engine.grids import SquareLayout
        from engine.mothership.battlefield import battlefield_of

        sym = arena.symmetry
        bf = battlefield_of(arena)
        if sym is None or not bf.squares:
            return None
        x0, y0, x1, y1 = bf.extent
        lay = SquareLayout()
        (ax, ay), (bx, by) = lay.center((x0, y0)), lay.center((x1, y1))
        centre = ((ax + bx) / 2.0, (ay + by) / 2.0)
        if sym.kind == "rotational":
            return centre, (), 2
        return centre, (0.0 if bf.short_sides == ("south", "north") else 90.0,), 1


EDITOR = MothershipEditor("mothership-grid")

__all__ = ["EDITOR", "MothershipEditor"]
