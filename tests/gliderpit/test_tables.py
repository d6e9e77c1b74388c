"""The travel search's lookup tables (:meth:`engine.gliderpit.search.Grid._table`, built for every
facing at once from the distinct sets of hexes the macros enter: issue 38, start-up) against their
definition, macro by macro: a start altitude is open for an outcome at a hex and facing when one
of the outcome's macros, turned to that facing, enters only pit hexes, ends on the pit and stays
below LEDGE and above FLOOR throughout (L107, "a glider that strikes the wall..."; the altitude
limits of :meth:`engine.gliderpit.movement.Macro.altitudes_ok`)."""

from __future__ import annotations

import numpy as np
import pytest

from engine.gliderpit.movement import placed_macros
from engine.gliderpit.rules import MAX_SPEED, TOP_ALTITUDE
from engine.gliderpit.search import Grid, groups
from engine.grids import Axial


def _pit(radius: int, holes: set[Axial]) -> list[Axial]:
    return sorted((q, r) for q in range(-radius, radius + 1) for r in range(-radius, radius + 1)
                  if abs(q + r) <= radius and (q, r) not in holes)


@pytest.mark.parametrize(("radius", "holes", "floor", "deceleration"), [
    (3, {(0, 0), (2, -1)}, 2, "never"),  # a pillar in the middle and one near the wall
    (4, {(1, 1), (-2, 0), (0, -3)}, 0, "always"),
])
def test_every_table_entry_is_its_definition(radius: int, holes: set[Axial], floor: int, deceleration: str) -> None:
    cells = _pit(radius, holes)
    at = {h: i for i, h in enumerate(cells)}
    grid = Grid(cells, floor, deceleration)  # type: ignore[arg-type]
    for speed in range(1, MAX_SPEED + 1):
        table, gr = grid.tables[speed], groups(speed)
        window = np.zeros_like(table.window)
        end_index = np.full_like(table.end_index, -1)
        for h, (q, r) in enumerate(cells):
            for facing in range(6):
                placed = placed_macros(speed, facing)
                for g, members in enumerate(gr.macros):
                    end = placed[members[0]].end  # the outcome's macros share their end
                    end_index[h, facing, g] = at.get((q + end[0], r + end[1]), -1)
                    for m in members:
                        pm = placed[m]
                        if all((q + dq, r + dr) in at for dq, dr in (*pm.entered, pm.end)):
                            for altitude in range(TOP_ALTITUDE + 1):
                                if pm.macro.altitudes_ok(altitude, floor):
                                    window[h, facing, g] |= 1 << altitude
        assert np.array_equal(table.window, window), speed
        assert np.array_equal(table.end_index, end_index), speed
