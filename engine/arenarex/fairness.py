"""Arena Rex fairness: the deployment zones side by side, for every listed base size.

Per zone (its base centres on :meth:`~schema.games.arenarex.edges.Edge.centre_line`, placed
exactly on it by :meth:`~schema.games.arenarex.edges.Edge.positions`: on a circle board, on the
circle one base radius inside the rim):

* ``centre`` — the shortest walk (inches) to the board's centre (the nearest point a base may
  stand on, when a hazard covers it) and the moves it takes at MOV inches a move ("Move up to
  the model's MOV value in inches", L18): exact, by the visibility graph;
* ``zones`` — the shortest walk to each other zone (exact);
* ``hazards`` — the walk until the base is within melee range of each pit, patch of spikes and
  terrain hazard ("Models have a simple 1 melee range", L20), read from the distance field;
* ``kill_band`` — for one push and for up to ``pushes`` pushes, the area (square inches) where a
  base stands with a pit within that many pushes of its rim ("The defending model is pushed 1
  directly away from the attacking model", L24; "If any part of a model's base touches a Lethal
  Hazard ... that model is destroyed", L38) that a model of this zone reaches to attack within
  one activation: ``moves - 1`` moves (the last action is the attack) plus melee range;
* ``sight`` — the share of the other zones' base positions seen from this zone's, terrain hazards
  that block sight blocking (a product metric: "Line-of-sight rules aren t necessary", L20).

:func:`compare` flags differences between zones beyond the scenario's tolerances.
"""

from __future__ import annotations

import math
from functools import lru_cache
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely

from engine import budget as caps
from engine.arenarex.checks import edges
from engine.arenarex.issues import Issue, inches
from engine.arenarex.space import Field, Route, Space
from schema.shapes import AreaShape
from schema.games.arenarex import MM_PER_INCH, ArenaRexArena

#: Spacing (inches) of the base positions sampled along a zone.
ZONE_SPACING = 0.5
#: How many hazard-neighbourhood masks are remembered across analyses (a 30 in board at the
#: 0.25 in grid: 15 kB each).
NEAR_CACHE = 512
#: How many arenas' sight shares are remembered across analyses (:meth:`Analysis.sight`).
SIGHT_CACHE = 64
_SIGHT: dict[tuple[Any, ...], dict[int, float]] = {}
#: Spacing of the positions the sight metric looks between.
SIGHT_SPACING = 1.0

BOOK_MOVE = "MOVE Cost: A model's first move during its activation is free. Gain 1 fatigue for each additional move."
BOOK_PUSH = "The defending model is pushed 1 directly away from the attacking model."
BOOK_SIGHT = "Line-of-sight rules aren t necessary because there are no ranged attacks"


@dataclass
class ZoneMetrics:
    """One zone's numbers for one base size (lengths in inches, areas in square inches)."""

    zone: str
    base_mm: float
    centre: float
    centre_moves: int | None
    centre_path: list[tuple[float, float]] = field(default_factory=list)
    zones: dict[str, float] = field(default_factory=dict)
    hazards: dict[str, float] = field(default_factory=dict)
    nearest: dict[str, float] = field(default_factory=dict)
    kill_band: dict[int, float] = field(default_factory=dict)
    sight: float | None = None

    def to_json(self) -> dict[str, Any]:
        def r(v: float) -> float | None:
            return round(v, 4) if math.isfinite(v) else None
        return {"base_mm": self.base_mm, "centre": r(self.centre), "centre_moves": self.centre_moves,
                "zones": {k: r(v) for k, v in self.zones.items()},
                "hazards": {k: r(v) for k, v in self.hazards.items()},
                "nearest": {k: r(v) for k, v in self.nearest.items()},
                "kill_band": {str(k): r(v) for k, v in self.kill_band.items()},
                "sight": None if self.sight is None else round(self.sight, 4),
                "centre_path": [[round(x, 4), round(y, 4)] for x, y in self.centre_path]}


def moves_for(length: float, mov: float) -> int | None:
    """Moves of ``mov`` inches needed to walk ``length`` (None: unreachable)."""
    if not math.isfinite(length):
        return None
    return max(0, int(math.ceil(length / mov - 1e-9)))


class Analysis:
    """The zones of one arena, computed lazily per base radius (one :class:`Space` each)."""

    def __init__(self, arena: ArenaRexArena) -> None:
        self.arena = arena
        self.edges = edges(arena)
        self._spaces: dict[float, Space] = {}
        self._fields: dict[tuple[float, int], Field] = {}
        self._sources: dict[tuple[float, int], np.ndarray] = {}
        self._walks: dict[float, tuple[dict[int, Route], dict[tuple[int, int], float]]] = {}
        self._sight: dict[int, float] | None = None

    def space(self, radius: float) -> Space:
        if radius not in self._spaces:
            self._spaces[radius] = Space(self.arena, radius)
        return self._spaces[radius]

    def sources(self, player: int, radius: float) -> np.ndarray:
        key = (radius, player)
        if key not in self._sources:
            self._sources[key] = self.space(radius).keep(self.edges[player].positions(radius, ZONE_SPACING))
        return self._sources[key]

    def near(self, fld: Field, shape: AreaShape, dist: float) -> np.ndarray:
        """The grid nodes of ``fld`` within ``dist`` of ``shape`` (every zone's field shares the
        grid; remembered across analyses too, :func:`_near`: after a pit is dragged only the
        pit's nodes are new)."""
        return _near(shape, dist, fld.x0, fld.y0, fld.step, fld.dist.shape)

    def field(self, player: int, radius: float) -> Field:
        key = (radius, player)
        if key not in self._fields:
            self._fields[key] = self.space(radius).field(self.sources(player, radius))
        return self._fields[key]

    def walks(self, radius: float) -> tuple[dict[int, Route], dict[tuple[int, int], float]]:
        """Every zone's shortest walk to the board's centre (the nearest point a base may stand
        on, when a hazard covers it) and between every two zones, for a base of ``radius``."""
        if radius not in self._walks:
            sp = self.space(radius)
            players = sorted(self.edges)
            target = sp.nearest_free(self.arena.centre())
            routes, gaps = sp.walks([self.sources(p, radius) for p in players], target)
            self._walks[radius] = (dict(zip(players, routes)),
                                   {(p, o): float(gaps[k, m]) for k, p in enumerate(players)
                                    for m, o in enumerate(players) if p != o})
        return self._walks[radius]

    def zone_gap(self, p: int, o: int, radius: float) -> float:
        """The shortest walk between zones ``p`` and ``o``."""
        return self.walks(radius)[1][(p, o)]

    def centre_route(self, player: int, radius: float) -> Route:
        return self.walks(radius)[0][player]

    def sight(self) -> dict[int, float]:
        """:func:`sight_shares` (one answer for every base size: it looks from the smallest)."""
        if self._sight is None:
            a = self.arena
            # what the sight lines read (pits and spikes do not block sight): remembered across
            # analyses, so dragging a pit does not look again
            key = (a.bounds, a.deployment, min(a.base_radii()), tuple(h.shape for h in a.hazards if h.blocks_sight))
            if key not in _SIGHT:
                if len(_SIGHT) >= SIGHT_CACHE:
                    _SIGHT.pop(next(iter(_SIGHT)))
                _SIGHT[key] = sight_shares(a, self)
            self._sight = _SIGHT[key]
        return self._sight

    def metrics(self, radius: float) -> list[ZoneMetrics]:
        a = self.arena
        an = a.scenario.analysis
        out = []
        players = sorted(self.edges)
        sight = self.sight() if len(players) > 1 else {}
        for p in players:
            caps.tick()  # the analysis's caps (engine.budget), between two zones
            route = self.centre_route(p, radius)
            m = ZoneMetrics(f"deploy:{p}", round(radius * 2 * MM_PER_INCH, 3), route.length,
                            moves_for(route.length, an.mov), route.points, sight=sight.get(p))
            for o in players:
                if o != p:
                    m.zones[f"deploy:{o}"] = self.zone_gap(p, o, radius)
            fld = self.field(p, radius)
            for kind, items in (("pit", a.pits), ("spikes", a.spikes), ("hazard", a.hazards)):
                best = math.inf
                for h in items:
                    near = self.near(fld, h.shape, radius + an.melee)
                    reach = float(fld.dist[near].min()) if near.any() else math.inf
                    m.hazards[h.id] = reach
                    best = min(best, reach)
                if items:
                    m.nearest[kind] = best
            m.kill_band = kill_band(a, fld, radius)
            out.append(m)
        return out


@lru_cache(maxsize=NEAR_CACHE)
def _near(shape: AreaShape, dist: float, x0: float, y0: float, step: float, shape_: tuple[int, ...]) -> np.ndarray:
    """Nodes of the grid (``x0``, ``y0``, ``step``, ``shape_``) within ``dist`` of ``shape``
    (read-only: shared by every caller)."""
    xs, ys = Field(x0, y0, step, np.empty(shape_)).xy()
    out = _within(xs, ys, shape.to_shapely(), dist)
    out.setflags(write=False)
    return out


def _within(xs: np.ndarray, ys: np.ndarray, g: Any, dist: float) -> np.ndarray:
    """Grid nodes within ``dist`` of geometry ``g`` (in ``g`` grown by ``dist``, 16 segments a
    quarter circle: within 0.2 % of ``dist``)."""
    grown = g.buffer(dist, quad_segs=16)
    minx, miny, maxx, maxy = grown.bounds
    box = (xs >= minx) & (xs <= maxx) & (ys >= miny) & (ys <= maxy)
    out = np.zeros(xs.shape, dtype=bool)
    if box.any():
        out[box] = np.asarray(shapely.contains_xy(grown, xs[box], ys[box]))
    return out


def kill_band(arena: ArenaRexArena, fld: Field, radius: float) -> dict[int, float]:
    """Pushes k = 1..``pushes`` -> the area where a base of ``radius`` stands with a pit within k
    pushes of its rim and that a model walking ``fld`` reaches in melee within one activation."""
    an = arena.scenario.analysis
    if not arena.pits:
        return {k: 0.0 for k in range(1, an.pushes + 1)}
    reach = (an.moves - 1) * an.mov + 2 * radius + an.melee
    ok = fld.dist <= reach
    cell = fld.step * fld.step
    out = {}
    for k in range(1, an.pushes + 1):
        d = radius + k * an.push
        band = np.zeros(fld.dist.shape, dtype=bool)
        for p in arena.pits:  # within d of some pit (growing distributes over the union)
            band |= _near(p.shape, d, fld.x0, fld.y0, fld.step, fld.dist.shape)
        out[k] = float(np.count_nonzero(ok & band) * cell)
    return out


def sight_shares(arena: ArenaRexArena, analysis: Analysis) -> dict[int, float]:
    """Player -> share of the other zones' base positions its own positions see (smallest base)."""
    r = min(arena.base_radii())
    blockers = [h.shape.to_shapely() for h in arena.hazards if h.blocks_sight]
    wall = shapely.union_all(blockers) if blockers else None
    if wall is not None:
        shapely.prepare(wall)
    pts = {p: np.asarray(e.positions(r, SIGHT_SPACING), dtype=float).reshape(-1, 2) for p, e in analysis.edges.items()}
    out = {}
    for p, mine in pts.items():
        caps.tick()
        seen = total = 0
        for o, theirs in pts.items():
            if o == p or not len(mine) or not len(theirs):
                continue
            a = np.repeat(mine, len(theirs), axis=0)
            b = np.tile(theirs, (len(mine), 1))
            total += len(a)
            if wall is None:
                seen += len(a)
            else:
                seen += int(np.count_nonzero(~shapely.intersects(wall, shapely.linestrings(np.stack([a, b], 1)))))
        out[p] = seen / total if total else 1.0
    return out


def zone_metrics(arena: ArenaRexArena, analysis: Analysis | None = None) -> dict[float, list[ZoneMetrics]]:
    """Base diameter (mm) -> every zone's numbers."""
    an = analysis or Analysis(arena)
    return {round(r * 2 * MM_PER_INCH, 3): an.metrics(r) for r in arena.base_radii()}


# ------------------------------------------------------------------ comparing zones


def _spread(values: dict[str, float]) -> tuple[float, str, str]:
    lo = min(values, key=lambda k: values[k])
    hi = max(values, key=lambda k: values[k])
    return values[hi] - values[lo], lo, hi


def compare(arena: ArenaRexArena, metrics: dict[float, list[ZoneMetrics]]) -> list[Issue]:
    """The fairness issues: zones that cannot get somewhere (``ar-reach``), and zones whose
    numbers differ beyond the scenario's tolerances."""
    an = arena.scenario.analysis
    out: list[Issue] = []
    sight_done = False
    for base, ms in metrics.items():
        if len(ms) < 2:
            continue
        tag = f"with {base:g} mm bases"
        for m in ms:
            blocked = [k for k, v in m.zones.items() if not math.isfinite(v)]
            if not math.isfinite(m.centre):
                blocked.insert(0, "the centre")
            if blocked:
                out.append(Issue("ar-reach", "error", f"{m.zone} cannot walk to {', '.join(blocked)} {tag}: \"Move up "
                                 "to the model's MOV value in inches.\"", (m.zone, *[b for b in blocked
                                                                                     if b.startswith("deploy:")]),
                                 {"base_mm": base}))
        centre = {m.zone: m.centre for m in ms if math.isfinite(m.centre)}
        if len(centre) > 1:
            spread, lo, hi = _spread(centre)
            moves = {m.zone: m.centre_moves for m in ms if m.centre_moves is not None}
            mspread = max(moves.values()) - min(moves.values())
            if spread > an.path_tolerance or mspread > an.moves_tolerance:
                out.append(Issue("ar-centre-access", "warning", f"{hi} walks {inches(centre[hi])} to the centre "
                                 f"({moves[hi]} moves), {lo} {inches(centre[lo])} ({moves[lo]} moves) {tag}",
                                 (lo, hi), {"base_mm": base, "centre": centre, "moves": moves}))
        nearest_zone = {m.zone: min(m.zones.values()) for m in ms if m.zones and
                        math.isfinite(min(m.zones.values()))}
        if len(nearest_zone) > 2:
            spread, lo, hi = _spread(nearest_zone)
            if spread > an.path_tolerance:
                out.append(Issue("ar-zone-access", "warning", f"{lo} is {inches(nearest_zone[lo])} from the nearest "
                                 f"other zone, {hi} {inches(nearest_zone[hi])} {tag}", (lo, hi),
                                 {"base_mm": base, "nearest_zone": nearest_zone}))
        for kind in ("pit", "spikes", "hazard"):
            vals = {m.zone: m.nearest[kind] for m in ms if kind in m.nearest}
            if len(vals) < 2:
                continue
            if not all(math.isfinite(v) for v in vals.values()):
                if any(math.isfinite(v) for v in vals.values()):
                    far = [z for z, v in vals.items() if not math.isfinite(v)]
                    out.append(Issue("ar-hazard-access", "warning", f"{', '.join(far)} cannot get within melee range "
                                     f"of any {kind} {tag} while the other zones can", tuple(far), {"base_mm": base}))
                continue
            spread, lo, hi = _spread(vals)
            if spread > an.path_tolerance:
                out.append(Issue("ar-hazard-access", "warning", f"the nearest {kind} is {inches(vals[lo])} from {lo} "
                                 f"but {inches(vals[hi])} from {hi} {tag}", (lo, hi),
                                 {"base_mm": base, "kind": kind, "nearest": vals}))
        for k in range(1, an.pushes + 1):
            band = {m.zone: m.kill_band.get(k, 0.0) for m in ms}
            spread, lo, hi = _spread(band)
            if spread > an.kill_band_tolerance:
                out.append(Issue("ar-kill-band", "warning", f"{hi} reaches {band[hi]:.1f} sq in of board from which "
                                 f"{k} push(es) put a model into a pit within one activation, {lo} {band[lo]:.1f} "
                                 f"sq in {tag}", (lo, hi), {"base_mm": base, "pushes": k, "kill_band": band}))
        if not sight_done:
            sight_done = True
            seen = {m.zone: m.sight for m in ms if m.sight is not None}
            if len(seen) > 1:
                spread, lo, hi = _spread(seen)
                if spread > an.sight_tolerance + 1e-9:
                    out.append(Issue("ar-sightlines", "warning", f"{hi} sees {seen[hi]:.0%} of the other zones, {lo} "
                                     f"{seen[lo]:.0%} (terrain hazards that block sight)", (lo, hi), {"sight": seen}))
    return out


# ------------------------------------------------------------------ overlays


def heat_map(arena: ArenaRexArena, player: int, base_mm: float | None = None) -> tuple[Field, np.ndarray]:
    """"Moves to reach" every grid node from ``player``'s zone for a base of ``base_mm`` (default
    the largest listed): the distance field and, per node, the moves (-1: out of reach)."""
    r = (base_mm / MM_PER_INCH / 2.0) if base_mm is not None else max(arena.base_radii())
    an = Analysis(arena)
    if player not in an.edges:
        raise KeyError(f"deploy:{player}")
    fld = an.field(player, r)
    mov = arena.scenario.analysis.mov
    moves = np.where(np.isfinite(fld.dist), np.ceil(fld.dist / mov - 1e-9), -1).astype(int)
    return fld, moves


def path(arena: ArenaRexArena, player: int, target: tuple[float, float], base_mm: float | None = None) -> Route:
    """The shortest walk from ``player``'s zone to ``target`` (the nearest point a base may stand
    on, when the target is covered) for a base of ``base_mm`` (default the largest listed)."""
    r = (base_mm / MM_PER_INCH / 2.0) if base_mm is not None else max(arena.base_radii())
    an = Analysis(arena)
    if player not in an.edges:
        raise KeyError(f"deploy:{player}")
    sp = an.space(r)
    goal = sp.nearest_free(target)
    if goal is None:
        return Route(math.inf)
    return sp.route(an.sources(player, r), goal)


#: The fairness codes :func:`compare` reports, in order.
FAIRNESS_CODES = ("ar-reach", "ar-centre-access", "ar-zone-access", "ar-hazard-access", "ar-kill-band",
                  "ar-sightlines")

__all__ = ["BOOK_MOVE", "BOOK_PUSH", "BOOK_SIGHT", "FAIRNESS_CODES", "Analysis", "ZoneMetrics", "compare",
           "heat_map", "kill_band", "moves_for", "path", "sight_shares", "zone_metrics"]
