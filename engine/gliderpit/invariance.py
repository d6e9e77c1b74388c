"""The symmetry operations a pit really has under the game's rules, as exact hex maps
(:class:`engine.grids.HexMap`), and each launch zone's *frame*: the operation taking it to the
first zone (lowest Airspeed Track) of its orbit.

An operation of the declared symmetry (about the pit's centroid, as the ``gp-symmetry`` check
takes it) counts when it carries the hex lattice onto itself and maps the pit's hexes, its
launch zones, its centre hexes and its numbered rows onto their own kind: every row onto a row
(a line of the grid onto a line) carrying the same 2d6 total and current, or ``14 - total``
(2d6 is symmetric about 7, so the image total is exactly as likely: the editor's rule,
``editor/games/gliderpit/symmetry.py``).  Under such an operation the book's rules treat a
glider and its image alike; simulated play (:mod:`engine.gliderpit.play.policies`) has each seat
decide in its frame so that the policies' orders of exploration and ties do too.

>>> from schema import load
>>> arena = load("arenas/glider-pit-gladiators/hexagonal-pit.yaml")
>>> ops = pit_symmetries(arena)
>>> len(ops), ops[0].reflects, ops[0].cell((-9, 8))
(1, True, (1, 8))
>>> {k: (f.first, f.op is not None) for k, f in sorted(zone_frames(arena).items())}
{1: (1, False), 2: (2, False), 3: (3, False), 4: (1, True), 5: (2, True), 6: (3, True)}
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from engine.gliderpit.pit import pit_of
from engine.grids import HexMap, hex_map, symmetry_transforms
from schema.games.gliderpit import GliderPitArena

#: 2d6 totals run 2..12: ``TOTAL_MIRROR - k`` is as likely as ``k``.
TOTAL_MIRROR = 14


def _rows_map(arena: GliderPitArena, op: HexMap) -> bool:
    """Whether ``op`` sends every row onto a row with the same (or the mirrored) total and
    current."""
    pit = pit_of(arena)
    lines: dict[int, int] = {}
    for h in pit.cells:
        line, image = pit.line_of(h), pit.line_of(op.cell(h))
        if lines.setdefault(line, image) != image:
            return False  # a row of hexes goes to a slant of the grid: the currents differ
    on_line: dict[int, Counter[tuple[int, str]]] = {}
    for row in arena.rows:
        if pit.row_number(row.line) is not None:
            on_line.setdefault(row.line, Counter())[(row.label, row.current)] += 1
    same = flipped = True
    for line, rows in on_line.items():
        other = on_line.get(lines.get(line, line), Counter())
        same = same and other == rows
        flipped = flipped and other == Counter({(TOTAL_MIRROR - k, c): n for (k, c), n in rows.items()})
    return same or flipped


@lru_cache(maxsize=16)
def pit_symmetries(arena: GliderPitArena) -> tuple[HexMap, ...]:
    """The declared symmetry's operations (not the identity) that really hold (module
    docstring), in the declaration's order."""
    sy = arena.symmetry
    pit = pit_of(arena)
    if sy is None or not pit.cells:
        return ()
    zones = {frozenset(z.cells) for z in arena.launch_zones}
    centre = frozenset(pit.centre_cells)
    out = []
    for tf in symmetry_transforms(sy.kind, sy.order, pit.centre, sy.axis):
        op = hex_map(pit.layout, tf)
        if op is None or {op.cell(h) for h in pit.cells} != pit.cells:
            continue
        if any(frozenset(op.cell(h) for h in z.cells) not in zones for z in arena.launch_zones):
            continue
        if frozenset(op.cell(h) for h in centre) != centre or not _rows_map(arena, op):
            continue
        out.append(op)
    return tuple(out)


@dataclass(frozen=True)
class ZoneFrame:
    """A zone's frame: ``op`` takes the zone (and everything about its glider) to the zone of
    track ``first``, the lowest track of its orbit; None when it is that zone."""

    first: int
    op: HexMap | None


@lru_cache(maxsize=16)
def zone_frames(arena: GliderPitArena) -> dict[int, ZoneFrame]:
    """Every launch zone's :class:`ZoneFrame`, by track."""
    ops = pit_symmetries(arena)
    by_cells = {frozenset(z.cells): z.track for z in arena.launch_zones}
    out: dict[int, ZoneFrame] = {}
    for z in arena.launch_zones:
        first: tuple[int, HexMap | None] = (z.track, None)
        for op in ops:
            image = by_cells[frozenset(op.cell(h) for h in z.cells)]
            if image < first[0]:
                first = (image, op)
        out[z.track] = ZoneFrame(*first)
    return out
