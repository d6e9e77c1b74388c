"""A plain reference travel planner: the oracle the fast planner is checked against.

Turn by turn, it enumerates every speed (reverse speeds too, changing through 0 within the Speed
Delta) and every sequence of lengths (sideslips in ``slip_steps`` steps a side) with
:func:`engine.gravstrike.length.apply` (exact footprint geometry, no configuration space, no heuristic, no
priority queue, no direction-of-travel equivalence: a reversing turbine is its signed speed and its
facing).  A goal counts where any end-of-length check sees it: where the length ended and where
each field push ended.  The first
turn in which a goal is reached fixes the goal's turn; within that turn the least
(lengths/speed, icons, damage) wins.  Two states are merged only when their quantised pose and
speed (between turns), or quantised pose, lengths, icons spent and fields used (within a turn),
are equal, keeping the one with fewest (icons, damage); a (pose, speed) already reached after an
earlier turn is not expanded again.
"""

from __future__ import annotations

from typing import Iterable

from engine.gravstrike.events import CheckpointTouched, ExclusionDamage, FieldPush, GateCrossed, Ram
from engine.gravstrike.geometry import ArenaGeometry, shape_centre
from engine.gravstrike.length import TurnState, apply, apply_pivot, end_of_phase_damage
from engine.gravstrike.motion import Pose, generate_maneuvers, normalize_heading
from engine.gravstrike.planner import Goal, PoseSource, Source, StartSource
from schema.games.gravstrike.model import Arena

State = tuple[Pose, int, int]  # pose, icons, damage


def _q(pose: Pose, quantum: float) -> tuple[int, int, float]:
    return (round(pose.x / quantum), round(pose.y / quantum), round(pose.heading, 6) % 360.0)


def source_states(arena: Arena, geometry: ArenaGeometry, source: Source) -> list[tuple[Pose, int]]:
    if isinstance(source, StartSource):
        st = arena.start(source.player)
        out = [(Pose(st.position[0], st.position[1], normalize_heading(st.facing)), 0)]
    elif isinstance(source, PoseSource):
        out = [(source.pose, source.speed)]
    else:
        cp = next(c for c in arena.checkpoints if c.id == source.checkpoint)
        x, y = shape_centre(cp.shape)
        out = [(Pose(x, y, 30.0 * k), min(6, arena.turbine.max_speed)) for k in range(12)]
    return [(p, v) for p, v in out if geometry.ram_feature(p) is None]


def goals_reached(geometry: ArenaGeometry, pose: Pose, events: Iterable[object]) -> set[Goal]:
    got: set[Goal] = set()
    stops = [pose]
    for e in events:
        if isinstance(e, CheckpointTouched):
            got.add(Goal("checkpoint", e.checkpoint))
        elif isinstance(e, GateCrossed):
            got.add(Goal("gate", e.gate))
        elif isinstance(e, FieldPush):
            stops.append(e.start)
    for stop in stops:
        for z in geometry.touching(geometry.starts, stop):
            got.add(Goal("start", z.id))
        for z in geometry.touching(geometry.targets, stop):
            got.add(Goal("target", z.id))
    return got


def _entered_exclusion(geometry: ArenaGeometry, active: list[object], pose: Pose, events: Iterable[object]) -> bool:
    """Did the length end, or a push of it end, overlapping an active exclusion field?"""
    stops = [pose] + [e.start for e in events if isinstance(e, FieldPush)]
    return any(geometry.overlapping(active, p) for p in stops)  # type: ignore[arg-type]


def reference_plan(
    arena: Arena,
    source: Source,
    goals: list[Goal],
    *,
    tier: int = 1,
    budget: int | None = 3,
    exclusions: str = "pay",
    quantum: float = 1e-4,
    max_turns: int = 3,
    pivots: bool = True,
    reverse: bool = True,
    slip_steps: int = 1,
) -> dict[Goal, tuple[int, int, int, int, int] | None]:
    """goal -> (turns, lengths, speed, icons, damage) or None if not reached within max_turns
    (``speed`` is signed: negative in reverse)."""
    g = ArenaGeometry(arena)
    t_cfg = arena.turbine
    vmax = min(6, t_cfg.max_speed)
    active = g.active_exclusions(tier)
    results: dict[Goal, tuple[int, int, int, int, int] | None] = {}
    open_goals = set(goals)
    layer: dict[tuple[tuple[int, int, float], int], tuple[Pose, int, int, int]] = {}
    for pose, v in source_states(arena, g, source):
        layer[(_q(pose, quantum), v)] = (pose, v, 0, 0)
    seen = set(layer)
    for turn in range(1, max_turns + 1):
        if not open_goals or not layer:
            break
        found: dict[Goal, tuple[tuple[int, int, int, int], int, int]] = {}  # goal -> ((l*60/s, icons, dmg, -), l, s)
        nxt: dict[tuple[tuple[int, int, float], int], tuple[Pose, int, int, int]] = {}

        def offer(pose: Pose, speed: int, icons: int, damage: int) -> None:
            key = (_q(pose, quantum), speed)
            if key in seen:
                return
            old = nxt.get(key)
            if old is None or (icons, damage) < (old[2], old[3]):
                nxt[key] = (pose, speed, icons, damage)

        lowest = -vmax if reverse else 0
        for pose, v, icons, damage in layer.values():
            for s in range(max(lowest, v - t_cfg.speed_delta), min(vmax, v + t_cfg.speed_delta) + 1):
                if s == 0:
                    in_excl = g.overlapping(active, pose)
                    if not (in_excl and exclusions == "avoid"):
                        offer(pose, 0, icons, damage + sum(e.damage for e in end_of_phase_damage(g, pose, tier)))
                    if pivots and (budget is None or budget >= 1):
                        st0 = TurnState(0, 0, budget, frozenset(), tier)
                        for corner in range(4):
                            for k in range(1, 12):
                                r = apply_pivot(g, pose, corner, 30.0 * k, st0)
                                if any(isinstance(e, Ram) for e in r.events):
                                    continue
                                if exclusions == "avoid" and g.overlapping(active, r.pose):
                                    continue
                                offer(r.pose, 0, icons + 1, damage + r.damage)
                    continue
                frontier = {("start",): (pose, TurnState.start(s, icons=budget, tier=tier), icons, damage)}
                for length in range(1, abs(s) + 1):
                    new_frontier: dict[tuple[object, ...], tuple[Pose, TurnState, int, int]] = {}
                    for p0, st, ic, dm in frontier.values():
                        for m in generate_maneuvers(st.icons_left, slip_steps=slip_steps):
                            r = apply(g, p0, m, st, resolve_rams=False)
                            if any(isinstance(e, Ram) for e in r.events):
                                continue
                            if exclusions == "avoid" and _entered_exclusion(g, active, r.pose, r.events):
                                continue
                            ic2 = ic + m.cost
                            dm2 = dm + sum(e.damage for e in r.events if isinstance(e, ExclusionDamage))
                            for goal in goals_reached(g, r.pose, r.events) & open_goals:
                                cand = ((60 * length // abs(s)), ic2, dm2)
                                if goal not in found or cand < found[goal][0][:3]:
                                    found[goal] = ((cand[0], cand[1], cand[2], 0), length, s)
                            spent = (budget - r.state.icons_left) if budget is not None and r.state.icons_left is not None else 0
                            key = (_q(r.pose, quantum), spent, r.state.fields_used)
                            old = new_frontier.get(key)
                            if old is None or (ic2, dm2) < (old[2], old[3]):
                                new_frontier[key] = (r.pose, r.state, ic2, dm2)
                    frontier = new_frontier
                for p1, st, ic, dm in frontier.values():
                    offer(p1, s, ic, dm)
        for goal, (cost, length, s) in found.items():
            results[goal] = (turn, length, s, cost[1], cost[2])
            open_goals.discard(goal)
        seen |= set(nxt)
        layer = nxt
    for goal in goals:
        results.setdefault(goal, None)
    return results


