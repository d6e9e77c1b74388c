"""``target-access``: every start as well placed as the others for some static target.

Per start and static target: the best TN a turbine has from its start position (standing
still, before moving: TN = target speed 0 + range + arc + the target's TN modifier - a positive
one only with the scenario's ``small_targets`` variant; none without line of sight), and the
flat-out travel time to a firing position — taken as the target's own position, reached when
the footprint touches it, which guarantees a point-blank shot (range 1).  The verdict compares
each start's *best* target (nearest in time, best TN), so three targets shared out among six
starts are fair when each start has one as close as the others do.
"""

from __future__ import annotations

from typing import Any

import shapely
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry import box

from engine.gravstrike.motion import Pose
from engine.sight import Blockers, NoLineOfSight
from engine.gravstrike.targeting import footprint_shape, static_target_number
from engine.gravstrike.variants import as_played
from schema.games.gravstrike.model import Arena, Wall
from validators.games.gravstrike.common import fmt
from validators.games.gravstrike.context import AnalysisContext, path_json
from validators.findings import Finding, Result


#: TN from a start to a target depends only on the walls near both, the bounds, the turbine, the
#: start and the target: kept across runs (the editor revalidates after every edit), keyed by all
#: of them - so dragging a wall recomputes only the pairs it comes near.
_TN_CACHE: dict[tuple[Any, ...], int | None] = {}
#: How far beyond the box around the start's footprint and the target a wall can matter: the
#: sight search reads the blockers within 1 length of that box (:func:`engine.sight.shortest_clear_segment`).
_NEAR = 1.5


def _near_walls(arena: Arena, pose: Pose, target: Any) -> tuple[Wall, ...]:
    """The walls that can block a line from the footprint at ``pose`` to ``target``: those that
    meet the box around both, grown by :data:`_NEAR`."""
    x0, y0, x1, y1 = shapely.union(footprint_shape(pose, arena.turbine), ShapelyPoint(target.position)).bounds
    window = box(x0 - _NEAR, y0 - _NEAR, x1 + _NEAR, y1 + _NEAR)
    return tuple(w for w in arena.walls if window.intersects(w.shape.to_shapely()))


def _tn_from_start(arena: Arena, start: Any, target: Any) -> int | None:
    """The best TN from ``start`` at ``target``, from the walls near both (:func:`_near_walls`:
    the others cannot block any line between them), or None without line of sight."""
    pose = Pose(start.position[0], start.position[1], start.facing)
    walls = _near_walls(arena, pose, target)
    key = (walls, arena.bounds, arena.turbine, start.position, start.facing, target)
    if key in _TN_CACHE:
        return _TN_CACHE[key]
    blockers = Blockers.of(*(w.shape for w in walls), bounds=arena.bounds)
    try:
        tn: int | None = static_target_number(pose, target, blockers, turbine=arena.turbine).tn
    except NoLineOfSight:
        tn = None
    if len(_TN_CACHE) > 4096:
        _TN_CACHE.clear()
    _TN_CACHE[key] = tn
    return tn


class TargetAccessValidator:
    id = "target-access"
    title = "Every start equally near a static target"
    severity = "warning"
    games = ("gravstrike",)
    needs_travel = True

    def evaluate(self, arena: Arena, context: AnalysisContext) -> Result:
        th = arena.scenario.analysis
        table: dict[str, dict[str, Any]] = {}
        out: list[Finding] = []
        starts = sorted(arena.start_positions, key=lambda s: s.player)
        for t in arena.static_targets:
            rows: dict[str, dict[str, Any]] = {}
            played = as_played(t, arena.scenario.variants)  # a small target's modifier only with small_targets
            for s in starts:
                tn = _tn_from_start(arena, s, played)
                r = context.travel(s.id, f"target:{t.id}")
                rows[s.id] = {"tn_from_start": tn, "time": round(r.time, 3) if r.reachable else None}
            table[t.id] = rows
        if not table or len(starts) < 2:
            return Result(out, {"target_access": table})
        # Fair means every start is as well placed for *some* target: compare each start's best.
        best_time: dict[str, tuple[float, str]] = {}
        best_tn: dict[str, tuple[int, str] | None] = {}
        for s in starts:
            timed = [(v[s.id]["time"], t) for t, v in table.items() if v[s.id]["time"] is not None]
            if timed:
                best_time[s.id] = min(timed)
            seen = [(v[s.id]["tn_from_start"], t) for t, v in table.items() if v[s.id]["tn_from_start"] is not None]
            best_tn[s.id] = min(seen) if seen else None
        if len(best_time) >= 2:
            lo = min(best_time, key=lambda s: best_time[s])
            hi = max(best_time, key=lambda s: best_time[s])
            gap = best_time[hi][0] - best_time[lo][0]
            if gap > th.target_access_tolerance + 1e-9:
                out.append(Finding(
                    self.id, "warning",
                    f"start {lo.split(':')[1]} gets to static target {best_time[lo][1]} in {fmt(best_time[lo][0])} turns; "
                    f"start {hi.split(':')[1]}'s nearest target ({best_time[hi][1]}) takes {fmt(best_time[hi][0])} "
                    f"({fmt(gap)} more; tolerance {fmt(th.target_access_tolerance)}) — move a target toward start "
                    f"{hi.split(':')[1]} or add one", (hi, lo, best_time[hi][1], best_time[lo][1]),
                    {"nearest_time": {lo: best_time[lo][0], hi: best_time[hi][0]}, "difference": round(gap, 3)},
                    path_json(context.travel(hi, f"target:{best_time[hi][1]}"))))
        blind = sorted((s for s, v in best_tn.items() if v is None), key=lambda r: int(r.split(":")[1]))
        sighted = {s: v for s, v in best_tn.items() if v is not None}
        if blind and sighted:
            out.append(Finding(
                self.id, "warning",
                f"start(s) {', '.join(s.split(':')[1] for s in blind)} have no static target in sight, start(s) "
                f"{', '.join(s.split(':')[1] for s in sorted(sighted, key=lambda r: int(r.split(':')[1])))} do — some "
                "players can shoot on turn 1, others cannot; move a target or the walls", tuple(blind),
                {"best_tn_from_start": {s: (v[0] if v else None) for s, v in best_tn.items()}}))
        elif len(sighted) >= 2:
            lo = min(sighted, key=lambda s: sighted[s])
            hi = max(sighted, key=lambda s: sighted[s])
            if sighted[hi][0] - sighted[lo][0] > th.target_tn_tolerance:
                out.append(Finding(
                    self.id, "warning",
                    f"from start {lo.split(':')[1]} the best static-target shot is TN {sighted[lo][0]} ({sighted[lo][1]}), "
                    f"from start {hi.split(':')[1]} only TN {sighted[hi][0]} ({sighted[hi][1]}); tolerance "
                    f"{th.target_tn_tolerance} — equalise the starts' distances to their nearest targets",
                    (hi, lo, sighted[hi][1]), {"best_tn_from_start": {s: v[0] for s, v in sighted.items()}}))
        return Result(out, {"target_access": table})
