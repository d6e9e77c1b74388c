"""Car Wars fairness metrics: per-start numbers and the Issues where starts differ by more than
the scenario's tolerances.

* travel (both policies, :mod:`engine.carwars.planner`): time and driving-roll dice from every
  start to the checkpoint cards (nearest, mean, its own-colour one), to the centre and to the
  nearest other start; whether every card can be reached at all;
* exposure: hazard dice and the mean terrain level within ``exposure_radius`` of each start;
* sightlines: how many other starts each start sees, and the partial cover between them.

Codes: ``cw-start-access``, ``cw-centre-access``, ``cw-start-spacing`` (warnings),
``cw-card-reach`` (error when a card is proven unreachable, info when undecided or beyond the
horizon), ``cw-exposure``, ``cw-sightlines`` (warnings).

>>> from schema.games.carwars import default_arena
>>> fairness_checks(default_arena())
[]
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Literal

import shapely
from shapely.geometry import Point as ShapelyPoint

from engine.budget import AnalysisStopped
from engine.carwars.geometry import CarWarsGeometry
from engine.carwars.issues import Issue, fmt
from engine.carwars.motion import Pose, car_rectangle
from engine.carwars.planner import Planner
from engine.carwars.rules import POLICIES, Policy
from engine.carwars.sight import Car, SightModel
from engine.carwars.symmetry import Symmetry, symmetries
from engine.carwars.travel import Goal, PlanningError, SearchLimits, StartSource, TravelResult
from schema.games.carwars import CarWarsArena


@dataclass
class TravelTable:
    """``results[policy][start id][goal ref]``; ``errors[start id]`` when a start cannot move."""

    results: dict[str, dict[str, dict[str, TravelResult]]] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)

    def get(self, policy: str, start: str, goal: str) -> TravelResult | None:
        return self.results.get(policy, {}).get(start, {}).get(goal)


def travel_table(arena: CarWarsArena, policies: tuple[Policy, ...] = POLICIES, limits: SearchLimits = SearchLimits(),
                 geometry: CarWarsGeometry | None = None, use_symmetry: bool = True, workers: int = 1) -> TravelTable:
    """Every start's travel to every card, the centre and the other starts, per policy.  With
    ``use_symmetry`` the arena's exact symmetries (:mod:`engine.carwars.symmetry`) carry one
    start's answers to the starts it maps onto instead of planning again; ``workers`` > 1 runs
    the searches in that many forked processes (POSIX)."""
    g = geometry if geometry is not None else CarWarsGeometry(arena)
    jobs, images = travel_jobs(arena, policies, use_symmetry, split=workers > 1)
    global _JOB_CONTEXT
    _JOB_CONTEXT = (arena, g, limits)
    try:
        if workers > 1 and len(jobs) > 1:
            import multiprocessing  # noqa: PLC0415 - only where processes are started
            from concurrent.futures import ProcessPoolExecutor  # noqa: PLC0415

            ctx = multiprocessing.get_context("fork")
            with ProcessPoolExecutor(max_workers=min(workers, len(jobs)), mp_context=ctx) as pool:
                answers = list(pool.map(_job, jobs))
        else:
            answers = [_job(j) for j in jobs]
    finally:
        _JOB_CONTEXT = None
        _PLANNERS.clear()
    return assemble(arena, policies, images, dict(zip(jobs, answers)))


Part = Literal["all", "cards", "starts"]
Job = tuple[Policy, int, Part]
Answer = dict[str, TravelResult] | str
Images = dict[int, tuple[int, Symmetry | None]]


def travel_jobs(arena: CarWarsArena, policies: tuple[Policy, ...] = POLICIES, use_symmetry: bool = True,
                split: bool = False) -> tuple[list[Job], Images]:
    """The (policy, player, part) searches a travel table needs, and per player the start whose
    answers it takes (itself, or another through a symmetry).  With ``split`` the flat-out
    search of a start is two jobs (cards and centre; other starts) that run side by side."""
    starts = sorted(arena.start_positions, key=lambda s: s.player)
    images: Images = {s.player: (s.player, None) for s in starts}
    if use_symmetry and len(starts) > 1:
        for t in symmetries(arena):
            for s in starts:
                rep, _ = images[s.player]
                target = t.starts[rep]
                if (target != rep and images[target][1] is None and images[target][0] == target and target > rep
                        and not any(r == target and sym is not None for r, sym in images.values())):
                    images[target] = (rep, t)  # a start others take their answers from stays searched
    parts: dict[Policy, tuple[Part, ...]] = {"safe": ("all",), "flat-out": ("cards", "starts") if split else ("all",)}
    jobs: list[Job] = [(policy, s.player, part) for policy in policies for s in starts if images[s.player][1] is None
                       for part in parts[policy]]
    return jobs, images


def assemble(arena: CarWarsArena, policies: tuple[Policy, ...], images: Images, done: dict[Job, Answer]) -> TravelTable:
    """The table from the searches' answers (mapped through the symmetries)."""
    merged: dict[tuple[Policy, int], Answer] = {}
    for (policy, player, _), answer in done.items():
        have = merged.get((policy, player))
        if isinstance(answer, str) or have is None:
            merged[(policy, player)] = answer
        elif not isinstance(have, str):
            merged[(policy, player)] = {**have, **answer}
    table = TravelTable()
    for policy in policies:
        rows: dict[str, dict[str, TravelResult]] = {}
        for s in sorted(arena.start_positions, key=lambda s: s.player):
            rep, sym = images[s.player]
            got = merged[(policy, rep)]
            if isinstance(got, str):
                table.errors[s.id] = got
            elif sym is None:
                rows[s.id] = got
            else:
                rows[s.id] = {_map_ref(ref, sym): map_result(r, sym) for ref, r in got.items()}
        table.results[policy] = rows
    return table


def set_job_context(arena: CarWarsArena | None, geometry: CarWarsGeometry | None = None,
                    limits: SearchLimits = SearchLimits()) -> None:
    """What :func:`run_job` plans on (set it before forking workers)."""
    global _JOB_CONTEXT
    _PLANNERS.clear()
    _JOB_CONTEXT = None if arena is None else (arena, geometry or CarWarsGeometry(arena), limits)


_JOB_CONTEXT: tuple[CarWarsArena, CarWarsGeometry, SearchLimits] | None = None
_PLANNERS: dict[tuple[int, str], Planner] = {}


def run_job(job: Job) -> Answer:
    """One start's travel under one policy, in the context :func:`set_job_context` set (here or
    in a forked worker)."""
    return _job(job)


def run_jobs(jobs: list[Job]) -> list[Answer]:
    """Several jobs in order, in one process (a policy's planner is set up once)."""
    return [_job(j) for j in jobs]


#: Rough relative costs for :func:`lanes` (measured on the shipped arenas): one search per
#: policy, a policy's planner set-up in a process (sweeps, clearance graph, bound tables), and
#: the checks this process runs before its share of the searches.
_JOB_COST: dict[str, float] = {"flat-out": 1.3, "safe": 1.0}
_SETUP_COST: dict[str, float] = {"flat-out": 0.75, "safe": 0.45}
_CHECKS_COST = 0.45


def _lane_cost(lane: list[Job], here: bool) -> float:
    setup = sum(_SETUP_COST.get(p, 0.5) for p in {j[0] for j in lane})
    return (_CHECKS_COST if here else 0.0) + setup + sum(_JOB_COST.get(j[0], 1.0) for j in lane)


def _makespan(plan: list[list[Job]]) -> float:
    return max(_lane_cost(lane, i == 0) for i, lane in enumerate(plan))


def _assign(groups: list[list[Job]], n: int) -> list[list[Job]]:
    """Groups longest first, each to the lane that finishes it soonest."""
    out: list[list[Job]] = [[] for _ in range(n)]
    for group in sorted(groups, key=lambda g: -_lane_cost(g, False)):
        best = min(range(n), key=lambda i: (_lane_cost(out[i] + group, i == 0), i))
        out[best] += group
    return out


def lanes(jobs: list[Job], workers: int) -> list[list[Job]]:
    """Jobs shared among ``workers`` processes: lane 0 is this process (which runs the other
    checks first), the others are forked.  The better (by estimated finish) of two plans: one
    lane per policy's jobs, or each job to the lane that finishes it soonest (a policy's
    set-up counted once per lane).  Empty lanes are dropped, so one worker forks nothing."""
    n = max(1, workers)
    by_policy: dict[str, list[Job]] = {}
    for j in jobs:
        by_policy.setdefault(j[0], []).append(j)
    plans = [_assign(list(by_policy.values()), n), _assign([[j] for j in jobs], n)]
    best = min(plans, key=_makespan)
    return [best[0]] + [lane for lane in best[1:] if lane]


def _job(job: Job) -> Answer:
    assert _JOB_CONTEXT is not None
    arena, g, limits = _JOB_CONTEXT
    policy, player, part = job
    if any(p.geometry is not g for p in _PLANNERS.values()):
        _PLANNERS.clear()
    key = (id(g), policy)
    planner = _PLANNERS.get(key)
    if planner is None:
        try:
            planner = _PLANNERS[key] = Planner(arena, policy, geometry=g, limits=limits)
        except AnalysisStopped as exc:  # the analysis's caps (engine.budget) during the set-up
            return {goal.ref: TravelResult(goal, "undecided", horizon=0.0, undecided=exc.reason)
                    for goal in travel_goals(arena, policy, player, part)}
    res = plan_start(planner, player, part)
    return res if isinstance(res, str) else {goal.ref: r for goal, r in res.items()}


def travel_goals(arena: CarWarsArena, policy: Policy, player: int, part: Part = "all") -> list[Goal]:
    """What the fairness metrics ask of a start: flat-out, every card, the centre and the other
    starts; safe, the checkpoints and the centre."""
    if policy == "safe":
        return [Goal("card", c.id) for c in arena.cards if c.role == "checkpoint"] + [Goal("centre")]
    cards = [Goal("card", c.id) for c in arena.cards] + [Goal("centre")]
    starts = [Goal("start", o.id) for o in arena.start_positions if o.player != player]
    return cards if part == "cards" else starts if part == "starts" else cards + starts


def plan_start(planner: Planner, player: int, part: Part = "all") -> dict[Goal, TravelResult] | str:
    try:
        return planner.plan_many(StartSource(player), travel_goals(planner.arena, planner.policy, player, part))
    except PlanningError as exc:
        return str(exc)


def _map_ref(ref: str, t: Symmetry) -> str:
    if ref.startswith("card:"):
        return "card:" + t.cards[ref[5:]]
    if ref.startswith("start:"):
        return f"start:{t.starts[int(ref[6:])]}"
    return ref


def map_result(r: TravelResult, t: Symmetry) -> TravelResult:
    """``r`` carried by ``t``: its goal's image, its path turned or mirrored (left and right
    swapped in a mirror's maneuver names)."""
    goal = Goal.parse(_map_ref(r.goal.ref, t))
    path = []
    for st in r.path:
        x, y = t.point(st.x, st.y)
        label = st.maneuver
        if t.mirror:
            label = label.replace("left", "LEFT").replace("right", "left").replace("LEFT", "right")
        path.append(replace(st, x=x, y=y, heading=t.heading(st.heading), maneuver=label))
    return replace(r, goal=goal, path=tuple(path))


def _time(r: TravelResult | None) -> float:
    return r.time if r is not None and r.reachable else math.inf


def _dice(r: TravelResult | None) -> int | None:
    return r.dice if r is not None and r.reachable else None


def _checkpoints(arena: CarWarsArena) -> list[str]:
    return [f"card:{c.id}" for c in arena.cards if c.role == "checkpoint"]


def start_metrics(arena: CarWarsArena, table: TravelTable) -> dict[str, dict[str, Any]]:
    """Per start and policy: nearest checkpoint (card, time, dice), mean checkpoint time, own
    checkpoint time and dice, centre time and dice, nearest other start (time)."""
    cps = _checkpoints(arena)
    own = {c.owner: f"card:{c.id}" for c in arena.cards if c.role == "checkpoint" and c.owner is not None}
    out: dict[str, dict[str, Any]] = {}
    for policy, rows in table.results.items():
        for sid, row in rows.items():
            m: dict[str, Any] = {}
            times = {c: _time(row.get(c)) for c in cps}
            finite = [t for t in times.values() if math.isfinite(t)]
            if finite:
                near = min(times, key=times.__getitem__)
                m.update(nearest=near, nearest_time=times[near], nearest_dice=_dice(row.get(near)),
                         mean_time=round(sum(finite) / len(finite), 4))
            player = int(sid.split(":")[1])
            if player in own:
                r = row.get(own[player])
                m.update(own=own[player], own_time=_time(r), own_dice=_dice(r))
            c = row.get("centre")
            m.update(centre_time=_time(c), centre_dice=_dice(c))
            others = {k: _time(v) for k, v in row.items() if k.startswith("start:")}
            if others:
                k = min(others, key=others.__getitem__)
                m.update(nearest_start=k, nearest_start_time=others[k])
            out.setdefault(sid, {})[policy] = m
    return out


def _spread(code: str, what: str, rows: dict[str, float], tol: float, unit: str, extra: str = "",
            dice: dict[str, int | None] | None = None, dice_tol: int | None = None, verb: str = "needs") -> list[Issue]:
    finite = {k: v for k, v in rows.items() if math.isfinite(v)}
    out: list[Issue] = []
    if len(finite) >= 2:
        lo, hi = min(finite, key=finite.__getitem__), max(finite, key=finite.__getitem__)
        gap = finite[hi] - finite[lo]
        if gap > tol + 1e-9:
            out.append(Issue(code, "warning",
                             f"{hi} {verb} {fmt(finite[hi])} {unit} {what}, {lo} only {fmt(finite[lo])} ({fmt(gap)} more; "
                             f"tolerance {fmt(tol)}){extra}", (hi, lo), {"values": finite, "difference": round(gap, 4)}))
    if dice is not None and dice_tol is not None:
        known = {k: v for k, v in dice.items() if v is not None}
        if len(known) >= 2:
            lo, hi = min(known, key=known.__getitem__), max(known, key=known.__getitem__)
            gap = int(known[hi] or 0) - int(known[lo] or 0)
            if gap > dice_tol:
                out.append(Issue(code, "warning",
                                 f"{hi} rolls {known[hi]} dice {what}, {lo} only {known[lo]} ({gap} more; tolerance "
                                 f"{dice_tol}){extra}", (hi, lo), {"dice": known, "difference": gap}))
    return out


def check_start_access(arena: CarWarsArena, table: TravelTable) -> list[Issue]:
    """Every start equally far (time, dice) from the checkpoints: the nearest, the mean and
    each player's own-colour checkpoint."""
    an = arena.scenario.analysis
    metrics = start_metrics(arena, table)
    out: list[Issue] = []
    for policy in table.results:
        rows = {s: m[policy] for s, m in metrics.items() if policy in m}
        tag = f" ({policy})"
        near = {s: m["nearest_time"] for s, m in rows.items() if "nearest_time" in m}
        out += _spread("cw-start-access", "to reach its nearest checkpoint", near, an.travel_time_tolerance, "turns", tag,
                       {s: m.get("nearest_dice") for s, m in rows.items() if "nearest_time" in m}, an.travel_dice_tolerance)
        mean = {s: m["mean_time"] for s, m in rows.items() if "mean_time" in m}
        out += _spread("cw-start-access", "on average to reach a checkpoint", mean, an.travel_time_tolerance, "turns", tag)
        own = {s: m["own_time"] for s, m in rows.items() if "own_time" in m}
        out += _spread("cw-start-access", "to reach its own-colour checkpoint", own, an.travel_time_tolerance, "turns", tag,
                       {s: m.get("own_dice") for s, m in rows.items() if "own_time" in m}, an.travel_dice_tolerance)
    return out


def check_centre_access(arena: CarWarsArena, table: TravelTable) -> list[Issue]:
    an = arena.scenario.analysis
    metrics = start_metrics(arena, table)
    out: list[Issue] = []
    for policy in table.results:
        rows = {s: m[policy] for s, m in metrics.items() if policy in m}
        out += _spread("cw-centre-access", "to reach the centre", {s: m["centre_time"] for s, m in rows.items()},
                       an.travel_time_tolerance, "turns", f" ({policy})",
                       {s: m["centre_dice"] for s, m in rows.items()}, an.travel_dice_tolerance)
    return out


def check_start_spacing(arena: CarWarsArena, table: TravelTable) -> list[Issue]:
    """Starts equally far, in travel time, from their nearest other start (flat-out)."""
    an = arena.scenario.analysis
    metrics = start_metrics(arena, table)
    rows = {s: m["flat-out"]["nearest_start_time"] for s, m in metrics.items()
            if "flat-out" in m and "nearest_start_time" in m["flat-out"]}
    return _spread("cw-start-spacing", "to reach its nearest rival's start", rows, an.travel_time_tolerance, "turns",
                   " (flat-out)")


def check_card_reach(arena: CarWarsArena, table: TravelTable) -> list[Issue]:
    """Every card can be reached from every start (flat-out: every legal move)."""
    out: list[Issue] = []
    rows = table.results.get("flat-out", {})
    for c in arena.cards:
        for sid, row in sorted(rows.items()):
            r = row.get(f"card:{c.id}")
            if r is None or r.reachable:
                continue
            if r.status == "unreachable":
                out.append(Issue("cw-card-reach", "error",
                                 f"no car starting at {sid} can reach card {c.id} without a collision", (c.id, sid),
                                 {"status": r.status}))
            else:
                why = f"beyond {fmt(r.horizon or 0)} turns" if r.status == "beyond" else f"undecided ({r.undecided})"
                out.append(Issue("cw-card-reach", "info", f"card {c.id} from {sid}: {why}", (c.id, sid),
                                 {"status": r.status, "horizon": r.horizon}))
    for sid, err in sorted(table.errors.items()):
        out.append(Issue("cw-card-reach", "info", f"{sid} cannot move: {err}", (sid,), {}))
    return out


def exposure(arena: CarWarsArena) -> dict[str, dict[str, float]]:
    """Per start: the hazard dice within ``exposure_radius`` of its car and the mean terrain
    level over the part of the arena within that radius of its centre."""
    an = arena.scenario.analysis
    bounds = arena.bounds_geometry()
    hazards = [(h.shape.to_shapely(), h.dice) for h in arena.hazards if h.drive_over]
    hazards += [(c.shape.to_shapely(), c.dice) for c in arena.cards if c.role == "hidden-hazard"]
    levels = {lv: shapely.union_all([t.shape.to_shapely() for t in arena.terrain if t.level >= lv]) for lv in (1, 2, 3)}
    out: dict[str, dict[str, float]] = {}
    for s in arena.start_positions:
        car = car_rectangle(Pose(s.position[0], s.position[1], s.facing), arena.vehicle)
        dice = sum(d for g, d in hazards if g.distance(car) <= an.exposure_radius)
        disc = shapely.intersection(ShapelyPoint(s.position).buffer(an.exposure_radius, quad_segs=16), bounds)
        area = disc.area
        level = sum(shapely.intersection(g, disc).area for g in levels.values() if not g.is_empty) / area if area > 0 else 0.0
        out[s.id] = {"hazard_dice": float(dice), "terrain": round(level, 4)}
    return out


def check_exposure(arena: CarWarsArena, measured: dict[str, dict[str, Any]] | None = None) -> list[Issue]:
    """``cw-exposure`` from :func:`exposure` (``measured``: its result, when already computed)."""
    an = arena.scenario.analysis
    ex = exposure(arena) if measured is None else measured
    extra = f" within {fmt(an.exposure_radius)} in of the start"
    out = _spread("cw-exposure", "of hazard cards" + extra, {k: v["hazard_dice"] for k, v in ex.items()},
                  float(an.exposure_dice_tolerance), "dice", verb="has")
    out += _spread("cw-exposure", "as the mean terrain level" + extra, {k: v["terrain"] for k, v in ex.items()},
                   an.exposure_terrain_tolerance, "", verb="has")
    return out


def sightlines(arena: CarWarsArena) -> dict[str, dict[str, Any]]:
    """Per start: the other starts it sees (full cover blocks) and, per visible one, the
    partial-cover obstacles between them (other starting cars count: "Cars ... provide partial
    cover")."""
    starts = sorted(arena.start_positions, key=lambda s: s.player)
    poses = {s.id: Pose(s.position[0], s.position[1], s.facing) for s in starts}
    model = SightModel(arena, tuple(poses.items()))
    out: dict[str, dict[str, Any]] = {s.id: {"sees": [], "cover": {}} for s in starts}
    for i, a in enumerate(starts):
        for b in starts[i + 1:]:
            r = model.look(Car(poses[a.id]), Car(poses[b.id]), exclude=(a.id, b.id))
            if r.visible:
                for x, y in ((a.id, b.id), (b.id, a.id)):
                    out[x]["sees"].append(y)
                    out[x]["cover"][y] = list(r.partial)
    return out


def check_sightlines(arena: CarWarsArena, measured: dict[str, dict[str, Any]] | None = None) -> list[Issue]:
    """``cw-sightlines`` from :func:`sightlines` (``measured``: its result, when already computed)."""
    an = arena.scenario.analysis
    sl = sightlines(arena) if measured is None else measured
    out = _spread("cw-sightlines", "to other starts (full cover blocks the rest)",
                  {k: float(len(v["sees"])) for k, v in sl.items()}, float(an.sight_tolerance), "sightlines", verb="has")
    out += _spread("cw-sightlines", "of partial cover between it and the starts it sees",
                   {k: float(sum(len(c) for c in v["cover"].values())) for k, v in sl.items()},
                   float(an.sight_tolerance), "obstacles", verb="has")
    return out


TRAVEL_CHECKS: dict[str, Callable[[CarWarsArena, TravelTable], list[Issue]]] = {
    "cw-start-access": check_start_access,
    "cw-centre-access": check_centre_access,
    "cw-start-spacing": check_start_spacing,
    "cw-card-reach": check_card_reach,
}
OTHER_CHECKS: dict[str, Callable[[CarWarsArena], list[Issue]]] = {
    "cw-exposure": check_exposure,
    "cw-sightlines": check_sightlines,
}


def fairness_checks(arena: CarWarsArena, table: TravelTable | None = None) -> list[Issue]:
    """Every fairness check not disabled in the scenario's analysis."""
    disabled = set(arena.scenario.analysis.disabled)
    out: list[Issue] = []
    if any(code not in disabled for code in TRAVEL_CHECKS) and len(arena.start_positions) > 0:
        table = table if table is not None else travel_table(arena)
        for code, check in TRAVEL_CHECKS.items():
            if code not in disabled:
                out += check(arena, table)
    for code, other in OTHER_CHECKS.items():
        if code not in disabled:
            out += other(arena)
    return out
