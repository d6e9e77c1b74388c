"""Glider-Pit Gladiators' balance hook (its ruleset's ``balance``): launch zones slid along the
pit wall, a whole hex at a time, to remove a zone finding, and how a slide carries to the
declared symmetry's images.

What may move (``--free``): ``launch_zones``.  The pit's hexes, its numbered rows and the FLOOR
are the mapsheet and stay.  A zone is "a string of five hexes along the wall of the pit" (L55),
so the only move that keeps it one is a slide along the wall (:mod:`engine.gliderpit.wall`): a
move's size is a count of wall hexes (``steps`` 1 to 12; no turns), its direction the wall's way
round at the zone (counter-clockwise or clockwise).  A slide is written as a vector along the
zone's counter-clockwise tangent so that :func:`validators.balance_hooks.carry` maps it to the
images: a mirror turns a counter-clockwise slide into a clockwise one, a rotation keeps it, and
a zone a mirror maps onto itself cannot slide (the two ways cancel).

Seeds per finding:

- ``gp-launch-zones`` naming two zones (they share a hex): each zone, both ways along the wall;
  naming one zone broken off the wall part-way (its last hexes elsewhere), and
  ``gp-launch-facing`` naming a zone (a hex of it walled on every side): that zone laid along
  the wall from its unbroken run, a hex at a time either way, its stray hexes dropped;
- ``gp-zone-centre``, ``-spacing``, ``-clearance``, ``-facings``, ``-currents``, ``-travel`` (the
  zones at the ends of the spread) and ``gp-symmetry`` naming a zone: each named zone, both ways.

The symmetry kept is minus the count of ``gp-symmetry`` findings, as Arena Rex's.
"""

from __future__ import annotations

import math
from typing import Any

from engine.gliderpit.checks import check_symmetry
from engine.gliderpit.pit import pit_of
from engine.gliderpit.wall import anchor, relaid, wall_ring
from engine.grids import HexLayout
from engine.placement import Offset
from engine.symmetry import apply_point, operations
from schema.games.gliderpit import GliderPitArena, LaunchZone
from validators.balance_hooks import Operation, Seed, carry
from validators.findings import Finding
from validators.report import Report

FREE: dict[str, tuple[str, ...]] = {"launch_zones": ("launch_zones",)}
#: The findings a zone's slide may remove.
ZONE_CODES = ("gp-zone-centre", "gp-zone-spacing", "gp-zone-clearance", "gp-zone-facings", "gp-zone-currents",
              "gp-zone-travel", "gp-symmetry", "gp-launch-zones", "gp-launch-facing")


def _zone(arena: GliderPitArena, ref: str) -> LaunchZone | None:
    return next((z for z in arena.launch_zones if z.id == ref), None)


def _ring(arena: GliderPitArena) -> tuple[tuple[int, int], ...]:
    return wall_ring(frozenset(arena.cells))


def ccw_tangent(arena: GliderPitArena, zone: LaunchZone) -> tuple[float, float] | None:
    """The unit vector from the clockwise end of the zone's stretch of wall to its
    counter-clockwise end (None: not even its first two hexes lie along the wall).  A zone broken
    off the wall part-way is read by its unbroken leading run (:func:`engine.gliderpit.wall.anchor`)."""
    ring = _ring(arena)
    at = anchor(ring, zone.cells)
    if at is None:
        return None
    lay = pit_of(arena).layout
    (x0, y0), (x1, y1) = lay.center(zone.cells[0]), lay.center(zone.cells[at[2] - 1])
    dx, dy = (x1 - x0) * at[1], (y1 - y0) * at[1]
    n = math.hypot(dx, dy)
    return None if n < 1e-9 else (dx / n, dy / n)


class GliderPitBalance:
    """The hook (see the module docstring)."""

    unit = "hexes"
    free: dict[str, tuple[str, ...]] = FREE
    steps: tuple[float, ...] = tuple(float(k) for k in range(1, 13))
    turns: tuple[float, ...] = ()
    whole_steps = True

    def kind_of(self, arena: GliderPitArena, ref: str) -> str | None:
        return "launch_zones" if _zone(arena, ref) is not None else None

    def name(self, arena: GliderPitArena, ref: str) -> str:
        return f"launch zone {ref}" if _zone(arena, ref) is not None else ref

    def moved(self, arena: GliderPitArena, ref: str, off: Offset) -> Any:
        """The zone slid ``round(off · tangent)`` hexes along the wall (unchanged when it cannot
        slide: the file checks or the validators then refuse the candidate).  A zone broken off
        the wall part-way is laid along it from its unbroken run, its stray hexes dropped
        (:func:`engine.gliderpit.wall.relaid`)."""
        zone = _zone(arena, ref)
        assert zone is not None
        t = ccw_tangent(arena, zone)
        if t is None:
            return zone
        steps = round(off.dx * t[0] + off.dy * t[1])
        cells = relaid(_ring(arena), zone.cells, steps) if steps else None
        return zone if cells is None else LaunchZone(zone.id, zone.track, cells, zone.extensions)

    def fits(self, before: GliderPitArena, after: GliderPitArena, refs: list[str]) -> bool:
        """Every moved zone really moved and lies on the wall."""
        ring = set(_ring(before))
        for r in refs:
            a, b = _zone(before, r), _zone(after, r)
            if a is None or b is None or a.cells == b.cells or not set(b.cells) <= ring:
                return False
        return True

    def symmetries(self, arena: GliderPitArena) -> int:
        return -len(check_symmetry(arena))

    def images(self, arena: GliderPitArena, ref: str, off: Offset) -> dict[str, Offset]:
        return carry(ref, off, self._operations(arena, ref))

    def _operations(self, arena: GliderPitArena, ref: str) -> list[Operation]:
        sym, zone = arena.symmetry, _zone(arena, ref)
        if sym is None or zone is None or not arena.cells:
            return []
        pit = pit_of(arena)
        lay: HexLayout = pit.layout
        cx, cy = pit.centre
        zones = {frozenset(z.cells): z.id for z in arena.launch_zones}
        out: list[Operation] = []
        for fn, mirror, _ in operations(sym.kind, sym.order, sym.axis, identity=False):
            image = set()
            for h in zone.cells:
                x, y = apply_point(fn, lay.center(h), cx, cy)
                image.add(lay.cell_at(x, y))
            out.append((fn, mirror, zones.get(frozenset(image))))
        return out

    def seeds(self, arena: GliderPitArena, finding: Finding, report: Report) -> list[Seed]:
        if finding.code not in ZONE_CODES:
            return []
        out: list[Seed] = []
        for ref in finding.elements:
            zone = _zone(arena, ref)
            t = None if zone is None else ccw_tangent(arena, zone)
            if t is None:
                continue
            out.append(Seed(ref, t, 0.0, "counter-clockwise along the wall"))
            out.append(Seed(ref, (-t[0], -t[1]), 0.0, "clockwise along the wall"))
        return out


HOOK = GliderPitBalance()
