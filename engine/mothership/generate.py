"""Generated Mothership battlefields (``arena generate --system mothership-grid``): the catalogue,
the plan, genomes and the battlefield a genome builds.  Pure; the search is
:mod:`validators.generate`.

The book leaves almost nothing to draw: "The Battlefield (or BF) is 3 x 5 squares." (L1), no
terrain (units are the only obstacles), "On the shorter side there is your Mothership" (L6),
whose "3 squares ... share a common of 5 HP" (L7), and "Your own Units will be constructed only
in the three squares near your own Mothership" (L14).  So a battlefield is a board variant from
the catalogue (``--table SHORTxLONG``; the book's 3 x 5 by default), laid with its long side
vertical or horizontal, each Mothership outside the middle of a short side - player 1's on the
south (west) side or the north (east) one -, its build squares the row next to it.  Two players
("your Mothership", "enemy Mothership", L6-L8).  Both a mirror across the middle and a half turn
map the halves; the plan records the one asked for (default mirror).

>>> import numpy as np
>>> plan = make_plan(load_catalogue(None))
>>> arena = build(plan, Genome("vertical", False), seed=0)
>>> len(arena.squares), [m.squares for m in arena.motherships]
(15, [((0, -1), (1, -1), (2, -1)), ((0, 5), (1, 5), (2, 5))])
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.grids import Square
from schema.games.mothership import Mothership, MothershipArena, Scenario, Symmetry, Units
from schema.sidefile import load_catalogue_of

__all__ = ["Catalogue", "GenerateError", "Genome", "Plan", "build", "fresh", "load_catalogue", "make_plan", "vary"]

#: The Mothership's squares along its short side ("The 3 squares of the Mothership", L7).
SHIP = 3


class GenerateError(ValueError):
    """Parameters the generator cannot honour (the message says which and why)."""


@dataclass(frozen=True)
class Catalogue:
    name: str
    source: str
    boards: tuple[tuple[int, int], ...]
    orientations: tuple[str, ...]
    hp: int
    square_mm: float


def load_catalogue(path: str | os.PathLike[str] | None) -> Catalogue:
    """The catalogue in ``path`` (None: the default one); :class:`schema.ArenaError` with
    located problems when it is not a valid catalogue."""
    return load_catalogue_of(path, "engine.mothership", _build, _semantic)


def _build(doc: dict[str, Any], source: str) -> Catalogue:
    return Catalogue(name=str(doc.get("name", "catalogue")), source=source,
                     boards=tuple((int(b[0]), int(b[1])) for b in doc.get("boards", [[3, 5]])),
                     orientations=tuple(doc.get("orientations", ["vertical", "horizontal"])),
                     hp=int(doc.get("hp", 5)), square_mm=float(doc.get("square_mm", 90.0)))


def _semantic(cat: Catalogue) -> list[tuple[str, str]]:
    """What the schema cannot say about the boards: ``(pointer, message)`` pairs."""
    return [(f"/boards/{i}", f"a {s} x {l} board: the short side is given first and is at most the long side"
             if s > l else f"a {s} x {l} board: the short side must be odd to put the three-square Mothership in "
             "its middle") for i, (s, l) in enumerate(cat.boards) if s > l or s % 2 == 0]


@dataclass(frozen=True)
class Plan:
    catalogue: Catalogue
    board: tuple[int, int]
    kind: str

    @property
    def symmetry(self) -> str:
        return self.kind


def make_plan(cat: Catalogue, *, players: int = 2, symmetry: str | None = None, size: float | None = None,
              table: str | None = None) -> Plan:
    """The plan: two players, the board ``table`` (``SHORTxLONG``, one of the catalogue's;
    default its first), ``mirror`` or ``rotational`` symmetry."""
    if players != 2:
        raise GenerateError(f"{players} players: the battlefield is for two (\"your Mothership\" on one short side, the "
                            "\"enemy Mothership\" on the other)")
    kind = {"mirror": "mirror", None: "mirror", "rotational": "rotational", "rotational:2": "rotational"}.get(symmetry)
    if kind is None:
        raise GenerateError(f"symmetry {symmetry!r}: the battlefield's halves match by 'mirror' or a half turn "
                            "('rotational:2')")
    if size is not None:
        raise GenerateError("--size is for free tables; choose a board with --table SHORTxLONG (e.g. 3x5)")
    board = cat.boards[0]
    if table is not None:
        try:
            s, l = (int(v) for v in table.lower().split("x"))
        except ValueError:
            raise GenerateError(f"--table {table!r}: give the board as SHORTxLONG, e.g. 3x5") from None
        if (s, l) not in cat.boards:
            have = ", ".join(f"{a}x{b}" for a, b in cat.boards)
            raise GenerateError(f"--table {table}: the catalogue's boards are {have}")
        board = (s, l)
    return Plan(cat, board, kind)


@dataclass(frozen=True)
class Genome:
    """How the long side lies (``vertical`` or ``horizontal``) and whether player 1 takes the
    north (east) side rather than the south (west)."""

    orientation: str
    player1_high: bool


def fresh(plan: Plan, rng: np.random.Generator) -> Genome:
    ways = plan.catalogue.orientations
    return Genome(str(ways[int(rng.integers(len(ways)))]), bool(rng.random() < 0.5))


def vary(plan: Plan, genome: Genome, rng: np.random.Generator) -> Genome:
    if rng.random() < 0.5 and len(plan.catalogue.orientations) > 1:
        other = [w for w in plan.catalogue.orientations if w != genome.orientation]
        return Genome(other[0], genome.player1_high)
    return Genome(genome.orientation, not genome.player1_high)


def build(plan: Plan, genome: Genome, *, seed: int, name: str | None = None) -> MothershipArena:
    short, long = plan.board
    vertical = genome.orientation == "vertical"
    w, h = (short, long) if vertical else (long, short)
    squares = tuple((x, y) for y in range(h) for x in range(w))
    lo = (short - SHIP) // 2
    span = range(lo, lo + SHIP)

    def ship(high: bool) -> tuple[tuple[Square, ...], tuple[Square, ...]]:
        if vertical:
            y, row = (h, h - 1) if high else (-1, 0)
            return tuple((x, y) for x in span), tuple((x, row) for x in span)
        x, col = (w, w - 1) if high else (-1, 0)
        return tuple((x, y) for y in span), tuple((col, y) for y in span)

    ships = []
    for player, high in ((1, genome.player1_high), (2, not genome.player1_high)):
        sq, build_sq = ship(high)
        ships.append(Mothership(f"M{player}", player, sq, build_sq, plan.catalogue.hp))
    cat = plan.catalogue
    return MothershipArena(
        name=name or f"Generated battlefield {short} x {long} (seed {seed})",
        description=(f"Generated by arena generate: a {short} x {long} battlefield laid {genome.orientation}, "
                     f"{plan.kind} symmetry, seed {seed}, from the catalogue {cat.name!r}."),
        author="Arena Studio generator", tags=("mothership-grid", "generated", "2-player", "symmetric"),
        squares=squares, motherships=tuple(ships), units=Units(square_mm=cat.square_mm),
        symmetry=Symmetry(plan.kind), scenario=Scenario(size=(short, long)))  # type: ignore[arg-type]
