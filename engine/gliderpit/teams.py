"""Teams in a Glider-Pit match: the sides the scenario's ``teams`` make (Select Teams, L35-L37 of
002_2bb38bd119a25a6d.txt), whether they are sound (``gp-teams``), and team-aware launch-zone
spacing (``gp-team-spacing``).

A side is a team (the Airspeed Tracks the scenario gives it) or a gladiator flying alone.  When
the teams hold fewer gladiators than the match has gliders, each launch zone of a track no team
names holds one of the others, alone; when they hold them all, those zones stay empty (see
docs/rules-decisions.md, "Glider-Pit teams").

Distances are hexes between the nearest hexes of two launch zones, as ``gp-zone-spacing``'s.
Per zone: the nearest opponent's zone and the nearest team mate's.  Opponents' zones are evenly
spaced when every zone is about equally far from its nearest opponent; the teams are placed
alike when their mean distances between team mates agree - each within the scenario's
``spacing_tolerance``.

>>> from dataclasses import replace
>>> from schema.games.gliderpit import Scenario, default_arena
>>> a = default_arena()
>>> mode(replace(a, scenario=Scenario(teams=((1, "A"), (2, "B"), (3, "A"), (4, "B"), (5, "A"), (6, "B")))))
'3 v 3'
>>> mode(a) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from engine.findings import Issue
from engine.grids import hex_distance
from schema.games.gliderpit import GliderPitArena, LaunchZone

SELECT_TEAMS = ("Up to six gladiators may compete in a single match, either alone or in teams.")
EQUAL = ("It is recommended that each team have an equal number of gladiators (\"3 vs. 3\" or \"2 vs. 2 vs. 2\" "
         "are the preferred combinations.)")
VICTORY = "Victory is declared when every glider on the mapsheet is controlled by the same player or team."


@dataclass(frozen=True)
class Side:
    """A team (``name`` A-F) or a gladiator alone (``name`` ``track N``) and its tracks."""

    name: str
    tracks: tuple[int, ...]
    team: bool


def sides(arena: GliderPitArena) -> list[Side]:
    """The match's sides: the scenario's teams, then (when they hold fewer gladiators than the
    match's gliders) a side of one for each launch zone's track no team names; [] without teams."""
    teams = arena.scenario.team_tracks()
    if not teams:
        return []
    out = [Side(name, tracks, True) for name, tracks in teams.items()]
    members = sum(len(t) for t in teams.values())
    if members < arena.scenario.gliders:
        named = {t for ts in teams.values() for t in ts}
        out += [Side(f"track {t}", (t,), False)
                for t in sorted({z.track for z in arena.launch_zones} - named)][:arena.scenario.gliders - members]
    return out


def mode(arena: GliderPitArena) -> str | None:
    """The sides' sizes, largest first (``3 v 3``, ``2 v 2 v 2``); None without teams."""
    ss = sides(arena)
    return None if not ss else " v ".join(str(n) for n in sorted((len(s.tracks) for s in ss), reverse=True))


def check_teams(arena: GliderPitArena) -> list[Issue]:
    """``gp-teams``: every team's track has a launch zone, the teams hold no more gladiators than
    the match's gliders, there are two sides or more (errors), and the sides are equally large
    (a warning, the book's recommendation)."""
    teams = arena.scenario.team_tracks()
    if not teams:
        return []
    out: list[Issue] = []
    tracks = {z.track for z in arena.launch_zones}
    for name, ts in teams.items():
        missing = [t for t in ts if t not in tracks]
        if missing:
            out.append(Issue("gp-teams", "error",
                             f"Team {name} flies from Airspeed Track{'s' if len(missing) > 1 else ''} "
                             f"{', '.join(map(str, missing))}, beside which the pit has no launch zone: \"To launch a "
                             "glider, place its counter into a launch zone hex located adjacent to the glider's "
                             "Airspeed Track.\"", (), {"team": name, "tracks": missing}))
    members = sum(len(ts) for ts in teams.values())
    gliders = arena.scenario.gliders
    if members > gliders:
        out.append(Issue("gp-teams", "error",
                         f"The teams hold {members} gladiators but the match has {gliders} gliders: \"{SELECT_TEAMS}\"",
                         (), {"members": members, "gliders": gliders}))
    ss = sides(arena)
    if len(ss) < 2:
        out.append(Issue("gp-teams", "error",
                         f"Every glider flies for team {ss[0].name}, so the match is won at the launch: \"{VICTORY}\"",
                         (), {"sides": len(ss)}))
    elif len({len(s.tracks) for s in ss}) > 1:
        out.append(Issue("gp-teams", "warning",
                         f"The sides are {mode(arena)} ({'; '.join(_listing(s) for s in ss)}): \"{EQUAL}\"",
                         (), {"mode": mode(arena), "sides": {s.name: list(s.tracks) for s in ss}}))
    return out


def _listing(s: Side) -> str:
    return f"team {s.name}: tracks {', '.join(map(str, s.tracks))}" if s.team else s.name + " alone"


@dataclass(frozen=True)
class TeamZone:
    zone: str
    track: int
    side: str
    nearest_opponent: int | None
    nearest_opponent_id: str | None
    nearest_mate: int | None
    nearest_mate_id: str | None


def _distance(a: LaunchZone, b: LaunchZone) -> int:
    return min(hex_distance(p, q) for p in a.cells for q in b.cells)


def team_zones(arena: GliderPitArena) -> list[TeamZone]:
    """Per launch zone that holds a side's glider (file order): its side, its nearest opponent's
    zone and its nearest team mate's (None: it has none)."""
    side_of = {t: s.name for s in sides(arena) for t in s.tracks}
    zones = [z for z in arena.launch_zones if z.track in side_of and z.cells]
    out = []
    for z in zones:
        near: dict[bool, tuple[int, str] | None] = {True: None, False: None}
        for o in zones:
            if o.id == z.id:
                continue
            mate = side_of[o.track] == side_of[z.track]
            d = (_distance(z, o), o.id)
            cur = near[mate]
            if cur is None or d < cur:
                near[mate] = d
        opp, mate_ = near[False], near[True]
        out.append(TeamZone(z.id, z.track, side_of[z.track], None if opp is None else opp[0],
                            None if opp is None else opp[1], None if mate_ is None else mate_[0],
                            None if mate_ is None else mate_[1]))
    return out


def mate_spread(arena: GliderPitArena, zones: Sequence[TeamZone]) -> dict[str, float]:
    """Team -> the mean hex distance between its members' zones (teams of two or more with zones)."""
    by_id = {z.id: z for z in arena.launch_zones}
    out: dict[str, float] = {}
    for s in sides(arena):
        mine = [by_id[t.zone] for t in zones if t.side == s.name]
        pairs = list(combinations(mine, 2))
        if s.team and pairs:
            out[s.name] = sum(_distance(a, b) for a, b in pairs) / len(pairs)
    return out


def check_team_spacing(arena: GliderPitArena) -> list[Issue]:
    """``gp-team-spacing``: opponents' zones evenly spaced (every zone's distance to its nearest
    opponent's zone within ``spacing_tolerance`` of the others'), and the teams' zones placed
    alike (their mean distances between team mates within it too)."""
    zones = team_zones(arena)
    tol = arena.scenario.analysis.spacing_tolerance
    out: list[Issue] = []
    opp = [(z, z.nearest_opponent) for z in zones if z.nearest_opponent is not None]
    if len(opp) >= 2:
        lo, hi = min(d for _, d in opp), max(d for _, d in opp)
        if hi - lo > tol + 1e-9:
            out.append(Issue("gp-team-spacing", "warning",
                             f"Launch zones differ in distance to the nearest opponent's zone by {hi - lo} hexes "
                             f"(tolerance {tol:g}): " + ", ".join(f"{z.zone} ({z.side}) {d}" for z, d in opp) + ".",
                             tuple(z.zone for z, d in opp if d in (lo, hi)),
                             {"values": {z.zone: d for z, d in opp}, "spread": hi - lo, "tolerance": tol}))
    spread = mate_spread(arena, zones)
    if len(spread) >= 2:
        lo_, hi_ = min(spread.values()), max(spread.values())
        if hi_ - lo_ > tol + 1e-9:
            out.append(Issue("gp-team-spacing", "warning",
                             f"The teams' zones are not placed alike: their mean distances between team mates differ "
                             f"by {hi_ - lo_:.3g} hexes (tolerance {tol:g}): "
                             + ", ".join(f"team {t} {v:.3g}" for t, v in spread.items()) + ".",
                             tuple(z.zone for z in zones if spread.get(z.side) in (lo_, hi_)),
                             {"mate_distance": {t: round(v, 4) for t, v in spread.items()}, "spread": hi_ - lo_,
                              "tolerance": tol}))
    return out


def teams_json(arena: GliderPitArena) -> dict[str, dict[str, object]]:
    """The report's ``teams`` metric: zone id -> side, track, nearest opponent's and team mate's
    zone and distance."""
    return {z.zone: {"side": z.side, "track": z.track, "nearest_opponent": z.nearest_opponent,
                     "nearest_opponent_id": z.nearest_opponent_id, "nearest_mate": z.nearest_mate,
                     "nearest_mate_id": z.nearest_mate_id} for z in team_zones(arena)}
