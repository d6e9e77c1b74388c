"""The engine's view of a battlefield: its squares, extent, short sides and each Mothership's
adjacent row.

>>> from schema.games.mothership import default_arena
>>> bf = battlefield_of(default_arena())
>>> bf.size, bf.side_of(bf.arena.motherships[0]), bf.adjacent_row(bf.arena.motherships[1])
((3, 5), 'south', ((0, 4), (1, 4), (2, 4)))
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Literal

from engine.grids import Square, square_neighbours
from schema.games.mothership import Mothership, MothershipArena

Side = Literal["south", "north", "west", "east"]
OPPOSITE: dict[Side, Side] = {"south": "north", "north": "south", "west": "east", "east": "west"}


@dataclass(frozen=True, eq=False)
class Battlefield:
    arena: MothershipArena

    @cached_property
    def squares(self) -> frozenset[Square]:
        return frozenset(self.arena.squares)

    @cached_property
    def extent(self) -> tuple[int, int, int, int]:
        """(xmin, ymin, xmax, ymax) of the battlefield squares."""
        xs = [x for x, _ in self.squares] or [0]
        ys = [y for _, y in self.squares] or [0]
        return (min(xs), min(ys), max(xs), max(ys))

    @property
    def size(self) -> tuple[int, int]:
        """(columns, rows) of the squares' bounding rectangle."""
        x0, y0, x1, y1 = self.extent
        return (x1 - x0 + 1, y1 - y0 + 1) if self.squares else (0, 0)

    @property
    def is_rectangle(self) -> bool:
        w, h = self.size
        return bool(self.squares) and len(self.squares) == w * h

    @property
    def short_sides(self) -> tuple[Side, Side]:
        """The sides along the short dimension (south/north when the battlefield is taller
        than wide)."""
        w, h = self.size
        return ("south", "north") if w <= h else ("west", "east")

    def side_squares(self, side: Side) -> tuple[Square, ...]:
        """The squares just outside ``side`` of the bounding rectangle, one per square of that
        side."""
        x0, y0, x1, y1 = self.extent
        if side == "south":
            return tuple((x, y0 - 1) for x in range(x0, x1 + 1))
        if side == "north":
            return tuple((x, y1 + 1) for x in range(x0, x1 + 1))
        if side == "west":
            return tuple((x0 - 1, y) for y in range(y0, y1 + 1))
        return tuple((x1 + 1, y) for y in range(y0, y1 + 1))

    def side_of(self, m: Mothership) -> Side | None:
        """The side whose outside row holds all of the Mothership's squares, if any."""
        sides: tuple[Side, ...] = ("south", "north", "west", "east")
        for side in sides:
            if m.squares and set(m.squares) <= set(self.side_squares(side)):
                return side
        return None

    def adjacent_row(self, m: Mothership) -> tuple[Square, ...]:
        """Battlefield squares orthogonally next to a square of the Mothership: "the three
        squares near your own Mothership" (L14)."""
        out = {n for s in m.squares for n in square_neighbours(s) if n in self.squares}
        return tuple(sorted(out, key=lambda s: (s[1], s[0])))

    def mirror(self, s: Square, kind: Literal["mirror", "rotational"]) -> Square:
        """The square matching ``s`` in the other player's half: across the middle between the
        short sides, or a half turn about the centre."""
        x0, y0, x1, y1 = self.extent
        x, y = s
        if kind == "rotational":
            return (x0 + x1 - x, y0 + y1 - y)
        if self.short_sides == ("south", "north"):
            return (x, y0 + y1 - y)
        return (x0 + x1 - x, y)


@lru_cache(maxsize=64)
def battlefield_of(arena: MothershipArena) -> Battlefield:
    return Battlefield(arena)
