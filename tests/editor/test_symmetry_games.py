"""Symmetry mode in every game (issue 42, items 1-4): launch zones and rows of the pit map to
their images, numbered elements take the number their game's rule gives the image, an element
that is its own image is kept once, and the canvas draws the mirror axis and rotation centre."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from PySide6.QtCore import QPointF

from editor import symmetry as S
from editor.games import grid_model as M
from engine.gliderpit.checks import check_symmetry
from schema.games import gliderpit as gp
from schema.io import load
from schema.shapes import Circle, Polygon, Rect
from schema.games.gravstrike.model import AccelerationField, Arena, Symmetry

ROOT = Path(__file__).resolve().parents[2]
BOX = Polygon(((-12.0, -12.0), (12.0, -12.0), (12.0, 12.0), (-12.0, 12.0)))


def _zones(a):  # type: ignore[no-untyped-def]
    return {z.id: (z.track, z.cells) for z in a.launch_zones}


def _pit_errors(a) -> list[str]:  # type: ignore[no-untyped-def]
    from validators.run import validate

    return sorted(f.code + ": " + f.message for f in validate(a).findings if f.severity == "error")


# ------------------------------------------------------------------ 1. Glider-Pit zones and rows


def _move_z2_up_one_hex(a):  # type: ignore[no-untyped-def]
    """Take Z2's last hex out (its image too), then add the wall hex above Z2's first hex."""
    b = M.unassign(a, M.with_images(a, [(-7, -2)]))
    return M.assign_zone_with_images(b, "Z2", [(-9, 3)])


def test_a_hex_added_to_z2_in_mirror_mode_goes_to_z5_in_the_image_order() -> None:
    """The default pit mirrors about its vertical axis: Z2 (left wall, middle) is Z5's mirror
    image, hex for hex ("Each launch zone is comprised of a string of five hexes along the wall
    of the pit", book L55).  Moving Z2 one hex up the wall moves Z5 one hex up its wall, each
    still a string (the new hex goes at the end it touches) — not a new zone Z7 on a duplicate
    track, and no errors."""
    a = gp.default_arena()
    b = _move_z2_up_one_hex(a)
    zones = _zones(b)
    assert sorted(zones) == ["Z1", "Z2", "Z3", "Z4", "Z5", "Z6"]
    assert zones["Z2"] == (2, ((-9, 3), (-9, 2), (-9, 1), (-9, 0), (-8, -1)))
    assert zones["Z5"] == (5, ((6, 3), (7, 2), (8, 1), (9, 0), (9, -1)))
    assert {k: v for k, v in zones.items() if k not in ("Z2", "Z5")} == {
        k: v for k, v in _zones(a).items() if k not in ("Z2", "Z5")}
    assert _pit_errors(b) == []


def test_a_zone_stroke_in_rotation_mode_maps_the_zone_onto_its_half_turn_image() -> None:
    """A half turn about the pit's centre carries Z2 onto Z5 running the other way along the
    wall (Z5 keeps its direction); a zone drawn from nothing gets a new image zone on the next
    free Airspeed Track."""
    a = dataclasses.replace(gp.default_arena(), symmetry=gp.Symmetry(kind="rotational", order=2, axis=0.0))
    b = _move_z2_up_one_hex(a)
    zones = _zones(b)
    assert sorted(zones) == ["Z1", "Z2", "Z3", "Z4", "Z5", "Z6"]
    assert zones["Z5"] == (5, ((8, 1), (9, 0), (9, -1), (9, -2), (9, -3)))
    assert _pit_errors(b) == []
    # a half turn carries Z3 onto Z4: take both away, then draw Z3 again from nothing: its image
    # is a new zone (Z4, on the free Airspeed Track 4)
    c = M.unassign(b, [*b.element("Z3").cells, *b.element("Z4").cells])
    d = M.assign_zone_with_images(c, "Z3", list(a.element("Z3").cells))
    assert d.element("Z4").cells == tuple((-q, -r) for q, r in a.element("Z3").cells)
    assert sorted(z.track for z in d.launch_zones) == [1, 2, 3, 4, 5, 6] and _pit_errors(d) == []


def test_row_labels_map_to_the_image_row_under_the_pits_rule() -> None:
    """A half turn carries grid line r onto line -r, whose row gets 14 minus the total (2d6 is
    symmetric about 7, the pit's own rule for its rows); a mirror about the vertical axis keeps
    each row on its line; a third of a turn carries no row onto a row, so only the row labelled
    changes."""
    half = dataclasses.replace(gp.default_arena(), symmetry=gp.Symmetry(kind="rotational", order=2, axis=0.0))
    b = M.label_rows_with_images(half, [4], 3)
    assert {r.line: r.label for r in b.rows if r.line in (4, -4)} == {4: 3, -4: 11}
    mirror = gp.default_arena()
    c = M.label_rows_with_images(mirror, [4], 3)
    assert [(r.line, r.label) for r in c.rows if r.label != next(o.label for o in mirror.rows if o.id == r.id)] == [(4, 3)]
    third = dataclasses.replace(gp.default_arena(), symmetry=gp.Symmetry(kind="rotational", order=3, axis=0.0))
    d = M.label_rows_with_images(third, [4], 3)
    assert [r.line for r in d.rows if r.label != next(o.label for o in third.rows if o.id == r.id)] == [4]


# ------------------------------------------------------------------ 2. numbered elements


def _twin_without_cards():  # type: ignore[no-untyped-def]
    base = load(str(ROOT / "arenas" / "car-wars" / "twin-pillars-2p.yaml"))
    return base, dataclasses.replace(base, cards=())


def test_a_car_wars_cards_image_takes_the_next_free_number_and_the_image_owner() -> None:
    """twin-pillars-2p turns a half turn: a checkpoint card numbered 0 for player 1 gets an image
    numbered 1 (the next number not on the table: "four cards numbered 0 through 3") owned by
    player 2, whose start is the image of player 1's."""
    base, empty = _twin_without_cards()
    card = dataclasses.replace(base.cards[0], id="c", number=0, owner=1)
    out = S.propagate(empty, dataclasses.replace(empty, cards=(card,)), empty.symmetry)
    assert [(c.number, c.owner, c.position) for c in out.cards] == [(0, 1, (12.0, 10.0)), (1, 2, (-12.0, -10.0))]


def test_a_number_edit_reaches_the_image_card() -> None:
    """Renumbering a card renumbers its images by the same step round 0-3 (crossroads-4p's
    four checkpoint cards stay numbered 0-3, each once)."""
    from editor.games.commands import SetField

    base = load(str(ROOT / "arenas" / "car-wars" / "crossroads-4p.yaml"))
    doc = _doc(base)
    doc.push(SetField(doc, "checkpoint-1", ("number",), 2))
    numbers = {c.id: c.number for c in doc.arena.cards}
    assert numbers == {"checkpoint-1": 2, "checkpoint-2": 3, "checkpoint-3": 0, "checkpoint-4": 1}
    doc.symmetry_enabled = False  # symmetry mode off: the one card only
    doc.push(SetField(doc, "checkpoint-1", ("number",), 0))
    assert [c.number for c in doc.arena.cards] == [0, 3, 0, 1]


def _doc(arena):  # type: ignore[no-untyped-def]
    from editor.document import ArenaDocument

    return ArenaDocument(arena)


def test_the_game_declares_its_rule_on_its_editor() -> None:
    from editor.game import editor_game
    from editor.games import symmetry_rules as R

    assert R.rules_for("car-wars-6e") is editor_game("car-wars-6e").symmetry_rules()
    assert isinstance(R.rules_for("car-wars-6e"), R.Rules)
    assert type(R.rules_for("car-wars-6e")) is not R.Rules  # its own numbering
    assert type(R.rules_for("gravstrike")) is R.Rules  # letters/ids: the next free one


# ------------------------------------------------------------------ 3. an element that is its own image


def _gs(**kw):  # type: ignore[no-untyped-def]
    return Arena("sym", BOX, **kw)


@pytest.mark.parametrize("direction, note", [(90.0, False), (0.0, True)])
def test_a_field_on_the_mirror_axis_is_kept_once(direction: float, note: bool) -> None:
    """A field centred on the axis x = 0 is its own image: it is kept once, not stacked with an
    opposite copy.  Pushing along the axis it is symmetric; pushing across it, it cannot be (its
    image would push the other way) and the edit says so."""
    sym = Symmetry("mirror", 1, (0.0, 0.0), 90.0)
    before = _gs(symmetry=sym)
    f = AccelerationField("F1", Circle((0.0, 3.0), 1.0), direction)
    notes: list[str] = []
    after = S.propagate(before, dataclasses.replace(before, acceleration_fields=(f,)), sym, notes)
    assert after.acceleration_fields == (f,)
    assert bool(notes) == note
    if note:
        assert "F1" in notes[0] and "its own image" in notes[0]


def test_a_field_at_the_centre_of_a_half_turn_is_kept_once() -> None:
    sym = Symmetry("rotational", 2, (0.0, 0.0), 0.0)
    before = _gs(symmetry=sym)
    f = AccelerationField("F1", Rect((0.0, 0.0), (2.0, 1.0)), 0.0)
    notes: list[str] = []
    after = S.propagate(before, dataclasses.replace(before, acceleration_fields=(f,)), sym, notes)
    assert [x.id for x in after.acceleration_fields] == ["F1"] and notes


def test_stacked_fields_that_push_opposite_ways_are_flagged() -> None:
    """Book L773-775: a turbine ending a length touching a field's activation area is moved one
    length the way it points, each field once per turn; two overlapping fields pushing opposite
    ways move it out and back.  Fields at right angles (less than the 120° threshold) are not
    flagged."""
    from validators.games.gravstrike.layout import FieldCancelValidator

    stacked = _gs(acceleration_fields=(AccelerationField("F1", Circle((0.0, 3.0), 1.0), 0.0),
                                       AccelerationField("F2", Circle((0.3, 3.0), 1.0), 180.0)))
    found = FieldCancelValidator().evaluate(stacked, None).findings
    assert [(f.code, f.elements) for f in found] == [("field-cancel", ("F1", "F2"))]
    square = _gs(acceleration_fields=(AccelerationField("F1", Circle((0.0, 3.0), 1.0), 0.0),
                                      AccelerationField("F2", Circle((0.3, 3.0), 1.0), 90.0)))
    apart = _gs(acceleration_fields=(AccelerationField("F1", Circle((0.0, 3.0), 1.0), 0.0),
                                     AccelerationField("F2", Circle((5.0, 3.0), 1.0), 180.0)))
    assert FieldCancelValidator().evaluate(square, None).findings == []
    assert FieldCancelValidator().evaluate(apart, None).findings == []


# ------------------------------------------------------------------ 4. the axis and centre drawn


GUIDE = (0xAA, 0x33, 0x77)  # editor.symmetry_guide.COLOUR


def _guide_pixels(win, x0: float, x1: float, y: float):  # type: ignore[no-untyped-def]
    """Columns (viewport x) along arena row ``y`` between arena x0..x1 painted the guide's colour."""
    img = win.view.viewport().grab().toImage()
    a, b = win.view.mapFromScene(QPointF(x0, y)), win.view.mapFromScene(QPointF(x1, y))
    out = []
    for px in range(min(a.x(), b.x()), max(a.x(), b.x()) + 1):
        c = img.pixelColor(px, a.y())
        if abs(c.red() - GUIDE[0]) + abs(c.green() - GUIDE[1]) + abs(c.blue() - GUIDE[2]) < 90:
            out.append(px)
    return out


def test_the_canvas_draws_the_mirror_axis_while_symmetry_mode_is_on(window) -> None:  # type: ignore[no-untyped-def]
    """Twin Pillars (Car Wars) turns a half turn about (0, 0): a ring at the centre; the new
    Glider-Pit pit mirrors about the vertical line through its centre: a line there, on every
    row; symmetry mode off: nothing."""
    from tests.editor.conftest import open_shipped

    win = open_shipped(window, ROOT / "arenas" / "car-wars" / "twin-pillars-2p.yaml", 20.0)
    win.doc.symmetry_enabled = True
    win.repaint()
    assert _guide_pixels(win, -1.0, 1.0, 0.0)  # the ring and cross at the centre
    assert not _guide_pixels(win, -1.0, 1.0, 6.0)  # no axis: a rotation has none
    assert win.new_arena("glider-pit-gladiators")
    win.doc.symmetry_enabled = True
    win.view.set_scale(18.0)
    win.view.centerOn(0, 0)
    from editor import symmetry as S

    g = S.guide(win.doc.arena)
    assert g is not None and g.axes == (90.0,)
    cx = g.centre[0]
    # a dash-dot line: many rows cross a dash (rows by the ring at the centre left out)
    rows = [y / 2.0 for y in range(-20, 21) if abs(y / 2.0 - g.centre[1]) > 1.0]
    hits = {y: _guide_pixels(win, cx - 1.0, cx + 1.0, y) for y in rows}
    mid = win.view.mapFromScene(QPointF(cx, 0.0)).x()
    assert sum(bool(h) for h in hits.values()) > len(rows) / 3
    assert all(abs(c - mid) <= 2 for h in hits.values() for c in h)
    win.doc.symmetry_enabled = False
    assert not any(_guide_pixels(win, cx - 1.0, cx + 1.0, y) for y in rows)


def test_the_label_rows_tool_labels_the_image_row_with_the_image_total(window) -> None:  # type: ignore[no-untyped-def]
    """The tool itself (a click on line 4 with total 3) in a pit turned a half turn: line -4
    gets 11; under a third of a turn only line 4 changes."""
    from engine.grids import HexLayout
    from tests.editor.conftest import click

    for sym, want in ((gp.Symmetry(kind="rotational", order=2, axis=0.0), {4: 3, -4: 11}),
                      (gp.Symmetry(kind="rotational", order=3, axis=0.0), {4: 3})):
        assert window.new_arena("glider-pit-gladiators")
        arena = dataclasses.replace(window.doc.arena, symmetry=sym)
        window.doc.reset(arena, None)
        window.doc.symmetry_enabled = True
        window.view.set_scale(18.0)
        window.view.centerOn(0, 0)
        window.tools["grid:rows"].mode = "3"
        window.set_tool("grid:rows")
        click(window, *HexLayout("pointy").center((0, 4)))
        old = {r.line: r.label for r in arena.rows}
        assert {r.line: r.label for r in window.doc.arena.rows if old[r.line] != r.label or r.line in want} == want


def test_a_row_total_typed_in_the_inspector_reaches_the_image_row() -> None:
    """Symmetry mode on a pit turned a half turn: R6 (line 4) set to 3 in the inspector sets
    line -4's row to 11, in the same undo step; with symmetry mode off only R6 changes."""
    from editor.games.commands import SetField

    arena = dataclasses.replace(gp.default_arena(), symmetry=gp.Symmetry(kind="rotational", order=2, axis=0.0))
    doc = _doc(arena)
    ref = next(r.id for r in arena.rows if r.line == 4)
    doc.push(SetField(doc, ref, ("label",), 3))
    assert {r.line: r.label for r in doc.arena.rows if r.line in (4, -4)} == {4: 3, -4: 11}
    assert check_symmetry(doc.arena) == []  # the validator reads the 14-minus image as the editor writes it
    doc.undo()
    doc.symmetry_enabled = False
    doc.push(SetField(doc, ref, ("label",), 3))
    assert {r.line: r.label for r in doc.arena.rows if r.line in (4, -4)} == {4: 3, -4: 9}
    image = next(r.id for r in doc.arena.rows if r.line == -4)
    assert [sorted(i.elements) for i in check_symmetry(doc.arena)] == [sorted((ref, image))]


def test_placing_a_field_across_the_axis_says_so_where_the_designer_looks(window) -> None:  # type: ignore[no-untyped-def]
    """The note reaches the status bar (the document's notice), and the arena holds one field."""
    from editor.commands import AddElement

    sym = Symmetry("mirror", 1, (0.0, 0.0), 90.0)
    window.doc.reset(_gs(symmetry=sym), None)
    window.doc.symmetry_enabled = True
    window.doc.push(AddElement(window.doc, AccelerationField("F1", Circle((0.0, 3.0), 1.0), 0.0)))
    assert [f.id for f in window.doc.arena.acceleration_fields] == ["F1"]
    assert "F1 lies on the mirror axis" in window.statusBar().currentMessage()
