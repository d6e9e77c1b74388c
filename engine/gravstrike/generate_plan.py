"""Generated Gravstrike arenas, the plan: a :class:`Plan` (players, symmetry, table, the
catalogue's pieces as orbits of the symmetry group), random genomes for it and their mutations.
:mod:`engine.gravstrike.generate` builds the arena a genome describes; the search that scores
candidates with the validators lives above (:mod:`validators.generate`).

Pieces are placed in one fundamental domain of the symmetry group (a sector of the table; for a
mirror, pieces may also sit on an axis) and copied by every operation of the group, so the arena
has its declared symmetry exactly: every coordinate of an image is computed from its piece, not
drawn.  A genome is one gene per orbit: ``(u, theta, angle)`` - the direction ``theta`` of the
piece from the centre inside the domain, ``u`` the fraction of the way from the centre to the
table's edge along it, and ``angle`` the piece's turn (a wall's rotation relative to ``theta``, a
field's push or a start's facing relative to "towards the centre").

>>> plan = make_plan(load_catalogue(None), players=4, symmetry="rotational:4")
>>> plan.counts()["start"], plan.counts()["outlying"], plan.counts()["wall"]
(4, 4, 8)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Literal

import numpy as np

from engine.gravstrike.catalogue import Catalogue, load_catalogue
from engine.orbit_genome import Gene, Genome, OrbitPlan, changed_genes, nudge
from engine.symmetry import GenerateError, Where, group_size, orbits as _orbits, parse_symmetry
from schema.games.gravstrike.model import BoundsShape, Polygon, Rect

__all__ = ["GenerateError", "Gene", "Genome", "Plan", "Slot", "load_catalogue", "make_plan", "mutate", "parse_symmetry", "sample"]

#: The mirror axis of ``mirror`` and the first axis of ``dihedral:N`` (degrees): vertical.
AXIS = 90.0
#: Players -> the symmetry used when none is asked for.
DEFAULT_SYMMETRY = {2: "rotational:2", 3: "rotational:3", 4: "rotational:4", 5: "rotational:5", 6: "dihedral:3"}

Role = Literal["start", "wall", "pillar", "outlying", "central", "field", "exclusion", "target"]

#: Per role: the range of ``u`` (share of the way from the centre to the edge).
REACH: dict[str, tuple[float, float]] = {
    "start": (0.62, 0.88), "outlying": (0.5, 0.9), "wall": (0.12, 0.85), "pillar": (0.12, 0.85),
    "field": (0.2, 0.85), "target": (0.15, 0.7), "exclusion": (0.6, 0.95), "central": (0.0, 0.0)}


@dataclass(frozen=True)
class Slot:
    """One orbit to place: its role, where its piece may sit (a generic point of the domain, a
    mirror axis or the centre), its size (``a`` = length or radius, ``b`` = thickness) and, for
    an acceleration field under a group without mirrors, the way it must turn (+1
    counter-clockwise, -1 clockwise, 0 straight at the centre) so the fields cannot all push
    one way around (None: any way - a mirror pairs every push with its opposite)."""

    role: Role
    where: Where
    a: float = 0.0
    b: float = 0.0
    turn: int | None = None


@dataclass(frozen=True)
class Plan(OrbitPlan):
    players: int
    kind: str
    order: int
    size: float
    bounds: BoundsShape
    catalogue: Catalogue
    slots: tuple[Slot, ...]
    #: The generic domain: directions ``lo < theta < hi``; the mirror axes' directions.
    lo: float
    hi: float
    axes: tuple[float, ...]


def table_bounds(kind: str, order: int, size: float, table: str | None) -> BoundsShape:
    """The table: ``square`` (default when the square has the symmetry), a regular ``polygon``
    whose corner count is a multiple of the order (at least 6), or ``WxH`` (a rectangle)."""
    if table and "x" in table:
        try:
            w, h = (float(v) for v in table.lower().split("x"))
        except ValueError:
            raise GenerateError(f"table {table!r}: write WIDTHxHEIGHT in lengths, e.g. 24x18") from None
        if min(w, h) < 8 or max(w, h) > 200:
            raise GenerateError(f"table {table!r}: each side must be 8 to 200 lengths")
        if order not in (1, 2) and not (order == 4 and w == h):
            raise GenerateError(f"a {w:g} × {h:g} rectangle does not have {kind}:{order} symmetry: use a square table "
                                "or --table polygon")
        return Rect((0.0, 0.0), (w, h))
    if table not in (None, "square", "polygon"):
        raise GenerateError(f"table {table!r}: use square, polygon or WIDTHxHEIGHT")
    if table == "square" or (table is None and 4 % order == 0):
        if 4 % order:
            raise GenerateError(f"a square table does not have {kind}:{order} symmetry: use --table polygon")
        return Rect((0.0, 0.0), (size, size))
    corners = order * max(1, math.ceil(6 / order))
    corners += corners % 2  # an even polygon has a vertical mirror axis
    r = size / 2.0
    pts = tuple((round(r * math.cos(2 * math.pi * k / corners), 4), round(r * math.sin(2 * math.pi * k / corners), 4))
                for k in range(corners))
    return Polygon(pts)


def make_plan(cat: Catalogue, *, players: int, symmetry: str | None = None, size: float | None = None,
              table: str | None = None) -> Plan:
    """The orbits to place for ``players`` under ``symmetry`` on a table ``size`` lengths across
    (default 24, or 28 for five or six players)."""
    if not 2 <= players <= 6:
        raise GenerateError(f"{players} players: Gravstrike arenas are for 2 to 6 players")
    kind, order = parse_symmetry(symmetry or DEFAULT_SYMMETRY[players])
    size = float(size if size is not None else 24.0 if players <= 4 else 28.0)
    if not 12 <= size <= 200:
        raise GenerateError(f"table size {size:g}: use 12 to 200 lengths across")
    group = group_size(kind, order)
    mirrors = kind != "rotational"
    if players % group == 0:
        starts: list[Where] = ["generic"] * (players // group)
    elif mirrors and players % (group // 2) == 0:
        starts = ["axis"] * (players // (group // 2))
    else:
        sizes = f"{group}" + (f" (or {group // 2} on the mirror axes)" if mirrors else "")
        raise GenerateError(f"{players} players cannot share {symmetry or kind} symmetry: its orbits hold {sizes} starts; "
                            f"try --symmetry {DEFAULT_SYMMETRY[players]}")
    slots = [Slot("start", w) for w in starts]
    for bar in cat.walls:
        slots += [Slot("wall", w, bar.length, bar.thickness) for w in _orbits(bar.count, group, mirrors, False)]
    for p in cat.pillars:
        slots += [Slot("pillar", w, p.radius) for w in _orbits(p.count, group, mirrors, False)]
    slots += [Slot("outlying", w, cat.checkpoint_radius) for w in _orbits(cat.outlying, group, mirrors, False)]
    central = _orbits(cat.central, group, mirrors, True)
    if cat.central == 1:
        central = ["centre"]
    slots += [Slot("central", w, cat.central_radius) for w in central]
    fields = _orbits(cat.fields, group, mirrors, False)  # a push at the centre would turn with the table
    for i, w in enumerate(fields):  # without mirrors, orbits alternate their way around; an odd one pushes inward
        turn = None if mirrors else 0 if w != "generic" or (i == len(fields) - 1 and len(fields) % 2) else 1 - 2 * (i % 2)
        slots.append(Slot("field", w, cat.field_radius, turn=turn))
    slots += [Slot("exclusion", w, cat.exclusion_radius) for w in _orbits(cat.exclusions, group, mirrors, False)]
    slots += [Slot("target", w) for w in _orbits(cat.targets, group, mirrors, False)]
    axes: tuple[float, ...] = ()
    if kind == "rotational":
        lo, hi = 0.0, 360.0 / order
    elif kind == "mirror":
        lo, hi, axes = AXIS - 180.0, AXIS, (AXIS, AXIS + 180.0)
    else:
        lo, hi, axes = AXIS, AXIS + 180.0 / order, (AXIS, AXIS + 180.0 / order)
    return Plan(players, kind, order, size, table_bounds(kind, order, size, table), cat, tuple(slots), lo, hi, axes)


# ------------------------------------------------------------------ genomes


def draw(plan: Plan, slot: Slot, rng: np.random.Generator) -> Gene:
    lo_u, hi_u = REACH[slot.role]
    u = float(rng.uniform(lo_u, hi_u))
    if slot.where == "centre":
        return Gene(0.0, 0.0, 0.0)
    if slot.where == "axis":
        theta = float(plan.axes[int(rng.integers(len(plan.axes)))])
        choices = {"wall": (0.0, 90.0), "field": (0.0, 180.0)}.get(slot.role, (0.0,))
        return Gene(u, theta, float(choices[int(rng.integers(len(choices)))]))
    margin = min(6.0, (plan.hi - plan.lo) * 0.1)
    theta = float(rng.uniform(plan.lo + margin, plan.hi - margin))
    return Gene(u, theta, _draw_angle(slot, rng))


def _draw_angle(slot: Slot, rng: np.random.Generator) -> float:
    if slot.role == "wall":
        return float(rng.uniform(0.0, 180.0))
    if slot.role == "start":
        return float(rng.uniform(-40.0, 40.0))
    if slot.role == "field":
        if slot.turn is None:
            return float(rng.uniform(-80.0, 80.0))
        return slot.turn * float(rng.uniform(25.0, 80.0)) if slot.turn else float(rng.uniform(-12.0, 12.0))
    return 0.0


def sample(plan: Plan, rng: np.random.Generator) -> Genome:
    """A random genome for ``plan``."""
    return tuple(draw(plan, s, rng) for s in plan.slots)


def mutate(plan: Plan, genome: Genome, rng: np.random.Generator) -> tuple[Genome, list[int]]:
    """``genome`` with one to three genes moved a little (now and then one drawn afresh), and
    which genes changed."""
    genes = list(genome)
    width = plan.hi - plan.lo
    changed = changed_genes(len(genes), rng)
    for i in changed:
        slot, g = plan.slots[i], genes[i]
        if slot.where == "centre":
            continue
        if rng.random() < 0.15:
            genes[i] = draw(plan, slot, rng)
            continue
        if slot.where == "axis":
            genes[i] = replace(g, u=nudge(g, REACH[slot.role], rng)[0])
            continue
        margin = min(6.0, width * 0.1)
        u, theta = nudge(g, REACH[slot.role], rng, (plan.lo + margin, plan.hi - margin), width)
        angle = g.angle + float(rng.normal(0.0, 15.0))
        if slot.role == "field" and slot.turn:
            angle = slot.turn * float(np.clip(abs(angle), 25.0, 80.0))
        elif slot.role == "field":
            angle = float(np.clip(angle, -12.0, 12.0) if slot.turn == 0 else np.clip(angle, -80.0, 80.0))
        elif slot.role == "start":
            angle = float(np.clip(angle, -40.0, 40.0))
        genes[i] = Gene(u, theta, angle % 180.0 if slot.role == "wall" else angle)
    return tuple(genes), changed
