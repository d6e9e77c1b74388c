"""The typed arena model for Car Wars sixth edition (``system: car-wars-6e``).

Coordinates are in inches (the book sets up "roughly 3 feet per side"), x to the right, y up;
angles are degrees counter-clockwise from +x.  Shapes are the shared classes of
:mod:`schema.games.gravstrike.model`.  The document functions mirror :mod:`schema.document`: ``from_document``
takes a document already validated against ``schema/games/carwars/car-wars-6e.schema.json`` and fills
the defaults, ``to_document`` writes the canonical form (every field in schema order, defaults
included, integral floats as integers).

>>> arena = default_arena()
>>> arena.bounds.size, len(arena.start_positions), arena.vehicle.key_length
((36.0, 36.0), 4, 6.0)
>>> from_document(to_document(arena)) == arena
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Literal, Union, cast

from shapely.geometry import Point as ShapelyPoint
from shapely.geometry.base import BaseGeometry

from schema.checks import element_problems
from schema.document import extensions_of, header_document, num, shape_doc, shape_from, with_extensions
from schema.ruleset import FORMAT
from schema.shapes import AreaShape, BoundsShape, Circle, Extensions, Point, Polygon, Polyline, Rect, Shape
from schema.shapes import Symmetry
from schema.starts import StartSets, StartSlots, numbers_in, start_set_problems, start_sets_document, start_sets_from
from schema.ruleset import ElementKind, ExportAs, Ruleset, Style, documenter
from schema.ruleset import Units as RulesetUnits

if TYPE_CHECKING:  # loaded by _exports() when asked for
    from schema.formats.systems import ExportProfile

SYSTEM = "car-wars-6e"
Doc = dict[str, Any]

Cover = Literal["none", "partial", "full"]
Weight = Literal["drive-thru", "light", "heavy", "wall"]
Role = Literal["checkpoint", "trigger", "hidden-hazard", "countdown"]
TokenKind = Literal["barrel", "barrier", "wreck"]
Face = Literal["durability", "blank"]
Box = Literal["2-player", "4-player"]
Deck = Literal["A", "B"]
WallShape = Union[Rect, Polygon, Polyline]

COVERS: tuple[Cover, ...] = ("none", "partial", "full")
WEIGHTS: tuple[Weight, ...] = ("drive-thru", "light", "heavy", "wall")
ROLES: tuple[Role, ...] = ("checkpoint", "trigger", "hidden-hazard", "countdown")
TOKEN_KINDS: tuple[TokenKind, ...] = ("barrel", "barrier", "wreck")

#: A standard playing card (63 x 88 mm), the size of the hazard and numbered cards.  The book
#: prints no card size; see docs/rules-decisions.md ("Car Wars").
CARD_SIZE: tuple[float, float] = (2.5, 3.5)


@dataclass(frozen=True)
class Units:
    """The unit of coordinates: the inch, printed 1:1 (``printed_mm`` millimetres per inch)."""

    name: Literal["inch"] = "inch"
    symbol: Literal["in"] = "in"
    printed_mm: float = 25.4


@dataclass(frozen=True)
class Vehicle:
    """The car base, in inches: ``length`` x ``width`` is the rectangle printed on the base ("the
    rectangle depicted on the base represents the car"); ``bumper`` is how far the rounded nose
    and rear reach beyond it ("only used to resolve collisions").  The book gives no base size;
    the defaults are measured from the physical game (see docs/rules-decisions.md)."""

    length: float = 3.0
    width: float = 1.5
    bumper: float = 0.25

    @property
    def key_length(self) -> float:
        """The turning key is "2 car-lengths long"."""
        return 2.0 * self.length

    @property
    def key_width(self) -> float:
        """... "and 1/2 car-length wide"."""
        return 0.5 * self.length


@dataclass(frozen=True)
class TurningKey:
    """The turning-key figures the book's text lost (the key's picture did not survive):
    ``zones`` are the far edges, in degrees, of the SLIGHT, D1, D2, D3 and D4 zones (D4 ends at
    90: a turn is "up to 90 degrees"); ``zone_dice`` the dice each of D1-D4 adds; a slide moves
    the car ``slide_forward`` car lengths ahead and ``slide_lateral`` to the side."""

    zones: tuple[float, float, float, float, float] = (18.0, 36.0, 54.0, 72.0, 90.0)
    zone_dice: tuple[int, int, int, int] = (1, 1, 1, 1)
    slide_forward: float = 1.0
    slide_lateral: float = 0.5


@dataclass(frozen=True)
class Wall:
    """An arena wall ("Obstacles with a wall icon are walls"): it cannot be moved or damaged."""

    id: str
    shape: WallShape
    cover: Cover = "full"
    extensions: Extensions = field(default_factory=dict, hash=False)


@dataclass(frozen=True)
class Obstacle:
    """A terrain piece with the book's attributes: ``cover``, ``weight`` ("Any other obstacle
    that does not show one of these icons is considered a heavy obstacle"), ``durability``
    (None: "that item cannot take damage") and which face is up (durability shows on one side)."""

    id: str
    shape: AreaShape
    cover: Cover = "partial"
    weight: Weight = "heavy"
    durability: int | None = None
    face_up: Face = "durability"
    extensions: Extensions = field(default_factory=dict, hash=False)

    @property
    def effective_durability(self) -> int | None:
        """The durability in play: None when the blank face is up."""
        return self.durability if self.face_up == "durability" else None


@dataclass(frozen=True)
class Terrain:
    """An area of terrain ``level`` 0-3: that many dice to every driving roll overlapping it."""

    id: str
    shape: AreaShape
    level: int = 1
    extensions: Extensions = field(default_factory=dict, hash=False)


@dataclass(frozen=True)
class Hazard:
    """A hazard card: ``dice`` added to a driving roll while the car overlaps it, its ``effect``
    text, whether cars drive over it, and its cover."""

    id: str
    shape: AreaShape
    name: str | None = None
    dice: int = 0
    effect: str | None = None
    drive_over: bool = True
    cover: Cover = "none"
    extensions: Extensions = field(default_factory=dict, hash=False)


@dataclass(frozen=True)
class Card:
    """One of the four cards numbered 0-3, lying at ``position`` (its centre)."""

    id: str
    number: int
    position: Point
    role: Role = "checkpoint"
    owner: int | None = None
    rotation: float = 0.0
    size: tuple[float, float] = CARD_SIZE
    dice: int = 0
    extensions: Extensions = field(default_factory=dict, hash=False)

    @property
    def shape(self) -> Rect:
        return Rect(center=self.position, size=self.size, rotation=self.rotation)


#: Per kind: (footprint size in inches, weight, cover, face up).  The token icons were lost;
#: see docs/rules-decisions.md.
TOKEN_DEFAULTS: dict[str, tuple[tuple[float, float], Weight, Cover, Face]] = {
    "barrel": ((1.0, 1.0), "light", "partial", "durability"),
    "barrier": ((3.0, 0.75), "heavy", "full", "durability"),
    "wreck": ((3.5, 1.5), "heavy", "partial", "blank"),
}


@dataclass(frozen=True)
class Token:
    """A barrel, barrier or wreck token at ``position`` turned by ``rotation``; a barrel is a
    disc of diameter ``size[0]``, the others rectangles of ``size``."""

    id: str
    kind: TokenKind
    position: Point
    rotation: float = 0.0
    size: tuple[float, float] = (1.0, 1.0)
    weight: Weight = "light"
    cover: Cover = "partial"
    durability: int | None = None
    face_up: Face = "durability"
    extensions: Extensions = field(default_factory=dict, hash=False)

    @property
    def shape(self) -> Circle | Rect:
        if self.kind == "barrel":
            return Circle(center=self.position, radius=self.size[0] / 2.0)
        return Rect(center=self.position, size=self.size, rotation=self.rotation)


@dataclass(frozen=True)
class StartPosition:
    """A car's starting pose: its centre and heading (degrees)."""

    player: int
    position: Point
    facing: float
    extensions: Extensions = field(default_factory=dict, hash=False)

    @property
    def id(self) -> str:
        return f"start:{self.player}"


@dataclass(frozen=True)
class Analysis:
    """Thresholds of the setup checks and fairness metrics (inches, degrees, turns, dice)."""

    arena_size: float = 36.0
    arena_size_tolerance: float = 4.0
    key_touch_tolerance: float = 0.1
    start_angle_tolerance: float = 20.0
    start_distance_tolerance: float = 3.0
    travel_time_tolerance: float = 0.5
    travel_dice_tolerance: int = 2
    exposure_radius: float = 12.0
    exposure_dice_tolerance: int = 1
    exposure_terrain_tolerance: float = 0.25
    sight_tolerance: int = 0
    max_turns: int = 8
    disabled: tuple[str, ...] = ()
    #: Tabletop robustness: inches along each axis and degrees of turn a piece put down by hand
    #: may miss its drawn place by.
    placement_tolerance: float = 0.25
    placement_angle_tolerance: float = 5.0


#: Game Size: "For a small game using 24 BP or less, use damage deck A ... For a large game using
#: 25 BP or more, use damage deck B" - the most build points of a small game.
SMALL_GAME_BP = 24


@dataclass(frozen=True)
class GameSize:
    """The budgets every car is built with (Game Size: armor, build and crew points); a budget
    left out is one the scenario does not set."""

    armor_points: int | None = None
    build_points: int | None = None
    crew_points: int | None = None

    @property
    def size(self) -> Literal["small", "large"] | None:
        """``small`` (24 BP or less), ``large`` (25 BP or more), None without build points."""
        if self.build_points is None:
            return None
        return "small" if self.build_points <= SMALL_GAME_BP else "large"

    @property
    def missing(self) -> tuple[str, ...]:
        """The budgets left out, by their field names."""
        return tuple(n for n in ("armor_points", "build_points", "crew_points") if getattr(self, n) is None)


@dataclass(frozen=True)
class Scenario:
    players: int | None = None
    #: ``scenario.start_sets``: (player count, start numbers) pairs by count (:mod:`schema.starts`).
    start_sets: StartSets = ()
    box: Box | None = None
    analysis: Analysis = Analysis()
    game_size: GameSize | None = None
    damage_deck: Deck | None = None


Element = Union[Wall, Obstacle, Terrain, Hazard, Card, Token, StartPosition]


@dataclass(frozen=True)
class CarWarsArena:
    name: str
    bounds: BoundsShape
    system: Literal["car-wars-6e"] = "car-wars-6e"
    format: str = FORMAT
    description: str | None = None
    author: str | None = None
    license: str | None = None
    tags: tuple[str, ...] = ()
    units: Units = Units()
    vehicle: Vehicle = Vehicle()
    turning_key: TurningKey = TurningKey()
    symmetry: Symmetry | None = None
    walls: tuple[Wall, ...] = ()
    obstacles: tuple[Obstacle, ...] = ()
    terrain: tuple[Terrain, ...] = ()
    hazards: tuple[Hazard, ...] = ()
    cards: tuple[Card, ...] = ()
    tokens: tuple[Token, ...] = ()
    start_positions: tuple[StartPosition, ...] = ()
    scenario: Scenario = Scenario()
    extensions: Extensions = field(default_factory=dict, hash=False)

    @property
    def players(self) -> int:
        """Players the scenario is for (defaults to the number of start positions)."""
        return self.scenario.players if self.scenario.players is not None else len(self.start_positions)

    @property
    def box(self) -> Box:
        """The set whose contents the component check uses (the 4-player set beyond 2 players)."""
        if self.scenario.box is not None:
            return self.scenario.box
        return "2-player" if self.players <= 2 else "4-player"

    @property
    def damage_deck(self) -> Deck | None:
        """The damage deck in play: the scenario's, else the one its build points call for
        (deck A for 24 BP or less, deck B for more); None when neither is set."""
        if self.scenario.damage_deck is not None:
            return self.scenario.damage_deck
        size = self.scenario.game_size.size if self.scenario.game_size is not None else None
        return None if size is None else "A" if size == "small" else "B"

    def elements(self) -> tuple[Element, ...]:
        return (*self.walls, *self.obstacles, *self.terrain, *self.hazards, *self.cards, *self.tokens,
                *self.start_positions)

    def element(self, ref: str) -> Element:
        """An element by id (a start by ``start:N``); raises ``KeyError``."""
        for el in self.elements():
            if el.id == ref:
                return el
        raise KeyError(ref)

    def start(self, player: int) -> StartPosition:
        for s in self.start_positions:
            if s.player == player:
                return s
        raise KeyError(f"start:{player}")

    def card(self, ident: str) -> Card:
        for c in self.cards:
            if c.id == ident:
                return c
        raise KeyError(ident)

    def bounds_geometry(self) -> BaseGeometry:
        return self.bounds.to_shapely()

    def centre(self) -> Point:
        """The arena's centre: the centre of a rect, the centroid of a polygon (or the symmetry
        centre when one is declared)."""
        if self.symmetry is not None:
            return (float(self.symmetry.center[0]), float(self.symmetry.center[1]))
        if isinstance(self.bounds, Rect):
            return (float(self.bounds.center[0]), float(self.bounds.center[1]))
        c = self.bounds.to_shapely().centroid
        assert isinstance(c, ShapelyPoint)
        return (float(c.x), float(c.y))


# ------------------------------------------------------------------ document -> model


def _pt(v: Any) -> Point:
    return (float(v[0]), float(v[1]))



def _opt_int(v: Any) -> int | None:
    return None if v is None else int(v)


def from_document(doc: Doc) -> CarWarsArena:
    """Build the model from a document that passed the Car Wars schema; fills defaults."""
    g = doc.get
    un = g("units", {})
    du = Units()
    ve = g("vehicle", {})
    dv = Vehicle()
    tk = g("turning_key", {})
    dk = TurningKey()
    zones = tuple(float(z) for z in tk.get("zones", dk.zones))
    dice = tuple(int(z) for z in tk.get("zone_dice", dk.zone_dice))
    sy = g("symmetry")
    symmetry = None
    if sy is not None:
        symmetry = Symmetry(kind=sy["kind"], order=int(sy.get("order", 1)), center=_pt(sy.get("center", [0, 0])),
                            axis=float(sy.get("axis", 90.0)))
    bounds = cast(BoundsShape, shape_from(doc["bounds"])) if "bounds" in doc else Rect((0.0, 0.0), (36.0, 36.0))
    return CarWarsArena(
        format=doc["format"],
        system=doc["system"],
        name=doc["name"],
        description=g("description"),
        author=g("author"),
        license=g("license"),
        tags=tuple(g("tags", ())),
        units=Units(printed_mm=float(un.get("printed_mm", du.printed_mm))),
        vehicle=Vehicle(length=float(ve.get("length", dv.length)), width=float(ve.get("width", dv.width)),
                        bumper=float(ve.get("bumper", dv.bumper))),
        turning_key=TurningKey(
            zones=cast(tuple[float, float, float, float, float], zones),
            zone_dice=cast(tuple[int, int, int, int], dice),
            slide_forward=float(tk.get("slide_forward", dk.slide_forward)),
            slide_lateral=float(tk.get("slide_lateral", dk.slide_lateral)),
        ),
        symmetry=symmetry,
        bounds=bounds,
        walls=tuple(Wall(id=w["id"], shape=cast(WallShape, shape_from(w["shape"])), cover=w.get("cover", "full"),
                         extensions=extensions_of(w)) for w in g("walls", ())),
        obstacles=tuple(
            Obstacle(id=o["id"], shape=cast(AreaShape, shape_from(o["shape"])), cover=o.get("cover", "partial"),
                     weight=o.get("weight", "heavy"), durability=_opt_int(o.get("durability")),
                     face_up=o.get("face_up", "durability"), extensions=extensions_of(o))
            for o in g("obstacles", ())
        ),
        terrain=tuple(Terrain(id=t["id"], shape=cast(AreaShape, shape_from(t["shape"])), level=int(t.get("level", 1)),
                              extensions=extensions_of(t)) for t in g("terrain", ())),
        hazards=tuple(
            Hazard(id=h["id"], shape=cast(AreaShape, shape_from(h["shape"])), name=h.get("name"),
                   dice=int(h.get("dice", 0)), effect=h.get("effect"), drive_over=bool(h.get("drive_over", True)),
                   cover=h.get("cover", "none"), extensions=extensions_of(h))
            for h in g("hazards", ())
        ),
        cards=tuple(
            Card(id=c["id"], number=int(c["number"]), position=_pt(c["position"]), role=c.get("role", "checkpoint"),
                 owner=_opt_int(c.get("owner")), rotation=float(c.get("rotation", 0.0)),
                 size=_pt(c.get("size", CARD_SIZE)), dice=int(c.get("dice", 0)), extensions=extensions_of(c))
            for c in g("cards", ())
        ),
        tokens=tuple(_token(t) for t in g("tokens", ())),
        start_positions=tuple(
            StartPosition(player=int(s["player"]), position=_pt(s["position"]), facing=float(s["facing"]),
                          extensions=extensions_of(s))
            for s in g("start_positions", ())
        ),
        scenario=_scenario(g("scenario", {})),
        extensions=extensions_of(doc),
    )


def _token(t: Doc) -> Token:
    size, weight, cover, face = TOKEN_DEFAULTS[t["kind"]]
    return Token(id=t["id"], kind=t["kind"], position=_pt(t["position"]), rotation=float(t.get("rotation", 0.0)),
                 size=_pt(t.get("size", size)), weight=t.get("weight", weight), cover=t.get("cover", cover),
                 durability=_opt_int(t.get("durability")), face_up=t.get("face_up", face), extensions=extensions_of(t))


#: Analysis settings written to a file only when they differ from the default (added after files
#: were saved with every setting: those files save unchanged).
_WRITTEN_IF_SET = ("placement_tolerance", "placement_angle_tolerance")


def _scenario(sc: Doc) -> Scenario:
    an = sc.get("analysis", {})
    d = Analysis()
    values: dict[str, Any] = {}
    for f in fields(Analysis):
        default = getattr(d, f.name)
        if f.name == "disabled":
            values[f.name] = tuple(an.get(f.name, ()))
        else:
            values[f.name] = type(default)(an.get(f.name, default))
    gs = sc.get("game_size")
    game_size = None if gs is None else GameSize(**{n: _opt_int(gs.get(n))
                                                     for n in ("armor_points", "build_points", "crew_points")})
    return Scenario(players=_opt_int(sc.get("players")), start_sets=start_sets_from(sc.get("start_sets")),
                    box=sc.get("box"), analysis=Analysis(**values), game_size=game_size,
                    damage_deck=sc.get("damage_deck"))


# ------------------------------------------------------------------ model -> document


def _p(p: Point) -> list[int | float]:
    return [num(p[0]), num(p[1])]



def to_document(a: CarWarsArena) -> Doc:
    """The canonical document of an arena (``from_document(to_document(a)) == a``)."""
    doc: Doc = header_document(a)
    doc["units"] = {"name": a.units.name, "symbol": a.units.symbol, "printed_mm": num(a.units.printed_mm)}
    doc["bounds"] = shape_doc(a.bounds)
    v = a.vehicle
    doc["vehicle"] = {"length": num(v.length), "width": num(v.width), "bumper": num(v.bumper)}
    k = a.turning_key
    doc["turning_key"] = {"zones": [num(z) for z in k.zones], "zone_dice": list(k.zone_dice),
                          "slide_forward": num(k.slide_forward), "slide_lateral": num(k.slide_lateral)}
    if a.symmetry is not None:
        sy = a.symmetry
        doc["symmetry"] = {"kind": sy.kind, "order": sy.order, "center": _p(sy.center), "axis": num(sy.axis)}
    doc["walls"] = [with_extensions({"id": w.id, "shape": shape_doc(w.shape), "cover": w.cover}, w.extensions)
                    for w in a.walls]
    doc["obstacles"] = [
        with_extensions({"id": o.id, "shape": shape_doc(o.shape), "cover": o.cover, "weight": o.weight,
                   "durability": o.durability, "face_up": o.face_up}, o.extensions)
        for o in a.obstacles
    ]
    doc["terrain"] = [with_extensions({"id": t.id, "shape": shape_doc(t.shape), "level": t.level}, t.extensions)
                      for t in a.terrain]
    doc["hazards"] = []
    for h in a.hazards:
        hd: Doc = {"id": h.id, "shape": shape_doc(h.shape)}
        if h.name is not None:
            hd["name"] = h.name
        hd["dice"] = h.dice
        if h.effect is not None:
            hd["effect"] = h.effect
        hd.update({"drive_over": h.drive_over, "cover": h.cover})
        doc["hazards"].append(with_extensions(hd, h.extensions))
    doc["cards"] = [
        with_extensions({"id": c.id, "number": c.number, "position": _p(c.position), "role": c.role, "owner": c.owner,
                   "rotation": num(c.rotation), "size": _p(c.size), "dice": c.dice}, c.extensions)
        for c in a.cards
    ]
    doc["tokens"] = [
        with_extensions({"id": t.id, "kind": t.kind, "position": _p(t.position), "rotation": num(t.rotation),
                   "size": _p(t.size), "weight": t.weight, "cover": t.cover, "durability": t.durability,
                   "face_up": t.face_up}, t.extensions)
        for t in a.tokens
    ]
    doc["start_positions"] = [
        with_extensions({"player": s.player, "position": _p(s.position), "facing": num(s.facing)}, s.extensions)
        for s in a.start_positions
    ]
    sc = a.scenario
    an = sc.analysis
    scen: Doc = {}
    if sc.players is not None:
        scen["players"] = sc.players
    if sc.start_sets:
        scen["start_sets"] = start_sets_document(sc.start_sets)
    if sc.box is not None:
        scen["box"] = sc.box
    if sc.game_size is not None:
        scen["game_size"] = {n: getattr(sc.game_size, n) for n in ("armor_points", "build_points", "crew_points")
                             if getattr(sc.game_size, n) is not None}
    if sc.damage_deck is not None:
        scen["damage_deck"] = sc.damage_deck
    scen["analysis"] = {f.name: (list(an.disabled) if f.name == "disabled" else
                                 num(getattr(an, f.name)) if isinstance(getattr(an, f.name), float) else getattr(an, f.name))
                        for f in fields(Analysis)
                        if f.name not in _WRITTEN_IF_SET or getattr(an, f.name) != getattr(Analysis(), f.name)}
    doc["scenario"] = scen
    return with_extensions(doc, a.extensions)


# ------------------------------------------------------------------ the new arena


def default_arena() -> CarWarsArena:
    """File -> New for Car Wars: a 36 x 36 in arena ("roughly 3 feet per side") centred on the
    origin, with four starts, one per edge, each car facing inward with its rear bumper touching
    a turning key laid flush against the edge's middle ("Place the turning key against the arena
    edge ... some part of the base is touching the turning key")."""
    v = Vehicle()
    half = 18.0
    inset = half - v.key_width - v.bumper - v.length / 2.0  # 15.5: key, then bumper, then half the car
    starts = tuple(
        StartPosition(player=i + 1, position=(round(inset * math.cos(math.radians(a)), 9) + 0.0,
                                              round(inset * math.sin(math.radians(a)), 9) + 0.0),
                      facing=(a + 180.0) % 360.0)
        for i, a in enumerate((270.0, 180.0, 90.0, 0.0))
    )
    return CarWarsArena(name="New Car Wars arena", bounds=Rect((0.0, 0.0), (36.0, 36.0)), start_positions=starts,
                        symmetry=Symmetry(kind="dihedral", order=4, center=(0.0, 0.0), axis=90.0))


# ------------------------------------------------------------------ the ruleset

#: The element lists whose ids are unique across the arena (starts are ``start:N``).
ELEMENT_LISTS = ("walls", "obstacles", "terrain", "hazards", "cards", "tokens")


def semantic_problems(doc: Any) -> list[tuple[str, str]]:
    """What the JSON Schema cannot say: ids unique across the arena, one start per player,
    simple polygons, finite numbers (located by JSON pointer, like schema errors)."""
    return element_problems(doc, ELEMENT_LISTS) + start_set_problems(doc, numbers_in(doc, "start_positions", "player"))


# Okabe-Ito colours (colour-blind safe), the same family as Gravstrike's.
_WALL, _GREY, _GREEN, _VERMILLION = "#3B3B3B", "#8C8C8C", "#009E73", "#D55E00"
_YELLOW, _ORANGE, _SKY, _INK = "#F0E442", "#E69F00", "#56B4E9", "#1A1A1A"


def _items(key: str) -> str:
    return f"/properties/{key}/items"


def _ex(tiled: ExportAs, foundry: ExportAs, uvtt: ExportAs = "omit") -> dict[str, ExportAs]:
    return {"tiled": tiled, "geojson": tiled, "uvtt": uvtt, "foundry": foundry, "svg": tiled}


KINDS: tuple[ElementKind, ...] = (
    ElementKind("walls", "Wall", _items("walls"), "shape", Style(_WALL, _WALL, 1.0, 0.5, None, 10),
                _ex("wall", "wall", "wall"), solid=True, shortcut="W"),
    ElementKind("obstacles", "Obstacle", _items("obstacles"), "shape", Style(_GREY, _INK, 0.9, 0.4, "id", 15),
                _ex("object", "wall", "wall"), solid=True, shortcut="O"),
    ElementKind("terrain", "Terrain", _items("terrain"), "shape", Style(_GREEN, _GREEN, 0.25, 0.4, "level", 5, "dots"),
                _ex("region", "region"), shortcut="L"),
    ElementKind("hazards", "Hazard card", _items("hazards"), "shape", Style(_VERMILLION, _VERMILLION, 0.2, 0.5, "id", 8, "diagonal"),
                _ex("region", "region"), shortcut="H"),
    ElementKind("cards", "Numbered card", _items("cards"), "point", Style(_YELLOW, _INK, 1.0, 0.4, "number", 30),
                _ex("object", "object"), id_prefix="N", shortcut="N"),
    ElementKind("tokens", "Barrel or barrier", _items("tokens"), "point", Style(_ORANGE, _INK, 1.0, 0.4, "id", 25),
                _ex("token", "object"), id_prefix="K", shortcut="K"),
    ElementKind("start_positions", "Start position", _items("start_positions"), "pose", Style(_SKY, _INK, 0.86, 0.4, "player", 40),
                _ex("object", "object"), shortcut="P"),
)

def _exports() -> ExportProfile:
    """The game's export profile (:mod:`schema.games.carwars.exports`), imported when an export
    or an import asks for it."""
    from schema.games.carwars.exports import EXPORTS

    return EXPORTS


#: The start positions as start sets see them: numbered by their player (``start:N``).
STARTS = StartSlots("start_positions", "player")

RULESET = Ruleset(
    id=SYSTEM,
    game="Car Wars",
    edition="sixth edition",
    book="001_720c8b844658e4d7.txt",
    units=RulesetUnits("inch", "in", 25.4),
    schema="schema.games.carwars:car-wars-6e.schema.json",
    kinds=KINDS,
    build=from_document,
    document=documenter(CarWarsArena, to_document),
    default_arena=default_arena,
    exports=_exports,
    semantic=semantic_problems,
    starts=lambda: STARTS,
)

__all__ = [
    "CARD_SIZE", "ELEMENT_LISTS", "RULESET", "semantic_problems", "SYSTEM", "TOKEN_DEFAULTS", "Analysis", "Box", "Card", "CarWarsArena", "Cover", "Element", "Face",
    "GameSize", "Hazard", "Obstacle", "Role", "Scenario", "Shape", "StartPosition", "Terrain", "Token", "TokenKind", "TurningKey",
    "Units", "Vehicle", "Wall", "Weight", "default_arena", "from_document", "to_document",
]
