"""The Scenario tab's start sets by real mouse and keyboard (issue 39, point 1: "The editor's
scenario tab edits the sets and highlights the active one"): in the default Gravstrike arena,
typing ``2, 4, 6`` into the 3-player row is one undo step; choosing *3 players* in *Active count*
draws starts 1, 3 and 5 faint and the Validation panel says the 3-player set was judged.  The
screenshot shows the dimmed starts and the tab."""

from __future__ import annotations

from pathlib import Path

from editor.games.io import load
from tests.realwindow.harness import Editor, XSession

DEFAULT = Path(__file__).resolve().parents[2] / "arenas" / "default.yaml"


def test_edit_a_start_set_and_highlight_the_active_count(xsession: XSession, tmp_path: Path, shots) -> None:  # type: ignore[no-untyped-def]
    ed = Editor.on(xsession, tmp_path, load(DEFAULT), "tri.yaml")
    try:
        ed.ready(150)
        ed.click_tab("Scenario")
        ed.move(ed.centre(ed.named("setting:players")["rect"]))  # the wheel scrolls the tab down to the start sets
        ed.x.xdotool(*["click", "5"] * 30)
        ed.wait(lambda s: "start-set:3" in s["named"] and "active-count" in s["named"], "the start set rows")
        ed.click_field("start-set:3")
        ed.key("ctrl+a")
        ed.type("2, 4, 6")
        ed.key("Return")
        s = ed.wait(lambda s: s["arena"]["scenario"]["start_sets"]["3"] == [2, 4, 6], "the 3-player set edited")
        assert s["undo"]["count"] == 1 and s["active_count"] is None and s["dimmed"] == []
        ed.click_at(ed.centre(ed.named("active-count")["rect"]))  # the chooser's list opens
        ed.key("Down", "Return")  # All starts -> 3 players
        s = ed.wait(lambda s: s["active_count"] == 3, "the active count 3")
        assert s["dimmed"] == ["start:1", "start:3", "start:5"]
        assert s["undo"]["count"] == 1 and s["arena"]["scenario"]["start_sets"]["3"] == [2, 4, 6]  # a view, no edit
        s = ed.wait(lambda s: "judged at 3 players (starts 2, 4, 6)" in s["validation_status"] and not s["runner"]["busy"],
                    "the 3-player set judged", 90)
        shots("start-sets-active-count.png", publish=False)
    finally:
        ed.close()
