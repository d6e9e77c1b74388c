"""The catalogue of pieces ``arena generate`` places for Gravstrike: walls (bars) with their
lengths and thicknesses, pillars, and how many checkpoints, acceleration fields, exclusion
fields and static targets.  A YAML or JSON file checked against ``catalogue.schema.json``; every
problem names the file, line, column and JSON pointer.  The default catalogue ships as
``catalogue.yaml`` beside this module.

>>> cat = load_catalogue(None)
>>> cat.outlying, cat.central, [(w.length, w.count) for w in cat.walls]
(4, 1, [(3.2, 4), (2.0, 4)])
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from schema.errors import ArenaError
from schema.sidefile import load_catalogue_of, package_json

FORMAT = "gravstrike/1"


@dataclass(frozen=True)
class Bar:
    """A straight wall: ``length`` × ``thickness`` lengths, ``count`` of them in the arena."""

    length: float
    thickness: float
    count: int


@dataclass(frozen=True)
class Pillar:
    radius: float
    count: int


@dataclass(frozen=True)
class Catalogue:
    """Totals for the whole arena (the generator rounds them to whole orbits of the symmetry)."""

    name: str
    source: str
    walls: tuple[Bar, ...]
    pillars: tuple[Pillar, ...]
    outlying: int
    central: int
    checkpoint_radius: float
    central_radius: float
    fields: int
    field_radius: float
    exclusions: int
    exclusion_radius: float
    exclusion_tier: int
    targets: int


def catalogue_schema() -> dict[str, Any]:
    return package_json("engine.gravstrike", "catalogue.schema.json")


def load_catalogue(path: str | os.PathLike[str] | None) -> Catalogue:
    """The catalogue in ``path`` (None: the default one); :class:`ArenaError` with located
    problems when it is not a valid catalogue."""
    return load_catalogue_of(path, "engine.gravstrike", _build, semantic)


def _build(doc: dict[str, Any], source: str) -> Catalogue:
    cps = doc.get("checkpoints", {})
    acc = doc.get("acceleration_fields", {})
    exc = doc.get("exclusion_fields", {})
    return Catalogue(
        name=str(doc.get("name", "catalogue")), source=source,
        walls=tuple(Bar(float(w["length"]), float(w.get("thickness", 0.6)), int(w["count"])) for w in doc.get("walls", [])),
        pillars=tuple(Pillar(float(p["radius"]), int(p["count"])) for p in doc.get("pillars", [])),
        outlying=int(cps.get("outlying", 4)), central=int(cps.get("central", 1)),
        checkpoint_radius=float(cps.get("radius", 0.9)), central_radius=float(cps.get("central_radius", 1.0)),
        fields=int(acc.get("count", 8)), field_radius=float(acc.get("radius", 0.75)),
        exclusions=int(exc.get("count", 0)), exclusion_radius=float(exc.get("radius", 1.5)),
        exclusion_tier=int(exc.get("active_from_tier", 3)),
        targets=int(doc.get("static_targets", {}).get("count", 4)))


#: Most pieces of all kinds a catalogue may ask for (the search gets slow past this).
MAX_PIECES = 96


def semantic(cat: Catalogue) -> list[tuple[str, str]]:
    """What the schema cannot say: ``(pointer, message)`` pairs."""
    found: list[tuple[str, str]] = []
    for i, w in enumerate(cat.walls):
        if w.thickness > w.length:
            found.append((f"/walls/{i}/thickness", f"a wall {w.thickness:g} thick and {w.length:g} long: the length is "
                          "the longer side; use a pillar for a round piece"))
    total = (sum(w.count for w in cat.walls) + sum(p.count for p in cat.pillars) + cat.outlying + cat.central
             + cat.fields + cat.exclusions + cat.targets)
    if total > MAX_PIECES:
        found.append(("", f"{total} pieces in all; the generator places at most {MAX_PIECES}"))
    if cat.outlying + cat.central == 0:
        found.append(("/checkpoints", "no checkpoints: a Gravstrike arena needs checkpoints to score"))
    return found


__all__ = ["ArenaError", "Bar", "Catalogue", "Pillar", "catalogue_schema", "load_catalogue"]
