"""Setup checks for a Glider-Pit Gladiators pit: pure functions returning :class:`Issue` values
(code, severity, message quoting the book, element ids, metrics).

>>> from schema.games.gliderpit import default_arena
>>> [i.code for i in check_all(default_arena())]
[]
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable
from typing import Any

from engine.findings import Issue as Issue  # the games share one finding type
from engine.gliderpit.pit import pit_of
from engine.gliderpit.teams import check_teams
from engine.gliderpit.rules import (LAUNCH_DIVE_MAX, LAUNCH_ZONES, LEDGE, ROWS, SHORT_GAME_FLOORS, STANDARD_FLOOR,
                                    TOTALS, ZONE_HEXES)
from engine.gliderpit.invariance import TOTAL_MIRROR
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


def pit_holes(cells: frozenset[Axial]) -> list[set[Axial]]:
    """The holes of a pit: groups of hexes that are not pit hexes but are closed in by pit
    hexes (no way out to the outside of the pit without crossing a pit hex), largest first."""
    if not cells:
        return []
    qs = [q for q, _ in cells]
    rs = [r for _, r in cells]
    q0, q1, r0, r1 = min(qs) - 1, max(qs) + 1, min(rs) - 1, max(rs) + 1
    # the frame q0/q1/r0/r1 holds no pit hex and is one connected ring: flood the outside from it
    start = (q0, r0)
    outside = {start}
    queue = deque([start])
    while queue:
        for n in hex_neighbours(queue.popleft()):
            if q0 <= n[0] <= q1 and r0 <= n[1] <= r1 and n not in cells and n not in outside:
                outside.add(n)
                queue.append(n)
    inner = ((q, r) for q in range(q0, q1 + 1) for r in range(r0, r1 + 1))
    return components((h for h in inner if h not in cells and h not in outside), hex_neighbours)


def check_pit_holes(arena: GliderPitArena) -> list[Issue]:
    """``gp-pit-holes``: the pit has no holes (hexes left out of it but closed in by its hexes:
    a pillar of rock standing in the pit)."""
    holes = pit_holes(pit_of(arena).cells)
    if not holes:
        return []
    inside = sorted(h for hole in holes for h in hole)
    return [Issue("gp-pit-holes", "warning",
                  f"The pit has {len(holes)} hole(s), {len(inside)} hex(es) in all, closed in by pit hexes: each is a "
                  "pit wall standing inside the pit, which the book's pit has only around it (\"a deep, sheer-walled "
                  "pit\"; \"The center section consists of a hexagonal grid representing the pit in which the gliders "
                  "will fly.\"); a glider moved into one \"collides with the pit wall\".",
                  metrics={"holes": len(holes), "cells": _cells(inside)})]


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


def row_ends(arena: GliderPitArena) -> dict[Axial, set[str]]:
    """The pit hexes at an end of their row, each with the end(s) it is at: ``"start"`` (the
    row's hex of least q for pointy hexes, least r for flat) or ``"end"`` (the greatest).  The
    rows run across the mapsheet from one long edge to the other (:func:`check_launch_edges`)."""
    along: dict[int, list[tuple[int, Axial]]] = {}
    for h in pit_of(arena).cells:
        line = arena.line_of(h)
        along.setdefault(line, []).append((h[0] if arena.orientation == "pointy" else h[1], h))
    out: dict[Axial, set[str]] = {}
    for hexes in along.values():
        out.setdefault(min(hexes)[1], set()).add("start")
        out.setdefault(max(hexes)[1], set()).add("end")
    return out


def check_launch_edges(arena: GliderPitArena) -> list[Issue]:
    """``gp-launch-edges``: every launch zone lies along a long edge of the mapsheet, beside its
    Airspeed Track: "On the long edges of the mapsheet are six Airspeed Tracks" (L17) and a
    glider launches from "a launch zone hex located adjacent to the glider's Airspeed Track"
    (L55).  The 19 numbered rows run between the two long edges (the rows are counted along the
    mapsheet's length), so the hexes beside a long edge are those that end their row on that
    side.  A zone lies along a long edge when most of its hexes (three of five) end their rows on
    the same side; the rest may turn a corner of the pit (see docs/rules-decisions.md)."""
    pit = pit_of(arena)
    ends = row_ends(arena)
    out = []
    for z in arena.launch_zones:
        cells = [h for h in z.cells if h in pit.cells]
        if not cells:
            continue
        best = max(("start", "end"), key=lambda s: sum(s in ends.get(h, set()) for h in cells))
        off = [h for h in cells if best not in ends.get(h, set())]
        if 2 * (len(cells) - len(off)) > len(cells):
            continue
        out.append(Issue("gp-launch-edges", "warning",
                         f"Launch zone {z.id} does not lie along a long edge of the mapsheet: {len(off)} of its "
                         f"{len(cells)} hexes are not at the end of their row on one side, where the Airspeed Track is "
                         "(\"On the long edges of the mapsheet are six Airspeed Tracks\"; \"To launch a glider, place "
                         "its counter into a launch zone hex located adjacent to the glider's Airspeed Track.\").",
                         (z.id,), {"cells": _cells(off), "side": best}))
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
    """``gp-floor``: the FLOOR level is the standard one or a short game's (5, 10, 15) and lies
    below the launch altitude.  A FLOOR the launch itself reaches (20 or more) is an error; one
    only the optional launch dive reaches (17 to 19: "A player may choose to dive an additional
    1 to 3 levels", L59) is a warning, as is any other level that is not a book short game.  A
    scenario's short game sets the FLOOR (``floor_level``); an arena FLOOR of its own that it
    overrides is a warning."""
    game = arena.scenario.short_game
    if game is not None and arena.floor not in (STANDARD_FLOOR, arena.floor_level):
        return [Issue("gp-floor", "warning",
                      f"The scenario's {game} game sets the FLOOR level to {arena.floor_level} (\"Use the FLOOR marker "
                      f"to designate the new FLOOR level on the altitude track.\"); the arena's own FLOOR level "
                      f"{arena.floor} is not used.",
                      metrics={"floor": arena.floor_level, "arena_floor": arena.floor, "short_game": game})]
    f = arena.floor_level
    if f == STANDARD_FLOOR or f in SHORT_GAME_FLOORS:
        return []
    launch = LEDGE - 1
    if f < 0 or f >= launch:
        return [Issue("gp-floor", "error",
                      f"FLOOR level {f} leaves no room to launch: a launch drops to {launch} (\"Move the glider's "
                      "altitude marker down 1 level\") and \"Any time a glider reaches the FLOOR level or lower, the "
                      "glider has been eliminated\".", metrics={"floor": f, "launch_altitude": launch})]
    short = ("For an abbreviated game, set the FLOOR level to 5. For a half-game, set the FLOOR level to 10. For a "
             "vastly different feel, try a blitz game using a FLOOR level of 15.")
    deepest = launch - LAUNCH_DIVE_MAX
    if f >= deepest:
        dive = launch - f  # the first dive that reaches FLOOR
        return [Issue("gp-floor", "warning",
                      f"FLOOR level {f} is not one of the book's short games (\"{short}\"), and a launch dive of {dive} "
                      f"or more levels would reach it: the dive is optional (\"A player may choose to dive an "
                      "additional 1 to 3 levels at this time.\"), but \"Any time a glider reaches the FLOOR level or "
                      "lower, the glider has been eliminated\".",
                      metrics={"floor": f, "book_floors": [0, *SHORT_GAME_FLOORS], "launch_altitude": launch,
                               "dive_max": dive - 1})]
    return [Issue("gp-floor", "warning", f"FLOOR level {f} is not one of the book's short games: \"{short}\"",
                  metrics={"floor": f, "book_floors": [0, *SHORT_GAME_FLOORS]})]


# ------------------------------------------------------------------ symmetry


def check_symmetry(arena: GliderPitArena) -> list[Issue]:
    """``gp-symmetry``: the declared symmetry maps the pit and its launch zones onto themselves
    and (when rows go to rows) every row onto a row as likely to be rolled (:func:`_row_images`)."""
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
            out.extend(_row_images(arena, sy.kind, line_map))
    return _dedupe(out)


def _row_images(arena: GliderPitArena, kind: str, line_map: dict[int, int]) -> list[Issue]:
    """The row warnings of ``gp-symmetry`` for an operation sending the grid line ``l`` onto
    ``line_map[l]``: every row must land on a row with the same current and either the same
    2d6 total, or - the whole pit alike - 14 minus it (2d6 is symmetric about 7, so a roll and
    its image are exactly as likely: the editor's rule, and :mod:`engine.gliderpit.invariance`'s).
    When neither reading holds, the rows breaking the closer one are named."""
    pit = pit_of(arena)
    pairs = [(row, other) for row in arena.rows
             if (other := pit.rows_by_line.get(line_map.get(row.line, row.line))) is not None]
    same = [(r, o) for r, o in pairs if (o.label, o.current) != (r.label, r.current)]
    flipped = [(r, o) for r, o in pairs if (o.label, o.current) != (TOTAL_MIRROR - r.label, r.current)]
    if not same or not flipped:
        return []
    broken = same if len(same) <= len(flipped) else flipped
    out: list[Issue] = []
    told: set[frozenset[str]] = set()  # a row and its image break it together: the pair is named once
    for r, o in broken:
        if frozenset((r.id, o.id)) in told:
            continue
        told.add(frozenset((r.id, o.id)))
        out.append(Issue("gp-symmetry", "warning",
                         f"The declared {kind} symmetry sends row {r.id} (total {r.label}, {r.current} currents) onto "
                         f"row {o.id} (total {o.label}, {o.current} currents): every row's image must carry its current "
                         f"and its 2d6 total, or every row's {TOTAL_MIRROR} minus its total (as likely a roll).",
                         (r.id, o.id)))
    return out


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
    "gp-pit-holes": check_pit_holes,
    "gp-rows": check_rows,
    "gp-launch-zones": check_launch_zones,
    "gp-launch-edges": check_launch_edges,
    "gp-launch-facing": check_launch_facing,
    "gp-floor": check_floor,
    "gp-teams": check_teams,
    "gp-symmetry": check_symmetry,
}


def check_all(arena: GliderPitArena) -> list[Issue]:
    """Every setup check not disabled by the scenario's analysis."""
    disabled = set(arena.scenario.analysis.disabled)
    return [i for code, fn in CHECKS.items() if code not in disabled for i in fn(arena)]
