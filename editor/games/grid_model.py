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
>>> [z.cells[0] for z in assign_zone(a, "Z1", [(-8, 8)]).launch_zones][:1]  # touches the first hex: in front
[(-8, 8)]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from editor.games import model as G
from engine.grids import HexLayout, hex_neighbours, symmetry_transforms

Cell = tuple[int, int]


def _cells(doc: dict[str, Any]) -> str:
    """The document's list of cells: a hex pit's ``cells``, a battlefield's ``squares``."""
    from schema.ruleset import ruleset

    return "cells" if "cells" in doc and ruleset(str(doc.get("system"))).grid == "hex" else "squares"


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
    """``cells`` (pit hexes only) added to launch zone ``zone`` in stroke order and taken from
    any other zone; a new zone (the next free Airspeed Track) when ``zone`` is not one.  A zone
    is a string of hexes along the wall: a hex touching the string's first hex and not its last
    goes in front, any other at the end."""
    inside = set(arena.cells)
    add: list[Cell] = [(int(c[0]), int(c[1])) for c in cells if tuple(c) in inside]
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
    string: list[Cell] = [(int(c[0]), int(c[1])) for c in target["cells"]]
    for c in add:
        if c in string:
            continue
        if len(string) > 1 and _touch(c, string[0]) and not _touch(c, string[-1]):
            string.insert(0, c)
        else:
            string.append(c)
    target["cells"] = [_key(c) for c in string]
    doc["launch_zones"] = [z for z in doc["launch_zones"] if z["cells"]]
    return _build(arena, doc)


def _touch(a: Cell, b: Cell) -> bool:
    return b in hex_neighbours(a)


def _zone_cells(arena: Any, zone: str) -> list[Cell]:
    z = next((z for z in arena.launch_zones if z.id == zone), None)
    return [] if z is None else [(int(c[0]), int(c[1])) for c in z.cells]


def assign_zone_with_images(arena: Any, zone: str, cells: Sequence[Cell]) -> Any:
    """A launch-zone stroke in symmetry mode: ``cells`` go to ``zone`` (:func:`assign_zone`)
    and, for each symmetry operation, the zone's image zone becomes the image of the zone, hex
    for hex in the same order along the wall (or the reverse order when the image zone ran the
    other way before).  The image zone is the zone that held most images of ``zone``'s hexes
    before the stroke (Z2 -> Z5 in the default pit), else the zone holding most images of the
    stroke's hexes, else a new zone on the next free Airspeed Track.  An image zone's hexes
    that were not images of the zone's hexes stay in it, after them; a zone that is its own
    image (it lies across the axis) takes the images into itself."""
    sym = arena.symmetry
    if sym is None:
        return assign_zone(arena, zone, cells)
    lay = HexLayout(arena.orientation)
    maps = symmetry_transforms(sym.kind, sym.order, lay.centroid(arena.cells), sym.axis) if arena.cells else []
    old = _zone_cells(arena, zone)
    before = arena
    arena = assign_zone(arena, zone, cells)
    new = _zone_cells(arena, zone)
    for f in maps:
        imgs = [i for i in (lay.image(c, f) for c in new) if i is not None]
        if not imgs:
            continue
        old_imgs = [i for i in (lay.image(c, f) for c in old) if i is not None]
        own = set(_zone_cells(arena, zone))
        if own & set(imgs):  # the zone is (partly) its own image: it takes the images itself
            arena = assign_zone(arena, zone, [i for i in imgs if i not in own])
            continue
        target = _holder(before, old_imgs, zone) or _holder(arena, imgs, zone)
        was = [c for c in _zone_cells(before, target) if c in imgs] if target else []
        if len(was) > 1 and imgs.index(was[0]) > imgs.index(was[-1]):
            imgs = imgs[::-1]  # the image zone runs the other way along the wall: keep its way
        extra = [c for c in _zone_cells(arena, target) if c not in imgs and c not in old_imgs] if target else []
        arena = _set_zone(arena, target or new_zone_id(arena), [*imgs, *extra])
    return arena


def _holder(arena: Any, cells: Sequence[Cell], besides: str) -> str | None:
    """The zone other than ``besides`` holding most of ``cells`` (None when none holds any)."""
    want = set(cells)
    holders = Counter(z.id for z in arena.launch_zones if z.id != besides for c in z.cells if tuple(c) in want)
    return str(holders.most_common(1)[0][0]) if holders else None


def _set_zone(arena: Any, zone: str, cells: Sequence[Cell]) -> Any:
    """Launch zone ``zone`` holding exactly ``cells`` in this order (taken from other zones;
    a new zone on the next free Airspeed Track when missing)."""
    inside = set(arena.cells)
    keep: list[Cell] = [(int(c[0]), int(c[1])) for c in cells if tuple(c) in inside]
    arena = assign_zone(arena, zone, keep)
    doc = G.document(arena)
    for z in doc["launch_zones"]:
        if z["id"] == zone:
            z["cells"] = [_key(c) for c in keep]
    doc["launch_zones"] = [z for z in doc["launch_zones"] if z["cells"]]
    return _build(arena, doc)


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
    symmetry (the game's :meth:`~editor.game.EditorGame.grid_images`: a hex pit's rotations and
    reflections about the centroid of its hexes, :func:`hex_images`).  Images that fall between
    cells are left out."""
    if arena.symmetry is None:
        return []
    from editor.game import game_of

    return game_of(arena).grid_images(arena, cells)


def hex_images(arena: Any, cells: Iterable[Cell]) -> list[tuple[Cell, int]]:
    """The images of ``cells`` under a hex pit's declared symmetry, about the centroid of its
    hexes."""
    sym = arena.symmetry
    if sym is None or not arena.cells:
        return []
    out: list[tuple[Cell, int]] = []
    lay = HexLayout(arena.orientation)
    maps = symmetry_transforms(sym.kind, sym.order, lay.centroid(arena.cells), sym.axis)
    for c in cells:
        for i, f in enumerate(maps, start=1):
            img = lay.image(c, f)
            if img is not None and img != c:
                out.append((img, i))
    return out


def row_images(arena: Any, line: int) -> list[int]:
    """The grid lines the pit's symmetry operations carry grid line ``line`` onto (each whole
    line onto one line; an operation that scatters the line over several lines, a third of a
    turn, carries no row), without ``line`` itself."""
    sym = arena.symmetry
    if sym is None or not _hex(arena) or not arena.cells:
        return []
    lay = HexLayout(arena.orientation)
    on = [c for c in arena.cells if arena.line_of(c) == line]
    out: list[int] = []
    for f in symmetry_transforms(sym.kind, sym.order, lay.centroid(arena.cells), sym.axis):
        imgs = [lay.image(c, f) for c in on]
        lines = {arena.line_of(i) for i in imgs if i is not None}
        if on and None not in imgs and len(lines) == 1:
            (img,) = lines
            if img != line and img not in out:
                out.append(img)
    return out


def label_rows_with_images(arena: Any, lines: Sequence[int], label: int) -> Any:
    """Rows ``lines`` labelled ``label`` and, in symmetry mode, their image rows labelled as the
    game's rule gives the image (:meth:`editor.games.symmetry_rules.Rules.label_image`: the pit's
    14 minus the total); a row that is its own image keeps ``label``."""
    from editor.games.symmetry_rules import rules_of

    rules = rules_of(arena)
    labels: dict[int, int] = {}
    for line in lines:
        labels[line] = label
    for line in lines:
        for img in row_images(arena, line):
            labels.setdefault(img, rules.label_image(label))
    for line, value in labels.items():
        arena = label_row(arena, line, value)
    return arena


def with_images(arena: Any, cells: Sequence[Cell]) -> list[Cell]:
    """``cells`` followed by their symmetry images (each cell once)."""
    out: list[Cell] = list(dict.fromkeys((c[0], c[1]) for c in cells))
    seen = set(out)
    for img, _ in images(arena, out):
        if img not in seen:
            seen.add(img)
            out.append(img)
    return out


def guide(arena: Any) -> tuple[tuple[float, float], tuple[float, ...], int] | None:
    """(centre, mirror axes in degrees, rotation order) of the grid's declared symmetry in the
    canvas's coordinates (the game's :meth:`~editor.game.EditorGame.grid_guide`: a hex pit's
    about the centroid of its hexes, :func:`hex_guide`)."""
    if arena.symmetry is None:
        return None
    from editor.game import game_of

    return game_of(arena).grid_guide(arena)


def hex_guide(arena: Any) -> tuple[tuple[float, float], tuple[float, ...], int] | None:
    """A hex pit's symmetry guide: the operations of :func:`hex_images`."""
    sym = arena.symmetry
    if sym is None or not arena.cells:
        return None
    centre = HexLayout(arena.orientation).centroid(arena.cells)
    order = sym.order if sym.kind in ("rotational", "dihedral") else 1
    n = sym.order if sym.kind == "dihedral" else 1 if sym.kind == "mirror" else 0
    return centre, tuple((sym.axis + 180.0 * k / n) % 180.0 for k in range(n)), max(order, 1)


def _hex(arena: Any) -> bool:
    from schema.ruleset import ruleset

    return ruleset(str(arena.system)).grid == "hex"


def other_player(arena: Any, player: int) -> int:
    """The player whose half a mirrored Mothership edit lands in (two players: the other)."""
    players = sorted({m.player for m in arena.motherships} | {1, 2})
    others = [p for p in players if p != player]
    return others[0] if others else player


__all__ = ["assign_mothership", "assign_zone", "assign_zone_with_images", "erase", "guide", "hex_guide", "hex_images",
           "images", "label_row",
           "label_rows_with_images", "row_images", "new_zone_id", "other_player",
           "paint", "row_ref", "unassign", "with_images"]
