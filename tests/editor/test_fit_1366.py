"""The editor at 1366 x 768 (issue 42, point 10): the element tree lists a shipped arena
without scrolling, the tool hints are never cut off by the status bar's other texts, the New
arena dialog shows every column, labels on the canvas do not overprint each other, overlay keys
leave the board alone, and Glider-Pit row numbers are readable at the default zoom."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication, QMessageBox, QTreeWidgetItemIterator

from editor import files as F
from editor.validation import format_analyse

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = {"gravstrike": ROOT / "arenas" / "default.yaml",
           "car-wars-6e": ROOT / "arenas" / "car-wars" / "crossroads-4p.yaml",
           "glider-pit-gladiators": ROOT / "arenas" / "glider-pit-gladiators" / "hexagonal-pit.yaml",
           "mothership-grid": ROOT / "arenas" / "mothership-grid" / "battlefield-3x5.yaml",
           "arena-rex": ROOT / "arenas" / "arena-rex" / "colosseum-30.yaml"}
#: The smallest label, in screen pixels (font pixel size), read at a glance on a laptop screen.
READABLE_PX = 10


def settle(n: int = 4) -> None:
    for _ in range(n):
        QApplication.processEvents()


@pytest.fixture
def win(qtbot, tmp_path: Path):  # type: ignore[no-untyped-def]
    from editor.mainwindow import MainWindow

    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(settings=settings, recovery=F.RecoveryStore(tmp_path / "recovery", pid=1), analyse=format_analyse)
    w.ask_save = lambda: QMessageBox.StandardButton.Discard  # type: ignore[method-assign]
    qtbot.addWidget(w)
    w.resize(1366, 768)
    w.show()
    qtbot.waitExposed(w)
    settle()
    yield w
    w.doc.undo_stack.setClean()
    w.runner.shutdown()
    w.overlays.shutdown()


def open_fitted(w, game: str) -> None:  # type: ignore[no-untyped-def]
    assert w.open_path(str(SHIPPED[game]), ask=False)
    settle()
    w.view.fit_arena()
    settle()


def test_the_element_tree_lists_the_default_arena_without_scrolling(win) -> None:  # type: ignore[no-untyped-def]
    open_fitted(win, "gravstrike")
    tree = win.tree
    tree.expandAll()
    settle()
    rows, it = 0, QTreeWidgetItemIterator(tree)
    while it.value():
        rows += 1
        it += 1
    assert rows >= 30  # six walls, four checkpoints, six fields, ... with their group rows
    last = tree.visualItemRect(tree.topLevelItem(tree.topLevelItemCount() - 1))
    assert tree.viewport().height() >= rows * last.height()  # every row in view (about 15 were)
    assert not tree.verticalScrollBar().isVisible()
    assert win.docks["elements"].isVisible()
    assert win.docks["layers"] in win.tabifiedDockWidgets(win.docks["elements"])  # a tab away


@pytest.mark.parametrize("game", sorted(SHIPPED))
def test_tool_hints_are_not_cut_off_by_the_status_bar(win, game: str) -> None:  # type: ignore[no-untyped-def]
    open_fitted(win, game)
    win.statusBar().clearMessage()
    win.pos_label.setText("x -9999.99  y -9999.99 hex")  # the cursor readout at its widest
    hint = win.hint_label
    settle(3)
    canvas = win.view.viewport().size()
    for name in list(win.tools):
        win.set_tool(name)
        settle(3)
        assert win.view.viewport().size() == canvas, name  # picking a tool never resizes the canvas
        win.statusBar().showMessage("Saved /tmp/x.yaml", 3000)  # a message hides the hint...
        settle(3)
        assert win.view.viewport().size() == canvas, name  # ...and leaves the canvas be
        win.statusBar().clearMessage()
        settle(2)
        assert hint.isVisible()
        # all of the text within the label's rectangle, wrapped in its width
        needed = hint.fontMetrics().boundingRect(hint.contentsRect(), int(hint.alignment()) | 0x1000, hint.text())
        assert needed.height() <= hint.contentsRect().height() + 1, (name, hint.text())
        assert needed.width() <= hint.contentsRect().width() + 1, (name, hint.text())
        right = hint.mapTo(win, hint.rect().topRight()).x()
        for other in (win.symmetry_label, win.pos_label, win.zoom_label):
            if other.isVisible() and other.text():
                assert right < other.mapTo(win, other.rect().topLeft()).x(), (name, other.text())


@pytest.mark.parametrize("game", ["arena-rex", "gravstrike"])
def test_the_validating_indicator_never_resizes_the_canvas(win, game: str) -> None:  # type: ignore[no-untyped-def]
    """"validating…" and its busy bar come and go with every run: they keep their place when
    hidden, so the tool hint keeps its width and the canvas its size (the indicator used to take
    the hint's width, the hint wrapped onto a third line and the canvas shrank by a line)."""
    open_fitted(win, game)
    win.statusBar().clearMessage()
    settle(3)
    for name in list(win.tools):
        win.set_tool(name)
        settle(2)
        canvas = win.view.viewport().size()
        win.busy.runner.running = "travel checks"
        win.busy._set(True)
        settle(3)
        assert win.busy.label.text().startswith("validating")
        assert win.view.viewport().size() == canvas, name
        win.busy._set(False)
        settle(3)
        assert win.view.viewport().size() == canvas, name


def test_the_new_arena_dialog_shows_every_column(qtbot) -> None:  # type: ignore[no-untyped-def]
    from editor.games.new_dialog import NewArenaDialog

    dlg = NewArenaDialog()
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.waitExposed(dlg)
    settle()
    tree, head = dlg.list, dlg.list.header()
    last = tree.columnCount() - 1
    assert head.sectionViewportPosition(last) + head.sectionSize(last) <= tree.viewport().width()
    for c in range(tree.columnCount()):
        for i in range(tree.topLevelItemCount()):
            text = tree.topLevelItem(i).text(c)
            assert tree.fontMetrics().horizontalAdvance(text) <= head.sectionSize(c), text
    assert not tree.horizontalScrollBar().isVisible()
    assert dlg.width() <= 1366


def test_canvas_labels_never_overprint_f1_over_c(win) -> None:  # type: ignore[no-untyped-def]
    """A field drawn on a checkpoint (the designer's "F1" over "C"): both names read."""
    from editor import render
    from schema.shapes import Circle
    from schema.games.gravstrike.model import AccelerationField, Checkpoint

    open_fitted(win, "gravstrike")
    arena = win.doc.arena
    c = next(cp for cp in arena.checkpoints if cp.id == "C")
    cx, cy = c.shape.center
    on_c = AccelerationField("F1", Circle((cx, cy + 0.8), 0.8), 90.0)  # its name (under it) on C's letter
    win.doc.reset(dataclasses.replace(arena, acceleration_fields=(
        on_c, *[f for f in arena.acceleration_fields if f.id != "F1"])), None)
    settle()
    win.view.fit_arena()
    settle()
    labels = win.view.label_layout()
    texts = [lab.text for lab in labels]
    assert "F1" in texts and "C" in texts
    # drawn where each element puts it, "F1" and "C" overprint...
    raw = []
    for it in win.scene.items_by_ref.values():
        with render.collect_labels() as got:
            from PySide6.QtWidgets import QStyleOptionGraphicsItem
            from PySide6.QtGui import QPainter, QPicture
            pic = QPicture()
            p = QPainter(pic)
            p.setWorldTransform(it.sceneTransform() * win.view.viewportTransform())
            it.paint(p, QStyleOptionGraphicsItem(), None)
            p.end()
        raw += got
    f1, cc = (next(lab.rect for lab in raw if lab.text == t) for t in ("F1", "C"))
    assert render.overprints(f1, cc)
    # ...the canvas moves them apart: no two labels of the whole arena overprint
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            assert not render.overprints(a.rect, b.rect), (a.text, b.text)


@pytest.mark.parametrize("game", sorted(SHIPPED))
def test_no_labels_overprint_on_the_shipped_arenas(win, game: str) -> None:  # type: ignore[no-untyped-def]
    from editor import render

    open_fitted(win, game)
    labels = [lab for lab in win.view.label_layout() if lab.text]
    assert labels
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            assert not render.overprints(a.rect, b.rect), (a.text, b.text)


def test_car_wars_turning_keys_are_named_over_the_cars(win) -> None:  # type: ignore[no-untyped-def]
    """Each start's turning key's name was drawn under its car (key 2 and key 4 at 1366 x 768):
    where each key's name goes (the middle of the key), its dark letters on a light ground show."""
    from PySide6.QtCore import QPointF, QRectF
    from PySide6.QtGui import QColor

    from editor.games.carwars.keys import start_keys

    open_fitted(win, "car-wars-6e")
    keys = start_keys(win.doc.arena)
    assert len(keys) == 4
    image = win.view.viewport().grab().toImage()
    ink = QColor("#003D2C")
    for player, poly in keys:
        at = win.view.mapFromScene(QPointF(sum(p[0] for p in poly) / len(poly), sum(p[1] for p in poly) / len(poly)))
        r = QRectF(at.x() - 16, at.y() - 5, 32, 10).toAlignedRect()  # "key N" at 10 px
        pixels = [QColor(image.pixel(x, y)) for x in range(r.left(), r.right()) for y in range(r.top(), r.bottom())]
        dark = sum(1 for c in pixels if abs(c.red() - ink.red()) < 50 and abs(c.green() - ink.green()) < 50
                   and abs(c.blue() - ink.blue()) < 50)
        light = sum(1 for c in pixels if c.lightness() > 200)
        assert dark >= 0.04 * len(pixels) and light >= 0.4 * len(pixels), (player, dark, light, len(pixels))


def test_glider_pit_row_numbers_are_readable_at_the_default_zoom(win, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtWidgets import QStyleOptionGraphicsItem

    from editor import render

    drawn: list[tuple[str, float]] = []
    original = render.draw_label

    def record(painter, at, text, **kw):  # type: ignore[no-untyped-def]
        drawn.append((text, kw.get("px", 12.0)))
        return original(painter, at, text, **kw)

    monkeypatch.setattr(render, "draw_label", record)
    open_fitted(win, "glider-pit-gladiators")
    item = win.game.grid.item
    image = QImage(win.view.viewport().size(), QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    painter.setWorldTransform(item.sceneTransform() * win.view.viewportTransform())
    drawn.clear()  # the window's own paints
    item.paint(painter, QStyleOptionGraphicsItem(), None)
    painter.end()
    arena = win.doc.arena
    rows = {str(r.label) for r in arena.rows}
    numbers = [px for text, px in drawn if text.rstrip("↑↓") in rows]
    assert len(numbers) == 2 * len(arena.rows)  # both ends of every row
    assert min(numbers) >= READABLE_PX, sorted(set(numbers))  # 6.7 pixels were drawn
    tracks = [px for text, px in drawn if text.startswith("Track ")]
    assert tracks and min(tracks) >= READABLE_PX


def outline_on_screen(view) -> object:  # type: ignore[no-untyped-def]
    from PySide6.QtGui import QPainterPath

    from editor import render

    path = QPainterPath()
    path.addPath(render.shape_path(view.scene().arena.bounds))
    return view.mapFromScene(path)


def area(path) -> float:  # type: ignore[no-untyped-def]
    total = 0.0
    for poly in path.toFillPolygons():
        pts = [poly.at(i) for i in range(poly.size())]
        total += abs(sum(a.x() * b.y() - b.x() * a.y() for a, b in zip(pts, pts[1:] + pts[:1]))) / 2
    return total


@pytest.mark.parametrize("game", ["gravstrike", "car-wars-6e"])
def test_the_heat_map_key_leaves_the_board_alone(win, game: str) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QPainterPath

    open_fitted(win, game)
    if game == "gravstrike":
        legend = win.overlays.parts["gravstrike"].legend
        legend.set_heat(1, "shown")
    else:
        legend = win.overlays.parts["car-wars-6e"].legend
        legend.set_state("heat", "Car Wars heat map from start 1 (flat out)")
        legend.set_state("path", "Car Wars path from start 1 to card 2", detail="2 turns, 4 dice; labels: turn.point, "
                         "+N dice rolled there")
    settle()
    assert legend.isVisible()
    port = win.view.viewport().geometry()
    box = QPainterPath()
    box.addRect(QRectF(legend.geometry().translated(-port.topLeft())))
    assert area(outline_on_screen(win.view).intersected(box)) < 1.0, legend.geometry()
    assert port.contains(legend.geometry())
    win.view.zoom_by(1.1)  # the key moves with the board
    settle()
    box = QPainterPath()
    box.addRect(QRectF(legend.geometry().translated(-port.topLeft())))
    covered = area(outline_on_screen(win.view).intersected(box))
    others = []
    for dx, dy in ((0, 0), (1, 0), (0, 1), (1, 1)):
        corner = QPainterPath()
        corner.addRect(QRectF(8 + dx * (port.width() - legend.width() - 16), 8 + dy * (port.height() - legend.height() - 16),
                              legend.width(), legend.height()))
        others.append(area(outline_on_screen(win.view).intersected(corner)))
    assert covered <= min(others) + 1.0


def test_mothership_names_are_readable_at_the_default_zoom(win, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtWidgets import QStyleOptionGraphicsItem

    from editor import render

    drawn: list[tuple[str, float]] = []
    original = render.draw_label
    monkeypatch.setattr(render, "draw_label", lambda p, at, text, **kw: (drawn.append((text, kw.get("px", 12.0))),
                                                                         original(p, at, text, **kw))[1])
    open_fitted(win, "mothership-grid")
    item = win.game.grid.item
    image = QImage(win.view.viewport().size(), QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    painter.setWorldTransform(item.sceneTransform() * win.view.viewportTransform())
    drawn.clear()
    item.paint(painter, QStyleOptionGraphicsItem(), None)
    painter.end()
    ships = [(t, px) for t, px in drawn if "HP" in t]
    assert len(ships) == 2 and all(px >= READABLE_PX for _t, px in ships), ships  # 7.9 pixels were drawn
    builds = [px for t, px in drawn if t.startswith("build P")]
    assert builds and min(builds) >= READABLE_PX
