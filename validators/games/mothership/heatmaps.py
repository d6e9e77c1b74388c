"""The Mothership game's heat maps for the HTML report: from each player's build squares, the
fewest action points a Unit spends to move to each square of the battlefield ("For every square
in which the Units move, they spend 1 AP", L56; orthogonal moves, no other Unit on the way) - the
search the ``mg-approach`` check uses (:func:`engine.mothership.travel.reach_within`), one band
an AP through the first round (5 AP, L53), then a band a round."""

from __future__ import annotations

import math
from typing import Any

from validators.heatmaps import Band, HeatLimits, HeatMap, each, grid_cells, palette

_COLOURS = palette(8)
BANDS = (Band(0.0, _COLOURS[0], "0 AP (a build square)"),
         *(Band(float(ap), _COLOURS[ap], f"{ap} AP") for ap in range(1, 6)),
         Band(10.0, _COLOURS[6], "6–10 AP (two rounds)"), Band(math.inf, _COLOURS[7], "more than 10 AP"))
MEASURE = ("Action points to get there: the fewest AP a Unit built on one of player {player}'s build squares "
           "(next to Mothership {ship}) spends to move to each square, no other Unit in its way.")


def heat_maps(arena: Any, limits: HeatLimits) -> list[HeatMap]:
    """One map per Mothership, by its player."""
    from engine.mothership.travel import SearchLimits, TravelError, reach_within

    ships = {m.player: m.id for m in arena.motherships}

    def one(player: int) -> HeatMap:
        try:
            dist, reason = reach_within(arena, f"build:{player}", limits=SearchLimits(max_states=limits.states))
        except TravelError as exc:
            return missing(player, str(exc))
        return HeatMap(f"build:{player}", f"Player {player}", MEASURE.format(player=player, ship=ships[player]), "AP",
                       BANDS, cells=grid_cells(arena, {s: float(d) for s, d in dist.items()}),
                       beyond="no way there", stopped=reason)

    def missing(player: int, reason: str) -> HeatMap:
        return HeatMap(f"build:{player}", f"Player {player}", MEASURE.format(player=player, ship=ships[player]), "AP",
                       BANDS, stopped=reason)

    return each(sorted(ships), one, missing, limits)
