"""Car Wars' heat maps for the HTML report: from each start, the earliest time (turns) the car's
centre ends a movement point in each inch square, driving flat out, up to :data:`HORIZON`
turns - the reach search the editor's heat map draws (:func:`engine.carwars.reach.reach_with`),
smoothed for the picture as the editor smooths it (:func:`validators.heatmaps.display_times`:
the car moves a car length at a time, so squares between its stops take their neighbours'
time), in half-turn bands."""

from __future__ import annotations

from typing import Any, Literal

from validators.heatmaps import HALF_TURN_BANDS, HeatGrid, HeatLimits, HeatMap, bands_of, display_times, each, square_cell, turns_label

#: Cell (inches), horizon (turns) and the driving policy of the maps.
CELL = 1.0
HORIZON = 3.0
POLICY: Literal["flat-out"] = "flat-out"
MEASURE = ("Travel time: the turns the car needs, from start {player} at its starting speed, to end a movement "
           "point with its centre in each square ({cell:g} in across), driving {policy}.")


BANDS = bands_of(HALF_TURN_BANDS, turns_label)


def heat_maps(arena: Any, limits: HeatLimits) -> list[HeatMap]:
    """One map per start, in file order."""
    from engine import budget
    from engine.carwars.planner import Planner
    from engine.carwars.reach import reach_with
    from engine.carwars.travel import PlanningError, SearchLimits, StartSource

    cell = square_cell(arena.bounds.to_shapely().bounds, CELL, limits.cells)
    planners: list[Planner] = []  # made by the first map (its set-up stops at the caps as a search does)

    def words(player: int) -> str:
        return MEASURE.format(player=player, cell=cell, policy=POLICY)

    def one(player: int) -> HeatMap:
        try:
            if not planners:
                planners.append(Planner(arena, POLICY, limits=SearchLimits(max_states=limits.states)))
            r = reach_with(planners[0], StartSource(player), HORIZON, cell)
        except PlanningError as exc:
            return missing(player, str(exc))
        stopped = None if r.complete else budget.exceeded() or f"the search's cap of {limits.states:,} states"
        return HeatMap(f"start:{player}", f"Start {player}", words(player), "turns", BANDS,
                       HeatGrid(r.x0, r.y0, r.cell, display_times(r.times)),
                       beyond=f"not reached within {HORIZON:g} turns", stopped=stopped)

    def missing(player: int, reason: str) -> HeatMap:
        return HeatMap(f"start:{player}", f"Start {player}", words(player), "turns", BANDS, stopped=reason)

    return each([s.player for s in arena.start_positions], one, missing, limits)
