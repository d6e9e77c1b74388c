"""Tortoise Derby in the editor, offscreen (issue 37, point 4): File → New lists it and opens its
paddock; its palette has a tool per element kind and each places its kind; the inspector edits
a field from its JSON Schema; live validation shows its own checks' findings; every edit is one
undo step; symmetry mode carries a new rock and a new tortoise onto their images.

The game adds nothing to the editor (no editor module of its own): what it gets is the default
editor every game gets (a tortoise is named by its player because its schema says so: a
``player`` and no ``id``; its ref, ``tortoise:N``, is its model's)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPointF, QSettings, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QMessageBox

from schema.io import load
from tests.editor.conftest import vp
from tests.plugin_game.conftest import ARENAS

@pytest.fixture
def window(qtbot: Any, tmp_path: Path) -> Iterator[Any]:
    """The main window with the editor's own live analysis (not the format checks alone)."""
    from editor import files as F
    from editor.mainwindow import MainWindow

    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings=settings, recovery=F.RecoveryStore(tmp_path / "recovery", pid=1))
    win.ask_save = lambda: QMessageBox.StandardButton.Discard  # type: ignore[method-assign]
    win.show_problems = lambda title, text: setattr(win, "last_error", text)  # type: ignore[method-assign]
    qtbot.addWidget(win)
    win.resize(1000, 800)
    win.show()
    qtbot.waitExposed(win)
    assert win.new_arena("tortoise-derby")
    win.doc.symmetry_enabled = False
    win.view.set_scale(16.0)
    win.view.centerOn(QPointF(0, 0))
    yield win
    win.doc.undo_stack.setClean()


def click(win: Any, at: tuple[float, float]) -> None:
    QTest.mouseClick(win.view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, vp(win, *at))


def drag(win: Any, a: tuple[float, float], b: tuple[float, float]) -> None:
    vpw = win.view.viewport()
    QTest.mousePress(vpw, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, vp(win, *a))
    QTest.mouseMove(vpw, vp(win, (a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
    QTest.mouseMove(vpw, vp(win, *b))
    QTest.mouseRelease(vpw, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, vp(win, *b))


def settle(win: Any, qtbot: Any) -> list[dict[str, Any]]:
    r = win.runner
    qtbot.waitUntil(lambda: r.completed_generation == r.generation and r.final and not r.busy, timeout=60_000)
    return list(r.findings)


def test_file_new_lists_it_and_opens_its_paddock(window: Any) -> None:
    from editor.games.new_dialog import NewArenaDialog

    window.new_arena("gravstrike")
    seen: dict[str, Any] = {}

    def choose() -> None:
        dialog = window.new_dialog
        assert isinstance(dialog, NewArenaDialog)
        seen["systems"] = dialog.systems()
        dialog.select("tortoise-derby")
        dialog.accept()

    QTimer.singleShot(0, choose)
    window.act["new"].trigger()
    assert "tortoise-derby" in seen["systems"]
    from tortoise_derby.model import default_arena

    assert window.doc.arena == default_arena()
    assert "Tortoise Derby" in window.windowTitle() and window.snap_box.suffix() == " in"
    # the default palette: one tool per element kind, named by the kind's title
    tools = {name: window.tools[name].label for name in window.tools if name.startswith("tortoise-derby:")}
    assert tools == {"tortoise-derby:rocks": "Draw rock", "tortoise-derby:lettuces": "Place lettuce",
                     "tortoise-derby:tortoises": "Place tortoise"}
    assert window.tools["tortoise-derby:rocks"].modes == ("rect", "circle", "polygon")  # from its schema


def test_the_rock_tool_draws_a_rock_in_one_undo_step(window: Any) -> None:
    window.set_tool("tortoise-derby:rocks")
    window.mode_box.setCurrentText("circle")
    drag(window, (6, 6), (7, 6))
    rock = window.doc.arena.rocks[-1]
    assert (rock.id, type(rock.shape).__name__, rock.shape.center) == ("R3", "Circle", (6.0, 6.0))
    assert window.doc.undo_stack.count() == 1
    window.doc.undo()
    assert [r.id for r in window.doc.arena.rocks] == ["R1", "R2"]


def test_the_lettuce_tool_places_a_lettuce_with_a_click(window: Any) -> None:
    window.set_tool("tortoise-derby:lettuces")
    click(window, (-6, -6))
    assert [(le.id, le.position) for le in window.doc.arena.lettuces] == [("L1", (0.0, 0.0)), ("L2", (-6.0, -6.0))]
    assert window.doc.undo_stack.count() == 1
    window.doc.undo()
    assert len(window.doc.arena.lettuces) == 1


def test_the_tortoise_tool_places_the_next_players_tortoise_facing_the_drag(window: Any) -> None:
    window.set_tool("tortoise-derby:tortoises")
    drag(window, (0, -9), (0, -5))
    t = window.doc.arena.tortoises[-1]
    assert (t.player, t.position, t.facing) == (3, (0.0, -9.0), 90.0)
    assert window.doc.undo_stack.count() == 1


def test_the_inspector_edits_a_rock_from_its_schema(window: Any) -> None:
    window.doc.set_selection(["R1"])
    ins = window.inspector
    assert {"field:id", "field:shape.center.0", "field:shape.center.1", "field:shape.radius"} <= set(ins.editors)
    radius = ins.editors["field:shape.radius"]
    assert radius.text() == "1.5"
    radius.setText("2")
    radius.editingFinished.emit()
    assert window.doc.arena.rocks[0].shape.radius == 2.0 and window.doc.undo_stack.count() == 1
    radius.setText("0")  # below the schema's minimum: refused
    radius.editingFinished.emit()
    assert window.doc.arena.rocks[0].shape.radius == 2.0 and window.doc.undo_stack.count() == 1
    window.doc.undo()
    assert window.doc.arena.rocks[0].shape.radius == 1.5


def test_live_validation_shows_its_findings_as_arena_validate_does(window: Any, qtbot: Any) -> None:
    from validators.run import validate

    arena = load(ARENAS / "walled.yaml")
    window.doc.reset(arena, None)
    window.runner.run_now(window.doc.arena)
    found = settle(window, qtbot)
    assert sorted((f["code"], f["severity"], f["message"]) for f in found) == sorted(
        (f.code, f.severity, f.message) for f in validate(arena).findings)
    assert {"td-placement", "td-reach"} <= {f["code"] for f in found}
    rows = [window.validation.tree.topLevelItem(i).text(1) for i in range(window.validation.tree.topLevelItemCount())]
    assert "td-placement" in rows


def test_symmetry_mode_carries_a_new_rock_onto_its_image(window: Any) -> None:
    """The paddock's half-turn symmetry: a rock drawn at (7, 7) brings its image at (-7, -7),
    named by the next free id; one undo step takes both away."""
    window.doc.symmetry_enabled = True
    window.set_tool("tortoise-derby:rocks")
    window.mode_box.setCurrentText("rect")
    drag(window, (6, 6), (8, 8))
    new = sorted((r.shape.center, r.id) for r in window.doc.arena.rocks if r.id not in ("R1", "R2"))
    assert new == [((-7.0, -7.0), "R4"), ((7.0, 7.0), "R3")]
    assert window.doc.undo_stack.count() == 1
    window.doc.undo()
    assert [r.id for r in window.doc.arena.rocks] == ["R1", "R2"]


def test_symmetry_mode_gives_a_new_tortoise_an_image_for_the_next_player(window: Any) -> None:
    """A tortoise placed for player 3 brings player 4's, at the half-turn image, facing the other
    way."""
    window.doc.symmetry_enabled = True
    window.set_tool("tortoise-derby:tortoises")
    drag(window, (0, -9), (0, -5))
    assert sorted((t.player, t.position, t.facing) for t in window.doc.arena.tortoises[2:]) == [
        (3, (0.0, -9.0), 90.0), (4, (0.0, 9.0), 270.0)]
    assert window.doc.undo_stack.count() == 1


def test_a_kind_named_by_its_player_is_read_from_its_schema_and_its_model() -> None:
    """Tortoises have a ``player`` and no ``id`` in the game's schema: the default editor names
    them by their player, with the id the game's model gives (``tortoise:N``); the next player
    counts the tortoises, not another kind's players."""
    from editor.games import model as G
    from tortoise_derby.model import default_arena

    arena = default_arena()
    rs = G.ruleset(arena)
    assert [k for k in ("tortoises", "rocks", "lettuces") if G.player_named(rs, k)] == ["tortoises"]
    assert G.item_ref(arena, "tortoises", {"player": 5, "position": [1, 1]}) == "tortoise:5"
    assert (G.next_player(arena, "tortoises"), G.next_id(arena, "tortoises")) == (3, "tortoise:3")
    moved = G.move(arena, ["tortoise:2"], 0, 1)
    assert [t.position for t in moved.tortoises] == [(-10.0, 0.0), (10.0, 1.0)]
    assert [t.id for t in G.remove(arena, ["tortoise:1"]).tortoises] == ["tortoise:2"]
