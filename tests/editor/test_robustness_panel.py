"""Analysis → Tabletop robustness…: the run in the background (progress, cancel), the same figures
as ``arena validate --robustness``, and the Validation panel's "Under table error" column."""

from __future__ import annotations

import multiprocessing
import time

from tests.robustness.arenas import edge_case_arena
from validators.robustness import Settings, robustness
from validators.run import validate


def test_menu_run_matches_the_cli_and_fills_the_column(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    arena = edge_case_arena()
    window.doc.reset(arena, None)
    seen: list[tuple[int, int]] = []
    window.robustness.run.progress.connect(lambda d, t: seen.append((d, t)))
    assert window.act["robustness"].text().startswith("Tabletop")
    assert window.robustness.start(3, seed=5)
    assert window.robustness.dialog is not None and window.robustness.dialog.maximum() == 3
    with qtbot.waitSignal(window.robustness.run.finished, timeout=600_000) as got:
        pass
    section = got.args[0]
    assert seen[-1] == (3, 3)
    assert section == robustness(arena, validate(arena), Settings(3, 5), workers=1)
    panel = window.validation
    assert panel.robustness == section and not panel.tree.isColumnHidden(4)
    texts = {(panel.tree.topLevelItem(i).text(1), panel.tree.topLevelItem(i).text(3)): panel.tree.topLevelItem(i).text(4)
             for i in range(panel.tree.topLevelItemCount())}
    for f in section["findings"]:
        if f["share"] > 0:
            assert texts[(f["code"], ", ".join(f["elements"]))] == f"in {f['share']:.0%}"
    assert window.robustness.dialog is None
    # the travel-time table: each cell's least and most turns under table error, in brackets
    from editor.games.gravstrike.overlays import travel_table

    table = window.overlays.table
    table.show_table(travel_table(arena))
    cols = [table.table.horizontalHeaderItem(j).text() for j in range(table.table.columnCount())]
    rows = [table.table.verticalHeaderItem(i).text() for i in range(table.table.rowCount())]
    for start, row in section["travel"].items():
        for goal, band in row.items():
            item = table.table.item(rows.index(start), cols.index(goal.split(":", 1)[1]))
            lo, hi = band["min"], band["max"]
            assert item.text().startswith(f"{band['nominal']:.2f}")
            assert item.text().endswith(f"({lo:.2f})" if lo == hi else f"({lo:.2f}–{hi:.2f})")
            assert f"median {band['median']:.2f}" in item.toolTip()
    assert "under table error (3 placements)" in table.status.text()
    # an edit: the figures were for the arena as it was
    window.doc.set_selection(["B"])
    window.nudge(0.5, 0.0)
    assert panel.robustness is None and panel.tree.isColumnHidden(4)
    assert table.bands is None and "(" not in table.table.item(0, 0).text()


def test_cancel_stops_the_children_at_once(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.doc.reset(edge_case_arena(), None)
    assert window.robustness.start(40)
    qtbot.wait(300)
    from PySide6.QtWidgets import QPushButton

    button = window.robustness.dialog.findChild(QPushButton)
    assert button is not None and button.text() == "Cancel"
    button.click()
    assert not window.robustness.run.running and window.robustness.dialog is None
    deadline = time.monotonic() + 120  # a safety net: the children are killed at once
    while multiprocessing.active_children() and time.monotonic() < deadline:
        qtbot.wait(100)
    assert not [p for p in multiprocessing.active_children() if p.is_alive()]
    assert window.validation.robustness is None


def test_a_game_without_a_hook_says_so(window) -> None:  # type: ignore[no-untyped-def]
    from pathlib import Path

    from schema import load

    root = Path(__file__).resolve().parents[2]
    window.doc.reset(load(root / "arenas" / "mothership-grid" / "battlefield-3x5.yaml"), None)
    assert not window.robustness.start(3)
    assert "does not apply" in window.statusBar().currentMessage()  # its cards sit in the grid's squares


def test_car_wars_placements_fill_the_column(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    """Car Wars has a hook: the same run from the menu, in inches, its travel findings included."""
    from pathlib import Path

    from schema import load

    arena = load(Path(__file__).resolve().parents[2] / "arenas" / "car-wars" / "twin-pillars-2p.yaml")
    window.doc.reset(arena, None)
    assert window.robustness.start(1, seed=2)
    with qtbot.waitSignal(window.robustness.run.finished, timeout=600_000) as got:
        pass
    section = got.args[0]
    assert section["tolerance"]["unit"] == "in" and section["validated"] == 1
    assert any(m["key"].startswith("access_gap:flat-out:") for m in section["metrics"])
    assert window.validation.robustness == section and not window.validation.tree.isColumnHidden(4)
