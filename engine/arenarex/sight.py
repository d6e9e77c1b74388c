"""What a deployment zone sees: the board's cells seen from any of the zone's base positions,
terrain hazards that block sight blocking (the editor's sight overlay).

Arena Rex has no line of sight ("Line-of-sight rules aren t necessary because there are no ranged
attacks", L20); this is the product metric of :func:`engine.arenarex.fairness.sight_shares`
drawn over the whole board: the same viewpoints (the zone's centre line for the smallest base,
about :data:`~engine.arenarex.fairness.SIGHT_SPACING` apart) and the same walls (hazards with
``blocks_sight``; a sightline that touches one is blocked).  A cell is seen when the straight
line from at least one viewpoint to its centre crosses no wall.

Work is bounded: at most :data:`MAX_CELLS` cells (the cell grows if needed) and
:data:`MAX_VIEWPOINTS` viewpoints (evenly thinned), one vectorised ``shapely.intersects`` per
viewpoint.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import shapely

from engine.arenarex.board import on_board
from engine.arenarex.checks import edges
from engine.arenarex.fairness import SIGHT_SPACING
from schema.games.arenarex import ArenaRexArena

#: Default cell (inches) of the sight grid.
CELL = 0.5
MAX_CELLS = 40_000
MAX_VIEWPOINTS = 96


@dataclass(frozen=True)
class SightGrid:
    """Cell (i, j) covers x in [x0 + i*cell, x0 + (i+1)*cell) and likewise y; ``board`` says
    whether its centre is on the board outside every sight-blocking hazard, ``seen`` whether a
    viewpoint sees that centre.  ``viewpoints`` are the zone's base positions looked from."""

    player: int
    x0: float
    y0: float
    cell: float
    board: npt.NDArray[np.bool_]
    seen: npt.NDArray[np.bool_]
    viewpoints: npt.NDArray[np.float64]

    def at(self, x: float, y: float) -> bool | None:
        """Whether the cell holding (x, y) is seen (None: off the board or inside a wall)."""
        i, j = int((x - self.x0) // self.cell), int((y - self.y0) // self.cell)
        nx, ny = self.board.shape
        if not (0 <= i < nx and 0 <= j < ny) or not self.board[i, j]:
            return None
        return bool(self.seen[i, j])

    def share(self) -> float:
        """The share of the board's cells seen."""
        n = int(np.count_nonzero(self.board))
        return float(np.count_nonzero(self.seen & self.board)) / n if n else 1.0


def sight_walls(arena: ArenaRexArena) -> shapely.Geometry | None:
    """The union of the hazards that block sight (None: there are none)."""
    blockers = [h.shape.to_shapely() for h in arena.hazards if h.blocks_sight]
    return shapely.union_all(blockers) if blockers else None


def viewpoints(arena: ArenaRexArena, player: int) -> npt.NDArray[np.float64]:
    """The zone's base positions the sight metric looks from (smallest base), thinned evenly
    to :data:`MAX_VIEWPOINTS`; raises ``KeyError`` for a zone that does not fit the board."""
    zones = edges(arena)
    if player not in zones:
        raise KeyError(f"deploy:{player}")
    pts = np.asarray(zones[player].positions(min(arena.base_radii()), SIGHT_SPACING), dtype=float).reshape(-1, 2)
    if len(pts) > MAX_VIEWPOINTS:
        pts = pts[np.linspace(0, len(pts) - 1, MAX_VIEWPOINTS).round().astype(int)]
    return pts


def sight_grid(arena: ArenaRexArena, player: int, cell: float = CELL) -> SightGrid:
    """Which cells of the board zone ``deploy:player`` sees (see the module docstring)."""
    bounds = arena.bounds_geometry()
    minx, miny, maxx, maxy = bounds.bounds
    while math.ceil((maxx - minx) / cell) * math.ceil((maxy - miny) / cell) > MAX_CELLS:
        cell *= 1.25
    nx, ny = max(1, math.ceil((maxx - minx) / cell)), max(1, math.ceil((maxy - miny) / cell))
    gx, gy = np.meshgrid(minx + (np.arange(nx) + 0.5) * cell, miny + (np.arange(ny) + 0.5) * cell, indexing="ij")
    board = on_board(arena.bounds, gx, gy)  # a circle board measured as a circle
    wall = sight_walls(arena)
    eyes = viewpoints(arena, player)
    if wall is not None:
        shapely.prepare(wall)
        board &= ~np.asarray(shapely.contains_xy(wall, gx, gy), dtype=bool)
        eyes = eyes[~np.asarray(shapely.intersects_xy(wall, eyes[:, 0], eyes[:, 1]), dtype=bool)] if len(eyes) else eyes
    seen = np.zeros_like(board)
    targets = np.stack([gx[board], gy[board]], axis=1)
    if len(eyes) and len(targets):
        if wall is None:
            seen[board] = True
        else:
            got = np.zeros(len(targets), dtype=bool)
            for ex, ey in eyes:
                todo = ~got
                if not todo.any():
                    break
                lines = shapely.linestrings(np.stack([np.broadcast_to([ex, ey], (int(todo.sum()), 2)),
                                                      targets[todo]], axis=1))
                hit = np.asarray(shapely.intersects(wall, lines), dtype=bool)
                got[np.flatnonzero(todo)[~hit]] = True
            seen[board] = got
    return SightGrid(player, float(minx), float(miny), float(cell), board, seen, eyes)


__all__ = ["CELL", "MAX_CELLS", "MAX_VIEWPOINTS", "SightGrid", "sight_grid", "sight_walls", "viewpoints"]
