"""Glider-Pit Gladiators (``system: glider-pit-gladiators``): the pit as a hex grid.

The book (Glider-Pit Gladiators Basic Rules 2.02) describes a mapsheet whose centre "consists
of a hexagonal grid representing the pit"; its edge is the pit wall; "The 19 rows of hexes on
the mapsheet are identified by number" (2d6 totals the air currents roll for); six launch
zones, each "a string of five hexes along the wall of the pit", sit next to the six Airspeed
Tracks.  The mapsheet itself is not in the text, so the pit is whatever the designer paints.

Cells are axial hex coordinates ``(q, r)``.  With ``pointy`` hexes the straight rows are the
lines of constant ``r`` (r grows upward); with ``flat`` hexes they are the lines of constant
``q`` (q grows to the right).  A row element labels one such line.

>>> arena = default_arena()
>>> len(arena.cells), len(arena.rows), len(arena.launch_zones), arena.floor
(271, 19, 6, 0)
>>> from_document(to_document(arena)) == arena
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from schema.checks import element_problems
from schema.ruleset import FORMAT
from schema.shapes import Extensions, Point
from schema.starts import StartSets, StartSlots, numbers_in, start_set_problems, start_sets_document, start_sets_from
from schema.document import extensions_of, header_document, num, with_extensions
from schema.ruleset import ElementKind, Ruleset, Style, documenter
from schema.ruleset import Units as RulesetUnits

if TYPE_CHECKING:  # loaded by _exports() when asked for
    from schema.formats.systems import ExportProfile

SYSTEM = "glider-pit-gladiators"

Axial = tuple[int, int]
Doc = dict[str, Any]
Current = Literal["any", "updraft", "downdraft"]
SymmetryKind = Literal["rotational", "mirror", "dihedral"]

#: FLOOR levels of the book's short games ("set the FLOOR level to 5 ... 10 ... 15"); 0 is the
#: standard game's FLOOR below altitude 1.
STANDARD_FLOOR = 0

ShortGame = Literal["abbreviated", "half-game", "blitz"]
#: Shorter Games: "For an abbreviated game, set the FLOOR level to 5. For a half-game, set the
#: FLOOR level to 10. For a vastly different feel, try a blitz game using a FLOOR level of 15."
SHORT_GAMES: dict[str, int] = {"abbreviated": 5, "half-game": 10, "blitz": 15}
#: The teams a scenario names (Select Teams: "Up to six gladiators").
TEAM_NAMES = ("A", "B", "C", "D", "E", "F")


@dataclass(frozen=True)
class Units:
    """Printed size: ``hex_mm`` millimetres across the flats of one hex."""

    hex_mm: float = 19.05

    @property
    def printed_mm(self) -> float:
        """Millimetres one coordinate unit (a hex, centre to centre) is printed 1:1."""
        return self.hex_mm


@dataclass(frozen=True)
class Row:
    """A numbered hex row: the grid line ``line`` (r for pointy hexes, q for flat) carries the
    2d6 total ``label``.  ``current`` restricts which air current markers the row takes: the
    book's rule is ``any`` (the placer chooses the marker); ``updraft``/``downdraft`` are
    house rules a scenario may print on its mapsheet."""

    id: str
    line: int
    label: int
    current: Current = "any"
    extensions: Extensions = field(default_factory=dict, hash=False)


@dataclass(frozen=True)
class LaunchZone:
    """A string of five wall hexes, in order along the wall, beside Airspeed Track
    ``track`` (1..6)."""

    id: str
    track: int
    cells: tuple[Axial, ...]
    extensions: Extensions = field(default_factory=dict, hash=False)


@dataclass(frozen=True)
class Symmetry:
    """The symmetry the designer intends, about the centroid of the pit's cells:
    ``rotational`` (N-fold), ``mirror`` (across the axis at ``axis`` degrees) or ``dihedral``
    (both)."""

    kind: SymmetryKind
    order: int = 1
    axis: float = 90.0


@dataclass(frozen=True)
class Analysis:
    """Tolerances the launch-zone fairness comparison reads (see docs/rules-decisions.md)."""

    centre_tolerance: float = 1.0
    spacing_tolerance: float = 1.0
    clearance_tolerance: float = 1.0
    clearance_cap: int = 10
    facings_tolerance: float = 0.5
    current_tolerance: float = 0.1
    current_rows_tolerance: int = 2
    exposure_speed: int = 1
    travel_tolerance: int = 1
    disabled: tuple[str, ...] = ()


@dataclass(frozen=True)
class OptionalRules:
    """The book's optional rules other than Shorter Games (which is :attr:`Scenario.short_game`)."""

    random_weapon_selection: bool = False
    random_sequence_chits: bool = False
    advanced_maneuvers: bool = False


@dataclass(frozen=True)
class Scenario:
    gliders: int = 6
    analysis: Analysis = Analysis()
    #: ``scenario.start_sets``: (glider count, launch zone tracks) pairs by count (:mod:`schema.starts`).
    start_sets: StartSets = ()
    #: (Airspeed Track, team) pairs in track order; empty: every gladiator flies alone.
    teams: tuple[tuple[int, str], ...] = ()
    short_game: ShortGame | None = None
    optional_rules: OptionalRules = OptionalRules()

    def team_tracks(self) -> dict[str, tuple[int, ...]]:
        """Team -> its Airspeed Tracks, teams in name order."""
        out: dict[str, list[int]] = {}
        for track, team in self.teams:
            out.setdefault(team, []).append(track)
        return {t: tuple(sorted(out[t])) for t in sorted(out)}


@dataclass(frozen=True)
class GliderPitArena:
    name: str
    cells: tuple[Axial, ...]
    rows: tuple[Row, ...] = ()
    launch_zones: tuple[LaunchZone, ...] = ()
    orientation: Literal["pointy", "flat"] = "pointy"
    floor: int = STANDARD_FLOOR
    system: Literal["glider-pit-gladiators"] = "glider-pit-gladiators"
    format: str = FORMAT
    description: str | None = None
    author: str | None = None
    license: str | None = None
    tags: tuple[str, ...] = ()
    units: Units = Units()
    symmetry: Symmetry | None = None
    scenario: Scenario = Scenario()
    extensions: Extensions = field(default_factory=dict, hash=False)

    @property
    def floor_level(self) -> int:
        """The FLOOR level the match is played with: the scenario's short game's, else the
        arena's ``floor``."""
        if self.scenario.short_game is not None:
            return SHORT_GAMES[self.scenario.short_game]
        return self.floor

    def line_of(self, cell: Axial) -> int:
        """The row line a cell lies on (r for pointy hexes, q for flat)."""
        return cell[1] if self.orientation == "pointy" else cell[0]

    def elements(self) -> tuple[Row | LaunchZone, ...]:
        return (*self.rows, *self.launch_zones)

    def element(self, ref: str) -> Row | LaunchZone:
        for el in self.elements():
            if el.id == ref:
                return el
        raise KeyError(ref)


# ------------------------------------------------------------------ document <-> model



def _cell(v: Any) -> Axial:
    return (int(v[0]), int(v[1]))



def from_document(doc: Doc) -> GliderPitArena:
    """The model of a document that passed ``glider-pit-gladiators.schema.json``."""
    g = doc.get
    an = g("scenario", {}).get("analysis", {})
    da = Analysis()
    analysis = Analysis(
        centre_tolerance=float(an.get("centre_tolerance", da.centre_tolerance)),
        spacing_tolerance=float(an.get("spacing_tolerance", da.spacing_tolerance)),
        clearance_tolerance=float(an.get("clearance_tolerance", da.clearance_tolerance)),
        clearance_cap=int(an.get("clearance_cap", da.clearance_cap)),
        facings_tolerance=float(an.get("facings_tolerance", da.facings_tolerance)),
        current_tolerance=float(an.get("current_tolerance", da.current_tolerance)),
        current_rows_tolerance=int(an.get("current_rows_tolerance", da.current_rows_tolerance)),
        exposure_speed=int(an.get("exposure_speed", da.exposure_speed)),
        travel_tolerance=int(an.get("travel_tolerance", da.travel_tolerance)),
        disabled=tuple(an.get("disabled", ())),
    )
    sy = g("symmetry")
    floor = g("floor", "standard")
    return GliderPitArena(
        format=doc["format"],
        system=doc["system"],
        name=doc["name"],
        description=g("description"),
        author=g("author"),
        license=g("license"),
        tags=tuple(g("tags", ())),
        units=Units(hex_mm=float(g("units", {}).get("hex_mm", Units.hex_mm))),
        orientation=g("grid", {}).get("orientation", "pointy"),
        cells=tuple(_cell(c) for c in g("cells", ())),
        rows=tuple(Row(id=r["id"], line=int(r["line"]), label=int(r["label"]),
                       current=r.get("current", "any"), extensions=extensions_of(r)) for r in g("rows", ())),
        launch_zones=tuple(LaunchZone(id=z["id"], track=int(z["track"]), cells=tuple(_cell(c) for c in z["cells"]),
                                      extensions=extensions_of(z)) for z in g("launch_zones", ())),
        floor=STANDARD_FLOOR if floor == "standard" else int(floor),
        symmetry=None if sy is None else Symmetry(kind=sy["kind"], order=int(sy.get("order", 1)),
                                                  axis=float(sy.get("axis", 90.0))),
        scenario=_scenario(g("scenario", {}), analysis),
        extensions=extensions_of(doc),
    )



def _scenario(sc: Doc, analysis: Analysis) -> Scenario:
    teams = sc.get("teams", {})
    rules = sc.get("optional_rules", {})
    return Scenario(
        gliders=int(sc.get("gliders", 6)), analysis=analysis, start_sets=start_sets_from(sc.get("start_sets")),
        teams=tuple((n, str(teams[f"track_{n}"])) for n in range(1, 7) if teams.get(f"track_{n}") is not None),
        short_game=sc.get("short_game"),
        optional_rules=OptionalRules(**{k: bool(rules.get(k, False)) for k in OptionalRules.__dataclass_fields__}))


def to_document(a: GliderPitArena) -> Doc:
    """The canonical document: every field in schema order, defaults included."""
    doc: Doc = header_document(a)
    doc["units"] = {"hex_mm": num(a.units.hex_mm)}
    doc["grid"] = {"shape": "hex", "orientation": a.orientation}
    if a.symmetry is not None:
        doc["symmetry"] = {"kind": a.symmetry.kind, "order": a.symmetry.order, "axis": num(a.symmetry.axis)}
    doc["floor"] = "standard" if a.floor == STANDARD_FLOOR else a.floor
    doc["cells"] = [[q, r] for q, r in a.cells]
    doc["rows"] = [with_extensions({"id": r.id, "line": r.line, "label": r.label, "current": r.current}, r.extensions)
                   for r in a.rows]
    doc["launch_zones"] = [with_extensions({"id": z.id, "track": z.track, "cells": [[q, r] for q, r in z.cells]},
                                     z.extensions) for z in a.launch_zones]
    an = a.scenario.analysis
    sc = a.scenario
    scen: Doc = {"gliders": sc.gliders}
    if sc.start_sets:
        scen["start_sets"] = start_sets_document(sc.start_sets)
    if sc.teams:  # written only when set: files saved before they existed save unchanged
        scen["teams"] = {f"track_{n}": team for n, team in sc.teams}
    if sc.short_game is not None:
        scen["short_game"] = sc.short_game
    if sc.optional_rules != OptionalRules():
        scen["optional_rules"] = {k: getattr(sc.optional_rules, k) for k in OptionalRules.__dataclass_fields__}
    doc["scenario"] = {
        **scen,
        "analysis": {
            "centre_tolerance": num(an.centre_tolerance),
            "spacing_tolerance": num(an.spacing_tolerance),
            "clearance_tolerance": num(an.clearance_tolerance),
            "clearance_cap": an.clearance_cap,
            "facings_tolerance": num(an.facings_tolerance),
            "current_tolerance": num(an.current_tolerance),
            "current_rows_tolerance": an.current_rows_tolerance,
            "exposure_speed": an.exposure_speed,
            "travel_tolerance": an.travel_tolerance,
            "disabled": list(an.disabled),
        },
    }
    return with_extensions(doc, a.extensions)


# ------------------------------------------------------------------ the new arena

#: Radius of the default pit: a hexagon of radius 9 has exactly the book's 19 rows.
DEFAULT_RADIUS = 9

#: Labels of the default pit's rows from the top row (r = 9) down to the bottom (r = -9).
#: Row -r carries 14 minus row r's label (2d6 is symmetric about 7, so the two halves are
#: equally likely), every total 2..12 appears, and the rows each launch zone touches in its
#: first move carry labels whose 2d6 chances add up to the same 18/36 for all six zones.
DEFAULT_LABELS = (8, 5, 6, 12, 8, 5, 4, 3, 2, 7, 12, 11, 10, 9, 6, 2, 8, 9, 6)


def _default_zones(radius: int) -> list[tuple[str, int, tuple[Axial, ...]]]:
    """Three zones on each side wall of the hexagonal pit, all nine steps from the centre:
    one on the left/right corner and one in the middle of each slanted side, with one wall
    hex between neighbouring zones."""
    R = radius
    left_upper = tuple((-R, r) for r in (8, 7, 6, 5, 4))
    left_mid = ((-R, 2), (-R, 1), (-R, 0), (-R + 1, -1), (-R + 2, -2))
    left_lower = tuple((-R + k, -k) for k in (4, 5, 6, 7, 8))
    right_upper = tuple((R - r, r) for r in (8, 7, 6, 5, 4))
    right_mid = ((R - 2, 2), (R - 1, 1), (R, 0), (R, -1), (R, -2))
    right_lower = tuple((R, -k) for k in (4, 5, 6, 7, 8))
    return [("Z1", 1, left_upper), ("Z2", 2, left_mid), ("Z3", 3, left_lower),
            ("Z4", 4, right_upper), ("Z5", 5, right_mid), ("Z6", 6, right_lower)]


def default_arena() -> GliderPitArena:
    """The new arena: a hexagonal pit of radius 9 (271 hexes, 19 rows of 10 to 19 hexes,
    pointy hexes), labelled rows, three launch zones on each side wall."""
    R = DEFAULT_RADIUS
    cells = sorted(((q, r) for q in range(-R, R + 1) for r in range(-R, R + 1) if abs(q + r) <= R),
                   key=lambda c: (-c[1], c[0]))
    rows = tuple(Row(id=f"R{n}", line=R - (n - 1), label=label) for n, label in enumerate(DEFAULT_LABELS, start=1))
    zones = tuple(LaunchZone(id=i, track=t, cells=c) for i, t, c in _default_zones(R))
    return GliderPitArena(
        name="Hexagonal pit",
        description="A hexagonal pit of 19 rows with three launch zones on each side wall.",
        cells=tuple(cells),
        rows=rows,
        launch_zones=zones,
        symmetry=Symmetry(kind="mirror", order=1, axis=90.0),
    )


# ------------------------------------------------------------------ the ruleset


def semantic_problems(doc: Any) -> list[tuple[str, str]]:
    """Ids unique across rows and launch zones; finite numbers and real Unicode."""
    return element_problems(doc, ("rows", "launch_zones")) + start_set_problems(
        doc, numbers_in(doc, "launch_zones", "track"), noun="launch zone", count_field="gliders")


def _exports() -> ExportProfile:
    """The game's export profile (:mod:`schema.games.gliderpit.exports`), imported when an export
    or an import asks for it."""
    from schema.games.gliderpit.exports import EXPORTS

    return EXPORTS


def _hex_centre(orientation: str, q: int, r: int) -> Point:
    """The centre of hex (q, r), hexes one unit from centre to corner (the engine's layout)."""
    if orientation == "pointy":
        return (math.sqrt(3.0) * (q + r / 2.0), 1.5 * r)
    return (1.5 * q, math.sqrt(3.0) * (r + q / 2.0))


def _mean(points: list[Point]) -> Point:
    return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)) if points else (0.0, 0.0)


class _LaunchZones(StartSlots):
    """The launch zones as start sets see them: numbered by their Airspeed Track, keyed by the
    number of gliders (one zone per glider), each standing at its hexes' centroid and the
    symmetry's centre the pit's centroid, as the engine places them."""

    def point(self, arena: Any, element: Any) -> Point:
        return _mean([_hex_centre(arena.orientation, q, r) for q, r in element.cells])

    def centre(self, arena: Any) -> Point:
        return _mean([_hex_centre(arena.orientation, q, r) for q, r in arena.cells])


#: The launch zones as start sets see them.
STARTS = _LaunchZones("launch_zones", "track", count="gliders", noun="launch zone",
                      # six zones, one beside each Airspeed Track, however many gliders fly
                      whole_arena_codes=("gp-launch-zones",))

RULESET = Ruleset(
    id=SYSTEM,
    game="Glider-Pit Gladiators",
    edition="basic rules 2.02",
    book="002_2bb38bd119a25a6d.txt",
    units=RulesetUnits("hex", "hex", Units().hex_mm),
    schema="schema.games.gliderpit:glider-pit-gladiators.schema.json",
    kinds=(
        ElementKind("cells", "Pit hex", "/properties/cells/items", "cell", Style("#FBFAF5", "#3B3B3B", 1.0, 0.3, None, 0),
                    {"tiled": "region", "geojson": "region", "uvtt": "omit", "foundry": "region", "svg": "region"}),
        ElementKind("rows", "Numbered row", "/properties/rows/items", "cells", Style("#56B4E9", "#0072B2", 0.15, 0.3, "label", 5),
                    {"tiled": "region", "geojson": "region", "uvtt": "omit", "foundry": "region", "svg": "region"}),
        ElementKind("launch_zones", "Launch zone", "/properties/launch_zones/items", "cells",
                    Style("#E69F00", "#1A1A1A", 0.6, 0.4, "track", 20),
                    {"tiled": "region", "geojson": "region", "uvtt": "omit", "foundry": "region", "svg": "region"}),
    ),
    build=from_document,
    document=documenter(GliderPitArena, to_document),
    default_arena=default_arena,
    exports=_exports,
    semantic=semantic_problems,
    grid="hex",
    starts=lambda: STARTS,
)
