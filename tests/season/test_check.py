"""`arena season check` and `arena season standings` (app/cli/season.py, validators/season.py:
check): each event's arena validated under its scenario through the game's analysis; the book's
"each game in a season should have different parameters" (L864); hostile season files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from app.cli.main import load_commands
from app.cli.shared import app
from validators.season import check, load

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "arenas" / "autumn-league.season.yml"
TINY = "format: arena-studio/1\nsystem: gravstrike\nname: {name}\nscenario:\n  veteran_limit: 0\n"
runner = CliRunner()
load_commands()


def _season(tmp_path: Path, events: str, name: str = "season.yaml") -> Path:
    (tmp_path / "a.yaml").write_text(TINY.format(name="A"), encoding="utf-8")
    (tmp_path / "b.yaml").write_text(TINY.format(name="B") + "  respawns: 3\n", encoding="utf-8")
    path = tmp_path / name
    path.write_text("format: arena-studio-season/1\nsystem: gravstrike\nname: Test\ndeck_evolution: unlimited\n"
                    "events:\n" + events, encoding="utf-8")
    return path


FOUR = ("  - {name: One, arena: a.yaml}\n"
        "  - {name: Two, arena: b.yaml}\n"
        "  - {name: Three, arena: a.yaml, scenario: {veteran_limit: 1}}\n"
        "  - {name: Four, arena: ./a.yaml, scenario: {veteran_limit: 0}, multiplier: 2}\n")


def test_an_event_repeating_an_earlier_arena_and_parameters_is_flagged(tmp_path: Path) -> None:
    # "Four" is "One" again: the same file, its scenario overridden with the value it had. "Three"
    # changes the veteran limit ("Event parameters include ... the limit on veteran cards", L864).
    seen = []
    result = check(load(_season(tmp_path, FOUR)), validate=lambda arena, source: seen.append(
        (arena.name, arena.scenario.veteran_limit)) or _report(arena, source))
    assert seen == [("A", 0), ("B", 0), ("A", 1), ("A", 0)]
    assert [(f.severity, f.problem.pointer, f.problem.line) for f in result.findings] == [("warning", "/events/3", 9)]
    assert "'Four' repeats event 'One'" in result.findings[0].problem.message
    assert not result.failed()


def _report(arena: object, source: str) -> object:
    from validators.game import analysis

    return analysis("gravstrike").validate(arena, source=source, enable=(), disable=())


def test_the_game_advises_a_championship_and_a_deck_format(tmp_path: Path) -> None:
    path = _season(tmp_path, FOUR.replace(", multiplier: 2", ""))
    path.write_text(path.read_text(encoding="utf-8").replace("deck_evolution: unlimited", "deck_evolution: loose"),
                    encoding="utf-8")
    found = [(f.severity, f.problem.pointer) for f in check(load(path), validate=_report).findings]
    assert ("warning", "/events/3") in found and ("warning", "/deck_evolution") in found  # L907, L872


@pytest.mark.parametrize(("arena", "message"), [
    ("missing.yaml", "/events/0/arena: no arena file 'missing.yaml'"),
    ("../outside/a.yaml", "/events/0/arena: '../outside/a.yaml' leads out of"),
])
def test_a_missing_or_escaping_arena_path_is_located_in_the_season(tmp_path: Path, arena: str, message: str) -> None:
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "a.yaml").write_text(TINY.format(name="Out"), encoding="utf-8")
    (tmp_path / "in").mkdir()
    path = _season(tmp_path / "in", f"  - {{name: One, arena: {arena}}}\n")
    result = check(load(path), validate=_report)
    assert result.events[0].report is None and result.failed()
    assert str(result.events[0].problems[0]).startswith(f"{path}:6:24: {message}")
    if arena.startswith(".."):  # --root lets a season reach the arenas beside its folder
        assert check(load(path), root=tmp_path, validate=_report).events[0].report is not None


def test_a_bad_override_is_located_in_the_season_and_a_bad_arena_in_its_file(tmp_path: Path) -> None:
    path = _season(tmp_path, "  - {name: One, arena: a.yaml, scenario: {veteran_limit: 99, vp_to_wn: 3}}\n"
                             "  - {name: Two, arena: b.yaml}\n")
    (tmp_path / "b.yaml").write_text(TINY.format(name="B") + "  respawns: -1\n", encoding="utf-8")
    result = check(load(path), validate=_report)
    assert [str(p) for p in result.events[0].problems] == [
        f"{path}:6:58: /events/0/scenario/veteran_limit: 99 is greater than the maximum of 43 (in {tmp_path / 'a.yaml'})",
        f"{path}:6:62: /events/0/scenario/vp_to_wn: unknown property 'vp_to_wn' (did you mean 'vp_to_win'?) "
        f"(in {tmp_path / 'a.yaml'})"]
    assert [str(p) for p in result.events[1].problems] == [
        f"{tmp_path / 'b.yaml'}:6:13: /scenario/respawns: -1 is less than the minimum of 0"]


def test_an_arena_of_another_game_is_refused(tmp_path: Path) -> None:
    path = _season(tmp_path, "  - {name: One, arena: other.yaml}\n")
    (tmp_path / "other.yaml").write_text((ROOT / "arenas" / "car-wars" / sorted(
        p.name for p in (ROOT / "arenas" / "car-wars").glob("*.yaml"))[0]).read_text(encoding="utf-8"),
        encoding="utf-8")
    problems = check(load(path), validate=_report).events[0].problems
    assert "is a car-wars-6e arena; this season is gravstrike" in str(problems[0])


def test_cli_check_validates_each_event_and_exits_by_the_worst(tmp_path: Path) -> None:
    path = _season(tmp_path, FOUR)
    r = runner.invoke(app, ["season", "check", str(path)])
    assert r.exit_code == 0, r.output
    assert "deck evolution: unlimited" in r.stdout
    assert "3. Three — a.yaml — scenario {\"veteran_limit\": 1}: passes (0 error(s), 2 warning(s), 0 info)" in r.stdout
    assert "'Four' repeats event 'One'" in r.stdout
    r = runner.invoke(app, ["season", "check", str(path), "--fail-on", "warning", "--json"])
    assert r.exit_code == 1
    doc = json.loads(r.stdout)
    assert [e["summary"]["warning"] for e in doc["events"]] == [2, 2, 2, 2]
    assert doc["deck_evolution"] == "unlimited" and doc["findings"][0]["pointer"] == "/events/3"
    r = runner.invoke(app, ["season", "check", str(_season(tmp_path, "  - {name: One, arena: nope.yaml}\n", "b.yaml"))])
    assert r.exit_code == 1 and "no arena file 'nope.yaml'" in r.stdout


def test_cli_standings_of_the_shipped_season() -> None:
    r = runner.invoke(app, ["season", "standings", str(EXAMPLE), "--json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert set(doc["standings"][0]) >= {"player", "placement_points", "victory_points", "kill_shots", "events"}
    # Vex: 5 + 3 + 4 + 3 + 4x2 = 23, VP 12+7+11+8+10 = 48; Kestrel 4 + 5 + 0 (missed Triad night) + 4 + 5x2 = 23,
    # VP 9+12+11+12 = 44: tied on placement points, Vex first on season VP (L913).
    assert [(s["rank"], s["player"], s["placement_points"], s["victory_points"]) for s in doc["standings"]] == [
        (1, "Vex", 23, 48), (2, "Kestrel", 23, 44), (3, "Mako", 20, 42), (3, "Orrin", 20, 42)]
    r = runner.invoke(app, ["season", "standings", str(EXAMPLE)])
    assert r.exit_code == 0 and "Championship ×2" in r.stdout and "10 (1st)" in r.stdout


def test_cli_refusals(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: arena-studio-season/1\nsystem: gravstrike\nname: X\nevents:\n  - {name: One}\n",
                   encoding="utf-8")
    r = runner.invoke(app, ["season", "standings", str(bad)])
    assert r.exit_code == 1 and f"{bad}:5:5: /events/0: 'arena' is a required property" in r.stderr
    r = runner.invoke(app, ["season", "standings", str(tmp_path / "none.yaml")])
    assert r.exit_code == 2 and "cannot read file" in r.stderr
    other = tmp_path / "other.yaml"
    other.write_text("format: arena-studio-season/1\nsystem: arena-rex\nname: X\nevents:\n"
                     "  - {name: One, arena: a.yaml, results: {A: 1}}\n", encoding="utf-8")
    r = runner.invoke(app, ["season", "standings", str(other)])
    assert r.exit_code == 2 and "has no season play" in r.stderr
