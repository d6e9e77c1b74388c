"""Issue 16, items 10 and 13: output files are written atomically, never through a symbolic
link and never over an input, and every SVG is well-formed XML whatever its names hold."""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

import schema
from editor.export_render import render_bytes
from editor.svg_flatten import xml_safe
from tests.packs.conftest import DEFAULT, FAST, measurable_arena

pytestmark = pytest.mark.usefixtures("qapp")
runner = CliRunner()
NAME = "Bad\x01name \x1b[31m & <b>\x0c"


def arena_cli(*args: str):  # type: ignore[no-untyped-def]
    from app.cli.main import load_commands
    from app.cli.shared import app

    load_commands()
    return runner.invoke(app, list(args), catch_exceptions=False)


@pytest.fixture()
def small(tmp_path: Path) -> Path:
    path = tmp_path / "small.yaml"
    schema.save(measurable_arena(), path)
    return path


COMMANDS = [
    ("render", ["render", "{src}", "-o", "{out}"], ".svg"),
    ("print", ["print", "{src}", "-o", "{out}"], ".pdf"),
    ("export", ["export", "{src}", "--to", "geojson", "-o", "{out}"], ".geojson"),
    ("export-tiled", ["export", "{src}", "--to", "tiled", "-o", "{out}"], ".tmx"),
    ("pack", ["pack", "build", "{src}", "-o", "{out}", *[a for c in FAST[:1] for a in ("--only", c)]], ".zip"),
]


@pytest.mark.parametrize("name, argv, suffix", COMMANDS, ids=[c[0] for c in COMMANDS])
def test_outputs_never_go_through_a_symlink(name: str, argv: list[str], suffix: str, small: Path, tmp_path: Path) -> None:
    """16.10: ``-o`` a symlink to another file wrote into that file."""
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    link = tmp_path / f"out{suffix}"
    link.symlink_to(victim)
    r = arena_cli(*[a.format(src=small, out=link) for a in argv])
    assert r.exit_code == 2 and "is a symbolic link; refusing to write through it" in r.output, r.output
    assert victim.read_text() == "keep me" and link.is_symlink()
    dangling = tmp_path / f"dangling{suffix}"
    dangling.symlink_to(tmp_path / "nowhere")
    r = arena_cli(*[a.format(src=small, out=dangling) for a in argv])
    assert r.exit_code == 2 and not (tmp_path / "nowhere").exists()


@pytest.mark.parametrize("name, argv, suffix", COMMANDS, ids=[c[0] for c in COMMANDS])
def test_an_output_never_replaces_its_input(name: str, argv: list[str], suffix: str, small: Path) -> None:
    """16.10: ``export`` to the input's own path silently replaced the arena.  The same file
    under another name (a hard link with the output's extension) is refused too."""
    before = small.read_bytes()
    same = small.with_name(f"same-file{suffix}")
    os.link(small, same)
    r = arena_cli(*[a.format(src=small, out=same) for a in argv])
    assert r.exit_code == 2 and "is the input file; refusing to overwrite it" in r.output, r.output
    assert small.read_bytes() == before
    if name.startswith("export"):
        r = arena_cli(*[a.format(src=small, out=small) for a in argv])
        assert r.exit_code == 2 and "is the input file" in r.output and small.read_bytes() == before


def test_export_and_import_refuse_their_input(small: Path, tmp_path: Path) -> None:
    r = arena_cli("export", str(small), "--to", "geojson", "-o", str(tmp_path / "s.geojson"))
    assert r.exit_code == 0
    r = arena_cli("import", str(tmp_path / "s.geojson"), "-o", str(tmp_path / "s.geojson"))
    assert r.exit_code == 2 and "is the input file" in r.output


def test_foundry_export_says_what_extra_file_it_wrote(small: Path, tmp_path: Path) -> None:
    """16.10: ``export --to foundry`` also wrote an unrequested PNG without saying so; and
    the PNG, too, must not go through a link or over the input."""
    out = tmp_path / "scene.json"
    r = arena_cli("export", str(small), "--to", "foundry", "-o", str(out))
    assert r.exit_code == 0, r.output
    assert f"also wrote {tmp_path / 'scene.png'} (the scene's background image" in r.output
    assert json.loads(out.read_text())["background"]["src"] == "scene.png"
    assert (tmp_path / "scene.png").read_bytes().startswith(b"\x89PNG")
    (tmp_path / "scene.png").unlink()
    (tmp_path / "scene.png").symlink_to(small)
    r = arena_cli("export", str(small), "--to", "foundry", "-o", str(out))
    assert r.exit_code == 2 and "scene.png: is a symbolic link" in r.output
    r = arena_cli("export", str(small), "--to", "foundry", "-o", str(out), "--px", "10")
    assert r.exit_code == 2 and "Foundry grid squares are at least 20 px" in r.output


def test_outputs_are_written_atomically(small: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure while writing leaves the old file whole and no temporary file behind."""
    out = tmp_path / "x.geojson"
    out.write_text("old")
    calls = []
    real = os.replace

    def failing(a, b):  # type: ignore[no-untyped-def]
        calls.append((a, b))
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", failing)
    r = arena_cli("export", str(small), "--to", "geojson", "-o", str(out))
    monkeypatch.setattr(os, "replace", real)
    assert r.exit_code == 2 and "No space left on device" in r.output and "Traceback" not in r.output
    assert calls and Path(calls[0][0]).parent == tmp_path  # the temporary file sits beside the target
    assert out.read_text() == "old" and sorted(p.name for p in tmp_path.iterdir()) == ["small.yaml", "x.geojson"]


# ------------------------------------------------------------------ 16.13: well-formed SVG


def _named(tmp_path: Path) -> Path:
    src = tmp_path / "named.json"
    doc = json.loads(schema.dumps(schema.load(DEFAULT), "json"))
    doc["name"] = NAME
    doc["author"] = "A\x0bB"
    src.write_text(json.dumps(doc))
    return src


def test_svg_with_control_characters_in_names_is_well_formed(tmp_path: Path) -> None:
    """16.13: a name holding a control character made render, export and /v1/render write SVG
    that is not XML (Qt writes the raw byte)."""
    arena = replace(schema.load(DEFAULT), name=NAME, author="A\x0bB")
    svg = render_bytes(arena, "svg")
    root = ET.fromstring(svg)
    assert root.find("{http://www.w3.org/2000/svg}title").text == xml_safe(NAME) == "Bad\u2401name \u241b[31m & <b>\u240c"
    src = _named(tmp_path)
    for argv in (["render", str(src), "-o", str(tmp_path / "r.svg")],
                 ["export", str(src), "--to", "svg", "-o", str(tmp_path / "e.svg")]):
        r = arena_cli(*argv)
        assert r.exit_code == 0, r.output
        ET.fromstring(Path(argv[-1]).read_bytes())


def test_service_render_svg_is_well_formed(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from app.service.app import create_app
    from app.service.limits import ServiceConfig

    body = _named(tmp_path).read_bytes()
    with TestClient(create_app(ServiceConfig(workers=1, timeout=300)), raise_server_exceptions=False) as client:
        r = client.post("/v1/render?format=svg", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 200, r.text
    title = ET.fromstring(r.content).find("{http://www.w3.org/2000/svg}title")
    assert title is not None and title.text == xml_safe(NAME)


def test_xml_safe() -> None:
    assert xml_safe("a\x00b\x1fc\ud800d\ufffe\t\n") == "a\u2400b\u241fc\ufffdd\ufffd\t\n"
