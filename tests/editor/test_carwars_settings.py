"""Car Wars' arena-wide settings are edited in the editor (issue 13: the car's base size is
"editable"; the turning key "2 car-lengths long and 1/2 car-length wide" follows it; the
scenario's analysis thresholds): forms built from the game's JSON Schema, one undo step per
edit, values the format refuses are refused with the schema's words."""

from __future__ import annotations

from editor.games.settings import arena_fields
from schema.games import carwars as cw


def _edit(window, name: str):  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QWidget

    w = window.findChild(QWidget, f"game-setting:{name}")
    assert w is not None, name
    return w


def test_fields_come_from_the_schema() -> None:
    paths = {".".join(map(str, f.path)) for f in arena_fields(cw.default_arena(), ("vehicle", "turning_key", "scenario"))}
    assert {"vehicle.length", "vehicle.width", "scenario.players", "scenario.box"} <= paths
    assert any(p.startswith("scenario.analysis.") for p in paths)


def test_the_car_length_is_edited_undone_and_refused_when_invalid(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.doc.reset(cw.default_arena(), None)
    panel = window.arena_panel.game
    assert panel.isVisibleTo(window.arena_panel)
    edit = _edit(window, "vehicle.length")
    before = window.doc.arena.vehicle.length
    edit.setText("4")
    edit.editingFinished.emit()
    assert window.doc.arena.vehicle.length == 4.0
    assert window.doc.arena.vehicle.key_length == 8.0  # the key is two car lengths
    window.doc.undo_stack.undo()
    assert window.doc.arena.vehicle.length == before and edit.text() == f"{before:g}"
    edit.setText("-1")
    edit.editingFinished.emit()
    assert window.doc.arena.vehicle.length == before
    assert panel.error.text() and "-1" in panel.error.text()
    assert edit.text() == f"{before:g}"  # the field shows the current value again


def test_scenario_box_is_a_choice_and_gravstrike_hides_the_forms(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QComboBox

    window.doc.reset(cw.default_arena(), None)
    box = _edit(window, "scenario.box")
    assert isinstance(box, QComboBox) and "4-player" in [box.itemText(i) for i in range(box.count())]
    box.setCurrentText("2-player")
    box.activated.emit(box.currentIndex())
    assert window.doc.arena.scenario.box == "2-player"
    from schema import load
    from pathlib import Path

    window.doc.reset(load(Path(__file__).resolve().parents[2] / "arenas" / "default.yaml"), None)
    assert not window.arena_panel.game.isVisibleTo(window.arena_panel)
    assert not window.scenario_panel.game.isVisibleTo(window.scenario_panel)
