"""The browser front page at ``/`` (issue 41 points 4 and 5): served with its content security
policy; in a real headless Chromium (Debian's ``chromium`` driven by Playwright for Python - no
browser download), each game's shipped arena is picked with the file input, its report shows up
(the report's own script runs in its sandboxed frame: clicking a finding highlights its element),
the pack downloads and verifies, an export downloads and renders, a second file is compared, a
refused file's problem is shown as text, and no request leaves the service's origin."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.service.app import create_app
from app.service.limits import ServiceConfig
from tests.chromium import chromium, needs_chromium
from tests.service.conftest import serving

ROOT = Path(__file__).resolve().parents[2]
ARENAS = ROOT / "arenas"
#: One shipped arena per game, the cheap ones: the unfair ones where they are cheap (their findings
#: are clicked); Gravstrike's unfair example takes long to validate, so its fair three-player
#: arena is shown, and a copy with one wall moved (a symmetry finding) is clicked.
SHIPPED = {
    "mothership-grid": ARENAS / "mothership-grid" / "lopsided-battlefield-unfair.yaml",
    "glider-pit-gladiators": ARENAS / "glider-pit-gladiators" / "crooked-pit-unfair.yaml",
    "arena-rex": ARENAS / "arena-rex" / "lopsided-pit.yaml",
    "car-wars-6e": ARENAS / "car-wars" / "broken-yard-flawed.yaml",
    "gravstrike": ARENAS / "examples" / "three-player.yaml",
}
REPORT_WAIT_MS = 180_000  # guards a hang only: the jobs are small
PACK_WAIT_MS = 300_000


def test_front_page_is_served_with_its_policy() -> None:
    with TestClient(create_app(ServiceConfig(workers=1, max_body=123456))) as client:
        page = client.get("/")
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        policy = dict(part.strip().split(" ", 1) for part in page.headers["content-security-policy"].split(";"))
        assert policy["default-src"] == "'none'"
        assert policy["script-src"] == "'self'" and policy["connect-src"] == "'self'"
        assert policy["frame-src"] == "'self'" and policy["frame-ancestors"] == "'none'"
        assert page.headers["x-content-type-options"] == "nosniff"
        # no inline script or style (the policy would block it): every script is a file of the page
        assert re.findall(r"<script[^>]*>", page.text) == ['<script src="/front/app.js" defer>']
        assert "<style" not in page.text and " on" not in re.sub(r"\s+", " ", page.text).replace(" only", "")
        assert 'data-max-body="123456"' in page.text  # the page checks a file against the API's limit
        for name, kind in (("app.js", "text/javascript"), ("app.css", "text/css")):
            asset = client.get(f"/front/{name}")
            assert asset.status_code == 200 and asset.headers["content-type"].startswith(kind)
            assert asset.headers["content-security-policy"] == page.headers["content-security-policy"]
        missing = client.get("/front/index.html")
        assert missing.status_code == 404 and missing.headers["content-type"] == "application/problem+json"
        assert "/" not in client.get("/openapi.json").json()["paths"]  # not an API route


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """``arena serve`` in a subprocess (Qt offscreen: the pack job draws), jobs given room."""
    with serving("--workers", "1", "--timeout", "30", "--job-timeout", "600", "--job-queue", "8",
                 env={"QT_QPA_PLATFORM": "offscreen"}, start_seconds=120) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


class Session:
    """A page on the front page, with every request, page error, console error and dialog logged."""

    def __init__(self, browser: Any, base: str) -> None:
        self.base = base
        self.page = browser.new_page(viewport={"width": 1280, "height": 900}, accept_downloads=True)
        self.requests: list[tuple[str, str]] = []
        self.problems: list[str] = []
        self.page.on("request", lambda r: self.requests.append((r.method, r.url)))
        self.page.on("pageerror", lambda e: self.problems.append(str(e)))
        self.page.on("dialog", lambda d: (self.problems.append("dialog: " + d.message), d.dismiss()))
        self.page.on("console", lambda m: self.problems.append(m.text) if m.type == "error" else None)
        self.page.on("response", lambda r: self.problems.append(f"{r.status} {r.url}") if r.status >= 400 else None)
        self.page.goto(base + "/")
        # every status line the page shows (the jobs' states and progress as polled)
        self.page.evaluate("""() => { window.seen = []; const t = document.getElementById('status-text');
            new MutationObserver(() => window.seen.push(t.textContent)).observe(t, {childList: true}); }""")

    def open(self, path: Path) -> Any:
        """Pick ``path`` with the file input; the report's frame once its page is shown."""
        self.page.set_input_files("#file", str(path))
        self.page.wait_for_function(
            "n => !document.getElementById('problem').hidden || (document.getElementById('current').textContent === n "
            "&& document.getElementById('report').src.includes('/v1/jobs/'))", arg=path.name, timeout=REPORT_WAIT_MS)
        assert self.page.locator("#problem").is_hidden(), self.page.locator("#problem").inner_text()
        frame = self.page.frame_locator("#report")
        frame.locator("h1").wait_for(timeout=REPORT_WAIT_MS)
        self.page.locator("#status").wait_for(state="hidden")
        seen = self.page.evaluate("window.seen")
        assert any(re.match(rf"Report of {re.escape(path.name)}: (queued|running)", line) for line in seen), seen
        return frame

    def download(self, button: str) -> bytes:
        with self.page.expect_download(timeout=PACK_WAIT_MS) as info:
            self.page.click(button)
        return Path(info.value.path()).read_bytes()

    def close(self) -> None:
        self.page.close()


@pytest.fixture
def session(browser: Any, server: str) -> Iterator[Session]:
    s = Session(browser, server)
    try:
        yield s
    finally:
        s.close()


def click_a_finding(frame: Any) -> str:
    """Click the first finding naming an element drawn on the map; that element's id, once the
    report's script has given it the highlight class."""
    body = frame.locator("body")
    pick = body.evaluate("""b => {
        const svg = b.querySelector('#arena');
        for (const li of b.querySelectorAll('li.finding')) {
            for (const id of JSON.parse(li.getAttribute('data-targets') || '[]')) {
                if (id !== 'bounds' && svg.querySelector(`[data-element="${CSS.escape(id)}"]`)) {
                    return [li.id, id];
                }
            }
        }
        return null;
    }""")
    assert pick is not None, "the report has no finding naming a drawn element"
    item, element = pick
    drawn = frame.locator(f'#arena [data-element="{element}"]').first
    assert "hl" not in (drawn.get_attribute("class") or "").split()
    frame.locator(f"#{item} .message").click()
    assert "selected" in (frame.locator(f"#{item}").get_attribute("class") or "").split()
    assert "hl" in (drawn.get_attribute("class") or "").split()
    return str(element)


def check_pack(data: bytes, path: Path) -> None:
    """The pack verifies (every file's checksum, the manifest's schema) and holds the arena
    uploaded, its report (the findings the shipped file has) and its page."""
    import schema
    from schema.packs import read_pack

    pack = read_pack(data, label=path.name)
    [(entry, arena, report)] = pack.arenas()
    shipped = schema.load(path)
    assert (arena.system, arena.name) == (shipped.system, shipped.name)
    assert report["summary"] == json.loads(pack.files[entry["report"]])["summary"]
    assert pack.files[entry["report_html"]].lower().startswith(b"<!doctype html>")


@needs_chromium
@pytest.mark.parametrize("game", list(SHIPPED))
def test_each_games_arena_in_the_browser(game: str, session: Session, tmp_path: Path) -> None:
    path = SHIPPED[game]
    frame = session.open(path)
    assert path.name in frame.locator("header").inner_text()  # the report names the file
    if game == "gravstrike":  # a copy with a wall moved: its symmetry finding is clicked
        moved = tmp_path / "three-player-moved.yaml"
        moved.write_text(path.read_text("utf-8").replace("[4.4316, 0.7814]", "[5.4316, 0.7814]", 1), "utf-8")
        pack = session.download("#pack")  # the pack of the shipped arena, first
        check_pack(pack, path)
        frame = session.open(moved)
        click_a_finding(frame)
    else:
        click_a_finding(frame)
        check_pack(session.download("#pack"), path)
    assert session.problems == []  # no script error, no policy violation, no dialog
    outside = [url for _, url in session.requests if not url.startswith(session.base + "/")]
    assert outside == []


@needs_chromium
def test_export_and_compare(session: Session, tmp_path: Path) -> None:
    from tests.packs.consumers import cairo_png, png_array

    lopsided = SHIPPED["mothership-grid"]
    session.open(lopsided)
    session.page.select_option("#format", "svg")
    svg = session.download("#export")
    assert svg.lstrip().startswith(b"<?xml") or b"<svg" in svg[:500]
    picture = png_array(cairo_png(svg, 300, 200))  # CairoSVG draws it
    assert picture.shape[:2] == (200, 300) and picture.std() > 0
    # compared with the book's battlefield: its verdict lost every finding the lopsided one had
    session.page.set_input_files("#second", str(ARENAS / "mothership-grid" / "battlefield-3x5.yaml"))
    session.page.locator("#diff").wait_for(state="visible", timeout=REPORT_WAIT_MS)
    text = session.page.locator("#diff-body").inner_text()
    assert "Lopsided battlefield" in text and "Battlefield 3 x 5" in text
    rows = session.page.locator("#diff-body tr").all_inner_texts()
    assert any(r.startswith("moved\tM1") for r in rows)
    assert any(r.startswith("lost\tmg-size\terror") for r in rows)
    assert session.problems == []
    assert all(url.startswith(session.base + "/") for _, url in session.requests)


@needs_chromium
def test_refused_files_are_explained_as_text(session: Session, tmp_path: Path) -> None:
    limit = int(session.page.get_attribute("body", "data-max-body") or 0)
    big = tmp_path / "big.yaml"
    big.write_bytes(b"#" * (limit + 1))
    session.page.set_input_files("#file", str(big))
    problem = session.page.locator("#problem")
    problem.wait_for(state="visible")
    assert "big.yaml is 1.0 MiB" in problem.inner_text() and "at most 1 MiB" in problem.inner_text()
    assert not any(method == "POST" for method, _ in session.requests)  # checked before sending
    # an invalid arena whose name is markup: the service's 422 problem, shown as text
    hostile = tmp_path / "<img src=x onerror=alert(1)>.yaml"
    hostile.write_text("format: arena-studio/1\nsystem: gravstrike\nname: Bad\nbounds: 5\n", "utf-8")
    session.page.set_input_files("#file", str(hostile))
    session.page.wait_for_function("() => document.getElementById('problem').textContent.includes('422')")
    text = problem.inner_text()
    assert "422 Invalid arena" in text and hostile.name in text and "bounds" in text
    assert problem.locator("img").count() == 0
    assert session.page.locator("#actions").is_hidden()
    # the one refused request (logged by the browser) and nothing else: no script ran, no dialog
    expected = {"Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)"}
    assert [p for p in session.problems if p not in expected and not p.startswith("422 ")] == []


def test_a_car_wars_report_job_runs_in_a_service_worker() -> None:
    """The service's job workers are daemonic processes, which may not start a process pool:
    Car Wars' two-core travel searches (``parallel``) ran one there and the job failed (500)."""
    from app.service.kinds import HTML

    arena = SHIPPED["car-wars-6e"]
    with TestClient(create_app(ServiceConfig(workers=1, job_timeout=600))) as client:
        posted = client.post(f"/v1/jobs?kind=report&source={arena.name}", content=arena.read_bytes(),
                             headers={"content-type": "application/yaml"})
        assert posted.status_code == 202
        end = time.monotonic() + 300  # guards a hang only
        while (job := client.get(posted.json()["links"]["self"]).json())["state"] in ("queued", "running"):
            assert time.monotonic() < end
            time.sleep(0.1)
        assert job["state"] == "done", job["error"]
        result = client.get(job["links"]["result"])
        assert result.headers["content-type"] == HTML and b"cw-" in result.content


@needs_chromium
def test_a_dropped_file_is_reported(session: Session) -> None:
    """Dropping a file on the drop zone does what picking it does."""
    path = ARENAS / "mothership-grid" / "battlefield-3x5.yaml"
    data = session.page.evaluate_handle("""([name, text]) => {
        const d = new DataTransfer(); d.items.add(new File([text], name)); return d; }""",
                                        [path.name, path.read_text("utf-8")])
    session.page.dispatch_event("#drop", "drop", {"dataTransfer": data})
    session.page.wait_for_function("n => document.getElementById('current').textContent === n", arg=path.name,
                                   timeout=REPORT_WAIT_MS)
    frame = session.page.frame_locator("#report")
    assert frame.locator("h1").inner_text(timeout=REPORT_WAIT_MS) == "Battlefield 3 x 5"
    assert session.problems == []
