"""``target-access``: static targets equally accessible from every start.

Per start and static target: the best TN a turbine has from its start position (standing
still, before moving: TN = target speed 0 + range + arc + the target's TN modifier; none without
line of sight), and the flat-out travel time to a firing position — taken as the target's own
position, reached when the footprint touches it, which guarantees a point-blank shot (range 1).
"""

from __future__ import annotations

from typing import Any

from engine.motion import Pose
from engine.sight import Blockers, NoLineOfSight
from engine.targeting import static_target_number
from schema.model import Arena
from validators.builtin.common import fmt
from validators.context import AnalysisContext, path_json
from validators.findings import Finding, Result


class TargetAccessValidator:
    id = "target-access"
    title = "Static targets equally accessible from every start"
    severity = "warning"
    needs_travel = True

    def evaluate(self, arena: Arena, context: AnalysisContext) -> Result:
        th = arena.scenario.analysis
        blockers = Blockers.from_arena(arena)
        table: dict[str, dict[str, Any]] = {}
        out = []
        for t in arena.static_targets:
            rows: dict[str, dict[str, Any]] = {}
            for s in sorted(arena.start_positions, key=lambda s: s.player):
                pose = Pose(s.position[0], s.position[1], s.facing)
                try:
                    tn: int | None = static_target_number(pose, t, blockers, turbine=arena.turbine).tn
                except NoLineOfSight:
                    tn = None
                r = context.travel(s.id, f"target:{t.id}")
                rows[s.id] = {"tn_from_start": tn, "time": round(r.time, 3) if r.reachable else None}
            table[t.id] = rows
            times = {s: v["time"] for s, v in rows.items() if v["time"] is not None}
            if len(times) >= 2:
                lo, hi = min(times, key=lambda s: times[s]), max(times, key=lambda s: times[s])
                gap = times[hi] - times[lo]
                if gap > th.target_access_tolerance + 1e-9:
                    out.append(Finding(
                        self.id, "warning",
                        f"static target {t.id}: start {lo.split(':')[1]} gets to it in {fmt(times[lo])} turns, start "
                        f"{hi.split(':')[1]} needs {fmt(times[hi])} ({fmt(gap)} more; tolerance {fmt(th.target_access_tolerance)}) "
                        f"— move {t.id} toward the middle or balance the starts", (t.id, hi, lo),
                        {"time": {lo: times[lo], hi: times[hi]}, "difference": round(gap, 3)},
                        path_json(context.travel(hi, f"target:{t.id}"))))
            tns = {s: v["tn_from_start"] for s, v in rows.items()}
            seen = {s: v for s, v in tns.items() if v is not None}
            if seen and len(seen) < len(tns):
                blind = sorted(s for s, v in tns.items() if v is None)
                out.append(Finding(
                    self.id, "warning",
                    f"static target {t.id} is in sight of start(s) {', '.join(s.split(':')[1] for s in sorted(seen))} but "
                    f"not of {', '.join(s.split(':')[1] for s in blind)} — some players can shoot it on turn 1, others "
                    "cannot; move it or the walls", (t.id, *blind), {"tn_from_start": tns}))
            elif len(seen) >= 2:
                lo, hi = min(seen, key=lambda s: seen[s]), max(seen, key=lambda s: seen[s])
                if seen[hi] - seen[lo] > th.target_tn_tolerance:
                    out.append(Finding(
                        self.id, "warning",
                        f"static target {t.id}: TN {seen[lo]} from start {lo.split(':')[1]} but {seen[hi]} from start "
                        f"{hi.split(':')[1]} (tolerance {th.target_tn_tolerance}) — equalise the distances to {t.id}",
                        (t.id, hi, lo), {"tn_from_start": tns}))
        return Result(out, {"target_access": table})
