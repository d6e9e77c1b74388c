"""The manual (docs/, built by MkDocs from mkdocs.yml) and the README, its front door, cannot rot:
the site builds with ``--strict`` (a broken link or #anchor between pages, a page missing from the
nav, fails the build), every relative link and #anchor in README.md resolves (the README is not
part of the site), the README stays a front door, and pictures live in one folder, docs/img."""

from __future__ import annotations

import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import markdown
from pymdownx.slugs import slugify

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
IMAGES = {".png", ".svg", ".jpg", ".jpeg", ".gif", ".webp"}


class _Refs(HTMLParser):
    """The link targets (``href``, ``src``) and heading ids of a rendered page."""

    def __init__(self) -> None:
        super().__init__()
        self.targets: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is None:
                continue
            if (tag, name) in (("a", "href"), ("img", "src")):
                self.targets.append(value)
            elif name == "id":
                self.ids.add(value)


def rendered(path: Path) -> _Refs:
    """A Markdown file as MkDocs and GitHub read it: the same heading ids (GitHub's, which
    mkdocs.yml also uses) and only real links (not text in code blocks)."""
    md = markdown.Markdown(extensions=["tables", "fenced_code", "toc"],
                           extension_configs={"toc": {"slugify": slugify(case="lower")}})
    refs = _Refs()
    refs.feed(md.convert(path.read_text(encoding="utf-8")))
    return refs


def broken_links(page: Path) -> list[str]:
    """Each relative link or #anchor of ``page`` that does not resolve, with the reason."""
    out = []
    for target in rendered(page).targets:
        parts = urlsplit(target)
        if parts.scheme or parts.netloc:  # http(s), mailto: not checked (no network)
            continue
        dest = (page.parent / unquote(parts.path)).resolve() if parts.path else page
        if not dest.exists():
            out.append(f"{target}: no file {dest}")
        elif parts.fragment:
            if dest.suffix != ".md":
                out.append(f"{target}: an anchor into a file that is not Markdown")
            elif parts.fragment not in rendered(dest).ids:
                out.append(f"{target}: {dest.name} has no heading with the id {parts.fragment!r}")
    return out


def test_the_manual_builds_with_strict_and_no_warning(tmp_path: Path) -> None:
    """``mkdocs build --strict``: mkdocs.yml turns broken links, missing anchors and pages left
    out of the nav into warnings, and strict makes any warning fail the build."""
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file",
                          str(ROOT / "mkdocs.yml"), "--site-dir", str(tmp_path / "site")],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    log = run.stdout + run.stderr
    assert run.returncode == 0 and "WARNING" not in log, log
    assert (tmp_path / "site" / "index.html").exists()
    # a list right under a paragraph is a list, as on GitHub (scripts/mkdocs_hooks.py)
    rex = (tmp_path / "site" / "arena-rex" / "index.html").read_text(encoding="utf-8")
    assert "<li><strong>Editor</strong>" in rex
    # every page of docs/ is in the site (a page left out of the nav is a warning above)
    for page in (ROOT / "docs").glob("*.md"):
        name = "index.html" if page.stem == "index" else f"{page.stem}/index.html"
        assert (tmp_path / "site" / name).exists(), page.name


def test_every_relative_link_and_anchor_of_the_readme_resolves() -> None:
    problems = broken_links(README)
    assert not problems, "\n".join(problems)
    targets = rendered(README).targets
    assert any(t.startswith("docs/") and "#" in t for t in targets)  # the check saw anchors into the manual


def test_the_link_check_finds_a_broken_file_and_a_broken_anchor(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Other\n\n## A section (`x`)\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text("# Page\n\n[ok](other.md#a-section-x) [ok](#page) [no file](gone.md) "
                    "[no anchor](other.md#a-section) [no anchor here](#nowhere)\n\n"
                    "```\n[in a code block](not-checked.md)\n```\n", encoding="utf-8")
    problems = broken_links(page)
    assert [p.split(":")[0] for p in problems] == ["gone.md", "other.md#a-section", "#nowhere"], problems


def test_the_readme_is_a_front_door() -> None:
    """The README says what the studio is and links into the manual; the details live in docs/."""
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    assert "make run" in text and "make test" in text and ".ci/wheel-check" in text
    for page in ("gravstrike", "car-wars", "arena-rex", "grid-games", "cli", "rulesets", "index"):
        assert f"](docs/{page}.md" in text, page
    pictures = [t for t in rendered(README).targets if Path(urlsplit(t).path).suffix in IMAGES]
    assert len(pictures) >= 5  # a picture for each of the five games


def test_one_image_folder() -> None:
    """Every picture of the README and the manual is in docs/img, and is linked from there."""
    stray = [p.relative_to(ROOT) for p in (ROOT / "docs").rglob("*")
             if p.suffix.lower() in IMAGES and p.parent != ROOT / "docs" / "img"]
    assert not stray, stray
    pages = [README, *(ROOT / "docs").glob("*.md")]
    for page in pages:
        for target in rendered(page).targets:
            path = urlsplit(target).path
            if Path(path).suffix.lower() in IMAGES and not urlsplit(target).scheme:
                assert (page.parent / path).resolve().parent == ROOT / "docs" / "img", (page.name, target)
