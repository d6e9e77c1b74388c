"""Generated Gravstrike arenas: the arena a genome builds (:func:`build`) and the cheap geometric
checks a candidate must pass before any validator looks at it (:func:`precheck`).  Pure: a plan,
a genome and a seed in, an arena out (the search above, :mod:`validators.generate`, draws the
genomes and scores the arenas with the validators).

Every piece of a genome is copied by every operation of the plan's symmetry group about the
table's centre, images that coincide (a piece on a mirror axis or at the centre) kept once, so
the declared symmetry holds exactly.  Numbers are rounded as the file format writes them (four
decimals), so the arena saved is the arena scored.

>>> import numpy as np
>>> plan = make_plan(load_catalogue(None), players=4, symmetry="rotational:4")
>>> arena = build(plan, sample(plan, np.random.default_rng(1)), seed=1)
>>> len(arena.start_positions), len(arena.walls), arena.symmetry.kind, arena.symmetry.order
(4, 12, 'rotational', 4)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import combinations

import numpy as np
import shapely
from shapely.geometry import LineString, Point as ShapelyPoint
from shapely.geometry.base import BaseGeometry

from engine.gravstrike.generate_plan import (AXIS, DEFAULT_SYMMETRY, GenerateError, Gene, Genome, Plan, Slot, draw,
                                             load_catalogue, make_plan, mutate, parse_symmetry, sample)
from engine.orbit_genome import images, place_orbits
from schema.games.gravstrike.model import (AccelerationField, Arena, Checkpoint, Circle, ExclusionField, Rect, Scenario, StartPosition,
                          StaticTarget, Symmetry, Wall)

__all__ = ["DEFAULT_SYMMETRY", "GenerateError", "Gene", "Genome", "Plan", "build", "load_catalogue", "make_plan", "mutate",
           "parse_symmetry", "place", "precheck", "sample"]

#: A placed piece: its slot, centre, angle (degrees) and its polar angle (for naming in order).
Piece = tuple[Slot, tuple[float, float], float, float]


def _reach(plan: Plan, theta: float) -> float:
    """Distance from the centre to the table's edge in direction ``theta``."""
    t = math.radians(theta)
    far = plan.size * 2.0
    hit = LineString([(0.0, 0.0), (far * math.cos(t), far * math.sin(t))]).intersection(plan.bounds.to_shapely().exterior)
    return float(hit.distance(ShapelyPoint(0.0, 0.0))) if not hit.is_empty else plan.size / 2.0


def _base(plan: Plan, slot: Slot, gene: Gene) -> tuple[tuple[float, float], float]:
    """The piece of ``gene`` in the domain: centre and angle."""
    if slot.where == "centre":
        return (0.0, 0.0), 0.0
    r = gene.u * _reach(plan, gene.theta)
    t = math.radians(gene.theta)
    inward = gene.theta + 180.0
    angle = {"wall": gene.theta + gene.angle, "start": inward + gene.angle, "field": inward + gene.angle}.get(slot.role, 0.0)
    return (r * math.cos(t), r * math.sin(t)), angle % 360.0


def pieces(plan: Plan, genome: Genome) -> list[Piece]:
    """Every piece of the arena: each gene's piece and its images, coinciding ones once."""
    return [q for slot, gene in zip(plan.slots, genome) for q in orbit(plan, slot, gene)]


def orbit(plan: Plan, slot: Slot, gene: Gene) -> list[Piece]:
    """One gene's piece and its images under the group, coinciding ones once."""
    p, angle = _base(plan, slot, gene)
    period = 180.0 if slot.role == "wall" else 360.0 if slot.role in ("start", "field") else 0.0
    return [(slot, c, a, polar) for c, a, polar in images(plan.kind, plan.order, AXIS, p, angle, period)]


def _ordered(items: list[Piece]) -> list[Piece]:
    return sorted(items, key=lambda q: (q[3], math.hypot(*q[1])))


def build(plan: Plan, genome: Genome, *, seed: int, name: str | None = None) -> Arena:
    """The arena ``genome`` describes under ``plan`` (``seed`` is recorded in its description)."""
    if len(genome) != len(plan.slots):
        raise GenerateError(f"a genome of {len(genome)} genes for a plan of {len(plan.slots)} orbits")
    placed = pieces(plan, genome)
    by: dict[str, list[Piece]] = {}
    for q in placed:
        by.setdefault(q[0].role, []).append(q)
    walls = [Wall(f"W{i + 1}", Rect(c, (s.a, s.b), round(a % 180.0, 3)) if s.role == "wall" else Circle(c, s.a))
             for i, (s, c, a, _) in enumerate(sorted(by.get("wall", []) + by.get("pillar", []),
                                                     key=lambda q: (q[0].role != "wall", plan.slots.index(q[0]), q[3])))]
    letters = "ABCDEFGHIJKL"
    checkpoints = [Checkpoint(letters[i], "outlying", Circle(c, s.a)) for i, (s, c, _, _) in
                   enumerate(_ordered(by.get("outlying", [])))]
    checkpoints += [Checkpoint("MNOP"[i], "central", Circle(c, s.a)) for i, (s, c, _, _) in
                    enumerate(_ordered(by.get("central", [])))]
    fields = [AccelerationField(f"F{i + 1}", Circle(c, s.a), a) for i, (s, c, a, _) in enumerate(_ordered(by.get("field", [])))]
    exclusions = [ExclusionField(f"X{i + 1}", Circle(c, s.a), plan.catalogue.exclusion_tier)
                  for i, (s, c, _, _) in enumerate(_ordered(by.get("exclusion", [])))]
    targets = [StaticTarget(f"T{i + 1}", c) for i, (_, c, _, _) in enumerate(_ordered(by.get("target", [])))]
    starts = [StartPosition(i + 1, c, a) for i, (_, c, a, _) in enumerate(_ordered(by.get("start", [])))]
    table = (f"{plan.size:g}-length square" if isinstance(plan.bounds, Rect) and plan.bounds.size[0] == plan.bounds.size[1]
             else f"{plan.bounds.size[0]:g} × {plan.bounds.size[1]:g} table" if isinstance(plan.bounds, Rect)
             else f"{len(plan.bounds.points)}-sided table {plan.size:g} lengths across")
    return Arena(
        name=name or f"Generated {plan.players}-player arena (seed {seed})", bounds=plan.bounds,
        description=(f"Generated by arena generate for {plan.players} players with {plan.symmetry} symmetry on a {table}, "
                     f"seed {seed}, from the catalogue {plan.catalogue.name!r}."),
        author="Arena Studio generator", tags=("gravstrike", "generated", f"{plan.players}-player", "symmetric"),
        symmetry=Symmetry(plan.kind, plan.order, (0.0, 0.0), AXIS),  # type: ignore[arg-type]
        walls=tuple(walls), checkpoints=tuple(checkpoints), acceleration_fields=tuple(fields),
        exclusion_fields=tuple(exclusions), static_targets=tuple(targets), start_positions=tuple(starts),
        scenario=Scenario(players=plan.players))


# ------------------------------------------------------------------ cheap checks

#: Least clearance (lengths) between pieces of two roles; pairs not listed may not overlap.
CLEARANCE: dict[frozenset[str], float] = {
    frozenset({"wall"}): 1.1,  # a slit narrower than a turbine's length is a trap, not a channel
    frozenset({"wall", "checkpoint"}): 0.8, frozenset({"wall", "start"}): 1.1, frozenset({"wall", "target"}): 0.6,
    frozenset({"wall", "field"}): 0.3, frozenset({"checkpoint"}): 2.0, frozenset({"start"}): 3.0,
    frozenset({"start", "checkpoint"}): 1.5, frozenset({"start", "field"}): 0.8, frozenset({"start", "exclusion"}): 0.8,
    frozenset({"start", "target"}): 1.0, frozenset({"checkpoint", "exclusion"}): 0.3, frozenset({"field"}): 0.3,
    frozenset({"field", "checkpoint"}): 0.3, frozenset({"target", "checkpoint"}): 0.8, frozenset({"target"}): 2.0,
}
#: Least gap between a piece and the table's edge, per role (walls: no slit along the edge).
EDGE = {"wall": 1.1, "start": 1.0, "checkpoint": 0.2, "field": 0.1, "target": 0.6, "exclusion": -10.0}
#: Share of ``checkpoint_min_turns`` flat-out turns (at the turbine's top speed) the straight
#: line between two outlying checkpoints must reach before travel is searched.
SPACING_SHARE = 0.75


#: A piece for the checks: (check role, name, geometry, outlying checkpoint?).
Checked = tuple[str, str, BaseGeometry, bool]
#: Plan roles -> the roles of :data:`CLEARANCE`.
CHECK_ROLE = {"pillar": "wall", "outlying": "checkpoint", "central": "checkpoint"}
#: A start's footprint for the checks: a disc of the turbine's half-length (turbine length 1).
START_RADIUS = 0.5


def _elements(arena: Arena) -> list[Checked]:
    out: list[Checked] = [("wall", w.id, w.shape.to_shapely(), False) for w in arena.walls]
    out += [("checkpoint", c.id, c.shape.to_shapely(), c.kind == "outlying") for c in arena.checkpoints]
    out += [("field", f.id, f.shape.to_shapely(), False) for f in arena.acceleration_fields]
    out += [("exclusion", x.id, x.shape.to_shapely(), False) for x in arena.exclusion_fields]
    out += [("target", t.id, ShapelyPoint(t.position), False) for t in arena.static_targets]
    out += [("start", s.id, ShapelyPoint(s.position).buffer(arena.turbine.length / 2.0, quad_segs=4), False)
            for s in arena.start_positions]
    return out


def _checked(q: Piece) -> Checked:
    slot, c, a, _ = q
    role = CHECK_ROLE.get(slot.role, slot.role)
    if slot.role == "wall":
        geom = Rect(c, (slot.a, slot.b), round(a % 180.0, 3)).to_shapely()
    elif slot.role == "start":
        geom = ShapelyPoint(c).buffer(START_RADIUS, quad_segs=4)
    elif slot.role == "target":
        geom = ShapelyPoint(c)
    else:
        geom = Circle(c, slot.a).to_shapely()
    return role, slot.role, geom, slot.role == "outlying"


def _problems(new: list[Checked], old: list[Checked], bounds: BaseGeometry, spacing: float) -> list[str]:
    """Problems of the pieces ``new`` among themselves and against ``old`` (already checked)."""
    out: list[str] = []
    if not new:
        return out
    geoms = np.array([g for _, _, g, _ in new], dtype=object)
    edge = shapely.distance(geoms, bounds.exterior)
    inside = shapely.within(geoms, bounds)
    for i, (role, ident, _, _) in enumerate(new):
        if not inside[i] or edge[i] < EDGE[role]:
            out.append(f"{ident} is within {EDGE[role]:g} of the table's edge")
    every = new + old
    gaps = shapely.distance(geoms[:, None], np.array([g for _, _, g, _ in every], dtype=object)[None, :])
    for i, j in ((i, j) for i in range(len(new)) for j in range(i + 1, len(every))):
        (ri, ni, gi, oi), (rj, nj, gj, oj) = new[i], every[j]
        need = CLEARANCE.get(frozenset({ri, rj}), -1.0 if "exclusion" in (ri, rj) else 0.0)
        if gaps[i, j] < need or (need == 0.0 and gaps[i, j] <= 0.0):
            out.append(f"{ni} and {nj} are {gaps[i, j]:.2f} apart (at least {need:g})")
        if oi and oj:
            d = math.dist(gi.centroid.coords[0], gj.centroid.coords[0])
            if d < spacing:
                out.append(f"outlying checkpoints {ni} and {nj} are {d:.1f} lengths apart (at least {spacing:g} "
                           "before travel)")
    return out


def _spacing(arena_like: Arena | None = None) -> float:
    a = arena_like or Arena(name="", bounds=Rect((0.0, 0.0), (1.0, 1.0)))
    return a.scenario.analysis.checkpoint_min_turns * a.turbine.max_speed * SPACING_SHARE


def precheck(arena: Arena) -> list[str]:
    """The geometric problems that sink a candidate before any travel is searched (empty: worth
    validating): pieces closer than :data:`CLEARANCE` or to the edge than :data:`EDGE`, and
    outlying checkpoints nearer in a straight line than :data:`SPACING_SHARE` of the book's two
    flat-out turns."""
    return _problems(_elements(arena), [], arena.bounds.to_shapely(), _spacing(arena))


#: The order :func:`place` puts orbits down in: what others must keep clear of first.
PLACE_ORDER = ("start", "central", "outlying", "wall", "target", "pillar", "field", "exclusion")
#: Draws of one gene before :func:`place` keeps the least bad.
TRIES = 40


def place(plan: Plan, rng: np.random.Generator, genome: Genome | None = None, redo: Sequence[int] | None = None) -> Genome:
    """A genome whose pieces keep their clearances, built orbit by orbit: each gene (of ``redo``,
    default all; the others are kept from ``genome``) is drawn until its orbit clears the table's
    edge, the pieces already down and itself, at most :data:`TRIES` times (then the draw with the
    fewest problems is kept; the validators judge it)."""
    bounds = plan.bounds.to_shapely()
    spacing = _spacing()
    genes, _ = place_orbits(
        len(plan.slots), lambda i: PLACE_ORDER.index(plan.slots[i].role), genome, redo,
        lambda i: draw(plan, plan.slots[i], rng), lambda i, gene: [_checked(q) for q in orbit(plan, plan.slots[i], gene)],
        lambda mine, down: len(_problems(mine, down, bounds, spacing)), TRIES)
    return genes
