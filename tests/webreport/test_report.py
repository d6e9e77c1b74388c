"""The HTML report (issue 41, point 1): every finding of each game's shipped unfair arena on the
page, each element drawn with its id, a self-contained page (no remote load, a CSP that forbids
one), every string from a file escaped, and packs carrying it."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import schema
from app.cli.main import load_commands
from app.cli.shared import app
from schema.ruleset import ruleset
from tests.webreport.conftest import ROOT, UNFAIR
from validators.webreport import Header, render_report
from validators.webreport.picture import arena_picture

HOSTILE = "<script>alert(1)</script>"


class Page(HTMLParser):
    """The tags of a page: (tag, attributes) in order, and the text of its scripts by id."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: dict[str, str] = {}
        self._script: str | None = None
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag == "script":
            self._script = dict(attrs).get("id") or "inline"
            self.scripts[self._script] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._script = None

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            self.scripts[self._script] += data
        else:
            self.text.append(data)


def parse(html: str) -> Page:
    p = Page()
    p.feed(html)
    return p


@pytest.mark.parametrize("game", list(UNFAIR))
def test_the_page_holds_every_finding_of_the_shipped_unfair_arena(game: str, unfair_reports: Any) -> None:
    path, arena, report = unfair_reports[game]
    html = render_report(report, arena, header=Header(path.name, "0" * 64, "9.9", "2025-01-01"))
    page = parse(html)
    shown = [a for t, a in page.tags if t == "li" and "finding" in (a.get("class") or "").split()]
    assert report["findings"], "the unfair arena has findings"
    assert [a["data-code"] for a in shown] == [f["code"] for f in report["findings"]]
    assert {f["code"] for f in report["findings"]} <= {a["data-code"] for a in shown}
    # each finding names its elements; each element the page names is drawn on the map
    drawn = {a["data-element"] for t, a in page.tags if "data-element" in a}
    for a, f in zip(shown, report["findings"]):
        targets = json.loads(a["data-targets"] or "[]")
        assert set(f["elements"]) <= set(targets)
        on_map = {e for e in f["elements"] if e in drawn}
        # start/deploy/zone/ship ids, walls... are drawn; "bounds" is too
        assert on_map == {e for e in f["elements"] if e in {s.id for s in arena_picture(arena).shapes}}
    assert json.loads(page.scripts["report-data"]) == report  # the document embedded intact
    assert ruleset(arena.system).game in html
    assert "2025-01-01" in html and "0" * 64 in html


def test_every_element_id_of_each_game_is_drawn(unfair_reports: Any) -> None:
    """Findings name elements by id; the map must hold each id (elements the GeoJSON export
    leaves out, such as Arena Rex's deployment zones, included)."""
    for game, (_, arena, report) in unfair_reports.items():
        ids = {s.id for s in arena_picture(arena).shapes}
        named = {e for f in report["findings"] for e in f["elements"]}
        missing = sorted(named - ids)
        assert missing == [], f"{game}: findings name elements the map lacks: {missing}"


def test_travel_findings_draw_their_path_and_the_travel_table_marks_best_and_worst(unfair_reports: Any) -> None:
    _, arena, report = unfair_reports["gravstrike"]
    with_path = [i for i, f in enumerate(report["findings"]) if f.get("path")]
    assert with_path
    html = render_report(report, arena)
    page = parse(html)
    overlays = {a["id"]: a for t, a in page.tags if t == "g" and a.get("id", "").startswith("overlay-")}
    for i in with_path:
        assert f"overlay-{i}" in overlays
    travel = [a for t, a in page.tags if t == "path" and a.get("class") == "travel"]
    assert len(travel) == len(with_path)
    steps = report["findings"][with_path[0]]["path"]
    first = travel[0]["d"]
    assert first.startswith(f"M{steps[0]['x']:g},{-steps[0]['y']:g}".replace("-0,", "0,")) or first.startswith("M")
    assert first.count("L") == len(steps) - 1
    assert 'id="metric-travel"' in html
    cells = re.findall(r'<td class="num (best|worst)">', html)
    assert "best" in cells and "worst" in cells


def test_the_page_is_self_contained(unfair_reports: Any) -> None:
    for _, arena, report in unfair_reports.values():
        html = render_report(report, arena)
        page = parse(html)
        for tag, attrs in page.tags:
            assert "src" not in attrs, (tag, attrs)
            href = attrs.get("href")
            assert href is None or href.startswith("#"), (tag, href)
            for value in attrs.values():
                assert "url(" not in (value or "") or value == "url(#end)", value
        csp = next(a["content"] for t, a in page.tags if t == "meta" and a.get("http-equiv") == "Content-Security-Policy")
        assert "default-src 'none'" in csp and "connect-src 'none'" in csp and "'unsafe-inline'" not in csp
        assert "@import" not in html and "http://" not in html.replace("http://www.w3.org/2000/svg", "")
        assert "https://" not in html
        assert any(t == "meta" and a.get("name") == "viewport" for t, a in page.tags)


def hostile_arena(tmp_path: Path) -> Path:
    import yaml

    doc = yaml.safe_load((ROOT / "arenas" / "car-wars" / "broken-yard-flawed.yaml").read_text("utf-8"))
    doc["name"] = HOSTILE + " & </script><b>x"
    doc["description"] = '"><svg onload=alert(2)>'
    doc["tags"] = ["<i>tag</i>"]
    path = tmp_path / "hostile.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), "utf-8")
    return path


def test_strings_from_files_stay_text(tmp_path: Path) -> None:
    path = hostile_arena(tmp_path)
    arena = schema.load(path)
    assert arena.name.startswith(HOSTILE)
    report: dict[str, Any] = {
        "format": "arena-studio-report/1", "system": arena.system,
        "arena": {"name": arena.name, "file": "</script><script>alert(3)</script>", "players": 2},
        "tier": None, "budget": None, "validators": [{"code": "x<y", "title": "<i>t</i>", "severity": "error"}],
        "summary": {"error": 1, "warning": 0, "info": 0},
        "findings": [{"code": "x<y", "severity": "error", "message": HOSTILE + ' "<img src=x onerror=alert(4)>"',
                      "elements": ['"><script>alert(5)</script>', "spur"], "metrics": {"<k>": "<v>"},
                      "players": ["</script>"]}],
        "metrics": {"<table>": {"start:1": {"</td>": 1}}}, "extra</script>": {"a": "<b>"},
    }
    html = render_report(report, arena, header=Header("<x>.yaml", None, "1", "d"))
    lowered = html.lower()
    for bad in ("<script>alert", "<img", "<svg onload", "<b>x", "<i>t", "<k>", "<x>.yaml"):
        assert bad not in lowered, bad
    assert "&lt;table&gt;" in html and "&lt;/td&gt;" in html and "&lt;i&gt;tag&lt;/i&gt;" in html
    assert lowered.count("<script") == 2  # the embedded report and the page's own script
    page = parse(html)
    text = "".join(page.text)
    assert HOSTILE in text  # shown as text: in the title, the heading, the SVG's title
    assert json.loads(page.scripts["report-data"]) == report
    svg_titles = re.findall(r"<svg id=\"arena\"[^>]*aria-label=\"([^\"]*)\"", html)
    assert svg_titles and "&lt;script&gt;" in svg_titles[0]


def test_arena_report_cli_writes_the_page(tmp_path: Path, unfair_reports: Any) -> None:
    path, _, report = unfair_reports["arena-rex"]
    saved = tmp_path / "r.json"
    saved.write_text(json.dumps(report), "utf-8")
    out = tmp_path / "out.html"
    load_commands(["report"])
    r = CliRunner().invoke(app, ["report", str(path), "-o", str(out), "--report", str(saved)])
    assert r.exit_code == 0, r.output
    html = out.read_text("utf-8")
    import hashlib

    assert hashlib.sha256(path.read_bytes()).hexdigest() in html
    assert {f["code"] for f in report["findings"]} <= set(re.findall(r'data-code="([^"]+)"', html))
    # a report that is not one is refused, located
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "nope"}', "utf-8")
    r = CliRunner().invoke(app, ["report", str(path), "-o", str(tmp_path / "b.html"), "--report", str(bad)])
    assert r.exit_code == 1 and "bad.json" in r.output and not (tmp_path / "b.html").exists()
    r = CliRunner().invoke(app, ["report", str(path), "-o", str(path)])
    assert r.exit_code == 2  # never over the input


def test_arena_report_validates_when_no_report_is_given(tmp_path: Path) -> None:
    path = UNFAIR["mothership-grid"]
    out = tmp_path / "m.html"
    load_commands(["report"])
    r = CliRunner().invoke(app, ["report", str(path), "-o", str(out)])
    assert r.exit_code == 0, r.output
    html = out.read_text("utf-8")
    for code in ("mg-build-squares", "mg-motherships", "mg-size", "mg-symmetry"):
        assert f'data-code="{code}"' in html


def test_packs_carry_the_page(unfair_reports: Any) -> None:
    from editor.pack_build import report_page
    from schema.packs import PackArena, PackInfo, build_pack, read_pack

    _, arena, report = unfair_reports["arena-rex"]
    page = report_page("arenas/pit.json", arena, report)
    data = build_pack(PackInfo("p"), [PackArena("pit", arena, report, b"png", b"<svg/>", b"%PDF", page)])
    pack = read_pack(data)
    entry = pack.manifest["arenas"][0]
    assert entry["report_html"] == "reports/pit.report.html"
    assert pack.files["reports/pit.report.html"] == page
    assert entry["sha256"] in page.decode("utf-8")  # the header's checksum is the pack's arena file's
    assert data == build_pack(PackInfo("p"), [PackArena("pit", arena, report, b"png", b"<svg/>", b"%PDF",
                                                        report_page("arenas/pit.json", arena, report))])


def test_a_report_with_every_validator_disabled_says_nothing_was_checked() -> None:
    """The page's verdict over a report no validator ran for: not "No problems found" (a pass
    that checked nothing) but "Nothing checked", marked as a warning; one validator: the usual."""
    arena = schema.load(ROOT / "arenas" / "mothership-grid" / "battlefield-3x5.yaml")
    from validators.registry import default_registry
    from validators.run import validate

    codes = [v.id for v in default_registry().select([], [], game="mothership-grid")]
    none = validate(arena, disable=codes).to_json()
    verdict = re.search(r'<p class="verdict (\w+)" id="verdict">\s*([^<]*)', render_report(none, arena))
    assert verdict is not None and verdict.group(1) == "warn"
    assert verdict.group(2).startswith("Nothing checked: every validator was disabled.")
    one = validate(arena, disable=codes[1:]).to_json()
    verdict = re.search(r'<p class="verdict (\w+)" id="verdict">\s*([^<]*)', render_report(one, arena))
    assert verdict is not None and verdict.group(2).startswith("No problems found.")
