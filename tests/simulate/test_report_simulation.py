"""Simulated play in the validation report, its HTML page and packs (issue 40 point 5, issue 41
point 1): ``arena validate/report/pack build --simulate N``.  The report's ``simulation`` part is
``simulate()``'s document and passes schema/report.schema.json; its play-balance findings join
the report's (so ``--fail-on warning`` sees them); the page draws one bar per start at its win
rate, keeps a hostile arena name as text, and lays the contact heat map over the arena; a pack
built twice with the same seed is the same bytes and carries the summary.  Glider-Pit's
hexagonal pit plays 4-6 games; Tortoise Derby (this package's test game) the rest."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import jsonschema

import schema
from tests.chromium import needs_chromium
from tests.simulate.conftest import ARENAS
from tests.simulate.test_cli import arena as run_arena
from validators.run import validate
from validators.simulate import attach, simulate

ROOT = Path(__file__).resolve().parents[2]
PIT = ROOT / "arenas" / "glider-pit-gladiators" / "hexagonal-pit.yaml"
REPORT_SCHEMA = json.loads((ROOT / "schema" / "report.schema.json").read_text(encoding="utf-8"))
SIM_SCHEMA = json.loads((ROOT / "schema" / "simulation.schema.json").read_text(encoding="utf-8"))
HOSTILE = "<script>alert(1)</script>"


def pit_report(games: int, seed: int, path: Path = PIT) -> tuple[Any, dict[str, Any]]:
    arena = schema.load(path)
    report = validate(arena, source=str(path))
    attach(report, games, seed, workers=1)
    return arena, report.to_json()


def test_the_report_holds_simulate_s_document_and_passes_the_schema() -> None:
    arena, doc = pit_report(4, 5)
    assert doc["simulation"] == simulate(arena, 4, 5, workers=1).document
    assert doc["simulation"]["games_counted"] == 4
    jsonschema.Draft202012Validator(REPORT_SCHEMA).validate(doc)
    # the report schema embeds the simulation schema: the copy must not drift from it
    embedded = REPORT_SCHEMA["properties"]["simulation"]
    strip = ("$schema", "$id", "title", "description")
    assert {k: v for k, v in embedded.items() if k not in strip} == {k: v for k, v in SIM_SCHEMA.items() if k not in strip}
    bad = dict(doc, simulation={**doc["simulation"], "starts": "none"})
    assert list(jsonschema.Draft202012Validator(REPORT_SCHEMA).iter_errors(bad))


def test_play_balance_findings_join_the_report_and_fail_on_warning_sees_them() -> None:
    unfair = str(ARENAS / "unfair.yaml")
    plain = run_arena("validate", unfair, "--json", "--fail-on", "warning")
    r = run_arena("validate", unfair, "--simulate", "40", "--seed", "3", "--workers", "1", "--json",
                  "--fail-on", "warning")
    doc = json.loads(r.stdout)
    from tests.simulate.conftest import toy

    assert doc["simulation"] == simulate(toy("unfair"), 40, 3, workers=1).document
    balance = [f for f in doc["findings"] if f["code"] == "play-balance"]
    assert [f["metrics"]["start"] for f in balance] == [1, 2]
    assert balance == doc["simulation"]["findings"]
    assert doc["summary"]["warning"] == json.loads(plain.stdout)["summary"]["warning"] + 2
    assert r.returncode == 1, r.stderr
    if not json.loads(plain.stdout)["summary"]["warning"] and not json.loads(plain.stdout)["summary"]["error"]:
        assert plain.returncode == 0
    text = run_arena("validate", unfair, "--simulate", "40", "--seed", "3", "--workers", "1")
    assert "SIMULATED PLAY" in text.stdout and "2 play-balance finding(s)" in text.stdout


def test_a_game_without_play_keeps_its_report_and_says_so() -> None:
    rex = ROOT / "arenas" / "arena-rex" / "lopsided-pit.yaml"
    r = run_arena("validate", str(rex), "--simulate", "4", "--json")
    assert "--simulate skipped: simulated play is not available for Arena Rex" in r.stderr
    assert "simulation" not in json.loads(r.stdout)


class _Bars(HTMLParser):
    """The page's win-rate bars, heat cells and the text of the simulation section."""

    def __init__(self) -> None:
        super().__init__()
        self.bars: list[dict[str, str]] = []
        self.rects: list[dict[str, str]] = []
        self.heat = 0
        self.depth: list[str] = []
        self.in_section = 0
        self.text: list[str] = []
        self.toggle = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "section" and a.get("id") == "simulation":
            self.in_section = 1
        elif self.in_section and tag == "section":
            self.in_section += 1
        if tag == "g" and "bar" in a.get("class", "").split():
            self.bars.append(a)
        if tag == "rect" and a.get("class") == "rate":
            self.rects.append(a)
        if tag == "rect" and "data-count" in a:
            self.heat += 1
        if tag == "input" and a.get("id") == "show-heat":
            self.toggle = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "section" and self.in_section:
            self.in_section -= 1

    def handle_data(self, data: str) -> None:
        if self.in_section:
            self.text.append(data)


def hostile_pit(tmp_path: Path) -> Path:
    """The hexagonal pit named :data:`HOSTILE`."""
    hostile = tmp_path / "hostile.yaml"
    text = PIT.read_text(encoding="utf-8")
    name_line = next(line for line in text.splitlines() if line.startswith("name:"))
    hostile.write_text(text.replace(name_line, f"name: {json.dumps(HOSTILE)}", 1), encoding="utf-8")
    return hostile


def test_the_page_draws_one_bar_per_start_at_its_rate_and_keeps_a_hostile_name_text(tmp_path: Path) -> None:
    from validators.webreport import render_report
    from validators.webreport.render import CHART_WIDTH

    arena, doc = pit_report(6, 2, hostile_pit(tmp_path))
    page = render_report(doc, arena)
    parsed = _Bars()
    parsed.feed(page)
    starts = doc["simulation"]["starts"]
    assert [int(b["data-start"]) for b in parsed.bars] == [s["start"] for s in starts]
    assert [float(b["data-rate"]) for b in parsed.bars] == [s["win_rate"] for s in starts]
    top = max(s["ci"][1] for s in starts)
    scale = float(next(t for t in ("0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9", "1.0")
                       if float(t) >= max(top, doc["simulation"]["fair_share"] + doc["simulation"]["tolerance"]) - 1e-9))
    for rect, s in zip(parsed.rects, starts, strict=True):
        assert abs(float(rect["width"]) - CHART_WIDTH * s["win_rate"] / scale) < 0.01
    assert parsed.heat == sum(1 for row in doc["simulation"]["contacts"]["counts"] for c in row if c) > 0
    assert parsed.toggle
    assert HOSTILE in "".join(parsed.text)  # shown as text ...
    assert HOSTILE not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page  # ... never as markup


def test_a_pack_built_twice_with_one_seed_is_the_same_bytes_and_carries_the_summary() -> None:
    from editor.pack_build import build_pack_bytes
    from schema.packs import read_pack

    def build(seed: int) -> bytes:
        return build_pack_bytes([PIT], name="sim", version="1", author=None, license=None, description=None,
                                simulate=4, seed=seed)

    first = build(7)
    assert first == build(7)
    pack = read_pack(first)
    entry = pack.manifest["arenas"][0]
    report = json.loads(pack.files[entry["report"]])
    assert report["simulation"] == simulate(schema.load(PIT), 4, 7, workers=1).document
    assert entry["simulation"] == {"games": 4, "seed": 7, "policy": report["simulation"]["policy"],
                                   "players": report["simulation"]["players"],
                                   "play_balance": len(report["simulation"]["findings"])}
    page = pack.files[entry["report_html"]].decode("utf-8")
    assert 'id="simulation"' in page and page.count('class="bar') == len(report["simulation"]["starts"])
    assert build(8) != first
    from app.cli.export import revalidate_report

    # arena pack verify replays the stored games: the pack verifies, a changed figure does not
    arena = schema.load(PIT)
    assert revalidate_report(arena, entry["path"], report) == []
    report["simulation"]["starts"][0]["win_rate"] += 0.5
    assert any(d.startswith("/simulation/starts:") for d in revalidate_report(arena, entry["path"], report))


@needs_chromium
def test_in_chromium_the_bars_scale_with_the_rates_the_heat_layer_toggles_and_nothing_runs(tmp_path: Path) -> None:
    """The section in a real headless Chromium (the system's, as tests/webreport/test_browser.py):
    under the page's CSP the bars' drawn widths are in the ratio of the win rates, the legend's box
    hides and shows the heat layer, the hostile name runs no script and nothing is fetched."""
    from tests.chromium import chromium
    from validators.webreport import render_report

    arena, doc = pit_report(6, 2, hostile_pit(tmp_path))
    page_file = tmp_path / "report.html"
    page_file.write_text(render_report(doc, arena), "utf-8")
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        requests: list[str] = []
        problems: list[str] = []
        page.on("request", lambda r: requests.append(r.url))
        page.on("dialog", lambda d: (problems.append(d.message), d.dismiss()))
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.goto(page_file.as_uri())
        widths = [box["width"] if (box := r.bounding_box()) else 0.0
                  for r in page.locator("#winrates rect.rate").all()]
        rates = [s["win_rate"] for s in doc["simulation"]["starts"]]
        assert len(widths) == len(rates)
        top = max(range(len(rates)), key=lambda i: rates[i])
        for w, r in zip(widths, rates, strict=True):
            assert abs(w - widths[top] * r / rates[top]) < 1.0
        assert page.locator("#heat").is_visible()
        page.locator("#show-heat").uncheck()
        assert not page.locator("#heat").is_visible()
        page.locator("#show-heat").check()
        assert page.locator("#heat").is_visible()
        assert HOSTILE in page.locator("#simulation").inner_text()
        assert problems == [] and requests == [page_file.as_uri()]

