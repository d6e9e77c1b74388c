"""Heat maps in the HTML report (issue 41, point 1): for each game's shipped unfair arena, one layer
per start (zone, Mothership) over the arena, its places and values the game's engine's - read back
from the page with a real HTML parser and compared with the engine run on its own at a few cells -
a chooser entry and a legend for each, and a map a limit stopped said to be incomplete.

Work is bounded by the maps' own caps (``HeatLimits``: maps, search states), not by seconds:
Gravstrike's and Car Wars' maps cost seconds a start, so their tests compute one map (the
others are listed as not computed), Car Wars' under a state cap that stops it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from engine.budget import Budget, Caps, active
from tests.webreport.conftest import UNFAIR
from tests.webreport.test_report import parse
from validators.heatmaps import HeatLimits, HeatMap, report_heat_maps
from validators.webreport import Header, render_report

#: The maps' caps per game: Gravstrike one map; Car Wars one map, stopped by its state cap.
LIMITS = {"gravstrike": HeatLimits(maps=1), "car-wars-6e": HeatLimits(maps=1, states=60_000)}


@pytest.fixture(scope="module")
def pages(unfair_reports: Any) -> dict[str, tuple[list[HeatMap], str]]:
    """game -> (its heat maps, the page with them)."""
    out = {}
    for game, (path, arena, report) in unfair_reports.items():
        maps = report_heat_maps(arena, limits=LIMITS.get(game, HeatLimits()))
        out[game] = maps, render_report(report, arena, header=Header(path.name), heat_maps=maps)
    return out


def layers(html: str) -> list[dict[str, Any]]:
    """Each heat-map layer of the page: its attributes and its band paths' attributes."""
    out: list[dict[str, Any]] = []
    for tag, attrs in parse(html).tags:
        if tag == "g" and "heatmap" in (attrs.get("class") or "").split():
            out.append({**attrs, "bands": []})
        elif tag == "path" and "band" in (attrs.get("class") or "").split() and out:
            out[-1]["bands"].append(attrs)
    return out


def grid_values(layer: dict[str, Any]) -> tuple[tuple[float, float, float], dict[tuple[int, int], float]]:
    """A regular grid layer's (x0, y0, cell) and its values by (i, j)."""
    x0, y0, cell, nx, ny = layer["data-grid"].split()
    rows = layer["data-values"].split(";")
    assert len(rows) == int(ny) and all(len(r.split()) == int(nx) for r in rows)
    values = {(i, j): float(v) for j, row in enumerate(rows) for i, v in enumerate(row.split()) if v != "-"}
    return (float(x0), float(y0), float(cell)), values


def cell_values(layer: dict[str, Any]) -> dict[tuple[int, int], float]:
    out = {}
    for pair in layer["data-values"].split():
        at, _, v = pair.partition("=")
        q, r = at.split(",")
        out[(int(q), int(r))] = float(v)
    return out


def engine_gravstrike(arena: Any, layer: dict[str, Any]) -> int:
    """Every square the engine reaches within one turn (its own search, stopped at 1 turn) has
    the page's value there; returns the squares compared."""
    from engine.gravstrike.planner import Planner, StartSource

    (x0, y0, cell), values = grid_values(layer)
    r = Planner(arena, quantum=0.5, minimise="time", pivots=False).reach_times(
        StartSource(int(layer["data-key"].split(":")[1])), cell=cell, max_time=1.0)
    assert (r.x0, r.y0) == pytest.approx((x0, y0))
    near = {(int(i), int(j)): float(r.times[i, j]) for i, j in zip(*np.nonzero(np.isfinite(r.times)))}
    assert near and all(values[at] == pytest.approx(round(t, 2)) for at, t in near.items())
    return len(near)


def engine_carwars(arena: Any, layer: dict[str, Any]) -> int:
    """Every square the car's centre reaches within one turn (the engine's reach, stopped at 1
    turn) has the page's value (the picture only fills squares between stops)."""
    from engine.carwars.reach import reach
    from engine.carwars.travel import StartSource

    (x0, y0, cell), values = grid_values(layer)
    r = reach(arena, StartSource(int(layer["data-key"].split(":")[1])), limit=1.0, cell=cell)
    assert r.complete and (r.x0, r.y0) == pytest.approx((x0, y0))
    near = {(int(i), int(j)): float(r.times[i, j]) for i, j in zip(*np.nonzero(np.isfinite(r.times)))}
    assert near and all(values[at] == pytest.approx(round(t, 2)) for at, t in near.items())
    return len(near)


def engine_arenarex(arena: Any, layer: dict[str, Any]) -> int:
    """The page's squares are the engine's grid nodes (a square centred on each), with its moves."""
    from engine.arenarex.fairness import heat_map

    (x0, y0, cell), values = grid_values(layer)
    fld, moves = heat_map(arena, int(layer["data-key"].split(":")[1]))
    assert (x0 + cell / 2, y0 + cell / 2, cell) == pytest.approx((fld.x0, fld.y0, fld.step))
    assert values == {(int(i), int(j)): float(moves[i, j]) for i, j in zip(*np.nonzero(moves >= 0))}
    return len(values)


def engine_gliderpit(arena: Any, layer: dict[str, Any]) -> int:
    from engine.gliderpit.travel import reach

    zone = layer["data-key"].split(":", 1)[1]
    assert cell_values(layer) == {h: float(t) for h, t in reach(arena, zone, 6).turns.items()}
    return len(cell_values(layer))


def engine_mothership(arena: Any, layer: dict[str, Any]) -> int:
    from engine.mothership.travel import reach

    assert cell_values(layer) == {s: float(ap) for s, ap in reach(arena, layer["data-key"]).items()}
    return len(cell_values(layer))


ENGINE: dict[str, Callable[[Any, dict[str, Any]], int]] = {
    "gravstrike": engine_gravstrike, "car-wars-6e": engine_carwars, "arena-rex": engine_arenarex,
    "glider-pit-gladiators": engine_gliderpit, "mothership-grid": engine_mothership}


def expected_keys(game: str, arena: Any) -> list[str]:
    if game in ("gravstrike", "car-wars-6e"):
        return [f"start:{s.player}" for s in arena.start_positions]
    if game == "arena-rex":
        return [f"deploy:{p}" for p in sorted({z.player for z in arena.deployment})]
    if game == "glider-pit-gladiators":
        return [f"zone:{z.id}" for z in arena.launch_zones]
    return [f"build:{m.player}" for m in sorted(arena.motherships, key=lambda m: m.player)]


@pytest.mark.parametrize("game", list(UNFAIR))
def test_each_game_draws_a_heat_map_per_start_with_the_engines_values(game: str, pages: Any,
                                                                     unfair_reports: Any) -> None:
    _, arena, _ = unfair_reports[game]
    maps, html = pages[game]
    drawn = layers(html)
    assert [layer["data-key"] for layer in drawn] == expected_keys(game, arena) == [m.key for m in maps]
    options = [a for t, a in parse(html).tags if t == "option" and a.get("data-key")]
    assert [o["data-key"] for o in options] == [layer["data-key"] for layer in drawn]
    first = drawn[0]
    # the first map is computed; its places are the values listed, counted per band
    count = int(first["data-count"])
    values = grid_values(first)[1] if first["data-kind"] == "grid" else cell_values(first)
    assert count == len(values) == maps[0].reached() > 0
    assert sum(int(b["data-cells"]) for b in first["bands"]) == count
    assert all(b["d"].startswith("M") and b["fill"].startswith("#") for b in first["bands"])
    assert ENGINE[game](arena, first) > 0
    # the legend says what it measures, with its unit
    assert f'id="heatlegend-{first["id"].split("-")[1]}"' in html and maps[0].measure
    assert first["data-unit"] in ("turns", "moves", "AP")


def test_a_map_a_limit_stopped_or_skipped_says_so(pages: Any) -> None:
    maps, html = pages["car-wars-6e"]
    stopped, skipped = maps
    assert stopped.stopped == "the search's cap of 60,000 states" and stopped.reached() > 0
    assert skipped.stopped == "the report's cap of 1 heat map" and skipped.reached() == 0
    text = " ".join("".join(parse(html).text).split())
    assert "Incomplete: the computation stopped (the search's cap of 60,000 states)" in text
    assert "Not computed: the computation stopped (the report's cap of 1 heat map)" in text
    assert "Start 1 (turns) — incomplete" in text and "Start 2 (turns) — not computed" in text
    gs_maps, _ = pages["gravstrike"]
    assert gs_maps[0].stopped is None  # complete: its horizon reached within the caps


def test_a_spent_budget_stops_the_maps_and_the_page_says_so(unfair_reports: Any) -> None:
    path, arena, report = unfair_reports["mothership-grid"]
    clock = iter([0.0] + [100.0] * 50).__next__
    with active(Budget(Caps(seconds=10.0, memory_mib=None), clock=clock)):
        maps = report_heat_maps(arena)
    assert [m.stopped for m in maps] == ["time limit (10 s)"] * 2 and all(m.reached() == 0 for m in maps)
    html = render_report(report, arena, header=Header(path.name), heat_maps=maps)
    assert all(layer["bands"] == [] for layer in layers(html))
    assert "Not computed" in html and "time limit (10 s)" in html


def test_the_page_is_the_same_for_the_same_maps_and_without_maps_has_none(pages: Any, unfair_reports: Any) -> None:
    path, arena, report = unfair_reports["glider-pit-gladiators"]
    maps, html = pages["glider-pit-gladiators"]
    assert render_report(report, arena, header=Header(path.name), heat_maps=maps) == html
    plain = render_report(report, arena, header=Header(path.name))
    assert 'id="heat-choice"' not in plain and not layers(plain)
    assert len(html) - len(plain) < 120_000  # six maps of 100-odd hexes, merged per band


def test_arena_report_draws_heat_maps_unless_told_not_to(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from app.cli.main import load_commands
    from app.cli.shared import app

    load_commands(["report"])
    path = UNFAIR["mothership-grid"]
    with_maps, without = tmp_path / "m.html", tmp_path / "plain.html"
    assert CliRunner().invoke(app, ["report", str(path), "-o", str(with_maps)]).exit_code == 0
    assert CliRunner().invoke(app, ["report", str(path), "-o", str(without), "--no-heat-maps"]).exit_code == 0
    assert [layer["data-key"] for layer in layers(with_maps.read_text("utf-8"))] == ["build:1", "build:2"]
    assert not layers(without.read_text("utf-8"))


def test_report_heat_maps_of_a_game_without_any_are_none() -> None:
    from validators.game import GameAnalysis

    assert GameAnalysis("gravstrike").report_heat_maps(object(), limits=HeatLimits()) == []


def test_gravstrikes_reach_search_says_which_limit_stopped_it(unfair_reports: Any) -> None:
    """The engine's reach map (``Planner.reach_times``) names the limit that ended it early, and
    the map passes it on (before, a stopped search's map looked complete)."""
    from validators.games.gravstrike.heatmaps import heat_maps

    _, arena, _ = unfair_reports["gravstrike"]
    first, *rest = heat_maps(arena, HeatLimits(maps=1, states=5_000))
    assert first.stopped is not None and first.stopped.startswith("memory limit (")
    assert first.grid is not None and [m.stopped for m in rest] == ["the report's cap of 1 heat map"] * len(rest)


def test_car_wars_reach_stops_at_the_analysis_caps(unfair_reports: Any) -> None:
    """Car Wars' reach search checks the analysis's caps as its other searches do: past the
    searches' share of the time it stops, incomplete (before, only its state cap stopped it);
    the maps then say which cap stopped them."""
    from engine.carwars.planner import Planner
    from engine.carwars.reach import reach_with
    from engine.carwars.travel import StartSource
    from validators.games.carwars.heatmaps import heat_maps

    _, arena, _ = unfair_reports["car-wars-6e"]
    planner = Planner(arena, "flat-out")
    late = Budget(Caps(seconds=10.0, memory_mib=None), clock=lambda: 8.0, start=0.0)  # past 75 % of 10 s
    with active(late):
        r = reach_with(planner, StartSource(1), 3.0, 1.0)
        maps = heat_maps(arena, HeatLimits())
    assert not r.complete and late.checks > 0
    assert [m.stopped for m in maps] == ["time limit for searches (7.5 s of 10)"] * 2
