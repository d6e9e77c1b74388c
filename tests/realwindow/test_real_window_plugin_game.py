"""A game from outside in the editor in a real X server (issue 37, point 4): Tortoise Derby
(tests/plugin_game/tortoise-derby, installed through its entry points for this module and on the
editor's PYTHONPATH) is chosen in File → New by the keyboard, a rock is drawn with the real mouse
on tortoise 1, and the live findings name the tortoise (its own check ``td-placement``, worded as
``arena validate`` words it)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.plugin_game.install import TORTOISE_DERBY, installed
from tests.realwindow.harness import Editor, XSession


@pytest.fixture(scope="module", autouse=True)
def tortoise_derby(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    with installed(TORTOISE_DERBY, tmp_path_factory.mktemp("site-packages")) as root:
        yield root


def test_new_paddock_a_rock_drawn_on_a_tortoise_and_its_finding(xsession: XSession, tmp_path: Path) -> None:
    from schema.io import loads
    from validators.run import validate

    ed = Editor(xsession, tmp_path / "editor")
    try:
        start = ed.ready()
        ed.key("ctrl+n")
        ed.dialog("New arena")
        ed.key("End")  # the games: Gravstrike first, then by id; tortoise-derby is the last
        ed.key("Return")
        s = ed.wait(lambda s: s["game"] == "tortoise-derby" and not s["dialogs"], "the new Tortoise Derby paddock")
        assert "Tortoise Derby" in s["title"] and s["status"]["snap"] == " in"
        s = ed.settled(start)
        assert s["findings"] == [], s["validation_status"]  # the new paddock is fair
        ed.click(0.0, 10.5)  # empty paddock: the canvas takes the keyboard
        ed.key("Escape")
        ed.key("o")  # the rock tool: "R" is Rotate's, so the next letter of "Rock"
        ed.wait(lambda s: s["tool"] == "tortoise-derby:rocks", "the rock tool (O)")
        before = ed.state()
        ed.drag([(-11.0, -1.0), (-11.0, 1.0), (-9.0, 1.0)])  # a 2 in rock over tortoise 1
        s = ed.wait(lambda s: len(s["arena"]["rocks"]) > 2 or "Error" in ed.log_text(), "the rock drawn", 6)
        assert len(s["arena"]["rocks"]) > 2, ed.log_text()
        s = ed.settled(before, 30)
        assert any(f["code"] == "td-placement" and "tortoise:1" in f["elements"] for f in s["findings"])
        drawn = validate(loads(__import__("json").dumps(s["arena"])))
        assert sorted((f["code"], f["message"]) for f in s["findings"]) == sorted(
            (f.code, f.message) for f in drawn.findings)
        assert any(row["code"] == "td-placement" for row in s["finding_rows"])
    finally:
        ed.close()
