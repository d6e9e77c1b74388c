"""Arena Rex's heat maps for the HTML report: from each deployment zone, the moves a base needs
to stand on each point of the board ("Move up to the model's MOV value in inches", L18) - the
walking distance the fairness metrics use (:func:`engine.arenarex.fairness.heat_map`, as the
editor's heat map) for the largest base the arena lists, in bands of one move: the free move,
each fatigue after it, and more than one activation."""

from __future__ import annotations

import math
from typing import Any

from validators.heatmaps import Band, HeatGrid, HeatLimits, HeatMap, each, palette

_COLOURS = palette(4)
BANDS = (Band(1.0, _COLOURS[0], "1 move (the free move)"), Band(2.0, _COLOURS[1], "2 moves (1 fatigue)"),
         Band(3.0, _COLOURS[2], "3 moves (2 fatigue: one whole activation)"),
         Band(math.inf, _COLOURS[3], "4 or more moves (more than one activation)"))
MEASURE = ("Moves to get there: the moves of {mov:g} in a base {base:g} mm across needs from deployment zone "
           "{player} to stand on each point ({step:g} in apart), walking around pits, spikes and terrain.")


def heat_maps(arena: Any, limits: HeatLimits) -> list[HeatMap]:
    """One map per deployment zone, by player."""
    import numpy as np

    from engine.arenarex.fairness import Analysis, heat_map
    from schema.games.arenarex import MM_PER_INCH

    players = sorted(Analysis(arena).edges)
    radius = max(arena.base_radii())
    base = round(radius * 2 * MM_PER_INCH, 3)
    mov = float(arena.scenario.analysis.mov)

    def one(player: int) -> HeatMap:
        fld, moves = heat_map(arena, player)
        values = np.where(moves >= 0, moves.astype(np.float64), np.inf)
        nx, ny = values.shape
        k = max(1, math.ceil(math.sqrt(nx * ny / limits.cells)))  # every k-th point when there are too many
        values = values[::k, ::k]
        step = fld.step * k
        # a point's square is centred on it
        return HeatMap(f"deploy:{player}", f"Zone {player}", MEASURE.format(mov=mov, base=base, player=player, step=step),
                       "moves", BANDS, HeatGrid(fld.x0 - step / 2, fld.y0 - step / 2, step, values),
                       beyond="no way there for the base")

    def missing(player: int, reason: str) -> HeatMap:
        return HeatMap(f"deploy:{player}", f"Zone {player}", "", "moves", BANDS, stopped=reason)

    return each(players, one, missing, limits)
