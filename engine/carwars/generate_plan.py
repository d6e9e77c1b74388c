"""Generated Car Wars arenas, the plan: a :class:`Plan` (players, symmetry, the square arena, the
catalogue's pieces as orbits of the symmetry group), random genes for it and their mutations.
:mod:`engine.carwars.generate` builds the arena a genome describes; the search that scores
candidates with the validators lives above (:mod:`validators.generate`).

The book's arena: "Designate a flat, smooth, playing area, roughly 3 feet per side, to serve as
the arena. The outside edges of the arena are walls" (001_720c8b844658e4d7.txt L192), so the table
is a square (36 in by default).  Each orbit's piece is placed once and copied by every operation of
the group about the centre, so the arena has its symmetry exactly.  A gene is ``(x, y, angle)``:
the piece's centre and turn; a start's gene is its offset along its edge (``x``).  A piece on a
mirror axis (an ``axis`` orbit, half the group's size) has ``x = 0`` and a turn of 0 or 90.

>>> plan = make_plan(load_catalogue(None), players=4)
>>> plan.symmetry, plan.counts()["start"], plan.counts()["wall"], plan.counts()["card"]
('rotational:4', 4, 4, 4)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

import numpy as np

from engine.carwars.catalogue import Catalogue, load_catalogue
from engine.carwars.checks import BOX
from engine.symmetry import KINDS, group_size
from schema.games.carwars import CARD_SIZE, Vehicle

__all__ = ["GenerateError", "Gene", "Plan", "Slot", "draw", "load_catalogue", "make_plan", "mutate"]

#: The mirror axis of ``mirror`` and the first axis of ``dihedral:N`` (degrees): vertical.
AXIS = 90.0
#: Players -> the symmetry used when none is asked for (a start per edge, or two facing edges).
DEFAULT_SYMMETRY = {2: "rotational:2", 4: "rotational:4"}
#: Symmetries of the square arena the generator knows.
SQUARE = ("rotational:2", "rotational:4", "mirror", "dihedral:2", "dihedral:4")

Role = Literal["start", "wall", "terrain", "hazard", "barrel", "barrier", "card"]
Where = Literal["generic", "axis"]


class GenerateError(ValueError):
    """Parameters the generator cannot honour (the message says which and why)."""


@dataclass(frozen=True)
class Slot:
    """One orbit to place: its role, where its piece may sit, its size (``a`` x ``b`` inches) and
    for terrain its level; for a card its role (``checkpoint`` or ``trigger``) and whether each
    image belongs to the player whose start is the same image (own-colour checkpoints)."""

    role: Role
    where: Where
    a: float = 0.0
    b: float = 0.0
    level: int = 0
    card_role: str = "checkpoint"
    owned: bool = False


@dataclass(frozen=True)
class Gene:
    x: float
    y: float
    angle: float


Genome = tuple[Gene, ...]


@dataclass(frozen=True)
class Plan:
    players: int
    kind: str
    order: int
    size: float
    catalogue: Catalogue
    slots: tuple[Slot, ...]
    vehicle: Vehicle = Vehicle()

    @property
    def symmetry(self) -> str:
        return self.kind if self.kind == "mirror" else f"{self.kind}:{self.order}"

    @property
    def group(self) -> int:
        return group_size(self.kind, self.order)

    @property
    def half(self) -> float:
        return self.size / 2.0

    def orbit_size(self, where: Where) -> int:
        return self.group // 2 if where == "axis" else self.group

    def counts(self) -> dict[str, int]:
        """Pieces of each role the arena gets (after rounding to whole orbits)."""
        out: dict[str, int] = {}
        for s in self.slots:
            out[s.role] = out.get(s.role, 0) + self.orbit_size(s.where)
        return out


def parse(text: str) -> tuple[str, int]:
    """``rotational:N``, ``mirror`` or ``dihedral:N`` -> (kind, order), for the square arena."""
    kind, _, order = text.strip().partition(":")
    if kind not in KINDS or text.strip() not in SQUARE + ("mirror:1", "dihedral:1", "rotational:1"):
        raise GenerateError(f"symmetry {text!r}: the square Car Wars arena has {', '.join(SQUARE)}")
    return kind, int(order or 1)


def _orbits(n: int, group: int, mirrors: bool) -> list[Where]:
    """Orbits whose sizes add up to as near ``n`` as they can (at least one when ``n`` > 0),
    fewest orbits among the nearest totals."""
    if n <= 0:
        return []
    best: tuple[tuple[int, int], list[Where]] | None = None
    for b in (0, 1, 2, 3) if mirrors else (0,):
        for a in range(0, n // group + 2):
            total = a * group + b * (group // 2)
            key = (abs(total - n), a + b)
            if total and (best is None or key < best[0]):
                generic: list[Where] = ["generic"]
                axis: list[Where] = ["axis"]
                best = (key, generic * a + axis * b)
    assert best is not None
    return best[1]


def make_plan(cat: Catalogue, *, players: int, symmetry: str | None = None, size: float | None = None) -> Plan:
    """The orbits to place for ``players`` (2 or 4: the boxed sets' car bases) under ``symmetry``
    on a square arena ``size`` inches across (default 36: "roughly 3 feet per side")."""
    if players not in (2, 4):
        raise GenerateError(f"{players} players: the boxed sets hold 2 or 4 car bases (the 2-PLAYER and 4-PLAYER SET)")
    kind, order = parse(symmetry or DEFAULT_SYMMETRY[players])
    size = float(size if size is not None else 36.0)
    if not 30.0 <= size <= 48.0:
        raise GenerateError(f"arena size {size:g} in: use 30 to 48 in (\"roughly 3 feet per side\")")
    group, mirrors = group_size(kind, order), kind != "rotational"
    if players == group:
        starts: list[Where] = ["generic"]
    elif mirrors and players == group // 2:
        starts = ["axis"]
    else:
        raise GenerateError(f"{players} players cannot share {symmetry} symmetry: its orbits hold {group}"
                            + (f" (or {group // 2} on the mirror axes)" if mirrors else "")
                            + f" starts; try --symmetry {DEFAULT_SYMMETRY[players]}")
    slots = [Slot("start", starts[0])]
    for bar in cat.walls:
        slots += [Slot("wall", w, bar.length, bar.thickness) for w in _orbits(bar.count, group, mirrors)]
    for p in cat.terrain:
        slots += [Slot("terrain", w, p.width, p.height, p.level) for w in _orbits(p.count, group, mirrors)]
    slots += [Slot("hazard", w, *CARD_SIZE) for w in _orbits(cat.hazards, group, mirrors)]
    slots += [Slot("barrel", w, 1.0, 1.0) for w in _orbits(cat.barrels, group, mirrors)]
    slots += [Slot("barrier", w, 3.0, 0.75) for w in _orbits(cat.barriers, group, mirrors)]
    owned = False
    for role, n in (("checkpoint", cat.checkpoints), ("trigger", cat.triggers)):
        for w in _orbits(n, group, mirrors):
            own = role == "checkpoint" and not owned and w == starts[0]
            owned |= own
            slots.append(Slot("card", w, *CARD_SIZE, card_role=role, owned=own))
    plan = Plan(players, kind, order, size, cat, tuple(slots))
    counts, box = plan.counts(), BOX["2-player" if players <= 2 else "4-player"]
    for role, what in (("barrel", "barrel tokens"), ("barrier", "barrier tokens"), ("hazard", "hazard cards")):
        if counts.get(role, 0) > box[what]:
            raise GenerateError(f"{counts[role]} {what} (the catalogue's count rounded to whole orbits of "
                                f"{plan.symmetry}): the {players}-player set has \"{box[what]} {what}\"")
    if counts.get("card", 0) > 4:
        raise GenerateError(f"{counts['card']} numbered cards (rounded to whole orbits of {plan.symmetry}): \"There are "
                            "also four cards numbered 0 through 3.\"")
    return plan


# ------------------------------------------------------------------ genes


def draw(plan: Plan, slot: Slot, rng: np.random.Generator) -> Gene:
    """A random gene for ``slot``: a start's offset along its edge, or a piece anywhere inside the
    arena (on the vertical axis for an ``axis`` orbit)."""
    h = plan.half
    if slot.role == "start":
        reach = h - plan.vehicle.key_length  # the key, 2 car lengths, lies along the edge
        return Gene(0.0 if slot.where == "axis" else float(rng.uniform(-reach, reach)), 0.0, 0.0)
    margin = _margin(plan, slot)
    y = float(rng.uniform(-h + margin, h - margin))
    if slot.where == "axis":
        return Gene(0.0, y, float(rng.choice([0.0, 90.0])))
    x = float(rng.uniform(-h + margin, h - margin))
    angle = float(rng.uniform(0.0, 180.0)) if slot.role in ("wall", "terrain", "barrier") else float(rng.choice([0.0, 90.0]))
    return Gene(x, y, angle)


def _margin(plan: Plan, slot: Slot) -> float:
    """How far from the edge a piece's centre is drawn: a wall keeps a turning key clear of the
    edge ("The outside edges of the arena are walls", L192; gaps at least one turning key, L194)."""
    if slot.role == "wall":
        return plan.vehicle.key_length + 0.1 + slot.b / 2.0
    return max(slot.a, slot.b) / 2.0 + 0.5


def mutate(plan: Plan, genome: Genome, rng: np.random.Generator) -> tuple[Genome, list[int]]:
    """``genome`` with one to three genes moved a little (now and then one drawn afresh), and
    which genes changed."""
    genes = list(genome)
    changed = sorted(rng.choice(len(genes), size=min(len(genes), int(rng.integers(1, 4))), replace=False).tolist())
    h = plan.half
    for i in changed:
        slot, g = plan.slots[i], genes[i]
        if rng.random() < 0.2:
            genes[i] = draw(plan, slot, rng)
            continue
        if slot.role == "start":
            reach = h - plan.vehicle.key_length
            x = g.x if slot.where == "axis" else float(np.clip(g.x + rng.normal(0.0, 2.0), -reach, reach))
            genes[i] = replace(g, x=x)
            continue
        margin = _margin(plan, slot)
        x = 0.0 if slot.where == "axis" else float(np.clip(g.x + rng.normal(0.0, 2.0), -h + margin, h - margin))
        y = float(np.clip(g.y + rng.normal(0.0, 2.0), -h + margin, h - margin))
        angle = g.angle if slot.where == "axis" or slot.role in ("card", "hazard", "barrel") else \
            (g.angle + float(rng.normal(0.0, 20.0))) % 180.0
        genes[i] = Gene(x, y, angle)
    return tuple(genes), changed


def start_pose(plan: Plan, gene: Gene) -> tuple[tuple[float, float], float]:
    """The base start: on the bottom edge (the left one under a lone mirror, whose axis is
    vertical), facing straight in, its rear bumper touching a turning key laid flush against the
    edge ("Place the turning key against the arena edge and then position the car in any
    orientation, so long as some part of the base is touching the turning key", L417)."""
    v = plan.vehicle
    inset = plan.half - v.key_width - v.bumper - v.length / 2.0
    if plan.kind == "mirror":
        return (-inset, gene.x), 0.0
    return (gene.x, -inset), 90.0
