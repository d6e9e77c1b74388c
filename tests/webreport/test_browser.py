"""The HTML report in a real headless Chromium (Debian's ``chromium``, driven by Playwright for
Python; no browser download): pointing at a finding outlines its elements on the map, clicking
it shows its path, a hostile name runs no script, and the page asks the network for nothing."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.webreport.test_report import hostile_arena
from validators.webreport import Header, render_report

CHROMIUM = "/usr/bin/chromium"
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists() or shutil.which("chromium") is None,
                                reason="no system Chromium at /usr/bin/chromium (.ci/run installs Debian's chromium)")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is in the dev extra")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


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
