"""Every game is drawn through its renderer (issue 37: "Shared modules talk only to the interface";
the editor's painting is a hook of the game): :meth:`editor.game.EditorGame.renderer` returns an
:class:`editor.render.ArenaRenderer`, and the canvas, the exports and the prints draw a game's
arena and elements through it, Gravstrike's hand-tuned painting included."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage, QPainter, QPainterPath

from editor import render as R
from editor.game import editor_game
from editor.print_pdf import print_pdf
from schema.io import load
from schema.ruleset import ArenaModel
from tests.editor.conftest import make_arena

ROOT = Path(__file__).resolve().parents[2]
CAR_WARS = ROOT / "arenas" / "car-wars" / "twin-pillars-2p.yaml"


class Recording(R.ArenaRenderer):
    """The base renderer, noting what it was asked to draw."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def paint_arena(self, painter: QPainter, arena: ArenaModel, target: QRectF, **kw: Any) -> None:
        self.calls.append(f"arena {arena.name}")
        super().paint_arena(painter, arena, target, **kw)

    def element_path(self, el: object, ctx: object = None) -> QPainterPath:
        self.calls.append(f"path {type(el).__name__}")
        return super().element_path(el, ctx)


@pytest.fixture
def recording(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str], Recording]]:
    """Give the game ``system`` a :class:`Recording` renderer (found again by element class)."""

    def install(system: str) -> Recording:
        rec = Recording()
        monkeypatch.setattr(editor_game(system), "renderer", lambda: rec)
        monkeypatch.setattr(R, "_BY_CLASS", {})
        return rec

    yield install


def test_each_game_has_its_renderer_gravstrike_its_own() -> None:
    from editor.games.gravstrike.paint import GravstrikeRenderer

    gravstrike, carwars = make_arena(), load(CAR_WARS)
    assert isinstance(R.renderer_of(gravstrike), GravstrikeRenderer)
    assert R.renderer_of(carwars) is R.DEFAULT_RENDERER  # Car Wars is drawn from its styles
    assert isinstance(R.element_renderer(type(gravstrike.walls[0])), GravstrikeRenderer)
    assert R.element_renderer(type(carwars.elements()[0])) is R.DEFAULT_RENDERER
    assert R.element_renderer(QRectF) is R.DEFAULT_RENDERER  # nobody's element
    assert R.context_of(gravstrike) == gravstrike.turbine


def test_print_and_export_draw_a_game_through_its_renderer(qapp: Any, recording: Callable[[str], Recording]) -> None:
    rec = recording("car-wars-6e")
    arena = load(CAR_WARS)
    print_pdf(arena, "a4")
    assert rec.calls and set(rec.calls) == {f"arena {arena.name}"}
    img = QImage(200, 200, QImage.Format.Format_ARGB32)
    p = QPainter(img)
    try:
        R.paint_arena(p, arena, QRectF(0, 0, 200, 200))
    finally:
        p.end()
    assert len(rec.calls) > 1


def test_the_canvas_outlines_elements_through_their_games_renderer(window: Any,
                                                                   recording: Callable[[str], Recording]) -> None:
    rec = recording("gravstrike")
    window.doc.reset(editor_game("gravstrike").new_arena(), None)  # no elements...
    window.doc.reset(make_arena(), None)  # ...then new items, each outlined by the (recording) renderer
    assert set(rec.calls) >= {"path Wall", "path Checkpoint", "path StartPosition"}


def test_the_kind_box_offers_the_games_tool_kinds(qtbot: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtCore import QSettings

    from editor import files as F
    from editor.mainwindow import MainWindow
    from editor.validation import format_analyse

    monkeypatch.setattr(editor_game("gravstrike"), "tool_kinds", lambda: ("central",))
    win = MainWindow(settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat),
                     recovery=F.RecoveryStore(tmp_path / "recovery", pid=1), analyse=format_analyse)
    qtbot.addWidget(win)
    try:
        assert [win.kind_box.itemText(i) for i in range(win.kind_box.count())] == ["central"]
    finally:
        win.runner.shutdown()
        win.overlays.shutdown()
