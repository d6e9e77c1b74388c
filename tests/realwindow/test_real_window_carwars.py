"""A Car Wars arena in the editor in a real X server (issue 13), by real mouse and keyboard:
the editor opens a Car Wars file with the Car Wars palette and inches, a numbered card is
drawn with the Cards tool (N) and a click, an obstacle dragged out over a starting car with the
Obstacle tool (O), and the live findings list that the start's turning key no longer fits
(cw-start-key).  Screenshots
are saved (published as docs/img/car-wars-editor.png with ARENA_STUDIO_SCREENSHOTS)."""

from __future__ import annotations

import time
from pathlib import Path

from editor.games.io import dumps
from schema.games import carwars as cw
from tests.realwindow.harness import Editor, XSession


def test_draw_a_car_wars_card_and_obstacle(xsession: XSession, tmp_path: Path, shots) -> None:  # type: ignore[no-untyped-def]
    arena = tmp_path / "cw.yaml"
    arena.write_text(dumps(cw.default_arena()), encoding="utf-8")
    ed = Editor(xsession, tmp_path / "editor", [str(arena)])
    try:
        end = time.monotonic() + 120  # a loaded machine may take a while to start the editor
        while not ed.probe.exists() and ed.proc.poll() is None and time.monotonic() < end:
            time.sleep(0.2)
        s = ed.ready(150)
        assert s["game"] == "car-wars-6e" and "Car Wars" in s["title"]
        assert s["labels"]["game"].startswith("Car Wars")
        ed.click(5.5, 5.5)  # the canvas takes the keyboard (an empty spot)
        ed.key("n")
        s = ed.wait(lambda s: s["tool"] == "car-wars-6e:cards", "the Cards tool (N)")
        before = s["runner"]["generation"]
        ed.click(0.0, 0.0)  # at the centre: symmetry mode (dihedral, order 4) adds no images
        s = ed.wait(lambda s: len(s["arena"]["cards"]) == 1, "a card on the canvas")
        card = s["arena"]["cards"][0]
        assert (card["number"], card["position"], card["role"]) == (0, [0, 0], "checkpoint")
        assert s["undo"]["count"] == 1
        ed.wait(lambda s: s["runner"]["generation"] > before, "the card's findings", 30)
        # an obstacle drawn over player 1's car (and, by symmetry, over every car): the turning key
        # no longer fits (cw-start-key)
        ed.key("o")
        ed.wait(lambda s: s["tool"] == "car-wars-6e:obstacles", "the Obstacle tool (O)")
        before = ed.state()
        ed.drag([(-1.0, -16.0), (0.0, -14.0), (1.0, -13.0)])
        s = ed.wait(lambda s: len(s["arena"]["obstacles"]) == 4, "an obstacle and its 3 images on the canvas")
        assert s["arena"]["obstacles"][0]["shape"]["type"] == "rect"
        s = ed.wait(lambda s: any(f["code"] == "cw-start-key" for f in s["findings"]), "the cw-start-key finding", 60)
        found = [f for f in s["findings"] if f["code"] == "cw-start-key"]
        assert all(f["severity"] == "error" for f in found)
        assert "start:1" in {e for f in found for e in f["elements"]}
        assert any(r["code"] == "cw-start-key" for r in s["finding_rows"])
        shots("car-wars-editor.png")
    finally:
        ed.close()


def test_travel_dock_row_and_heat_map_from_a_card(xsession: XSession, tmp_path: Path, shots) -> None:  # type: ignore[no-untyped-def]
    """The "Travel times" dock of the four-player arena, opened by a real click on its tab:
    every start's turns and dice to every checkpoint, the centre and the other starts; a click
    on a row's flat-out cell draws that plan on the canvas; View → Overlays → Car Wars heat map
    from card → Card 0 draws the map from that card.  Saved as car-wars-travel.png."""
    from engine.carwars.issues import fmt
    from engine.carwars.planner import Planner
    from engine.carwars.travel import Goal, StartSource
    from schema import load

    path = Path(__file__).resolve().parents[2] / "arenas" / "car-wars" / "crossroads-4p.yaml"
    ed = Editor(xsession, tmp_path / "editor", [str(path)])
    try:
        end = time.monotonic() + 120
        while not ed.probe.exists() and ed.proc.poll() is None and time.monotonic() < end:
            time.sleep(0.2)
        ed.ready(150)
        ed.click_tab("Travel times")

        def complete(s: dict) -> bool:  # type: ignore[type-arg]
            t = s["parts"]["travel"]
            return t["shown"] and not t["busy"] and len(t["rows"]) == 4 * 8 and \
                all("…" not in c for r in t["rows"] for c in r["cells"])

        s = ed.wait(complete, "every start's travel in the dock", 180)
        rows = s["parts"]["travel"]["rows"]
        row = next(r for r in rows if r["player"] == 1 and r["goal"] == "card:checkpoint-3")
        arena = load(path)
        r = Planner(arena, "flat-out").plan(StartSource(1), Goal("card", "checkpoint-3"))
        assert row["cells"][:2] == ["start 1", "card 2 (checkpoint-3)"]
        assert row["cells"][4:] == [fmt(r.time), str(r.dice)]
        ed.click_at(ed.centre(row["rects"][4]))
        s = ed.wait(lambda s: (s["parts"]["path"] or {}).get("goal") == "card:checkpoint-3",
                    "the row's plan on the canvas", 30)
        plan = s["parts"]["path"]
        assert (plan["player"], plan["policy"], plan["time"], plan["dice"]) == (1, "flat-out", r.time, r.dice)
        assert "Path from start 1 to card 2 (checkpoint-3) (flat-out)" in s["parts"]["legend"]
        ed.menu("View", "Overlays", "Car Wars heat map from card", "Card 0 (checkpoint-1)")
        s = ed.wait(lambda s: (s["parts"]["heat"] or [None])[0] == "card:checkpoint-1", "the heat map from card 0",
                    180)
        assert "Heat map from card 0 (checkpoint-1) (flat-out)" in s["parts"]["legend"]
        assert (s["parts"]["path"] or {}).get("goal") == "card:checkpoint-3"  # the path stays
        shots("car-wars-travel.png")
    finally:
        ed.close()
