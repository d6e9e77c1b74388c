"""The typed arena model for Arena Rex (``system: arena-rex``, playtest v0.2).

Coordinates are inches ("MOV: (Move) The distance in inches a model may move"), x to the right,
y up; angles are degrees counter-clockwise from +x.  The board is a circle, a rectangle or any
polygon ("Our games typically take place on a 30 diameter circle. But we encourage players to
experiment with different play area sizes and shapes.").  Pits are lethal hazards, spikes
wounding hazards, ``hazards`` terrain hazards (columns, walls, rubble).  Each player deploys on
a board edge: a side of a rectangle or polygon, or an arc of a circle, with its centre; the zone
is the edge within ``deployment_reach`` (6 in) of the centre (:mod:`schema.games.arenarex.edges`).

``from_document`` takes a document already validated against
``schema/games/arenarex/arena-rex.schema.json`` and fills the defaults; ``to_document`` writes the
canonical form (every field in schema order, defaults included, integral floats as integers).

>>> arena = default_arena()
>>> arena.bounds.radius, len(arena.deployment), arena.bases
(15.0, 2, (30.0, 40.0, 50.0))
>>> from_document(to_document(arena)) == arena
True
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Literal, Union, cast

from shapely.geometry.base import BaseGeometry

from schema.checks import element_problems
from schema.document import extensions_of, header_document, num, shape_doc, shape_from, with_extensions
from schema.games.arenarex.edges import Edge, deployment_edge
from schema.ruleset import FORMAT
from schema.shapes import AreaShape, Circle, Extensions, Point, Polygon, Rect
from schema.shapes import Symmetry
from schema.starts import StartSets, StartSlots, numbers_in, start_set_problems, start_sets_document, start_sets_from
from schema.ruleset import ElementKind, ExportAs, Ruleset, Style, documenter
from schema.ruleset import Units as RulesetUnits

if TYPE_CHECKING:  # loaded by _exports() when asked for
    from schema.formats.systems import ExportProfile

SYSTEM = "arena-rex"
Doc = dict[str, Any]

HazardKind = Literal["column", "wall", "rubble", "other"]
HAZARD_KINDS: tuple[HazardKind, ...] = ("column", "wall", "rubble", "other")
BoardShape = Union[Circle, Rect, Polygon]

#: Base diameters (mm) the analysis moves when the arena lists none.  The book gives no base
#: sizes; these are the round bases of the published range (see docs/rules-decisions.md).
DEFAULT_BASES: tuple[float, ...] = (30.0, 40.0, 50.0)
MM_PER_INCH = 25.4


@dataclass(frozen=True)
class Units:
    """The unit of coordinates: the inch, printed 1:1 (``printed_mm`` millimetres per inch)."""

    name: Literal["inch"] = "inch"
    symbol: Literal["in"] = "in"
    printed_mm: float = 25.4


@dataclass(frozen=True)
class Pit:
    """A lethal hazard: "If any part of a model's base touches a Lethal Hazard (pit, most
    likely), that model is destroyed." """

    id: str
    shape: AreaShape
    extensions: Extensions = field(default_factory=dict, hash=False)


@dataclass(frozen=True)
class Spikes:
    """A wounding hazard: "The first time during each attack a model is pushed into a wounding
    hazard, it suffers 3 damage. This damage ignores ARM." """

    id: str
    shape: AreaShape
    extensions: Extensions = field(default_factory=dict, hash=False)


@dataclass(frozen=True)
class Hazard:
    """A terrain hazard ("column, wall, rubble, etc."): whether models walk through it and
    whether it hides the zones from each other are the designer's (the book is silent)."""

    id: str
    shape: AreaShape
    kind: HazardKind = "column"
    blocks_movement: bool = True
    blocks_sight: bool = True
    extensions: Extensions = field(default_factory=dict, hash=False)


@dataclass(frozen=True)
class Deployment:
    """One player's board edge (``side`` of a rectangle or polygon, or ``arc`` of a circle) and
    its centre (None: the middle of the edge); ``favor``: the player's starting Favor when the
    scenario gives it other than ``scenario.starting_favor`` (None: that)."""

    player: int
    side: int | None = None
    arc: tuple[float, float] | None = None
    center: Point | None = None
    favor: int | None = None
    extensions: Extensions = field(default_factory=dict, hash=False)

    @property
    def id(self) -> str:
        return f"deploy:{self.player}"


@dataclass(frozen=True)
class Analysis:
    """What the checks and fairness metrics read (inches, moves, square inches, shares)."""

    mov: float = 5.0
    moves: int = 3
    push: float = 1.0
    pushes: int = 2
    melee: float = 1.0
    deployment_reach: float = 6.0
    board_min: float = 24.0
    min_pits: int = 2
    centre_tolerance: float = 0.25
    path_tolerance: float = 1.0
    moves_tolerance: int = 0
    kill_band_tolerance: float = 4.0
    sight_tolerance: float = 0.1
    grid: float = 0.25
    disabled: tuple[str, ...] = ()
    #: Tabletop robustness: inches along each axis and degrees of turn a piece put down by hand
    #: may miss its drawn place by.
    placement_tolerance: float = 0.25
    placement_angle_tolerance: float = 5.0


#: Models each player deploys when the scenario does not say: the book recommends "3v3 for
#: novices and 5v5 to 8v8 for seasoned miniature gamers" (see docs/rules-decisions.md).
DEFAULT_COHORT = 5
#: "Each player begins the game with 3 Favor in their pool." (L28)
BOOK_FAVOR = 3
#: "At the beginning of a game, both players roll a D6. The one with the higher result gets to
#: decide who will go first." (L40)
ROLL_OFF: Literal["roll-off"] = "roll-off"


@dataclass(frozen=True)
class Scenario:
    players: int | None = None
    analysis: Analysis = Analysis()
    #: ``scenario.start_sets``: (player count, deployment numbers) pairs by count (:mod:`schema.starts`).
    start_sets: StartSets = ()
    #: Models each player deploys (``scenario.cohort``; written only when not the default).
    cohort: int = DEFAULT_COHORT
    #: Favor each player begins with (``scenario.starting_favor``; a deployment's ``favor``
    #: overrides it for its player); written only when not the book's 3.
    starting_favor: int = BOOK_FAVOR
    #: Whether players' different starting Favor is a deliberate handicap (``scenario.handicap``).
    handicap: bool = False
    #: Who goes first: the book's roll-off, or a player's number (``scenario.first_player``).
    first_player: int | Literal["roll-off"] = ROLL_OFF


Element = Union[Pit, Spikes, Hazard, Deployment]


@dataclass(frozen=True)
class ArenaRexArena:
    name: str
    bounds: BoardShape = Circle((0.0, 0.0), 15.0)
    system: Literal["arena-rex"] = "arena-rex"
    format: str = FORMAT
    description: str | None = None
    author: str | None = None
    license: str | None = None
    tags: tuple[str, ...] = ()
    units: Units = Units()
    bases: tuple[float, ...] = DEFAULT_BASES
    symmetry: Symmetry | None = None
    pits: tuple[Pit, ...] = ()
    spikes: tuple[Spikes, ...] = ()
    hazards: tuple[Hazard, ...] = ()
    deployment: tuple[Deployment, ...] = ()
    scenario: Scenario = Scenario()
    extensions: Extensions = field(default_factory=dict, hash=False)

    @property
    def players(self) -> int:
        return self.scenario.players if self.scenario.players is not None else len(self.deployment)

    def starting_favor(self) -> dict[int, int]:
        """Each deploying player's Favor at the start: its deployment's ``favor``, else the
        scenario's ``starting_favor``."""
        return {d.player: self.scenario.starting_favor if d.favor is None else d.favor for d in self.deployment}

    def base_radii(self) -> tuple[float, ...]:
        """The bases' radii in inches, smallest first."""
        return tuple(sorted(d / MM_PER_INCH / 2.0 for d in self.bases))

    def elements(self) -> tuple[Element, ...]:
        return (*self.pits, *self.spikes, *self.hazards, *self.deployment)

    def element(self, ref: str) -> Element:
        """An element by id (a deployment by ``deploy:N``); raises ``KeyError``."""
        for el in self.elements():
            if el.id == ref:
                return el
        raise KeyError(ref)

    def bounds_geometry(self) -> BaseGeometry:
        return self.bounds.to_shapely()

    def centre(self) -> Point:
        """The board's centre: the symmetry centre when declared, else the circle's or
        rectangle's centre or the polygon's centroid."""
        if self.symmetry is not None:
            return (float(self.symmetry.center[0]), float(self.symmetry.center[1]))
        if isinstance(self.bounds, (Circle, Rect)):
            return (float(self.bounds.center[0]), float(self.bounds.center[1]))
        c = self.bounds.to_shapely().centroid
        return (float(c.x), float(c.y))

    def edge(self, d: Deployment) -> Edge:
        """The deployment's edge and zone (raises ``ValueError`` when its side or arc does not
        fit the board)."""
        return deployment_edge(self.bounds, d.side, d.arc, d.center, self.scenario.analysis.deployment_reach)

    def element_shape(self, el: Element) -> AreaShape:
        """An element's outline; a deployment's is its zone drawn as the band one largest base
        deep along the edge (an empty polygon when the edge does not fit the board)."""
        if not isinstance(el, Deployment):
            return el.shape
        try:
            strip = self.edge(el).strip(max(self.base_radii()) * 2.0)
        except ValueError:
            return Polygon(())
        if strip.is_empty or strip.geom_type != "Polygon":
            return Polygon(())
        return Polygon(tuple((float(x), float(y)) for x, y in list(strip.exterior.coords)[:-1]))


# ------------------------------------------------------------------ document -> model


def _pt(v: Any) -> Point:
    return (float(v[0]), float(v[1]))


def _area(d: Doc) -> AreaShape:
    return cast(AreaShape, shape_from(d["shape"]))


def from_document(doc: Doc) -> ArenaRexArena:
    """Build the model from a document that passed the Arena Rex schema; fills defaults."""
    g = doc.get
    sy = g("symmetry")
    symmetry = None
    if sy is not None:
        symmetry = Symmetry(kind=sy["kind"], order=int(sy.get("order", 1)), center=_pt(sy.get("center", [0, 0])),
                            axis=float(sy.get("axis", 90.0)))
    bounds = cast(BoardShape, shape_from(doc["bounds"])) if "bounds" in doc else Circle((0.0, 0.0), 15.0)
    sc = g("scenario", {})
    an = sc.get("analysis", {})
    da = Analysis()
    values: dict[str, Any] = {}
    for f in fields(Analysis):
        default = getattr(da, f.name)
        values[f.name] = tuple(an.get(f.name, ())) if f.name == "disabled" else type(default)(an.get(f.name, default))
    pl = sc.get("players")
    return ArenaRexArena(
        format=doc["format"], system=doc["system"], name=doc["name"], description=g("description"),
        author=g("author"), license=g("license"), tags=tuple(g("tags", ())),
        units=Units(printed_mm=float(g("units", {}).get("printed_mm", 25.4))),
        bounds=bounds,
        bases=tuple(float(b) for b in g("bases", DEFAULT_BASES)),
        symmetry=symmetry,
        pits=tuple(Pit(p["id"], _area(p), extensions_of(p)) for p in g("pits", ())),
        spikes=tuple(Spikes(s["id"], _area(s), extensions_of(s)) for s in g("spikes", ())),
        hazards=tuple(Hazard(h["id"], _area(h), h.get("kind", "column"), bool(h.get("blocks_movement", True)),
                             bool(h.get("blocks_sight", True)), extensions_of(h)) for h in g("hazards", ())),
        deployment=tuple(
            Deployment(player=int(d["player"]), side=None if d.get("side") is None else int(d["side"]),
                       arc=None if d.get("arc") is None else _pt(d["arc"]),
                       center=None if d.get("center") is None else _pt(d["center"]),
                       favor=None if d.get("favor") is None else int(d["favor"]), extensions=extensions_of(d))
            for d in g("deployment", ())),
        scenario=Scenario(players=None if pl is None else int(pl), cohort=int(sc.get("cohort", DEFAULT_COHORT)),
                          start_sets=start_sets_from(sc.get("start_sets")),
                          analysis=Analysis(**values), starting_favor=int(sc.get("starting_favor", BOOK_FAVOR)),
                          handicap=bool(sc.get("handicap", False)), first_player=_first(sc.get("first_player"))),
        extensions=extensions_of(doc),
    )


def _first(v: Any) -> int | Literal["roll-off"]:
    return ROLL_OFF if v is None or v == ROLL_OFF else int(v)


# ------------------------------------------------------------------ model -> document


def _p(p: Point) -> list[int | float]:
    return [num(p[0]), num(p[1])]


#: Analysis settings written only when not their defaults (files saved before they existed keep
#: their canonical form).
_WRITTEN_IF_SET = ("placement_tolerance", "placement_angle_tolerance")


def to_document(a: ArenaRexArena) -> Doc:
    """The canonical document of an arena (``from_document(to_document(a)) == a``)."""
    doc: Doc = header_document(a)
    doc["units"] = {"name": a.units.name, "symbol": a.units.symbol, "printed_mm": num(a.units.printed_mm)}
    doc["bounds"] = shape_doc(a.bounds)
    doc["bases"] = [num(b) for b in a.bases]
    if a.symmetry is not None:
        sy = a.symmetry
        doc["symmetry"] = {"kind": sy.kind, "order": sy.order, "center": _p(sy.center), "axis": num(sy.axis)}
    doc["pits"] = [with_extensions({"id": p.id, "shape": shape_doc(p.shape)}, p.extensions) for p in a.pits]
    doc["spikes"] = [with_extensions({"id": s.id, "shape": shape_doc(s.shape)}, s.extensions) for s in a.spikes]
    doc["hazards"] = [with_extensions({"id": h.id, "shape": shape_doc(h.shape), "kind": h.kind,
                                       "blocks_movement": h.blocks_movement, "blocks_sight": h.blocks_sight},
                                      h.extensions) for h in a.hazards]
    deps = []
    for d in a.deployment:
        dd: Doc = {"player": d.player}
        if d.side is not None:
            dd["side"] = d.side
        if d.arc is not None:
            dd["arc"] = _p(d.arc)
        if d.center is not None:
            dd["center"] = _p(d.center)
        if d.favor is not None:
            dd["favor"] = d.favor
        deps.append(with_extensions(dd, d.extensions))
    doc["deployment"] = deps
    an = a.scenario.analysis
    scen: Doc = {}
    if a.scenario.players is not None:
        scen["players"] = a.scenario.players
    if a.scenario.start_sets:
        scen["start_sets"] = start_sets_document(a.scenario.start_sets)
    if a.scenario.cohort != DEFAULT_COHORT:  # files saved before it existed keep their canonical form
        scen["cohort"] = a.scenario.cohort
    if a.scenario.starting_favor != BOOK_FAVOR:  # the scenario settings below likewise
        scen["starting_favor"] = a.scenario.starting_favor
    if a.scenario.handicap:
        scen["handicap"] = True
    if a.scenario.first_player != ROLL_OFF:
        scen["first_player"] = a.scenario.first_player
    scen["analysis"] = {f.name: (list(an.disabled) if f.name == "disabled" else
                                 num(getattr(an, f.name)) if isinstance(getattr(an, f.name), float)
                                 else getattr(an, f.name)) for f in fields(Analysis)
                        if f.name not in _WRITTEN_IF_SET or getattr(an, f.name) != getattr(Analysis(), f.name)}
    doc["scenario"] = scen
    return with_extensions(doc, a.extensions)


# ------------------------------------------------------------------ the new arena


def default_arena() -> ArenaRexArena:
    """File -> New for Arena Rex: the book's usual board, "a 30 diameter circle", centred on the
    origin, with two players deploying on opposite arcs (south and north), each zone the 12 in of
    rim within 6 in of the arc's centre, and a two-fold rotational symmetry to keep."""
    return ArenaRexArena(
        name="New Arena Rex arena", bounds=Circle((0.0, 0.0), 15.0),
        deployment=(Deployment(player=1, arc=(225.0, 315.0)), Deployment(player=2, arc=(45.0, 135.0))),
        symmetry=Symmetry(kind="rotational", order=2, center=(0.0, 0.0), axis=90.0),
    )


# ------------------------------------------------------------------ the ruleset

#: The element lists whose ids are unique across the arena (deployments are ``deploy:N``).
ELEMENT_LISTS = ("pits", "spikes", "hazards")


def semantic_problems(doc: Any) -> list[tuple[str, str]]:
    """What the JSON Schema cannot say: ids unique across the arena, one deployment per player,
    simple polygons, finite numbers, and each deployment's side or arc fitting the board."""
    out = element_problems(doc, ELEMENT_LISTS) + start_set_problems(doc, numbers_in(doc, "deployment", "player"),
                                                                    noun="deployment")
    if not isinstance(doc, dict) or not isinstance(doc.get("bounds"), dict) or out:
        return out
    seen: set[int] = set()
    try:
        bounds = cast(BoardShape, shape_from(doc["bounds"]))
    except (KeyError, TypeError, ValueError, IndexError):
        return out
    for i, d in enumerate(doc.get("deployment") or ()):
        if not isinstance(d, dict):
            continue
        if d.get("player") in seen:
            out.append((f"/deployment/{i}/player", f"player {d.get('player')} deploys twice; one edge per player"))
        seen.add(d.get("player"))  # type: ignore[arg-type]
        try:
            deployment_edge(bounds, d.get("side"), None if d.get("arc") is None else _pt(d["arc"]),
                            None if d.get("center") is None else _pt(d["center"]), 6.0)
        except (ValueError, TypeError, IndexError) as exc:
            key = "side" if d.get("side") is not None else "arc"
            out.append((f"/deployment/{i}/{key}", str(exc)))
    return out


# Okabe-Ito colours (colour-blind safe); no two kinds share a fill.
_BLACK, _VERMILLION, _BLUE, _SKY = "#000000", "#D55E00", "#0072B2", "#56B4E9"
_INK = "#1A1A1A"


def _items(key: str) -> str:
    return f"/properties/{key}/items"


def _ex(tiled: ExportAs, foundry: ExportAs, uvtt: ExportAs = "omit") -> dict[str, ExportAs]:
    return {"tiled": tiled, "geojson": tiled, "uvtt": uvtt, "foundry": foundry, "svg": tiled}


KINDS: tuple[ElementKind, ...] = (
    ElementKind("deployment", "Deployment zone", _items("deployment"), "shape",
                Style(_SKY, _BLUE, 0.45, 0.4, "player", 5, "diagonal"), _ex("region", "region"), shortcut="D"),
    ElementKind("pits", "Pit (lethal hazard)", _items("pits"), "shape", Style(_BLACK, _BLACK, 0.85, 0.5, "id", 10),
                _ex("region", "region"), shortcut="P"),
    ElementKind("spikes", "Spikes (wounding hazard)", _items("spikes"), "shape",
                Style(_VERMILLION, _VERMILLION, 0.35, 0.5, "id", 12, "cross"), _ex("region", "region"), shortcut="S"),
    ElementKind("hazards", "Terrain hazard", _items("hazards"), "shape", Style(_BLUE, _INK, 0.8, 0.4, "kind", 15),
                _ex("object", "wall", "wall"), shortcut="H"),
)

def _exports() -> ExportProfile:
    """The game's export profile (:mod:`schema.games.arenarex.exports`), imported when an export
    or an import asks for it."""
    from schema.games.arenarex.exports import EXPORTS

    return EXPORTS


class _Deployments(StartSlots):
    """The deployments as start sets see them: numbered by their player (``deploy:N``), each
    standing at its zone's centre for the symmetry."""

    def point(self, arena: Any, element: Any) -> Point:
        return cast(Point, arena.edge(element).centre)


#: The deployments as start sets see them.
STARTS = _Deployments("deployment", "player", noun="deployment")

RULESET = Ruleset(
    id=SYSTEM,
    game="Arena Rex",
    edition="playtest v0.2",
    book="004_dc762f78e7f2abcd.txt",
    units=RulesetUnits("inch", "in", 25.4),
    schema="schema.games.arenarex:arena-rex.schema.json",
    kinds=KINDS,
    build=from_document,
    document=documenter(ArenaRexArena, to_document),
    default_arena=default_arena,
    exports=_exports,
    semantic=semantic_problems,
    starts=lambda: STARTS,
)


__all__ = [
    "BOOK_FAVOR", "DEFAULT_BASES", "DEFAULT_COHORT", "ROLL_OFF", "ELEMENT_LISTS", "HAZARD_KINDS", "MM_PER_INCH", "RULESET", "SYSTEM", "Analysis", "ArenaRexArena",
    "BoardShape", "Deployment", "Element", "Hazard", "HazardKind", "Pit", "Scenario", "Spikes", "Units",
    "default_arena", "from_document", "semantic_problems", "to_document",
]
