"""A plain reference travel search for Car Wars: the oracle the fast planner is checked against.

Turn by turn it enumerates every speed the rules allow (4A. Adjust Speed, Hard Acceleration,
Hard Braking) and every sequence of movement points with :meth:`CarWarsGeometry.drive_point`
(exact swept areas, one point at a time: no clearance field, no heuristic, no priority
queue).  Goals are tested with shapely (the car's rectangle within 1e-6 in of the goal).  The
first turn in which a goal is reached fixes its turn; within that turn the least (time, dice,
hard changes) wins.  States are merged only when their positions agree within ``quantum``
(with the same heading and speed between turns, the same heading within a turn), keeping the
fewest (dice, hard changes); a (pose, speed) already reached after an earlier turn is not
expanded again.  ``exclude`` drops moves (maneuver kinds "slide", "turn", zone names "D3",
"D4", or "hard") to show that the rarer ones are the only fast way.
"""

from __future__ import annotations

from typing import Iterable

import shapely
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry.base import BaseGeometry

from engine.carwars.geometry import CarWarsGeometry
from engine.carwars.motion import Pose, car_rectangle, normalize
from engine.carwars.rules import (
    REVERSE,
    Maneuver,
    Policy,
    driving_dice,
    generate_maneuvers,
    generate_speed_changes,
    points,
)
from engine.carwars.travel import UNITS, Goal
from schema.games.carwars import CarWarsArena

Key = tuple[int, int, int]


def goal_geometry(arena: CarWarsArena, goal: Goal) -> BaseGeometry:
    if goal.kind == "card":
        return arena.card(goal.id).shape.to_shapely()
    if goal.kind == "centre":
        return ShapelyPoint(arena.centre())
    st = next(s for s in arena.start_positions if s.id == goal.id)
    return car_rectangle(Pose(st.position[0], st.position[1], st.facing), arena.vehicle)


def _q(p: Pose, quantum: float) -> Key:
    return (round(p.x / quantum), round(p.y / quantum), round(p.heading * 1e6) % round(360 * 1e6))


def _allowed(m: Maneuver, exclude: Iterable[str]) -> bool:
    ex = set(exclude)
    return m.kind not in ex and not (m.kind == "turn" and f"D{m.zone}" in ex)


def reference_plan(arena: CarWarsArena, pose: Pose, speed: int, goals: list[Goal], *, policy: Policy = "flat-out",
                   max_turns: int = 2, max_speed: int = 5, quantum: float = 1e-3, reverse: bool = True,
                   exclude: Iterable[str] = ()) -> dict[Goal, tuple[int, int, int] | None]:
    """goal -> (time in 1/60 turns, dice, hard changes), or None when not reached in time."""
    exclude = tuple(exclude)
    g = CarWarsGeometry(arena)
    key = arena.turning_key
    moves = [m for m in generate_maneuvers(key, policy) if _allowed(m, exclude)]
    shapes = {goal: goal_geometry(arena, goal) for goal in goals}
    best: dict[Goal, tuple[int, int, int] | None] = {goal: None for goal in goals}

    def touch(p: Pose) -> list[Goal]:
        rect = car_rectangle(p, arena.vehicle)
        return [goal for goal, shp in shapes.items() if best[goal] is None and shapely.distance(rect, shp) <= 1e-6]

    start = Pose(pose.x, pose.y, normalize(pose.heading))
    for goal in touch(start):
        best[goal] = (0, 0, 0)
    layer: dict[tuple[Key, int], tuple[Pose, int, int, int]] = {(_q(start, quantum), speed): (start, speed, 0, 0)}
    seen = set(layer)
    for turn in range(1, max_turns + 1):
        found: dict[Goal, tuple[int, int, int]] = {}
        nxt: dict[tuple[Key, int], tuple[Pose, int, int, int]] = {}
        for _, (p0, s0, d0, h0) in sorted(layer.items()):
            for ch in generate_speed_changes(s0, policy, max_speed, reverse):
                if ch.hard and "hard" in exclude:
                    continue
                hard = h0 + int(ch.hard)
                n = points(ch.speed)
                frontier: dict[Key, tuple[Pose, int]] = {_q(p0, quantum): (p0, d0)}
                for k in range(1, n + 1):
                    new: dict[Key, tuple[Pose, int]] = {}
                    for p, d in frontier.values():
                        for m in moves:
                            r = g.drive_point(p, m, reverse=ch.speed == REVERSE)
                            if r.collided:
                                continue
                            q = r.pose
                            nd = d + driving_dice(m, ch.speed, g.terrain_level_at(q), g.hazard_dice_at(q), key)
                            time = (turn - 1) * UNITS + k * UNITS // n
                            for goal in touch(q):
                                cand = (time, nd, hard)
                                if goal not in found or cand < found[goal]:
                                    found[goal] = cand
                            kq = _q(q, quantum)
                            if kq not in new or nd < new[kq][1]:
                                new[kq] = (q, nd)
                    frontier = new
                for kq, (q, d) in frontier.items():
                    kk = (kq, ch.speed)
                    if kk in seen:
                        continue
                    if kk not in nxt or (d, hard) < (nxt[kk][2], nxt[kk][3]):
                        nxt[kk] = (q, ch.speed, d, hard)
        for goal, cand in found.items():
            best[goal] = cand
        seen |= set(nxt)
        layer = nxt
        if all(v is not None for v in best.values()) or not layer:
            break
    return best
