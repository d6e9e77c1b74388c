"""Gravstrike's heat maps for the HTML report: from each start, the travel time (turns) until
the centre ends a length in each half-length square, up to :data:`HORIZON` turns - the
planner's exhaustive reach search (:meth:`engine.gravstrike.planner.Planner.reach_times`, as
the editor's heat-map layer and ``arena render``'s ``heatmap:start:N`` overlay), at the arena's
tier and icon budget, in whole-turn bands."""

from __future__ import annotations

from typing import Any

from validators.heatmaps import HeatGrid, HeatLimits, HeatMap, WHOLE_TURN_BANDS, bands_of, each, square_cell, turns_label

#: Cell (lengths), horizon (turns) and position tolerance of the reach search.
CELL = 0.5
HORIZON = 4.0
QUANTUM = 0.5
MEASURE = ("Travel time: the turns the turbine needs, from start {player} at its facing, to end a length "
           "with its centre in each square ({cell:g} length across), at tier {tier} and {budget} icons a turn.")


BANDS = bands_of(WHOLE_TURN_BANDS, turns_label)


def heat_maps(arena: Any, limits: HeatLimits) -> list[HeatMap]:
    """One map per start, in file order."""
    from engine.gravstrike.planner import Planner, PlanningError, SearchLimits, StartSource
    from engine.gravstrike.search import NODE_BYTES

    cell = square_cell(arena.bounds.to_shapely().bounds, CELL, limits.cells)
    planners: list[Planner] = []  # made by the first map (its set-up stops at the caps as a search does)
    icons = arena.turbine.icons_per_turn if arena.turbine.icons_per_turn is not None else "unlimited"

    def words(player: int) -> str:
        return MEASURE.format(player=player, cell=cell, tier=arena.scenario.analysis.tier, budget=icons)

    def one(player: int) -> HeatMap:
        try:
            if not planners:
                planners.append(Planner(arena, quantum=QUANTUM, minimise="time", pivots=False,
                                        limits=SearchLimits(max_bytes=limits.states * NODE_BYTES)))
            r = planners[0].reach_times(StartSource(player), cell=cell, max_time=HORIZON)
        except PlanningError as exc:
            return missing(player, str(exc))
        return HeatMap(f"start:{player}", f"Start {player}", words(player), "turns", BANDS,
                       HeatGrid(r.x0, r.y0, r.cell, r.times), beyond=f"not reached within {HORIZON:g} turns",
                       stopped=r.stopped)

    def missing(player: int, reason: str) -> HeatMap:
        return HeatMap(f"start:{player}", f"Start {player}", words(player), "turns", BANDS, stopped=reason)

    return each([s.player for s in arena.start_positions], one, missing, limits)
