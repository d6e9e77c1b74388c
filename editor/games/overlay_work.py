"""What the Car Wars overlays show, computed with the Car Wars engine's public functions (no Qt:
these run in a child process, :func:`editor.validation.call_in_child`, killed by a newer edit).

* :func:`heat_map` — :func:`engine.carwars.reach.reach` from a start (or
  :func:`~engine.carwars.reach.reach_from_card` from a card) under a policy: the earliest time
  (turns) the car's centre ends a movement point in each ``CELL``-inch square;
* :func:`path_plan` — :meth:`engine.carwars.planner.Planner.plan` from a start to a card or the
  centre: the plan's movement points (pose, turn, point, maneuver, dice);
* :func:`sight_grid` — :meth:`engine.carwars.sight.SightModel.look` from a start's car to the
  centre of every ``SIGHT_CELL``-inch square: blocked (full cover blocks), visible through
  cover (a clear sightline crosses partial cover — other starting cars included — or a
  full-cover obstacle another sightline avoids: "partial counts") or clear; the squares of each
  class merged into polygons for drawing.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

#: Heat-map cell (inches), horizon (turns) and bands: (upper bound in turns, colour).
CELL = 1.0
HORIZON = 3.0
HEAT_BANDS: tuple[tuple[float, str], ...] = (
    (0.5, "#fde725"), (1.0, "#a0da39"), (1.5, "#4ac16d"), (2.0, "#1fa187"), (2.5, "#277f8e"), (3.0, "#365c8d"))
#: Line-of-sight sample spacing (inches).
SIGHT_CELL = 1.0
#: Sight classes of a square.
NOT_A_PLACE, BLOCKED, COVER, CLEAR = -1, 0, 1, 2
POLICIES = ("flat-out", "safe")


def heat_colour(turns: float) -> str | None:
    """The band colour of a travel time (None beyond the horizon or unreached)."""
    if not math.isfinite(turns):
        return None
    for upper, colour in HEAT_BANDS:
        if turns <= upper + 1e-9:
            return colour
    return None


def display_times(times: Any, min_neighbours: int = 3) -> Any:
    """The reach map's times for drawing: a cell the car's centre never stops in (its movement
    points are a car length apart, the cells an inch) takes the earliest time of its eight
    neighbours when at least ``min_neighbours`` of them were reached; reached cells keep their
    own time.  For the picture only: values are read from the map itself."""
    t = np.asarray(times, dtype=np.float64)
    nx, ny = t.shape
    pad = np.full((nx + 2, ny + 2), np.inf)
    pad[1:-1, 1:-1] = t
    shifts = [pad[1 + di:nx + 1 + di, 1 + dj:ny + 1 + dj] for di in (-1, 0, 1) for dj in (-1, 0, 1) if di or dj]
    near = np.min(shifts, axis=0)
    count = np.sum([np.isfinite(s) for s in shifts], axis=0)
    out = t.copy()
    hole = ~np.isfinite(t) & (count >= min_neighbours)
    out[hole] = near[hole]
    return out


def heat_map(arena: Any, source: int | str, policy: str = "flat-out", limit: float = HORIZON,
             cell: float = CELL) -> Any:
    """The reach map (:class:`engine.carwars.travel.ReachMap`) from start ``source`` (a
    player) or from the card ``card:ID`` (:func:`engine.carwars.reach.reach_from_card`: a car
    on the card at every heading it fits at, at the starting speed)."""
    from engine.carwars.reach import reach, reach_from_card
    from engine.carwars.travel import StartSource

    if isinstance(source, str):
        return reach_from_card(arena, source.removeprefix("card:"), limit=limit, policy=policy, cell=cell)  # type: ignore[arg-type]
    return reach(arena, StartSource(source), limit=limit, policy=policy, cell=cell)  # type: ignore[arg-type]


def parse_goal(ref: str) -> Any:
    """``card:ID`` or ``centre`` as a planner goal."""
    from engine.carwars.travel import Goal

    return Goal.parse(ref)


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


def path_plan(arena: Any, player: int, goal: str, policy: str = "flat-out") -> PathPlan:
    """The planner's fewest-turns plan from start ``player`` to ``goal`` (``card:ID`` or
    ``centre``) under ``policy``."""
    from engine.carwars.planner import Planner
    from engine.carwars.travel import StartSource

    r = Planner(arena, policy).plan(StartSource(player), parse_goal(goal))  # type: ignore[arg-type]
    return plan_of(arena, player, goal, policy, r)


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


def sight_grid(arena: Any, player: int, cell: float = SIGHT_CELL) -> SightGrid:
    """What the car on start ``player`` sees: each square's class (see the module docstring).
    Other starting cars are partial cover, as in the ``cw-sightlines`` check."""
    import shapely

    from engine.carwars.motion import Pose
    from engine.carwars.sight import Car, Point, SightModel, cover_elements

    starts = {s.id: Pose(s.position[0], s.position[1], s.facing) for s in arena.start_positions}
    me = next(s for s in arena.start_positions if s.player == player)
    others = tuple((i, p) for i, p in starts.items() if i != me.id)
    model = SightModel(arena, others)
    viewer = Car(starts[me.id])
    bounds = arena.bounds_geometry()
    solid = shapely.union_all([g for _, g in cover_elements(arena)[0]] or [shapely.Point()])
    minx, miny, maxx, maxy = bounds.bounds
    nx, ny = max(1, math.ceil((maxx - minx) / cell)), max(1, math.ceil((maxy - miny) / cell))
    classes = np.full((nx, ny), NOT_A_PLACE, dtype=np.int8)
    xs = minx + (np.arange(nx) + 0.5) * cell
    ys = miny + (np.arange(ny) + 0.5) * cell
    gx, gy = np.meshgrid(xs, ys, indexing="ij")
    pts = shapely.points(gx.ravel(), gy.ravel())
    place = shapely.contains(bounds, pts) & ~shapely.intersects(solid, pts)
    for k in np.flatnonzero(place):
        i, j = divmod(int(k), ny)
        r = model.look(viewer, Point(float(xs[i]), float(ys[j])), exclude=(me.id,))
        classes[i, j] = BLOCKED if not r.visible else COVER if (r.partial or r.full) else CLEAR
    return SightGrid(player, float(minx), float(miny), cell, classes,
                     class_regions(classes, float(minx), float(miny), cell, bounds))


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
           "SightGrid", "class_regions", "display_times", "heat_colour", "heat_map", "path_plan", "plan_of", "sight_grid"]
