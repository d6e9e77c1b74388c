"""`arena season pack`: one pack with every event's arena (under the event's scenario), its report,
previews and print, and the season and its standings (editor/pack_build.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli.export import revalidate_report
from schema.packs import extract_pack, read_pack
from validators.season import check, load, standings

pytest.importorskip("PySide6")

TINY = "format: arena-studio/1\nsystem: gravstrike\nname: {name}\nscenario:\n  veteran_limit: 0\n"
SEASON = ("format: arena-studio-season/1\nsystem: gravstrike\nname: Small League\nevents:\n"
          "  - {name: Opening, arena: a.yaml, results: {A: 12, B: 3}}\n"
          "  - {name: Final, arena: a.yaml, scenario: {veteran_limit: 2}, multiplier: 2, results: {B: 12, A: 3}}\n")


def test_a_season_pack_holds_each_event_under_its_scenario_and_the_standings(tmp_path: Path) -> None:
    from editor.pack_build import build_season_pack_bytes

    (tmp_path / "a.yaml").write_text(TINY.format(name="A"), encoding="utf-8")
    (tmp_path / "s.yaml").write_text(SEASON, encoding="utf-8")
    season = load(tmp_path / "s.yaml")
    data = build_season_pack_bytes(season)
    pack = read_pack(data, label="season")  # checksums, manifest schema, every arena's schema
    assert [(e["id"], e["path"]) for e in pack.manifest["arenas"]] == [("1-opening", "arenas/1-opening.json"),
                                                                      ("2-final", "arenas/2-final.json")]
    arenas = pack.arenas()
    assert [a.scenario.veteran_limit for _, a, _ in arenas] == [0, 2]  # the Final's override is in its arena
    assert all(not revalidate_report(a, e["path"], r) for e, a, r in arenas)  # `arena pack verify` agrees
    assert json.loads(pack.files["standings.json"]) == json.loads(json.dumps(standings(season).to_json()))
    assert {f"previews/{i}.{x}" for i in ("1-opening", "2-final") for x in ("png", "svg")} <= set(pack.files)
    assert pack.files["print/2-final.pdf"].startswith(b"%PDF")
    # extracted, the season reads its arenas from the pack
    extract_pack(data, tmp_path / "out")
    again = load(tmp_path / "out" / "season.json")
    assert [e.arena for e in again.events] == ["arenas/1-opening.json", "arenas/2-final.json"]
    result = check(again)
    assert [e.report is not None and not e.report.fails("error") for e in result.events] == [True, True]


def test_cli_season_pack_writes_the_pack_and_refuses_a_game_without_season_play(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from app.cli.main import load_commands
    from app.cli.shared import app

    load_commands(["season", "pack"])
    (tmp_path / "a.yaml").write_text(TINY.format(name="A"), encoding="utf-8")
    (tmp_path / "s.yaml").write_text(SEASON, encoding="utf-8")
    out = tmp_path / "small.arenapack.zip"
    r = CliRunner().invoke(app, ["season", "pack", str(tmp_path / "s.yaml"), "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert read_pack(out).manifest["name"] == "Small League"
    (tmp_path / "s.yaml").write_text(SEASON.replace("gravstrike", "arena-rex"), encoding="utf-8")
    r = CliRunner().invoke(app, ["season", "pack", str(tmp_path / "s.yaml"), "-o", str(tmp_path / "x.zip")])
    assert r.exit_code == 2 and "has no season play" in r.stderr and not (tmp_path / "x.zip").exists()
