"""Editor conventions (issue 42, point 11): shortcuts on the tool bars' tooltips and in the
menus, Help → User guide (from a checkout and from the installed package), a polygon's vertices
in every game's inspector (one undo command per edit), the save dialog proposing the arena's
name, no local path in a picture's title block, the printable PDF's paper, and book quotes
that keep their apostrophes and inch marks."""

from __future__ import annotations

import shutil
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
    from validators.games.arenarex.checks import quoted
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


def test_help_user_guide_opens_the_manual(window) -> None:  # type: ignore[no-untyped-def]
    act = window.act["guide"]
    help_menu = next(a.menu() for a in window.menuBar().actions() if a.menu() is not None and "Help" in a.text())
    assert act in help_menu.actions() and act.shortcut().toString()
    act.trigger()
    QApplication.processEvents()
    guide = window.user_guide
    assert guide.isVisible()
    text = guide.browser.toPlainText()
    assert "The Arena Studio editor" in text and "Symmetry mode" in text and "Menus and shortcuts" in text
    assert "picture:" not in text  # a checkout's pictures are shown
    assert guide.go_to("symmetry-mode")  # the guide's own links ([Arena Rex](#arena-rex)) lead somewhere
    assert guide.browser.textCursor().block().text() == "Symmetry mode"
    guide.close()


def test_the_user_guide_ships_with_the_package(tmp_path: Path) -> None:
    """Installed, the editor reads the guide from its package data (no docs/ folder beside it)."""
    import tomllib
    from importlib import resources

    from editor.user_guide import RESOURCE, for_viewer

    res = resources.files("editor").joinpath(*RESOURCE)
    assert res.read_text(encoding="utf-8") == (ROOT / "docs" / "editor.md").read_text(encoding="utf-8")
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]
    assert "/".join(RESOURCE) in data["editor"] or "help/*.md" in data["editor"]
    # without the pictures (an installed package): each picture is named by its caption
    shown = for_viewer("A ![The editor](img/editor.png) B", tmp_path)
    assert shown == "A *[picture: The editor]* B"


def test_save_as_proposes_the_arena_s_name(window, monkeypatch, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import dataclasses

    from editor import window_files
    from schema.packs import slug

    asked: list[str] = []
    monkeypatch.setattr(window_files.QFileDialog, "getSaveFileName",
                        staticmethod(lambda _parent, _title, start, _filter: (asked.append(start), ("", ""))[1]))
    window.settings.setValue(window_files.LAST_DIR_KEY, str(tmp_path))
    assert window.new_arena("car-wars-6e")
    assert window.doc.path is None
    window.save_as()
    assert Path(asked[-1]) == tmp_path / f"{slug(window.doc.arena.name)}.yaml"  # it was "untitled.yaml"
    window.doc.reset(dataclasses.replace(window.doc.arena, name="Crossroads (four players)"), None)
    window.save_as()
    assert Path(asked[-1]) == tmp_path / "crossroads-four-players.yaml"
    shown: list[str] = []
    window.exports.ask_path = lambda _t, suggested, _f: (shown.append(suggested), "")[1]
    window.exports.export_picture("png")
    assert Path(shown[-1]).name == "crossroads-four-players.png"  # the exports too


def pdf_text(data: bytes, tmp_path: Path) -> str:
    import subprocess

    (tmp_path / "x.pdf").write_bytes(data)
    return subprocess.run(["pdftotext", "-layout", str(tmp_path / "x.pdf"), "-"], capture_output=True, text=True,
                          check=True).stdout


#: poppler's pdftotext and pdfinfo read the PDFs (Debian poppler-utils, which .ci/run installs)
needs_poppler = pytest.mark.skipif(shutil.which("pdftotext") is None or shutil.which("pdfinfo") is None,
                                   reason="poppler's pdftotext/pdfinfo not installed (Debian package poppler-utils)")


@needs_poppler
@pytest.mark.parametrize("arena_file", ["arenas/default.yaml", "arenas/car-wars/crossroads-4p.yaml"])
def test_the_title_block_prints_the_file_name_not_its_folder(arena_file: str, tmp_path: Path) -> None:
    """poppler's pdftotext reads the picture's title block; the PNG is drawn by the same page
    painter, so a path or its file name give the same picture."""
    from editor.export_render import render_bytes
    from schema import load

    arena = load(ROOT / arena_file)
    secret = "/home/designer/secret-projects/club night/" + Path(arena_file).name
    text = pdf_text(render_bytes(arena, "pdf", source=secret), tmp_path)
    assert f"File: {Path(arena_file).name}" in text
    assert "secret-projects" not in text and "designer" not in text
    assert render_bytes(arena, "png", source=secret) == render_bytes(arena, "png", source=Path(arena_file).name)


@needs_poppler
def test_the_printable_pdf_lets_the_designer_choose_the_paper(window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import subprocess

    from PySide6.QtCore import QLocale

    ex = window.exports
    ex.inform = lambda _title, _text: None
    offered: list[str] = []
    ex.ask_path = lambda _t, _s, _f: str(tmp_path / "p.pdf")
    old = QLocale()
    try:
        QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
        assert ex.default_paper() == "letter"  # the locale's paper first
        QLocale.setDefault(QLocale(QLocale.Language.German, QLocale.Country.Germany))
        assert ex.default_paper() == "a4"
    finally:
        QLocale.setDefault(old)
    ex.ask_paper = lambda default: (offered.append(default), "tabloid")[1]
    window.exports.actions["print"].trigger()
    info = subprocess.run(["pdfinfo", str(tmp_path / "p.pdf")], capture_output=True, text=True, check=True).stdout
    size = next(line for line in info.splitlines() if line.startswith("Page size"))
    w, h = (float(v) for v in size.split(":")[1].split("pts")[0].split(" x "))
    assert sorted((round(w / 72 * 25.4, 1), round(h / 72 * 25.4, 1))) == [279.4, 431.8]  # 11 x 17 in
    assert ex.default_paper() == "tabloid"  # the last choice next time
    ex.ask_paper = lambda default: (offered.append(default), "")[1]
    (tmp_path / "p.pdf").unlink()
    assert not ex.export_print()  # cancelled: nothing written
    assert not (tmp_path / "p.pdf").exists() and offered == ["a4", "tabloid"]
