"""The HTML report in a real headless Chromium (Debian's ``chromium``, driven by Playwright for
Python; no browser download): pointing at a finding outlines its elements on the map, clicking
it shows its path, a hostile name runs no script, and the page asks the network for nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.chromium import chromium, needs_chromium
from tests.webreport.test_report import hostile_arena
from validators.webreport import Header, render_report

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


def open_page(browser: Any, html: str, tmp_path: Path, width: int = 1280) -> tuple[Any, list[str], list[str]]:
    path = tmp_path / "report.html"
    path.write_text(html, "utf-8")
    page = browser.new_page(viewport={"width": width, "height": 900})
    requests: list[str] = []
    problems: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("dialog", lambda d: (problems.append("dialog: " + d.message), d.dismiss()))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.goto(path.as_uri())
    return page, requests, problems


@pytest.mark.parametrize("game", ["gravstrike", "car-wars-6e", "arena-rex", "glider-pit-gladiators", "mothership-grid"])
def test_hover_outlines_the_findings_elements_and_nothing_is_fetched(game: str, browser: Any, unfair_reports: Any,
                                                                      tmp_path: Path) -> None:
    path, arena, report = unfair_reports[game]
    page, requests, problems = open_page(browser, render_report(report, arena, header=Header(path.name)), tmp_path)
    try:
        index = next(i for i, f in enumerate(report["findings"]) if f["elements"] and f["elements"] != ["bounds"])
        element = report["findings"][index]["elements"][0]
        drawn = page.locator(f'#arena [data-element="{element}"]')
        assert drawn.count() >= 1
        assert "hl" not in (drawn.first.get_attribute("class") or "").split()
        page.hover(f"#finding-{index}")
        assert "hl" in (drawn.first.get_attribute("class") or "").split()
        page.mouse.move(0, 0)
        assert "hl" not in (drawn.first.get_attribute("class") or "").split()
        page.click(f"#finding-{index} .message")
        assert "selected" in (page.get_attribute(f"#finding-{index}", "class") or "")
        assert "hl" in (drawn.first.get_attribute("class") or "").split()  # pinned by the click
        assert problems == []
        assert requests == [(tmp_path / "report.html").as_uri()]  # the page itself, nothing else
    finally:
        page.close()


def test_click_shows_a_travel_findings_path(browser: Any, unfair_reports: Any, tmp_path: Path) -> None:
    _, arena, report = unfair_reports["gravstrike"]
    index = next(i for i, f in enumerate(report["findings"]) if f.get("path"))
    page, _, problems = open_page(browser, render_report(report, arena), tmp_path)
    try:
        path = page.locator(f"#overlay-{index} path.travel")
        # a horizontal path has a zero-height box (the stroke is not counted): ask the browser
        shown = "e => getComputedStyle(e.closest('.overlay')).display !== 'none'"
        assert not path.evaluate(shown)
        page.click(f"#finding-{index} .message")
        assert path.evaluate(shown)
        box = path.bounding_box()
        assert box is not None and box["width"] + box["height"] > 10  # drawn at the arena's scale
        page.click(f"#finding-{index} .message")  # a second click unpins it
        assert not path.evaluate(shown)
        assert problems == []
    finally:
        page.close()


def test_a_hostile_name_runs_nothing_and_the_phone_layout_fits(browser: Any, tmp_path: Path) -> None:
    import schema
    from validators.run import validate

    arena = schema.load(hostile_arena(tmp_path))
    report = validate(arena, source="hostile.yaml").to_json()
    page, requests, problems = open_page(browser, render_report(report, arena), tmp_path, width=390)
    try:
        assert page.locator("h1").inner_text().startswith("<script>alert(1)</script>")
        assert problems == []  # no alert dialog, no error
        assert len(requests) == 1
        # readable on a phone: nothing wider than the screen but the tables' own scroll boxes
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390
        svg = page.locator("#arena").bounding_box()
        assert svg is not None and svg["width"] <= 390
    finally:
        page.close()


@pytest.mark.parametrize("game", ["glider-pit-gladiators", "arena-rex"])
def test_choosing_a_heat_map_shows_its_layer_legend_and_values(game: str, browser: Any, unfair_reports: Any,
                                                              tmp_path: Path) -> None:
    """The chooser shows one map at a time with its legend; the pointer reads its value (a hex
    grid's cells, a regular grid's squares); on a phone the chooser fits the screen."""
    import numpy as np

    from validators.heatmaps import report_heat_maps
    from validators.webreport.heat import value_text

    path, arena, report = unfair_reports[game]
    maps = report_heat_maps(arena)
    page, requests, problems = open_page(browser, render_report(report, arena, header=Header(path.name), heat_maps=maps),
                                         tmp_path, width=390)
    try:
        first, second = page.locator("#heatmap-0"), page.locator("#heatmap-1")
        assert not first.is_visible() and not second.is_visible() and not page.locator("#heatlegend-0").is_visible()
        page.select_option("#heat-choice", "1")
        assert second.is_visible() and not first.is_visible()
        assert page.locator("#heatlegend-1").is_visible() and not page.locator("#heatlegend-0").is_visible()
        assert maps[1].title in page.locator("#heatlegend-1").inner_text()
        # point at a place of the map: the readout gives the map's value there
        m = maps[1]
        if m.grid is not None:
            i, j = (int(v[len(v) // 2]) for v in np.nonzero(np.isfinite(m.grid.values)))
            value = float(m.grid.values[i, j])
            at = (m.grid.x0 + (i + 0.5) * m.grid.cell, m.grid.y0 + (j + 0.5) * m.grid.cell)
        else:
            cell = m.cells[len(m.cells) // 2]
            value, at = cell.value, tuple(float(np.mean([p[k] for p in cell.ring])) for k in (0, 1))
        x, y = page.evaluate("([x, y]) => { const svg = document.getElementById('arena'); const p = svg.createSVGPoint();"
                             " p.x = x; p.y = -y; const q = p.matrixTransform(svg.getScreenCTM()); return [q.x, q.y]; }",
                             list(at))
        page.mouse.move(x, y)
        text = page.locator("#heat-readout").inner_text()
        assert text.startswith(f"{value_text(value)} {m.unit} at "), text
        if m.grid is None:
            assert text.endswith(f"at cell:{cell.at[0]},{cell.at[1]}")
        page.select_option("#heat-choice", "")
        assert not second.is_visible() and page.locator("#heat-readout").inner_text() == ""
        chooser = page.locator("#heat-choice").bounding_box()
        assert chooser is not None and chooser["x"] + chooser["width"] <= 390
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert problems == [] and len(requests) == 1
    finally:
        page.close()
