"""How many bases a deployment zone holds side by side, and where a base may stand in it.

"Players alternate deploying miniatures along their board edge, in base to base contact with the
edge. Find the center of your board edge, your cohort may be deployed up to 6 inches away from
the center in either direction." (L40).  A base deployed in a zone touches the edge at a point of
the zone, so its centre lies on the zone's centre line (:meth:`Edge.centre_line`, the zone one
base radius inside the board).  It may not stand where it would overlap a terrain hazard that
blocks movement, touch a pit or stand on spikes (as the movement analysis keeps it), nor stick
out over another side of the board.

Two bases side by side touch each other: on a straight side their centres are one diameter apart
along the centre line; on a circle board the centre line is the circle of radius rho = R - r, so
the centres are the arc 2 rho asin(r / rho) apart, a little more than a diameter: fewer bases fit
along a curved edge than along a straight one of the same length (the circle measured as a
circle).

:func:`free_spans` finds the stretches of the centre line where a base may stand, exactly (the
distances to circles are computed as circles; every change between free and blocked is found on
a 0.01 in sampling and bisected to 1e-9 in); :func:`packed` puts bases down greedily from one
end, which fits the most (a base placed as early as it may go never leaves less room for the
next).

>>> from schema.games.arenarex import default_arena
>>> arena = default_arena()
>>> e = arena.edge(arena.deployment[0])
>>> r = 50 / 25.4 / 2
>>> packed(free_spans(arena, e, r), spacing(e, r), e.closed, e.centre_length(r), 8)
6
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry.base import BaseGeometry

from schema.games.arenarex import ArenaRexArena
from schema.games.arenarex.edges import Edge
from schema.shapes import AreaShape, Circle

FloatArray = npt.NDArray[np.float64]
#: Sampling step (inches along the centre line) that finds the changes between free and blocked.
STEP = 0.01
#: The changes are bisected to this (inches).
PRECISION = 1e-9
#: At most this many samples per zone (the step grows on a very long zone).
MAX_SAMPLES = 20_000


def spacing(e: Edge, r: float) -> float:
    """How far apart (inches along the centre line) the centres of two bases of radius ``r``
    side by side stand: a diameter on a side; on a circle the arc whose chord is a diameter
    (``inf`` when two such bases cannot both touch the rim)."""
    if e.circle is None:
        return 2.0 * r
    rho = e.circle[2] - r
    if rho <= 0 or r > rho:
        return math.inf
    return 2.0 * rho * math.asin(r / rho)


def _distance(shape: AreaShape, pts: FloatArray) -> FloatArray:
    """The distance from each point to ``shape`` (0 inside it), a circle's exactly."""
    if isinstance(shape, Circle):
        d = np.hypot(pts[:, 0] - shape.center[0], pts[:, 1] - shape.center[1]) - shape.radius
        return np.asarray(np.maximum(d, 0.0), dtype=float)
    return np.asarray(shapely.distance(shape.to_shapely(), shapely.points(pts)), dtype=float)


def _near(shapes: list[AreaShape], line: BaseGeometry, within: float) -> list[AreaShape]:
    """The ``shapes`` that come within ``within`` of ``line`` (one vectorised distance)."""
    if not shapes or line.is_empty:
        return []
    gaps = shapely.distance(np.array([s.to_shapely() for s in shapes], dtype=object), line)
    return [s for s, g in zip(shapes, np.asarray(gaps, dtype=float)) if g <= within]


def stand_test(arena: ArenaRexArena, r: float, e: Edge | None = None) -> Callable[[FloatArray], npt.NDArray[np.bool_]]:
    """Points -> whether a base of radius ``r`` centred there overlaps no terrain hazard that
    blocks movement, no spikes, touches no pit and lies wholly on a rectangle or polygon board
    (on a circle board the centre line is on it by construction).  Given the zone ``e`` whose
    centre line the points lie on, only the pieces within reach of that line are tested."""
    pits = [p.shape for p in arena.pits]
    solid = [s.shape for s in arena.spikes] + [h.shape for h in arena.hazards if h.blocks_movement]
    if e is not None:  # the drawn centre line strays from an arc by far less than the margin
        line = e.centre_line(r)
        pits, solid = _near(pits, line, r + 0.01), _near(solid, line, r + 0.01)
    board = None if isinstance(arena.bounds, Circle) else arena.bounds.to_shapely()

    def ok(pts: FloatArray) -> npt.NDArray[np.bool_]:
        out = np.ones(len(pts), dtype=bool)
        for shape in pits:  # touching a pit is death: strictly more than r away
            out &= _distance(shape, pts) > r + PRECISION
        for shape in solid:  # touching a column is fine, overlapping it is not
            out &= _distance(shape, pts) >= r - PRECISION
        if board is not None:
            p = shapely.points(pts)
            out &= np.asarray(shapely.contains(board, p), dtype=bool)
            out &= np.asarray(shapely.distance(board.exterior, p), dtype=float) >= r - PRECISION
        return out

    return ok


def free_spans(arena: ArenaRexArena, e: Edge, r: float) -> list[tuple[float, float]]:
    """The stretches ``(from, to)`` (inches along the centre line of a base of radius ``r``)
    where such a base may stand in the zone, in order."""
    length = e.centre_length(r)
    if e.circle is not None and e.circle[2] - r <= 0:
        return []
    ok = stand_test(arena, r, e)

    def at(us: FloatArray) -> FloatArray:
        return np.asarray([e.centre_at(r, float(u)) for u in us], dtype=float).reshape(-1, 2)

    n = max(2, min(MAX_SAMPLES, int(math.ceil(length / STEP)) + 1))
    us = np.linspace(0.0, length, n)
    free = ok(at(us))
    spans: list[tuple[float, float]] = []
    start: float | None = float(us[0]) if free[0] else None
    for k in range(1, n):
        if free[k] == free[k - 1]:
            continue
        lo, hi = float(us[k - 1]), float(us[k])  # free[lo] != free[hi]: bisect the change
        lo_free = bool(free[k - 1])
        while hi - lo > PRECISION:
            mid = (lo + hi) / 2.0
            if bool(ok(at(np.array([mid])))[0]) == lo_free:
                lo = mid
            else:
                hi = mid
        if lo_free:
            spans.append((start if start is not None else lo, lo))
            start = None
        else:
            start = hi
    if start is not None:
        spans.append((start, float(us[-1])))
    return spans


def packed(spans: list[tuple[float, float]], gap: float, closed: bool, length: float, most: int) -> int:
    """How many bases whose centres must stand ``gap`` apart fit on ``spans`` (at most ``most``):
    each as early as it may go.  On a ``closed`` zone (a whole circle, ``length`` round) the last
    keeps its distance from the first too."""
    count = 0
    last = -math.inf
    first = math.inf
    for a, b in spans:
        x = max(a, last + gap)
        while x <= b + PRECISION:
            if closed and count and (first + length) - x < gap - PRECISION:
                return count
            if not count:
                first = x
            count += 1
            last = x
            if count >= most:
                return count
            x += gap
    return count


__all__ = ["PRECISION", "STEP", "free_spans", "packed", "spacing", "stand_test"]
