"""The heat maps of the HTML report as the template draws them: per map (a
:class:`validators.heatmaps.HeatMap`) one SVG path per band - the squares of a regular grid
merged into runs along each row, a grid game's cells as their outlines - and the values
themselves, compact, on the layer (``data-values``: what a reader's pointer shows, and what
tests read back).

The values' text: a regular grid's ``data-grid`` is ``x0 y0 cell nx ny`` and its
``data-values`` the rows from the lowest y up, separated by ``;``, each row's ``nx`` values
separated by spaces, ``-`` for a square without one; a grid game's ``data-values`` is
``q,r=value`` per valued cell, separated by spaces.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from validators.heatmaps import HeatMap, band_index
from validators.webreport.picture import n, ring_d

#: The layer's fill opacity (the arena shows through).
OPACITY = 0.62


def value_text(v: float) -> str:
    """A value as the page writes it: two decimals at most, ``-`` for none.

    >>> value_text(2.1666667), value_text(3.0), value_text(math.inf)
    ('2.17', '3', '-')
    """
    if not math.isfinite(v):
        return "-"
    return n(round(float(v), 2))


@dataclass
class BandView:
    index: int
    colour: str
    label: str
    d: str
    count: int


@dataclass
class HeatView:
    """One map as drawn: its band paths (bands with no place left out of the layer, kept in
    the legend), its values' text and its words."""

    index: int
    key: str
    title: str
    unit: str
    measure: str
    beyond: str
    stopped: str | None
    bands: list[BandView]
    count: int
    grid: str = ""
    values: str = ""
    kind: str = "grid"
    legend: list[BandView] = field(default_factory=list)

    @property
    def option(self) -> str:
        what = f"{self.title} ({self.unit})" if self.unit else self.title
        if self.stopped and not self.count:
            return f"{what} — not computed"
        return what + (" — incomplete" if self.stopped else "")


def _grid_view(m: HeatMap) -> tuple[list[tuple[int, str, int]], str, str]:
    import numpy as np

    g = m.grid
    assert g is not None
    values = np.asarray(g.values, dtype=np.float64)
    nx, ny = values.shape
    index = np.full((nx, ny), -1, dtype=np.int64)
    for i, j in zip(*np.nonzero(np.isfinite(values))):
        b = band_index(m.bands, float(values[i, j]))
        if b is not None:
            index[i, j] = b
    paths: list[tuple[int, str, int]] = []
    for b in range(len(m.bands)):
        parts = []
        count = 0
        for j in range(ny):
            row = index[:, j] == b
            if not row.any():
                continue
            top = -(g.y0 + (j + 1) * g.cell)
            i = 0
            while i < nx:
                if row[i]:
                    k = i
                    while k < nx and row[k]:
                        k += 1
                    parts.append(f"M{n(g.x0 + i * g.cell)},{n(top)}h{n((k - i) * g.cell)}v{n(g.cell)}h{n(-(k - i) * g.cell)}z")
                    count += k - i
                    i = k
                else:
                    i += 1
        paths.append((b, "".join(parts), count))
    shown = np.where(index >= 0, values, np.inf)
    rows = ";".join(" ".join(value_text(float(shown[i, j])) for i in range(nx)) for j in range(ny))
    return paths, f"{n(g.x0)} {n(g.y0)} {n(g.cell)} {nx} {ny}", rows


def _cells_view(m: HeatMap) -> tuple[list[tuple[int, str, int]], str]:
    """Each band's cells merged into their outline (shapely: fewer, longer rings than one a
    cell), and the values' text."""
    import shapely

    by_band: dict[int, list[Any]] = {}
    values = []
    for c in m.cells:
        b = band_index(m.bands, c.value)
        if b is None:
            continue
        by_band.setdefault(b, []).append(shapely.Polygon(c.ring))
        values.append(f"{c.at[0]},{c.at[1]}={value_text(c.value)}")
    paths = []
    for b in range(len(m.bands)):
        cells = by_band.get(b, [])
        merged = shapely.union_all(cells, grid_size=1e-4) if cells else None
        polys = [] if merged is None else [g for g in getattr(merged, "geoms", [merged]) if g.geom_type == "Polygon"]
        d = " ".join(ring_d([list(p) for p in ring.coords])
                     for poly in polys for ring in (poly.exterior, *poly.interiors))
        paths.append((b, d, len(cells)))
    return paths, " ".join(values)


def heat_views(maps: Sequence[HeatMap]) -> list[HeatView]:
    """The views of ``maps``, in order (a map without values still has its chooser entry and
    says why)."""
    out = []
    for k, m in enumerate(maps):
        grid = values = ""
        kind = "grid" if m.grid is not None else "cells"
        if m.grid is not None:
            paths, grid, values = _grid_view(m)
        else:
            paths, values = _cells_view(m)
        bands = [BandView(b, m.bands[b].colour, m.bands[b].label, d, count) for b, d, count in paths]
        legend = bands or [BandView(b, band.colour, band.label, "", 0) for b, band in enumerate(m.bands)]
        out.append(HeatView(k, m.key, m.title, m.unit, m.measure, m.beyond, m.stopped,
                            [b for b in bands if b.count], sum(b.count for b in bands), grid, values, kind, legend))
    return out

