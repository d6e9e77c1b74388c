"""Setup checks for a Glider-Pit Gladiators pit: pure functions returning :class:`Issue` values
(code, severity, message quoting the book, element ids, metrics).

>>> from schema.games.gliderpit import default_arena
>>> [i.code for i in check_all(default_arena())]
[]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from engine.findings import Issue as Issue  # the games share one finding type
from engine.gliderpit.pit import pit_of
from engine.gliderpit.rules import (LAUNCH_DIVE_MAX, LAUNCH_ZONES, LEDGE, ROWS, SHORT_GAME_FLOORS, STANDARD_FLOOR,
                                    TOTALS, ZONE_HEXES)
from engine.grids import Axial, components, hex_distance, hex_neighbours, symmetry_transforms
from schema.games.gliderpit import GliderPitArena

def _cells(cells: Any) -> list[list[int]]:
    return [[q, r] for q, r in sorted(cells)]


# ------------------------------------------------------------------ the pit


def check_pit(arena: GliderPitArena) -> list[Issue]:
    """``gp-pit``: the pit is one connected hex grid, each hex listed once."""
    pit = pit_of(arena)
    out: list[Issue] = []
    if not pit.cells:
        return [Issue("gp-pit", "error", "The pit has no hexes: \"The center section consists of a hexagonal grid "
                      "representing the pit in which the gliders will fly.\"")]
    twice = sorted(h for h, n in Counter(arena.cells).items() if n > 1)
    if twice:
        out.append(Issue("gp-pit", "warning", f"{len(twice)} hex(es) are listed more than once.",
                         metrics={"cells": _cells(twice)}))
    parts = components(pit.cells, hex_neighbours)
    if len(parts) > 1:
        stray = sorted(h for part in parts[1:] for h in part)
        out.append(Issue("gp-pit", "error",
                         f"The pit falls into {len(parts)} separate parts; {len(stray)} hex(es) cannot be flown to "
                         "from the main pit (\"a hexagonal grid representing the pit\").",
                         metrics={"parts": len(parts), "cells": _cells(stray)}))
    return out


def check_rows(arena: GliderPitArena) -> list[Issue]:
    """``gp-rows``: 19 numbered rows, each labelled 2-12, every 2d6 total on some row."""
    pit = pit_of(arena)
    out: list[Issue] = []
    by_line: dict[int, list[str]] = {}
    for row in arena.rows:
        by_line.setdefault(row.line, []).append(row.id)
    for line, ids in sorted(by_line.items()):
        if len(ids) > 1:
            out.append(Issue("gp-rows", "error", f"Line {line} is numbered {len(ids)} times; a hex row has one number.",
                             tuple(ids), {"line": line}))
    empty = [row for row in arena.rows if pit.row_number(row.line) is None]
    for row in empty:
        out.append(Issue("gp-rows", "warning", f"Row {row.id} numbers line {row.line}, which holds no pit hexes.",
                         (row.id,), {"line": row.line}))
    unlabelled = [line for line in pit.lines if line not in by_line]
    if unlabelled:
        numbers = [pit.row_number(line) for line in unlabelled]
        out.append(Issue("gp-rows", "error",
                         f"{len(unlabelled)} hex row(s) have no number (row {', '.join(map(str, numbers))}): \"The 19 "
                         "rows of hexes on the mapsheet are identified by number.\"",
                         metrics={"lines": unlabelled, "rows": numbers}))
    if len(pit.lines) != ROWS:
        out.append(Issue("gp-rows", "error",
                         f"The pit has {len(pit.lines)} hex rows; the book's has 19: \"The 19 rows of hexes on the "
                         "mapsheet are identified by number.\"", metrics={"rows": len(pit.lines), "expected": ROWS}))
    bad = [row for row in arena.rows if row.label not in TOTALS]
    for row in bad:
        out.append(Issue("gp-rows", "error", f"Row {row.id} is numbered {row.label}; row numbers are 2d6 totals, 2 to 12 "
                         "(\"Roll 2d6. Place any one of the markers on a hex row matching the die roll.\")",
                         (row.id,), {"label": row.label}))
    labels = {row.label for row in arena.rows if pit.row_number(row.line) is not None}
    missing = [k for k in TOTALS if k not in labels]
    if missing:
        out.append(Issue("gp-rows", "error",
                         f"No row carries {', '.join(map(str, missing))}: a marker rolled with that total has nowhere to "
                         "go (\"Roll 2d6. Place any one of the markers on a hex row matching the die roll.\")",
                         metrics={"missing": missing}))
    return out


# ------------------------------------------------------------------ launch zones


def check_launch_zones(arena: GliderPitArena) -> list[Issue]:
    """``gp-launch-zones``: six zones, one per Airspeed Track, each a string of five wall
    hexes, no hex in two zones."""
    pit = pit_of(arena)
    out: list[Issue] = []
    zones = arena.launch_zones
    if len(zones) != LAUNCH_ZONES:
        out.append(Issue("gp-launch-zones", "error",
                         f"The pit has {len(zones)} launch zone(s); it needs six, one beside each Airspeed Track (\"On "
                         "the long edges of the mapsheet are six Airspeed Tracks\").",
                         tuple(z.id for z in zones), {"zones": len(zones), "expected": LAUNCH_ZONES}))
    tracks = Counter(z.track for z in zones)
    for track, n in sorted(tracks.items()):
        if n > 1:
            ids = tuple(z.id for z in zones if z.track == track)
            out.append(Issue("gp-launch-zones", "error",
                             f"Airspeed Track {track} has {n} launch zones; each track has one (\"place its counter into "
                             "a launch zone hex located adjacent to the glider's Airspeed Track\").", ids, {"track": track}))
    owner: dict[Axial, str] = {}
    for z in zones:
        problems = []
        if len(z.cells) != ZONE_HEXES:
            problems.append(f"has {len(z.cells)} hexes, not five")
        outside = [h for h in z.cells if h not in pit.cells]
        if outside:
            problems.append(f"has {len(outside)} hex(es) outside the pit")
        inner = [h for h in z.cells if h in pit.cells and h not in pit.wall]
        if inner:
            problems.append(f"has {len(inner)} hex(es) not on the wall")
        repeats = [h for h, n in Counter(z.cells).items() if n > 1]
        if repeats:
            problems.append("lists a hex twice")
        gaps = [i for i in range(1, len(z.cells)) if hex_distance(z.cells[i - 1], z.cells[i]) != 1]
        if gaps:
            problems.append(f"breaks after hex {gaps[0]} (each hex must touch the next)")
        if problems:
            out.append(Issue("gp-launch-zones", "error",
                             f"Launch zone {z.id} {'; '.join(problems)}: \"Each launch zone is comprised of a string of "
                             "five hexes along the wall of the pit.\"", (z.id,),
                             {"cells": _cells(z.cells), "outside": _cells(outside), "inner": _cells(inner)}))
        for h in z.cells:
            other = owner.get(h)
            if other is not None and other != z.id:
                out.append(Issue("gp-launch-zones", "error",
                                 f"Launch zones {other} and {z.id} share hex {list(h)}; zones are separate strings of "
                                 "hexes, their ends \"marked by thick black lines\".", (other, z.id), {"cell": list(h)}))
            owner.setdefault(h, z.id)
    return out


def check_launch_facing(arena: GliderPitArena) -> list[Issue]:
    """``gp-launch-facing``: every launch hex allows a facing that does not point at a wall
    hexside."""
    pit = pit_of(arena)
    out = []
    for z in arena.launch_zones:
        blocked = [h for h in z.cells if h in pit.cells and not pit.facings(h)]
        if blocked:
            out.append(Issue("gp-launch-facing", "error",
                             f"Launch zone {z.id} has {len(blocked)} hex(es) walled on every side, so no launch facing is "
                             "legal: \"The glider counter may be launched facing in any direction except toward a hexside "
                             "that contains a pit wall.\"", (z.id,), {"cells": _cells(blocked)}))
    return out


# ------------------------------------------------------------------ floor


def check_floor(arena: GliderPitArena) -> list[Issue]:
    """``gp-floor``: the FLOOR level is the standard one or a short game's (5, 10, 15), and
    leaves room for a launch."""
    f = arena.floor
    if f == STANDARD_FLOOR or f in SHORT_GAME_FLOORS:
        return []
    lowest_launch = LEDGE - 1 - LAUNCH_DIVE_MAX
    if f < 0 or f >= lowest_launch:
        return [Issue("gp-floor", "error",
                      f"FLOOR level {f} leaves no room to launch: a launch drops to 20 and may \"dive an additional 1 to "
                      f"3 levels\", and \"Any time a glider reaches the FLOOR level or lower, the glider has been "
                      f"eliminated\".", metrics={"floor": f, "lowest_launch": lowest_launch})]
    return [Issue("gp-floor", "warning",
                  f"FLOOR level {f} is not one of the book's short games: \"For an abbreviated game, set the FLOOR level "
                  "to 5. For a half-game, set the FLOOR level to 10. For a vastly different feel, try a blitz game using a "
                  "FLOOR level of 15.\"", metrics={"floor": f, "book_floors": [0, *SHORT_GAME_FLOORS]})]


# ------------------------------------------------------------------ symmetry


def check_symmetry(arena: GliderPitArena) -> list[Issue]:
    """``gp-symmetry``: the declared symmetry maps the pit, its launch zones and (when rows go
    to rows) the row numbers onto themselves."""
    sy = arena.symmetry
    pit = pit_of(arena)
    if sy is None or not pit.cells:
        return []
    out = []
    lay = pit.layout
    for tf in symmetry_transforms(sy.kind, sy.order, pit.centre, sy.axis):
        images = {h: lay.image(h, tf) for h in pit.cells}
        off = sorted(h for h, g in images.items() if g is None or g not in pit.cells)
        if off:
            out.append(Issue("gp-symmetry", "warning",
                             f"The declared {sy.kind} symmetry sends {len(off)} pit hex(es) outside the pit.",
                             metrics={"cells": _cells(off)}))
            continue
        zone_sets = {frozenset(z.cells): z.id for z in arena.launch_zones}
        for z in arena.launch_zones:
            img = frozenset(images[h] for h in z.cells if h in images)
            if img not in zone_sets:
                out.append(Issue("gp-symmetry", "warning",
                                 f"The declared {sy.kind} symmetry sends launch zone {z.id} onto hexes that are not a zone.",
                                 (z.id,)))
        line_map = {pit.line_of(h): pit.line_of(g) for h, g in images.items() if g is not None}
        rows_to_rows = all(pit.line_of(g) == line_map[pit.line_of(h)] for h, g in images.items() if g is not None)
        if rows_to_rows:
            for row in arena.rows:
                other = pit.rows_by_line.get(line_map.get(row.line, row.line))
                if other is not None and other.label != row.label:
                    out.append(Issue("gp-symmetry", "warning",
                                     f"The declared {sy.kind} symmetry sends row {row.id} ({row.label}) onto row {other.id} "
                                     f"({other.label}).", (row.id, other.id)))
    return _dedupe(out)


def _dedupe(issues: list[Issue]) -> list[Issue]:
    seen, out = set(), []
    for i in issues:
        key = (i.code, i.message, i.elements)
        if key not in seen:
            seen.add(key)
            out.append(i)
    return out


CHECKS: dict[str, Callable[[GliderPitArena], list[Issue]]] = {
    "gp-pit": check_pit,
    "gp-rows": check_rows,
    "gp-launch-zones": check_launch_zones,
    "gp-launch-facing": check_launch_facing,
    "gp-floor": check_floor,
    "gp-symmetry": check_symmetry,
}


def check_all(arena: GliderPitArena) -> list[Issue]:
    """Every setup check not disabled by the scenario's analysis."""
    disabled = set(arena.scenario.analysis.disabled)
    return [i for code, fn in CHECKS.items() if code not in disabled for i in fn(arena)]
