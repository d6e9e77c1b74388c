"""Travel-based fairness validators: ``reachability``, ``start-spacing``,
``start-checkpoint-access`` and ``checkpoint-spacing``. Times are in turns of flat-out movement
under the motion model (see the README), from the engine's travel planner."""

from __future__ import annotations

import math
from itertools import combinations
from typing import Any

from schema.games.gravstrike.model import Arena
from validators.games.gravstrike.common import fmt
from validators.games.gravstrike.context import AnalysisContext, path_json, travel_cell
from validators.findings import Finding, Result


def _player(ref: str) -> str:
    return ref.split(":", 1)[1]


class ReachabilityValidator:
    id = "reachability"
    title = "Every checkpoint, gate and static target reachable from every start"
    severity = "error"
    games = ("gravstrike",)
    needs_travel = True

    def evaluate(self, arena: Arena, context: AnalysisContext) -> Result:
        out = []
        for s in context.starts():
            for ref, r in sorted(context.travel_from(s).items()):
                if ref.startswith("start:") or r.reachable:
                    continue
                kind, ident = ref.split(":", 1)
                what = {"checkpoint": "checkpoint", "gate": "gate", "target": "a firing position on static target"}[kind]
                if r.status == "unreachable":
                    out.append(Finding(self.id, "error", f"start {_player(s)} cannot reach {what} {ident} without ramming "
                                       f"({_budget(context)}): open a gap of at least one turbine "
                                       "width or move the element", (s, ident)))
                elif r.status == "beyond":
                    out.append(Finding(self.id, "warning", f"start {_player(s)} needs more than {fmt(r.horizon or 0)} "
                                       f"turns to reach {what} {ident} (the analysis looks no further): a very long way "
                                       "round - open a shorter way or move the element", (s, ident),
                                       {"at_least": r.horizon}))
                else:
                    out.append(undecided_finding(self.id, s, what, ident, r))
        return Result(out, {"travel": context.start_matrix()})


def undecided_finding(code: str, source: str, what: str, ident: str, r: Any) -> Finding:
    """The finding for a travel query a search limit left undecided: never a silent pass."""
    return Finding(code, "warning", f"could not decide whether {source.replace(':', ' ')} can reach {what} {ident}: the "
                   f"search stopped at its {r.undecided} (it is at least {fmt(r.horizon or 0)} turns away) - "
                   "raise the analysis limits or simplify the arena", (source, ident),
                   {"undecided": r.undecided, "at_least": r.horizon})


class StartCheckpointAccessValidator:
    id = "start-checkpoint-access"
    title = "Starts equally near the checkpoints"
    severity = "warning"
    games = ("gravstrike",)
    needs_travel = True

    def evaluate(self, arena: Arena, context: AnalysisContext) -> Result:
        tol = arena.scenario.analysis.start_access_tolerance
        cps = [f"checkpoint:{c.id}" for c in arena.checkpoints]
        rows: dict[str, dict[str, Any]] = {}
        for s in context.starts():
            row = context.travel_from(s)
            times = {c: context.time(row[c]) for c in cps}
            finite = [t for t in times.values() if math.isfinite(t)]
            if not finite:
                continue
            nearest = min(times, key=lambda c: times[c])
            rows[s] = {"nearest": nearest, "nearest_time": round(times[nearest], 3),
                       "mean_time": round(sum(finite) / len(finite), 3)}
        metrics = {"start_checkpoint_access": rows}
        if len(rows) < 2:
            return Result([], metrics)
        out = []
        fast = min(rows, key=lambda s: rows[s]["nearest_time"])
        slow = max(rows, key=lambda s: rows[s]["nearest_time"])
        gap = rows[slow]["nearest_time"] - rows[fast]["nearest_time"]
        if gap > tol + 1e-9:
            target = rows[fast]["nearest"].split(":")[1]
            r = context.travel(slow, rows[slow]["nearest"])
            out.append(Finding(
                self.id, "warning",
                f"start {_player(fast)} reaches its nearest checkpoint ({target}) in {fmt(rows[fast]['nearest_time'])} turns, "
                f"start {_player(slow)} needs {fmt(rows[slow]['nearest_time'])} for {rows[slow]['nearest'].split(':')[1]} "
                f"({fmt(gap)} turns more; tolerance {fmt(tol)}) — move start {_player(slow)} toward a checkpoint, "
                f"start {_player(fast)} away from {target}, or add an acceleration field on start {_player(slow)}'s way",
                (slow, fast, rows[slow]["nearest"].split(":")[1]),
                {"nearest_time": {slow: rows[slow]["nearest_time"], fast: rows[fast]["nearest_time"]}, "difference": round(gap, 3)},
                path_json(r)))
        lo = min(rows, key=lambda s: rows[s]["mean_time"])
        hi = max(rows, key=lambda s: rows[s]["mean_time"])
        spread = rows[hi]["mean_time"] - rows[lo]["mean_time"]
        if spread > tol + 1e-9:
            out.append(Finding(
                self.id, "warning",
                f"on average start {_player(hi)} needs {fmt(rows[hi]['mean_time'])} turns to reach a checkpoint, start "
                f"{_player(lo)} only {fmt(rows[lo]['mean_time'])} ({fmt(spread)} more; tolerance {fmt(tol)}) — "
                f"spread the checkpoints or move start {_player(hi)} toward the middle",
                (hi, lo), {"mean_time": {hi: rows[hi]["mean_time"], lo: rows[lo]["mean_time"]}, "difference": round(spread, 3)}))
        return Result(out, metrics)


class StartSpacingValidator:
    id = "start-spacing"
    title = "Starts spaced as equally as possible"
    severity = "warning"
    games = ("gravstrike",)
    needs_travel = True

    def evaluate(self, arena: Arena, context: AnalysisContext) -> Result:
        th = arena.scenario.analysis
        starts = sorted(arena.start_positions, key=lambda s: s.player)
        if len(starts) < 2:
            return Result()
        dist: dict[str, dict[str, float]] = {s.id: {} for s in starts}
        time: dict[str, dict[str, float | None]] = {s.id: {} for s in starts}
        for a, b in combinations(starts, 2):
            d = round(math.dist(a.position, b.position), 3)
            dist[a.id][b.id] = dist[b.id][a.id] = d
        for a in starts:
            row = context.travel_from(a.id)
            for b in starts:
                if a.id != b.id:
                    cell = travel_cell(row[b.id])
                    time[a.id][b.id] = cell["time"]
        nn_dist = {s: min(row.values()) for s, row in dist.items()}
        nn_time = {s: min((t for t in row.values() if t is not None), default=None) for s, row in time.items()}
        metrics = {"start_spacing": {"distance": dist, "time": time, "nearest_distance": nn_dist, "nearest_time": nn_time}}
        out = []
        close = min(nn_dist, key=lambda s: nn_dist[s])
        far = max(nn_dist, key=lambda s: nn_dist[s])
        if nn_dist[far] - nn_dist[close] > th.start_spacing_tolerance + 1e-9:
            neighbour = min(dist[close], key=lambda o: dist[close][o])
            out.append(Finding(
                self.id, "warning",
                f"start {_player(close)}'s nearest other start ({_player(neighbour)}) is {fmt(nn_dist[close])} lengths away, "
                f"start {_player(far)}'s is {fmt(nn_dist[far])} ({fmt(nn_dist[far] - nn_dist[close])} more; tolerance "
                f"{fmt(th.start_spacing_tolerance)}) — spread the starts evenly: move start {_player(close)} away from "
                f"start {_player(neighbour)}", (close, neighbour, far),
                {"nearest_distance": {close: nn_dist[close], far: nn_dist[far]}}))
        timed = {s: t for s, t in nn_time.items() if t is not None}
        if len(timed) >= 2:
            tc = min(timed, key=lambda s: timed[s])
            tf = max(timed, key=lambda s: timed[s])
            if timed[tf] - timed[tc] > th.start_spacing_time_tolerance + 1e-9:
                out.append(Finding(
                    self.id, "warning",
                    f"start {_player(tc)} can reach another start in {fmt(timed[tc])} turns, start {_player(tf)} needs "
                    f"{fmt(timed[tf])} ({fmt(timed[tf] - timed[tc])} more; tolerance {fmt(th.start_spacing_time_tolerance)}) "
                    "— starts are not equally exposed to each other", (tc, tf),
                    {"nearest_time": {tc: timed[tc], tf: timed[tf]}}))
        return Result(out, metrics)


class CheckpointSpacingValidator:
    id = "checkpoint-spacing"
    title = "Outlying checkpoints at least two flat-out turns apart"
    severity = "warning"
    games = ("gravstrike",)
    needs_travel = True

    def evaluate(self, arena: Arena, context: AnalysisContext) -> Result:
        need = arena.scenario.analysis.checkpoint_min_turns
        outlying = [c.id for c in arena.checkpoints if c.kind == "outlying"]
        matrix: dict[str, dict[str, dict[str, Any]]] = {}
        out = []
        for a in outlying:
            row = context.travel_from(f"checkpoint:{a}")
            matrix[f"checkpoint:{a}"] = {f"checkpoint:{b}": travel_cell(row[f"checkpoint:{b}"]) for b in outlying if b != a}
        for a, b in combinations(outlying, 2):
            ab = context.travel(f"checkpoint:{a}", f"checkpoint:{b}")
            ba = context.travel(f"checkpoint:{b}", f"checkpoint:{a}")
            best = ab if context.time(ab) <= context.time(ba) else ba
            src, dst = (a, b) if best is ab else (b, a)
            t = context.time(best)
            if not best.reachable and "undecided" in (ab.status, ba.status):
                r = ab if ab.status == "undecided" else ba
                out.append(undecided_finding(self.id, f"checkpoint:{a if r is ab else b}", "checkpoint",
                                             b if r is ab else a, r))
                continue
            if t < need - 1e-9:
                out.append(Finding(
                    self.id, "warning",
                    f"outlying checkpoints {src} and {dst} are only {fmt(t)} flat-out turns apart ({src} to {dst}); the book "
                    f"advises at least {fmt(need)} so checkpoint-running decks don't prevail — move them apart or put a wall "
                    "between them", (src, dst), {"time": round(t, 3), "minimum": need}, path_json(best)))
        return Result(out, {"checkpoint_travel": matrix})


def _budget(context: AnalysisContext) -> str:
    return "unlimited icons" if context.budget is None else f"{context.budget} icons a turn"
