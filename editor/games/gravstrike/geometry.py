"""Gravstrike's answers to the shared canvas tools' questions (:class:`editor.game.EditorGame`'s
geometry hooks, helper H2's block): which elements the select tool turns and by what handle, the
command that turns them, and the Measure tool's turns at the turbine's top speed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from schema.games.gravstrike.model import AccelerationField, Arena, StartPosition
from schema.ruleset import ArenaModel
from schema.shapes import Point

if TYPE_CHECKING:
    from editor.commands import ArenaCommand
    from editor.document import ArenaDocument


def turn_handle(arena: ArenaModel, el: object) -> tuple[Point, float, float] | None:
    """A start position turns about its position, the handle 1.1 turbine lengths out; an
    acceleration field about its anchor, the handle inside its area (0.3 to 1 length out)."""
    if isinstance(el, StartPosition):
        assert isinstance(arena, Arena)
        return el.position, el.facing, arena.turbine.length * 1.1
    if isinstance(el, AccelerationField):
        from editor import elements as E
        from editor import render

        return E.anchor(el), el.direction, max(0.6, min(2.0, render.shape_extent(el.shape) * 0.7)) / 2
    return None


def turn_command(doc: ArenaDocument, ref: str, angle: float) -> ArenaCommand:
    """A start's facing or a field's direction set to ``angle``."""
    from editor import commands as C
    from editor import elements as E

    if isinstance(E.find(doc.arena, ref), StartPosition):
        return C.SetStartFacing(doc, ref, angle)
    return C.SetFieldDirection(doc, ref, angle)


def measure_turns(arena: ArenaModel, distance: float) -> tuple[float, str] | None:
    """The straight-line turns ``distance`` takes at the turbine's max speed (distance / max_speed)."""
    vmax = arena.turbine.max_speed if isinstance(arena, Arena) else 0
    if vmax <= 0:
        return None
    turns = distance / vmax
    return turns, f"{turns:.2f} turns at speed {vmax}"


__all__ = ["measure_turns", "turn_command", "turn_handle"]
