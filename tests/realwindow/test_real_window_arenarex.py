"""Arena Rex in the editor in a real X server (issue 14), by real mouse input: the shipped 30 in
circle opens clean, symmetry mode goes off from the menu, pit-west is dragged 1 in north and the
live findings (the setup checks at once, the zone fairness checks from their worker) list the
broken half-turn symmetry and the zones' unequal kill bands, worded as ``arena validate`` words
them.  The screen is also grabbed with Pillow's X11 grabber, a non-Qt tool (published as
docs/images/arena-rex-editor.png with ARENA_STUDIO_SCREENSHOTS)."""

from __future__ import annotations

import dataclasses
import os
import shutil
from pathlib import Path

from schema.io import load
from tests.realwindow.harness import XSession
from tests.realwindow.test_real_window_grids import start

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
    ed = start(xsession, tmp_path / "editor", arena)
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
