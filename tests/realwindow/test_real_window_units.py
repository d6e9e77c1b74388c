"""Units and "nothing silent" in a real X server (issue 42, points 7 and 8), by real mouse and
keyboard: the status bar, the snapping box and the rulers' corner speak the open document's
game's unit and switch with it (the Mothership battlefield's ``sq``, then Gravstrike's ``L``
straight after File → New, before the mouse moves over the canvas); a Car Wars arena's Symmetry
dialog gives its centre in ``in``; a flat drag with the Obstacle tool says why it drew nothing
under the cursor; Delete in the Elements list deletes the selected element.  Screenshots are
saved (units-mothership.png, units-gravstrike.png, units-car-wars-symmetry.png,
flat-drag-notice.png)."""

from __future__ import annotations

from pathlib import Path

from schema.games import carwars as cw
from schema.games import mothership as ms
from tests.realwindow.harness import Editor, XSession

UNITS = ("position", "zoom", "ruler-unit")


def units(s: dict) -> list[str]:  # type: ignore[type-arg]
    """The unit each status/ruler label ends with, and the snap box's."""
    return [s["labels"][k].split()[-1].split("/")[-1] for k in UNITS] + [s["status"]["snap"].strip()]


def test_the_status_bar_follows_the_game_from_mothership_to_gravstrike(xsession: XSession, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                                       shots) -> None:
    ed = Editor.on(xsession, tmp_path, ms.default_arena(), "field.yaml")
    try:
        s = ed.ready(150)
        assert s["game"] == "mothership-grid"
        ed.move(ed.screen(1.5, 2.5, s))  # over the battlefield
        s = ed.wait(lambda s: s["labels"]["position"].startswith("x ") and "–" not in s["labels"]["position"],
                    "the cursor position")
        assert units(s) == ["sq"] * 4, s["labels"]
        shots("units-mothership.png", publish=False)
        ed.menu("File", "New empty Gravstrike arena")
        s = ed.wait(lambda s: s["game"] == "gravstrike", "the Gravstrike arena")
        assert units(s) == ["L"] * 4, s["labels"]  # at once: no mouse move over the canvas needed
        ed.move(ed.screen(2.0, 3.0, s))
        s = ed.wait(lambda s: "–" not in s["labels"]["position"], "the cursor position in L")
        x, y = float(s["labels"]["position"].split()[1]), float(s["labels"]["position"].split()[3])
        assert abs(x - 2.0) < 0.2 and abs(y - 3.0) < 0.2 and s["labels"]["position"].endswith(" L")
        shots("units-gravstrike.png", publish=False)
    finally:
        ed.close()


def test_car_wars_symmetry_dialog_flat_drag_and_delete_in_the_list(xsession: XSession, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                                   shots) -> None:
    ed = Editor.on(xsession, tmp_path, cw.default_arena(), "cw.yaml")
    try:
        s = ed.ready(150)
        assert s["game"] == "car-wars-6e" and units(s)[1:] == ["in"] * 3
        ed.menu("Arena", "Symmetry…")
        s = ed.wait(lambda s: s["modal"] is not None and s["modal"]["title"] == "Symmetry", "the Symmetry dialog")
        assert s["modal"]["suffixes"][:2] == [" in", " in"], s["modal"]
        shots("units-car-wars-symmetry.png", publish=False)
        ed.key("Escape")
        ed.wait(lambda s: s["modal"] is None, "the dialog closed")
        # a flat drag with the Obstacle tool: nothing drawn, the reason under the cursor
        ed.click(5.5, 5.5)  # the canvas takes the keyboard
        ed.key("o")
        s = ed.wait(lambda s: s["tool"] == "car-wars-6e:obstacles", "the Obstacle tool (O)")
        count = len(s["arena"].get("obstacles", []))
        ed.drag([(4.0, 8.0), (7.0, 8.0), (10.0, 8.0)])
        s = ed.wait(lambda s: "nothing drawn" in s["notice"], "the notice at the cursor")
        assert "no height" in s["notice"] and len(s["arena"].get("obstacles", [])) == count
        shots("flat-drag-notice.png", publish=False)
        # Delete in the Elements list: a click on start 1's row selects it (and gives the list the
        # keyboard); Delete deletes it (and, in symmetry mode, its images) as one undo step
        s = ed.wait(lambda s: any(r["ref"] == "start:1" for r in s["tree_rows"]), "start 1's row in the list")
        starts, undo = len(s["arena"]["start_positions"]), s["undo"]["count"]
        row = next(r for r in s["tree_rows"] if r["ref"] == "start:1")
        ed.click_at(ed.centre(row["rect"]))
        ed.wait(lambda s: s["selection"] == ["start:1"] and s["focus"]["class"] == "ElementTree",
                "start 1 selected in the list")
        ed.key("Delete")
        s = ed.wait(lambda s: len(s["arena"]["start_positions"]) < starts, "the start deleted from the list")
        assert s["undo"]["count"] == undo + 1
    finally:
        ed.close()


def test_a_pits_symmetry_dialog_sets_a_half_turn_by_keyboard(xsession: XSession, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                            shots) -> None:
    """Arena → Symmetry… on the default Glider-Pit pit (a mirror about the vertical axis): the
    dialog has no centre fields (the pit's symmetry is about the centroid of its hexes), only
    the mirror axis in degrees; Up on the Kind box picks "rotational", Return accepts, the pit
    now turns half round (one undo step, the centre drawn), Ctrl+Z brings the mirror back.
    Screenshots: pit-symmetry-dialog.png, pit-symmetry-half-turn.png."""
    from schema.games import gliderpit as gp

    ed = Editor.on(xsession, tmp_path, gp.default_arena(), "pit.yaml")
    try:
        s = ed.ready(150)
        assert s["game"] == "glider-pit-gladiators" and s["arena"]["symmetry"]["kind"] == "mirror"
        undo = s["undo"]["count"]
        ed.menu("Arena", "Symmetry…")
        s = ed.wait(lambda s: s["modal"] is not None and s["modal"]["title"] == "Symmetry", "the Symmetry dialog")
        assert s["modal"]["suffixes"] == [" °"], s["modal"]  # the axis only: no centre in hexes
        shots("pit-symmetry-dialog.png", publish=False)
        ed.key("Up")  # Kind: mirror -> rotational (order 2, a half turn)
        ed.key("Return")
        s = ed.wait(lambda s: s["modal"] is None and s["arena"]["symmetry"]["kind"] == "rotational", "the half turn")
        assert s["arena"]["symmetry"]["order"] == 2 and s["undo"]["count"] == undo + 1
        assert s["labels"]["symmetry"].startswith("Symmetry on: rotational order 2"), s["labels"]
        shots("pit-symmetry-half-turn.png", publish=False)
        ed.key("ctrl+z")
        s = ed.wait(lambda s: s["arena"]["symmetry"]["kind"] == "mirror", "the mirror back after undo")
    finally:
        ed.close()
