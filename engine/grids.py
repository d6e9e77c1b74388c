"""Hex and square grid maths shared by the grid games (Glider-Pit Gladiators, the Mothership
battlefield): coordinates, neighbours, distances, lines, walls, symmetry images and the pixel
geometry of a cell for drawing and printing.

**Hexes** use axial coordinates ``(q, r)`` (cube ``s = -q - r``).  The six directions are
numbered 0..5 counter-clockwise; direction ``d`` is also the hexside a facing points at:

>>> HEX_DIRECTIONS[0], hex_neighbour((0, 0), 1), hex_distance((0, 0), (2, -1))
((1, 0), (0, 1), 2)

Drawing coordinates have x to the right and y *up* (as every arena file); one hex is one unit
across the flats, so neighbouring centres are 1 apart.  ``pointy`` hexes have a corner at the
top and straight rows of constant ``r``; ``flat`` hexes have a flat top and straight columns of
constant ``q``.  Direction ``d`` points at ``60 d`` degrees (pointy) or ``30 + 60 d`` (flat):

>>> HexLayout("pointy").center((1, 0)), HexLayout("pointy").direction_angle(1)
((1.0, 0.0), 60.0)

**Squares** are ``(x, y)`` columns and rows, y up, side 1; orthogonal neighbours (4) or with
diagonals (8):

>>> square_distance((0, 0), (2, 3)), square_distance((0, 0), (2, 3), diagonal=True)
(5, 3)
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from typing import Literal

Axial = tuple[int, int]
Square = tuple[int, int]
Point = tuple[float, float]
Segment = tuple[Point, Point]
Orientation = Literal["pointy", "flat"]

SQRT3 = math.sqrt(3.0)

#: Axial unit vectors, counter-clockwise; index = direction = hexside number.
HEX_DIRECTIONS: tuple[Axial, ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))


# ------------------------------------------------------------------ hex coordinates


def hex_add(a: Axial, b: Axial) -> Axial:
    return (a[0] + b[0], a[1] + b[1])


def hex_sub(a: Axial, b: Axial) -> Axial:
    return (a[0] - b[0], a[1] - b[1])


def hex_neighbour(h: Axial, d: int) -> Axial:
    """The cell across hexside ``d`` (taken modulo 6)."""
    dq, dr = HEX_DIRECTIONS[d % 6]
    return (h[0] + dq, h[1] + dr)


def hex_neighbours(h: Axial) -> tuple[Axial, ...]:
    """The six neighbours, in direction order 0..5."""
    q, r = h
    return tuple((q + dq, r + dr) for dq, dr in HEX_DIRECTIONS)


def hex_length(v: Axial) -> int:
    """Steps from the origin to ``v``."""
    q, r = v
    return (abs(q) + abs(r) + abs(q + r)) // 2


def hex_distance(a: Axial, b: Axial) -> int:
    """Steps between two cells: ``max(|dq|, |dr|, |ds|)``."""
    return hex_length((a[0] - b[0], a[1] - b[1]))


def hex_direction(a: Axial, b: Axial) -> int | None:
    """The hexside of ``a`` that ``b`` lies across, or None if they are not neighbours.

    >>> hex_direction((0, 0), (0, -1)), hex_direction((0, 0), (2, 0))
    (4, None)
    """
    v = (b[0] - a[0], b[1] - a[1])
    return HEX_DIRECTIONS.index(v) if v in HEX_DIRECTIONS else None


def hex_rotate(v: Axial, k: int) -> Axial:
    """``v`` turned ``k`` sixths of a turn counter-clockwise about the origin.

    >>> hex_rotate((1, 0), 1), hex_rotate((2, -1), 6)
    ((0, 1), (2, -1))
    """
    q, r = v
    return _ROTATIONS[k % 6](q, r)


#: The six turns of an axial vector in closed form (sixths of a turn counter-clockwise).
_ROTATIONS: tuple[Callable[[int, int], Axial], ...] = (
    lambda q, r: (q, r), lambda q, r: (-r, q + r), lambda q, r: (-q - r, q),
    lambda q, r: (-q, -r), lambda q, r: (r, -q - r), lambda q, r: (q + r, -q))


def hex_round(fq: float, fr: float) -> Axial:
    """The cell containing fractional axial coordinates (cube rounding)."""
    fs = -fq - fr
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return (int(q), int(r))


def hex_line(a: Axial, b: Axial) -> list[Axial]:
    """The cells a straight line from centre to centre passes, ``a`` and ``b`` included
    (ties along a hexside are broken consistently with a small nudge).

    >>> hex_line((0, 0), (3, 0))
    [(0, 0), (1, 0), (2, 0), (3, 0)]
    """
    n = hex_distance(a, b)
    if n == 0:
        return [a]
    eps_q, eps_r = 1e-6, 2e-6
    aq, ar = a[0] + eps_q, a[1] + eps_r
    bq, br = b[0] + eps_q, b[1] + eps_r
    return [hex_round(aq + (bq - aq) * i / n, ar + (br - ar) * i / n) for i in range(n + 1)]


def hex_ring(center: Axial, radius: int) -> list[Axial]:
    """Cells exactly ``radius`` steps from ``center``, counter-clockwise from direction 4's
    corner (one cell for radius 0)."""
    if radius <= 0:
        return [center]
    out = []
    h = hex_add(center, (HEX_DIRECTIONS[4][0] * radius, HEX_DIRECTIONS[4][1] * radius))
    for d in range(6):
        for _ in range(radius):
            out.append(h)
            h = hex_neighbour(h, d)
    return out


def hex_disc(center: Axial, radius: int) -> list[Axial]:
    """Cells at most ``radius`` steps from ``center`` (a hexagon of ``3 R (R + 1) + 1`` cells).

    >>> len(hex_disc((0, 0), 9))
    271
    """
    cq, cr = center
    return [(cq + q, cr + r) for q in range(-radius, radius + 1)
            for r in range(max(-radius, -q - radius), min(radius, -q + radius) + 1)]


# ------------------------------------------------------------------ hex regions and walls


def wall_hexsides(cells: Collection[Axial], h: Axial) -> tuple[int, ...]:
    """Hexsides of ``h`` that face outside ``cells``: the pit wall around a pit's cell.

    >>> wall_hexsides(set(hex_disc((0, 0), 1)), (1, 0))
    (0, 1, 5)
    """
    q, r = h
    return tuple(d for d, (dq, dr) in enumerate(HEX_DIRECTIONS) if (q + dq, r + dr) not in cells)


def open_hexsides(cells: Collection[Axial], h: Axial) -> tuple[int, ...]:
    """Hexsides of ``h`` that lead to another cell of ``cells``."""
    q, r = h
    return tuple(d for d, (dq, dr) in enumerate(HEX_DIRECTIONS) if (q + dq, r + dr) in cells)


def wall_cells(cells: Collection[Axial]) -> set[Axial]:
    """Cells with at least one wall hexside (the grid's edge)."""
    return {h for h in cells if any((h[0] + dq, h[1] + dr) not in cells for dq, dr in HEX_DIRECTIONS)}


def straight_run(cells: Collection[Axial], start: Axial, d: int, cap: int | None = None) -> int:
    """How many steps through hexside ``d`` stay inside ``cells`` from ``start`` (at most
    ``cap``)."""
    n, h = 0, start
    while cap is None or n < cap:
        h = hex_neighbour(h, d)
        if h not in cells:
            break
        n += 1
    return n


def components(cells: Iterable[Axial], neighbours: Callable[[Axial], Iterable[Axial]]) -> list[set[Axial]]:
    """Connected parts of ``cells`` under ``neighbours`` (hex or square), largest first."""
    todo = set(cells)
    parts: list[set[Axial]] = []
    while todo:
        seed = todo.pop()
        part, queue = {seed}, deque([seed])
        while queue:
            for n in neighbours(queue.popleft()):
                if n in todo:
                    todo.discard(n)
                    part.add(n)
                    queue.append(n)
        parts.append(part)
    parts.sort(key=lambda p: (-len(p), min(p)))
    return parts


# ------------------------------------------------------------------ hex pixel geometry


@dataclass(frozen=True)
class HexLayout:
    """Where cells lie in drawing coordinates: ``size`` is the circumradius (centre to
    corner); the default makes a hex 1 unit across the flats.  Use :meth:`across_flats` to
    draw or print at a chosen hex size (e.g. millimetres)."""

    orientation: Orientation = "pointy"
    size: float = 1.0 / SQRT3
    origin: Point = (0.0, 0.0)

    @classmethod
    def across_flats(cls, orientation: Orientation, width: float, origin: Point = (0.0, 0.0)) -> HexLayout:
        """A layout whose hexes are ``width`` across the flats (the size printed hex maps
        quote).

        >>> round(HexLayout.across_flats("flat", 19.05).size, 3)
        10.999
        """
        return cls(orientation, width / SQRT3, origin)

    @property
    def flat_width(self) -> float:
        """Distance across the flats (= between neighbouring centres)."""
        return self.size * SQRT3

    def direction_angle(self, d: int) -> float:
        """Degrees counter-clockwise from +x of hexside ``d``'s outward normal."""
        return (60.0 * (d % 6) + (30.0 if self.orientation == "flat" else 0.0)) % 360.0

    def center(self, h: Axial) -> Point:
        q, r = h
        s, (ox, oy) = self.size, self.origin
        if self.orientation == "pointy":
            return (ox + s * SQRT3 * (q + r / 2.0), oy + s * 1.5 * r)
        return (ox + s * 1.5 * q, oy + s * SQRT3 * (r + q / 2.0))

    def fractional(self, x: float, y: float) -> tuple[float, float]:
        """Fractional axial coordinates of a point (inverse of :meth:`center`)."""
        px, py = (x - self.origin[0]) / self.size, (y - self.origin[1]) / self.size
        if self.orientation == "pointy":
            r = py / 1.5
            return (px / SQRT3 - r / 2.0, r)
        q = px / 1.5
        return (q, py / SQRT3 - q / 2.0)

    def cell_at(self, x: float, y: float) -> Axial:
        """The cell containing a point (for painting with the mouse)."""
        return hex_round(*self.fractional(x, y))

    def corner(self, h: Axial, i: int) -> Point:
        """Corner ``i`` (0..5, counter-clockwise); corner ``i`` is where hexsides ``i`` and
        ``i + 1`` meet."""
        cx, cy = self.center(h)
        a = math.radians(self.direction_angle(i) + 30.0)
        return (cx + self.size * math.cos(a), cy + self.size * math.sin(a))

    def corners(self, h: Axial) -> tuple[Point, ...]:
        """The six corners counter-clockwise: the cell's polygon for drawing."""
        return tuple(self.corner(h, i) for i in range(6))

    def hexside(self, h: Axial, d: int) -> Segment:
        """The segment of hexside ``d`` (from corner ``d - 1`` to corner ``d``)."""
        return (self.corner(h, (d - 1) % 6), self.corner(h, d))

    def wall_segments(self, cells: Collection[Axial]) -> list[Segment]:
        """Every hexside between a cell and the outside: the pit wall, for drawing."""
        return [self.hexside(h, d) for h in sorted(cells) for d in wall_hexsides(cells, h)]

    def bounds(self, cells: Iterable[Axial]) -> tuple[float, float, float, float]:
        """(xmin, ymin, xmax, ymax) of the cells' polygons; (0, 0, 0, 0) for no cells."""
        xs, ys = [], []
        for h in cells:
            for x, y in self.corners(h):
                xs.append(x)
                ys.append(y)
        return (min(xs), min(ys), max(xs), max(ys)) if xs else (0.0, 0.0, 0.0, 0.0)

    def centroid(self, cells: Collection[Axial]) -> Point:
        """Mean of the cells' centres."""
        pts = [self.center(h) for h in cells]
        return (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))

    def nearest_cells(self, cells: Collection[Axial], point: Point, eps: float = 1e-6) -> list[Axial]:
        """The cells whose centres are nearest ``point`` (1, or 2-3 on a hexside or corner)."""
        best: list[Axial] = []
        dmin = math.inf
        for h in cells:
            cx, cy = self.center(h)
            dist = math.hypot(cx - point[0], cy - point[1])
            if dist < dmin - eps:
                dmin, best = dist, [h]
            elif dist <= dmin + eps:
                best.append(h)
        return sorted(best)

    def image(self, h: Axial, transform: Callable[[Point], Point], eps: float = 1e-6) -> Axial | None:
        """The cell whose centre ``transform`` sends ``h``'s centre onto, or None when it
        lands between cells (the transform is not a symmetry of the grid)."""
        x, y = transform(self.center(h))
        g = self.cell_at(x, y)
        gx, gy = self.center(g)
        return g if math.hypot(gx - x, gy - y) <= eps * max(1.0, self.size) else None


# ------------------------------------------------------------------ symmetry transforms


def rotation(center: Point, degrees: float) -> Callable[[Point], Point]:
    """The rotation by ``degrees`` counter-clockwise about ``center``."""
    a = math.radians(degrees)
    c, s = math.cos(a), math.sin(a)

    def f(p: Point) -> Point:
        dx, dy = p[0] - center[0], p[1] - center[1]
        return (center[0] + c * dx - s * dy, center[1] + s * dx + c * dy)

    return f


def reflection(center: Point, axis_degrees: float) -> Callable[[Point], Point]:
    """The mirror across the line through ``center`` at ``axis_degrees``."""
    a = math.radians(2.0 * axis_degrees)
    c, s = math.cos(a), math.sin(a)

    def f(p: Point) -> Point:
        dx, dy = p[0] - center[0], p[1] - center[1]
        return (center[0] + c * dx + s * dy, center[1] + s * dx - c * dy)

    return f


def symmetry_transforms(kind: str, order: int, center: Point, axis: float) -> list[Callable[[Point], Point]]:
    """The non-identity maps of a declared symmetry: ``rotational`` (the N-fold rotations),
    ``mirror`` (one reflection across ``axis``) or ``dihedral`` (both)."""
    maps: list[Callable[[Point], Point]] = []
    if kind in ("rotational", "dihedral"):
        maps.extend(rotation(center, 360.0 * k / order) for k in range(1, max(order, 1)))
    if kind == "mirror":
        maps.append(reflection(center, axis))
    if kind == "dihedral":
        maps.extend(reflection(center, axis + 180.0 * k / order) for k in range(max(order, 1)))
    return maps


@dataclass(frozen=True)
class HexMap:
    """A symmetry of the hex lattice as exact integer maths: ``h -> M h + t`` on axial
    coordinates (``M`` = ``(a, b, c, d)``, the matrix ``[[a, b], [c, d]]``), directions
    permuted alike; ``reflects`` for a mirror (it swaps left and right).  Built from a point
    map by :func:`hex_map`.

    >>> m = hex_map(HexLayout("pointy"), reflection((0.0, 0.0), 90.0))
    >>> m.cell((2, 1)), m.facing(0), m.facing(1), m.reflects, m.inverse() == m
    ((-3, 1), 3, 2, True, True)
    """

    matrix: tuple[int, int, int, int]
    offset: Axial
    reflects: bool

    def vector(self, v: Axial) -> Axial:
        a, b, c, d = self.matrix
        return (a * v[0] + b * v[1], c * v[0] + d * v[1])

    def cell(self, h: Axial) -> Axial:
        vq, vr = self.vector(h)
        return (vq + self.offset[0], vr + self.offset[1])

    def facing(self, d: int) -> int:
        """Direction ``d``'s image (a direction, 0..5)."""
        return HEX_DIRECTIONS.index(self.vector(HEX_DIRECTIONS[d % 6]))

    def side(self, s: int) -> int:
        """A side (+1 left, -1 right) as the image sees it: swapped by a mirror."""
        return -s if self.reflects else s

    def inverse(self) -> HexMap:
        a, b, c, d = self.matrix
        det = a * d - b * c  # +-1: the lattice maps onto itself
        inv = (d * det, -b * det, -c * det, a * det)
        back = HexMap(inv, (0, 0), self.reflects)
        oq, or_ = back.vector(self.offset)
        return HexMap(inv, (-oq, -or_), self.reflects)


def hex_map(layout: HexLayout, transform: Callable[[Point], Point]) -> HexMap | None:
    """``transform`` (a rotation or reflection of the drawing plane) as a :class:`HexMap`, or
    None when it does not carry cell centres onto cell centres."""
    o = layout.image((0, 0), transform)
    e0 = layout.image((1, 0), transform)
    e1 = layout.image((0, 1), transform)
    if o is None or e0 is None or e1 is None:
        return None
    a, c = e0[0] - o[0], e0[1] - o[1]
    b, d = e1[0] - o[0], e1[1] - o[1]
    if abs(a * d - b * c) != 1:
        return None
    m = HexMap((a, b, c, d), o, a * d - b * c < 0)
    if any(m.vector(v) not in HEX_DIRECTIONS for v in HEX_DIRECTIONS):
        return None
    return m


# ------------------------------------------------------------------ squares

#: Orthogonal then diagonal unit steps (x right, y up).
SQUARE_ORTHOGONAL: tuple[Square, ...] = ((1, 0), (0, 1), (-1, 0), (0, -1))
SQUARE_DIAGONAL: tuple[Square, ...] = ((1, 1), (-1, 1), (-1, -1), (1, -1))


def square_neighbours(c: Square, diagonal: bool = False) -> tuple[Square, ...]:
    """The 4 orthogonal neighbours (and the 4 diagonal ones when ``diagonal``)."""
    steps = SQUARE_ORTHOGONAL + SQUARE_DIAGONAL if diagonal else SQUARE_ORTHOGONAL
    return tuple((c[0] + dx, c[1] + dy) for dx, dy in steps)


def square_distance(a: Square, b: Square, diagonal: bool = False) -> int:
    """Steps between squares: Manhattan (orthogonal moves) or Chebyshev (with diagonals)."""
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    return max(dx, dy) if diagonal else dx + dy


def square_line(a: Square, b: Square, eps: float = 1e-9) -> list[Square]:
    """Squares whose *interior* the segment between the centres of ``a`` and ``b`` crosses,
    in order, ``a`` and ``b`` included; a segment that only touches a corner or runs along an
    edge does not count that square.

    >>> square_line((0, 0), (2, 2))
    [(0, 0), (1, 1), (2, 2)]
    >>> square_line((0, 0), (2, 1))
    [(0, 0), (1, 0), (1, 1), (2, 1)]
    """
    ax, ay = a[0] + 0.5, a[1] + 0.5
    dx, dy = b[0] - a[0], b[1] - a[1]
    ts = {0.0, 1.0}
    for start, delta in ((ax, dx), (ay, dy)):
        if delta:
            lo, hi = sorted((start, start + delta))
            for k in range(math.ceil(lo), math.floor(hi) + 1):
                ts.add((k - start) / delta)
    out: list[Square] = []
    order = sorted(ts)
    for t0, t1 in zip(order, order[1:]):
        if t1 - t0 <= eps:
            continue
        tm = (t0 + t1) / 2.0
        mx, my = ax + dx * tm, ay + dy * tm
        cell = (math.floor(mx), math.floor(my))
        # a segment running exactly along a grid line is in no square's interior
        if (dx == 0 and abs(mx - round(mx)) <= eps) or (dy == 0 and abs(my - round(my)) <= eps):
            continue
        if not out or out[-1] != cell:
            out.append(cell)
    if not out or out[0] != a:
        out.insert(0, a)
    if out[-1] != b:
        out.append(b)
    return out


@dataclass(frozen=True)
class SquareLayout:
    """Where squares lie in drawing coordinates: square ``(x, y)`` spans
    ``[x, x + 1] * size`` by ``[y, y + 1] * size`` from ``origin``."""

    size: float = 1.0
    origin: Point = (0.0, 0.0)

    def center(self, c: Square) -> Point:
        return (self.origin[0] + (c[0] + 0.5) * self.size, self.origin[1] + (c[1] + 0.5) * self.size)

    def corners(self, c: Square) -> tuple[Point, Point, Point, Point]:
        """Counter-clockwise from the bottom-left corner: the square's polygon."""
        x0, y0 = self.origin[0] + c[0] * self.size, self.origin[1] + c[1] * self.size
        x1, y1 = x0 + self.size, y0 + self.size
        return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))

    def cell_at(self, x: float, y: float) -> Square:
        return (math.floor((x - self.origin[0]) / self.size), math.floor((y - self.origin[1]) / self.size))

    def bounds(self, cells: Iterable[Square]) -> tuple[float, float, float, float]:
        cs = list(cells)
        if not cs:
            return (0.0, 0.0, 0.0, 0.0)
        x0 = min(c[0] for c in cs)
        y0 = min(c[1] for c in cs)
        x1 = max(c[0] for c in cs) + 1
        y1 = max(c[1] for c in cs) + 1
        ox, oy, s = self.origin[0], self.origin[1], self.size
        return (ox + x0 * s, oy + y0 * s, ox + x1 * s, oy + y1 * s)

    def edge_segments(self, cells: Collection[Square]) -> list[Segment]:
        """Square sides between a cell and the outside (the battlefield's edge)."""
        out: list[Segment] = []
        for c in sorted(cells):
            p = self.corners(c)
            for k, (dx, dy) in enumerate(SQUARE_ORTHOGONAL):
                if (c[0] + dx, c[1] + dy) not in cells:
                    # side k: right (p1-p2), top (p2-p3), left (p3-p0), bottom (p0-p1)
                    i = (k + 1) % 4
                    out.append((p[i], p[(i + 1) % 4]))
        return out
