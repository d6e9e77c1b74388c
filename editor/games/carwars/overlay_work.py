"""What the Car Wars overlays show, computed with the Car Wars engine's public functions (no Qt:
these run in a child process, :func:`editor.validation.call_in_child`, killed by a newer edit);
the game-free parts (bands, :class:`~editor.games.overlay_work.PathPlan`,
:class:`~editor.games.overlay_work.SightGrid`) are :mod:`editor.games.overlay_work`'s, named here too.

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
from typing import Any

import numpy as np

from editor.games.overlay_work import (
    BLOCKED,
    CELL,
    CLEAR,
    COVER,
    HEAT_BANDS,
    HORIZON,
    NOT_A_PLACE,
    POLICIES,
    SIGHT_CELL,
    PathPlan,
    SightGrid,
    class_regions,
    display_times,
    heat_colour,
    plan_of,
)


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


def path_plan(arena: Any, player: int, goal: str, policy: str = "flat-out") -> PathPlan:
    """The planner's fewest-turns plan from start ``player`` to ``goal`` (``card:ID`` or
    ``centre``) under ``policy``."""
    from engine.carwars.planner import Planner
    from engine.carwars.travel import StartSource

    r = Planner(arena, policy).plan(StartSource(player), parse_goal(goal))  # type: ignore[arg-type]
    return plan_of(arena, player, goal, policy, r)


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


__all__ = ["BLOCKED", "CELL", "CLEAR", "COVER", "HEAT_BANDS", "HORIZON", "NOT_A_PLACE", "POLICIES", "SIGHT_CELL",
           "PathPlan", "SightGrid", "class_regions", "display_times", "heat_colour", "heat_map", "parse_goal",
           "path_plan", "plan_of", "sight_grid"]
