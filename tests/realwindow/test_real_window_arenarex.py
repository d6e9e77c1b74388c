"""Arena Rex in the editor in a real X server (issue 14), by real mouse input: the shipped 30 in
circle opens clean, symmetry mode goes off from the menu, pit-west is dragged 1 in north and the
live findings (the setup checks at once, the zone fairness checks from their worker) list the
broken half-turn symmetry and the zones' unequal kill bands, worded as ``arena validate`` words
them; the board's radius handle is dragged with the real mouse.  The screen is also grabbed with Pillow's X11 grabber, a non-Qt tool (published as
docs/img/arena-rex-editor.png with ARENA_STUDIO_SCREENSHOTS)."""

from __future__ import annotations

import dataclasses
import os
import shutil
from pathlib import Path

from schema.io import load
from tests.realwindow.harness import Editor, XSession


COLOSSEUM = Path(__file__).resolve().parents[2] / "arenas" / "arena-rex" / "colosseum-30.yaml"


def grab(xsession: XSession, path: Path) -> Path:
    """The whole X screen through Pillow's XCB grabber (no Qt)."""
    from PIL import ImageGrab

    path.parent.mkdir(parents=True, exist_ok=True)
    ImageGrab.grab(xdisplay=xsession.display).save(path)
    target = os.environ.get("ARENA_STUDIO_SCREENSHOTS")
    if target:
        Path(target).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, Path(target) / path.name)
    return path


def test_drag_a_pit_and_see_the_findings(xsession: XSession, tmp_path: Path) -> None:
    from validators.run import validate

    arena = tmp_path / "colosseum.yaml"
    shutil.copyfile(COLOSSEUM, arena)
    ed = Editor.started(xsession, tmp_path / "editor", arena)
    try:
        s = ed.ready(150)
        assert s["game"] == "arena-rex" and s["findings"] == []  # the shipped circle passes
        ed.menu("Arena", "Symmetry mode")  # pit-west moves alone
        ed.wait(lambda s: s["labels"].get("symmetry", "").startswith("Symmetry off"), "symmetry mode off")
        before = ed.state()
        ed.drag([(-7.0, 0.0), (-7.0, 0.5), (-7.0, 1.0)])
        s = ed.settled(before, 90)
        codes = {f["code"] for f in s["findings"]}
        assert {"ar-symmetry", "ar-kill-band"} <= codes, codes
        assert s["undo"]["count"] == 1
        assert s["arena"]["pits"][0]["shape"]["center"] == [-7.0, 1.0]
        shipped = load(COLOSSEUM)
        pit = shipped.pits[0]
        moved = dataclasses.replace(shipped, pits=(dataclasses.replace(pit, shape=dataclasses.replace(
            pit.shape, center=(-7.0, 1.0))), *shipped.pits[1:]))
        expected = sorted((f.code, f.message) for f in validate(moved).findings)
        assert sorted((f["code"], f["message"]) for f in s["findings"]) == expected
        shot = grab(xsession, tmp_path / "shots" / "arena-rex-editor.png")
        assert shot.stat().st_size > 10_000
    finally:
        ed.close()


def test_drag_the_circle_boards_radius_handle(xsession: XSession, tmp_path: Path) -> None:
    """The circle board edited as a circle with the real mouse: the edit-vertices tool (E) with
    nothing selected shows the rim's radius handle; dragging it from 15 in to 11 in resizes the
    board live (the status bar reads the radius while the button is down: grabbed mid-drag),
    the zones stay on the rim, the drag is one undo step, and the live findings gain
    ``ar-board-size`` ("We suggest a board at least 24 x 24 for Arena Rex", L40) as ``arena
    validate`` words it."""
    from validators.run import validate

    arena = tmp_path / "colosseum.yaml"
    shutil.copyfile(COLOSSEUM, arena)
    ed = Editor.started(xsession, tmp_path / "editor", arena)
    try:
        s = ed.ready(150)
        ed.click(12.0, 0.0)  # empty floor: the canvas takes the keyboard, nothing selected
        ed.key("e")
        s = ed.wait(lambda s: s["tool"] == "vertices" and s["selection"] == [], "the Edit vertices tool (E)")
        before = s
        path = [ed.screen(x, y, s) for x, y in ((15.0, 0.0), (14.0, 0.1), (13.0, 0.2), (12.0, 0.2), (11.1, 0.1))]
        ed.x.xdotool("mousemove", "--sync", *map(str, path[0]), "mousedown", "1", "sleep", "0.05",
                     *[a for p in path[1:] for a in ("mousemove", str(p[0]), str(p[1]), "sleep", "0.05")])
        s = ed.wait(lambda s: s["arena"]["bounds"]["radius"] == 11 and s["status"]["measure_visible"],
                    "the board following the mouse")
        assert s["status"]["measure"] == "Board radius 11.00 in (diameter 22.00 in)"
        grab(xsession, tmp_path / "shots" / "arena-rex-radius-drag.png")
        ed.x.xdotool("mouseup", "1")
        # The live drag may already have run the findings of radius 11 before the button is
        # released, so wait for the release itself (one undo step, the measure hidden) too.
        ed.wait(lambda s: s["undo"]["count"] == 1 and not s["status"]["measure_visible"],
                "the drag committed as one undo step", 30)
        s = ed.settled(before, 90)
        assert s["arena"]["bounds"] == {"type": "circle", "center": [0, 0], "radius": 11}
        assert s["undo"]["count"] == 1 and not s["status"]["measure_visible"]
        assert [d["arc"] for d in s["arena"]["deployment"]] == [[225, 315], [45, 135]]
        shipped = load(COLOSSEUM)
        resized = dataclasses.replace(shipped, bounds=dataclasses.replace(shipped.bounds, radius=11.0))
        assert sorted((f["code"], f["message"]) for f in s["findings"]) == \
            sorted((f.code, f.message) for f in validate(resized).findings)
        assert "ar-board-size" in {f["code"] for f in s["findings"]}
    finally:
        ed.close()
