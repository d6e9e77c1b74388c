"""What a game's analysis overlays show, without Qt and without a game: the heat map's bands and
smoothing, a planned path (:class:`PathPlan`), a sight grid (:class:`SightGrid`) and its classes
merged into polygons.  A game's overlay work fills them from its engine (Car Wars':
:mod:`editor.games.carwars.overlay_work`, Arena Rex's: :mod:`editor.games.arenarex.overlay_work`);
they run in a child process (:func:`editor.validation.call_in_child`), killed by a newer edit.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from validators.heatmaps import HALF_TURN_BANDS, display_times, heat_colour

#: Heat-map cell (inches) and horizon (turns); the bands (upper bound in turns, colour), their
#: colour and the picture's smoothing are the HTML report's too (:mod:`validators.heatmaps`).
CELL = 1.0
HORIZON = 3.0
HEAT_BANDS = HALF_TURN_BANDS
#: Line-of-sight sample spacing (inches).
SIGHT_CELL = 1.0
#: Sight classes of a square.
NOT_A_PLACE, BLOCKED, COVER, CLEAR = -1, 0, 1, 2
POLICIES = ("flat-out", "safe")


@dataclass(frozen=True)
class PathPlan:
    """A plan's answer for the path overlay: ``status`` (``reached``, ``unreachable``,
    ``beyond``, ``undecided``), its time, turns and dice, and its steps (dicts of
    :class:`engine.carwars.travel.PathStep`; speed choices included, ``point`` 0)."""

    player: int
    goal: str
    policy: str
    status: str
    time: float
    turns: int
    dice: int
    steps: tuple[dict[str, Any], ...]
    start: tuple[float, float, float]

    def moves(self) -> list[dict[str, Any]]:
        """The movement points driven (the speed choices left out)."""
        return [s for s in self.steps if s["point"] > 0]

    def summary(self) -> str:
        if self.status != "reached":
            return f"{self.status}" + (" (no plan without a collision)" if self.status == "unreachable" else "")
        return f"{self.time:g} turns, {self.dice} {'die' if self.dice == 1 else 'dice'}"


def plan_of(arena: Any, player: int, goal: str, policy: str, r: Any) -> PathPlan:
    """A planner's answer (:class:`engine.carwars.travel.TravelResult`) from start ``player``
    as the path overlay draws it."""
    start = next(s for s in arena.start_positions if s.player == player)
    return PathPlan(player, goal, policy, r.status, r.time, r.turns, r.dice, tuple(asdict(s) for s in r.path),
                    (float(start.position[0]), float(start.position[1]), float(start.facing)))


@dataclass(frozen=True)
class SightGrid:
    """Sight from start ``player`` to the centre of each ``cell``-inch square (``classes[i, j]``
    covers x in [x0 + i*cell, ...), as a reach map); ``regions`` maps each class (BLOCKED,
    COVER, CLEAR) to its merged polygons (exterior and holes as coordinate lists)."""

    player: int
    x0: float
    y0: float
    cell: float
    classes: Any  # numpy int8 (nx, ny)
    regions: dict[int, list[list[list[tuple[float, float]]]]]

    def at(self, x: float, y: float) -> int:
        i, j = int((x - self.x0) // self.cell), int((y - self.y0) // self.cell)
        nx, ny = self.classes.shape
        return int(self.classes[i, j]) if 0 <= i < nx and 0 <= j < ny else NOT_A_PLACE


def class_regions(classes: Any, x0: float, y0: float, cell: float,
                  bounds: Any) -> dict[int, list[list[list[tuple[float, float]]]]]:
    """Each sight class (BLOCKED, COVER, CLEAR) of a grid of ``cell``-inch squares (square (i, j)
    at x0 + i*cell, y0 + j*cell) as merged polygons within ``bounds`` (rings as coordinate
    lists, exterior first), for drawing."""
    import shapely

    regions: dict[int, list[list[list[tuple[float, float]]]]] = {}
    for c in (BLOCKED, COVER, CLEAR):
        ii, jj = np.nonzero(classes == c)
        if len(ii) == 0:
            continue
        boxes = shapely.box(x0 + ii * cell, y0 + jj * cell, x0 + (ii + 1) * cell, y0 + (jj + 1) * cell)
        merged = shapely.intersection(shapely.union_all(boxes), bounds)
        polys = [g for g in getattr(merged, "geoms", [merged]) if g.geom_type == "Polygon" and not g.is_empty]
        regions[c] = [[list(map(tuple, p.exterior.coords)), *[list(map(tuple, h.coords)) for h in p.interiors]]
                      for p in polys]
    return regions


__all__ = ["BLOCKED", "CELL", "CLEAR", "COVER", "HEAT_BANDS", "HORIZON", "NOT_A_PLACE", "POLICIES", "PathPlan",
           "SightGrid", "class_regions", "display_times", "heat_colour", "plan_of"]
