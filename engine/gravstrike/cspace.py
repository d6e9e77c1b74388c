"""Configuration-space data per heading, for fast end-of-length checks in the planner.

For a fixed heading the footprint is a fixed rectangle ``R`` around the centre, so "the
footprint at centre ``c`` meets shape ``G``" is the point test "``c`` lies in ``G ⊕ R``"
(the Minkowski sum; ``R`` is centrally symmetric).  Each heading gets

* the free region: centres whose footprint neither overlaps a wall nor leaves the bounds;
* for every zone (field, exclusion field, goal) the region of centres that touch/overlap it;

and a raster of :data:`CELL`-sized cells that answers most point tests with one lookup: a cell is
known free, known blocked, or *mixed* (near an edge), and only mixed cells fall back to an exact
shapely point test.  The contact semantics are those of :mod:`engine.gravstrike.geometry` (tolerance
:data:`engine.gravstrike.geometry.TOLERANCE`), circles included: a circle's region is the rectangle grown by
the radius with rounded corners, which shapely can only approximate, so the raster is classified
from a polygon known to lie within :data:`CIRCLE_SLACK` of it and mixed cells test the true
circle.

>>> from schema.games.gravstrike.model import Arena, Rect, Wall
>>> arena = Arena(name="t", bounds=Rect((0.0, 0.0), (10.0, 10.0)), walls=(Wall("W", Rect((3.0, 0.0), (1.0, 4.0))),))
>>> cs = CSpace(ArenaGeometry(arena), ())
>>> h = cs.heading(0.0)
>>> h.is_free(0.0, 0.0), h.is_free(2.2, 0.0), h.is_free(4.6, 0.0)
(True, False, False)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import overload

import numpy as np
import shapely
import shapely.affinity
from shapely.geometry import LineString
from shapely.geometry import Polygon as ShapelyPolygon
from shapely.geometry.base import BaseGeometry

from engine import budget as caps
from engine.gravstrike.geometry import TOLERANCE, ArenaGeometry, CircleSpec
from engine.gravstrike.motion import normalize_heading
from engine.gravstrike.msum import (
    CIRCLE_SLACK,
    Summand,
    circumscribed,
    minkowski,
    minkowski_many,
    rect_offsets,
)
from engine.gravstrike.raster import CELL, Raster, circle_rect_distance

__all__ = ["BLOCKED", "CELL", "CIRCLE_SLACK", "FREE", "MAX_BIT_ZONES", "MIXED", "CSpace", "HeadingSpace", "Raster", "ZoneSpec",
           "circle_rect_distance", "circumscribed", "minkowski", "rect_offsets"]

FREE, BLOCKED, MIXED = 1, 0, 2
#: Scalar zone lookups a heading space answers from its numpy masks before it copies them to
#: lists (faster per lookup, about 16 bytes a raster cell: 48 MB on a 48-length table's lattices).
SCALAR_LISTS_AFTER = 20_000

#: Zones beyond this many get no bit in the vectorised masks (the scalar lookups still see them).
MAX_BIT_ZONES = 64
class Regions(Sequence[BaseGeometry]):
    """A heading space's zone regions: geometries, or functions that make one when it is first
    read (then kept, prepared for point tests)."""

    def __init__(self, items: Sequence[BaseGeometry | Callable[[], BaseGeometry]]) -> None:
        self._items = list(items)
        for item in self._items:
            if isinstance(item, BaseGeometry):
                shapely.prepare(item)

    def __len__(self) -> int:
        return len(self._items)

    @overload
    def __getitem__(self, i: int) -> BaseGeometry: ...

    @overload
    def __getitem__(self, i: slice) -> list[BaseGeometry]: ...

    def __getitem__(self, i: int | slice) -> BaseGeometry | list[BaseGeometry]:
        if isinstance(i, slice):
            return [self[k] for k in range(len(self))[i]]
        item = self._items[i]
        if not isinstance(item, BaseGeometry):
            item = self._items[i] = item()
            shapely.prepare(item)
        return item

    def __setitem__(self, i: int, geom: BaseGeometry) -> None:
        shapely.prepare(geom)
        self._items[i] = geom


@dataclass(frozen=True)
class ZoneSpec:
    """A zone for the planner: ``overlap`` zones need more than touching (exclusion fields);
    ``circle`` is set when the zone is a circle (its region is then tested exactly)."""

    kind: str
    id: str
    geometry: BaseGeometry
    overlap: bool = False
    direction: float = 0.0
    circle: CircleSpec | None = None


class HeadingSpace:
    """Free region and zone regions of the centre for one heading.

    ``free`` and ``zones`` are polygons; where they stand for regions made from circles (circular
    walls; circular checkpoints, fields and exclusion fields) the polygons are approximations
    (``free`` with the walls' circumscribed polygons: never larger than the true free region) and
    the exact tests (:meth:`free_exact`, :meth:`zone_exact`) use ``free_base`` (the free region
    without the circular walls), ``wall_circles`` and ``zone_circles`` instead.
    """

    def __init__(self, raster: Raster, free: BaseGeometry, zones: Sequence[BaseGeometry], *, heading: float = 0.0,
                 halves: tuple[tuple[float, float], tuple[float, float]] = ((0.5, 0.25), (0.5, 0.25)),
                 free_base: Callable[[], BaseGeometry] | None = None, wall_circles: Sequence[CircleSpec] = (),
                 zone_circles: dict[int, tuple[CircleSpec, bool]] | None = None,
                 classes: Sequence[tuple[np.ndarray, np.ndarray]] | None = None,
                 out: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None) -> None:
        """``classes``: the zones' cells (:meth:`Raster.classify_regions` of :func:`_zone_item`), if
        classified already."""
        self.raster = raster
        #: The footprint's corner offsets shrunk/grown by the contact tolerance (set by CSpace).
        self.offsets: tuple[list[tuple[float, float]], list[tuple[float, float]]] = ([], [])
        self.heading = heading
        #: (half length, half width) of the footprint shrunk and grown by the contact tolerance.
        self.shrunk_half, self.grown_half = halves
        self.free = free
        self._free_base = free_base
        self._base: BaseGeometry | None = None if free_base is not None else free
        self.wall_circles = tuple(wall_circles)
        if self.wall_circles:
            self._circles = np.array(self.wall_circles, dtype=float).T  # (3, n): x, y, radius
        #: Zone index -> (its circle, whether it is an overlap zone), for circular zones.
        self.zone_circles: dict[int, tuple[CircleSpec, bool]] = dict(zone_circles or {})
        shapely.prepare(free)
        cells = raster.nx * raster.ny
        # all BLOCKED (0), no zone bits; ``out``: such arrays to fill instead (rows of stacks)
        status, sure, maybe_ = out or (np.zeros(cells, dtype=np.uint8), np.zeros(cells, dtype=np.uint64),
                                       np.zeros(cells, dtype=np.uint64))
        slack = CIRCLE_SLACK * max((c[2] for c in self.wall_circles), default=0.0)
        inside, maybe = raster.classify(free, slack=slack)
        status[inside] = FREE
        status[maybe] = MIXED
        self.status = bytes(status)
        #: The same, as an array, and per cell the zones certainly met (``sure_bits``) and maybe met
        #: (``maybe_bits``, an exact test decides) as bit masks, for vectorised lookups
        #: (:mod:`engine.gravstrike.frontier`; only the first :data:`MAX_BIT_ZONES` zones get bits).
        self.status_array = status
        self.sure_bits, self.maybe_bits = sure, maybe_
        self.zones = zones if isinstance(zones, Regions) else Regions(zones)
        extra: dict[int, list[tuple[int, bool]]] = {}
        #: The cells carrying each bit zone's bits (cleared when the zone is replaced).
        self._cells: dict[int, np.ndarray] = {}
        if classes is None:
            classes = raster.classify_regions([_zone_item(self.zones, self.zone_circles, heading, halves)])[0]
        for z, (inside, maybe) in enumerate(classes):
            if z < MAX_BIT_ZONES:
                bit = np.uint64(1 << z)
                self._cells[z] = np.concatenate([inside, maybe])
                self.sure_bits[inside] |= bit
                self.maybe_bits[maybe] |= bit
                continue
            for c in inside.tolist():
                extra.setdefault(c, []).append((z, True))
            for c in maybe.tolist():
                extra.setdefault(c, []).append((z, False))
        self._lists: tuple[list[int], list[int]] | None = None  # the masks as lists, made on demand
        self._scalar = 0  # scalar lookups so far (the lists pay off for a scalar search, not a few paths)
        #: Zones past the bit masks, per cell: (zone, certainly met).
        self.extra: dict[int, tuple[tuple[int, bool], ...]] = {c: tuple(v) for c, v in extra.items()}

    def _classify_zone(self, z: int) -> tuple[np.ndarray, np.ndarray]:
        """The raster's (certain, maybe) cells of zone ``z``: a circular zone's from its exact
        distance (the test :meth:`zone_exact` makes; its polygon only approximates it)."""
        spec = self.zone_circles.get(z)
        if spec is None:
            return self.raster.classify(self.zones[z])
        circle, overlap = spec
        hl, hw = self.shrunk_half if overlap else self.grown_half
        return self.raster.classify_circle(circle, hl, hw, self.heading)

    @property
    def free_base(self) -> BaseGeometry:
        """The free region without the circular walls (made when first needed)."""
        if self._base is None:
            assert self._free_base is not None
            self._base = self._free_base()
            shapely.prepare(self._base)
        return self._base

    # -- exact tests (for cells the raster can't settle) ----------------------------------------------
    def free_exact(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Is a footprint centred on each (x, y) clear of every wall and inside the bounds?"""
        ok: np.ndarray = shapely.contains_xy(self.free, x, y)
        if not self.wall_circles or ok.all():  # ``free`` lies inside the true free region
            return ok
        doubt = np.flatnonzero(~ok)  # outside the circumscribed circles' region: test the true circles
        xs, ys = x[doubt], y[doubt]
        cx, cy, r = self._circles
        # only centres within reach of a circle can be in the sliver between it and its polygon;
        # the others are blocked by a polygonal wall or the bounds
        reach = r + math.hypot(*self.shrunk_half) + CIRCLE_SLACK * r + 1e-9
        near = ((cx[None, :] - xs[:, None]) ** 2 + (cy[None, :] - ys[:, None]) ** 2 <= (reach * reach)[None, :]).any(axis=1)
        if not near.any():
            return ok
        doubt, xs, ys = doubt[near], xs[near], ys[near]
        a = math.radians(self.heading)
        c, s = math.cos(a), math.sin(a)
        dx, dy = cx[None, :] - xs[:, None], cy[None, :] - ys[:, None]
        hl, hw = self.shrunk_half
        lx = np.maximum(np.abs(dx * c + dy * s) - hl, 0.0)
        ly = np.maximum(np.abs(-dx * s + dy * c) - hw, 0.0)
        clear = (lx * lx + ly * ly > r[None, :] * r[None, :]).all(axis=1)
        ok[doubt] = clear & shapely.contains_xy(self.free_base, xs, ys)
        return ok

    def zone_exact(self, z: int, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Does a footprint centred on each (x, y) meet zone ``z`` (touch, or overlap)?"""
        spec = self.zone_circles.get(z)
        if spec is None:
            hit: np.ndarray = shapely.intersects_xy(self.zones[z], x, y)
            return hit
        circle, overlap = spec
        hl, hw = self.shrunk_half if overlap else self.grown_half
        return circle_rect_distance(x, y, circle, hl, hw, self.heading) <= circle[2]

    def _free_at(self, x: float, y: float) -> bool:
        if not self.wall_circles:
            return bool(shapely.contains_xy(self.free, x, y))
        return bool(self.free_exact(np.array([x]), np.array([y]))[0])

    def _zone_at(self, z: int, x: float, y: float) -> bool:
        if z not in self.zone_circles:
            return bool(shapely.intersects_xy(self.zones[z], x, y))
        return bool(self.zone_exact(z, np.array([x]), np.array([y]))[0])

    def set_zone(self, z: int, geom: BaseGeometry, circle: tuple[CircleSpec, bool] | None = None) -> np.ndarray:
        """Replace zone ``z``'s region (its bits, or its cells past the bit masks; ``circle`` for a
        circular zone); returns the cells whose bits changed."""
        shapely.prepare(geom)
        self.zones[z] = geom
        if circle is None:
            self.zone_circles.pop(z, None)
        else:
            self.zone_circles[z] = circle
        inside, maybe = self._classify_zone(z)
        if z >= MAX_BIT_ZONES:
            extra = {c: [e for e in v if e[0] != z] for c, v in self.extra.items()}
            for c in inside.tolist():
                extra.setdefault(c, []).append((z, True))
            for c in maybe.tolist():
                extra.setdefault(c, []).append((z, False))
            self.extra = {c: tuple(v) for c, v in extra.items() if v}
            return np.zeros(0, dtype=np.int64)
        bit = np.uint64(1 << z)
        old = self._cells[z]
        self._cells[z] = np.concatenate([inside, maybe])
        self.sure_bits[old] &= ~bit
        self.maybe_bits[old] &= ~bit
        self.sure_bits[inside] |= bit
        self.maybe_bits[maybe] |= bit
        self._lists = None
        return np.concatenate([old, self._cells[z]])

    def _cell_zones(self, c: int, x: float, y: float) -> list[int]:
        if self._lists is None:
            self._scalar += 1
            if self._scalar <= SCALAR_LISTS_AFTER:  # a few lookups (paths, goals): read the arrays
                sure, maybe = int(self.sure_bits[c]), int(self.maybe_bits[c])
            else:  # a scalar search: plain-int copies of the masks are faster (8+ bytes a cell each)
                self._lists = (self.sure_bits.tolist(), self.maybe_bits.tolist())
        if self._lists is not None:
            sure, maybe = self._lists[0][c], self._lists[1][c]
        out: list[int] = []
        bits = sure | maybe
        while bits:
            low = bits & -bits
            bits ^= low
            z = low.bit_length() - 1
            if sure & low or self._zone_at(z, x, y):
                out.append(z)
        entries = self.extra.get(c) if self.extra else None
        if entries:
            out.extend(z for z, sure_ in entries if sure_ or self._zone_at(z, x, y))
        return out

    def is_free(self, x: float, y: float) -> bool:
        c = self.raster.index(x, y)
        if c < 0:
            return False
        st = self.status[c]
        if st == MIXED:
            return self._free_at(x, y)
        return st == FREE

    def probe(self, x: float, y: float) -> list[int] | None:
        """``None`` when a centre at (x, y) rams (``is_free`` false), else ``zones_at`` - one
        raster lookup for both, the planner's inner loop."""
        r = self.raster
        fi = (x - r.x0) / r.cell
        fj = (y - r.y0) / r.cell
        if fi < 0.0 or fj < 0.0:
            return None
        i, j = int(fi), int(fj)
        if i >= r.nx or j >= r.ny:
            return None
        c = i * r.ny + j
        st = self.status[c]
        if st != FREE and (st != MIXED or not self._free_at(x, y)):
            return None
        return self._cell_zones(c, x, y)

    def zones_at(self, x: float, y: float) -> list[int]:
        """Indices of the zones the centre (x, y) lies in."""
        c = self.raster.index(x, y)
        return [] if c < 0 else self._cell_zones(c, x, y)


def _zone_item(zones: Sequence[BaseGeometry], circles: dict[int, tuple[CircleSpec, bool]], heading: float,
               halves: tuple[tuple[float, float], tuple[float, float]]
               ) -> tuple[Sequence[BaseGeometry], dict[int, tuple[CircleSpec, float, float]], float]:
    """A heading space's zones as :meth:`Raster.classify_regions` reads them: the regions, each
    circular zone's circle with the footprint's half extents (shrunk for an overlap zone, else
    grown: ``halves``), the heading."""
    return zones, {z: (circle, *halves[0 if overlap else 1]) for z, (circle, overlap) in circles.items()}, heading


class CSpace:
    """Lazily built :class:`HeadingSpace` per heading for one arena and a list of zones."""

    def __init__(self, geometry: ArenaGeometry, zones: Sequence[ZoneSpec], cell: float = CELL) -> None:
        self.geometry = geometry
        self.zones = tuple(zones)
        self.raster = Raster(geometry, cell)
        t = geometry.turbine
        self.half_length, self.half_width = t.length / 2.0, t.width / 2.0
        circles = geometry.wall_circles
        plain = [g for wid, g in geometry.walls if wid not in circles]
        self.walls = shapely.union_all(plain) if plain else ShapelyPolygon()
        self.wall_circles = tuple(circles.values())
        self.circle_walls = shapely.union_all([circumscribed(c) for c in self.wall_circles]) if circles else None
        self.ring = LineString(list(geometry.bounds.exterior.coords)) if geometry.bounds.geom_type == "Polygon" else geometry.bounds.boundary
        # the shapes summed at every heading, split once
        self._ring_sum, self._walls_sum = Summand(self.ring), Summand(self.walls)
        self._circle_sum = None if self.circle_walls is None else Summand(self.circle_walls)
        self._zone_sums = [Summand(z.geometry) for z in self.zones]
        self._cache: dict[float, HeadingSpace] = {}
        self._stacks: dict[tuple[float, ...], tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        #: Heading lattices holding each stack's headings (:meth:`hold`, :meth:`release`).
        self._holds: dict[tuple[float, ...], int] = {}
        #: Heading spaces built so far (work, for the memory bound's tests and benchmarks: a space
        #: let go by :meth:`release` and needed again is built again and counted again).
        self.spaces_built = 0

    @property
    def space_count(self) -> int:
        """Heading spaces kept now (each answers two headings, h and h + 180)."""
        return len({id(hs) for hs in self._cache.values()})

    def hold(self, headings: Sequence[float]) -> None:
        """A heading lattice of these headings is kept (by a planner sharing this configuration
        space): keep their spaces and stack until every holder has released them (:meth:`release`)."""
        key = tuple(headings)
        self._holds[key] = self._holds.get(key, 0) + 1

    def release(self, headings: Sequence[float]) -> None:
        """A holder of these headings (:meth:`hold`) let its lattice go: once none holds them,
        their stack and heading spaces (under every key :meth:`heading` filed them, h + 180
        included) are let go too, except spaces a held stack still reads.  Asked for again, they
        are built again - the same spaces (a pure function of the heading)."""
        key = tuple(headings)
        left = self._holds.get(key, 0) - 1
        if left > 0:
            self._holds[key] = left
            return
        self._holds.pop(key, None)
        self._stacks.pop(key, None)
        keep = {id(hs) for held in self._holds for h in held if (hs := self._cached(h)) is not None}
        gone = {id(hs) for h in key if (hs := self._cached(h)) is not None} - keep
        for k in [k for k, hs in self._cache.items() if id(hs) in gone]:
            del self._cache[k]

    def _cached(self, heading: float) -> HeadingSpace | None:
        """The space :meth:`heading` would answer if it is built, else None (nothing built)."""
        hs = self._cache.get(heading)
        if hs is None:
            key = round(normalize_heading(heading), 6)
            hs = self._cache.get(key) or self._cache.get(round(normalize_heading(key + 180.0), 6))
        return hs

    def stacked(self, headings: Sequence[float]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(status, certain zone bits, possible zone bits) of these headings' rasters stacked
        (one row per heading; when the second half of the headings are the first half turned by
        180 degrees - a lattice's twelve always are -, one row per pair: heading ``k`` is row
        ``k % rows``) for vectorised lookups; made once and shared by every lattice of
        these headings (the planners of one arena at two tolerances: :meth:`Planner.confirm`).
        :meth:`replace_zone`'s users refresh the rows (:meth:`HeadingLattice.refresh_zones`)."""
        key = tuple(headings)
        got = self._stacks.get(key)
        if got is None:
            n, cells = len(headings), self.raster.nx * self.raster.ny
            bufs = (np.zeros((n, cells), dtype=np.uint8), np.zeros((n, cells), dtype=np.uint64),
                    np.zeros((n, cells), dtype=np.uint64))
            self.prepare(headings, bufs)  # new spaces fill their rows (untouched rows cost no memory)
            spaces = [self.heading(h) for h in headings]
            half = len(spaces) // 2
            if len(spaces) % 2 == 0 and all(spaces[k] is spaces[k + half] for k in range(half)):
                spaces = spaces[:half]  # h and h + 180 share a space: one row each (see :meth:`heading`)
            got = (bufs[0][:len(spaces)], bufs[1][:len(spaces)], bufs[2][:len(spaces)])
            self._stacks[key] = got
            seen: set[int] = set()
            for k, hs in enumerate(spaces):
                if hs.status_array.ctypes.data == got[0][k].ctypes.data:
                    seen.add(id(hs))  # built into this row
                    continue
                got[0][k], got[1][k], got[2][k] = hs.status_array, hs.sure_bits, hs.maybe_bits
                if id(hs) not in seen:  # each space's arrays become its first row (one copy less)
                    seen.add(id(hs))
                    hs.status_array, hs.sure_bits, hs.maybe_bits = got[0][k], got[1][k], got[2][k]
        return got

    def heading(self, heading: float) -> HeadingSpace:
        hs = self._cache.get(heading)
        if hs is not None:
            return hs
        key = round(normalize_heading(heading), 6)
        # the footprint is centrally symmetric: heading h and h + 180 share one configuration space
        hs = self._cache.get(key) or self._cache.get(round(normalize_heading(key + 180.0), 6))
        if hs is not None:
            self._cache[key] = hs
            self._cache[heading] = hs
        else:
            hs = self._build(key)
            self._cache[key] = hs
            self._cache[heading] = hs
        return hs

    def prepare(self, headings: Sequence[float], rows: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None) -> None:
        """Build together the spaces :meth:`heading` would build for these headings in turn (one
        set of shapely and numpy passes for all: :meth:`_build_many`); the same spaces."""
        known = set(self._cache)
        todo: list[float] = []
        at: list[int] = []
        for k, h in enumerate(headings):
            if h in known:
                continue
            key = round(normalize_heading(h), 6)
            if key not in known and round(normalize_heading(key + 180.0), 6) not in known:
                todo.append(key)
                at.append(k)
            known.update((key, h))
        if len(todo) > 1 or (todo and rows is not None):
            outs = None if rows is None else [(rows[0][k], rows[1][k], rows[2][k]) for k in at]
            for key, hs in zip(todo, self._build_many(todo, outs)):
                self._cache[key] = hs

    def _build(self, key: float) -> HeadingSpace:
        return self._build_many([key])[0]

    def _build_many(self, keys: Sequence[float], outs: Sequence[tuple[np.ndarray, np.ndarray, np.ndarray]] | None = None
                    ) -> list[HeadingSpace]:
        self.spaces_built += len(keys)
        halves = ((self.half_length - TOLERANCE, self.half_width - TOLERANCE),
                  (self.half_length + TOLERANCE, self.half_width + TOLERANCE))
        offsets = [(rect_offsets(*halves[0], key), rect_offsets(*halves[1], key)) for key in keys]
        polygonal = [i for i, z in enumerate(self.zones) if z.circle is None]
        sums = []
        for shrunk, grown in offsets:
            sums += [(self._ring_sum, shrunk), (self._walls_sum, shrunk)]
            sums += [(self._zone_sums[i], shrunk if self.zones[i].overlap else grown) for i in polygonal]
            if self._circle_sum is not None:
                sums.append((self._circle_sum, shrunk))
        summed = minkowski_many(sums)
        each = len(sums) // len(keys)
        circles = {i: (z.circle, z.overlap) for i, z in enumerate(self.zones) if z.circle is not None}
        made = []
        for n, (shrunk, grown) in enumerate(offsets):
            caps.tick(search=True)  # the analysis's caps (engine.budget), between two headings
            got = summed[n * each:(n + 1) * each]
            blocked = shapely.union_all(got[:2])
            base: Callable[[], BaseGeometry] | None = None
            if self._circle_sum is None:
                free = self.geometry.bounds.difference(blocked)
            else:
                free = self.geometry.bounds.difference(shapely.union(blocked, got[-1]))
                base = partial(self.geometry.bounds.difference, blocked)
            # a circular zone's region is only read by the proofs and resumed searches (the raster
            # and the exact tests use the circle): summed when first read
            regions: list[BaseGeometry | Callable[[], BaseGeometry]] = [
                partial(self._zone_sums[i].sum, shrunk if z.overlap else grown) for i, z in enumerate(self.zones)]
            for k, i in enumerate(polygonal):
                regions[i] = got[2 + k]
            made.append((free, base, Regions(regions)))
        classes = self.raster.classify_regions([_zone_item(zones, circles, key, halves)
                                                for key, (_, _, zones) in zip(keys, made)])
        out = []
        for n, (key, (free, base, zones), offs, cells) in enumerate(zip(keys, made, offsets, classes)):
            hs = HeadingSpace(self.raster, free, zones, heading=key, halves=halves, free_base=base,
                              wall_circles=self.wall_circles, zone_circles=circles, classes=cells,
                              out=None if outs is None else outs[n])
            hs.offsets = offs
            out.append(hs)
        return out

    def replace_zone(self, index: int, zone: ZoneSpec) -> np.ndarray:
        """Swap zone ``index`` for ``zone`` (a moved goal) in every heading built so far.  A zone
        that only moved (same shape, translated) has its configuration-space regions translated
        instead of summed again.  Returns the raster cells whose zone bits changed."""
        shift = _translation(self.zones[index], zone)
        self._stacks.clear()  # lattices holding stacks refresh their rows; new ones stack afresh
        self.zones = self.zones[:index] + (zone,) + self.zones[index + 1:]
        self._zone_sums[index] = Summand(zone.geometry)
        circle = None if zone.circle is None else (zone.circle, zone.overlap)
        changed = [np.zeros(0, dtype=np.int64)]
        for hs in {id(h): h for h in self._cache.values()}.values():
            shrunk, grown = hs.offsets
            if shift is not None:
                region = shapely.affinity.translate(hs.zones[index], *shift)
            else:
                region = self._zone_sums[index].sum(shrunk if zone.overlap else grown)
            changed.append(hs.set_zone(index, region, circle))
        return np.unique(np.concatenate(changed))


def _translation(old: ZoneSpec, new: ZoneSpec) -> tuple[float, float] | None:
    """(dx, dy) when ``new``'s region is ``old``'s moved (within 1e-9 lengths), else None."""
    if old.overlap != new.overlap or old.geometry.geom_type != "Polygon" or new.geometry.geom_type != "Polygon":
        return None
    a = shapely.get_coordinates(old.geometry)
    b = shapely.get_coordinates(new.geometry)
    if a.shape != b.shape or old.geometry.interiors or new.geometry.interiors:
        return None
    dx, dy = b[0] - a[0]
    if not np.allclose(a + (dx, dy), b, rtol=0.0, atol=1e-9):
        return None
    return float(dx), float(dy)
