"""Tortoise Derby's arena file: the typed model, its document, the new arena and the ruleset.

Tortoise Derby is a tiny race invented for Arena Studio's plug-in example (no rulebook): each
player's tortoise starts on the paddock, facing somewhere, and crawls up to ``stride`` inches a
turn (straight lines, turning freely) towards the lettuces; rocks block it, and a tortoise's
shell (``shell`` inches in radius) may not overlap a rock or leave the paddock.  The first to
reach a lettuce wins.

Coordinates are inches, x to the right, y up; angles are degrees counter-clockwise from +x.

>>> arena = default_arena()
>>> [t.id for t in arena.tortoises], [r.id for r in arena.rocks], [l.id for l in arena.lettuces]
(['tortoise:1', 'tortoise:2'], ['R1', 'R2'], ['L1'])
>>> from_document(to_document(arena)) == arena
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Union, cast

from schema.checks import element_problems
from schema.document import extensions_of, header_document, num, point_doc, shape_doc, shape_from, with_extensions
from schema.ruleset import FORMAT, ElementKind, Ruleset, Style, documenter
from schema.ruleset import Units as RulesetUnits
from schema.shapes import AreaShape, Circle, Extensions, Point, Rect, Symmetry

if TYPE_CHECKING:  # the export profile's module loads when an export asks for it
    from schema.formats.systems import ExportProfile

SYSTEM = "tortoise-derby"
Doc = dict[str, Any]


@dataclass(frozen=True)
class Units:
    """Inches, printed 1:1 (``printed_mm`` millimetres per inch)."""

    name: Literal["inch"] = "inch"
    symbol: Literal["in"] = "in"
    printed_mm: float = 25.4


@dataclass(frozen=True)
class Tortoise:
    """A player's tortoise where the race starts: its centre and the way it faces."""

    player: int
    position: Point
    facing: float = 0.0
    extensions: Extensions = field(default_factory=dict, hash=False)

    @property
    def id(self) -> str:
        return f"tortoise:{self.player}"


@dataclass(frozen=True)
class Rock:
    """A rock: no shell may overlap it."""

    id: str
    shape: AreaShape
    extensions: Extensions = field(default_factory=dict, hash=False)


@dataclass(frozen=True)
class Lettuce:
    """A lettuce: a tortoise whose centre reaches it has won."""

    id: str
    position: Point
    extensions: Extensions = field(default_factory=dict, hash=False)

    @property
    def shape(self) -> Circle:
        """The leaf as drawn: a disc of 0.5 in radius."""
        return Circle(self.position, 0.5)


@dataclass(frozen=True)
class Scenario:
    """The race's numbers: inches a tortoise crawls a turn, its shell's radius, and how many
    turns apart the tortoises' races to their nearest lettuce may be before the start is
    unfair."""

    stride: float = 4.0
    shell: float = 0.75
    fair_turns: int = 0


Element = Union[Tortoise, Rock, Lettuce]


@dataclass(frozen=True)
class TortoiseDerbyArena:
    name: str
    bounds: Rect = Rect((0.0, 0.0), (24.0, 24.0))
    system: Literal["tortoise-derby"] = "tortoise-derby"
    format: str = FORMAT
    description: str | None = None
    author: str | None = None
    license: str | None = None
    tags: tuple[str, ...] = ()
    units: Units = Units()
    symmetry: Symmetry | None = None
    tortoises: tuple[Tortoise, ...] = ()
    rocks: tuple[Rock, ...] = ()
    lettuces: tuple[Lettuce, ...] = ()
    scenario: Scenario = Scenario()
    extensions: Extensions = field(default_factory=dict, hash=False)

    @property
    def players(self) -> int:
        return len(self.tortoises)

    def elements(self) -> tuple[Element, ...]:
        return (*self.tortoises, *self.rocks, *self.lettuces)

    def element(self, ref: str) -> Element:
        """An element by id (a tortoise by ``tortoise:N``); raises ``KeyError``."""
        for el in self.elements():
            if el.id == ref:
                return el
        raise KeyError(ref)

    def element_shape(self, el: Element) -> AreaShape:
        """What the shared renderer draws for an element without a ``shape``: a tortoise's
        shell."""
        if isinstance(el, Tortoise):
            return Circle(el.position, self.scenario.shell)
        return el.shape


# ------------------------------------------------------------------ document <-> model


def _pt(v: Any) -> Point:
    return (float(v[0]), float(v[1]))


def from_document(doc: Doc) -> TortoiseDerbyArena:
    """The model of a document that passed the game's schema (defaults filled)."""
    g = doc.get
    sy = g("symmetry")
    symmetry = None if sy is None else Symmetry(kind=sy["kind"], order=int(sy.get("order", 1)),
                                                center=_pt(sy.get("center", [0, 0])), axis=float(sy.get("axis", 90.0)))
    sc = g("scenario", {})
    return TortoiseDerbyArena(
        format=doc["format"], system=doc["system"], name=doc["name"], description=g("description"),
        author=g("author"), license=g("license"), tags=tuple(g("tags", ())),
        units=Units(printed_mm=float(g("units", {}).get("printed_mm", 25.4))),
        bounds=cast(Rect, shape_from(doc["bounds"])) if "bounds" in doc else Rect((0.0, 0.0), (24.0, 24.0)),
        symmetry=symmetry,
        tortoises=tuple(Tortoise(int(t["player"]), _pt(t["position"]), float(t.get("facing", 0.0)), extensions_of(t))
                        for t in g("tortoises", ())),
        rocks=tuple(Rock(r["id"], cast(AreaShape, shape_from(r["shape"])), extensions_of(r)) for r in g("rocks", ())),
        lettuces=tuple(Lettuce(le["id"], _pt(le["position"]), extensions_of(le)) for le in g("lettuces", ())),
        scenario=Scenario(stride=float(sc.get("stride", 4.0)), shell=float(sc.get("shell", 0.75)),
                          fair_turns=int(sc.get("fair_turns", 0))),
        extensions=extensions_of(doc),
    )


def to_document(a: TortoiseDerbyArena) -> Doc:
    """The canonical document (``from_document(to_document(a)) == a``)."""
    doc: Doc = header_document(a)
    doc["units"] = {"name": a.units.name, "symbol": a.units.symbol, "printed_mm": num(a.units.printed_mm)}
    doc["bounds"] = shape_doc(a.bounds)
    if a.symmetry is not None:
        sy = a.symmetry
        doc["symmetry"] = {"kind": sy.kind, "order": sy.order, "center": point_doc(sy.center), "axis": num(sy.axis)}
    doc["tortoises"] = [with_extensions({"player": t.player, "position": point_doc(t.position), "facing": num(t.facing)},
                                        t.extensions) for t in a.tortoises]
    doc["rocks"] = [with_extensions({"id": r.id, "shape": shape_doc(r.shape)}, r.extensions) for r in a.rocks]
    doc["lettuces"] = [with_extensions({"id": le.id, "position": point_doc(le.position)}, le.extensions)
                       for le in a.lettuces]
    sc = a.scenario
    doc["scenario"] = {"stride": num(sc.stride), "shell": num(sc.shell), "fair_turns": sc.fair_turns}
    return with_extensions(doc, a.extensions)


def default_arena() -> TortoiseDerbyArena:
    """File -> New: a 24 in paddock, the two tortoises on opposite sides facing the lettuce in
    the middle, a rock on each side of the straight line, and a half-turn symmetry to keep."""
    return TortoiseDerbyArena(
        name="New Tortoise Derby paddock",
        symmetry=Symmetry(kind="rotational", order=2, center=(0.0, 0.0)),
        tortoises=(Tortoise(1, (-10.0, 0.0), 0.0), Tortoise(2, (10.0, 0.0), 180.0)),
        rocks=(Rock("R1", Circle((-4.0, 3.0), 1.5)), Rock("R2", Circle((4.0, -3.0), 1.5))),
        lettuces=(Lettuce("L1", (0.0, 0.0)),),
    )


def semantic_problems(doc: Any) -> list[tuple[str, str]]:
    """What the JSON Schema cannot say: ids unique across rocks and lettuces, one tortoise per
    player, simple polygons (the studio's shared checks)."""
    out: list[tuple[str, str]] = list(element_problems(doc, ("rocks", "lettuces")))
    seen: set[Any] = set()
    for i, t in enumerate(doc.get("tortoises") or () if isinstance(doc, dict) else ()):
        if isinstance(t, dict):
            if t.get("player") in seen:
                out.append((f"/tortoises/{i}/player", f"player {t.get('player')} has two tortoises; one each"))
            seen.add(t.get("player"))
    return out


def _items(key: str) -> str:
    return f"/properties/{key}/items"


# Okabe-Ito colours (colour-blind safe), one fill per kind.
KINDS: tuple[ElementKind, ...] = (
    ElementKind("rocks", "Rock", _items("rocks"), "shape", Style("#999999", "#1A1A1A", 0.9, 0.5, "id", 10),
                {"tiled": "object", "geojson": "object", "uvtt": "wall", "foundry": "wall", "svg": "object"},
                solid=True),
    ElementKind("lettuces", "Lettuce", _items("lettuces"), "point", Style("#009E73", "#1A1A1A", 1.0, 0.4, "id", 20)),
    ElementKind("tortoises", "Tortoise", _items("tortoises"), "pose", Style("#E69F00", "#1A1A1A", 1.0, 0.5, "player", 30)),
)

def export_profile() -> ExportProfile:
    """The game's export profile (:mod:`tortoise_derby.exports`), imported when an export asks."""
    from tortoise_derby.exports import profile

    return profile()



RULESET = Ruleset(
    id=SYSTEM,
    game="Tortoise Derby",
    edition="1",
    book="none (Arena Studio's plug-in example)",
    units=RulesetUnits("inch", "in", 25.4),
    schema="tortoise_derby:tortoise-derby.schema.json",
    kinds=KINDS,
    build=from_document,
    document=documenter(TortoiseDerbyArena, to_document),
    default_arena=default_arena,
    semantic=semantic_problems,
    exports=export_profile,
)
