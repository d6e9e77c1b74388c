"""The cell grid of the configuration space (:mod:`engine.gravstrike.cspace`): which cells lie
certainly inside a region, which may meet it (an exact test decides there), from polygons
(:meth:`Raster.classify`) or, for the region where a rectangle meets a circle, from the exact
distance (:meth:`Raster.classify_circle`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

if TYPE_CHECKING:  # pragma: no cover
    from engine.gravstrike.geometry import ArenaGeometry, CircleSpec

#: Raster cell size (lengths) of the per-heading lookup grids.
CELL = 0.1


def circle_rect_distance(x: np.ndarray, y: np.ndarray, circle: CircleSpec, half_length: float, half_width: float,
                         heading: float) -> np.ndarray:
    """Distance from the circle's centre to the rectangle (half extents ``half_length`` x
    ``half_width``, at ``heading``) centred on each point (x, y)."""
    cx, cy, _ = circle
    a = math.radians(heading)
    c, s = math.cos(a), math.sin(a)
    dx, dy = cx - x, cy - y
    lx = np.maximum(np.abs(dx * c + dy * s) - half_length, 0.0)
    ly = np.maximum(np.abs(-dx * s + dy * c) - half_width, 0.0)
    return np.hypot(lx, ly)


#: Ring edges are cut into pieces at most this many cells long for :func:`near_boundary`: each
#: piece's box of candidate cells (grown by the reach) then holds few cells it is far from.
PIECE = 3.0


def _ranges(start: np.ndarray, count: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(owner, value): for each k in turn, ``count[k]`` entries k with the values ``start[k]``,
    ``start[k] + 1``, ... (the flat form of a ragged set of integer ranges)."""
    owner = np.repeat(np.arange(len(count)), count)
    return owner, np.arange(len(owner)) - np.repeat(np.cumsum(count) - count - start, count)


def _edges(lines: np.ndarray) -> np.ndarray:
    """The segments (rows ax, ay, bx, by) of an array of line strings / rings."""
    xy, owner = shapely.get_coordinates(lines, return_index=True)
    same = owner[1:] == owner[:-1]
    return np.concatenate([xy[:-1][same], xy[1:][same]], axis=1)


def boundary_segments(geom: BaseGeometry) -> tuple[np.ndarray, np.ndarray]:
    """(edges of the rings of ``geom``'s polygons, those and the segments of its lines and its
    points as segments of no length): the boundary whose distance :meth:`Raster.classify` takes
    (a line or a point part is all boundary)."""
    if geom.geom_type == "Polygon":  # the common case, quickly
        rings = _edges(shapely.get_rings(geom))
        return rings, rings
    parts = shapely.get_parts(geom)
    kind = shapely.get_type_id(parts)
    while (kind >= 4).any():  # multi-part geometries and collections inside a collection
        parts = np.concatenate([parts[kind < 4], shapely.get_parts(parts[kind >= 4])])
        kind = shapely.get_type_id(parts)
    rings = _edges(shapely.get_rings(parts[kind == 3]))
    lines = _edges(parts[(kind == 1) | (kind == 2)])
    points = shapely.get_coordinates(parts[kind == 0])
    return rings, np.concatenate([rings, lines, np.concatenate([points, points], axis=1)])


def even_odd(edges: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """Which points of the grid ``xs`` x ``ys`` (ascending) lie inside the rings made of
    ``edges`` (even-odd rule; (len(xs), len(ys)) booleans): each edge toggles the points above
    it in the columns its half-open x range holds (exact but for points on or within rounding
    of an edge)."""
    nr = len(ys)
    ax, ay, bx, by = edges.T
    lo = np.searchsorted(xs, np.minimum(ax, bx), "left")
    edge, col = _ranges(lo, np.searchsorted(xs, np.maximum(ax, bx), "left") - lo)
    x = xs[col]
    y = ay[edge] + (x - ax[edge]) * ((by - ay) / np.where(bx != ax, bx - ax, 1.0))[edge]
    first = np.searchsorted(ys, y, "right")  # the first row above the edge
    flips = np.bincount(col * (nr + 1) + first, minlength=len(xs) * (nr + 1)).reshape(len(xs), nr + 1)
    inside: np.ndarray = (np.cumsum(flips[:, :nr], axis=1) & 1).astype(bool)
    return inside


def near_boundary(segments: np.ndarray, xs: np.ndarray, ys: np.ndarray, radii: tuple[float, float],
                  piece: float) -> tuple[np.ndarray, np.ndarray]:
    """Which points of the grid ``xs`` x ``ys`` (ascending) lie within each of ``radii``
    (smaller first) of a segment (rows ax, ay, bx, by): the exact point-segment distance, taken
    only for the points in the box (grown by the larger radius) of a piece of a segment at most
    ``piece`` long."""
    nc, nr = len(xs), len(ys)
    ax, ay, bx, by = segments.T
    dx, dy = bx - ax, by - ay
    n = np.maximum(np.ceil(np.hypot(dx, dy) / piece), 1.0).astype(np.int64)
    if (n == 1).all():
        seg, x0, y0, x1, y1 = np.arange(len(n)), ax, ay, bx, by
    else:
        seg, q = _ranges(np.zeros_like(n), n)
        t0, t1 = q / n[seg], (q + 1) / n[seg]
        x0, x1 = ax[seg] + t0 * dx[seg], ax[seg] + t1 * dx[seg]
        y0, y1 = ay[seg] + t0 * dy[seg], ay[seg] + t1 * dy[seg]
    grow = radii[1] + 1e-9
    c0 = np.searchsorted(xs, np.minimum(x0, x1) - grow, "left")
    r0 = np.searchsorted(ys, np.minimum(y0, y1) - grow, "left")
    rows = np.searchsorted(ys, np.maximum(y0, y1) + grow, "right") - r0
    cols = np.searchsorted(xs, np.maximum(x0, x1) + grow, "right") - c0
    p, k = _ranges(np.zeros_like(cols), cols * rows)
    rp = rows[p]
    col, row = c0[p] + k // rp, r0[p] + k % rp
    s = seg[p]
    sx, sy = dx[s], dy[s]
    ux, uy = xs[col] - ax[s], ys[row] - ay[s]
    length2 = sx * sx + sy * sy
    t = np.clip((ux * sx + uy * sy) / np.where(length2 > 0.0, length2, 1.0), 0.0, 1.0)
    ex, ey = ux - t * sx, uy - t * sy
    d2 = ex * ex + ey * ey
    cell = col * nr + row
    out = []
    for r in radii:
        hit = np.zeros(nc * nr, dtype=bool)
        hit[cell[d2 <= r * r]] = True
        out.append(hit.reshape(nc, nr))
    return out[0], out[1]


class Raster:
    """The cell grid shared by all headings of one arena."""

    def __init__(self, geometry: ArenaGeometry, cell: float = CELL, margin: float = 1.0) -> None:
        minx, miny, maxx, maxy = geometry.bounds.bounds
        self.cell = cell
        self.x0, self.y0 = minx - margin, miny - margin
        self.nx: int = math.ceil((maxx - minx + 2 * margin) / cell) + 1
        self.ny: int = math.ceil((maxy - miny + 2 * margin) / cell) + 1
        self.half_diagonal = cell * math.sqrt(2.0) / 2.0 + 1e-9

    def index(self, x: float, y: float) -> int:
        """Cell index of a point (-1 off the grid)."""
        i = int((x - self.x0) / self.cell)
        j = int((y - self.y0) / self.cell)
        if 0 <= i < self.nx and 0 <= j < self.ny and x >= self.x0 and y >= self.y0:
            return i * self.ny + j
        return -1

    def span(self, box: tuple[float, float, float, float] | None = None) -> tuple[int, int, int, int]:
        """(i0, j0, i1, j1): the columns ``i0 <= i < i1`` and rows ``j0 <= j < j1`` of the cells
        :meth:`centres` takes for ``box`` (the whole grid without one)."""
        if box is None:
            return 0, 0, self.nx, self.ny
        return (max(0, int((box[0] - self.x0) / self.cell) - 1), max(0, int((box[1] - self.y0) / self.cell) - 1),
                min(self.nx, int((box[2] - self.x0) / self.cell) + 2), min(self.ny, int((box[3] - self.y0) / self.cell) + 2))

    def centres(self, box: tuple[float, float, float, float] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(flat indices, x, y) of cell centres, optionally only those in ``box``."""
        i0, j0, i1, j1 = self.span(box)
        ii, jj = np.meshgrid(np.arange(i0, i1), np.arange(j0, j1), indexing="ij")
        xs = self.x0 + (ii + 0.5) * self.cell
        ys = self.y0 + (jj + 0.5) * self.cell
        return (ii * self.ny + jj).ravel(), xs.ravel(), ys.ravel()

    def classify(self, geom: BaseGeometry, box: tuple[float, float, float, float] | None = None,
                 slack: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
        """(cells certainly inside ``geom``, cells that may meet it but aren't certainly inside);
        ``slack``: how far outside ``geom`` the region it stands for may reach.

        Exact for the cell centres c of ``box`` (by default ``geom``'s bounds grown by a cell and
        ``slack``), with d(c) the distance from c to ``geom``'s boundary: certainly inside when c
        lies inside and d(c) > :attr:`half_diagonal` (the whole cell does), maybe when not that
        and c lies inside or d(c) <= half_diagonal + ``slack``.  Inside from an even-odd scanline
        fill of the centres (``geom`` valid: overlapping parts would cancel), d only near the
        boundary (:func:`near_boundary`); flat indices, ascending.

        >>> from shapely.geometry import box as rect
        >>> class G: bounds = rect(0, 0, 1, 1)
        >>> r = Raster(G(), margin=0.0)  # type: ignore[arg-type]
        >>> inside, maybe = r.classify(rect(0.23, 0.23, 0.77, 0.77))
        >>> grid = np.full(r.nx * r.ny, "."); grid[inside] = "#"; grid[maybe] = "+"
        >>> print("\\n".join("".join(row) for row in grid.reshape(r.nx, r.ny).T[7:1:-1]))  # rows 7 to 2, top down
        ..++++++...
        ..+####+...
        ..+####+...
        ..+####+...
        ..+####+...
        ..++++++...
        """
        if geom.is_empty:
            e = np.zeros(0, dtype=np.int64)
            return e, e
        if box is None:
            b = geom.bounds
            m = self.cell + slack
            box = (b[0] - m, b[1] - m, b[2] + m, b[3] + m)
        i0, j0, i1, j1 = self.span(box)
        cols, rows = np.arange(i0, i1), np.arange(j0, j1)
        xs = self.x0 + (cols + 0.5) * self.cell  # the same floats as :meth:`centres`
        ys = self.y0 + (rows + 0.5) * self.cell
        rings, segments = boundary_segments(geom)
        inside = even_odd(rings, xs, ys)
        hd = self.half_diagonal
        near, reach = near_boundary(segments, xs, ys, (hd, hd + slack), PIECE * self.cell)
        nr = len(rows)
        out = []
        for cells in (inside & ~near, np.where(inside, near, reach)):  # certain; maybe: the rest of inside | reach
            if 4 * cells.size > self.nx * self.ny:  # a large box (the free region): placed in the whole grid
                grid = np.zeros((self.nx, self.ny), dtype=bool)
                grid[i0:i1, j0:j1] = cells
                out.append(np.flatnonzero(grid).astype(np.int64, copy=False))
                continue
            k = np.flatnonzero(cells)
            out.append(((k // nr + i0) * self.ny + (k % nr + j0)).astype(np.int64, copy=False))
        return out[0], out[1]

    def classify_circle(self, circle: CircleSpec, half_length: float, half_width: float,
                        heading: float) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`classify` for the region of centres where a ``half_length`` x ``half_width``
        rectangle at ``heading`` meets the circle, from the exact distance (no polygons): a cell
        is certainly inside when its centre is ``half_diagonal`` deeper than the radius (the
        distance moves no faster than the centre), maybe when within ``half_diagonal`` of it."""
        cx, cy, r = circle
        reach = r + math.hypot(half_length, half_width) + self.cell
        idx, xs, ys = self.centres((cx - reach, cy - reach, cx + reach, cy + reach))
        d = circle_rect_distance(xs, ys, circle, half_length, half_width, heading)
        inside = d <= r - self.half_diagonal
        maybe = (d <= r + self.half_diagonal) & ~inside
        return idx[inside], idx[maybe]

    def _spans(self, box: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`span` of each row (minx, miny, maxx, maxy) of ``box``: (i0, j0, columns, rows)."""
        i0 = np.maximum(0, ((box[:, 0] - self.x0) / self.cell).astype(np.int64) - 1)
        j0 = np.maximum(0, ((box[:, 1] - self.y0) / self.cell).astype(np.int64) - 1)
        i1 = np.minimum(self.nx, ((box[:, 2] - self.x0) / self.cell).astype(np.int64) + 2)
        j1 = np.minimum(self.ny, ((box[:, 3] - self.y0) / self.cell).astype(np.int64) + 2)
        return i0, j0, np.maximum(i1 - i0, 0), np.maximum(j1 - j0, 0)

    def _split(self, flags: np.ndarray, base: np.ndarray, i0: np.ndarray, j0: np.ndarray,
               nr: np.ndarray) -> list[np.ndarray]:
        """The flat cell indices (ascending) of the set ``flags`` of each region's block of
        cells (region q's local cell k = column * nr[q] + row at ``base[q] + k``)."""
        k = np.flatnonzero(flags)
        q = np.searchsorted(base, k, "right") - 1
        k = k - base[q]
        cells = (k // nr[q] + i0[q]) * self.ny + (k % nr[q] + j0[q])
        return np.split(cells.astype(np.int64, copy=False), np.cumsum(np.bincount(q, minlength=len(base)))[:-1])

    def classify_polygons(self, polygons: Sequence[BaseGeometry]) -> list[tuple[np.ndarray, np.ndarray]]:
        """:meth:`classify` (default box, no slack) of each of many non-empty polygons, in one
        numpy pass: the same float operations on each polygon's own cells (:func:`even_odd` and
        :func:`near_boundary`, the grid's searches clipped to the polygon's box), the same cells."""
        geoms = np.empty(len(polygons), dtype=object)
        geoms[:] = list(polygons)
        ng = len(geoms)
        b = shapely.bounds(geoms)
        m = self.cell
        i0, j0, nc, nr = self._spans(np.stack([b[:, 0] - m, b[:, 1] - m, b[:, 2] + m, b[:, 3] + m], axis=1))
        gx = self.x0 + (np.arange(self.nx) + 0.5) * self.cell  # the same floats as :meth:`classify`'s
        gy = self.y0 + (np.arange(self.ny) + 0.5) * self.cell
        rings, ring_of = shapely.get_rings(geoms, return_index=True)
        xy, owner = shapely.get_coordinates(rings, return_index=True)
        same = owner[1:] == owner[:-1]
        ax, ay = xy[:-1, 0][same], xy[:-1, 1][same]
        bx, by = xy[1:, 0][same], xy[1:, 1][same]
        g = ring_of[owner[:-1][same]]  # each edge's polygon

        def local(grid: np.ndarray, v: np.ndarray, side: Literal["left", "right"], start: np.ndarray,
                  size: np.ndarray) -> np.ndarray:
            """``np.searchsorted`` in a region's own cells (``size`` of them from ``start``)."""
            out: np.ndarray = np.clip(np.searchsorted(grid, v, side) - start, 0, size)
            return out

        # even-odd fill (:func:`even_odd`): region q's flips in rows of nr[q] + 1 from base1[q]
        lo = local(gx, np.minimum(ax, bx), "left", i0[g], nc[g])
        edge, col = _ranges(lo, local(gx, np.maximum(ax, bx), "left", i0[g], nc[g]) - lo)
        ge = g[edge]
        y = ay[edge] + (gx[col + i0[ge]] - ax[edge]) * ((by - ay) / np.where(bx != ax, bx - ax, 1.0))[edge]
        first = local(gy, y, "right", j0[ge], nr[ge])
        size1 = nc * (nr + 1)
        base1 = np.cumsum(size1) - size1
        acc = np.cumsum(np.bincount(base1[ge] + col * (nr[ge] + 1) + first, minlength=int(size1.sum())))
        size2 = nc * nr
        base2 = np.cumsum(size2) - size2
        q, k = _ranges(np.zeros(ng, dtype=np.int64), size2)
        f = base1[q] + (k // nr[q]) * (nr[q] + 1) + k % nr[q]
        start = f - k % nr[q]
        inside = ((acc[f] - np.where(start > 0, acc[start - 1], 0)) & 1).astype(bool)
        # near the boundary (:func:`near_boundary`, radii (hd, hd)), each polygon's edges cut into
        # pieces unless none of them needs cutting
        hd = self.half_diagonal
        dx, dy = bx - ax, by - ay
        n = np.maximum(np.ceil(np.hypot(dx, dy) / (PIECE * self.cell)), 1.0).astype(np.int64)
        whole = np.bincount(g, weights=n != 1, minlength=ng) == 0
        seg, part = _ranges(np.zeros_like(n), n)
        t0, t1 = part / n[seg], (part + 1) / n[seg]
        keep = whole[g[seg]]
        x0 = np.where(keep, ax[seg], ax[seg] + t0 * dx[seg])
        x1 = np.where(keep, bx[seg], ax[seg] + t1 * dx[seg])
        y0 = np.where(keep, ay[seg], ay[seg] + t0 * dy[seg])
        y1 = np.where(keep, by[seg], ay[seg] + t1 * dy[seg])
        grow = (hd + 0.0) + 1e-9
        gs = g[seg]
        c0 = local(gx, np.minimum(x0, x1) - grow, "left", i0[gs], nc[gs])
        r0 = local(gy, np.minimum(y0, y1) - grow, "left", j0[gs], nr[gs])
        rows = local(gy, np.maximum(y0, y1) + grow, "right", j0[gs], nr[gs]) - r0
        cols = local(gx, np.maximum(x0, x1) + grow, "right", i0[gs], nc[gs]) - c0
        p, kk = _ranges(np.zeros_like(cols), cols * rows)
        rp = rows[p]
        col, row = c0[p] + kk // rp, r0[p] + kk % rp
        s, gp = seg[p], gs[p]
        sx, sy = dx[s], dy[s]
        ux, uy = gx[col + i0[gp]] - ax[s], gy[row + j0[gp]] - ay[s]
        length2 = sx * sx + sy * sy
        t = np.clip((ux * sx + uy * sy) / np.where(length2 > 0.0, length2, 1.0), 0.0, 1.0)
        ex, ey = ux - t * sx, uy - t * sy
        near = np.zeros(int(size2.sum()), dtype=bool)
        near[(base2[gp] + col * nr[gp] + row)[ex * ex + ey * ey <= hd * hd]] = True
        return list(zip(self._split(inside & ~near, base2, i0, j0, nr), self._split(near, base2, i0, j0, nr)))

    def classify_circles(self, circles: Sequence[tuple[CircleSpec, float, float]],
                         heading: float | Sequence[float]) -> list[tuple[np.ndarray, np.ndarray]]:
        """:meth:`classify_circle` of each (circle, half length, half width) at ``heading`` (one
        for all, or one each), in one numpy pass (the same float operations per cell)."""
        spec = np.array([(*c, hl, hw) for c, hl, hw in circles], dtype=float).reshape(-1, 5)
        cx, cy, r, hl, hw = spec.T
        reach = np.array([c[2] + math.hypot(h, w) + self.cell for c, h, w in circles], dtype=float)
        i0, j0, nc, nr = self._spans(np.stack([cx - reach, cy - reach, cx + reach, cy + reach], axis=1))
        # per circle a (columns x rows) block padded to the largest: the products of the distance
        # formula taken per column and per row (the same floats as per cell), the rest per cell
        ii = i0[:, None] + np.arange(int(nc.max()))[None, :]
        jj = j0[:, None] + np.arange(int(nr.max()))[None, :]
        dx = cx[:, None] - (self.x0 + (ii + 0.5) * self.cell)
        dy = cy[:, None] - (self.y0 + (jj + 0.5) * self.cell)
        headings = [heading] * len(circles) if isinstance(heading, (int, float)) else heading
        cs = np.array([(math.cos(math.radians(h)), math.sin(math.radians(h))) for h in headings]).reshape(-1, 2)
        c, s = cs[:, 0, None], cs[:, 1, None]
        lx = np.maximum(np.abs((dx * c)[:, :, None] + (dy * s)[:, None, :]) - hl[:, None, None], 0.0)
        ly = np.maximum(np.abs((-dx * s)[:, :, None] + (dy * c)[:, None, :]) - hw[:, None, None], 0.0)
        d = np.hypot(lx, ly)
        valid = (ii < i0[:, None] + nc[:, None])[:, :, None] & (jj < j0[:, None] + nr[:, None])[:, None, :]
        inside = (d <= (r - self.half_diagonal)[:, None, None]) & valid
        maybe = (d <= (r + self.half_diagonal)[:, None, None]) & valid & ~inside
        out = []
        for flags in (inside, maybe):
            q, u, v = np.nonzero(flags)  # per circle, by column then row: ascending cells
            cells = ((i0[q] + u) * self.ny + (j0[q] + v)).astype(np.int64, copy=False)
            out.append(np.split(cells, np.cumsum(np.bincount(q, minlength=len(spec)))[:-1]))
        return list(zip(out[0], out[1]))

    def classify_regions(self, items: Sequence[tuple[Sequence[BaseGeometry], dict[int, tuple[CircleSpec, float, float]], float]]
                         ) -> list[list[tuple[np.ndarray, np.ndarray]]]:
        """For each (regions, circles, heading) - the zones of a heading space -, each region's
        :meth:`classify`, but for the indices in ``circles`` :meth:`classify_circle` of their
        (circle, half length, half width) at ``heading`` (those regions are not read): the
        non-empty polygons of every item in one pass (:meth:`classify_polygons`), the circles in
        another (:meth:`classify_circles`), any other shape alone."""
        out: list[list[tuple[np.ndarray, np.ndarray] | None]] = [[None] * len(regions) for regions, _, _ in items]
        circles: list[tuple[CircleSpec, float, float]] = []
        headings: list[float] = []
        polygons: list[BaseGeometry] = []
        at: tuple[list[tuple[int, int]], list[tuple[int, int]]] = ([], [])
        for n, (regions, circ, heading) in enumerate(items):
            for z in sorted(circ):
                circles.append(circ[z])
                headings.append(heading)
                at[0].append((n, z))
            for z in range(len(regions)):
                if z not in circ and regions[z].geom_type == "Polygon" and not regions[z].is_empty:
                    polygons.append(regions[z])
                    at[1].append((n, z))
        for where, got in ((at[0], self.classify_circles(circles, headings) if circles else []),
                           (at[1], self.classify_polygons(polygons) if polygons else [])):
            for (n, z), cells in zip(where, got):
                out[n][z] = cells
        return [[cells if cells is not None else self.classify(regions[z]) for z, cells in enumerate(row)]
                for row, (regions, _, _) in zip(out, items)]
