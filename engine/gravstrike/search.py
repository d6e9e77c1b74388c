"""The scalar travel search: A* one state at a time, with the full objective (time, then
Maneuver icons, then damage).  :class:`engine.gravstrike.planner.Planner` runs it for ``minimise=
"time-icons-damage"`` and wherever the vectorised search (:mod:`engine.gravstrike.frontier`) can't run.

As there, a node's heading ``h`` is its direction of travel and ``s`` its absolute speed, with
``rev`` set when the turbine travels in reverse (its facing is ``h + 180``).
"""

from __future__ import annotations

import heapq
import math
import time as _time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

from engine import budget as caps
from engine.gravstrike.geometry import path_crosses
from engine.gravstrike.motion import PIVOT_COST, Pose, normalize_heading
from engine.gravstrike.reach import proven_unreachable
from engine.gravstrike.heuristic import combine
from engine.gravstrike.travel_types import UNBOUNDED, Goal, PathStep, TravelResult

#: Rough bytes one kept node costs (the node, its key in the best-times table, its heap entry).
NODE_BYTES = 420

if TYPE_CHECKING:  # pragma: no cover
    from engine.gravstrike.planner import Planner


@dataclass(slots=True)
class _Node:
    x: float
    y: float
    h: float
    t: int
    s: int
    l: int
    spent: int
    used: int
    time: int
    icons: int
    damage: int
    parent: _Node | None
    step: tuple[Any, ...] | None
    rev: int = 0


def _canonical(h: float, s: int, rev: int) -> tuple[float, int]:
    """At speed 0 both directions of travel are one state (see :mod:`engine.gravstrike.frontier`)."""
    if s == 0 and h >= 180.0 - 1e-6:
        return round(h - 180.0, 6) % 360.0, rev ^ 1
    return h, rev


class ScalarSearch:
    """One A* run (kept apart from :class:`Planner` so the planner stays reusable)."""

    def __init__(self, planner: Planner, starts: Sequence[tuple[Pose, int]], goals: Sequence[Goal]) -> None:
        self.p = planner
        self.starts = starts
        self.goals = list(goals)
        self.results: dict[Goal, TravelResult] = {}
        self.open_goals = set(self.goals)
        self.zone_goal = {planner.goal_zone[g]: g for g in self.goals if g in planner.goal_zone}
        self.gate_goals = [g for g in self.goals if g.kind == "gate"]
        self.version = 0
        self.dist: list[float] = []
        self.record: tuple[float, float, float, Any] | None = None
        self.limit = planner.max_turns * planner.scale
        self.horizon: float | None = None
        self.cut = False  # nodes dropped at the turn limit or past the time limit
        self.limited: str | None = None  # the limit that stopped the search, if one did
        self.proven: set[Goal] = set()  # goals the proof (engine.gravstrike.reach) ruled out
        self.dist = []  # the bound's distances: made by run(), once unreachable goals are out

    def _refresh(self) -> None:
        self.version += 1
        p = self.p
        if p.use_heuristic and self.open_goals:
            maps = p.distance_maps(list(self.open_goals))
            self.dist = combine(maps)
            self.dmap = maps[0]
        else:
            self.dist = []

    def h(self, x: float, y: float, s: int, l: int, spent: int) -> int:
        if not self.dist:
            return 0
        m = self.dmap
        i = int((x - m.x0) / m.cell)
        j = int((y - m.y0) / m.cell)
        d = self.dist[i * m.ny + j] if 0 <= i < m.nx and 0 <= j < m.ny else math.inf
        left = None if self.p.budget is None else self.p.budget - spent
        return self.p.timebound.lower_bound(d, s, l, left)

    def run(self) -> dict[Goal, TravelResult]:
        with self.p.querying():  # (the planner lets no lattice go while a search runs)
            return self._run()

    def _run(self) -> dict[Goal, TravelResult]:
        p = self.p
        if self.record is not None:  # a reach map: the sources are reached at time 0
            for pose, _ in self.starts:
                self._note(pose.x, pose.y, 0)
        if p.prove and self.record is None:  # goals no plan can reach (engine.gravstrike.reach): answered now
            self.proven = proven_unreachable(p, self.starts, self.goals)
            for goal in self.proven:
                self.results[goal] = TravelResult(goal, False)
                self.open_goals.discard(goal)
        self._refresh()
        heap: list[tuple[int, int, int, int, int, int, _Node, int]] = []
        self.heap = heap
        self.best: dict[tuple[int, int, float, int, int, int, int], tuple[int, int, int]] = {}
        self.count = 0
        limit = self.limit
        for pose, speed in self.starts:
            hs = p.cspace.heading(pose.heading)
            if not hs.is_free(pose.x, pose.y):
                continue
            h, a, rev = pose.heading, abs(speed), int(speed < 0)
            if speed < 0:
                h = round(normalize_heading(h + 180.0), 6) % 360.0
            h, rev = _canonical(h, a, rev) if p.reverse else (h, rev)
            node = _Node(pose.x, pose.y, h, 0, a, a, 0, 0, 0, 0, 0, None, None, rev)
            self._push(node, -1)
        limits = p.limits
        started = _time.monotonic()
        report = started + limits.progress_every
        pops = 0
        f = 0
        while heap and (self.open_goals or self.record is not None):
            f, _, _, _, _, version, node, goal_index = heapq.heappop(heap)
            if f > limit:
                self.cut = True
                break
            pops += 1
            if not pops & 31:
                now = _time.monotonic()
                reason = None
                if len(self.best) * NODE_BYTES > limits.max_bytes:
                    reason = f"memory limit ({limits.describe_bytes()}) reached after {len(self.best):,} states"
                elif limits.max_seconds is not None and now - started > limits.max_seconds:
                    reason = f"time limit ({limits.max_seconds:g} s) reached after {len(self.best):,} states"
                elif (cap := caps.exceeded()) is not None:  # the analysis's caps (engine.budget)
                    reason = f"{cap} reached after {len(self.best):,} states"
                if reason is not None:
                    self.limited = reason
                    for goal in self.goals:
                        if goal not in self.results:
                            self.results[goal] = TravelResult(goal, False, horizon=f / p.scale, undecided=reason)
                    return self.results
                if limits.progress is not None and now >= report:
                    report = now + limits.progress_every
                    limits.progress(len(self.best), f / p.scale)
            if goal_index >= 0:
                goal = self.goals[goal_index]
                if goal in self.open_goals:
                    self._resolve(goal, node)
                continue
            if version != self.version:
                nf = node.time + self.h(node.x, node.y, node.s, node.l, node.spent)
                if nf > f:
                    if nf < UNBOUNDED:
                        self._requeue(nf, node)
                    continue
            key = self._key(node)
            if self.best.get(key, (UNBOUNDED, 0, 0)) < (node.time, node.icons, node.damage):
                continue
            if node.l >= node.s:
                self._expand_boundary(node)
            else:
                self._expand_lengths(node)
        beyond = self.cut
        for goal in self.goals:
            if goal not in self.results:
                horizon = (self.horizon if self.horizon is not None else min(self.limit / p.scale, p.max_turns)) if beyond else None
                self.results[goal] = TravelResult(goal, False, horizon=horizon)
        return self.results

    # -- queue helpers ---------------------------------------------------------------------------
    def _key(self, n: _Node) -> tuple[int, int, float, int, int, int, int]:
        q = self.p.quantum
        if n.l >= n.s:
            return (round(n.x / q), round(n.y / q), n.h, n.s, -1, 0, 0)
        if self.record is not None:  # reach maps: merge within-turn states regardless of icons spent
            return (round(n.x / q), round(n.y / q), n.h, n.s, n.l, 0, 0)
        return (round(n.x / q), round(n.y / q), n.h, n.s, n.l, n.spent, n.used)

    def _order(self, n: _Node) -> tuple[int, int, int]:
        """Tie-break among equal f: fewest icons first (exact secondary criteria) or, when only
        time matters, deepest first (finds a fastest plan after few expansions)."""
        if self.p.minimise == "time":
            return (-n.time, n.icons, n.damage)
        return (n.icons, n.damage, -n.time)

    def _note(self, x: float, y: float, time: int) -> None:
        """Reach-map mode: remember the earliest time the centre was in (x, y)'s cell."""
        assert self.record is not None
        x0, y0, cell, times = self.record
        i, j = int((x - x0) // cell), int((y - y0) // cell)
        if 0 <= i < times.shape[0] and 0 <= j < times.shape[1]:
            t = time / self.p.scale
            if t < times[i, j]:
                times[i, j] = t

    def _requeue(self, f: int, n: _Node) -> None:
        self.count += 1
        heapq.heappush(self.heap, (f, *self._order(n), self.count, self.version, n, -1))

    def _push(self, n: _Node, goal_index: int) -> None:
        """Queue a node (deduplicated) or, with ``goal_index`` >= 0, a goal reached by it."""
        self.count += 1
        if goal_index >= 0:
            heapq.heappush(self.heap, (n.time, *self._order(n), self.count, self.version, n, goal_index))
            return
        q = self.p.quantum
        if self.record is None and n.l < n.s:
            key = (round(n.x / q), round(n.y / q), n.h, n.s, n.l, n.spent, n.used)
        else:
            key = self._key(n)
        g = (n.time, n.icons, n.damage)
        best = self.best
        old = best.get(key)
        if old is not None and old <= g:
            return
        if key[4] >= 0 and n.spent:
            for sp in range(n.spent):
                other = best.get((key[0], key[1], key[2], key[3], key[4], sp, key[6]))
                if other is not None and other <= g:
                    return
        hval = self.h(n.x, n.y, n.s, n.l, n.spent)
        if hval >= UNBOUNDED:
            return
        best[key] = g
        heapq.heappush(self.heap, (n.time + hval, *self._order(n), self.count, self.version, n, -1))

    def _resolve(self, goal: Goal, node: _Node) -> None:
        p = self.p
        path: list[PathStep] = []
        chain: list[_Node] = []
        n: _Node | None = node
        while n is not None:
            chain.append(n)
            n = n.parent
        for n in reversed(chain):
            if n.step is None:
                continue
            facing = round(normalize_heading(n.h + 180.0 * n.rev), 6) % 360.0
            if n.step[0] == "pivot":
                corner, angle = n.step[1]
                path.append(PathStep(n.x, n.y, facing, 0, n.t, 0, f"pivot {angle} about corner {(corner + 2 * n.rev) % 4}"))
                continue
            _, label, mx, my, pushes = n.step
            speed = -n.s if n.rev else n.s
            path.append(PathStep(mx, my, facing, speed, n.t, n.l, label))
            for fid, px, py in pushes:
                path.append(PathStep(px, py, facing, speed, n.t, n.l, label, fid))
        self.results[goal] = TravelResult(
            goal, True, node.t, node.l, -node.s if node.rev else node.s, node.time / p.scale, node.icons, node.damage,
            tuple(path))
        self.open_goals.discard(goal)
        self._refresh()

    # -- expansion ----------------------------------------------------------------------------------
    def _end_damage(self, x: float, y: float, h: float, zones: Sequence[int]) -> int:
        p = self.p
        dmg = 0
        first = p.n_fields
        for z in zones:
            if first <= z < first + p.n_excl:
                ez = p.excl_zones[z - first]
                if p.geometry.corners_inside(ez, Pose(x, y, h)) >= 2:
                    dmg += 2
        return dmg

    def _expand_boundary(self, n: _Node) -> None:
        p = self.p
        t = n.t + 1
        if t > p.max_turns:
            self.cut = True
            return
        delta = p.turbine.speed_delta
        for s in range(max(0, n.s - delta), min(p.vmax, n.s + delta) + 1):
            if s == 0:
                self._idle_turn(n, t)
                continue
            start = _Node(n.x, n.y, n.h, t, s, 0, 0, 0, n.time, n.icons, n.damage, n, None, n.rev)
            self._expand_lengths(start)
        if p.reverse:  # through 0 into the other direction of travel: |old| + |new| <= delta
            back = round(normalize_heading(n.h + 180.0), 6) % 360.0
            for s in range(1, min(p.vmax, delta - n.s) + 1):
                start = _Node(n.x, n.y, back, t, s, 0, 0, 0, n.time, n.icons, n.damage, n, None, n.rev ^ 1)
                self._expand_lengths(start)

    def _idle_turn(self, n: _Node, t: int) -> None:
        """A turn at speed 0: stay, or pivot k*30 degrees about a corner for 1 icon."""
        p = self.p
        time = (t) * p.scale
        hs = p.cspace.heading(n.h)
        excl = self._exclusions_at(hs, n.x, n.y)
        dmg = self._end_damage(n.x, n.y, n.h, excl)
        if excl and p.exclusions == "avoid":
            return
        h, rev = _canonical(n.h, 0, n.rev) if p.reverse else (n.h, n.rev)
        self._push(_Node(n.x, n.y, h, t, 0, 0, 0, 0, time, n.icons, n.damage + dmg, n, None, rev), -1)
        if not p.pivots or (p.budget is not None and p.budget < PIVOT_COST):
            return
        for dx, dy, nh, label in p.pivots_for(n.h):
            new = Pose(n.x + dx, n.y + dy, nh)
            hs = p.cspace.heading(nh)
            if hs.is_free(new.x, new.y):
                excl = self._exclusions_at(hs, new.x, new.y)
                if excl and p.exclusions == "avoid":
                    continue
                dmg = self._end_damage(new.x, new.y, nh, excl)
                h, rev = _canonical(nh, 0, n.rev) if p.reverse else (nh, n.rev)
                step = ("pivot", label)
                self._push(_Node(new.x, new.y, h, t, 0, 0, 0, 0, time, n.icons + PIVOT_COST, n.damage + dmg, n, step, rev), -1)

    def _exclusions_at(self, hs: Any, x: float, y: float) -> list[int]:
        p = self.p
        if not p.n_excl:
            return []
        lo, hi = p.n_fields, p.n_fields + p.n_excl
        return [z for z in hs.zones_at(x, y) if lo <= z < hi]

    def _expand_lengths(self, n: _Node) -> None:
        p = self.p
        cspace = p.cspace
        left = UNBOUNDED if p.budget is None else p.budget - n.spent
        l = n.l + 1
        s = n.s
        time = (n.t - 1) * p.scale + p.scale * l // s
        last = l == s
        nf, ne = p.n_fields, p.n_excl
        fields = p.geometry.fields
        was_in: list[int] | None = None
        for dx, dy, nh, cost, label, local, hs in p.moves_for(n.h):
            if cost > left:
                continue
            x, y = n.x + dx, n.y + dy
            probed = hs.probe(x, y)
            if probed is None:
                continue
            zones = probed
            seen = set(zones)  # every zone met where the length ended, before and after pushes
            used = n.used
            pushes: list[tuple[str, float, float]] = []
            rammed = False
            while zones:
                z = next((z for z in zones if z < nf and not used >> z & 1), -1)
                if z < 0:
                    break
                fz = fields[z]
                a = math.radians(fz.direction)
                x += p.turbine.length * math.cos(a)
                y += p.turbine.length * math.sin(a)
                used |= 1 << z
                pushes.append((fz.id, x, y))
                probed = hs.probe(x, y)
                if probed is None:
                    rammed = True
                    break
                zones = probed
                seen.update(zones)
            if rammed:
                continue
            damage = n.damage
            if ne and seen:
                excl = [z for z in seen if nf <= z < nf + ne]
                if excl:
                    if p.exclusions == "avoid":
                        continue
                    if was_in is None:
                        was_in = self._exclusions_at(cspace.heading(n.h), n.x, n.y)
                    damage += sum(1 for z in excl if z not in was_in)
                    if last:
                        damage += self._end_damage(x, y, nh, [z for z in zones if nf <= z < nf + ne])
            mx, my = n.x + dx, n.y + dy
            node = _Node(x, y, nh, n.t, s, l, n.spent + cost, used, time, n.icons + cost, damage, n,
                         ("length", label, mx, my, tuple(pushes)), n.rev)
            for z in seen:
                g = self.zone_goal.get(z)
                if g is not None and g in self.open_goals:
                    self._push(node, self.goals.index(g))
            if self.gate_goals:
                self._check_gates(node, n, local, pushes)
            if self.record is not None and time <= self.limit:
                self._note(x, y, time)
            self._push(node, -1)

    def _check_gates(self, node: _Node, parent: _Node, local: list[tuple[float, float]], pushes: list[tuple[str, float, float]]) -> None:
        p = self.p
        reach = p.reach + len(pushes) + 0.01
        for goal in self.gate_goals:
            if goal not in self.open_goals:
                continue
            a, b, one_way = p.gates[goal]
            if _segment_distance(parent.x, parent.y, a, b) > reach:
                continue
            path = [(parent.x + px, parent.y + py) for px, py in local] + [(px, py) for _, px, py in pushes]
            if path_crosses(path, a, b, one_way):
                self._push(node, self.goals.index(goal))


def _segment_distance(x: float, y: float, a: tuple[float, float], b: tuple[float, float]) -> float:
    ax, ay = a
    bx, by = b
    vx, vy = bx - ax, by - ay
    L2 = vx * vx + vy * vy
    t = 0.0 if L2 == 0 else max(0.0, min(1.0, ((x - ax) * vx + (y - ay) * vy) / L2))
    return math.hypot(x - ax - t * vx, y - ay - t * vy)
