"""The Scenario tab edits each book's battle settings (issue 39, point 2), one undo step each:
Arena Rex's starting Favor ("Each player begins the game with 3 Favor in their pool.", L28 of
004_dc762f78e7f2abcd.txt), Favor handicap and first player ("both players roll a D6. The one
with the higher result gets to decide who will go first.", L40) from its schema, a deployment's
own Favor in the inspector; Gravstrike's veteran limit ("If no limit is specified, players
should assume that no veteran cards are allowed.", L848 of 000_bb67baed89c8981a.txt) in its
hand-made rows."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QComboBox, QLineEdit, QSpinBox, QWidget

from schema.games import arenarex as ar


def _setting(window, name: str) -> QWidget:  # type: ignore[no-untyped-def]
    w = window.scenario_panel.findChild(QWidget, name)
    assert w is not None, name
    return w


def test_arena_rex_favor_and_first_player_are_edited_and_undone(window) -> None:  # type: ignore[no-untyped-def]
    assert window.new_arena("arena-rex")
    panel = window.scenario_panel.game
    assert panel.isVisibleTo(window.scenario_panel)
    favor = _setting(window, "game-setting:scenario.starting_favor")
    assert isinstance(favor, QLineEdit) and favor.text() == "3"
    assert "Each player begins the game with 3 Favor" in favor.toolTip()
    steps = window.doc.undo_stack.count()
    favor.setText("4")
    favor.editingFinished.emit()
    assert window.doc.arena.scenario.starting_favor == 4 and window.doc.undo_stack.count() == steps + 1
    favor.setText("-2")
    favor.editingFinished.emit()
    assert window.doc.arena.scenario.starting_favor == 4 and "-2" in panel.error.text()
    first = _setting(window, "game-setting:scenario.first_player")
    assert isinstance(first, QComboBox) and first.currentText() == "roll-off"
    assert "roll a D6" in first.toolTip()
    first.setCurrentText("2")
    first.activated.emit(first.currentIndex())
    assert window.doc.arena.scenario.first_player == 2
    handicap = _setting(window, "game-setting:scenario.handicap")
    assert isinstance(handicap, QCheckBox)
    handicap.setChecked(True)
    assert window.doc.arena.scenario.handicap is True
    for _ in range(3):
        window.doc.undo()
    assert window.doc.arena == ar.default_arena()


def test_a_deployments_own_favor_is_edited_in_the_inspector(window) -> None:  # type: ignore[no-untyped-def]
    assert window.new_arena("arena-rex")
    window.doc.symmetry_enabled = False
    window.doc.set_selection(["deploy:2"])
    spin = window.inspector.editors["field:favor"]
    assert isinstance(spin, QSpinBox) and spin.value() == spin.minimum()  # none: the scenario's Favor
    assert "Each player begins the game with 3 Favor" in spin.toolTip()
    spin.setValue(5)
    assert window.doc.arena.deployment[1].favor == 5
    assert window.doc.arena.starting_favor() == {1: 3, 2: 5}
    window.doc.undo()
    assert window.doc.arena == ar.default_arena()


def test_gravstrike_veteran_limit_row_is_edited_and_undone(window) -> None:  # type: ignore[no-untyped-def]
    from editor.game import editor_game

    window.doc.reset(editor_game("gravstrike").new_arena(), None)
    row = _setting(window, "setting:veteran_limit")
    assert isinstance(row, QLineEdit) and window.scenario_panel.form.isRowVisible(row) and row.text() == "0"
    row.setText("2")
    row.editingFinished.emit()
    assert window.doc.arena.scenario.veteran_limit == 2
    row.setText("44")  # more than the deck's 43 cards
    row.editingFinished.emit()
    assert window.doc.arena.scenario.veteran_limit == 2
    window.doc.undo()
    assert window.doc.arena.scenario.veteran_limit == 0 and row.text() == "0"
