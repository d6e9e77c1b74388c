"""All tiers in one report (issue 39, point 3).

The book's "Victory Point Tiers" (leader 0-3 VP: tier 1, 4-7: tier 2, 8+: tier 3) and
"Exclusion Field Activation" ("Most arenas have exclusion fields ... that activate at VP Tier 3";
``active_from_tier``): a plain ``arena validate`` judges every tier, the tiers with the same
active exclusion fields as one analysis; ``--tier N`` judges one.  An exclusion field "deal[s]
damage to turbines that enter" it ("Exclusion Fields"): the analysis takes the way round an
active one where there is one (docs/rules-decisions.md, "All tiers in one report")."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
from typer.testing import CliRunner

from app.cli.main import load_commands
from app.cli.shared import app
from schema import load, loads
from validators.findings import Finding
from validators.games.gravstrike.tiers import merge, tier_classes
from validators.run import validate

ROOT = Path(__file__).resolve().parents[2]
REPORT_SCHEMA = json.loads((ROOT / "schema" / "report.schema.json").read_text(encoding="utf-8"))

#: Two starts mirrored about checkpoint A; exclusion field X1, from tier 2, stands across start
#: 1's straight way to A (7 of the arena's 10 lengths high): from tier 2 start 1 goes round it.
BLOCKED = ("format: arena-studio/1\nsystem: gravstrike\nname: T\nbounds: {type: rect, center: [0, 0], size: [18, 10]}\n"
           "checkpoints:\n  - {id: A, kind: outlying, shape: {type: circle, center: [0, 0], radius: 0.6}}\n"
           "exclusion_fields:\n  - {id: X1, active_from_tier: 2, shape: {type: rect, center: [-2.75, 0], size: [1.5, 7]}}\n"
           "start_positions:\n  - {player: 1, position: [-5, 0], facing: 0}\n"
           "  - {player: 2, position: [5, 0], facing: 180}\n")


def test_tiers_with_the_same_active_fields_are_one_analysis() -> None:
    assert tier_classes(loads(BLOCKED)) == [(1,), (2, 3)]
    assert tier_classes(load(ROOT / "arenas" / "default.yaml")) == [(1, 2), (3,)]  # fields from tier 3
    no_fields = BLOCKED.split("exclusion_fields:")[0] + "start_positions:" + BLOCKED.split("start_positions:")[1]
    assert tier_classes(loads(no_fields)) == [(1, 2, 3)]


def test_a_field_from_tier_2_on_a_starts_fast_way_is_reported_naming_tier_2() -> None:
    arena = loads(BLOCKED)
    report = validate(arena)
    access = [f for f in report.findings if f.code == "start-checkpoint-access"]
    assert access and all(f.tier == 2 for f in access)  # only from tier 2
    assert any("start 1 needs" in f.message for f in access)
    doc = report.to_json()
    jsonschema.validate(doc, REPORT_SCHEMA)
    assert [t["tiers"] for t in doc["tiers"]] == [[1], [2, 3]]
    tier1, tier2 = doc["tiers"]
    assert tier1["summary"]["warning"] == tier2["summary"]["warning"] - len(access)  # tier 1 clean of them
    assert tier1["metrics"]["travel"]["start:1"]["checkpoint:A"]["time"] == 1.5  # straight through
    assert tier2["metrics"]["travel"]["start:1"]["checkpoint:A"]["time"] > 2.0  # round X1
    assert doc["metrics"]["travel"] == tier1["metrics"]["travel"]  # the headline: the arena's analysis tier (1)
    assert all(f.get("tier") == 2 for f in doc["findings"] if f["code"] == "start-checkpoint-access")
    assert all("tier" not in f for f in doc["findings"] if f["code"] == "checkpoint-mix")  # every tier: none named

    one = validate(arena, tier=1)
    assert not [f for f in one.findings if f.code == "start-checkpoint-access"]
    assert "tiers" not in one.to_json()
    two = validate(arena, tier=2)  # --tier 2: that tier's verdict, naming no tier (it is the only one)
    assert {f.message for f in two.findings if f.code == "start-checkpoint-access"} == {f.message for f in access}
    assert all(f.tier is None for f in two.findings)


def test_the_text_report_says_the_tiers_and_marks_a_findings_tier(tmp_path: Path) -> None:
    path = tmp_path / "blocked.yaml"
    path.write_text(BLOCKED, encoding="utf-8")
    load_commands()
    result = CliRunner().invoke(app, ["validate", str(path), "--fail-on", "error"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "tier 1, tiers 2-3 judged" in text
    assert "start-checkpoint-access [tiers 2-3]:" in text
    result = CliRunner().invoke(app, ["validate", str(path), "--tier", "1"])
    assert "start-checkpoint-access" not in result.output and "· tier 1 ·" in " ".join(result.output.split())


def test_travel_is_searched_again_only_where_a_newly_active_field_could_change_it() -> None:
    """Work bound, in travel searches (not seconds): every tier costs the searches of the tier
    below plus those of the sources whose ways meet a field active only from the higher tier."""
    arena = loads(BLOCKED)
    alone = [validate(arena, tier=t).work["travel searches"] for t in (1, 2)]  # 2 starts + A, each
    assert alone == [3, 3]
    both = validate(arena).work
    # tier 2: start 1 (its way crosses X1) and start 2 (its way to start 1 ends by X1) again; A's
    # search (every way clear of X1) reused
    assert both == {"travel searches": 5, "travel reused": 1}
    three = load(ROOT / "arenas" / "examples" / "three-player.yaml")  # fields from tier 3, far from every way
    assert validate(three).work == {"travel searches": validate(three, tier=1).work["travel searches"],
                                    "travel reused": 2}


def test_a_finding_of_every_tier_names_none_and_the_others_their_first_tier() -> None:
    same = Finding("c", "warning", "same", ("start:1",))
    low = Finding("c", "warning", "tier 1 only", ("start:1",))
    high = Finding("c", "warning", "from tier 3", ("start:2",))
    merged = merge([((1, 2), [same, low]), ((3,), [same, high])])
    assert [(f.message, f.tier) for f in merged] == [("same", None), ("tier 1 only", 1), ("from tier 3", 3)]
    assert merged[1].to_json()["tier"] == 1 and "tier" not in merged[0].to_json()
