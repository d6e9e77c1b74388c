"""Player counts and start sets (issue 39, point 1): ``scenario.start_sets`` in every game with
starts, located checks, the shared :class:`schema.starts.StartSlots` hook, and ``arena validate``
judging each declared count (``--players N`` one).

Book lines cited: Gravstrike "Gravstrike is a multiplayer game. Three to six is a great range." and
"STARTING POSITIONS: Turbines should begin the game spaced as equally from each other as possible"
(000_bb67baed89c8981a.txt, L23 and L937); Glider-Pit "Only one glider may be assigned to each
Airspeed Track." (002_2bb38bd119a25a6d.txt, L45).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

from app.batch import validate_paths
from schema import ArenaError, load, loads
from schema.ruleset import rulesets
from schema.starts import kept_symmetry
from validators.options import Options
from validators.run import validate

ROOT = Path(__file__).resolve().parents[2]
DEFAULT = ROOT / "arenas" / "default.yaml"
CROWDED = ROOT / "arenas" / "examples" / "crowded-four.yaml"
REPORT_SCHEMA = json.loads((ROOT / "schema" / "report.schema.json").read_text(encoding="utf-8"))
#: The checks start sets change (travel-based spacing, symmetry): enough to judge a set, cheap.
SPACING = ["start-spacing", "symmetry"]


def _doc(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _problems(doc: dict) -> list[str]:
    with pytest.raises(ArenaError) as err:
        loads(yaml.safe_dump(doc, sort_keys=False), fmt="yaml", source="t.yaml")
    return [f"{p.pointer}: {p.message}" for p in err.value.problems]


# ------------------------------------------------------------------ schema and hook


def test_every_game_with_starts_has_the_hook_and_the_property() -> None:
    have = {rs.id for rs in rulesets().values() if rs.starts is not None}
    assert len(have) == 4  # the Mothership game's two fixed Motherships are not starts to choose among
    for rs in rulesets().values():
        props = rs.json_schema()["properties"]["scenario"]["properties"]
        assert ("start_sets" in props) == (rs.starts is not None), rs.id
        if rs.starts is not None:  # right after the count it is keyed by
            keys = list(props)
            assert keys[keys.index("start_sets") - 1] in ("players", "gliders"), rs.id
            arena = rs.default_arena()
            slots = rs.starts()
            numbers = slots.numbers(arena)
            assert all(slots.element(arena, n) in arena.elements() for n in numbers)


def test_start_sets_round_trip_and_bad_ones_are_located() -> None:
    doc = _doc(DEFAULT)
    arena = load(DEFAULT)
    assert arena.scenario.start_sets == ((3, (1, 3, 5)), (6, (1, 2, 3, 4, 5, 6)))
    doc["scenario"]["start_sets"] = {"3": [1, 3, 7], "2": [1, 1], "4": [1, 2]}
    found = _problems(doc)
    assert "/scenario/start_sets/3/2: the arena has no start 7 (its starts: 1, 2, 3, 4, 5, 6)" in found
    assert "/scenario/start_sets/2/1: start 1 is listed twice in the 2-player set" in found
    assert any(f.startswith("/scenario/start_sets/4: the 4-player set lists 2 start(s)") for f in found)
    doc["scenario"]["start_sets"] = {"04": [1]}
    assert any("'04' is not a count" in f for f in _problems(doc))


def test_glider_pit_sets_count_gliders_and_number_zones_by_track() -> None:
    # "Only one glider may be assigned to each Airspeed Track." - one zone per glider
    path = ROOT / "arenas" / "glider-pit-gladiators" / "hexagonal-pit.yaml"
    doc = _doc(path)
    doc["scenario"]["start_sets"] = {"3": [1, 3], "2": [1, 9]}
    found = _problems(doc)
    assert any("the 3-glider set lists 2 launch zone(s)" in f for f in found)
    assert any(f.startswith("/scenario/start_sets/2/1: the arena has no launch zone 9") for f in found)


def test_kept_symmetry_is_the_part_of_the_group_that_keeps_the_set() -> None:
    import math

    hexagon = {k: (math.cos(math.radians(30 + 60 * (k - 1))), math.sin(math.radians(30 + 60 * (k - 1))))
               for k in range(1, 7)}
    assert kept_symmetry(("dihedral", 3, 0.0), (0, 0), hexagon, range(1, 7)) == ("dihedral", 3, 0.0)
    assert kept_symmetry(("dihedral", 3, 0.0), (0, 0), hexagon, [1, 3, 5]) == ("rotational", 3, 0.0)
    assert kept_symmetry(("dihedral", 3, 0.0), (0, 0), hexagon, [1, 4]) == ("mirror", 1, 120.0)
    assert kept_symmetry(("dihedral", 3, 0.0), (0, 0), hexagon, [1, 2, 3, 5]) is None


def test_a_subset_keeps_the_users_numbers() -> None:
    arena = load(DEFAULT)
    slots = rulesets()[arena.system].starts()  # type: ignore[misc]
    sub = slots.subset(arena, (1, 3, 5), 3)
    assert [s.id for s in sub.start_positions] == ["start:1", "start:3", "start:5"]
    assert sub.players == 3 and sub.symmetry.kind == "rotational" and sub.symmetry.order == 3


# ------------------------------------------------------------------ validation


def test_players_4_judges_the_declared_set_and_finds_it_unfair() -> None:
    # "Turbines should begin the game spaced as equally from each other as possible" (L937): the
    # crowded four (starts 1, 2, 3 together, 5 alone) is not; the six are.
    report = validate(load(CROWDED), enable=SPACING, players=4)
    spacing = [f for f in report.findings if f.code == "start-spacing"]
    assert spacing and all(f.players == 4 for f in report.findings)
    assert report.player_count() == 4
    assert report.player_counts is not None and report.player_counts[0]["starts"] == [1, 2, 3, 5]
    six = validate(load(CROWDED), enable=SPACING, players=6)
    assert not [f for f in six.findings if f.severity != "info"]


def test_the_plain_run_judges_every_count_and_names_it() -> None:
    report = validate(load(CROWDED), enable=SPACING)
    doc = report.to_json()
    jsonschema.validate(doc, REPORT_SCHEMA)
    named = [f for f in doc["findings"] if f["code"] == "start-spacing"]
    assert named and all(f["players"] == 4 for f in named)
    rows = {r["players"]: r for r in doc["player_counts"]}
    assert sorted(rows) == [3, 4, 6]
    assert rows[6]["whole_arena"] and not rows[4]["whole_arena"] and rows[4]["findings"] == len(named)
    assert rows[3]["findings"] == 0  # 1, 3, 5: equally spaced


def test_a_count_without_a_set_is_an_error() -> None:
    report = validate(load(DEFAULT), enable=SPACING, players=4)
    assert [(f.code, f.severity, f.players) for f in report.findings] == [("start-set-missing", "error", 4)]
    assert "declared: 3, 6" in report.findings[0].message and not report.validators


def test_scenario_players_that_no_set_declares_is_a_finding() -> None:
    # the case: players 4 on the six-start arena was ignored
    doc = _doc(DEFAULT)
    doc["scenario"]["players"] = 4
    arena = loads(yaml.safe_dump(doc, sort_keys=False), fmt="yaml")
    found = [f for f in validate(arena, enable=["bounds"]).findings if f.code == "start-set-missing"]
    assert [(f.severity, f.players) for f in found] == [("error", 4)]
    del doc["scenario"]["start_sets"]
    arena = loads(yaml.safe_dump(doc, sort_keys=False), fmt="yaml")
    found = [f for f in validate(arena, enable=["bounds"]).findings if f.code == "start-set-missing"]
    assert [(f.severity, f.players) for f in found] == [("warning", 4)]
    assert "every start was judged" in found[0].message
    missing = validate(arena, enable=["bounds"], players=4).findings
    assert [f.code for f in missing] == ["start-set-missing"] and "declares no start_sets" in missing[0].message


def test_cli_and_batch_take_players() -> None:
    run = subprocess.run([sys.executable, "-c", "from app.cli.main import main; main()", "validate", str(CROWDED),
                          "--players", "4", "--json", *(a for c in SPACING for a in ("--enable", c))],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    doc = json.loads(run.stdout)
    assert doc["arena"]["players"] == 4 and {f["players"] for f in doc["findings"]} == {4}
    assert any(f["code"] == "start-spacing" for f in doc["findings"])
    text = subprocess.run([sys.executable, "-c", "from app.cli.main import main; main()", "validate", str(DEFAULT),
                           "--players", "5", "--enable", "bounds"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert text.returncode == 1 and "start-set-missing (5 players)" in text.stdout
    [outcome] = validate_paths([DEFAULT], Options(enable=("bounds",), players=5))
    assert outcome.report is not None and [f.code for f in outcome.report.findings] == ["start-set-missing"]


def test_a_pits_build_is_judged_on_every_zone_not_on_the_gliders_that_fly() -> None:
    # "On the long edges of the mapsheet are six Airspeed Tracks" (Glider-Pit, Setup): a pit has six
    # launch zones however many gliders fly, so gp-launch-zones judges the whole pit, never the two
    # zones a 2-glider set keeps - and a pit that lacks a zone is still told so under --players 2.
    path = ROOT / "arenas" / "glider-pit-gladiators" / "hexagonal-pit.yaml"
    doc = _doc(path)
    doc["scenario"]["start_sets"] = {"2": [2, 5]}
    arena = loads(yaml.safe_dump(doc, sort_keys=False), fmt="yaml", source="pit.yaml")
    for players in (2, None):
        report = validate(arena, players=players)
        assert not [f for f in report.findings if f.code == "gp-launch-zones"], players
    doc["launch_zones"] = [z for z in doc["launch_zones"] if z["track"] != 3]
    broken = loads(yaml.safe_dump(doc, sort_keys=False), fmt="yaml", source="pit.yaml")
    built = [f for f in validate(broken, players=2).findings if f.code == "gp-launch-zones"]
    assert built and built[0].severity == "error" and "5 launch zone" in built[0].message
