"""The catalogue of pieces ``arena generate --system car-wars-6e`` places: walls with their
lengths and thicknesses, hazard cards, terrain rectangles with their level, barrel and barrier
tokens, and how many of the four numbered cards are checkpoints or triggers.  A YAML or JSON file
checked against ``catalogue.schema.json``; every problem names the file, line, column and JSON
pointer.  The default catalogue ships as ``catalogue.yaml`` beside this module.

>>> cat = load_catalogue(None)
>>> [(w.length, w.count) for w in cat.walls], cat.hazards, cat.checkpoints
([(8.0, 4)], 4, 4)
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from schema.errors import ArenaError
from schema.sidefile import load_catalogue_of, package_json

FORMAT = "car-wars-6e/1"


@dataclass(frozen=True)
class Bar:
    """A straight wall: ``length`` x ``thickness`` inches, ``count`` of them in the arena."""

    length: float
    thickness: float
    count: int


@dataclass(frozen=True)
class Patch:
    """A rectangle of terrain ``width`` x ``height`` inches at ``level``, ``count`` of them."""

    width: float
    height: float
    level: int
    count: int


@dataclass(frozen=True)
class Catalogue:
    """Totals for the whole arena (the generator rounds them to whole orbits of the symmetry)."""

    name: str
    source: str
    walls: tuple[Bar, ...]
    terrain: tuple[Patch, ...]
    hazards: int
    hazard_dice: int
    hazard_name: str
    hazard_effect: str | None
    barrels: int
    barriers: int
    checkpoints: int
    triggers: int


def catalogue_schema() -> dict[str, Any]:
    return package_json("engine.carwars", "catalogue.schema.json")


def load_catalogue(path: str | os.PathLike[str] | None) -> Catalogue:
    """The catalogue in ``path`` (None: the default one); :class:`ArenaError` with located
    problems when it is not a valid catalogue."""
    return load_catalogue_of(path, "engine.carwars", _build, semantic)


def _build(doc: dict[str, Any], source: str) -> Catalogue:
    hz, tk, cd = doc.get("hazards", {}), doc.get("tokens", {}), doc.get("cards", {})
    return Catalogue(
        name=str(doc.get("name", "catalogue")), source=source,
        walls=tuple(Bar(float(w["length"]), float(w.get("thickness", 1.5)), int(w["count"])) for w in doc.get("walls", [])),
        terrain=tuple(Patch(float(t["width"]), float(t["height"]), int(t.get("level", 1)), int(t["count"]))
                      for t in doc.get("terrain", [])),
        hazards=int(hz.get("count", 4)), hazard_dice=int(hz.get("dice", 2)), hazard_name=str(hz.get("name", "Clay")),
        hazard_effect=hz.get("effect"), barrels=int(tk.get("barrels", 2)), barriers=int(tk.get("barriers", 2)),
        checkpoints=int(cd.get("checkpoints", 4)), triggers=int(cd.get("triggers", 0)))


def semantic(cat: Catalogue) -> list[tuple[str, str]]:
    """What the schema cannot say: ``(pointer, message)`` pairs."""
    found: list[tuple[str, str]] = []
    for i, w in enumerate(cat.walls):
        if w.thickness > w.length:
            found.append((f"/walls/{i}/thickness", f"a wall {w.thickness:g} thick and {w.length:g} long: the length is "
                          "the longer side"))
    if cat.checkpoints + cat.triggers > 4:
        found.append(("/cards", f"{cat.checkpoints} checkpoints and {cat.triggers} triggers: \"There are also four cards "
                      "numbered 0 through 3.\""))
    if cat.checkpoints == 0:
        found.append(("/cards/checkpoints", "no checkpoints: the fairness checks measure the way to the checkpoint cards"))
    return found


__all__ = ["ArenaError", "Bar", "Catalogue", "Patch", "catalogue_schema", "load_catalogue"]
