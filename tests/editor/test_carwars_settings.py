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


def test_the_arena_tab_shows_the_documents_games_own_settings(window) -> None:  # type: ignore[no-untyped-def]
    """The Arena and Scenario tabs' typed rows are the game's (``EditorGame.arena_settings`` /
    ``scenario_settings``, issue 37): a Gravstrike arena shows its turbine and VP to win, a Car
    Wars arena the file's header only (its car and scenario in the forms from its schema), and
    a turbine setting sent to a Car Wars arena is refused, not written into its model."""
    import pytest
    from PySide6.QtWidgets import QWidget

    from editor import edit_commands as EC
    from editor.game import editor_game

    def shown(panel, path: str) -> bool:  # type: ignore[no-untyped-def]
        w = panel.findChild(QWidget, f"setting:{path}")
        return w is not None and panel.form.isRowVisible(w)

    window.doc.reset(editor_game("gravstrike").new_arena(), None)
    assert shown(window.arena_panel, "name") and shown(window.arena_panel, "turbine.max_speed")
    assert shown(window.scenario_panel, "vp_to_win")
    window.doc.reset(cw.default_arena(), None)
    assert shown(window.arena_panel, "name") and not shown(window.arena_panel, "turbine.max_speed")
    assert not shown(window.scenario_panel, "vp_to_win")
    with pytest.raises(ValueError, match="unknown setting 'turbine.max_speed'"):
        EC.SetArenaSetting(window.doc, "turbine.max_speed", 5)
