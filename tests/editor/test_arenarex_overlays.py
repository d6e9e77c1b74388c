"""The Arena Rex overlays (issue 14: "Heat map of 'moves to reach' from a zone, paths and sight
overlays as for Gravstrike"): offered by View → Overlays for an Arena Rex arena only, computed off
the UI thread with the Arena Rex engine and agreeing with it, recomputed after an edit, and the
walks a clicked fairness finding compares drawn.  "MOVE ... Move up to the model's MOV value in
inches." (L18)"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from shapely.geometry import LineString, Point

from editor import commands as C
from editor.games import overlay_work as W
from editor.games.arenarex import overlay_work as RW
from engine.arenarex import fairness
from schema.games.arenarex import Hazard
from schema.io import load
from schema.shapes import Rect
from tests.editor.conftest import open_shipped
from tests.editor.test_carwars_overlays import scene_image

SHIPPED = Path(__file__).resolve().parents[2] / "arenas" / "arena-rex" / "colosseum-30.yaml"
WAIT_MS = 300_000


@pytest.fixture
def rwin(window):  # type: ignore[no-untyped-def]
    """The window with the shipped 30 in circle (symmetry mode off)."""
    return open_shipped(window, SHIPPED, 16.0)


def pick(group, data):  # type: ignore[no-untyped-def]
    return next(a for a in group.actions() if a.data() == data)


def test_the_menu_offers_arena_rex_choices_for_arena_rex_only(rwin) -> None:  # type: ignore[no-untyped-def]
    ov, rex = rwin.overlays, rwin.overlays.parts["arena-rex"]
    assert rex.active() and not ov.parts["car-wars-6e"].active()
    for m in (rex.heat_menu, rex.path_menu, rex.sight_menu, rex.base_menu):
        assert m.menuAction().isVisible() and m.menuAction() in ov.menu.actions()
    # Gravstrike's start-position entries and Car Wars' do not apply
    assert not ov.heat_menu.menuAction().isVisible() and not ov.sight_menu.menuAction().isVisible()
    assert not ov.path_action.isVisible() and not ov.parts["car-wars-6e"].path_menu.menuAction().isVisible()
    assert [a.text() for a in rex.heat_menu.actions()] == ["None", "Zone deploy:1", "Zone deploy:2"]
    assert [a.text() for a in rex.sight_menu.actions()] == ["None", "Zone deploy:1", "Zone deploy:2"]
    assert [a.text() for a in rex.base_menu.actions()] == ["Largest listed", "30 mm", "40 mm", "50 mm"]
    subs = [a.menu() for a in rex.path_menu.actions() if a.menu() is not None]
    assert [m.title() for m in subs] == ["Zone deploy:1", "Zone deploy:2"]
    assert [a.text() for a in subs[0].actions()] == ["to the centre", "to deploy:2"]
    # a Gravstrike arena: the Arena Rex entries go, Gravstrike's are back
    rwin.new_document(False)
    assert not rex.active() and not rex.heat_menu.menuAction().isVisible()
    assert ov.heat_menu.menuAction().isVisible() and ov.path_action.isVisible()


def test_heat_map_bands_are_the_engines_moves(rwin, qtbot) -> None:  # type: ignore[no-untyped-def]
    rex = rwin.overlays.parts["arena-rex"]
    arena = rwin.doc.arena
    before = scene_image(rwin)
    pick(rex.heat_group, 1).trigger()
    assert "Computing Moves from deploy:1 (50 mm bases, MOV 5 in)" in rex.legend.text()
    qtbot.waitUntil(lambda: rex.heat.isVisible(), timeout=WAIT_MS)
    fld, moves = fairness.heat_map(arena, 1, 50.0)
    h = rex.heat.heat
    assert np.array_equal(h.moves, moves) and (h.x0, h.y0, h.step) == (fld.x0, fld.y0, fld.step)
    # the zone's own arc: within the free move; the centre: 14 in away, so 3 moves of 5 in
    assert rex.heat.colour_at(0.0, -13.6) == RW.band_colour(1) == RW.MOVE_BANDS[0][1]
    assert h.moves_at(0.0, 0.0) == 3 and rex.heat.colour_at(0.0, 0.0) == RW.MOVE_BANDS[2][1]
    assert h.moves_at(0.0, 12.5) >= 4 and rex.heat.colour_at(0.0, 12.5) == RW.MORE_COLOUR
    assert rex.heat.colour_at(-7.0, 0.0) is None  # in the west pit: no base stands there
    assert "1 move (the free move)" in rex.legend.text() and "3 moves (2 fatigue" in rex.legend.text()
    assert rex.heat.zValue() < 0 and scene_image(rwin) != before
    # a smaller base: recomputed for it
    pick(rex.base_group, 30.0).trigger()
    qtbot.waitUntil(lambda: rex.heat.heat.base_mm == 30.0 and not rex.busy(), timeout=WAIT_MS)
    assert np.array_equal(rex.heat.heat.moves, fairness.heat_map(arena, 1, 30.0)[1])
    assert "30 mm bases" in rex.legend.text()
    pick(rex.heat_group, None).trigger()
    assert not rex.heat.isVisible() and rex.heat.image is None and not rex.legend.isVisible()


def test_walk_to_the_centre_starts_in_the_zone_and_ends_at_the_centre(rwin, qtbot) -> None:  # type: ignore[no-untyped-def]
    rex = rwin.overlays.parts["arena-rex"]
    arena = rwin.doc.arena
    pick(rex.path_group, [1, "centre"]).trigger()
    qtbot.waitUntil(lambda: rex.path.isVisible(), timeout=WAIT_MS)
    (walk,) = rex.path.walks
    r = 50.0 / 25.4 / 2.0
    start, end = walk.points[0], walk.points[-1]
    # the base's rim touches the south arc (225-315 degrees): its centre is R - r from the centre
    assert math.hypot(*start) == pytest.approx(15.0 - r, abs=0.02)
    assert 225.0 <= math.degrees(math.atan2(start[1], start[0])) % 360.0 <= 315.0
    assert end == pytest.approx((0.0, 0.0))  # the rubble does not block movement
    assert walk.length == pytest.approx(fairness.path(arena, 1, arena.centre(), 50.0).length)
    assert walk.moves == math.ceil(walk.length / 5.0) == 3
    assert f"deploy:1 to the centre: {walk.length:.1f} in, 3 moves" in rex.legend.text()
    assert len(walk.move_marks()) == 3 and rex.path.zValue() > 0
    # zone to zone: the visibility graph's shortest walk, as the ar-zone-access metric reads it
    pick(rex.path_group, [2, "deploy:1"]).trigger()
    qtbot.waitUntil(lambda: rex.path.walks and rex.path.walks[0].goal == "deploy:1" and not rex.busy(),
                    timeout=WAIT_MS)
    m = next(m for m in fairness.zone_metrics(arena)[50.0] if m.zone == "deploy:2")
    assert rex.path.walks[0].length == pytest.approx(m.zones["deploy:1"])


def test_sight_hides_what_the_columns_hide(rwin, qtbot) -> None:  # type: ignore[no-untyped-def]
    rex = rwin.overlays.parts["arena-rex"]
    before = scene_image(rwin)
    pick(rex.sight_group, 1).trigger()
    qtbot.waitUntil(lambda: rex.sight.isVisible(), timeout=WAIT_MS)
    g = rex.sight.grid
    assert np.array_equal(g.classes, RW.sight(rwin.doc.arena, 1).classes)
    assert g.at(0.0, 0.0) == W.CLEAR and g.at(-5.0, 8.0) == W.NOT_A_PLACE  # inside column-nw
    assert int(np.count_nonzero(g.classes == W.BLOCKED)) > 0
    assert "Sight from deploy:1" in rex.legend.text() and "hidden by terrain hazards" in rex.legend.text()
    assert scene_image(rwin) != before


def test_an_edit_recomputes_the_overlays(rwin, qtbot) -> None:  # type: ignore[no-untyped-def]
    rex = rwin.overlays.parts["arena-rex"]
    pick(rex.heat_group, 1).trigger()
    pick(rex.path_group, [1, "centre"]).trigger()
    qtbot.waitUntil(lambda: rex.heat.isVisible() and rex.path.isVisible() and not rex.busy(), timeout=WAIT_MS)
    old_moves, old_walk = rex.heat.heat.moves.copy(), rex.path.walks[0]
    # a column onto the middle of zone 1's walk to the centre
    mid = ((old_walk.points[0][0] + old_walk.points[-1][0]) / 2, (old_walk.points[0][1] + old_walk.points[-1][1]) / 2)
    rwin.doc.push(C.MoveElements(rwin.doc, ["column-se"], mid[0] - 5.0, mid[1] + 8.0))
    assert rex.heat.isVisible()  # the old picture stays until the new one arrives
    arena = rwin.doc.arena
    qtbot.waitUntil(lambda: rex.shown["heat"] is not None and rex.shown["heat"][0] is arena
                    and rex.shown["path"] is not None and rex.shown["path"][0] is arena, timeout=WAIT_MS)
    assert not np.array_equal(rex.heat.heat.moves, old_moves)
    assert np.array_equal(rex.heat.heat.moves, fairness.heat_map(arena, 1, 50.0)[1])
    assert rex.path.walks[0].length == pytest.approx(fairness.path(arena, 1, arena.centre(), 50.0).length)
    assert rex.path.walks[0].points != old_walk.points
    # the new walk keeps the base (25 mm radius) clear of the column (1 in radius)
    assert LineString(rex.path.walks[0].points).distance(Point(mid)) >= 1.0 + 25.0 / 25.4 - 1e-6


def test_clicking_a_centre_access_finding_draws_both_walks(rwin, qtbot) -> None:  # type: ignore[no-untyped-def]
    """A wall in front of zone 1 makes its walk to the centre longer (ar-centre-access); the
    finding's row, clicked, draws both zones' walks for the base the message names."""
    from validators.run import validate

    rex = rwin.overlays.parts["arena-rex"]
    base = load(SHIPPED)
    arena = replace(base, hazards=(*base.hazards, Hazard("wall", Rect((0.0, -9.0), (12.0, 1.0)), "wall")))
    rwin.doc.reset(arena, None)
    qtbot.waitUntil(lambda: not rwin.runner.busy, timeout=WAIT_MS)
    found = [{"code": f.code, "severity": f.severity, "message": f.message, "elements": list(f.elements)}
             for f in validate(arena).findings]
    rwin.validation.show_findings(found)
    tree = rwin.validation.tree
    item = next(tree.topLevelItem(i) for i in range(tree.topLevelItemCount())
                if tree.topLevelItem(i).text(1) == "ar-centre-access")
    tree.itemClicked.emit(item, 0)
    qtbot.waitUntil(lambda: rex.path.isVisible(), timeout=WAIT_MS)
    msg = item.text(2)
    mm = float(msg.rsplit("with ", 1)[1].split(" mm")[0])
    metrics = {m.zone: m for m in fairness.zone_metrics(arena)[mm]}
    walks = rex.path.walks
    assert {w.player for w in walks} == {1, 2} and all(w.goal == "centre" for w in walks)
    for w in walks:
        assert w.base_mm == mm and w.length == pytest.approx(metrics[f"deploy:{w.player}"].centre)
        assert w.points[-1] == pytest.approx((0.0, 0.0))
    assert "Walks to the centre (ar-centre-access)" in rex.legend.text()
    # another kind of finding leaves the walks alone
    rwin.validation.findingSelected.emit({"code": "ar-pits", "severity": "error", "message": "", "elements": []})
    assert rex.path.walks == walks


def test_zone_access_finding_query_names_each_zones_nearest_zone() -> None:
    arena = load(SHIPPED)
    q = RW.finding_query(arena, {"code": "ar-zone-access", "message": "deploy:1 is 20.0 in from the nearest other "
                                 "zone, deploy:2 27.0 in with 30 mm bases", "elements": ["deploy:1", "deploy:2"]})
    assert q == (((1, RW.NEAREST_ZONE), (2, RW.NEAREST_ZONE)), 30.0, "Walks to the nearest zone (ar-zone-access)")
    (w1, w2) = RW.walks(arena, q[0], q[1])
    assert w1.reached == "deploy:2" and w2.reached == "deploy:1" and w1.length == pytest.approx(w2.length)
    assert RW.finding_query(arena, {"code": "ar-pits", "message": "", "elements": ["pit-west"]}) is None


def test_hazard_access_walks_end_in_melee_range_of_the_nearest_pit() -> None:
    """"Models have a simple 1 melee range" (L20): the walk of ar-hazard-access ends where the
    base's rim is within 1 in of the nearest pit, and is no longer than the check's own figure
    (read from the distance field) nor much shorter."""
    arena = load(SHIPPED)
    msg = "the nearest pit is 9.5 in from deploy:1 but 11.0 in from deploy:2 with 40 mm bases"
    q = RW.finding_query(arena, {"code": "ar-hazard-access", "message": msg, "elements": ["deploy:1", "deploy:2"]})
    assert q is not None and q[0] == ((1, "nearest:pit"), (2, "nearest:pit")) and q[1] == 40.0
    metrics = {m.zone: m for m in fairness.zone_metrics(arena)[40.0]}
    r = 40.0 / 25.4 / 2.0
    for w in RW.walks(arena, q[0], q[1]):
        pit = next(p for p in arena.pits if p.id == w.reached).shape.to_shapely()
        assert pit.distance(Point(w.points[-1])) <= r + arena.scenario.analysis.melee + 1e-6
        nearest = metrics[f"deploy:{w.player}"].nearest["pit"]
        assert nearest - 1.0 <= w.length <= nearest + 1e-6
    # ar-reach: the walk that fails, drawn as "no way"
    blocked = replace(arena, hazards=(*arena.hazards, Hazard("ring", Rect((0.0, -10.0), (30.0, 1.0)), "wall")))
    q = RW.finding_query(blocked, {"code": "ar-reach", "message": "deploy:1 cannot walk to the centre, deploy:2 "
                                   "with 50 mm bases", "elements": ["deploy:1", "deploy:2"]})
    assert q is not None and q[0] == ((1, RW.CENTRE),)
    (w,) = RW.walks(blocked, q[0], q[1])
    assert not math.isfinite(w.length) and "no way for 50 mm bases" in w.summary()
