"""Editor conventions (issue 42, point 11): shortcuts on the tool bars' tooltips and in the
menus, Help → User guide (from a checkout and from the installed package), a polygon's vertices
in every game's inspector (one undo command per edit), the save dialog proposing the arena's
name, no local path in a picture's title block, the printable PDF's paper, and book quotes
that keep their apostrophes and inch marks."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from editor.games import model as G

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def cwin(window):  # type: ignore[no-untyped-def]
    assert window.new_arena("car-wars-6e")
    window.doc.symmetry_enabled = False
    return window


def test_the_inspector_lists_a_car_wars_polygon_s_vertices(cwin) -> None:  # type: ignore[no-untyped-def]
    win = cwin
    tri = {"id": "rock", "shape": {"type": "polygon", "points": [[0, 0], [4, 0], [0, 3]]}}
    win.doc.reset(G.add(win.doc.arena, "obstacles", tri), None)
    win.doc.set_selection(["rock"])
    table = win.inspector.points_table
    assert table is not None and table.table.rowCount() == 3
    assert [table.table.item(1, c).text() for c in (0, 1)] == ["4", "0"]
    table.table.item(1, 0).setText("5")  # one cell typed: one undo command
    assert win.doc.arena.obstacles[-1].shape.points[1] == (5, 0)
    assert win.doc.undo_stack.count() == 1
    win.doc.undo()
    assert win.doc.arena.obstacles[-1].shape.points[1] == (4, 0)
    assert table.table.item(1, 0).text() == "4"  # the table follows the undo
    table.table.setCurrentCell(0, 0)
    assert table.add_point()  # halfway along the first edge
    assert win.doc.arena.obstacles[-1].shape.points[1] == (2, 0) and table.table.rowCount() == 4
    table.table.setCurrentCell(3, 0)
    assert table.remove_point()
    assert len(win.doc.arena.obstacles[-1].shape.points) == 3
    assert win.doc.undo_stack.count() == 2
    table.table.setCurrentCell(0, 0)
    assert not table.remove_point()  # a polygon keeps 3 points: refused with the game's words
    assert len(win.doc.arena.obstacles[-1].shape.points) == 3 and win.inspector.error.text()
    table.table.item(0, 1).setText("north")
    assert "must be a number" in win.inspector.error.text() and table.table.item(0, 1).text() == "0"


def test_book_quotes_keep_their_apostrophes_and_inch_marks(window) -> None:  # type: ignore[no-untyped-def]
    """A message with an inch mark was taken for one that quotes already (the book's words were
    left out), and the Arena Rex quotes had lost the book's apostrophes ("the model s MOV")."""
    from validators.arenarex.checks import quoted
    from validators.findings import quote_book

    message = 'the 50 mm base stops 2" short of the centre from deploy:1'
    out = quoted("ar-centre-access", message)
    assert out.startswith(message) and "\"Move up to the model's MOV value in inches.\"" in out
    words = "Place the 1\" turning key against the arena's edge"
    assert quote_book("start 2: no key fits", words) == f'start 2: no key fits "{words}"'
    assert quote_book('start 2: "Place the turning key ..." (L180)', words) == 'start 2: "Place the turning key ..." (L180)'
    # the Validation panel shows them as they are (plain text)
    finding = {"code": "ar-centre-access", "severity": "warning", "message": out, "elements": ["deploy:1"]}
    window.validation.show_findings([finding])
    tree = window.validation.tree
    assert tree.topLevelItem(0).text(2) == out


GAMES = ("car-wars-6e", "arena-rex", "glider-pit-gladiators", "mothership-grid", "gravstrike")


@pytest.mark.parametrize("game", GAMES)
def test_every_tool_and_tool_bar_button_shows_its_key(window, game: str) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtGui import QKeySequence
    from PySide6.QtWidgets import QToolBar

    assert window.new_arena(game)
    keys = [t.shortcut for t in window.tools.values()]
    assert all(keys) and len(set(keys)) == len(keys), keys  # an Arena Rex pit had no key
    native = QKeySequence.SequenceFormat.NativeText
    shown = 0
    for bar in window.findChildren(QToolBar):
        for act in bar.actions():
            key = act.shortcut().toString(native)
            if key:
                assert key in act.toolTip(), (act.text(), act.toolTip())  # "Fit arena" had none
                shown += 1
    assert shown >= len(keys) + 2  # the tools, Fit arena and Actual size
    assert "Ctrl+0" in window.act["fit"].toolTip()
    menu = window.tools_menu
    for name, tool in window.tools.items():  # the Tools menu lists each tool with its key
        act = window.tool_actions[name]
        assert act in menu.actions() and act.shortcut().toString(native) == tool.shortcut
        assert f"({tool.shortcut})" in window.hint_label.text() or name != "select"
