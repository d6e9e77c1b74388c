"""Analysis → Simulate play… by real mouse and keyboard (issue 40, point 5): in the shipped Car Wars
crossroads, the dialog asks for 4 games, the run plays them on the editor's worker processes, the
*Simulated play* dock shows four bars, and clicking ▶ steps the recorded game on the canvas to turn 2
(the markers move to that turn's poses); no undo entry.  The screenshot shows the dock and the
replay."""

from __future__ import annotations

from pathlib import Path

from editor.games.io import load
from tests.realwindow.harness import Editor, XSession

CROSSROADS = Path(__file__).resolve().parents[2] / "arenas" / "car-wars" / "crossroads-4p.yaml"


def test_simulate_play_and_step_a_recorded_game(xsession: XSession, tmp_path: Path, shots) -> None:  # type: ignore[no-untyped-def]
    ed = Editor.on(xsession, tmp_path, load(CROSSROADS), "crossroads.yaml")
    try:
        ed.ready(150)
        ed.menu("Analysis", "Simulate play…")
        ed.dialog("Simulate play")
        ed.key("ctrl+a")
        ed.type("4")  # the Games box has the focus
        ed.answer("Simulate play", "Play")
        s = ed.wait(lambda s: s["simulation"]["games_played"] == 4 and not s["simulation"]["progress"],
                    "the four games played", 300)
        sim = s["simulation"]
        assert sim["complete"] and len(sim["bars"]) == 4 and sim["game"] == 1 and sim["turn"] == 1
        first = sim["markers"]
        assert "Crossroads (four players): 4 games of 4 players" in s["labels"]["simulation-summary"]
        s = ed.steady(lambda s: (s["simulation"]["next"], s["simulation"]["next_reachable"]), "the dock laid out")
        s = ed.wait(lambda s: s["simulation"]["next_reachable"], "the ▶ button on top, under a click")
        ed.click_at(ed.centre(s["simulation"]["next"]))
        s = ed.wait(lambda s: s["simulation"]["turn"] == 2, "turn 2 of the recorded game")
        assert s["simulation"]["markers"] != first and s["simulation"]["undo"] == 0 and not s["dirty"]
        shots("editor-simulate-play.png")
    finally:
        ed.close()
