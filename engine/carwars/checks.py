"""Car Wars setup checks (Arena Setup, Starting Positions, Components) as pure functions
``check_<name>(arena) -> list[Issue]``; every message quotes the book's few words.

Codes: ``cw-arena-size`` (warning), ``cw-corner-angle`` (error), ``cw-wall-gap`` (error),
``cw-start-key`` (error), ``cw-start-spread`` (warning), ``cw-components`` (warning),
``cw-own-checkpoint`` (warning), ``cw-game-size`` (error: a damage deck the build points rule out;
warning: a game size that leaves a budget undecided).

>>> from schema.games.carwars import default_arena
>>> setup_checks(default_arena())
[]
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np
import shapely
import scipy.sparse
from scipy.sparse.csgraph import connected_components
from shapely.geometry.base import BaseGeometry
from shapely.geometry.polygon import orient

from engine import budget as caps
from engine.neighbours import RadiusIndex
from engine.carwars.issues import Issue, fmt
from engine.carwars.keys import KeyPlacement, placement_obstacles, start_key, start_keys
from schema.games.carwars import SMALL_GAME_BP, CarWarsArena

#: Degrees by which a corner may fall short of 90 before cw-corner-angle reports it.
ANGLE_TOLERANCE = 0.5
#: Gaps narrower than this (inches) are walls touching, not gaps.
TOUCH = 1e-6
#: Boundary sampling step for cw-wall-gap, in car lengths.
GAP_SAMPLE = 1.0 / 30.0
#: Candidate pairs of boundary samples :func:`wall_gaps` holds at once, and about the bytes each
#: costs while a block is filtered (its indices, width, ways round, masks).
PAIR_BLOCK = 1_000_000
PAIR_BYTES = 120

ARENA_SETUP = "Designate a flat, smooth, playing area, roughly 3 feet per side"
CORNERS = "Corners of walls must be 90 degrees or more – no acute angles."
GAPS = "Gaps between walls must be at least one turning key (2 car lengths) long."
START = ("Place the turning key against the arena edge and then position the car in any orientation, so long as "
         "some part of the base is touching the turning key.")
EVENLY = "Players should be positioned evenly around the arena"
OWN = "you can't fire a weapon until you cross the checkpoint of your own color"

#: The boxed sets' arena pieces (Components): car bases, barrel, barrier and wreck tokens,
#: hazard cards and the four numbered cards.
BOX: dict[str, dict[str, int]] = {
    "2-player": {"car bases": 2, "barrel tokens": 2, "barrier tokens": 2, "wreck tokens": 2, "hazard cards": 14},
    "4-player": {"car bases": 4, "barrel tokens": 4, "barrier tokens": 4, "wreck tokens": 4, "hazard cards": 14},
}


def wall_geometries(arena: CarWarsArena) -> list[tuple[str, BaseGeometry]]:
    """Everything that is a wall: the walls, and obstacles and tokens of weight ``wall``."""
    out = [(w.id, w.shape.to_shapely()) for w in arena.walls]
    out += [(o.id, o.shape.to_shapely()) for o in arena.obstacles if o.weight == "wall"]
    out += [(t.id, t.shape.to_shapely()) for t in arena.tokens if t.weight == "wall"]
    return out


def free_region(arena: CarWarsArena) -> BaseGeometry:
    """The driving area: the bounds minus the walls."""
    walls = [g for _, g in wall_geometries(arena)]
    b = arena.bounds_geometry()
    return shapely.difference(b, shapely.union_all(walls)) if walls else b


def _who(point: tuple[float, float], arena: CarWarsArena, walls: list[tuple[str, BaseGeometry]], tol: float) -> list[str]:
    p = shapely.Point(point)
    out = [i for i, g in walls if g.distance(p) <= tol]
    if arena.bounds_geometry().exterior.distance(p) <= tol:
        out.append("bounds")
    return out


# ------------------------------------------------------------------ arena size


def check_arena_size(arena: CarWarsArena) -> list[Issue]:
    an = arena.scenario.analysis
    rect = arena.bounds_geometry().minimum_rotated_rectangle
    c = np.asarray(rect.exterior.coords)
    sides = sorted((float(np.hypot(*(c[1] - c[0]))), float(np.hypot(*(c[2] - c[1])))))
    off = [s for s in sides if abs(s - an.arena_size) > an.arena_size_tolerance + 1e-9]
    if not off:
        return []
    return [Issue("cw-arena-size", "warning",
                  f"the arena is {fmt(sides[1])} x {fmt(sides[0])} in; the book asks for \"{ARENA_SETUP}\" "
                  f"({fmt(an.arena_size)} in, tolerance {fmt(an.arena_size_tolerance)} in)",
                  ("bounds",), {"sides": [round(s, 3) for s in sides], "size": an.arena_size})]


# ------------------------------------------------------------------ corners


def corner_angles(region: BaseGeometry) -> list[tuple[tuple[float, float], float]]:
    """Every vertex of the region's boundary with the angle (degrees) on the region's side."""
    out: list[tuple[tuple[float, float], float]] = []
    for poly in shapely.get_parts(region):
        if poly.geom_type != "Polygon" or poly.is_empty:
            continue
        poly = orient(poly, 1.0)
        for ring in [poly.exterior, *poly.interiors]:
            c = np.asarray(ring.coords)[:-1]
            n = len(c)
            for i in range(n):
                a, v, b = c[i - 1], c[i], c[(i + 1) % n]
                e1, e2 = v - a, b - v
                if np.hypot(*e1) < 1e-12 or np.hypot(*e2) < 1e-12:
                    continue
                turn = math.degrees(math.atan2(e1[0] * e2[1] - e1[1] * e2[0], float(e1 @ e2)))
                angle = 180.0 - turn
                if abs(angle - 180.0) > 1e-6:
                    out.append(((float(v[0]), float(v[1])), angle))
    return out


def check_corner_angle(arena: CarWarsArena) -> list[Issue]:
    """Every corner of the driving area (walls and the arena edge, where they meet too) is
    90 degrees or more on the side the cars drive."""
    walls = wall_geometries(arena)
    out = []
    for (x, y), angle in corner_angles(free_region(arena)):
        if angle < 90.0 - ANGLE_TOLERANCE:
            who = _who((x, y), arena, walls, 1e-6)
            out.append(Issue("cw-corner-angle", "error",
                             f"a corner of {' and '.join(who) or 'the walls'} at ({fmt(x)}, {fmt(y)}) is {fmt(angle)} degrees "
                             f"on the driving side: \"{CORNERS}\"", tuple(who), {"point": [x, y], "angle": round(angle, 3)}))
    return out


# ------------------------------------------------------------------ gaps


@dataclass(frozen=True)
class Gap:
    """A narrow place between walls: the segment across it and its width."""

    start: tuple[float, float]
    end: tuple[float, float]
    width: float
    elements: tuple[str, ...]


def _driven_parts(arena: CarWarsArena, region: BaseGeometry) -> BaseGeometry:
    """The parts of the driving area a car can be in: every part holding a start (a wall may
    split the arena), or the largest part when no start lies in any."""
    parts = [p for p in shapely.get_parts(region) if not p.is_empty]
    if not parts:
        return region
    points = [shapely.Point(s.position) for s in arena.start_positions]
    held = [p for p in parts if any(p.covers(pt) for pt in points)]
    return shapely.union_all(held) if held else max(parts, key=lambda p: p.area)


def wall_gaps(arena: CarWarsArena) -> list[Gap]:
    """Every gap narrower than one turning key between two walls (or a wall and the edge) that
    opens on the driving area: pairs of boundary points closer than a key across open
    ground, whose way round along the boundary is more than twice as long (so not the two
    sides of one corner), clustered, narrowest first."""
    v = arena.vehicle
    key = v.key_length
    region = free_region(arena)
    driven = _driven_parts(arena, region)
    step = GAP_SAMPLE * v.length
    pts, ring_id, pos, ring_len = [], [], [], []
    for r, ring in enumerate(ring for p in shapely.get_parts(region) if p.geom_type == "Polygon"
                             for ring in (p.exterior, *p.interiors)):
        length = ring.length
        n = max(4, int(math.ceil(length / step)))
        s = np.linspace(0.0, length, n, endpoint=False)
        pts.append(shapely.get_coordinates(shapely.line_interpolate_point(ring, s)))
        ring_id.append(np.full(n, r))
        pos.append(s)
        ring_len.append(np.full(n, length))
    if not pts:
        return []
    P = np.concatenate(pts)
    R = np.concatenate(ring_id)
    S = np.concatenate(pos)
    RL = np.concatenate(ring_len)
    acute = np.array([p for p, angle in corner_angles(region) if angle < 90.0 - ANGLE_TOLERANCE]).reshape(-1, 2)
    i, j, d = _narrow_pairs(P, R, S, RL, key, step, acute, driven.buffer(1e-6))
    if len(i) == 0:
        return []
    # one gap = the pairs whose two ends each lie within two samples of another pair's ends
    a_first = (R[i] < R[j]) | ((R[i] == R[j]) & (S[i] <= S[j]))
    lo = np.where(a_first, i, j)
    hi = np.where(a_first, j, i)
    quad = np.hstack([P[lo], P[hi]])
    links = RadiusIndex(quad, 2.0 * step * math.sqrt(2.0) + 1e-9).pairs_below()
    n = len(quad)
    graph = scipy.sparse.coo_matrix((np.ones(len(links)), (links[:, 0], links[:, 1])) if len(links) else
                                    (np.zeros(0), (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))), shape=(n, n))
    _, label = connected_components(graph, directed=False)
    walls = wall_geometries(arena)
    gaps: list[Gap] = []
    for comp in np.unique(label):
        caps.tick()
        members = np.flatnonzero(label == comp)
        k = int(members[np.argmin(d[members])])
        pa, pb = (float(P[lo[k], 0]), float(P[lo[k], 1])), (float(P[hi[k], 0]), float(P[hi[k], 1]))
        who = sorted(set(_who(pa, arena, walls, step) + _who(pb, arena, walls, step)))
        gaps.append(Gap(pa, pb, float(d[k]), tuple(who)))
    gaps.sort(key=lambda g: g.width)
    return gaps


def _narrow_pairs(P: np.ndarray, R: np.ndarray, S: np.ndarray, RL: np.ndarray, key: float, step: float,
                  acute: np.ndarray, driven: BaseGeometry) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The pairs ``(i, j)`` (``i < j``, in that order) of boundary samples closer than a key,
    across open ground, whose way round along the boundary (same ring ``R``, at ``S`` along a
    ring ``RL`` long) is more than twice as long, not both near an ``acute`` corner, and their
    widths.  Taken a block of samples at a time, each block's candidate pairs at most
    :data:`PAIR_BLOCK` (a dense arena has hundreds of millions: one query of them all held
    gigabytes), with the analysis's caps looked at before each block."""
    tree = RadiusIndex(P, key - 1e-9)
    within = tree.counts(PAIR_BLOCK)
    ends = np.cumsum(within)
    out_i, out_j, out_d = [], [], []
    lo = 0
    while lo < len(P):
        hi = max(lo + 1, int(np.searchsorted(ends, ends[lo] - within[lo] + PAIR_BLOCK, side="right")))
        caps.tick()
        caps.reserve(int(ends[hi - 1] - ends[lo] + within[lo]) * PAIR_BYTES / 2**20)
        i, j = tree.pairs(np.arange(lo, hi, dtype=np.int64))
        later = j > i
        i, j = i[later], j[later]
        d = np.hypot(*(P[i] - P[j]).T)
        along = np.abs(S[i] - S[j])
        along = np.minimum(along, RL[i] - along)
        keep = ((R[i] != R[j]) | (along > 2.0 * d + 2.0 * step)) & (d > TOUCH)
        # the two sides of an acute corner are cw-corner-angle's business, not a gap
        for corner in acute:
            keep &= ~((np.hypot(*(P[i] - corner).T) < key) & (np.hypot(*(P[j] - corner).T) < key))
        i, j, d = i[keep], j[keep], d[keep]
        if len(i):
            ok = shapely.covered_by(shapely.linestrings(np.stack([P[i], P[j]], axis=1)), driven)
            out_i.append(i[ok])
            out_j.append(j[ok])
            out_d.append(d[ok])
        lo = hi
    if not out_i:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, np.zeros(0)
    return np.concatenate(out_i), np.concatenate(out_j), np.concatenate(out_d)


def check_wall_gap(arena: CarWarsArena) -> list[Issue]:
    key = arena.vehicle.key_length
    return [Issue("cw-wall-gap", "error",
                  f"the gap between {' and '.join(g.elements) or 'the walls'} is {fmt(g.width)} in, under one turning key "
                  f"({fmt(key)} in): \"{GAPS}\"", g.elements,
                  {"width": round(g.width, 3), "key": key, "segment": [list(g.start), list(g.end)]})
            for g in wall_gaps(arena)]


# ------------------------------------------------------------------ start positions


def check_start_key(arena: CarWarsArena) -> list[Issue]:
    """Every start's car touches a turning key against the arena edge (how the key may lie:
    :mod:`engine.carwars.keys`)."""
    out = []
    for s in arena.start_positions:
        k = start_key(arena, s.player)
        if k.polygon is None:
            out.append(Issue("cw-start-key", "error", f"start {s.player}: {k.reason}: \"{START}\"",
                             (s.id, *k.overlaps), {"gap": None if math.isinf(k.gap) else round(k.gap, 3)}))
    return out


def check_start_spread(arena: CarWarsArena) -> list[Issue]:
    """Starts spread evenly: equal angles about the centre, equal distances to the nearest
    other start (the book's only words are about seating: "Players should be positioned
    evenly around the arena")."""
    starts = sorted(arena.start_positions, key=lambda s: s.player)
    if len(starts) < 2:
        return []
    an = arena.scenario.analysis
    cx, cy = arena.centre()
    ang = {s.player: math.degrees(math.atan2(s.position[1] - cy, s.position[0] - cx)) % 360.0 for s in starts}
    order = sorted(starts, key=lambda s: ang[s.player])
    ideal = 360.0 / len(starts)
    out = []
    gaps = []
    for k, s in enumerate(order):
        nxt = order[(k + 1) % len(order)]
        g = (ang[nxt.player] - ang[s.player]) % 360.0 or (360.0 if len(order) == 1 else 0.0)
        gaps.append((s, nxt, g))
    worst = max(gaps, key=lambda t: abs(t[2] - ideal))
    if abs(worst[2] - ideal) > an.start_angle_tolerance + 1e-9:
        a, b, g = worst
        out.append(Issue("cw-start-spread", "warning",
                         f"starts {a.player} and {b.player} are {fmt(g)} degrees apart about the centre, not {fmt(ideal)} "
                         f"(tolerance {fmt(an.start_angle_tolerance)}): \"{EVENLY}\"", (a.id, b.id),
                         {"angles": {s.id: round(ang[s.player], 3) for s in starts}, "ideal": ideal}))
    near = {s.id: min(math.dist(s.position, o.position) for o in starts if o is not s) for s in starts}
    lo, hi = min(near, key=near.__getitem__), max(near, key=near.__getitem__)
    if near[hi] - near[lo] > an.start_distance_tolerance + 1e-9:
        out.append(Issue("cw-start-spread", "warning",
                         f"{lo} is {fmt(near[lo])} in from its nearest other start, {hi} {fmt(near[hi])} in (tolerance "
                         f"{fmt(an.start_distance_tolerance)} in): \"{EVENLY}\"", (lo, hi),
                         {"nearest": {k: round(v, 3) for k, v in near.items()}}))
    return out


# ------------------------------------------------------------------ components


def check_components(arena: CarWarsArena) -> list[Issue]:
    """More pieces than the boxed set holds (Components lists each set's contents)."""
    box = arena.box
    have = {
        "car bases": max(len(arena.start_positions), arena.players),
        "barrel tokens": sum(t.kind == "barrel" for t in arena.tokens),
        "barrier tokens": sum(t.kind == "barrier" for t in arena.tokens),
        "wreck tokens": sum(t.kind == "wreck" for t in arena.tokens),
        "hazard cards": len(arena.hazards),
    }
    out = []
    for what, n in have.items():
        limit = BOX[box][what]
        if n > limit:
            out.append(Issue("cw-components", "warning",
                             f"the arena uses {n} {what}; the {box.upper()} SET has \"{limit} {what}\"", (),
                             {"piece": what, "used": n, "box": limit}))
    numbers: dict[int, list[str]] = {}
    for c in arena.cards:
        numbers.setdefault(c.number, []).append(c.id)
    for number, ids in sorted(numbers.items()):
        if len(ids) > 1:
            out.append(Issue("cw-components", "warning",
                             f"card number {number} is used {len(ids)} times: \"There are also four cards numbered 0 through 3.\"",
                             tuple(ids), {"number": number, "used": len(ids)}))
    return out


def check_own_checkpoints(arena: CarWarsArena) -> list[Issue]:
    """Own-colour checkpoints: at most one per player, only for players in the game, and
    every player has one when any does."""
    players = sorted({s.player for s in arena.start_positions} | set(range(1, arena.players + 1)))
    own: dict[int, list[str]] = {}
    out = []
    for c in arena.cards:
        if c.owner is None:
            continue
        if c.role != "checkpoint":
            out.append(Issue("cw-own-checkpoint", "warning",
                             f"card {c.id} has an owner but is a {c.role}; an owner marks \"the checkpoint of your own color\"",
                             (c.id,), {"owner": c.owner}))
            continue
        own.setdefault(c.owner, []).append(c.id)
    for owner, ids in sorted(own.items()):
        if owner not in players:
            out.append(Issue("cw-own-checkpoint", "warning",
                             f"checkpoint {', '.join(ids)} belongs to player {owner}, who is not in the game: \"{OWN}\"",
                             tuple(ids), {"owner": owner}))
        elif len(ids) > 1:
            out.append(Issue("cw-own-checkpoint", "warning",
                             f"player {owner} has {len(ids)} own-colour checkpoints ({', '.join(ids)}); one each: \"{OWN}\"",
                             tuple(ids), {"owner": owner}))
    if own:
        missing = [p for p in players if p not in own]
        if missing:
            out.append(Issue("cw-own-checkpoint", "warning",
                             f"player{'s' if len(missing) > 1 else ''} {', '.join(map(str, missing))} "
                             f"{'have' if len(missing) > 1 else 'has'} no own-colour checkpoint while others do: \"{OWN}\"",
                             tuple(f"start:{p}" for p in missing), {"missing": missing}))
    return out


#: Game Size (L384, L394, L396).
DECIDE = "Players must decide how many armor points (AP), build points (BP), and crew points (CP) will be used."
SMALL_DECK = "For a small game using 24 BP or less, use damage deck A and return deck B to the box"
LARGE_DECK = "For a large game using 25 BP or more, use damage deck B, and return deck A to the box"
BUDGETS = {"armor_points": "armor points (AP)", "build_points": "build points (BP)", "crew_points": "crew points (CP)"}


def check_game_size(arena: CarWarsArena) -> list[Issue]:
    """``cw-game-size``: the scenario's damage deck is the one its build points call for (deck A
    for 24 BP or less, deck B for 25 BP or more: an error otherwise, a combination the book
    rules out), and a declared game size sets all three budgets (a warning names the missing).
    The game size has no bearing on the arena's geometry; the report states it."""
    sc = arena.scenario
    gs = sc.game_size
    out = []
    if gs is not None and gs.missing:
        names = [BUDGETS[n] for n in gs.missing]
        out.append(Issue("cw-game-size", "warning",
                         f"the game size sets no {' or '.join(names)}: \"{DECIDE}\"", (),
                         {"missing": list(gs.missing)}))
    bp = gs.build_points if gs is not None else None
    if sc.damage_deck is not None and bp is not None:
        wanted = "A" if bp <= SMALL_GAME_BP else "B"
        if sc.damage_deck != wanted:
            rule = SMALL_DECK if wanted == "A" else LARGE_DECK
            out.append(Issue("cw-game-size", "error",
                             f"the scenario plays damage deck {sc.damage_deck} in a "
                             f"{'small' if wanted == 'A' else 'large'} game of {bp} BP: \"{rule}\"", (),
                             {"damage_deck": sc.damage_deck, "build_points": bp, "expected": wanted}))
    return out


SETUP_CHECKS: dict[str, Callable[[CarWarsArena], list[Issue]]] = {
    "cw-arena-size": check_arena_size,
    "cw-corner-angle": check_corner_angle,
    "cw-wall-gap": check_wall_gap,
    "cw-start-key": check_start_key,
    "cw-start-spread": check_start_spread,
    "cw-components": check_components,
    "cw-own-checkpoint": check_own_checkpoints,
    "cw-game-size": check_game_size,
}


def setup_checks(arena: CarWarsArena) -> list[Issue]:
    """Every setup check not disabled in the scenario's analysis."""
    disabled = set(arena.scenario.analysis.disabled)
    return [i for code, check in SETUP_CHECKS.items() if code not in disabled for i in check(arena)]


__all__ = ["BOX", "Gap", "Issue", "KeyPlacement", "SETUP_CHECKS", "check_arena_size", "check_components",
           "check_corner_angle", "check_game_size", "check_own_checkpoints", "check_start_key", "check_start_spread", "check_wall_gap",
           "corner_angles", "free_region", "placement_obstacles", "setup_checks", "start_key", "start_keys",
           "wall_gaps"]
