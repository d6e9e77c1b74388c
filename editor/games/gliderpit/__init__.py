"""Glider-Pit Gladiators' editor (:class:`~editor.game.EditorGame`, registered as
``glider-pit-gladiators`` in the ``arena_studio.editors`` entry points): the hex-grid palette,
canvas and symmetry of :mod:`editor.games.grid_model` (game-free), and the pit's rule for a
row's image in symmetry mode (:mod:`.symmetry`: 14 minus the 2d6 total)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from editor.game import EditorGame

if TYPE_CHECKING:
    from editor.games.symmetry_rules import Rules


class GliderPitEditor(EditorGame):
    def symmetry_rules(self) -> Rules:
        from editor.games.gliderpit.symmetry import RULES

        return RULES


EDITOR = GliderPitEditor("glider-pit-gladiators")

__all__ = ["EDITOR", "GliderPitEditor"]
