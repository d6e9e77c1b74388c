"""Arena Rex's file format (``system: arena-rex``): the schema, the typed model, the deployment
edges and the ruleset's registration (book: shared/seeds/004_dc762f78e7f2abcd.txt)."""

from __future__ import annotations

import math
import subprocess
import sys
from dataclasses import replace
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from schema.errors import ArenaError
from schema.games import arenarex as ar
from schema.games.arenarex.edges import deployment_edge
from schema.io import dumps, loads
from schema.shapes import Circle, Polygon, Rect
from schema.ruleset import ruleset, rulesets

ROOT = Path(__file__).resolve().parents[2]


def test_schema_file_is_up_to_date() -> None:
    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "arenarex_schema.py"), "--check"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_default_arena_is_the_books_usual_board() -> None:
    """"Our games typically take place on a 30 diameter circle." (L40)"""
    a = ar.default_arena()
    assert isinstance(a.bounds, Circle) and a.bounds.radius * 2 == 30
    assert [d.player for d in a.deployment] == [1, 2]
    assert ruleset("arena-rex").default_arena() == a


def test_round_trip_through_text() -> None:
    a = ar.default_arena()
    text = dumps(a)
    assert loads(text) == a
    assert dumps(loads(text)) == text


def test_defaults_filled() -> None:
    a = loads("format: arena-studio/1\nsystem: arena-rex\nname: x\n")
    assert a.bounds == Circle((0.0, 0.0), 15.0)
    assert a.bases == (30.0, 40.0, 50.0)
    assert a.scenario.analysis.mov == 5 and a.scenario.analysis.deployment_reach == 6
    assert a.units.printed_mm == 25.4


def _text(deployment: str, bounds: str = "{type: circle, center: [0, 0], radius: 15}") -> str:
    return f"format: arena-studio/1\nsystem: arena-rex\nname: x\nbounds: {bounds}\ndeployment:\n{deployment}"


@pytest.mark.parametrize("deployment, bounds, words", [
    ("  - {player: 1, side: 0}\n", None, "a circle board has no sides"),
    ("  - {player: 1, arc: [0, 90]}\n", "{type: rect, center: [0, 0], size: [24, 24]}", "deploys on a side"),
    ("  - {player: 1, side: 4}\n", "{type: rect, center: [0, 0], size: [24, 24]}", "side 4 is not a side"),
    ("  - {player: 1, arc: [90, 10]}\n", None, "must run counter-clockwise"),
    ("  - {player: 1, arc: [0, 90]}\n  - {player: 1, arc: [180, 270]}\n", None, "deploys twice"),
    ("  - {player: 1, arc: [0, 90], side: 1}\n", None, "not valid under any"),
])
def test_bad_deployments_are_located_errors(deployment: str, bounds: str | None, words: str) -> None:
    text = _text(deployment, bounds) if bounds else _text(deployment)
    with pytest.raises(ArenaError) as err:
        loads(text, source="t.yaml")
    assert words in str(err.value)
    assert "t.yaml:" in str(err.value) and "/deployment/" in str(err.value)


def test_ids_unique_across_lists() -> None:
    text = _text("  - {player: 1, arc: [0, 90]}\n") + (
        "pits:\n  - {id: a, shape: {type: circle, center: [0, 0], radius: 1}}\n"
        "spikes:\n  - {id: a, shape: {type: circle, center: [5, 0], radius: 1}}\n")
    with pytest.raises(ArenaError, match="a"):
        loads(text)


def test_circle_zone_is_twelve_inches_of_rim() -> None:
    """"Find the center of your board edge, your cohort may be deployed up to 6 inches away from
    the center in either direction." (L40): on a circle, 6 in of arc either side."""
    e = deployment_edge(Circle((0.0, 0.0), 15.0), None, (225.0, 315.0), None, 6.0)
    assert e.centre == pytest.approx((0.0, -15.0), abs=1e-9)
    assert e.zone.length == pytest.approx(12.0, abs=0.01)
    line = e.centre_line(0.5)
    assert all(math.hypot(x, y) == pytest.approx(14.5) for x, y in line.coords)


def test_side_zone_and_inward_offset() -> None:
    e = deployment_edge(Rect((0.0, 0.0), (24.0, 24.0)), 0, None, None, 6.0)
    assert e.centre == (0.0, -12.0)
    assert sorted(e.zone.coords) == [(-6.0, -12.0), (6.0, -12.0)]
    assert sorted(e.centre_line(1.0).coords) == [(-6.0, -11.0), (6.0, -11.0)]


def test_clockwise_polygon_still_offsets_inward() -> None:
    cw = Polygon(((0.0, 0.0), (0.0, 20.0), (20.0, 20.0), (20.0, 0.0)))  # clockwise
    e = deployment_edge(cw, 3, None, None, 6.0)  # (20, 0) -> (0, 0): the bottom
    ys = {round(y, 9) for _, y in e.centre_line(1.0).coords}
    assert ys == {1.0}


def test_given_centre_is_projected_and_measured() -> None:
    e = deployment_edge(Rect((0.0, 0.0), (24.0, 24.0)), 2, None, (3.0, 12.5), 6.0)
    assert e.centre == (3.0, 12.0)
    assert e.offset == pytest.approx(3.0) and e.off_edge == pytest.approx(0.5)
    assert e.zone.length == pytest.approx(12.0)


def test_short_edge_clips_the_zone() -> None:
    e = deployment_edge(Rect((0.0, 0.0), (8.0, 30.0)), 0, None, None, 6.0)
    assert e.zone.length == pytest.approx(8.0)


def test_registered_like_the_other_games() -> None:
    names = {ep.name: ep.value for ep in entry_points(group="arena_studio.rulesets")}
    assert names.get("arena-rex") == "schema.games.arenarex:RULESET"
    rs = rulesets()["arena-rex"]
    assert rs.units.name == "inch" and rs.units.printed_mm == 25.4
    fills = [k.style.fill for k in rs.kinds]
    assert len(set(fills)) == len(fills)
    for k in rs.kinds:
        assert rs.kind_schema(k.key)["title"]


def test_deployment_zone_has_a_drawable_shape() -> None:
    a = ar.default_arena()
    shape = a.element_shape(a.deployment[0])
    assert isinstance(shape, Polygon) and len(shape.points) > 4
    depth = 50 / 25.4  # one largest base deep; the inner rim is shorter by the curvature
    assert shape.to_shapely().area == pytest.approx(12.0 * (1 - depth / 2 / 15) * depth, rel=0.01)
    broken = replace(a, deployment=(ar.Deployment(player=1, side=0),))
    assert broken.element_shape(broken.deployment[0]) == Polygon(())
