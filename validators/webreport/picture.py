"""An arena as the HTML report draws it: plain shapes (SVG path data, in the arena's own
coordinates with y flipped to the screen's y down), each naming the element it draws, for any
game - no Qt, no game imported.

The shapes come from the arena's GeoJSON export (:mod:`schema.formats.geojson`, for grid games
:mod:`schema.formats.grid_geojson`): every element with its id and kind, a grid game's cells
too (ids ``cell:Q,R`` or ``square:X,Y``).  Elements a game draws but the export does not carry
(Arena Rex's deployment zones, outlined by the arena's ``element_shape``) are added from the
arena.  Colours are the ruleset's (:class:`schema.ruleset.Style`).  The template
(``templates/report.html.j2``) writes the SVG, escaping every string.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from schema.ruleset import ArenaModel, Style, ruleset

#: How a kind with no style of its own is drawn.
PLAIN = Style(fill="#BBBBBB", stroke="#333333", fill_opacity=0.5, stroke_mm=0.4, label="id", z=3)
BOUNDS = Style(fill="#FFFFFF", stroke="#1A1A1A", fill_opacity=1.0, stroke_mm=0.6, label=None, z=-10)


@dataclass(frozen=True)
class Shape:
    """One drawn element: SVG path data ``d`` (``line``: an open line, drawn by its stroke;
    ``point``: a marker at ``at``), the element's ``id`` and ``kind``, its style and label."""

    id: str
    kind: str
    d: str
    style: Style
    line: bool = False
    at: tuple[float, float] | None = None
    label: str | None = None
    #: The direction of a point's arrow (degrees anticlockwise from +x), if it faces one.
    facing: float | None = None
    #: Where an area's or a line's label goes (a point inside it).
    label_at: tuple[float, float] | None = None


@dataclass(frozen=True)
class LegendEntry:
    kind: str
    title: str
    style: Style
    count: int


@dataclass
class Picture:
    """What the template draws: the view box, the shapes (drawing order), the legend, cell
    ids by grid coordinates (grid games) and the unit names."""

    view: tuple[float, float, float, float]
    shapes: list[Shape]
    legend: list[LegendEntry]
    unit: str
    grid: str | None = None
    cells: dict[tuple[int, int], str] = field(default_factory=dict)

    @property
    def size(self) -> float:
        """The larger side of the view, for line widths and label sizes."""
        return max(self.view[2], self.view[3])

    @property
    def font(self) -> float:
        return round(self.size / 45.0, 3)

    @property
    def stroke(self) -> float:
        return round(self.size / 400.0, 4)

    def cell_id(self, value: Any) -> str | None:
        """The id of the grid cell ``value`` names (``[q, r]``), if the arena has it."""
        if (isinstance(value, (list, tuple)) and len(value) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
            return self.cells.get((int(value[0]), int(value[1])))
        return None


def n(v: float) -> str:
    """A coordinate as SVG takes it, short: ``n(1.0) == "1"``, ``n(-0.0) == "0"``."""
    text = f"{round(float(v), 4):.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def xy(p: Iterable[float]) -> str:
    x, y = list(p)[:2]
    return f"{n(x)},{n(-float(y))}"


def ring_d(ring: list[list[float]]) -> str:
    pts = ring[:-1] if len(ring) > 1 and ring[0] == ring[-1] else ring
    return "M" + " L".join(xy(p) for p in pts) + " Z"


def geometry_d(geom: dict[str, Any]) -> tuple[str, bool, tuple[float, float] | None]:
    """SVG path data of a GeoJSON geometry: (d, is a line, the point of a Point)."""
    kind = geom.get("type")
    coords: Any = geom.get("coordinates") or []
    if kind == "Point":
        return "", False, (float(coords[0]), float(coords[1]))
    if kind == "LineString":
        return "M" + " L".join(xy(p) for p in coords), True, None
    if kind == "MultiLineString":
        return " ".join("M" + " L".join(xy(p) for p in line) for line in coords), True, None
    if kind == "Polygon":
        return " ".join(ring_d(r) for r in coords), False, None
    if kind == "MultiPolygon":
        return " ".join(ring_d(r) for poly in coords for r in poly), False, None
    return "", False, None


def _points(geom: dict[str, Any]) -> Iterator[tuple[float, float]]:
    def walk(v: Any) -> Iterator[tuple[float, float]]:
        if isinstance(v, list) and len(v) >= 2 and all(isinstance(c, (int, float)) for c in v[:2]):
            yield float(v[0]), float(v[1])
        elif isinstance(v, list):
            for item in v:
                yield from walk(item)

    yield from walk(geom.get("coordinates"))


def arena_picture(arena: ArenaModel) -> Picture:
    """The picture of any installed game's arena (``schema.formats.FormatError`` for a game
    the formats cannot carry)."""
    from schema.formats import get
    from schema.formats.grid_games import grid_profile
    from schema.formats.systems import profile_of

    rs = ruleset(arena.system)
    prof = profile_of(arena)
    grid = grid_profile(arena.system)
    fc = json.loads(get("geojson").write(arena).data)
    styles: dict[str, tuple[str, Style]] = {}
    for kind, key in prof.lists:
        try:
            k = rs.kind(key)
            styles[kind] = (k.title, k.style)
        except KeyError:
            pass
    if grid is not None:
        k = rs.kind(grid.cells_key)
        styles[grid.cell_kind] = (k.title, k.style)
        picture_tiles = {t.name: t for t in grid.picture(grid.to_document(arena)).tiles}
        for kind in grid.derived:
            tile = next((t for name, t in picture_tiles.items() if kind.startswith(name) or name.startswith(kind)), None)
            if tile is not None:
                styles[kind] = (kind.replace("_", " ").capitalize(),
                                Style(tile.fill, tile.stroke, tile.opacity * 0.8, 0.4, None, 15))
    shapes: list[Shape] = []
    cells: dict[tuple[int, int], str] = {}
    xs: list[float] = []
    ys: list[float] = []
    for feature in fc["features"]:
        props = feature.get("properties") or {}
        kind = str(props.get("kind"))
        ident = str(feature.get("id") or props.get("id") or kind)
        geom = feature.get("geometry") or {}
        for x, y in _points(geom):
            xs.append(x)
            ys.append(y)
        d, line, at = geometry_d(geom)
        style = BOUNDS if kind == "bounds" else styles.get(kind, ("", PLAIN))[1]
        if grid is not None and kind == grid.cell_kind:
            a, b = ("q", "r") if kind == "cell" else ("x", "y")
            cells[(int(props[a]), int(props[b]))] = ident
            label = None
        else:
            label = _label(style, props, ident)
        facing = props.get("facing")
        shapes.append(Shape(ident, kind, d, style, line, at, label,
                            float(facing) if isinstance(facing, (int, float)) and at is not None else None,
                            inside(geom) if label and at is None else None))
    known = {s.id for s in shapes}
    outline = getattr(arena, "element_shape", None)
    if outline is not None and grid is None:
        shapes += _extra(arena, outline, known, styles, rs, xs, ys)
    if grid is not None:
        shapes += _grid_labels(arena, grid)
    order = {s.id: i for i, s in enumerate(shapes)}
    shapes.sort(key=lambda s: (s.style.z, order[s.id]))
    if not xs:
        xs, ys = [0.0, 1.0], [0.0, 1.0]
    w, h = max(xs) - min(xs), max(ys) - min(ys)
    margin = max(w, h, 1.0) * 0.04
    view = (min(xs) - margin, -max(ys) - margin, w + 2 * margin, h + 2 * margin)
    counts: dict[str, int] = {}
    for s in shapes:
        if s.kind not in ("bounds", "label"):
            counts[s.kind] = counts.get(s.kind, 0) + 1
    legend = [LegendEntry("bounds", "Arena bounds", BOUNDS, 1)]
    legend += [LegendEntry(kind, styles.get(kind, (kind.replace("_", " ").capitalize(), PLAIN))[0]
                           or kind.replace("_", " ").capitalize(), styles.get(kind, ("", PLAIN))[1], c)
               for kind, c in counts.items()]
    return Picture(tuple(round(v, 4) for v in view), shapes, legend, rs.units.symbol,  # type: ignore[arg-type]
                   rs.grid, cells)


def _label(style: Style, props: dict[str, Any], ident: str) -> str | None:
    if style.label is None:
        return None
    value = props.get(style.label)
    if style.label == "id" and value is None:
        value = ident
    if style.label == "kind" and value is None:
        value = next((v for k, v in props.items() if k.endswith("_kind")), None)
    return None if value is None else str(value)


def _extra(arena: Any, outline: Any, known: set[str], styles: dict[str, tuple[str, Style]], rs: Any,
           xs: list[float], ys: list[float]) -> list[Shape]:
    """The elements the GeoJSON export leaves out but the arena outlines (``element_shape``)."""
    from schema.formats.base import outline as rings

    out: list[Shape] = []
    for el in arena.elements():
        ident = getattr(el, "id", None)
        if not isinstance(ident, str) or ident in known:
            continue
        try:
            shape = outline(el)
            parts = rings(shape)
        except (ValueError, TypeError, AttributeError):
            continue
        parts = [p for p in parts if len(p) >= 3]
        if not parts:
            continue
        key = next((k.key for k in rs.kinds if ident.split(":")[0] in (k.key, k.key.rstrip("s"), k.key[:len(ident.split(":")[0])])),
                   None)
        kind = key or type(el).__name__.lower()
        title, style = (rs.kind(key).title, rs.kind(key).style) if key else ("", PLAIN)
        styles.setdefault(kind, (title, style))
        for ring in parts:
            for x, y in ring:
                xs.append(x)
                ys.append(y)
        player = getattr(el, "player", None)
        label = str(player) if style.label == "player" and player is not None else ident
        out.append(Shape(ident, kind, " ".join(ring_d([list(p) for p in ring]) for ring in parts), style, label=label,
                         label_at=inside({"type": "Polygon", "coordinates": [[list(p) for p in parts[0]] + [list(parts[0][0])]]})))
    return out


def _grid_labels(arena: ArenaModel, grid: Any) -> list[Shape]:
    """A grid game's labels for people (a row's 2d6 total, a Mothership's player), as text at
    the middle of their cells."""
    from schema.formats.grid_geojson import cell_ring

    p = grid.picture(grid.to_document(arena))
    out = []
    for i, lab in enumerate(p.labels):
        centres = [_centre(cell_ring(p, c)) for c in lab.cells]
        if not centres:
            continue
        x = sum(c[0] for c in centres) / len(centres)
        y = sum(c[1] for c in centres) / len(centres)
        out.append(Shape(f"label:{i}", "label", "", Style("#000000", label="text", z=100), at=(x, y), label=lab.text))
    return out


def inside(geom: dict[str, Any]) -> tuple[float, float] | None:
    """A point inside a GeoJSON geometry (on a line), for its label."""
    import shapely.geometry

    try:
        g = shapely.geometry.shape(geom)
    except (ValueError, TypeError, AttributeError, IndexError):
        return None
    if g.is_empty:
        return None
    pt = g.representative_point() if g.geom_type in ("Polygon", "MultiPolygon") else g.interpolate(0.5, normalized=True)
    return float(pt.x), float(pt.y)


def _centre(ring: list[list[float]]) -> tuple[float, float]:
    pts = ring[:-1]
    return sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)


def arrow(at: tuple[float, float], facing: float, size: float) -> str:
    """Path data of a facing arrow from ``at`` (arena frame) ``size`` long."""
    x, y = at
    a = math.radians(facing)
    tip = (x + size * math.cos(a), y + size * math.sin(a))
    left = (tip[0] - 0.35 * size * math.cos(a - 0.5), tip[1] - 0.35 * size * math.sin(a - 0.5))
    right = (tip[0] - 0.35 * size * math.cos(a + 0.5), tip[1] - 0.35 * size * math.sin(a + 0.5))
    return f"M{xy(at)} L{xy(tip)} M{xy(left)} L{xy(tip)} L{xy(right)}"
