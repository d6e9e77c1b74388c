"""The engine's view of a pit: its hexes, walls, numbered rows and centre, computed once per
arena.

>>> from schema.games.gliderpit import default_arena
>>> pit = pit_of(default_arena())
>>> len(pit.cells), len(pit.wall), pit.centre_cells, pit.row_number(9), pit.label_of((0, 0))
(271, 54, ((0, 0),), 1, 7)
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import cached_property, lru_cache

from engine.gliderpit.rules import launch_facings
from engine.grids import HEX_DIRECTIONS, Axial, HexLayout, Point, hex_distance, wall_hexsides
from schema.games.gliderpit import GliderPitArena, Row


@dataclass(frozen=True, eq=False)
class Pit:
    arena: GliderPitArena

    @cached_property
    def cells(self) -> frozenset[Axial]:
        return frozenset(self.arena.cells)

    @cached_property
    def layout(self) -> HexLayout:
        """Drawing geometry, one hex = 1 unit across the flats."""
        return HexLayout(self.arena.orientation)

    def printed_layout(self) -> HexLayout:
        """Geometry in millimetres at the arena's printed hex size."""
        return HexLayout.across_flats(self.arena.orientation, self.arena.units.hex_mm)

    @cached_property
    def wall(self) -> dict[Axial, tuple[int, ...]]:
        """Wall hexsides of every hex on the pit's edge: "Any time a glider is going to be
        moved off the edge of the hex grid, it collides with the pit wall." (L121)"""
        out = {}
        for h in self.cells:
            sides = wall_hexsides(self.cells, h)
            if sides:
                out[h] = sides
        return out

    def facings(self, h: Axial) -> tuple[int, ...]:
        """Launch facings of a hex (every facing but those toward a wall hexside, L55)."""
        return launch_facings(self.wall.get(h, ()))

    @cached_property
    def wall_distance(self) -> dict[Axial, int]:
        """Fewest steps from each hex to a hex outside the pit (1 on the edge)."""
        dist: dict[Axial, int] = {h: 1 for h in self.wall}
        queue = deque(self.wall)
        while queue:
            h = queue.popleft()
            for dq, dr in HEX_DIRECTIONS:
                n = (h[0] + dq, h[1] + dr)
                if n in self.cells and n not in dist:
                    dist[n] = dist[h] + 1
                    queue.append(n)
        return dist

    def line_of(self, h: Axial) -> int:
        return self.arena.line_of(h)

    @cached_property
    def lines(self) -> tuple[int, ...]:
        """The grid lines holding pit hexes, in row-number order (top to bottom for pointy
        hexes, left to right for flat)."""
        ls = {self.line_of(h) for h in self.cells}
        return tuple(sorted(ls, reverse=self.arena.orientation == "pointy"))

    def row_number(self, line: int) -> int | None:
        """1-based number of a line among the pit's rows (None if no hex lies on it)."""
        try:
            return self.lines.index(line) + 1
        except ValueError:
            return None

    @cached_property
    def rows_by_line(self) -> dict[int, Row]:
        """The first row element labelling each line."""
        out: dict[int, Row] = {}
        for row in self.arena.rows:
            out.setdefault(row.line, row)
        return out

    def label_of(self, h: Axial) -> int | None:
        row = self.rows_by_line.get(self.line_of(h))
        return None if row is None else row.label

    @cached_property
    def centre(self) -> Point:
        """The centroid of the pit's hexes (the book marks no centre)."""
        return self.layout.centroid(self.cells) if self.cells else (0.0, 0.0)

    @cached_property
    def centre_cells(self) -> tuple[Axial, ...]:
        """The hexes nearest the centroid (1, or 2-3 when it falls on a hexside or corner)."""
        return tuple(self.layout.nearest_cells(self.cells, self.centre)) if self.cells else ()

    def centre_distance(self, h: Axial) -> int:
        """Hex distance to the nearest centre hex."""
        return min(hex_distance(h, c) for c in self.centre_cells)


@lru_cache(maxsize=64)
def pit_of(arena: GliderPitArena) -> Pit:
    """The (cached) engine view of an arena."""
    return Pit(arena)
