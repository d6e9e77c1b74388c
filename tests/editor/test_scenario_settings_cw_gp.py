"""The Scenario tab edits Car Wars' game size and damage deck and Glider-Pit's teams, short game
and optional rules (issue 39, point 2): fields built from each game's schema, one undo step per
edit, a value the format refuses refused with the schema's words."""

from __future__ import annotations

from typing import Any

from schema.games import carwars as cw
from schema.games import gliderpit as gp


def _edit(window: Any, name: str) -> Any:
    from PySide6.QtWidgets import QWidget

    w = window.scenario_panel.findChild(QWidget, f"game-setting:{name}")
    assert w is not None, name
    return w


def _choose(combo: Any, text: str) -> None:
    combo.setCurrentIndex(combo.findText(text))
    combo.activated.emit(combo.currentIndex())


def test_car_wars_game_size_and_deck_are_edited_and_undone(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QComboBox, QLineEdit

    window.doc.reset(cw.default_arena(), None)
    bp = _edit(window, "scenario.game_size.build_points")
    assert isinstance(bp, QLineEdit) and "BP" in window.scenario_panel.game.form.labelForField(bp).text()
    bp.setText("36")
    bp.editingFinished.emit()
    assert window.doc.arena.scenario.game_size == cw.GameSize(build_points=36)
    assert window.doc.arena.damage_deck == "B"  # the build points call for deck B
    deck = _edit(window, "scenario.damage_deck")
    assert isinstance(deck, QComboBox) and {"A", "B"} <= {deck.itemText(i) for i in range(deck.count())}
    _choose(deck, "A")
    assert window.doc.arena.scenario.damage_deck == "A"
    window.doc.undo_stack.undo()
    assert window.doc.arena.scenario.damage_deck is None
    window.doc.undo_stack.undo()
    assert window.doc.arena.scenario.game_size is None and bp.text() == ""
    bp.setText("-4")
    bp.editingFinished.emit()
    assert window.doc.arena.scenario.game_size is None and window.scenario_panel.game.error.text()


def test_glider_pit_teams_short_game_and_rules_are_edited_and_undone(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QCheckBox, QComboBox

    window.doc.reset(gp.default_arena(), None)
    for n in range(1, 7):
        _choose(_edit(window, f"scenario.teams.track_{n}"), "AB"[(n - 1) % 2])
    assert window.doc.arena.scenario.team_tracks() == {"A": (1, 3, 5), "B": (2, 4, 6)}
    short = _edit(window, "scenario.short_game")
    assert isinstance(short, QComboBox)
    _choose(short, "blitz")
    assert window.doc.arena.floor_level == 15
    rule = _edit(window, "scenario.optional_rules.advanced_maneuvers")
    assert isinstance(rule, QCheckBox)
    rule.setChecked(True)
    assert window.doc.arena.scenario.optional_rules.advanced_maneuvers
    for _ in range(2):
        window.doc.undo_stack.undo()
    assert window.doc.arena.floor_level == 0 and not window.doc.arena.scenario.optional_rules.advanced_maneuvers
    window.doc.undo_stack.undo()  # the last team choice
    assert window.doc.arena.scenario.team_tracks() == {"A": (1, 3, 5), "B": (2, 4)}
    _choose(_edit(window, "scenario.teams.track_5"), "")  # the blank entry: no team
    assert window.doc.arena.scenario.team_tracks() == {"A": (1, 3), "B": (2, 4)}
