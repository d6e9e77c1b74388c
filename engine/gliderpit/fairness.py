"""Launch-zone fairness: numbers per zone, side by side, and a comparison against the
scenario's tolerances.

Per zone (:class:`ZoneMetrics`): hex distance to the pit centre; distance to the nearest other
zone; wall clearance (the longest straight run of Forward moves from a launch hex in a legal
facing, capped); the legal launch facings; and air-current exposure — the chance that at least
one of the four air current markers may be placed on a row the zone's hexes or its first moves
touch ("Roll 2d6. Place any one of the markers on a hex row matching the die roll", L195; a
total k has chance (6 - |k - 7|)/36), with the rows within reach that can take an updraft or a
downdraft marker.  Optionally the fewest turns to the pit centre.

>>> from schema.games.gliderpit import default_arena
>>> ms = zone_metrics(default_arena())
>>> [m.centre_mean for m in ms], sorted({round(m.exposure, 4) for m in ms})
([9.0, 9.0, 9.0, 9.0, 9.0, 9.0], [0.9375])
>>> compare(default_arena())
[]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from engine.gliderpit.checks import Issue
from engine.gliderpit.movement import placed_macros
from engine.gliderpit.pit import Pit, pit_of
from engine.gliderpit.rules import CURRENT_MARKERS, chance_any_marker, launch_options, total_chance
from engine.gliderpit.travel import SearchLimits, TravelResult, plan
from engine.grids import Axial, hex_distance, hex_rotate, straight_run
from schema.games.gliderpit import GliderPitArena, LaunchZone


@dataclass(frozen=True)
class ZoneMetrics:
    zone: str
    track: int
    centre_mean: float
    centre_min: int
    nearest_zone: int | None
    nearest_zone_id: str | None
    clearance_mean: float
    clearance_min: int
    facings_mean: float
    facings_min: int
    reach: tuple[Axial, ...]
    rows: tuple[int, ...]
    labels: tuple[int, ...]
    exposure: float
    exposure_updraft: float
    exposure_downdraft: float
    updraft_rows: int
    downdraft_rows: int
    expected_markers: float
    travel_turns: int | None = None
    #: The travel search's answer (``reached``, ``unreachable``, ``beyond``, ``undecided``;
    #: None: not asked) and, when it could not decide, the limit that stopped it.
    travel_status: str | None = None
    travel_limit: str | None = None


def first_moves(pit: Pit, zone: LaunchZone, max_speed: int) -> set[Axial]:
    """The zone's hexes and every hex a glider launched from them at a speed up to
    ``max_speed`` may enter in its first Movement Phase (launched facing away from the wall,
    L55; at speed 1, or 2-4 after a launch dive, L57-59; never through the wall)."""
    cells = {h for h in zone.cells if h in pit.cells}
    out = set(cells)
    for h in cells:
        for facing in pit.facings(h):
            for _, speed, alt in launch_options():
                if speed > max_speed or alt <= pit.arena.floor_level:
                    continue
                for pm in placed_macros(speed, facing):
                    if not pm.macro.altitudes_ok(alt, pit.arena.floor_level):
                        continue
                    entered = [(h[0] + dq, h[1] + dr) for dq, dr in pm.entered]
                    if all(e in pit.cells for e in entered):
                        out.update(entered)
    return out


def _metrics(pit: Pit, zone: LaunchZone, zones: Sequence[LaunchZone]) -> ZoneMetrics:
    an = pit.arena.scenario.analysis
    cells = [h for h in zone.cells if h in pit.cells]
    if not cells:
        return ZoneMetrics(zone.id, zone.track, 0.0, 0, None, None, 0.0, 0, 0.0, 0, (), (), (), 0.0, 0.0, 0.0, 0, 0, 0.0)
    centre = [pit.centre_distance(h) for h in cells]
    nearest: tuple[int, str] | None = None
    for other in zones:
        if other.id == zone.id or not other.cells:
            continue
        d = min(hex_distance(a, b) for a in cells for b in other.cells)
        if nearest is None or (d, other.id) < nearest:
            nearest = (d, other.id)
    clearance = [max((straight_run(pit.cells, h, f, an.clearance_cap) for f in pit.facings(h)), default=0) for h in cells]
    facings = [len(pit.facings(h)) for h in cells]
    reach = first_moves(pit, zone, an.exposure_speed)
    lines = sorted({pit.line_of(h) for h in reach}, key=lambda line: pit.row_number(line) or 0)
    rows = [pit.rows_by_line[line] for line in lines if line in pit.rows_by_line]
    up = [r for r in rows if r.current in ("any", "updraft")]
    down = [r for r in rows if r.current in ("any", "downdraft")]
    labels = sorted({r.label for r in rows})
    return ZoneMetrics(
        zone=zone.id, track=zone.track,
        centre_mean=sum(centre) / len(centre), centre_min=min(centre),
        nearest_zone=None if nearest is None else nearest[0], nearest_zone_id=None if nearest is None else nearest[1],
        clearance_mean=sum(clearance) / len(clearance), clearance_min=min(clearance),
        facings_mean=sum(facings) / len(facings), facings_min=min(facings),
        reach=tuple(sorted(reach)),
        rows=tuple(n for n in (pit.row_number(line) for line in lines) if n is not None),
        labels=tuple(labels),
        exposure=chance_any_marker(labels),
        exposure_updraft=chance_any_marker(r.label for r in up),
        exposure_downdraft=chance_any_marker(r.label for r in down),
        updraft_rows=len(up), downdraft_rows=len(down),
        expected_markers=CURRENT_MARKERS * sum(total_chance(k) for k in labels),
    )


def zone_metrics(arena: GliderPitArena, *, travel: bool = False,
                 limits: SearchLimits = SearchLimits(max_turns=12)) -> list[ZoneMetrics]:
    """Every launch zone's numbers, in file order; with ``travel``, also the fewest turns
    from the zone (launched any legal way) to end a Movement Phase on a centre hex, and the
    search's answer (a search bounded by states and the analysis's caps, not by its own
    seconds: the answer does not depend on the machine's speed)."""
    pit = pit_of(arena)
    out = [_metrics(pit, z, arena.launch_zones) for z in arena.launch_zones]
    if travel and pit.centre_cells:
        done = []
        turns_of = pit_turns(pit)
        searched: dict[frozenset[Axial], TravelResult] = {}
        for m, z in zip(out, arena.launch_zones):
            turns, status, why = None, None, None
            own = frozenset(h for h in z.cells if h in pit.cells)
            if own:
                # a zone a turn of the pit sends onto a searched one: that search's answer
                r = next((searched[img] for img in (frozenset(t[h] for h in own) for t in turns_of)
                          if img in searched), None)
                if r is None:
                    r = searched[own] = plan(arena, z.id, "centre", limits=limits, path=False)
                turns = r.turns if r.status == "reached" else None
                status = r.status
                why = r.undecided if r.status == "undecided" else \
                    f"horizon ({r.horizon} turns)" if r.status == "beyond" else None
            done.append(replace(m, travel_turns=turns, travel_status=status, travel_limit=why))
        out = done
    return out


def pit_turns(pit: Pit) -> list[dict[Axial, Axial]]:
    """The turns of the hex grid (sixths, about the pit's centroid; the identity first) that map
    the pit's hexes and its centre hexes onto themselves, as hex -> image.  A fewest-turn search
    from launch zone A to the centre and one from B, a turn of A, are the same search turned:
    the walls are the pit's edge, launch facings turn with the walls, each facing's macros are
    facing 0's turned (:func:`engine.gliderpit.movement.placed_macros`) and the altitudes do not
    move - so its turns, status and states are the same.  The centroid is the centre of every
    such turn (the one point it keeps); coordinates are scaled by the number of hexes to stay
    integral."""
    cells = pit.cells
    n = len(cells)
    if not n:
        return []
    sq, sr = sum(q for q, _ in cells), sum(r for _, r in cells)
    centre = frozenset(pit.centre_cells)
    out = []
    for k in range(6):
        image: dict[Axial, Axial] = {}
        for q, r in cells:
            vq, vr = hex_rotate((n * q - sq, n * r - sr), k)
            if (sq + vq) % n or (sr + vr) % n:
                break
            image[(q, r)] = ((sq + vq) // n, (sr + vr) // n)
        else:
            if frozenset(image.values()) == cells and frozenset(image[h] for h in centre) == centre:
                out.append(image)
    return out


def _spread(code: str, what: str, ms: Sequence[ZoneMetrics], value: Callable[[ZoneMetrics], float | None],
            tolerance: float, unit: str, fmt: str = "{:g}") -> list[Issue]:
    vals = [(m, value(m)) for m in ms]
    known = [(m, v) for m, v in vals if v is not None]
    if len(known) < 2:
        return []
    lo = min(v for _, v in known)
    hi = max(v for _, v in known)
    if hi - lo <= tolerance + 1e-9:
        return []
    worst = tuple(m.zone for m, v in known if v in (lo, hi))
    listing = ", ".join(f"{m.zone} {fmt.format(v)}" for m, v in known)
    return [Issue(code, "warning",
                  f"Launch zones differ in {what} by {fmt.format(hi - lo)}{' ' + unit if unit else ''} "
                  f"(tolerance {fmt.format(tolerance)}): "
                  f"{listing}.", worst,
                  {"values": {m.zone: v for m, v in known}, "spread": hi - lo, "tolerance": tolerance})]


def compare(arena: GliderPitArena, metrics: Sequence[ZoneMetrics] | None = None, *, travel: bool = True) -> list[Issue]:
    """Zones side by side: a warning per metric whose spread exceeds its tolerance.  When
    every row takes any marker (the book's rule), the updraft and downdraft figures equal the
    overall ones and are compared once; when some rows take only one kind, each kind is
    compared too."""
    ms = list(zone_metrics(arena, travel=travel)) if metrics is None else list(metrics)
    an = arena.scenario.analysis
    disabled = set(an.disabled)
    restricted = any(r.current != "any" for r in arena.rows)
    currents = [*_spread("gp-zone-currents", "the chance an air current marker may land on a row they touch", ms,
                         lambda m: m.exposure, an.current_tolerance, "", "{:.3f}")]
    if restricted:
        currents += [
            *_spread("gp-zone-currents", "the chance an updraft marker may land on a row they touch", ms,
                     lambda m: m.exposure_updraft, an.current_tolerance, "", "{:.3f}"),
            *_spread("gp-zone-currents", "the chance a downdraft marker may land on a row they touch", ms,
                     lambda m: m.exposure_downdraft, an.current_tolerance, "", "{:.3f}"),
            *_spread("gp-zone-currents", "updraft rows within reach", ms, lambda m: float(m.updraft_rows),
                     an.current_rows_tolerance, "rows"),
            *_spread("gp-zone-currents", "downdraft rows within reach", ms, lambda m: float(m.downdraft_rows),
                     an.current_rows_tolerance, "rows"),
        ]
    else:
        currents += _spread("gp-zone-currents", "rows within reach (each may take an updraft or a downdraft)", ms,
                            lambda m: float(m.updraft_rows), an.current_rows_tolerance, "rows")
    issues = [
        *_spread("gp-zone-centre", "mean hex distance to the pit centre", ms, lambda m: m.centre_mean,
                 an.centre_tolerance, "hexes", "{:.3g}"),
        *_spread("gp-zone-spacing", "distance to the nearest other zone", ms,
                 lambda m: None if m.nearest_zone is None else float(m.nearest_zone), an.spacing_tolerance, "hexes"),
        *_spread("gp-zone-clearance", "mean wall clearance", ms, lambda m: m.clearance_mean,
                 an.clearance_tolerance, "hexes", "{:.3g}"),
        *_spread("gp-zone-facings", "mean launch facings per hex", ms, lambda m: m.facings_mean,
                 an.facings_tolerance, "facings", "{:.3g}"),
        *currents,
        *_spread("gp-zone-travel", "fewest turns to the pit centre", ms,
                 lambda m: None if m.travel_turns is None else float(m.travel_turns), an.travel_tolerance, "turns"),
        *_no_way(ms),
    ]
    return [i for i in issues if i.code not in disabled]


def _no_way(ms: Sequence[ZoneMetrics]) -> list[Issue]:
    """``gp-zone-travel`` for zones from which no glider can end a Movement Phase on the
    centre at all (proven) while others can: a difference no number of turns measures, so the
    spread of turns leaves them out."""
    stuck = [m for m in ms if m.travel_status == "unreachable"]
    reached = {m.zone: m.travel_turns for m in ms if m.travel_status == "reached"}
    if not stuck or not reached:
        return []
    listing = ", ".join(f"{z} {t}" for z, t in reached.items())
    return [Issue("gp-zone-travel", "warning",
                  f"Launch zone(s) {', '.join(m.zone for m in stuck)} cannot reach the pit centre at all; the other "
                  f"zones can (fewest turns: {listing}).", tuple(m.zone for m in stuck),
                  {"unreachable": [m.zone for m in stuck], "values": reached})]
