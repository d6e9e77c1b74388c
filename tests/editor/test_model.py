"""Document, commands, properties, ids and clipboard — no widgets, no qtbot."""

from __future__ import annotations

import dataclasses

import pytest

from editor import commands as C
from editor import elements as E
from editor.document import DEFAULT_ARENA, ArenaDocument
from editor.games.gravstrike.properties import properties_of, set_property
from editor.validation import format_findings
from schema import load
from schema.shapes import Polygon, Rect
from schema.games.gravstrike.model import Checkpoint, Gate, StartPosition, StaticTarget, Wall

from tests.editor.conftest import make_arena


def test_ids_follow_the_book_conventions() -> None:
    a = make_arena()
    assert E.next_id(a, "walls") == "W2"
    assert E.next_id(a, "checkpoints", "outlying") == "B"
    assert E.next_id(a, "checkpoints", "central") == "N"
    assert E.next_id(a, "acceleration_fields") == "F2"
    assert E.next_id(a, "exclusion_fields") == "X1"
    assert E.next_id(a, "static_targets") == "T2"
    assert E.next_id(a, "gates") == "G1"
    assert E.next_player(a) == 2


def test_add_undo_redo_is_exact() -> None:
    doc = ArenaDocument(make_arena())
    original = doc.arena
    doc.push(C.AddElement(doc, Wall("W2", Rect((2.0, 2.0), (1.0, 1.0)))))
    edited = doc.arena
    assert [w.id for w in edited.walls] == ["W1", "W2"]
    assert doc.selection == ["W2"] and doc.dirty
    doc.undo()
    assert doc.arena == original and not doc.dirty
    doc.redo()
    assert doc.arena == edited


def test_delete_and_move_round_trip() -> None:
    doc = ArenaDocument(make_arena())
    original = doc.arena
    doc.push(C.MoveElements(doc, ["W1", "start:1"], 1.5, -0.5))
    assert doc.arena.walls[0].shape.center == (-2.5, -0.5)
    assert doc.arena.start_positions[0].position == (-5.5, -7.5)
    doc.push(C.DeleteElements(doc, ["A", "T1"]))
    assert [c.id for c in doc.arena.checkpoints] == ["M"] and doc.arena.static_targets == ()
    doc.undo()
    doc.undo()
    assert doc.arena == original


def test_nudges_merge_into_one_undo_step() -> None:
    doc = ArenaDocument(make_arena())
    original = doc.arena
    for _ in range(3):
        doc.push(C.MoveElements(doc, ["T1"], 0.5, 0.0, mergeable=True))
    assert doc.undo_stack.count() == 1
    assert doc.arena.static_targets[0].position == (-4.5, 6.0)
    doc.undo()
    assert doc.arena == original


def test_set_property_validates_and_undoes() -> None:
    doc = ArenaDocument(make_arena())
    original = doc.arena
    doc.push(C.SetProperty(doc, "A", "shape.radius", 2.0))
    assert doc.arena.checkpoints[0].shape.radius == 2.0
    for name, value in [("shape.radius", -1), ("shape.radius", "abc"), ("id", "M"), ("id", "9bad")]:
        with pytest.raises(ValueError):
            C.SetProperty(doc, "A", name, value)
    with pytest.raises(ValueError, match="already used"):
        C.AddElement(doc, StartPosition(1, (0.0, 0.0), 0.0))
    with pytest.raises(ValueError, match="already used"):
        C.AddElement(doc, Wall("A", Rect((2.0, 2.0), (1.0, 1.0))))
    doc.push(C.SetProperty(doc, "A", "id", "B"))
    assert doc.selection == ["B"] and E.find(doc.arena, "A") is None
    doc.undo()
    doc.undo()
    assert doc.arena == original
    assert doc.undo_stack.count() == 2


def test_field_direction_and_start_facing_commands() -> None:
    doc = ArenaDocument(make_arena())
    doc.push(C.SetFieldDirection(doc, "F1", 405.0))
    assert doc.arena.acceleration_fields[0].direction == 45.0
    doc.push(C.SetStartFacing(doc, "start:1", -90))
    assert doc.arena.start_positions[0].facing == 270.0
    with pytest.raises(ValueError):
        C.SetFieldDirection(doc, "W1", 10.0)


def test_refuses_edits_the_format_layer_rejects() -> None:
    doc = ArenaDocument(make_arena())
    crossing = Polygon(((0.0, 0.0), (2.0, 2.0), (2.0, 0.0), (0.0, 2.0)))
    with pytest.raises(ValueError, match="cross"):
        C.AddElement(doc, Wall("W9", crossing))
    assert doc.undo_stack.count() == 0


def test_properties_cover_every_kind(arena) -> None:  # type: ignore[no-untyped-def]
    gate = Gate("G1", "outlying", (0.0, 0.0), (1.0, 0.0))
    for el in [*arena.elements(), gate]:
        props = properties_of(el)
        assert props
        for p in props:
            if p.type in ("float", "angle"):
                assert set_property(el, p.name, 1.25) != el or p.value == 1.25
    t = set_property(StaticTarget("T1", (0.0, 0.0)), "tn_modifier", 3)
    assert t.tn_modifier == 3
    with pytest.raises(ValueError, match="at most 6"):
        set_property(t, "tn_modifier", 7)
    with pytest.raises(ValueError, match="whole number"):
        set_property(t, "capacity", 1.5)


def test_clipboard_yaml_round_trip_renames() -> None:
    a = make_arena()
    text = E.elements_to_yaml(a, ["W1", "A", "start:1"])
    assert "walls:" in text and "checkpoints:" in text
    pasted = E.elements_from_yaml(text, a)
    assert [el.id for el in pasted] == ["W2", "B", "start:2"]
    assert isinstance(pasted[1], Checkpoint) and pasted[1].shape == a.checkpoints[0].shape
    with pytest.raises(ValueError):
        E.elements_from_yaml("hello: [1", a)
    with pytest.raises(ValueError):
        E.elements_from_yaml("walls: [{id: W5}]", a)


def test_document_open_save_round_trip(tmp_path) -> None:  # type: ignore[no-untyped-def]
    doc = ArenaDocument()
    doc.open(DEFAULT_ARENA)
    original = doc.arena
    assert original == load(DEFAULT_ARENA) and not doc.dirty
    doc.push(C.MoveElements(doc, ["W1"], 0.5, 0.5))
    out = tmp_path / "copy.yaml"
    doc.save(out)
    assert not doc.dirty and doc.path == str(out)
    assert load(out) == doc.arena
    doc.undo()
    assert doc.dirty and doc.arena == original


def test_format_findings_point_at_elements() -> None:
    a = make_arena()
    bad = dataclasses.replace(a, static_targets=(StaticTarget("T1", (0.0, 0.0)), StaticTarget("W1", (1.0, 1.0))))
    findings = format_findings(bad)
    assert findings and findings[0]["severity"] == "error"
    assert any("duplicate id" in f["message"] and f["elements"] == ["W1"] for f in findings)
    assert format_findings(a) == []
