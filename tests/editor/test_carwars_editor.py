"""The editor serves Car Wars (issue 13): File → New asks for the game, the palette and the
inspector come from the ruleset (one tool per placeable kind, fields from the kind's JSON
Schema), edits are single undo steps, and files round-trip."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from PySide6.QtCore import QTimer, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QComboBox, QLineEdit, QSpinBox

from editor.games import model as G
from schema.games import carwars as cw
from tests.editor.conftest import vp

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "tests" / "carwars" / "data" / "shipped"


def crossroads() -> cw.CarWarsArena:
    return cw.from_document(yaml.safe_load((SHIPPED / "crossroads-4p.yaml").read_text(encoding="utf-8")))


@pytest.fixture
def cwin(window):  # type: ignore[no-untyped-def]
    """The window with a new Car Wars arena (symmetry mode off: one element per edit)."""
    assert window.new_arena("car-wars-6e")
    window.doc.symmetry_enabled = False
    window.view.set_scale(16.0)
    window.view.centerOn(0, 0)
    return window


def drag(win, a, b, mods=Qt.KeyboardModifier.NoModifier) -> None:  # type: ignore[no-untyped-def]
    vpw = win.view.viewport()
    QTest.mousePress(vpw, Qt.MouseButton.LeftButton, mods, vp(win, *a))
    QTest.mouseMove(vpw, vp(win, (a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
    QTest.mouseMove(vpw, vp(win, *b))
    QTest.mouseRelease(vpw, Qt.MouseButton.LeftButton, mods, vp(win, *b))


def test_file_new_dialog_lists_the_games_and_opens_car_wars(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    from editor.games.new_dialog import NewArenaDialog

    seen: dict[str, object] = {}

    def choose() -> None:
        dialog = window.new_dialog
        assert isinstance(dialog, NewArenaDialog)
        seen["systems"] = dialog.systems()
        row = dialog.systems().index("car-wars-6e")
        seen["row"] = [dialog.list.topLevelItem(row).text(c) for c in range(3)]
        dialog.select("car-wars-6e")
        dialog.accept()

    QTimer.singleShot(0, choose)
    window.act["new"].trigger()
    assert seen["systems"][0] == "gravstrike" and "car-wars-6e" in seen["systems"]  # type: ignore[index,operator]
    assert seen["row"] == ["Car Wars", "sixth edition", "inches (in)"]
    arena = window.doc.arena
    assert isinstance(arena, cw.CarWarsArena) and arena == cw.default_arena()
    assert "Car Wars" in window.windowTitle() and window.game.label.text().startswith("Car Wars")
    # the palette is the ruleset's: one tool per placeable kind, plus the shared ones
    assert set(window.tools) == {"select", "vertices", "rotate", "measure", *(f"car-wars-6e:{k}" for k in (
        "walls", "obstacles", "terrain", "hazards", "cards", "tokens", "start_positions"))}
    assert window.snap_box.value() == 1.0 and window.snap_box.suffix() == " in"
    # the start keys lie flush against the arena edge, one per start
    (keys,) = window.game.parts["car-wars-6e"]  # the Car Wars editor's canvas part
    assert len(keys.keys) == 4
    # back to Gravstrike: its hand-written tools again
    window.new_document(False)
    assert "checkpoint" in window.tools and window.snap_box.suffix() == " L"


@pytest.mark.parametrize("key,mode,points", [
    ("walls", "rect", [(-10, 0), (-8, 6)]),
    ("walls", "polyline", [(-12, -12), (-6, -12), (-6, -8)]),
    ("obstacles", "circle", [(5, 5), (6, 5)]),
    ("terrain", "polygon", [(-15, 10), (-10, 10), (-10, 15)]),
    ("hazards", "rect", [(8, -3), (10, 0)]),
])
def test_each_shape_tool_places_its_kind(cwin, key, mode, points) -> None:  # type: ignore[no-untyped-def]
    win = cwin
    win.set_tool(f"car-wars-6e:{key}")
    win.mode_box.setCurrentText(mode)
    before = len(getattr(win.doc.arena, key))
    if mode in ("rect", "circle"):
        drag(win, points[0], points[1])
    else:
        for p in points:
            QTest.mouseClick(win.view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, vp(win, *p))
        QTest.keyClick(win.view, Qt.Key.Key_Return)
    items = getattr(win.doc.arena, key)
    assert len(items) == before + 1
    shape = items[-1].shape
    assert shape.__class__.__name__.lower() == mode
    assert win.doc.undo_stack.count() == 1
    win.doc.undo()
    assert len(getattr(win.doc.arena, key)) == before


def test_card_token_and_start_tools(cwin) -> None:  # type: ignore[no-untyped-def]
    win = cwin
    win.set_tool("car-wars-6e:cards")
    for x in (0, 6):
        QTest.mouseClick(win.view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, vp(win, x, 0))
    assert [(c.id, c.number, c.position, c.role) for c in win.doc.arena.cards] == [
        ("N1", 0, (0.0, 0.0), "checkpoint"), ("N2", 1, (6.0, 0.0), "checkpoint")]
    win.set_tool("car-wars-6e:tokens")
    win.mode_box.setCurrentText("barrier")
    QTest.mouseClick(win.view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, vp(win, -6, 3))
    tok = win.doc.arena.tokens[-1]
    assert (tok.kind, tok.position, tok.weight, tok.cover) == ("barrier", (-6.0, 3.0), "heavy", "full")
    win.set_tool("car-wars-6e:start_positions")
    drag(win, (0, 10), (0, 14))
    st = win.doc.arena.start_positions[-1]
    assert (st.player, st.position, st.facing) == (5, (0.0, 10.0), 90.0)
    assert win.doc.undo_stack.count() == 4


def test_inspector_edits_an_obstacle_cover_from_its_schema(cwin) -> None:  # type: ignore[no-untyped-def]
    win = cwin
    arena = G.add(win.doc.arena, "obstacles", {"id": "rock", "shape": {"type": "circle", "center": [0, 0], "radius": 2}})
    win.doc.reset(arena, None)
    win.doc.set_selection(["rock"])
    ins = win.inspector
    assert ins.title.text() == "Obstacle rock"
    cover = ins.editors["field:cover"]
    assert isinstance(cover, QComboBox)  # an enum is a combo box with the schema's choices
    assert [cover.itemText(i) for i in range(cover.count())] == ["none", "partial", "full"]
    assert cover.currentText() == "partial" and "full cover blocks sightlines" in cover.toolTip()
    durability = ins.editors["field:durability"]
    assert isinstance(durability, QSpinBox) and durability.specialValueText() == "(none)"  # nullable integer
    assert (durability.minimum(), durability.maximum()) == (0, 99)
    assert isinstance(ins.editors["field:shape.radius"], QLineEdit)  # a nested object's field
    cover.setCurrentText("full")
    assert win.doc.arena.obstacles[0].cover == "full"
    assert win.doc.undo_stack.count() == 1
    win.doc.undo()
    assert win.doc.arena.obstacles[0].cover == "partial" and cover.currentText() == "partial"
    win.doc.redo()
    assert win.doc.arena.obstacles[0].cover == "full"
    durability.setValue(5)
    assert win.doc.arena.obstacles[0].durability == 5
    durability.setValue(0)
    assert win.doc.arena.obstacles[0].durability is None
    radius = ins.editors["field:shape.radius"]
    radius.setText("-1")
    radius.editingFinished.emit()
    assert win.doc.arena.obstacles[0].shape.radius == 2  # refused with the schema's words
    assert "less than the minimum of 0.001" in ins.error.text() and radius.text() == "2"
    assert win.doc.undo_stack.count() == 3


def test_card_fields_and_terrain_level(cwin) -> None:  # type: ignore[no-untyped-def]
    win = cwin
    arena = G.add(win.doc.arena, "cards", {"id": "cp", "number": 2, "position": [3, 4]})
    arena = G.add(arena, "terrain", {"id": "rough", "shape": {"type": "rect", "center": [-9, -9], "size": [4, 4]}})
    win.doc.reset(arena, None)
    win.doc.set_selection(["cp"])
    role = win.inspector.editors["field:role"]
    assert [role.itemText(i) for i in range(role.count())] == ["checkpoint", "trigger", "hidden-hazard", "countdown"]
    owner = win.inspector.editors["field:owner"]
    owner.setValue(3)
    number = win.inspector.editors["field:number"]
    assert (number.minimum(), number.maximum()) == (0, 3)
    assert (win.doc.arena.cards[0].owner, win.doc.arena.cards[0].number) == (3, 2)
    win.doc.set_selection(["rough"])
    level = win.inspector.editors["field:level"]
    assert (level.minimum(), level.maximum()) == (0, 3)
    level.setValue(2)
    assert win.doc.arena.terrain[0].level == 2


def test_drag_a_card_and_save_round_trip(cwin, tmp_path) -> None:  # type: ignore[no-untyped-def]
    win = cwin
    win.doc.reset(crossroads(), None)
    win.doc.symmetry_enabled = False
    win.set_tool("select")
    win.snap_box.setValue(0.5)  # the card's centre lands on a half-inch grid point
    card = win.doc.arena.card("checkpoint-1")
    drag(win, card.position, (card.position[0] + 2, card.position[1] + 1))
    moved = win.doc.arena.card("checkpoint-1")
    assert moved.position == (card.position[0] + 2, card.position[1] + 1)
    assert win.doc.undo_stack.count() == 1
    path = tmp_path / "drawn.yaml"
    assert win.save_to(str(path))
    from editor.games.io import load

    assert load(path) == win.doc.arena
    assert yaml.safe_load(path.read_text())["system"] == "car-wars-6e"
    assert win.open_path(str(path), ask=False) and win.doc.arena == load(path)


def test_symmetry_mode_places_a_whole_orbit(window) -> None:  # type: ignore[no-untyped-def]
    win = window
    assert win.new_arena("car-wars-6e")  # dihedral order 4 about the centre
    win.view.set_scale(16.0)
    win.view.centerOn(0, 0)
    win.set_tool("car-wars-6e:obstacles")
    win.mode_box.setCurrentText("circle")
    drag(win, (6, 2), (7, 2))
    centres = sorted(o.shape.center for o in win.doc.arena.obstacles)
    assert len(centres) == 8 and (-6.0, -2.0) in centres and (2.0, 6.0) in centres
    assert win.doc.undo_stack.count() == 1
