"""The grid games in the editor in a real X server (issue 15), by real mouse and keyboard: the
editor opens the default Glider-Pit pit, a stroke with the Paint tool (B) adds a string of hexes above the pit
— and, in symmetry mode, their mirror images — as ONE undo step; erasing two hexes of launch
zone Z1 (X) makes the live findings list ``gp-launch-zones``; the Mothership battlefield opens
with its own palette and a click selects a Mothership.  Screenshots are saved (published as
docs/img/glider-pit-editor.png and mothership-editor.png with ARENA_STUDIO_SCREENSHOTS)."""

from __future__ import annotations

from pathlib import Path

from engine.grids import HexLayout
from schema.games import gliderpit as gp
from schema.games import mothership as ms
from tests.realwindow.harness import Editor, XSession

PIT = HexLayout("pointy")


def test_paint_and_erase_hexes_of_the_pit(xsession: XSession, tmp_path: Path, shots) -> None:  # type: ignore[no-untyped-def]
    ed = Editor.on(xsession, tmp_path, gp.default_arena(), "pit.yaml")
    try:
        s = ed.ready(150)
        assert s["game"] == "glider-pit-gladiators" and s["labels"]["game"].startswith("Glider-Pit")
        ed.click(*PIT.center((0, 0)))  # the canvas takes the keyboard (Select: row R10)
        ed.key("b")
        ed.wait(lambda s: s["tool"] == "grid:paint", "the Paint cells tool (B)")
        ed.drag([PIT.center((-4, 10)), PIT.center((-3, 10)), PIT.center((-2, 10))])  # above the top row
        s = ed.wait(lambda s: len(s["arena"]["cells"]) == 271 + 6, "three hexes and their mirror images")
        assert [-2, 10] in s["arena"]["cells"] and [-8, 10] in s["arena"]["cells"]  # across x = 0
        assert s["undo"]["count"] == 1  # the whole stroke
        before = s["runner"]["generation"]
        ed.key("x")
        ed.wait(lambda s: s["tool"] == "grid:erase", "the Erase cells tool (X)")
        ed.drag([PIT.center((-9, 8)), PIT.center((-9, 7))])  # two of Z1's hexes (and Z4's, mirrored)
        s = ed.wait(lambda s: any(f["code"] == "gp-launch-zones" for f in s["findings"])
                    and s["runner"]["generation"] > before, "the gp-launch-zones finding", 60)
        assert s["undo"]["count"] == 2
        assert any(r["code"] == "gp-launch-zones" for r in s["finding_rows"])
        ed.key("ctrl+z")
        s = ed.wait(lambda s: s["undo"]["index"] == 1, "the erase undone")
        s = ed.wait(lambda s: not any(f["code"] == "gp-launch-zones" for f in s["findings"]), "the finding gone", 60)
        ed.key("v")
        ed.wait(lambda s: s["tool"] == "select", "the Select tool (V)")
        ed.click(*PIT.center((-9, 1)))  # select zone Z2: the inspector shows its fields
        s = ed.wait(lambda s: s["selection"] == ["Z2"], "zone Z2 selected")
        assert len(s["arena"]["cells"]) == 271 + 6 and s["undo"]["index"] == 1
        shots("glider-pit-editor.png")
    finally:
        ed.close()


def test_the_battlefield_opens_with_its_palette(xsession: XSession, tmp_path: Path, shots) -> None:  # type: ignore[no-untyped-def]
    ed = Editor.on(xsession, tmp_path, ms.default_arena(), "field.yaml")
    try:
        s = ed.ready(150)
        assert s["game"] == "mothership-grid"
        ed.click(1.5, -0.5)  # Mothership 1's middle square
        s = ed.wait(lambda s: s["selection"] == ["M1"], "Mothership M1 selected")
        ed.key("h")
        ed.wait(lambda s: s["tool"] == "grid:motherships", "the Motherships tool (H)")
        assert s["findings"] == []  # the book's battlefield validates clean
        shots("mothership-editor.png")
    finally:
        ed.close()


def test_symmetry_mode_moves_a_launch_zone_and_its_mirror_zone(xsession: XSession, tmp_path: Path, shots) -> None:  # type: ignore[no-untyped-def]
    """Issue 42 (symmetry per game), by real mouse and keys in the default pit (mirror about the
    vertical axis, drawn on the canvas): with the Launch zones tool (Z), a right click takes
    Z1's last hex out (and its mirror hex out of Z4), a click on the corner hex above Z1 adds it
    in front of Z1 — and its mirror hex in front of Z4, not in a new zone Z7; the pit validates
    clean.  The screenshot shows the axis through the pit's centre."""
    from PySide6.QtGui import QColor, QImage

    from editor.symmetry_guide import COLOUR

    ed = Editor.on(xsession, tmp_path, gp.default_arena(), "pit.yaml")
    try:
        ed.ready(150)
        ed.click(*PIT.center((0, 0)))  # the canvas takes the keyboard
        ed.key("z")
        ed.wait(lambda s: s["tool"] == "grid:zones", "the Launch zones tool (Z)")
        ed.click_at(ed.screen(*PIT.center((-9, 4))), button=3)
        first = ed.wait(lambda s: s["undo"]["count"] == 1, "Z1's last hex taken out")
        zones = {z["id"]: z["cells"] for z in first["arena"]["launch_zones"]}
        assert [-9, 4] not in zones["Z1"] and [5, 4] not in zones["Z4"]
        ed.click(*PIT.center((-9, 9)))
        s = ed.wait(lambda s: s["undo"]["count"] == 2, "the corner hex added to Z1")
        zones = {z["id"]: (z["track"], z["cells"]) for z in s["arena"]["launch_zones"]}
        assert sorted(zones) == ["Z1", "Z2", "Z3", "Z4", "Z5", "Z6"]
        assert zones["Z1"] == (1, [[-9, 9], [-9, 8], [-9, 7], [-9, 6], [-9, 5]])
        assert zones["Z4"] == (4, [[0, 9], [1, 8], [2, 7], [3, 6], [4, 5]])
        s = ed.settled(first)
        assert [f for f in s["findings"] if f["severity"] == "error"] == []
        shot = QImage(str(shots("glider-pit-symmetry.png", publish=False)))
        top, bottom = ed.screen(0.0, 8.0, s), ed.screen(0.0, -8.0, s)  # the pit's centroid is x = 0
        axis = QColor(COLOUR)
        hits = sum(1 for y in range(top[1], bottom[1])
                   if any(abs(QColor(shot.pixel(x, y)).red() - axis.red()) + abs(QColor(shot.pixel(x, y)).green() - axis.green())
                          + abs(QColor(shot.pixel(x, y)).blue() - axis.blue()) < 90 for x in range(top[0] - 2, top[0] + 3)))
        assert hits > (bottom[1] - top[1]) / 3  # a dash-dot line down the axis
    finally:
        ed.close()
