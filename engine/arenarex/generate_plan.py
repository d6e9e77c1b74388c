"""Generated Arena Rex boards, the plan: a :class:`Plan` (the board, the two deployment edges,
the symmetry and the catalogue's pieces as orbits of its group), random genomes for it and their
mutations.  :mod:`engine.arenarex.generate` builds the arena a genome describes; the search that
scores candidates with the validators lives above (:mod:`validators.generate`).

The book's arena section (Arena Rex playtest v0.2, p. 16, "Starting a Game") is the spec:

* "We suggest a board at least 24 x 24 for Arena Rex. Our games typically take place on a 30
  diameter circle." - the default board is the 30 in circle (``--table circle``); ``square`` is
  the 24 in square, ``WxH`` a rectangle; nothing smaller than 24 in across is offered;
* "both players roll a D6" - two players, each on their own board edge: the south and north arcs
  of a circle, the bottom and top sides of a square or rectangle, each deploying "up to 6 inches
  away from the center in either direction";
* "Your board should have at least two pits and a good mix of spikes and hazards." - the
  catalogue's pits, spikes, columns, walls and rubble (:mod:`engine.arenarex.catalogue`).

The symmetry maps one player's zone onto the other's: ``rotational:2`` (the default: a half turn),
``mirror`` (in the east-west axis) or ``dihedral:2`` (both).  Pieces are placed in one
fundamental domain of the group (the south half of the board; the south-east quarter under
``dihedral:2``, where a piece may also sit on an axis) and copied by every operation, so the
board has its symmetry exactly.  A genome is one gene per orbit, ``(u, theta, angle)``: the
direction ``theta`` of the piece from the centre, ``u`` the share of the way from the centre to
the board's edge along it, and ``angle`` a strip's turn relative to ``theta``.

>>> plan = make_plan(load_catalogue(None), players=2)
>>> plan.symmetry, plan.counts()
('rotational:2', {'pit': 2, 'spikes': 2, 'column': 4, 'wall': 2, 'rubble': 1})
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from typing import Literal

import numpy as np

from engine.arenarex.catalogue import Catalogue, load_catalogue
from engine.orbit_genome import Gene, Genome, OrbitPlan, changed_genes, nudge
from engine.symmetry import GenerateError, Where, group_size, orbits, parse_symmetry
from schema.shapes import Circle, Rect

__all__ = ["GenerateError", "Gene", "Genome", "Plan", "Slot", "draw", "load_catalogue", "make_plan", "mutate"]

#: The axis of ``mirror`` and the first of ``dihedral:2`` (degrees): east-west, so it swaps the
#: south and north edges.
AXIS = 0.0
SYMMETRIES = ("rotational:2", "mirror", "dihedral:2")
BOOK_PLAYERS = "both players roll a D6. The one with the higher result gets to decide who will go first."
BOOK_BOARD = "We suggest a board at least 24 x 24 for Arena Rex. Our games typically take place on a 30 diameter circle."
#: Board -> size across (inches) when none is given: the book's two numbers.
DEFAULT_SIZE = {"circle": 30.0, "square": 24.0}
MIN_SIZE, MAX_SIZE = 24.0, 72.0

Role = Literal["pit", "spikes", "column", "wall", "rubble"]
#: Per role: the range of ``u`` (share of the way from the centre to the edge).
REACH: dict[str, tuple[float, float]] = {
    "pit": (0.2, 0.75), "spikes": (0.1, 0.75), "column": (0.15, 0.8), "wall": (0.15, 0.75), "rubble": (0.0, 0.7)}
#: Roles a piece of which may stand at the centre (the only piece there).
AT_CENTRE = ("rubble", "column")


@dataclass(frozen=True)
class Slot:
    """One orbit to place: its role, where its piece may sit, its size (``a`` = radius or
    length, ``b`` = width of a strip)."""

    role: Role
    where: Where
    a: float
    b: float = 0.0


@dataclass(frozen=True)
class Plan(OrbitPlan):
    players: int
    kind: str
    order: int
    table: str
    bounds: Circle | Rect
    catalogue: Catalogue
    slots: tuple[Slot, ...]
    #: The generic domain: directions ``lo < theta < hi``; the mirror axes' directions in it.
    lo: float
    hi: float
    axes: tuple[float, ...]

    @property
    def size(self) -> float:
        """The board's least width (inches)."""
        b = self.bounds
        return 2.0 * b.radius if isinstance(b, Circle) else min(b.size)

    def reach(self, theta: float) -> float:
        """Inches from the centre to the board's edge in direction ``theta``."""
        b = self.bounds
        if isinstance(b, Circle):
            return b.radius
        c, s = abs(math.cos(math.radians(theta))), abs(math.sin(math.radians(theta)))
        w, h = b.size[0] / 2.0, b.size[1] / 2.0
        return min(w / c if c > 1e-9 else math.inf, h / s if s > 1e-9 else math.inf)


def board(table: str | None, size: float | None) -> tuple[str, Circle | Rect]:
    """``circle`` (default: the book's 30 in circle), ``square`` (24 in) or ``WxH`` inches, centred
    on the origin."""
    name = (table or "circle").strip().lower()
    if re.fullmatch(r"[0-9.]+x[0-9.]+", name):
        try:
            w, h = (float(v) for v in name.split("x"))
        except ValueError:
            raise GenerateError(f"table {table!r}: write WIDTHxHEIGHT in inches, e.g. 36x24") from None
        if size is not None:
            raise GenerateError("give the size in --table WIDTHxHEIGHT or --size, not both")
        _check_size(min(w, h), max(w, h))
        return "rectangle", Rect((0.0, 0.0), (w, h))
    if name not in DEFAULT_SIZE:
        raise GenerateError(f"table {table!r}: use circle (the book's usual board), square or WIDTHxHEIGHT (inches)")
    across = float(size if size is not None else DEFAULT_SIZE[name])
    _check_size(across, across)
    if name == "circle":
        return name, Circle((0.0, 0.0), across / 2.0)
    return name, Rect((0.0, 0.0), (across, across))


def _check_size(least: float, most: float) -> None:
    if least < MIN_SIZE - 1e-9:
        raise GenerateError(f"a board {least:g} in across is smaller than the book suggests: \"{BOOK_BOARD}\"")
    if most > MAX_SIZE + 1e-9:
        raise GenerateError(f"a board {most:g} in across: the generator makes boards of {MIN_SIZE:g} to {MAX_SIZE:g} in")


def make_plan(cat: Catalogue, *, players: int = 2, symmetry: str | None = None, size: float | None = None,
              table: str | None = None) -> Plan:
    """The orbits to place for two players under ``symmetry`` on the board ``table`` (``size``
    inches across)."""
    if players != 2:
        raise GenerateError(f"{players} players: Arena Rex is a game for two (\"{BOOK_PLAYERS}\"); try --players 2 "
                            "(or another --table for a different board)")
    kind, order = parse_symmetry(symmetry or "rotational:2")
    if f"{kind}:{order}" not in ("rotational:2", "mirror:1", "dihedral:2"):
        raise GenerateError(f"symmetry {symmetry!r} does not turn one player's edge onto the other's: use "
                            f"{', '.join(SYMMETRIES)}")
    name, bounds = board(table, size)
    group = group_size(kind, order)
    mirrors = kind != "rotational"
    slots: list[Slot] = []
    for role, items in (("pit", cat.pits), ("spikes", cat.spikes), ("column", cat.columns), ("wall", cat.walls),
                        ("rubble", cat.rubble)):
        for item in items:
            a = float(getattr(item, "radius", 0.0) or getattr(item, "length", 0.0))
            b = float(getattr(item, "width", 0.0))
            slots += [Slot(role, w, a, b) for w in orbits(item.count, group, mirrors, role in AT_CENTRE)]  # type: ignore[arg-type]
    axes: tuple[float, ...] = ()
    if kind == "dihedral":
        lo, hi, axes = 270.0, 360.0, (0.0, 270.0)
    elif kind == "mirror":
        lo, hi, axes = 180.0, 360.0, (0.0, 180.0)
    else:
        lo, hi = 180.0, 360.0
    return Plan(players, kind, order, name, bounds, cat, tuple(slots), lo, hi, axes)


# ------------------------------------------------------------------ genomes


def draw(plan: Plan, slot: Slot, rng: np.random.Generator) -> Gene:
    """A random gene for ``slot``."""
    lo_u, hi_u = REACH[slot.role]
    u = float(rng.uniform(max(lo_u, 0.05), hi_u))
    if slot.where == "centre":
        return Gene(0.0, 0.0, float(rng.uniform(0.0, 180.0)) if slot.b else 0.0)
    if slot.where == "axis":
        theta = float(plan.axes[int(rng.integers(len(plan.axes)))])
        return Gene(u, theta, float((0.0, 90.0)[int(rng.integers(2))]) if slot.b else 0.0)
    margin = min(8.0, (plan.hi - plan.lo) * 0.08)
    theta = float(rng.uniform(plan.lo + margin, plan.hi - margin))
    return Gene(u, theta, float(rng.uniform(0.0, 180.0)) if slot.b else 0.0)


def mutate(plan: Plan, genome: Genome, rng: np.random.Generator) -> tuple[Genome, list[int]]:
    """``genome`` with one to three genes moved a little (now and then one drawn afresh; a
    centre piece's strip turned afresh), and which genes changed."""
    genes, width = list(genome), plan.hi - plan.lo
    changed = changed_genes(len(genes), rng)
    for i in changed:
        slot, g = plan.slots[i], genes[i]
        if slot.where == "centre" or rng.random() < 0.15:
            genes[i] = draw(plan, slot, rng)
            continue
        lo_u, hi_u = REACH[slot.role]
        if slot.where == "axis":
            genes[i] = replace(g, u=nudge(g, (max(lo_u, 0.05), hi_u), rng)[0])
            continue
        margin = min(8.0, width * 0.08)
        u, theta = nudge(g, (max(lo_u, 0.05), hi_u), rng, (plan.lo + margin, plan.hi - margin), width)
        angle = (g.angle + float(rng.normal(0.0, 20.0))) % 180.0 if slot.b else 0.0
        genes[i] = Gene(u, theta, angle)
    return tuple(genes), changed
