"""The editor in a real X server, driven by real mouse and keyboard input (issue 18): a new
designer's session at 1366 x 768 - resizing the bounds by handles and by typing, dragging a
checkpoint and seeing the findings follow, typing in the inspector then pressing a tool key,
undo and Ctrl+Y, the overlays from the menus, and killing the editor with ``kill -9`` (no helper
process may survive it, and a restart starts one fresh set). Screenshots of each step are saved
(and, with ARENA_STUDIO_SCREENSHOTS, published as the README's and the manual's pictures, in docs/img).

Runs in ``make test`` (about a minute); skipped only when no X server can be started."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

from tests.realwindow.harness import ROOT, Editor, XSession, alive, command_line


def near(a: list[float], b: list[float], tol: float = 0.05) -> bool:
    return all(abs(u - v) <= tol for u, v in zip(a, b))


def test_new_arena_bounds_by_handles_and_numbers(xsession: XSession, tmp_path: Path, shots) -> None:  # type: ignore[no-untyped-def]
    ed = Editor(xsession, tmp_path / "editor")
    try:
        s = ed.ready()
        assert s["window"][2:] == [1366, 768], "the window manager gives the editor the whole screen"
        assert s["arena"]["bounds"] == {"type": "rect", "center": [0, 0], "size": [24, 24], "rotation": 0}
        # point 3: at 1366 x 768 the canvas keeps most of the room, the docks are all there
        assert s["view"]["viewport"][2] >= 700 and s["view"]["viewport"][3] >= 380
        assert all(s["docks"][k]["visible"] for k in ("elements", "layers", "inspector", "validation"))
        assert {"Inspector", "Arena", "Scenario", "Validation", "Travel times", "History"} <= {t["text"] for t in s["tabs"]}
        centre = s["view"]["center"]
        ed.click(5.3, 5.3)  # the canvas takes the keyboard (an empty spot)
        ed.key("e")
        s = ed.wait(lambda s: s["tool"] == "vertices", "the Edit vertices tool (E)")
        # point 2: the right side's handle (a rectangle now), dragged 3 lengths: one drag, no skew
        ed.drag([(12.0, 0.0), (13.5, 0.3), (15.0, 0.2)])
        s = ed.wait(lambda s: s["arena"]["bounds"]["size"] == [27, 24], "the bounds 27 x 24")
        assert s["arena"]["bounds"]["center"] == [1.5, 0]
        assert near(s["view"]["center"], centre), "the view jumped after a bounds edit"
        shots("bounds-handles.png", publish=False)
        # point 5: undo, then Ctrl+Y redoes (X11 binds only Ctrl+Shift+Z by itself)
        ed.key("ctrl+z")
        ed.wait(lambda s: s["arena"]["bounds"]["size"] == [24, 24], "undo (Ctrl+Z)")
        ed.key("ctrl+y")
        s = ed.wait(lambda s: s["arena"]["bounds"]["size"] == [27, 24], "redo (Ctrl+Y)")
        # point 2: typed in the Arena tab; point 4: Enter hands the keyboard back to the canvas
        ed.click_tab("Arena")
        ed.click_field("bounds:width")
        ed.key("ctrl+a")
        ed.type("30")
        ed.key("Return")
        s = ed.wait(lambda s: s["arena"]["bounds"]["size"] == [30, 24], "the typed width")
        s = ed.wait(lambda s: s["focus"]["canvas"], "the focus back on the canvas after Enter")
        assert near(s["view"]["center"], centre), "the view jumped after a typed bounds edit"
        assert s["named"]["bounds:width"]["text"] == "30"
        ed.wait(lambda s: s["runner"]["completed"] == s["runner"]["generation"] and s["runner"]["final"],
                "the findings of the new bounds", 60)
        shots("bounds-typed.png")
        ed.key("v")
        ed.wait(lambda s: s["tool"] == "select", "V: the select tool, not a letter in the field")
        # point 3: every Scenario input in view, none scrolled off to the right
        ed.click_tab("Scenario")
        s = ed.wait(lambda s: any(k.startswith("setting:vp_to_win") for k in s["named"]), "the Scenario fields")
        dock = s["docks"]["scenario"]["rect"]
        fields = {k: v["rect"] for k, v in s["named"].items() if k.startswith("setting:")}
        assert len(fields) >= 8
        for name, (x, _y, w, _h) in fields.items():
            assert x >= dock[0] and x + w <= dock[0] + dock[2] and w >= 60, (name, dock)
        shots("scenario-1366x768.png", publish=False)
    finally:
        ed.close()


def test_default_arena_live_findings_inspector_overlays_and_kill(xsession: XSession, tmp_path: Path, shots) -> None:  # type: ignore[no-untyped-def]
    arena = tmp_path / "default.yaml"
    shutil.copyfile(ROOT / "arenas" / "default.yaml", arena)
    ed = Editor(xsession, tmp_path / "editor", [str(arena)])
    restarted = None
    try:
        s = ed.ready()
        ed.wait(lambda s: not s["status"]["message"], "the status bar's 'Opened …' to clear", 15)
        shots("editor.png")
        # symmetry mode off from the menu, so that A moves alone and the starts stop being even
        ed.menu("Arena", "Symmetry mode")
        ed.wait(lambda s: s["labels"].get("symmetry", "").startswith("Symmetry off"), "symmetry mode off")
        before = ed.state()
        assert not [f for f in before["findings"] if "A" in f["elements"]]
        # point 6: A at x = 10.2 dragged about 5 to the left lands on a grid point
        t0 = time.monotonic()
        ed.drag([(10.2, 0.0), (7.0, 0.2), (5.25, 0.15)])
        s = ed.settled(before)
        took = time.monotonic() - t0
        a = s["arena"]["checkpoints"][0]
        assert a["id"] == "A" and a["shape"]["center"] in ([5.0, 0], [5.5, 0]), a["shape"]["center"]
        assert s["selection"] == ["A"]
        ed.drag([(a["shape"]["center"][0], 0.0), (3.5, 0.1), (2.5, 0.0)])  # next to the centre
        s = ed.settled(s)
        codes = {f["code"] for f in s["findings"]}
        travel = {"start-checkpoint-access", "checkpoint-spacing", "start-spacing", "reachability", "target-access"}
        assert codes & travel, codes  # the travel findings followed the drag
        assert any("A" in f["elements"] for f in s["findings"] if f["code"] in travel)
        shots("editor-live.png")
        # point 4: type in the inspector, Enter, then V is the select tool again (not "0.7v")
        ed.key("e")
        ed.wait(lambda s: s["tool"] == "vertices", "E")
        ed.click_tab("Inspector")
        ed.click_field("prop:shape.radius")
        ed.key("ctrl+a")
        ed.type("0.7")
        ed.key("Return")
        s = ed.wait(lambda s: s["arena"]["checkpoints"][0]["shape"]["radius"] == 0.7, "the typed radius")
        ed.wait(lambda s: s["focus"]["canvas"], "the focus back on the canvas")
        ed.key("v")
        s = ed.wait(lambda s: s["tool"] == "select", "V after typing in the inspector")
        assert s["named"]["prop:shape.radius"]["text"] == "0.7"
        # a refusal is shown, and goes with the element it was about
        ed.click_field("prop:shape.radius")
        ed.key("ctrl+a")
        ed.type("wide")
        ed.key("Return")
        ed.wait(lambda s: s["errors"]["inspector"] == "Radius must be a number", "the refusal")
        ed.click(4.0, -7.0)  # empty floor: nothing selected
        ed.wait(lambda s: s["selection"] == [] and s["errors"]["inspector"] == "", "the refusal cleared")
        # point 5 again, on the radius
        ed.key("ctrl+z")
        ed.wait(lambda s: s["arena"]["checkpoints"][0]["shape"]["radius"] == 0.9, "undo the radius")
        ed.key("ctrl+y")
        ed.wait(lambda s: s["arena"]["checkpoints"][0]["shape"]["radius"] == 0.7, "Ctrl+Y: the radius again")
        # point 8: the heat map from the menu, with its key (computing, then the bands)
        ed.menu("View", "Overlays", "Travel heat map from start", "Start 1")
        s = ed.wait(lambda s: s["parts"]["heat_visible"] and "0–1 turns" in s["parts"]["legend"],
                    "the heat map and its key", 120)
        assert "Heat map from start 1" in s["parts"]["legend"]
        shots("editor-heatmap.png")
        ed.menu("View", "Overlays", "Travel heat map from start", "None")
        # line of sight from the selected start, with its key; then from start 1 whatever is selected
        ed.click(7.7942, 4.5)
        s = ed.wait(lambda s: s["selection"] == ["start:1"], "start 1 selected")
        assert s["arena"]["start_positions"][0]["position"] == [7.7942, 4.5]  # a click does not move it
        ed.menu("View", "Overlays", "Line of sight from start", "Selected start")
        s = ed.wait(lambda s: s["parts"]["sight_player"] == 1, "the line of sight of the selected start")
        assert "Line of sight from start 1" in s["parts"]["legend"] and "within 10 lengths" in s["parts"]["legend"]
        ed.menu("View", "Overlays", "Line of sight from start", "Start 1")
        # a travel finding's path (its elements get selected; the chosen start's sight stays)
        s = ed.wait(lambda s: any(r["code"] == "checkpoint-spacing" for r in s["finding_rows"]), "a spacing finding")
        row = next(r for r in s["finding_rows"] if r["code"] == "checkpoint-spacing")
        ed.click_at((row["rect"][0] + 300, row["rect"][1] + row["rect"][3] // 2))
        s = ed.wait(lambda s: s["parts"]["path_steps"] > 0, "the finding's path on the canvas")
        assert s["parts"]["sight_player"] == 1
        shots("editor-path.png")
        # point 8: Measure's reading in the status bar
        ed.key("m")
        ed.wait(lambda s: s["tool"] == "measure", "M")
        ed.drag([(-3.0, 7.0), (0.0, 7.0), (3.0, 7.0)])  # open floor: both ends on grid points
        s = ed.wait(lambda s: s["status"]["measure_visible"] and "6.00 L" in s["status"]["measure"],
                    "the distance in the status bar")
        assert "1.00 turns" in s["status"]["measure"]
        shots("measure.png", publish=False)
        # point 7: kill -9 the editor; every helper process follows it
        helpers = ed.helpers()
        kinds = [command_line(p) for p in helpers]
        assert sum("forkserver" in k for k in kinds) >= 3, kinds  # the forkserver and its two workers
        assert any("resource_tracker" in k for k in kinds), kinds
        workers = ed.state()["workers"]
        assert len(workers) == 2 and set(workers) <= set(helpers)
        ed.kill()
        end = time.monotonic() + 120  # a safety net: they exit at once
        while time.monotonic() < end and any(alive(p) for p in helpers):
            time.sleep(0.1)
        assert not [p for p in helpers if alive(p)], [command_line(p) for p in helpers if alive(p)]
        # a restart starts one fresh set
        restarted = Editor(xsession, tmp_path / "again", [str(arena)])
        restarted.ready()
        now = restarted.helpers()
        assert len(restarted.state()["workers"]) == 2
        assert sum("forkserver" in command_line(p) for p in now) == 3
        assert not set(now) & set(helpers)
        print(f"\nA dragged: findings after {took:.2f} s (real input, probe polling included)")
    finally:
        ed.close()
        if restarted is not None:
            restarted.close()
