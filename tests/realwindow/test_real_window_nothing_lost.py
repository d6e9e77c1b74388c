"""Nothing lost, in a real X window (issue 42, points 5 and 6): File → New (Ctrl+N, Enter) makes
an unsaved arena - quitting (Ctrl+Q) asks Save, Discard or Cancel; then each of two edits by a
real drag is in the recovery copy after the autosave's quiet time (2 s), the editor is killed
with ``kill -9``, and the next start offers the copy: Yes brings the edits back, unsaved.

The second edit's copy is waited for at most :data:`SOON` seconds after the first one's: less
than the minute the old autosave timer took between two copies, whatever the machine's load
(the first wait is a stretched safety net)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from schema import ArenaError, load
from tests.realwindow.harness import WAIT_SLACK, Editor, XSession


#: The longest wait (s) for the copy of an edit made after a copy was written: 20 quiet times,
#: and under the old autosave's minute between two copies.
SOON = 40.0


def recovered(path: Path, check: Any, timeout: float) -> Any:
    """The arena in the recovery copy ``path`` once ``check`` holds for it, within ``timeout``
    seconds."""
    end, arena = time.monotonic() + timeout, None
    while time.monotonic() < end:
        try:
            arena = load(path)
        except ArenaError:
            arena = None  # not written yet
        if arena is not None and check(arena):
            return arena
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for the recovery copy {path}; last read: {arena}")


def test_new_arena_asks_before_quitting_and_an_edit_survives_kill_9(xsession: XSession, tmp_path: Path, shots) -> None:  # type: ignore[no-untyped-def]
    recovery = tmp_path / "recovery"
    ed = Editor(xsession, tmp_path / "editor", recovery=recovery)
    restarted = None
    try:
        s = ed.ready()
        assert not s["modified"], "the empty start-up arena is clean until edited"
        # point 6: File → New…, the game list opens on the current game (Gravstrike): Enter
        ed.key("ctrl+n")
        ed.dialog("New arena")
        ed.key("Return")
        s = ed.wait(lambda s: not s["dialogs"] and s["modified"], "the new arena, unsaved (* in the title)")
        assert s["title"].startswith("Untitled[*]") and s["dirty"]
        ed.key("ctrl+q")
        box = ed.dialog("Unsaved changes")
        assert box["text"] == "Save changes to Untitled?"
        assert {b["text"] for b in box["buttons"]} == {"Save", "Discard", "Cancel"}
        shots("quit-prompt.png", publish=False)
        ed.answer("Unsaved changes", "Cancel")
        s = ed.wait(lambda s: s["active"] and s["modified"], "the window still there, the arena unsaved")
        # point 5: a real edit (the right side dragged 3 lengths), the quiet time, kill -9
        ed.click(5.3, 5.3)
        ed.key("e")
        ed.wait(lambda s: s["tool"] == "vertices", "the Edit vertices tool (E)")
        ed.drag([(12.0, 0.0), (13.5, 0.3), (15.0, 0.2)])
        ed.wait(lambda s: s["arena"]["bounds"]["size"] == [27, 24], "the bounds 27 x 24")
        copy = recovery / f"session-{ed.pid}.yaml"
        recovered(copy, lambda a: a.bounds.size == (27.0, 24.0), 20.0 * WAIT_SLACK)
        ed.drag([(15.0, 0.0), (16.5, 0.3), (18.0, 0.2)])  # and 3 more
        ed.wait(lambda s: s["arena"]["bounds"]["size"] == [30, 24], "the bounds 30 x 24")
        recovered(copy, lambda a: a.bounds.size == (30.0, 24.0), SOON)
        ed.kill()
        assert copy.exists()
        # the next start offers it; Yes: the edit is back, still unsaved
        restarted = Editor(xsession, tmp_path / "again", recovery=recovery)
        box = restarted.dialog("Recover unsaved work?", 90)
        assert "an untitled arena" in box["text"]
        shots("recover-prompt.png", publish=False)
        restarted.answer("Recover unsaved work?", "Yes")
        s = restarted.wait(lambda s: s["arena"]["bounds"]["size"] == [30, 24], "the recovered edits", 30)
        assert s["modified"] and s["title"].startswith("Untitled[*]")
        assert not copy.exists(), "a recovered copy is removed (the new session writes its own)"
        shots("recovered.png", publish=False)
    finally:
        ed.close()
        if restarted is not None:
            restarted.close()
