"""Arena → Symmetry… in every game (issue 42): the dialog offers the kinds and parameters the
game's symmetry type has (a pit's and a battlefield's are about their grid's centre: no centre
fields; Mothership mirrors or turns half round, nothing else), builds the game's own
``Symmetry`` and sets it as one undo step.  Before, a grid arena (no ``bounds``) raised an
AttributeError and nothing happened."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from editor import actions
from editor import symmetry as S
from editor.games.rulesets import units_symbol
from schema.games import gliderpit as gp
from schema.games import mothership as ms
from schema.shapes import Symmetry


def _run_dialog(window: Any, act: Callable[[actions.SymmetryDialog], None]) -> dict[str, Any]:
    """Arena → Symmetry… with the dialog driven by ``act`` (then OK); what it offered."""
    seen: dict[str, Any] = {}

    def drive() -> None:
        dlg = QApplication.activeModalWidget()
        assert isinstance(dlg, actions.SymmetryDialog)
        seen["kinds"] = [dlg.kind.itemData(i) for i in range(dlg.kind.count())]
        seen["orders"] = [int(dlg.order.itemText(i)) for i in range(dlg.order.count())]
        seen["shown"] = {name for name in ("order", "cx", "cy", "axis") if not getattr(dlg, name).isHidden()}
        seen["units"] = {dlg.cx.suffix().strip(), dlg.cy.suffix().strip()}
        act(dlg)
        seen["result"] = dlg.symmetry()
        dlg.accept()

    QTimer.singleShot(0, drive)
    seen["ok"] = window.edit_symmetry()
    return seen


def _choose(kind: str, order: int | None = None, centre: tuple[float, float] | None = None,
            axis: float | None = None) -> Callable[[actions.SymmetryDialog], None]:
    def act(dlg: actions.SymmetryDialog) -> None:
        dlg.kind.setCurrentIndex(dlg.kind.findData(kind))
        if order is not None:
            dlg.order.setCurrentText(str(order))
        if centre is not None:
            dlg.cx.setValue(centre[0])
            dlg.cy.setValue(centre[1])
        if axis is not None:
            dlg.axis.setValue(axis)
    return act


CASES = [
    # (game, what is chosen, the game's own value, kinds offered, orders offered, fields shown)
    ("gravstrike", _choose("rotational", 3, (1.0, 2.0)), Symmetry("rotational", 3, (1.0, 2.0), 90.0),
     ["", "rotational", "mirror", "dihedral"], list(range(2, 13)), {"order", "cx", "cy", "axis"}),
    ("car-wars-6e", _choose("mirror", centre=(0.0, 3.0), axis=0.0), Symmetry("mirror", 1, (0.0, 3.0), 0.0),
     ["", "rotational", "mirror", "dihedral"], list(range(2, 13)), {"order", "cx", "cy", "axis"}),
    ("arena-rex", _choose("dihedral", 2, (0.0, 0.0), 45.0), Symmetry("dihedral", 2, (0.0, 0.0), 45.0),
     ["", "rotational", "mirror", "dihedral"], list(range(2, 13)), {"order", "cx", "cy", "axis"}),
    ("glider-pit-gladiators", _choose("rotational", 2), gp.Symmetry("rotational", 2, 90.0),
     ["", "rotational", "mirror", "dihedral"], [2, 3, 6], {"order", "axis"}),
    ("mothership-grid", _choose("rotational"), ms.Symmetry("rotational"),
     ["", "mirror", "rotational"], [], set()),
]


@pytest.mark.parametrize("system,act,want,kinds,orders,shown", CASES, ids=[c[0] for c in CASES])
def test_the_symmetry_dialog_sets_the_games_own_symmetry_in_one_undo_step(
        window, system, act, want, kinds, orders, shown) -> None:  # type: ignore[no-untyped-def]
    if system != "gravstrike":
        assert window.new_arena(system)
    before = window.doc.arena.symmetry
    assert before != want
    steps = window.doc.undo_stack.count()
    seen = _run_dialog(window, act)
    assert seen["ok"], getattr(window, "last_error", window.statusBar().currentMessage())
    assert seen["kinds"] == kinds
    assert seen["orders"] == orders
    assert seen["shown"] == shown, "a grid's symmetry is about its grid's centre: no centre fields"
    if "cx" in shown:
        assert seen["units"] == {units_symbol(window.doc.arena)}
    got = window.doc.arena.symmetry
    assert got == want and type(got) is type(want) and seen["result"] == want
    assert window.doc.undo_stack.count() == steps + 1
    assert window.act["symmetry_mode"].isChecked()
    assert S.guide(window.doc.arena) is not None, "symmetry mode draws the new axis or centre"
    assert window.symmetry_label.text().startswith("Symmetry on: ")
    window.doc.undo()
    assert window.doc.arena.symmetry == before


@pytest.mark.parametrize("system", ["glider-pit-gladiators", "mothership-grid"])
def test_a_grid_arenas_symmetry_can_be_cleared_and_set_again(window, system) -> None:  # type: ignore[no-untyped-def]
    assert window.new_arena(system)
    assert window.doc.arena.symmetry is not None
    assert _run_dialog(window, _choose(""))["ok"]
    assert window.doc.arena.symmetry is None and window.symmetry_label.text() == ""
    assert _run_dialog(window, _choose("mirror"))["ok"]
    assert window.doc.arena.symmetry is not None and window.doc.arena.symmetry.kind == "mirror"


def test_the_pit_dialog_offers_a_mirror_without_an_order_and_a_dihedral_with_one(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    assert window.new_arena("glider-pit-gladiators")
    dlg = actions.SymmetryDialog.for_arena(window.doc.arena, window)
    qtbot.addWidget(dlg)
    dlg.kind.setCurrentIndex(dlg.kind.findData("mirror"))
    assert not dlg.order.isEnabled() and dlg.axis.isEnabled()
    dlg.axis.setValue(30.0)
    assert dlg.symmetry() == gp.Symmetry("mirror", 1, 30.0)
    dlg.kind.setCurrentIndex(dlg.kind.findData("dihedral"))
    dlg.order.setCurrentText("6")
    assert dlg.symmetry() == gp.Symmetry("dihedral", 6, 30.0)
    assert "centroid" in dlg.about.text(), "the dialog says what the symmetry is about"


def test_the_battlefield_dialog_names_the_half_turn(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    """Mothership: "mirror" or "rotational" (a half turn about the centre, the schema's words)."""
    assert window.new_arena("mothership-grid")
    dlg = actions.SymmetryDialog.for_arena(window.doc.arena, window)
    qtbot.addWidget(dlg)
    dlg.kind.setCurrentIndex(dlg.kind.findData("rotational"))
    assert "half turn" in dlg.hint.text()


def test_ok_on_values_the_game_refuses_keeps_the_dialog_open_saying_why(qtbot) -> None:  # type: ignore[no-untyped-def]
    from editor.symmetry_form import TABLE

    def refuse(doc: dict[str, Any]) -> Any:
        raise ValueError("/symmetry/order: 5 is not one of [1, 2, 3, 6]")

    dlg = actions.SymmetryDialog(None, (0.0, 0.0), "hex", form=dataclasses.replace(TABLE, make=refuse))
    qtbot.addWidget(dlg)
    dlg.kind.setCurrentIndex(dlg.kind.findData("rotational"))
    dlg.show()
    dlg.buttons.button(dlg.buttons.StandardButton.Ok).click()
    assert dlg.isVisible() and dlg.result() != actions.QDialog.DialogCode.Accepted
    assert "5 is not one of" in dlg.hint.text() and "5 is not one of" in dlg.error


def test_set_symmetry_refuses_another_games_symmetry_type(window) -> None:  # type: ignore[no-untyped-def]
    """A table game's Symmetry (with a centre) is not a pit's: refused, saying which it must be."""
    from editor import edit_commands as EC

    assert window.new_arena("glider-pit-gladiators")
    with pytest.raises(ValueError, match=r"schema\.games\.gliderpit\.Symmetry"):
        EC.SetSymmetry(window.doc, Symmetry("rotational", 2, (0.0, 0.0)))
    assert EC.symmetry_type(window.doc.arena) is gp.Symmetry


def test_a_pit_mirror_axis_between_hex_directions_is_refused_not_left_with_lost_images(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    """A hex grid maps onto itself only across axes at multiples of 30° (the pit schema's
    ``multipleOf: 30``): a 45° axis used to be accepted and left the images that fall between
    hexes out without a word.  The file format refuses it, and the dialog steps by 30°."""
    from schema import ArenaError, dumps, loads

    assert window.new_arena("glider-pit-gladiators")
    dlg = actions.SymmetryDialog.for_arena(window.doc.arena, window)
    qtbot.addWidget(dlg)
    assert dlg.axis.singleStep() == 30.0
    dlg.kind.setCurrentIndex(dlg.kind.findData("mirror"))
    dlg.axis.setValue(45.0)
    with pytest.raises(ValueError, match="/symmetry/axis: 45.0 is not a multiple of 30"):
        dlg.symmetry()
    text = dumps(dataclasses.replace(window.doc.arena, symmetry=gp.Symmetry("mirror", 1, 90.0)))
    with pytest.raises(ArenaError, match=r"pit\.yaml:\d+:\d+: /symmetry/axis: 45 is not a multiple of 30"):
        loads(text.replace("axis: 90", "axis: 45"), source="pit.yaml")
