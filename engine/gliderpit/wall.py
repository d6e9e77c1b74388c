"""The pit wall as a ring: the wall hexes in order counter-clockwise around the pit, and launch
zones as stretches of it.  "Each launch zone is comprised of a string of five hexes along the
wall of the pit" (L55), so a zone moves by sliding along the wall, a whole hex at a time.

The ring follows the pit's outer boundary hexside by hexside (the pit on the left); a corner hex
with several wall hexsides is listed once, a hex the boundary passes twice (a neck one hex wide)
twice.  Consecutive hexes of the ring are neighbours.

>>> from schema.games.gliderpit import default_arena
>>> arena = default_arena()
>>> ring = wall_ring(frozenset(arena.cells))
>>> len(ring), len(set(ring))
(54, 54)
>>> z1 = arena.launch_zones[0]
>>> slid(ring, z1.cells, 2)
((-9, 6), (-9, 5), (-9, 4), (-9, 3), (-9, 2))
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from engine.grids import HEX_DIRECTIONS, Axial, hex_distance

#: A corner of a hex, exactly: the three hexes that meet there, sorted.
_Corner = tuple[Axial, Axial, Axial]


def _corner(h: Axial, i: int) -> _Corner:
    """Corner ``i`` of ``h`` (where hexsides ``i`` and ``i + 1`` meet), named by its three hexes."""
    a = HEX_DIRECTIONS[i % 6]
    b = HEX_DIRECTIONS[(i + 1) % 6]
    return tuple(sorted((h, (h[0] + a[0], h[1] + a[1]), (h[0] + b[0], h[1] + b[1]))))  # type: ignore[return-value]


@lru_cache(maxsize=32)
def wall_ring(cells: frozenset[Axial]) -> tuple[Axial, ...]:
    """The hexes along the pit's outer wall, counter-clockwise, each stretch of one hex's wall
    hexsides once (empty for no cells)."""
    if not cells:
        return ()
    # every wall hexside (h, d) runs from corner d-1 to corner d with the pit on its left
    edges: dict[_Corner, list[tuple[Axial, int]]] = {}
    for h in cells:
        for d, (dq, dr) in enumerate(HEX_DIRECTIONS):
            if (h[0] + dq, h[1] + dr) not in cells:
                edges.setdefault(_corner(h, d - 1), []).append((h, d))
    # start on the outer boundary: the lowest hex's wall hexside facing down-left or down
    low = min(cells, key=lambda c: (c[1], c[0]))
    start = next((low, d) for d in (4, 3, 5, 2, 0, 1) if (low[0] + HEX_DIRECTIONS[d][0], low[1] + HEX_DIRECTIONS[d][1])
                 not in cells)
    ring: list[Axial] = []
    edge = start
    for _ in range(6 * len(cells) + 6):
        h, d = edge
        if not ring or ring[-1] != h:
            ring.append(h)
        nxt = edges.get(_corner(h, d), [])
        if not nxt:
            break
        # at a pinch corner two wall hexsides leave it: take the one of the same hex, else the first
        edge = next((e for e in nxt if e[0] == h), nxt[0])
        if edge == start:
            break
    if len(ring) > 1 and ring[0] == ring[-1]:
        ring.pop()
    return tuple(ring)


def stretch_at(ring: Sequence[Axial], zone: Sequence[Axial]) -> tuple[int, int] | None:
    """Where ``zone`` lies on the ring: ``(index of its first hex, +1 or -1)`` (-1: the zone is
    listed clockwise), or None when it is not one unbroken stretch of the ring."""
    n, k = len(ring), len(zone)
    if not k or k > n:
        return None
    for i, h in enumerate(ring):
        if h != zone[0]:
            continue
        for way in (1, -1):
            if all(ring[(i + way * j) % n] == zone[j] for j in range(k)):
                return i, way
    return None


def slid(ring: Sequence[Axial], zone: Sequence[Axial], steps: int) -> tuple[Axial, ...] | None:
    """``zone`` moved ``steps`` hexes along the wall (counter-clockwise when positive), listed
    the same way round; None when the zone is not a stretch of the ring, or the new stretch is
    not a string of distinct neighbouring hexes."""
    at = stretch_at(ring, zone)
    if at is None:
        return None
    i, way = at
    n = len(ring)
    out = tuple(ring[(i + steps + way * j) % n] for j in range(len(zone)))
    if len(set(out)) != len(out) or any(hex_distance(a, b) != 1 for a, b in zip(out, out[1:])):
        return None
    return out


def anchor(ring: Sequence[Axial], zone: Sequence[Axial]) -> tuple[int, int, int] | None:
    """Where the wall part of ``zone`` lies on the ring: ``(index of its first hex, +1 or -1,
    hexes)`` for the longest leading run of the zone (at least two hexes, to know its way round)
    that is an unbroken stretch of the ring - the whole zone when it is one; None when not even
    its first two hexes are.  A zone broken off the wall part-way (its last hexes elsewhere:
    ``gp-launch-zones`` "breaks after hex k") is where its unbroken run is.

    >>> ring = tuple((q, 0) for q in range(8))
    >>> anchor(ring, ((2, 0), (3, 0), (4, 0), (9, 9), (5, 0)))
    (2, 1, 3)
    """
    for k in range(len(zone), 1, -1):
        at = stretch_at(ring, zone[:k])
        if at is not None:
            return at[0], at[1], k
    return None


def relaid(ring: Sequence[Axial], zone: Sequence[Axial], steps: int) -> tuple[Axial, ...] | None:
    """``zone`` laid along the wall from its :func:`anchor`, ``steps`` hexes on (counter-clockwise
    when positive), as many hexes as it lists, the same way round: :func:`slid` for a zone that
    is a stretch of the ring; for one broken off part-way, its hexes off the stretch are dropped
    and the stretch continued along the wall.  None when the zone has no anchor or the new
    stretch is not a string of distinct neighbouring hexes.

    >>> ring = tuple((q, 0) for q in range(8))
    >>> relaid(ring, ((2, 0), (3, 0), (4, 0), (9, 9), (5, 0)), 1)
    ((3, 0), (4, 0), (5, 0), (6, 0), (7, 0))
    """
    at = anchor(ring, zone)
    if at is None:
        return None
    i, way, _ = at
    n = len(ring)
    out = tuple(ring[(i + steps + way * j) % n] for j in range(len(zone)))
    if len(set(out)) != len(out) or any(hex_distance(a, b) != 1 for a, b in zip(out, out[1:])):
        return None
    return out


def tangent(ring: Sequence[Axial], zone: Sequence[Axial]) -> int | None:
    """+1 when the zone's hexes are listed counter-clockwise along the wall, -1 clockwise, None
    when it is not a stretch of the ring."""
    at = stretch_at(ring, zone)
    return None if at is None else at[1]


def stretches(ring: Sequence[Axial], length: int) -> list[tuple[Axial, ...]]:
    """Every string of ``length`` distinct neighbouring hexes along the ring, counter-clockwise,
    starting at each ring index in turn."""
    n = len(ring)
    out = []
    for i in range(n):
        s = tuple(ring[(i + j) % n] for j in range(length))
        if len(set(s)) == length and all(hex_distance(a, b) == 1 for a, b in zip(s, s[1:])):
            out.append(s)
    return out
