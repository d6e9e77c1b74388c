"""The Mothership card game's battlefield (``system: mothership-grid``): a square grid.

"The Battlefield (or BF) is 3 x 5 squares." "On the shorter side there is your Mothership (your
Base) ... The Mothership is NOT considered part of the Battlefield." "The 3 squares of the
Mothership share a common of 5 HP." "Your own Units will be constructed only in the three
squares near your own Mothership."

Squares are ``(x, y)``: column x to the right, row y up, battlefield squares from (0, 0).  A
Mothership's squares lie outside the battlefield, along a short side.

>>> arena = default_arena()
>>> len(arena.squares), [m.squares for m in arena.motherships][0], arena.motherships[1].build_squares
(15, ((0, -1), (1, -1), (2, -1)), ((0, 4), (1, 4), (2, 4)))
>>> from_document(to_document(arena)) == arena
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from schema.checks import element_problems
from schema.ruleset import FORMAT
from schema.shapes import Extensions
from schema.document import extensions_of, header_document, num, with_extensions
from schema.ruleset import ElementKind, Ruleset, Style, documenter
from schema.ruleset import Units as RulesetUnits

if TYPE_CHECKING:  # loaded by _exports() when asked for
    from schema.formats.systems import ExportProfile

SYSTEM = "mothership-grid"

Square = tuple[int, int]
Doc = dict[str, Any]


@dataclass(frozen=True)
class Units:
    """Printed size: ``square_mm`` millimetres per square side (the book gives none; 90 mm
    holds a standard 63 x 88 mm card upright or turned 90 degrees, as transforming Units
    are)."""

    square_mm: float = 90.0

    @property
    def printed_mm(self) -> float:
        """Millimetres one coordinate unit (a square's side) is printed 1:1."""
        return self.square_mm


@dataclass(frozen=True)
class Mothership:
    """A player's Mothership: three squares outside the battlefield sharing ``hp`` hit
    points, and the battlefield squares where that player builds Units."""

    id: str
    player: int
    squares: tuple[Square, ...]
    build_squares: tuple[Square, ...] = ()
    hp: int = 5
    extensions: Extensions = field(default_factory=dict, hash=False)


@dataclass(frozen=True)
class Symmetry:
    """How the two players' halves should match: ``mirror`` across the middle between the two
    short sides, or ``rotational`` (a half turn about the centre)."""

    kind: Literal["mirror", "rotational"] = "mirror"


@dataclass(frozen=True)
class Analysis:
    approach_tolerance: int = 0
    disabled: tuple[str, ...] = ()


@dataclass(frozen=True)
class Scenario:
    """``size``: the battlefield's (short side, long side) in squares — the book's 3 x 5
    unless the scenario says otherwise."""

    size: tuple[int, int] = (3, 5)
    analysis: Analysis = Analysis()


@dataclass(frozen=True)
class MothershipArena:
    name: str
    squares: tuple[Square, ...]
    motherships: tuple[Mothership, ...] = ()
    system: Literal["mothership-grid"] = "mothership-grid"
    format: str = FORMAT
    description: str | None = None
    author: str | None = None
    license: str | None = None
    tags: tuple[str, ...] = ()
    units: Units = Units()
    symmetry: Symmetry | None = None
    scenario: Scenario = Scenario()
    extensions: Extensions = field(default_factory=dict, hash=False)

    def elements(self) -> tuple[Mothership, ...]:
        return self.motherships

    def element(self, ref: str) -> Mothership:
        for m in self.motherships:
            if m.id == ref:
                return m
        raise KeyError(ref)

    def mothership(self, player: int) -> Mothership:
        for m in self.motherships:
            if m.player == player:
                return m
        raise KeyError(f"player {player}")


# ------------------------------------------------------------------ document <-> model



def _sq(v: Any) -> Square:
    return (int(v[0]), int(v[1]))



def from_document(doc: Doc) -> MothershipArena:
    """The model of a document that passed ``mothership-grid.schema.json``."""
    g = doc.get
    sc = g("scenario", {})
    an = sc.get("analysis", {})
    size = sc.get("size", [3, 5])
    sy = g("symmetry")
    return MothershipArena(
        format=doc["format"],
        system=doc["system"],
        name=doc["name"],
        description=g("description"),
        author=g("author"),
        license=g("license"),
        tags=tuple(g("tags", ())),
        units=Units(square_mm=float(g("units", {}).get("square_mm", Units.square_mm))),
        symmetry=None if sy is None else Symmetry(kind=sy.get("kind", "mirror")),
        squares=tuple(_sq(s) for s in g("squares", ())),
        motherships=tuple(
            Mothership(id=m["id"], player=int(m["player"]), squares=tuple(_sq(s) for s in m["squares"]),
                       build_squares=tuple(_sq(s) for s in m.get("build_squares", ())), hp=int(m.get("hp", 5)),
                       extensions=extensions_of(m))
            for m in g("motherships", ())),
        scenario=Scenario(size=(int(size[0]), int(size[1])),
                          analysis=Analysis(approach_tolerance=int(an.get("approach_tolerance", 0)),
                                            disabled=tuple(an.get("disabled", ())))),
        extensions=extensions_of(doc),
    )



def to_document(a: MothershipArena) -> Doc:
    """The canonical document: every field in schema order, defaults included."""
    doc: Doc = header_document(a)
    doc["units"] = {"square_mm": num(a.units.square_mm)}
    doc["grid"] = {"shape": "square"}
    if a.symmetry is not None:
        doc["symmetry"] = {"kind": a.symmetry.kind}
    doc["squares"] = [[x, y] for x, y in a.squares]
    doc["motherships"] = [
        with_extensions({"id": m.id, "player": m.player, "squares": [[x, y] for x, y in m.squares],
                   "build_squares": [[x, y] for x, y in m.build_squares], "hp": m.hp}, m.extensions)
        for m in a.motherships]
    doc["scenario"] = {"size": list(a.scenario.size),
                       "analysis": {"approach_tolerance": a.scenario.analysis.approach_tolerance,
                                    "disabled": list(a.scenario.analysis.disabled)}}
    return with_extensions(doc, a.extensions)


def default_arena() -> MothershipArena:
    """The book's battlefield: 3 x 5 squares, player 1's Mothership below the bottom short
    side, player 2's above the top one, each building in the row next to it."""
    w, h = 3, 5
    return MothershipArena(
        name="Battlefield 3 x 5",
        description="The book's battlefield: 3 x 5 squares with a Mothership on each short side.",
        squares=tuple((x, y) for y in range(h) for x in range(w)),
        motherships=(
            Mothership(id="M1", player=1, squares=tuple((x, -1) for x in range(w)),
                       build_squares=tuple((x, 0) for x in range(w))),
            Mothership(id="M2", player=2, squares=tuple((x, h) for x in range(w)),
                       build_squares=tuple((x, h - 1) for x in range(w))),
        ),
        symmetry=Symmetry("mirror"),
    )


# ------------------------------------------------------------------ the ruleset


def semantic_problems(doc: Any) -> list[tuple[str, str]]:
    """Mothership ids unique; finite numbers and real Unicode."""
    return element_problems(doc, ("motherships",))


def _exports() -> ExportProfile:
    """The game's export profile (:mod:`schema.games.mothership.exports`), imported when an export
    or an import asks for it."""
    from schema.games.mothership.exports import EXPORTS

    return EXPORTS


RULESET = Ruleset(
    id=SYSTEM,
    game="Mothership grid game (unnamed mech card game)",
    edition="as in the book",
    book="003_07d353598ccfefe1.txt",
    units=RulesetUnits("square", "sq", Units().square_mm),
    schema="schema.games.mothership:mothership-grid.schema.json",
    kinds=(
        ElementKind("squares", "Battlefield square", "/properties/squares/items", "cell",
                    Style("#FBFAF5", "#3B3B3B", 1.0, 0.3, None, 0),
                    {"tiled": "region", "geojson": "region", "uvtt": "omit", "foundry": "region", "svg": "region"}),
        ElementKind("motherships", "Mothership", "/properties/motherships/items", "cells",
                    Style("#0072B2", "#1A1A1A", 0.7, 0.5, "player", 20),
                    {"tiled": "object", "geojson": "object", "uvtt": "omit", "foundry": "region", "svg": "object"}),
    ),
    build=from_document,
    document=documenter(MothershipArena, to_document),
    default_arena=default_arena,
    exports=_exports,
    semantic=semantic_problems,
    grid="square",
)
