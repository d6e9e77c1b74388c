"""Launch-zone fairness (engine/gliderpit/fairness.py): the numbers per zone, and each
comparison quiet on the default pit and firing on a pit skewed the way it measures."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.gliderpit.fairness import compare, first_moves, zone_metrics
from engine.gliderpit.pit import pit_of
from engine.gliderpit.rules import chance_any_marker, total_chance
from engine.grids import hex_distance
from schema.games.gliderpit import Analysis, GliderPitArena, LaunchZone, Row, Scenario, default_arena

DEFAULT = default_arena()


def codes(arena: GliderPitArena, travel: bool = True) -> set[str]:
    return {i.code for i in compare(arena, travel=travel)}


def test_default_pit_zones_are_equal_side_by_side() -> None:
    ms = zone_metrics(DEFAULT, travel=True)
    assert [m.zone for m in ms] == ["Z1", "Z2", "Z3", "Z4", "Z5", "Z6"]
    assert {m.centre_mean for m in ms} == {9.0} and {m.nearest_zone for m in ms} == {2}
    assert {m.clearance_mean for m in ms} == {10.0}
    assert {round(m.exposure, 6) for m in ms} == {round(1 - (18 / 36) ** 4, 6)}
    assert {m.updraft_rows for m in ms} == {7} and {len(m.rows) for m in ms} == {7}
    assert max(m.travel_turns or 0 for m in ms) - min(m.travel_turns or 0 for m in ms) <= 1
    assert compare(DEFAULT, ms) == []


def test_first_moves_are_the_zone_and_one_hex_on_at_launch_speed() -> None:
    """Launched at speed 1 (L57) a glider has one Movement Point: Forward or Turn (Climb would
    reach LEDGE from 20, L117).  With a launch dive (L59) it may go up to four hexes."""
    pit = pit_of(DEFAULT)
    z2 = DEFAULT.launch_zones[1]
    near = first_moves(pit, z2, 1)
    assert set(z2.cells) <= near
    assert all(min(hex_distance(h, c) for c in z2.cells) <= 1 for h in near)
    far = first_moves(pit, z2, 4)
    assert max(min(hex_distance(h, c) for c in z2.cells) for h in far) == 4


def test_exposure_is_the_chance_a_marker_may_land_on_a_touched_row() -> None:
    """Four markers, each on a row matching a 2d6 roll (L195-199): exposure = 1 - (1 - sum of
    the touched totals' chances) ** 4."""
    m = zone_metrics(DEFAULT)[0]
    assert m.labels == (4, 5, 6, 8, 12)
    p = sum(total_chance(k) for k in m.labels)
    assert m.exposure == pytest.approx(1 - (1 - p) ** 4) == pytest.approx(chance_any_marker(m.labels))
    assert m.expected_markers == pytest.approx(4 * p)


def top_row_zone() -> GliderPitArena:
    """Z1 moved from the upper-left wall to the middle of the top row."""
    zones = list(DEFAULT.launch_zones)
    zones[0] = LaunchZone("Z1", 1, ((-7, 9), (-6, 9), (-5, 9), (-4, 9), (-3, 9)))
    return replace(DEFAULT, launch_zones=tuple(zones), symmetry=None)


def test_spacing_and_currents_fire_for_a_zone_along_the_top_row() -> None:
    """Along the top row the zone is further from its neighbours, and it touches two rows (the
    top row and the one below) instead of seven, so fewer 2d6 totals can put a marker near it."""
    arena = top_row_zone()
    m = {x.zone: x for x in zone_metrics(arena)}
    assert m["Z1"].nearest_zone is not None and m["Z1"].nearest_zone > 3
    assert m["Z1"].rows == (1, 2) and m["Z1"].exposure < m["Z2"].exposure - 0.1
    assert {"gp-zone-spacing", "gp-zone-currents"} <= codes(arena, travel=False)
    assert "gp-zone-centre" not in codes(arena, travel=False)  # every wall hex is 9 from the centre


def test_centre_fires_on_a_notch_in_the_wall() -> None:
    """Cut a notch into the left wall so one zone lies deeper in the pit than the others."""
    notch = {(-9, r) for r in range(4, 9)} | {(-8, r) for r in range(3, 9)}
    cells = tuple(c for c in DEFAULT.cells if c not in notch)
    zones = list(DEFAULT.launch_zones)
    zones[0] = LaunchZone("Z1", 1, ((-7, 8), (-7, 7), (-7, 6), (-7, 5), (-7, 4)))
    arena = replace(DEFAULT, cells=cells, launch_zones=tuple(zones))
    issues = {i.code: i for i in compare(arena, travel=False)}
    assert "gp-zone-centre" in issues and "Z1" in issues["gp-zone-centre"].elements
    assert issues["gp-zone-centre"].metrics["values"]["Z1"] < 9


def test_clearance_and_facings_fire_on_a_zone_in_a_pocket() -> None:
    """A zone at the end of a one-hex-wide inlet: little room ahead and few facings."""
    inlet = [(-10 - k, 0) for k in range(1, 6)]
    cells = (*DEFAULT.cells, *inlet)
    zones = list(DEFAULT.launch_zones)
    zones[1] = LaunchZone("Z2", 2, tuple(reversed(inlet)))
    arena = replace(DEFAULT, cells=cells, launch_zones=tuple(zones), symmetry=None)
    found = codes(arena, travel=False)
    assert {"gp-zone-clearance", "gp-zone-facings"} <= found
    m = {x.zone: x for x in zone_metrics(arena)}
    assert m["Z2"].facings_min == 1 and m["Z2"].facings_mean < 2.5


def test_currents_fire_on_rows_that_favour_one_side() -> None:
    """Rows that take only updrafts (a house rule) near one zone: its updraft exposure and
    updraft rows differ from the others'."""
    up = {3, 4, 5, 6, 7, 8, 9}
    rows = tuple(replace(r, current="updraft") if r.line in up else
                 replace(r, current="downdraft") for r in DEFAULT.rows)
    arena = replace(DEFAULT, rows=rows)
    issues = [i for i in compare(arena, travel=False) if i.code == "gp-zone-currents"]
    assert any("updraft rows" in i.message for i in issues) and any("downdraft rows" in i.message for i in issues)
    assert compare(replace(DEFAULT, scenario=Scenario(analysis=Analysis(current_rows_tolerance=10,
                                                                        current_tolerance=1.0)), rows=rows),
                   travel=False) == []


def test_travel_fires_when_a_zone_is_far_from_the_centre() -> None:
    """A long arm: a zone at its end needs more turns to reach the centre."""
    arm = [(-9 - k, 0) for k in range(1, 13)] + [(-9 - k, 1) for k in range(1, 13)]
    cells = (*DEFAULT.cells, *arm)
    zones = list(DEFAULT.launch_zones)
    zones[1] = LaunchZone("Z2", 2, ((-21, 1), (-21, 0), (-20, 0), (-19, 0), (-18, 0)))
    arena = replace(DEFAULT, cells=cells, launch_zones=tuple(zones), symmetry=None)
    ms = {m.zone: m for m in zone_metrics(arena, travel=True)}
    assert (ms["Z2"].travel_turns or 0) > (ms["Z1"].travel_turns or 0) + 1
    assert "gp-zone-travel" in codes(arena)
    assert "gp-zone-travel" not in codes(arena, travel=False)


def test_tolerances_and_disabled_codes_silence_comparisons() -> None:
    moved = top_row_zone()
    assert "gp-zone-spacing" in codes(moved, travel=False)
    loose = replace(moved, scenario=Scenario(analysis=Analysis(spacing_tolerance=5)))
    assert "gp-zone-spacing" not in codes(loose, travel=False)
    off = replace(moved, scenario=Scenario(analysis=Analysis(disabled=("gp-zone-spacing",))))
    assert "gp-zone-spacing" not in codes(off, travel=False)


def test_zones_with_no_pit_hexes_get_empty_numbers() -> None:
    zones = list(DEFAULT.launch_zones)
    zones[0] = LaunchZone("Z1", 1, ((40, 40),))
    m = zone_metrics(replace(DEFAULT, launch_zones=tuple(zones)), travel=True)[0]
    assert m.reach == () and m.exposure == 0.0 and m.travel_turns is None
    assert Row("R1", 0, 7).current == "any"


def _each_searched(arena: GliderPitArena, monkeypatch: pytest.MonkeyPatch) -> tuple[list[object], list[str]]:
    """zone_metrics' travel answers, and the zones it searched from."""
    import engine.gliderpit.fairness as fairness

    calls: list[str] = []
    real = fairness.plan

    def counting(arena: GliderPitArena, source: str, *args: object, **kw: object) -> object:
        calls.append(source)
        return real(arena, source, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(fairness, "plan", counting)
    found = [(m.zone, m.travel_turns, m.travel_status, m.travel_limit) for m in zone_metrics(arena, travel=True)]
    monkeypatch.undo()
    return found, calls


def test_a_zone_a_turn_of_the_pit_sends_onto_a_searched_one_takes_its_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """The default pit turns onto itself in sixths of a turn about its centre hex, and its six
    zones are three zones and their images under those turns: three searches answer all six, and each answer is the one its own search gives (issue 38, start-up).  A pit without
    those turns (a pillar off the centre) searches each zone."""
    from engine.gliderpit.fairness import pit_turns
    from engine.gliderpit.travel import SearchLimits, plan

    reused, calls = _each_searched(DEFAULT, monkeypatch)
    assert calls == ["Z1", "Z2", "Z3"] and len(pit_turns(pit_of(DEFAULT))) == 6
    own = [(z.id, r.turns if r.status == "reached" else None, r.status)
           for z in DEFAULT.launch_zones
           for r in [plan(DEFAULT, z.id, "centre", limits=SearchLimits(max_turns=12), path=False)]]
    assert [(z, t, s) for z, t, s, _ in reused] == own and all(s == "reached" for _, _, s in own)
    cut = replace(DEFAULT, cells=tuple(c for c in DEFAULT.cells if c != (3, 0)), symmetry=None)
    assert [len(t) for t in [pit_turns(pit_of(cut))]] == [1]  # the identity only
    assert _each_searched(cut, monkeypatch)[1] == [z.id for z in cut.launch_zones]
