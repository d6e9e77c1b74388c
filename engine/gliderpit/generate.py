"""Generated Glider-Pit pits (``arena generate --system glider-pit-gladiators``): the catalogue,
the plan, random genomes and their variations, the pit a genome builds and the cheap checks a
candidate must pass before the validators look at it.  Pure: the search that scores candidates
lives above (:mod:`validators.generate`).

What the book fixes, every pit has: "The 19 rows of hexes on the mapsheet are identified by
number" (L193), each a 2d6 total ("Roll 2d6. Place any one of the markers on a hex row matching
the die roll", L195) - every total 2-12 on some row -, and six launch zones, "a string of five
hexes along the wall of the pit" (L55), one beside each of the "six Airspeed Tracks" on "the
long edges of the mapsheet" (L17): three on each side wall.  What the lost mapsheet left open
the genome draws: how wide each row is, where along the side walls the zones lie, which row
carries which total, and (from the catalogue's list) the FLOOR.

Symmetric by construction: each row is centred on the vertical axis through the pit's centroid
(so the pit is its own mirror image), zones Z4-Z6 are the mirror images of Z1-Z3, and a mirror
across a vertical axis sends each row onto itself, so the labels need no pairing.  Only this
mirror is offered: a half turn or a mirror across the rows sends row r onto row -r, so the pit
would also need its row widths and zones the same top to bottom and row -r to carry 14 minus row
r's total (``gp-symmetry``), none of which the genome draws.

>>> import numpy as np
>>> plan = make_plan(load_catalogue(None), gliders=6)
>>> arena = build(plan, fresh(plan, np.random.default_rng(1)), seed=1)
>>> len({arena.line_of(c) for c in arena.cells}), len(arena.rows), len(arena.launch_zones), arena.symmetry.kind
(19, 19, 6, 'mirror')
>>> sorted({r.label for r in arena.rows}) == list(range(2, 13))
True
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from engine.gliderpit.fairness import first_moves
from engine.gliderpit.pit import pit_of
from engine.gliderpit.rules import (LAUNCH_ZONES, ROWS, SHORT_GAME_FLOORS, STANDARD_FLOOR, TOTALS, ZONE_HEXES,
                                    chance_any_marker)
from engine.gliderpit.wall import wall_ring
from engine.grids import Axial, hex_distance
from schema.errors import ArenaError
from schema.games.gliderpit import GliderPitArena, LaunchZone, Row, Scenario, Symmetry, Units
from schema.sidefile import load_catalogue_of

__all__ = ["Catalogue", "GenerateError", "Genome", "Plan", "build", "fresh", "load_catalogue", "make_plan", "precheck",
           "vary"]

FORMAT = "glider-pit/1"
#: The top row's grid line (rows run from line 9 at the top to -9 at the bottom).
TOP = (ROWS - 1) // 2


class GenerateError(ValueError):
    """Parameters the generator cannot honour (the message says which and why)."""


@dataclass(frozen=True)
class Catalogue:
    name: str
    source: str
    min_width: int
    max_width: int
    max_step: int
    hex_mm: float
    floors: tuple[int, ...]
    min_gap: int


def load_catalogue(path: str | os.PathLike[str] | None) -> Catalogue:
    """The catalogue in ``path`` (None: the default one); :class:`ArenaError` with located
    problems when it is not a valid catalogue."""
    return load_catalogue_of(path, "engine.gliderpit", _build, semantic)


def _build(doc: dict[str, Any], source: str) -> Catalogue:
    pit, zones = doc.get("pit", {}), doc.get("zones", {})
    return Catalogue(
        name=str(doc.get("name", "catalogue")), source=source,
        min_width=int(pit.get("min_width", 9)), max_width=int(pit.get("max_width", 21)),
        max_step=int(pit.get("max_step", 1)), hex_mm=float(pit.get("hex_mm", 19.05)),
        floors=tuple(STANDARD_FLOOR if f == "standard" else int(f) for f in doc.get("floors", ["standard"])),
        min_gap=int(zones.get("min_gap", 1)))


def semantic(cat: Catalogue) -> list[tuple[str, str]]:
    """What the schema cannot say: ``(pointer, message)`` pairs."""
    found: list[tuple[str, str]] = []
    if cat.min_width > cat.max_width:
        found.append(("/pit/min_width", f"min_width {cat.min_width} is more than max_width {cat.max_width}"))
    if cat.max_step % 2 == 0:
        found.append(("/pit/max_step", f"max_step {cat.max_step} is even: rows centred on the mirror axis alternate odd "
                      "and even widths, so neighbouring rows differ by an odd number of hexes"))
    if cat.max_width - cat.min_width < 1:
        found.append(("/pit", "the widths leave no room: neighbouring rows differ by at least one hex"))
    if any(f not in (STANDARD_FLOOR, *SHORT_GAME_FLOORS) for f in cat.floors):
        found.append(("/floors", "FLOOR levels are standard, 5, 10 or 15"))
    return found


@dataclass(frozen=True)
class Plan:
    catalogue: Catalogue
    gliders: int

    @property
    def symmetry(self) -> str:
        return "mirror"


def make_plan(cat: Catalogue, *, gliders: int = 6, symmetry: str | None = None, size: float | None = None,
              table: str | None = None) -> Plan:
    """The plan for ``gliders`` (2-6: "Two to six players control primitive gliders", L11);
    ``size``, when given, is the widest row's hexes (the catalogue's ``max_width``)."""
    if not 2 <= gliders <= LAUNCH_ZONES:
        raise GenerateError(f"{gliders} gliders: the pit takes two to six (\"Two to six players control primitive "
                            "gliders\"; one glider per Airspeed Track)")
    if symmetry not in (None, "mirror"):
        raise GenerateError(f"symmetry {symmetry!r}: a pit is generated with 'mirror' (about its vertical axis) only - a "
                            "half turn or a mirror across the rows sends row r onto row -r, which the generator does not "
                            "draw (row widths and zones alike top to bottom, row -r numbered 14 minus row r)")
    if table is not None:
        raise GenerateError("--table is for games played on a free table; the pit is a hex grid")
    if size is not None:
        width = int(size)
        if width != size or width < cat.min_width + 1 or width > 40:
            raise GenerateError(f"--size {size:g}: the widest row's hexes, a whole number from {cat.min_width + 1} to 40")
        cat = replace(cat, max_width=width)
    return Plan(cat, gliders)


@dataclass(frozen=True)
class Genome:
    """Hexes per row from the top row down; each left zone's place along the left wall (0 at
    the top, 1 at the bottom); the rows' 2d6 totals from the top down; the FLOOR."""

    widths: tuple[int, ...]
    places: tuple[float, ...]
    labels: tuple[int, ...]
    floor: int


def _walk(cat: Catalogue, start: int, n: int, lean: float, rng: np.random.Generator) -> list[int]:
    """``n`` widths after ``start``, each an odd step of at most ``max_step`` from the last
    (narrowing with chance ``lean``), within the catalogue's bounds."""
    out, w = [], start
    for _ in range(n):
        step = int(rng.choice(range(1, cat.max_step + 1, 2)))
        step = -step if rng.random() < lean else step
        if not cat.min_width <= w + step <= cat.max_width:
            step = -step
        if not cat.min_width <= w + step <= cat.max_width:
            step = 1 if w + 1 <= cat.max_width else -1
        w += step
        out.append(w)
    return out


def _widths(cat: Catalogue, rng: np.random.Generator) -> tuple[int, ...]:
    lo, hi = cat.min_width + TOP // 2, cat.max_width
    middle = int(rng.integers(max(lo, cat.min_width), hi + 1))
    if middle % 2 == 0:  # the middle row (line 0) holds an odd count of hexes
        middle = middle - 1 if middle - 1 >= cat.min_width else middle + 1
    up = _walk(cat, middle, TOP, float(rng.uniform(0.35, 0.95)), rng)
    down = _walk(cat, middle, TOP, float(rng.uniform(0.35, 0.95)), rng)
    return (*reversed(up), middle, *down)


def _labels(rng: np.random.Generator) -> tuple[int, ...]:
    extra = [int(k) for k in rng.integers(2, 13, size=ROWS - len(TOTALS))]
    labels = [*TOTALS, *extra]
    rng.shuffle(labels)
    return tuple(labels)


#: Label changes :func:`balance_labels` tries.
LABEL_TRIES = 300


def _exposure_spread(touched: list[list[int]], labels: list[int]) -> float:
    chances = [chance_any_marker({labels[i] for i in rows}) for rows in touched]
    return max(chances) - min(chances) if chances else 0.0


def balance_labels(plan: Plan, genome: Genome, rng: np.random.Generator) -> Genome:
    """``genome`` with its row totals changed (every total 2-12 kept on some row) so that the
    chance "Place any one of the markers on a hex row matching the die roll" (L195) may put a
    marker on a row a zone's first moves touch is as even over the zones as a short random
    search makes it (the ``gp-zone-currents`` comparison; the mirror zones match already)."""
    arena = build(plan, genome, seed=0)
    pit = pit_of(arena)
    speed = arena.scenario.analysis.exposure_speed
    touched = []
    for z in arena.launch_zones[:3]:
        lines = {pit.line_of(h) for h in first_moves(pit, z, speed)}
        touched.append(sorted(TOP - line for line in lines if -TOP <= line <= TOP))
    labels = list(genome.labels)
    best = _exposure_spread(touched, labels)
    for _ in range(LABEL_TRIES):
        if best <= EXPOSURE_TARGET:
            break
        trial = list(labels)
        i = int(rng.integers(ROWS))
        if rng.random() < 0.5:
            j = int(rng.integers(ROWS))
            trial[i], trial[j] = trial[j], trial[i]
        else:
            trial[i] = int(rng.integers(2, 13))
            if set(trial) != set(TOTALS):
                continue
        spread = _exposure_spread(touched, trial)
        if spread <= best:
            labels, best = trial, spread
    return replace(genome, labels=tuple(labels))


#: The spread of the zones' marker chances :func:`balance_labels` stops at (half the default
#: ``current_tolerance``).
EXPOSURE_TARGET = 0.05


def fresh(plan: Plan, rng: np.random.Generator) -> Genome:
    cat = plan.catalogue
    widths = _widths(cat, rng)
    places = tuple(sorted(float(np.clip((i + 0.5) / 3 + rng.uniform(-0.15, 0.15), 0.0, 1.0)) for i in range(3)))
    floor = int(cat.floors[int(rng.integers(len(cat.floors)))])
    return balance_labels(plan, Genome(widths, places, _labels(rng), floor), rng)


def vary(plan: Plan, genome: Genome, rng: np.random.Generator) -> Genome:
    """One change: two rows swap totals, a zone slides along its wall, a row changes its
    total (every total kept on some row), the pit's rows are redrawn, or the FLOOR."""
    cat = plan.catalogue
    what = int(rng.integers(10))
    if what < 4:
        i, j = (int(v) for v in rng.choice(ROWS, size=2, replace=False))
        labels = list(genome.labels)
        labels[i], labels[j] = labels[j], labels[i]
        return replace(genome, labels=tuple(labels))
    if what < 7:
        k = int(rng.integers(3))
        places = list(genome.places)
        places[k] = float(np.clip(places[k] + rng.choice((-1, 1)) * rng.uniform(0.03, 0.15), 0.0, 1.0))
        return balance_labels(plan, replace(genome, places=tuple(sorted(places))), rng)
    if what < 8:
        labels = list(genome.labels)
        i = int(rng.integers(ROWS))
        labels[i] = int(rng.integers(2, 13))
        if set(labels) == set(TOTALS):
            return replace(genome, labels=tuple(labels))
        return genome
    if what < 9 or len(cat.floors) == 1:
        return balance_labels(plan, replace(genome, widths=_widths(cat, rng)), rng)
    return balance_labels(plan, replace(genome, floor=int(cat.floors[int(rng.integers(len(cat.floors)))])), rng)


def _x2(h: Axial) -> int:
    """Twice the hex centre's distance right of the axis (pointy hexes: x = q + r / 2)."""
    return 2 * h[0] + h[1]


def mirror(h: Axial) -> Axial:
    """The hex's image across the vertical axis through the pit's centre."""
    return (-h[0] - h[1], h[1])


def pit_cells(widths: tuple[int, ...]) -> list[Axial]:
    """Each row ``widths[i]`` hexes wide (line ``TOP - i``), centred on the axis."""
    cells = []
    for i, n in enumerate(widths):
        r = TOP - i
        a = (-r - n + 1) // 2
        cells += [(q, r) for q in range(a, a + n)]
    return cells


def left_stretches(cells: list[Axial]) -> list[tuple[Axial, ...]]:
    """Strings of five wall hexes wholly left of the axis and down the side wall (each on its
    own row: the tracks stand on "the long edges of the mapsheet", L17), from the top down."""
    ring = wall_ring(frozenset(cells))
    n = len(ring)
    top = next((i for i in range(n) if ring[i][1] == TOP and _x2(ring[i]) < 0), 0)
    out = []
    for k in range(n):
        i = (top + k) % n
        s = tuple(ring[(i + j) % n] for j in range(ZONE_HEXES))
        if (len(set(s)) == ZONE_HEXES and all(_x2(h) < 0 for h in s) and len({h[1] for h in s}) == ZONE_HEXES
                and all(hex_distance(a, b) == 1 for a, b in zip(s, s[1:]))):
            out.append(s)
    return out


def spaced(places: tuple[float, ...], n: int, step: int) -> list[int]:
    """Indices into ``n`` stretches for the places (0 to 1), pushed apart to at least ``step``
    where there is room (down first, then back up from the end).

    >>> spaced((0.1, 0.2, 0.9), 13, 6)
    [0, 6, 12]
    """
    if n <= 0:
        return [0] * len(places)
    idx = [min(n - 1, max(0, round(t * (n - 1)))) for t in places]
    for k in range(1, len(idx)):
        idx[k] = max(idx[k], idx[k - 1] + step)
    idx[-1] = min(idx[-1], n - 1)
    for k in range(len(idx) - 2, -1, -1):
        idx[k] = max(0, min(idx[k], idx[k + 1] - step))
    return [min(n - 1, i) for i in idx]


def build(plan: Plan, genome: Genome, *, seed: int, name: str | None = None) -> GliderPitArena:
    """The pit ``genome`` describes (``seed`` is recorded in its description)."""
    if len(genome.widths) != ROWS or len(genome.labels) != ROWS:
        raise GenerateError(f"a genome of {len(genome.widths)} rows; the pit has {ROWS}")
    cells = pit_cells(genome.widths)
    left = left_stretches(cells)
    zones: list[LaunchZone] = []
    for k, i in enumerate(spaced(genome.places, len(left), ZONE_HEXES + plan.catalogue.min_gap)):
        zones.append(LaunchZone(f"Z{k + 1}", k + 1, left[i] if left else ()))
    zones += [LaunchZone(f"Z{k + 4}", k + 4, tuple(mirror(h) for h in z.cells)) for k, z in enumerate(zones)]
    rows = tuple(Row(f"R{i + 1}", TOP - i, label) for i, label in enumerate(genome.labels))
    cat = plan.catalogue
    return GliderPitArena(
        name=name or f"Generated pit (seed {seed})",
        description=(f"Generated by arena generate for {plan.gliders} gliders with mirror symmetry, seed {seed}, from the "
                     f"catalogue {cat.name!r}: rows {min(genome.widths)} to {max(genome.widths)} hexes wide."),
        author="Arena Studio generator", tags=("glider-pit-gladiators", "generated", f"{plan.gliders}-glider", "symmetric"),
        cells=tuple(sorted(cells, key=lambda c: (-c[1], c[0]))), rows=rows, launch_zones=tuple(zones),
        floor=genome.floor, units=Units(hex_mm=cat.hex_mm), symmetry=Symmetry("mirror", 1, 90.0),
        scenario=Scenario(gliders=plan.gliders, start_sets=start_sets_for(plan.gliders)))


#: The launch zones a generated pit declares for fewer than six gliders (``scenario.start_sets``),
#: by Airspeed Track: Z1-Z3 run down the left wall and Z4-Z6 are their mirror images, so an even
#: count takes mirror pairs (the middle pair first, then the corners) and the set keeps the pit's
#: mirror symmetry; an odd count takes alternate zones round the pit (1, 3, 5), the most even
#: spacing it has.  Six gliders play on every zone (always declared).
GENERATED_SETS: dict[int, tuple[int, ...]] = {2: (2, 5), 3: (1, 3, 5), 4: (1, 3, 4, 6), 5: (1, 2, 3, 4, 5)}


def start_sets_for(gliders: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The start set a generated pit declares for ``gliders`` (none for six).

    >>> start_sets_for(2), start_sets_for(6)
    (((2, (2, 5)),), ())
    """
    return ((gliders, GENERATED_SETS[gliders]),) if gliders in GENERATED_SETS else ()


def precheck(arena: GliderPitArena, min_gap: int = 1) -> list[str]:
    """The problems that sink a candidate before any validator runs: a zone missing or short,
    two zones closer along the wall than ``min_gap`` hexes between their ends, or a total 2-12
    on no row."""
    out: list[str] = []
    zones = arena.launch_zones
    for z in zones:
        if len(z.cells) != ZONE_HEXES:
            out.append(f"launch zone {z.id} has {len(z.cells)} hexes (the left wall has no room for it)")
    for i, a in enumerate(zones):
        for b in zones[i + 1:]:
            if a.cells and b.cells:
                gap = min(hex_distance(p, q) for p in a.cells for q in b.cells) - 1
                if gap < min_gap:
                    out.append(f"launch zones {a.id} and {b.id} are {max(gap, 0)} hexes apart along the wall "
                               f"(at least {min_gap})")
    missing = sorted(set(TOTALS) - {r.label for r in arena.rows})
    if missing:
        out.append(f"no row carries {', '.join(map(str, missing))}")
    return out


__all__ += ["ArenaError", "left_stretches", "mirror", "pit_cells", "semantic"]
