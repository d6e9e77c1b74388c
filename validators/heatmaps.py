"""Heat maps for people: a value per place of the arena (the turns a start needs to get there,
the moves from a zone, the action points from a Mothership...), as the HTML report draws them
over the arena and the editor paints them - for any game, naming none.

A game gives its maps through :meth:`validators.game.GameAnalysis.report_heat_maps` (computed
with its engine, in its own package); :func:`report_heat_maps` runs that hook under the
analysis's caps.  A :class:`HeatMap` is either a regular grid of squares (:class:`HeatGrid`: the
engines' reach maps) or a list of a grid game's cells (:class:`HeatCell`, with their outlines
in the arena's plane), each valued; :class:`Band` s colour the values (viridis-like, light for
near, dark for far).  A map a limit stopped says so (:attr:`HeatMap.stopped`): its values are
what the search had settled, and the page tells the reader.

The bands the editor's Car Wars heat map uses (:data:`HALF_TURN_BANDS`, :func:`heat_colour`)
and its smoothing of a car's reach (:func:`display_times`) live here, shared by both.

>>> bands = turn_bands(1.0, 3.0)
>>> [(b.upper, b.label) for b in bands]
[(1.0, '≤ 1 turn'), (2.0, '≤ 2 turns'), (3.0, '≤ 3 turns')]
>>> band_index(bands, 1.5), band_index(bands, 3.5), band_index(bands, math.inf)
(1, None, None)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from engine.budget import Caps

T = TypeVar("T")

__all__ = ["HALF_TURN_BANDS", "VIRIDIS", "WHOLE_TURN_BANDS", "Band", "HeatCell", "HeatGrid", "HeatLimits", "HeatMap", "band_index",
           "bands_of", "display_times", "each", "grid_cells", "heat_colour", "palette", "report_heat_maps", "square_cell", "turn_bands", "turns_label"]

#: A sequential, colour-blind-safe palette (viridis, light to dark): near places light.
VIRIDIS = ("#fde725", "#b5de2b", "#6ece58", "#35b779", "#1f9e89", "#26828e", "#31688e", "#3e4989", "#482878")

#: The Car Wars heat map's bands (upper bound in turns, colour): half turns up to 3 turns.
HALF_TURN_BANDS: tuple[tuple[float, str], ...] = (
    (0.5, "#fde725"), (1.0, "#a0da39"), (1.5, "#4ac16d"), (2.0, "#1fa187"), (2.5, "#277f8e"), (3.0, "#365c8d"))

#: Whole-turn bands (upper bound in turns, colour) up to 4 turns: Gravstrike's heat map.
WHOLE_TURN_BANDS: tuple[tuple[float, str], ...] = ((1.0, "#fde725"), (2.0, "#5ec962"), (3.0, "#21918c"), (4.0, "#3b528b"))


@dataclass(frozen=True)
class Band:
    """Values above the previous band's ``upper`` up to ``upper`` (inclusive) are drawn in
    ``colour``; ``label`` says so in the legend ("≤ 2 turns")."""

    upper: float
    colour: str
    label: str


@dataclass(frozen=True)
class HeatGrid:
    """A regular grid of ``cell``-wide squares: ``values[i, j]`` covers x in [x0 + i*cell,
    x0 + (i+1)*cell), likewise y (a numpy float array (nx, ny); ``inf``: not reached)."""

    x0: float
    y0: float
    cell: float
    values: Any


@dataclass(frozen=True)
class HeatCell:
    """One cell of a grid game (``at``: its grid coordinates, as the arena names them), its
    outline in the arena's plane (as the arena's GeoJSON export draws it) and its value."""

    at: tuple[int, int]
    ring: tuple[tuple[float, float], ...]
    value: float


@dataclass(frozen=True)
class HeatMap:
    """One heat map: from ``key`` (``start:1``, a zone, a Mothership...; the chooser's value,
    ``title`` its words), what it measures in ``unit`` (``measure``: a sentence), the
    ``bands`` that colour it and what an uncoloured place means (``beyond``), on a regular
    ``grid`` or on a grid game's ``cells``.  ``stopped``: why the computation ended before it
    settled every place (a limit; None: complete)."""

    key: str
    title: str
    measure: str
    unit: str
    bands: tuple[Band, ...]
    grid: HeatGrid | None = None
    cells: tuple[HeatCell, ...] = ()
    beyond: str = ""
    stopped: str | None = None

    def reached(self) -> int:
        """How many places have a value (are drawn, whatever their band)."""
        if self.grid is not None:
            import numpy as np

            return int(np.isfinite(self.grid.values).sum())
        return sum(1 for c in self.cells if math.isfinite(c.value))


@dataclass(frozen=True)
class HeatLimits:
    """What the heat maps of one report may use besides the analysis's caps (time, memory:
    :mod:`engine.budget`): ``cells`` squares per regular-grid map at most (a game coarsens its
    grid to stay under), ``states`` search states per map where the engine counts them (then
    the map is stopped, and says so), ``maps`` maps at most."""

    cells: int = 20_000
    states: int = 2_000_000
    #: Maps computed at most (None: all); the others are listed, not computed, saying so.
    maps: int | None = None


def square_cell(bounds: tuple[float, float, float, float], cell: float, cells: int) -> float:
    """``cell`` doubled until a regular grid over ``bounds`` (minx, miny, maxx, maxy) has at most
    ``cells`` squares (:attr:`HeatLimits.cells`)."""
    minx, miny, maxx, maxy = bounds
    while math.ceil((maxx - minx) / cell) * math.ceil((maxy - miny) / cell) > cells:
        cell *= 2
    return cell


def band_index(bands: Sequence[Band], value: float) -> int | None:
    """The band ``value`` falls in (None: beyond the last, or not a number)."""
    if not math.isfinite(value):
        return None
    for i, b in enumerate(bands):
        if value <= b.upper + 1e-9:
            return i
    return None


def bands_of(pairs: Iterable[tuple[float, str]], label: Callable[[float], str]) -> tuple[Band, ...]:
    """Bands from (upper, colour) pairs, each labelled by ``label(upper)``."""
    return tuple(Band(u, c, label(u)) for u, c in pairs)


def turns_label(v: float) -> str:
    """A band's legend in turns: "≤ 1 turn", "≤ 2.5 turns"."""
    return f"≤ {v:g} turn{'' if v == 1 else 's'}"


def turn_bands(step: float, horizon: float, unit: Callable[[float], str] = turns_label) -> tuple[Band, ...]:
    """Bands every ``step`` up to ``horizon``, coloured along :data:`VIRIDIS` (the first band
    lightest), labelled by ``unit(upper)``."""
    count = max(1, int(round(horizon / step)))
    uppers = [round(step * (k + 1), 6) for k in range(count)]
    return tuple(Band(u, palette(count)[k], unit(u)) for k, u in enumerate(uppers))


def palette(count: int) -> tuple[str, ...]:
    """``count`` colours spread along :data:`VIRIDIS` (light to dark; more bands than colours
    share the darkest).

    >>> palette(3)
    ('#fde725', '#1f9e89', '#482878')
    """
    last = len(VIRIDIS) - 1
    if count <= 1:
        return VIRIDIS[:1]
    return tuple(VIRIDIS[min(last, round(k * last / (min(count, len(VIRIDIS)) - 1)))] for k in range(count))


def each(items: Iterable[T], compute: Callable[[T], HeatMap], missing: Callable[[T, str], HeatMap],
         limits: HeatLimits) -> list[HeatMap]:
    """``compute(item)`` for each item in order until a cap of the analysis stops the work
    (:mod:`engine.budget`) or ``limits.maps`` are done; then ``missing(item, reason)`` for that
    item and the rest."""
    from engine.budget import AnalysisStopped, reached

    out: list[HeatMap] = []
    reason: str | None = None
    for k, item in enumerate(items):
        if reason is None and limits.maps is not None and k >= limits.maps:
            reason = f"the report's cap of {limits.maps} heat map{'' if limits.maps == 1 else 's'}"
        reason = reason or reached()
        if reason is None:
            try:
                out.append(compute(item))
                continue
            except AnalysisStopped as exc:
                reason = exc.reason
        out.append(missing(item, reason))
    return out


def heat_colour(turns: float, bands: Sequence[tuple[float, str]] = HALF_TURN_BANDS) -> str | None:
    """The band colour of a travel time (None beyond the last band or unreached).

    >>> heat_colour(0.4), heat_colour(3.2), heat_colour(math.inf)
    ('#fde725', None, None)
    """
    if not math.isfinite(turns):
        return None
    for upper, colour in bands:
        if turns <= upper + 1e-9:
            return colour
    return None


def display_times(times: Any, min_neighbours: int = 3) -> Any:
    """A reach map's times for drawing: a cell a vehicle's centre never stops in (its movement
    points are a car length apart, the cells an inch) takes the earliest time of its eight
    neighbours when at least ``min_neighbours`` of them were reached; reached cells keep their
    own time.  For the picture only: values are read from the map itself."""
    import numpy as np

    t = np.asarray(times, dtype=np.float64)
    nx, ny = t.shape
    pad = np.full((nx + 2, ny + 2), np.inf)
    pad[1:-1, 1:-1] = t
    shifts = [pad[1 + di:nx + 1 + di, 1 + dj:ny + 1 + dj] for di in (-1, 0, 1) for dj in (-1, 0, 1) if di or dj]
    near = np.min(shifts, axis=0)
    count = np.sum([np.isfinite(s) for s in shifts], axis=0)
    out = t.copy()
    hole = ~np.isfinite(t) & (count >= min_neighbours)
    out[hole] = near[hole]
    return out


def grid_cells(arena: Any, values: Mapping[tuple[int, int], float]) -> tuple[HeatCell, ...]:
    """A grid game's valued cells with their outlines (the arena's grid picture, as its GeoJSON
    export draws the cells), in grid-coordinate order; cells the arena does not have are left
    out."""
    from schema.formats.grid_games import picture_of
    from schema.formats.grid_geojson import cell_ring

    p = picture_of(arena)
    known = set(p.cells)
    out = []
    for at in sorted(values):
        if at in known:
            ring = cell_ring(p, at)[:-1]
            out.append(HeatCell(at, tuple((float(x), float(y)) for x, y in ring), float(values[at])))
    return tuple(out)


def report_heat_maps(arena: Any, *, limits: HeatLimits | None = None, caps: Caps | None = None) -> list[HeatMap]:
    """The heat maps of ``arena``'s game (its analysis's
    :meth:`~validators.game.GameAnalysis.report_heat_maps`), under ``caps`` (the budget
    already active when there is one: a service job's).  A cap reached stops the maps not
    yet done: each is listed with ``stopped`` set and no values."""
    from engine.budget import AnalysisStopped
    from validators.game import analysis_of
    from validators.run import analysis_budget

    with analysis_budget(caps):
        try:
            return analysis_of(arena).report_heat_maps(arena, limits=limits or HeatLimits())
        except AnalysisStopped as exc:
            return [HeatMap("stopped", "Heat maps", "", "", (), stopped=exc.reason)]
