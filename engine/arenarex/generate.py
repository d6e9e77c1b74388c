"""Generated Arena Rex boards: the arena a genome builds (:func:`build`), the cheap geometric
checks a candidate must pass before any validator looks at it (:func:`precheck`) and the
placement that draws genomes keeping them (:func:`place`).  Pure: a plan, a genome and a seed in,
an arena out (the search above, :mod:`validators.generate`, scores the arenas).

Every piece of a genome is copied by every operation of the plan's symmetry group about the
board's centre, images that coincide (a piece on a mirror axis or at the centre) kept once, so
the declared symmetry holds exactly; numbers are rounded as the file format writes them (four
decimals), so the arena saved is the arena scored.

The clearances keep the board playable as the book describes it:

* every piece that stops a base (pits, spikes, columns, walls) leaves a gap a 50 mm base fits
  through to every other and to the board's edge, so every zone walks everywhere (``ar-reach``)
  and nothing makes a pocket no one can leave;
* pits and spikes keep clear of the deployment zones: "If any part of a model's base touches a
  Lethal Hazard (pit, most likely), that model is destroyed." (L38), and a zone is where
  "miniatures ... in base to base contact with the edge" (L40) stand (``ar-deployment``); pits
  keep :data:`PIT_FROM_ZONE` inches more, so no one starts a push from the pit's rim.

>>> import numpy as np
>>> plan = make_plan(load_catalogue(None), players=2)
>>> arena = build(plan, place(plan, np.random.default_rng(1)), seed=1)
>>> len(arena.pits), len(arena.spikes), len(arena.hazards), arena.symmetry.kind
(2, 2, 7, 'rotational')
>>> precheck(arena)
[]
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from engine.arenarex.board import rim_gap
from engine.arenarex.generate_plan import (AXIS, GenerateError, Gene, Genome, Plan, Slot, draw, load_catalogue,
                                           make_plan, mutate)
from engine.orbit_genome import images, place_orbits
from schema.games.arenarex import (DEFAULT_BASES, MM_PER_INCH, ArenaRexArena, BoardShape, Deployment, Hazard, Pit,
                                   Scenario, Spikes)
from schema.games.arenarex.edges import deployment_edge
from schema.shapes import AreaShape, Circle, Rect
from schema.shapes import Symmetry

__all__ = ["GenerateError", "Genome", "Plan", "build", "deployments", "load_catalogue", "make_plan", "mutate",
           "place", "precheck"]

#: A placed piece: (slot, centre, absolute angle of a strip, polar angle for ordering).
Piece = tuple[Slot, tuple[float, float], float, float]

#: The widest base the analysis moves (inches): 50 mm.
BASE = max(DEFAULT_BASES) / MM_PER_INCH
#: Least gap (inches) between two pieces that stop a base, and between one and the board's edge:
#: the widest base passes with a quarter inch to spare.
PASSAGE = BASE + 0.25
#: Least gap between rubble (walked over) and any other piece: they do not overlap.
LOOSE = 0.25
#: Least gap (inches) between a pit or spikes and a deployment zone's band (one base deep); pits
#: keep this much more.
FROM_ZONE = 1.0
PIT_FROM_ZONE = 2.0
#: Roles that stop a base (the analysis's blockers; rubble is walked over).
SOLID = ("pit", "spikes", "column", "wall")


def deployments(plan: Plan) -> tuple[Deployment, Deployment]:
    """Player 1 on the south edge, player 2 on the north: the arcs 225-315 and 45-135 degrees of a
    circle, the bottom (0) and top (2) sides of a rectangle, each centred on its edge ("Find the
    center of your board edge", L40)."""
    if isinstance(plan.bounds, Circle):
        return Deployment(player=1, arc=(225.0, 315.0)), Deployment(player=2, arc=(45.0, 135.0))
    return Deployment(player=1, side=0), Deployment(player=2, side=2)


def orbit(plan: Plan, slot: Slot, gene: Gene) -> list[Piece]:
    """The pieces one gene puts down: its piece and every image under the group, coinciding
    images once."""
    dist = gene.u * plan.reach(gene.theta)
    t = math.radians(gene.theta)
    p = (dist * math.cos(t), dist * math.sin(t)) if slot.where != "centre" else (0.0, 0.0)
    angle = (gene.theta + gene.angle) % 180.0 if slot.b else 0.0
    return [(slot, c, round(a % 180.0, 3) % 180.0 if slot.b else 0.0, polar)
            for c, a, polar in images(plan.kind, plan.order, AXIS, p, angle, 180.0 if slot.b else 0.0)]


def shape_of(slot: Slot, centre: tuple[float, float], angle: float) -> AreaShape:
    if slot.b:
        return Rect(centre, (slot.a, slot.b), angle)
    return Circle(centre, slot.a)


def pieces(plan: Plan, genome: Genome) -> list[Piece]:
    out: list[Piece] = []
    for slot, gene in zip(plan.slots, genome):
        out += orbit(plan, slot, gene)
    return out


def build(plan: Plan, genome: Genome, *, seed: int, name: str | None = None) -> ArenaRexArena:
    """The arena ``genome`` describes under ``plan`` (``seed`` is recorded in its description)."""
    if len(genome) != len(plan.slots):
        raise GenerateError(f"a genome of {len(genome)} genes for a plan of {len(plan.slots)} orbits")
    by: dict[str, list[Piece]] = {}
    for q in pieces(plan, genome):
        by.setdefault(q[0].role, []).append(q)

    def ordered(role: str) -> list[Piece]:
        return sorted(by.get(role, []), key=lambda q: (plan.slots.index(q[0]), q[3], math.hypot(*q[1])))

    pits = tuple(Pit(f"pit-{i + 1}", shape_of(s, c, a)) for i, (s, c, a, _) in enumerate(ordered("pit")))
    spikes = tuple(Spikes(f"spikes-{i + 1}", shape_of(s, c, a)) for i, (s, c, a, _) in enumerate(ordered("spikes")))
    hazards: list[Hazard] = []
    for role, kind, blocks in (("column", "column", True), ("wall", "wall", True), ("rubble", "rubble", False)):
        hazards += [Hazard(f"{role}-{i + 1}", shape_of(s, c, a), kind, blocks, blocks)  # type: ignore[arg-type]
                    for i, (s, c, a, _) in enumerate(ordered(role))]
    board = (f"{plan.size:g} in circle" if plan.table == "circle" else f"{plan.size:g} in square" if plan.table == "square"
             else f"{plan.bounds.size[0]:g} x {plan.bounds.size[1]:g} in rectangle")  # type: ignore[union-attr]
    return ArenaRexArena(
        name=name or f"Generated Arena Rex board (seed {seed})", bounds=plan.bounds,
        description=(f"Generated by arena generate for two players with {plan.symmetry} symmetry on a {board}, seed "
                     f"{seed}, from the catalogue {plan.catalogue.name!r}."),
        author="Arena Studio generator", tags=("arena-rex", "generated", plan.table, "2-player", "symmetric"),
        symmetry=Symmetry(plan.kind, plan.order, (0.0, 0.0), AXIS),  # type: ignore[arg-type]
        pits=pits, spikes=spikes, hazards=tuple(hazards), deployment=deployments(plan),
        scenario=Scenario(players=plan.players))


# ------------------------------------------------------------------ cheap checks

#: A piece for the checks: (role, name, geometry).
Checked = tuple[str, str, BaseGeometry]


def _need(a: str, b: str) -> float:
    return PASSAGE if a in SOLID and b in SOLID else LOOSE


def _zone_need(role: str) -> float | None:
    return PIT_FROM_ZONE + FROM_ZONE if role == "pit" else FROM_ZONE if role == "spikes" else None


def _problems(new: list[Checked], old: list[Checked], bounds: BoardShape, zones: list[BaseGeometry]) -> list[str]:
    """Problems of the pieces ``new`` among themselves and against ``old`` (already checked);
    the gap to the board's edge is measured on the board as drawn (a circle as a circle)."""
    out: list[str] = []
    if not new:
        return out
    geoms = np.array([g for _, _, g in new], dtype=object)
    for i, (role, ident, g) in enumerate(new):
        need = PASSAGE if role in SOLID else 0.0
        if rim_gap(bounds, g) < need:
            out.append(f"{ident} is within {need:g} in of the board's edge")
        zneed = _zone_need(role)
        for k, z in enumerate(zones):
            gap = g.distance(z)
            if (zneed is not None and gap < zneed) or gap <= 0.0:
                out.append(f"{ident} is {gap:.2f} in from zone {k + 1} (at least {zneed or 0:g})")
    every = new + old
    gaps = shapely.distance(geoms[:, None], np.array([g for _, _, g in every], dtype=object)[None, :])
    for i, j in ((i, j) for i in range(len(new)) for j in range(i + 1, len(every))):
        (ri, ni, _), (rj, nj, _) = new[i], every[j]
        need = _need(ri, rj)
        if gaps[i, j] < need:
            out.append(f"{ni} and {nj} are {gaps[i, j]:.2f} in apart (at least {need:g})")
    return out


def _zones(bounds: BoardShape, deps: Sequence[Deployment]) -> list[BaseGeometry]:
    """Each deployment's zone as drawn: the band one widest base deep along its edge."""
    return [deployment_edge(bounds, d.side, d.arc, d.center, 6.0).strip(BASE) for d in deps]



def precheck(arena: ArenaRexArena) -> list[str]:
    """The geometric problems that sink a candidate before any zone is analysed (empty: worth
    validating): pieces closer than their clearances to each other, to the board's edge or to a
    deployment zone."""
    found: list[Checked] = [("pit", p.id, p.shape.to_shapely()) for p in arena.pits]
    found += [("spikes", s.id, s.shape.to_shapely()) for s in arena.spikes]
    found += [(h.kind if h.kind in SOLID and h.blocks_movement else "rubble" if not h.blocks_movement else "column",
               h.id, h.shape.to_shapely()) for h in arena.hazards]
    return _problems(found, [], arena.bounds, _zones(arena.bounds, arena.deployment))


def _checked(q: Piece) -> Checked:
    slot, c, a, _ = q
    return slot.role, f"{slot.role} at ({c[0]:.1f}, {c[1]:.1f})", shape_of(slot, c, a).to_shapely()


#: The order :func:`place` puts orbits down in: the largest and most constrained first.
PLACE_ORDER = ("pit", "wall", "spikes", "column", "rubble")
#: Draws of one gene before :func:`place` keeps the least bad.
TRIES = 40


def place(plan: Plan, rng: np.random.Generator, genome: Genome | None = None, redo: Sequence[int] | None = None) -> Genome:
    """A genome whose pieces keep their clearances, built orbit by orbit: each gene (of ``redo``,
    default all; the others are kept from ``genome``) is drawn until its orbit clears the
    board's edge, the zones, the pieces already down and itself, at most :data:`TRIES` times
    (then the draw with the fewest problems is kept).  A fresh genome that still has problems
    is drawn again from the start, at most :data:`RESTARTS` times (then the validators judge
    the least bad)."""
    best: tuple[int, Genome] | None = None
    for _ in range(1 if genome is not None else RESTARTS):
        genes, bad = _place(plan, rng, genome, redo)
        if best is None or bad < best[0]:
            best = (bad, genes)
        if not bad:
            break
    assert best is not None
    return best[1]


#: Fresh placements :func:`place` tries before keeping the least bad.
RESTARTS = 6


def _place(plan: Plan, rng: np.random.Generator, genome: Genome | None, redo: Sequence[int] | None
           ) -> tuple[Genome, int]:
    """One pass of :func:`place`: the genome and how many problems its pieces still have (the
    centre's piece first: it cannot move out of the way)."""
    bounds = plan.bounds
    zones = _zones(plan.bounds, deployments(plan))
    return place_orbits(
        len(plan.slots), lambda i: (plan.slots[i].where != "centre", PLACE_ORDER.index(plan.slots[i].role)), genome,
        redo, lambda i: draw(plan, plan.slots[i], rng),
        lambda i, gene: [_checked(q) for q in orbit(plan, plan.slots[i], gene)],
        lambda mine, down: len(_problems(mine, down, bounds, zones)), TRIES)
