"""The catalogue of pieces ``arena generate --system arena-rex`` places: round pits (lethal
hazards), strips of spikes (wounding hazards) and the terrain hazards - round columns, straight
walls and heaps of rubble - with their sizes in inches and how many.  A YAML or JSON file
checked against ``catalogue.schema.json``; every problem names the file, line, column and JSON
pointer.  The default catalogue ships as ``catalogue.yaml`` beside this module.

>>> cat = load_catalogue(None)
>>> [(p.radius, p.count) for p in cat.pits], [(s.length, s.width, s.count) for s in cat.spikes]
([(2.0, 2)], [(4.0, 1.0, 2)])
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from schema.errors import ArenaError
from schema.sidefile import load_catalogue_of, package_json

FORMAT = "arena-rex/1"
BOOK_BOARD = "Your board should have at least two pits and a good mix of spikes and hazards."


@dataclass(frozen=True)
class Round:
    """A round piece: ``radius`` inches, ``count`` of them on the board."""

    radius: float
    count: int


@dataclass(frozen=True)
class Strip:
    """A straight piece: ``length`` × ``width`` inches, ``count`` of them on the board."""

    length: float
    width: float
    count: int


@dataclass(frozen=True)
class Catalogue:
    """Totals for the whole board (the generator rounds them to whole orbits of the symmetry)."""

    name: str
    source: str
    pits: tuple[Round, ...]
    spikes: tuple[Strip, ...]
    columns: tuple[Round, ...]
    walls: tuple[Strip, ...]
    rubble: tuple[Round, ...]

    def pieces(self) -> int:
        rounds = (*self.pits, *self.columns, *self.rubble)
        strips = (*self.spikes, *self.walls)
        return sum(p.count for p in rounds) + sum(s.count for s in strips)


def catalogue_schema() -> dict[str, Any]:
    return package_json("engine.arenarex", "catalogue.schema.json")


def load_catalogue(path: str | os.PathLike[str] | None) -> Catalogue:
    """The catalogue in ``path`` (None: the default one); :class:`ArenaError` with located
    problems when it is not a valid catalogue."""
    return load_catalogue_of(path, "engine.arenarex", _build, semantic)


def _rounds(items: list[dict[str, Any]]) -> tuple[Round, ...]:
    return tuple(Round(float(p["radius"]), int(p["count"])) for p in items)


def _strips(items: list[dict[str, Any]]) -> tuple[Strip, ...]:
    return tuple(Strip(float(s["length"]), float(s.get("width", 1.0)), int(s["count"])) for s in items)


def _build(doc: dict[str, Any], source: str) -> Catalogue:
    return Catalogue(name=str(doc.get("name", "catalogue")), source=source, pits=_rounds(doc.get("pits", [])),
                     spikes=_strips(doc.get("spikes", [])), columns=_rounds(doc.get("columns", [])),
                     walls=_strips(doc.get("walls", [])), rubble=_rounds(doc.get("rubble", [])))


#: Most pieces a catalogue may ask for (a board holds no more with room to walk between them).
MAX_PIECES = 40


def semantic(cat: Catalogue) -> list[tuple[str, str]]:
    """What the schema cannot say, as ``(pointer, message)`` pairs: the book's "at least two pits
    and a good mix of spikes and hazards" (a catalogue that cannot give a board that passes
    ``ar-pits`` and ``ar-hazard-mix``), strips longer than wide, and not too many pieces."""
    found: list[tuple[str, str]] = []
    for key in ("spikes", "walls"):
        for i, s in enumerate(getattr(cat, key)):
            if s.width > s.length:
                found.append((f"/{key}/{i}/width", f"a strip {s.width:g} in wide and {s.length:g} in long: the length is "
                              "the longer side"))
    if sum(p.count for p in cat.pits) < 2:
        found.append(("/pits", f"fewer than two pits: \"{BOOK_BOARD}\""))
    if not sum(s.count for s in cat.spikes):
        found.append(("/spikes", f"no spikes: \"{BOOK_BOARD}\""))
    if not sum(h.count for h in (*cat.columns, *cat.rubble)) + sum(w.count for w in cat.walls):
        found.append(("", f"no terrain hazards (columns, walls or rubble): \"{BOOK_BOARD}\""))
    if cat.pieces() > MAX_PIECES:
        found.append(("", f"{cat.pieces()} pieces in all; the generator places at most {MAX_PIECES}"))
    return found


__all__ = ["ArenaError", "Catalogue", "Round", "Strip", "catalogue_schema", "load_catalogue"]
