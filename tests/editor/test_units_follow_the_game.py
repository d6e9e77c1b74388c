"""Every number the editor shows carries the current document's game's unit (issue 42, point 8),
taken from the game's ruleset (``Ruleset.units``): the status bar's cursor position and zoom, the
snapping step, the rulers' corner, the Symmetry dialog's centre, the Measure tool, the printable
PDF's report - also right after File → New or Open switches the game."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from editor import actions
from editor.games.rulesets import default_arena, games, units_symbol
from schema.ruleset import ruleset
from tests.editor.conftest import drag, vp

GAMES = [g[0] for g in games()]


def symbol(system: str) -> str:
    return ruleset(system).units.symbol


def test_the_unit_of_every_game_is_its_rulesets() -> None:
    rows = {g[0]: g[3] for g in games()}
    for system in GAMES:
        u = ruleset(system).units
        assert units_symbol(default_arena(system)) == u.symbol
        assert rows[system] == f"{u.plural_name} ({u.symbol})", "File → New's Units column"
    # Gravstrike's editor has always shown lengths as L; its ruleset says so too now
    assert symbol("gravstrike") == "L"


def status_units(win) -> dict[str, str]:  # type: ignore[no-untyped-def]
    return {"position": win.pos_label.text().split()[-1], "zoom": win.zoom_label.text().split("/")[-1],
            "snap": win.snap_box.suffix().strip(), "rulers": win.rulers.corner.text()}


@pytest.mark.parametrize("first,then", [("mothership-grid", "gravstrike"), ("glider-pit-gladiators", "mothership-grid"),
                                        ("gravstrike", "car-wars-6e"), ("car-wars-6e", "arena-rex"),
                                        ("arena-rex", "glider-pit-gladiators")])
def test_the_status_bar_follows_the_documents_game(window, first, then) -> None:  # type: ignore[no-untyped-def]
    assert window.new_arena(first)
    QTest.mouseMove(window.view.viewport(), vp(window, 0.5, 0.5))  # the position shows the first game's unit
    assert status_units(window) == dict.fromkeys(("position", "zoom", "snap", "rulers"), symbol(first))
    assert window.new_arena(then)  # the mouse is on the menu: it has not moved over the canvas
    assert status_units(window) == dict.fromkeys(("position", "zoom", "snap", "rulers"), symbol(then))
    QTest.mouseMove(window.view.viewport(), vp(window, 1.5, 1.5))
    assert window.pos_label.text().endswith(f" {symbol(then)}")


def test_opening_a_file_of_another_game_switches_the_units(window, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from schema import save

    path = tmp_path / "field.yaml"
    save(default_arena("mothership-grid"), path)
    QTest.mouseMove(window.view.viewport(), vp(window, 0.5, 0.5))
    assert window.pos_label.text().endswith(" L")
    assert window.open_path(str(path), ask=False)
    assert status_units(window) == dict.fromkeys(("position", "zoom", "snap", "rulers"), "sq")


@pytest.mark.parametrize("system", ["gravstrike", "car-wars-6e", "arena-rex"])  # placed freely on a table
def test_the_symmetry_dialog_speaks_the_games_unit(window, system) -> None:  # type: ignore[no-untyped-def]
    if system != "gravstrike":
        assert window.new_arena(system)
    seen: dict[str, str] = {}

    def look() -> None:
        dlg = QApplication.activeModalWidget()
        assert isinstance(dlg, actions.SymmetryDialog)
        seen["x"], seen["y"] = dlg.cx.suffix().strip(), dlg.cy.suffix().strip()
        dlg.reject()

    QTimer.singleShot(0, look)
    assert not window.edit_symmetry()
    assert seen == {"x": symbol(system), "y": symbol(system)}


def test_the_measure_tool_reads_in_the_games_unit(window) -> None:  # type: ignore[no-untyped-def]
    assert window.new_arena("car-wars-6e")
    window.view.set_scale(16.0)
    window.view.centerOn(0, 0)
    window.set_tool("measure")
    drag(window, [(0.0, 0.0), (6.0, 0.0)])
    assert "6.00 in" in window.measure_label.text()
    assert "lengths" not in window.hint_label.text(), "the Measure tool's hint names no other game's unit"


def test_the_printable_pdf_report_names_the_games_unit(window, tmp_path) -> None:  # type: ignore[no-untyped-def]
    assert window.new_arena("car-wars-6e")
    reports: list[tuple[str, str]] = []
    window.exports._report = lambda title, text: reports.append((title, text))  # type: ignore[method-assign]
    assert window.exports.export_print(str(tmp_path / "cw.print.pdf"))
    assert "1 inch = 25.4 mm" in reports[-1][1], reports


def test_the_symmetry_in_the_status_bar_gives_its_centre_in_the_games_unit(window) -> None:  # type: ignore[no-untyped-def]
    assert window.new_arena("car-wars-6e")  # declares dihedral symmetry about (0, 0)
    assert window.symmetry_label.text().endswith("(0, 0) in"), window.symmetry_label.text()
    window.new_document(True)  # Gravstrike's default arena
    assert window.symmetry_label.text().endswith(" L"), window.symmetry_label.text()
