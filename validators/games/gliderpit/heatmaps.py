"""Glider-Pit's heat maps for the HTML report: from each launch zone, the fewest turns (Movement
Phase and Glide Phase) a glider launched any legal way needs to end a Movement Phase in each
hex of the pit, up to :data:`HORIZON` turns - the travel search the ``gp-zone-travel`` check
uses to the pit's centre (:func:`engine.gliderpit.travel.reach`), one band a turn."""

from __future__ import annotations

from typing import Any

from validators.heatmaps import Band, HeatLimits, HeatMap, each, grid_cells, palette

#: Turns the maps look ahead.
HORIZON = 6
_COLOURS = palette(HORIZON + 1)
BANDS = (Band(0.0, _COLOURS[0], "0 turns (launched there)"),
         *(Band(float(t), _COLOURS[t], f"{t} turn{'' if t == 1 else 's'}") for t in range(1, HORIZON + 1)))
MEASURE = ("Turns to get there: the fewest turns a glider launched from zone {zone} (any hex, facing and dive the "
           "launch rules allow) needs to end a Movement Phase in each hex, alone in the pit and never touching its wall.")


def heat_maps(arena: Any, limits: HeatLimits) -> list[HeatMap]:
    """One map per launch zone, in file order."""
    from engine.gliderpit.travel import SearchLimits, TravelError, reach

    def one(zone: str) -> HeatMap:
        try:
            r = reach(arena, zone, HORIZON, limits=SearchLimits(max_states=limits.states))
        except TravelError as exc:
            return missing(zone, str(exc))
        values = {h: float(t) for h, t in r.turns.items()}
        return HeatMap(f"zone:{zone}", f"Zone {zone}", MEASURE.format(zone=zone), "turns", BANDS,
                       cells=grid_cells(arena, values), beyond=f"not reached within {r.horizon} turns",
                       stopped=r.undecided)

    def missing(zone: str, reason: str) -> HeatMap:
        return HeatMap(f"zone:{zone}", f"Zone {zone}", MEASURE.format(zone=zone), "turns", BANDS, stopped=reason)

    return each([z.id for z in arena.launch_zones], one, missing, limits)
