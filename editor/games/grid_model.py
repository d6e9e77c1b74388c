"""Qt-free edits of grid arenas (Glider-Pit Gladiators' pit, the Mothership battlefield): paint
and erase cells, label a row, assign cells to a launch zone, a Mothership or its build
squares, and the cells symmetry mode adds to a stroke.

Every edit is made on the arena's document and checked against the game's JSON Schema
(:func:`editor.games.model.build`), as the other games' edits are.

>>> from schema.games.gliderpit import default_arena
>>> a = default_arena()
>>> b = paint(a, [(10, 0)])
>>> len(b.cells) - len(a.cells), len(erase(b, [(10, 0)]).cells) == len(a.cells)
(1, True)
>>> label_row(a, 9, 3).rows[0].label
3
>>> [z.cells[-1] for z in assign_zone(a, "Z1", [(-8, 8)]).launch_zones][:1]
[(-8, 8)]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from editor.games import model as G
from engine.grids import HexLayout, symmetry_transforms

Cell = tuple[int, int]
PIT = "glider-pit-gladiators"
FIELD = "mothership-grid"


def _cells(doc: dict[str, Any]) -> str:
    return "cells" if "cells" in doc and doc.get("system") == PIT else "squares"


def _key(c: Iterable[int]) -> list[int]:
    return [int(v) for v in c]


def _build(arena: Any, doc: dict[str, Any]) -> Any:
    return G.build(G.ruleset(arena), doc)


def paint(arena: Any, cells: Iterable[Cell]) -> Any:
    """``cells`` added to the pit (or the battlefield), each once, in stroke order."""
    doc = G.document(arena)
    key = _cells(doc)
    have = {tuple(c) for c in doc[key]}
    for c in cells:
        if tuple(c) not in have:
            have.add(tuple(c))
            doc[key].append(_key(c))
    return _build(arena, doc)


def erase(arena: Any, cells: Iterable[Cell]) -> Any:
    """``cells`` removed from the pit (or the battlefield and the Motherships) and from every
    launch zone or build-square list that held them."""
    gone = {tuple(c) for c in cells}
    doc = G.document(arena)
    key = _cells(doc)
    doc[key] = [c for c in doc[key] if tuple(c) not in gone]
    for z in doc.get("launch_zones", []):
        z["cells"] = [c for c in z["cells"] if tuple(c) not in gone]
    for m in doc.get("motherships", []):
        m["squares"] = [c for c in m["squares"] if tuple(c) not in gone]
        m["build_squares"] = [c for c in m["build_squares"] if tuple(c) not in gone]
    return _build(arena, doc)


def row_ref(arena: Any, line: int) -> str | None:
    """The id of the row labelling grid line ``line`` (None when unlabelled)."""
    return next((r.id for r in arena.rows if r.line == line), None)


def label_row(arena: Any, line: int, label: int) -> Any:
    """Grid line ``line``'s row numbered ``label`` (a 2d6 total); a new row when the line has
    none yet."""
    doc = G.document(arena)
    for row in doc["rows"]:
        if row["line"] == line:
            row["label"] = int(label)
            return _build(arena, doc)
    doc["rows"].append({"id": G.next_id(arena, "rows"), "line": int(line), "label": int(label), "current": "any"})
    doc["rows"].sort(key=lambda r: -r["line"])
    return _build(arena, doc)


def new_zone_id(arena: Any) -> str:
    used = {el.id for el in arena.elements()}
    n = 1
    while f"Z{n}" in used:
        n += 1
    return f"Z{n}"


def assign_zone(arena: Any, zone: str, cells: Sequence[Cell]) -> Any:
    """``cells`` (pit hexes only) appended to launch zone ``zone`` in stroke order and taken
    from any other zone; a new zone (the next free Airspeed Track) when ``zone`` is not one."""
    inside = set(arena.cells)
    add = [tuple(c) for c in cells if tuple(c) in inside]
    doc = G.document(arena)
    taken = set(add)
    for z in doc["launch_zones"]:
        z["cells"] = [c for c in z["cells"] if tuple(c) not in taken or z["id"] == zone]
    target = next((z for z in doc["launch_zones"] if z["id"] == zone), None)
    if target is None:
        tracks = {z["track"] for z in doc["launch_zones"]}
        track = next((t for t in range(1, 7) if t not in tracks), 6)
        target = {"id": zone, "track": track, "cells": []}
        doc["launch_zones"].append(target)
    have = {tuple(c) for c in target["cells"]}
    target["cells"] += [_key(c) for c in add if c not in have]
    doc["launch_zones"] = [z for z in doc["launch_zones"] if z["cells"]]
    return _build(arena, doc)


def assign_zone_with_images(arena: Any, zone: str, cells: Sequence[Cell]) -> Any:
    """A launch-zone stroke in symmetry mode: ``cells`` go to ``zone`` and, for each symmetry
    operation, their images go to the zone that already holds most of those images (the zone
    the designer mirrored before), else to a new zone on the next free Airspeed Track.  Images
    that are the stroke's own hexes stay in ``zone``."""
    own = {tuple(c) for c in cells}
    groups: dict[int, list[Cell]] = {}
    for img, op in images(arena, cells):
        if img not in own:
            groups.setdefault(op, []).append(img)
    arena = assign_zone(arena, zone, cells)
    for op in sorted(groups):
        imgs = groups[op]
        holders = Counter(z.id for z in arena.launch_zones if z.id != zone for c in z.cells if tuple(c) in imgs)
        target = holders.most_common(1)[0][0] if holders else new_zone_id(arena)
        arena = assign_zone(arena, target, imgs)
    return arena


def unassign(arena: Any, cells: Iterable[Cell]) -> Any:
    """``cells`` taken out of every launch zone, Mothership and build-square list (they stay
    on the grid)."""
    gone = {tuple(c) for c in cells}
    doc = G.document(arena)
    if "launch_zones" in doc:
        for z in doc["launch_zones"]:
            z["cells"] = [c for c in z["cells"] if tuple(c) not in gone]
        doc["launch_zones"] = [z for z in doc["launch_zones"] if z["cells"]]
    for m in doc.get("motherships", []):
        m["squares"] = [c for c in m["squares"] if tuple(c) not in gone]
        m["build_squares"] = [c for c in m["build_squares"] if tuple(c) not in gone]
    return _build(arena, doc)


def assign_mothership(arena: Any, player: int, cells: Sequence[Cell], build: bool = False) -> Any:
    """``cells`` made player ``player``'s Mothership squares (outside the battlefield) or, with
    ``build``, its build squares (on the battlefield); a Mothership ``M<player>`` is made when
    the player has none.  Other players lose those cells."""
    field = set(arena.squares)
    add = [tuple(c) for c in cells if (tuple(c) in field) == build]
    doc = G.document(arena)
    part = "build_squares" if build else "squares"
    taken = set(add)
    for m in doc["motherships"]:
        if m["player"] != player:
            m[part] = [c for c in m[part] if tuple(c) not in taken]
    target = next((m for m in doc["motherships"] if m["player"] == player), None)
    if target is None:
        target = {"id": f"M{player}", "player": player, "squares": [], "build_squares": [], "hp": 5}
        doc["motherships"].append(target)
    have = {tuple(c) for c in target[part]}
    target[part] += [_key(c) for c in add if c not in have]
    if not build:
        doc["squares"] = [c for c in doc["squares"] if tuple(c) not in taken]
    doc["motherships"] = [m for m in doc["motherships"] if m["squares"] or m["build_squares"]]
    return _build(arena, doc)


# ------------------------------------------------------------------ symmetry


def images(arena: Any, cells: Iterable[Cell]) -> list[tuple[Cell, int]]:
    """(image cell, which symmetry operation, 1-based) of each cell under the arena's declared
    symmetry: the pit's rotations/reflections about the centroid of its hexes, the
    battlefield's mirror (or half turn) onto the other player's half.  Images that fall between
    cells are left out."""
    sym = arena.symmetry
    if sym is None:
        return []
    out: list[tuple[Cell, int]] = []
    if arena.system == PIT:
        lay = HexLayout(arena.orientation)
        if not arena.cells:
            return []
        maps = symmetry_transforms(sym.kind, sym.order, lay.centroid(arena.cells), sym.axis)
        for c in cells:
            for i, f in enumerate(maps, start=1):
                img = lay.image(c, f)
                if img is not None and img != c:
                    out.append((img, i))
        return out
    from engine.mothership.battlefield import battlefield_of

    bf = battlefield_of(arena)
    if not bf.squares:
        return []
    for c in cells:
        img = bf.mirror(c, sym.kind)
        if img != c:
            out.append((img, 1))
    return out


def with_images(arena: Any, cells: Sequence[Cell]) -> list[Cell]:
    """``cells`` followed by their symmetry images (each cell once)."""
    out = list(dict.fromkeys(tuple(c) for c in cells))
    seen = set(out)
    for img, _ in images(arena, out):
        if img not in seen:
            seen.add(img)
            out.append(img)
    return out


def other_player(arena: Any, player: int) -> int:
    """The player whose half a mirrored Mothership edit lands in (two players: the other)."""
    players = sorted({m.player for m in arena.motherships} | {1, 2})
    others = [p for p in players if p != player]
    return others[0] if others else player


__all__ = ["assign_mothership", "assign_zone", "erase", "images", "label_row", "new_zone_id", "other_player",
           "paint", "row_ref", "unassign", "with_images"]
