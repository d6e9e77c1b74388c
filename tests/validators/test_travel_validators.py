"""Travel validators fire and stay quiet on small purpose-made arenas ("Custom Arenas": starts
equally far from the checkpoints, outlying checkpoints two flat-out turns apart; times are turns
of flat-out movement under the motion model: a start at rest moves 2, 4, 6 lengths in turns 1-3)."""

from __future__ import annotations

import math

from schema import loads
from validators.games.gravstrike.targets import TargetAccessValidator
from validators.games.gravstrike.travel import (
    CheckpointSpacingValidator,
    ReachabilityValidator,
    StartCheckpointAccessValidator,
    StartSpacingValidator,
)
from validators.games.gravstrike.context import AnalysisContext
from validators.run import validate

HEAD = "format: arena-studio/1\nsystem: gravstrike\nname: T\nbounds: {type: rect, center: [0, 0], size: [18, 10]}\n"


def arena(text: str):  # type: ignore[no-untyped-def]
    return loads(HEAD + text)


def run(validator, text: str):  # type: ignore[no-untyped-def]
    a = arena(text)
    return validator.evaluate(a, AnalysisContext(a))


def test_reachability_fires_for_a_walled_in_checkpoint_and_not_for_an_open_one() -> None:
    ring = ("walls:\n"
            "  - {id: W1, shape: {type: polyline, points: [[2, -3], [8, -3], [8, 3], [2, 3], [2, -3]], thickness: 1.5}}\n")
    body = ("checkpoints:\n  - {id: A, kind: outlying, shape: {type: circle, center: [5, 0], radius: 0.5}}\n"
            "start_positions:\n  - {player: 1, position: [-5, 0], facing: 0}\n")
    closed = run(ReachabilityValidator(), ring + body)
    assert [(f.code, f.severity, f.elements) for f in closed.findings] == [("reachability", "error", ("start:1", "A"))]
    assert closed.metrics["travel"]["start:1"]["checkpoint:A"]["reachable"] is False
    opened = run(ReachabilityValidator(), body)
    assert opened.findings == [] and opened.metrics["travel"]["start:1"]["checkpoint:A"]["reachable"] is True


def test_start_checkpoint_access_fires_when_one_start_is_much_nearer() -> None:
    text = ("checkpoints:\n  - {id: A, kind: outlying, shape: {type: circle, center: [5, 0], radius: 0.6}}\n"
            "start_positions:\n  - {player: 1, position: [3, 0], facing: 0}\n"
            "  - {player: 2, position: [-6.5, 0], facing: 0}\n")
    result = run(StartCheckpointAccessValidator(), text)
    nearest = [f for f in result.findings if "nearest checkpoint" in f.message]
    assert nearest and nearest[0].elements[:2] == ("start:2", "start:1")
    f = nearest[0]
    assert f.metrics["difference"] > 0.5  # scenario.analysis.start_access_tolerance (default 0.5 turn)
    assert "start 1" in f.message and "start 2" in f.message
    assert f.path and math.dist((f.path[0]["x"], f.path[0]["y"]), (-6.5, 0.0)) < 3.0  # the slow start's route


def test_start_checkpoint_access_quiet_for_mirrored_starts() -> None:
    text = ("checkpoints:\n  - {id: A, kind: outlying, shape: {type: circle, center: [0, 2.5], radius: 0.6}}\n"
            "start_positions:\n  - {player: 1, position: [-5, 0], facing: 0}\n"
            "  - {player: 2, position: [5, 0], facing: 180}\n")
    result = run(StartCheckpointAccessValidator(), text)
    assert result.findings == []
    rows = result.metrics["start_checkpoint_access"]
    assert rows["start:1"]["nearest_time"] == rows["start:2"]["nearest_time"]


def test_start_spacing_fires_for_uneven_neighbours() -> None:
    even = ("start_positions:\n  - {player: 1, position: [-6, 0], facing: 0}\n"
            "  - {player: 2, position: [0, 0], facing: 0}\n  - {player: 3, position: [6, 0], facing: 180}\n")
    uneven = ("start_positions:\n  - {player: 1, position: [-6, 0], facing: 0}\n"
              "  - {player: 2, position: [-4, 0], facing: 0}\n  - {player: 3, position: [6, 0], facing: 180}\n")
    distance_findings = [f for f in run(StartSpacingValidator(), uneven).findings if "lengths away" in f.message]
    assert distance_findings and distance_findings[0].elements[0] in ("start:1", "start:2")
    assert not [f for f in run(StartSpacingValidator(), even).findings if "lengths away" in f.message]


def test_checkpoint_spacing_fires_under_two_turns_only() -> None:
    near = ("checkpoints:\n  - {id: A, kind: outlying, shape: {type: circle, center: [-2, 0], radius: 0.5}}\n"
            "  - {id: B, kind: outlying, shape: {type: circle, center: [2, 0], radius: 0.5}}\n")
    far = ("checkpoints:\n  - {id: A, kind: outlying, shape: {type: circle, center: [-7, 3], radius: 0.5}}\n"
           "  - {id: B, kind: outlying, shape: {type: circle, center: [7, -3], radius: 0.5}}\n"
           "walls:\n  - {id: W1, shape: {type: rect, center: [0, 0], size: [1, 6]}}\n")
    found = run(CheckpointSpacingValidator(), near).findings
    assert [(f.code, set(f.elements)) for f in found] == [("checkpoint-spacing", {"A", "B"})]
    assert found[0].metrics["time"] < 2.0 and found[0].path
    quiet = run(CheckpointSpacingValidator(), far)
    assert quiet.findings == []
    # the search stops at the 2-turn minimum: farther pairs are reported as "at least 2"
    cell = quiet.metrics["checkpoint_travel"]["checkpoint:A"]["checkpoint:B"]
    assert cell["reachable"] is None and cell["at_least"] == 2.0


def test_target_access_compares_each_starts_best_target() -> None:
    targets = "static_targets:\n  - {id: T1, position: [-5, 2]}\n"
    unfair = targets + ("start_positions:\n  - {player: 1, position: [-6, 0], facing: 0}\n"
                        "  - {player: 2, position: [6, 0], facing: 180}\n")
    fair = targets + "  - {id: T2, position: [5, 2]}\n" + unfair.split(targets)[1]
    found = [f for f in run(TargetAccessValidator(), unfair).findings if "turns" in f.message]
    assert found and found[0].elements[0] == "start:2"
    assert [f for f in run(TargetAccessValidator(), fair).findings if "turns" in f.message] == []


def test_symmetric_sources_reuse_a_search_and_give_the_same_times() -> None:
    body = ("checkpoints:\n  - {id: A, kind: outlying, shape: {type: circle, center: [0, 2.5], radius: 0.6}}\n"
            "start_positions:\n  - {player: 1, position: [-5, 0], facing: 30}\n"
            "  - {player: 2, position: [5, 0], facing: 150}\n")
    sym = arena("symmetry: {kind: mirror, order: 1, center: [0, 0], axis: 90}\n" + body)
    plain = arena(body)
    with_sym, without = AnalysisContext(sym), AnalysisContext(plain)
    for s in ("start:1", "start:2"):
        a, b = with_sym.travel_from(s), without.travel_from(s)
        assert {k: round(v.time, 6) for k, v in a.items()} == {k: round(v.time, 6) for k, v in b.items()}
    assert with_sym.searches == 1 and without.searches == 2
    mirrored = with_sym.travel("start:2", "checkpoint:A")
    assert mirrored.path and mirrored.path[0].x > 0  # the path was mirrored to start 2's side


def test_validate_report_is_schema_valid_and_sorted() -> None:
    import json
    from pathlib import Path

    import jsonschema

    a = arena("checkpoints:\n  - {id: A, kind: outlying, shape: {type: circle, center: [5, 0], radius: 0.6}}\n"
              "start_positions:\n  - {player: 1, position: [3, 0], facing: 0}\n"
              "  - {player: 2, position: [-6.5, 0], facing: 0}\n")
    doc = validate(a, source="t.yaml").to_json()
    schema = json.loads((Path(__file__).resolve().parents[2] / "schema" / "report.schema.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(doc)
    ranks = {"error": 0, "warning": 1, "info": 2}
    order = [ranks[f["severity"]] for f in doc["findings"]]
    assert order == sorted(order) and doc["tolerance"] == 0.25


def test_wall_tunnelling_fires_for_a_wall_one_length_can_cross_and_not_for_a_thick_one() -> None:
    """"In the Middle of a Length of Movement...": only where a length ends is checked, so a thin
    enough wall is crossed by a length whose start and end footprints are both clear."""
    from validators.games.gravstrike.tunnelling import WallTunnellingValidator

    starts = "start_positions:\n  - {player: 1, position: [-5, 0], facing: 0}\n"
    thin = "walls:\n  - {id: W1, shape: {type: rect, center: [0, 0], size: [0.2, 6]}}\n" + starts
    thick = "walls:\n  - {id: W1, shape: {type: rect, center: [0, 0], size: [1.0, 6]}}\n" + starts
    found = run(WallTunnellingValidator(), thin).findings
    assert [(f.code, f.elements[0]) for f in found] == [("wall-tunnelling", "W1")]
    assert found[0].path  # the witness: a pose and the length that ends beyond the wall
    assert run(WallTunnellingValidator(), thick).findings == []


def test_two_cores_give_the_same_report_as_one() -> None:
    """`arena validate` on one arena forks a helper for the checkpoints' travel and the
    validators that need none (validators/parallel.py); the report must not change."""
    from pathlib import Path

    from schema import load
    from validators.run import validate

    arena = load(Path(__file__).resolve().parents[2] / "arenas" / "examples" / "lopsided.yaml")
    one = validate(arena, source="lopsided.yaml").to_json()
    two = validate(arena, source="lopsided.yaml", parallel=True).to_json()
    assert two == one
    assert one["summary"]["warning"] >= 6


def test_reachability_tells_far_from_unreachable_and_undecided_from_either() -> None:
    """A horizon bounds the work, never the verdict: a checkpoint farther than the analysis looks
    is a warning ("more than N turns"), a search stopped by its memory limit is a warning that
    says so - only a proven one is the error "cannot reach"."""
    from engine.gravstrike.travel_types import SearchLimits

    long_arena = ("bounds: {type: rect, center: [0, 0], size: [60, 6]}\n"
                  "checkpoints:\n  - {id: A, kind: outlying, shape: {type: circle, center: [27, 0], radius: 0.5}}\n"
                  "start_positions:\n  - {player: 1, position: [-27, 0], facing: 0}\n")
    a = loads(HEAD.replace("bounds: {type: rect, center: [0, 0], size: [18, 10]}\n", "") + long_arena)
    far = ReachabilityValidator().evaluate(a, AnalysisContext(a, max_turns=3))
    assert [(f.severity, f.elements) for f in far.findings] == [("warning", ("start:1", "A"))]
    assert "more than 3 turns" in far.findings[0].message
    assert far.metrics["travel"]["start:1"]["checkpoint:A"] == {"reachable": None, "turns": None, "time": None,
                                                                "at_least": 3.0}
    tight = ReachabilityValidator().evaluate(a, AnalysisContext(a, limits=SearchLimits(max_bytes=1 << 16)))
    assert [(f.severity, f.elements) for f in tight.findings] == [("warning", ("start:1", "A"))]
    assert "could not decide" in tight.findings[0].message and "memory limit" in tight.findings[0].message
    assert tight.metrics["travel"]["start:1"]["checkpoint:A"]["undecided"].startswith("memory limit")


def test_undecided_travel_is_never_a_silent_pass() -> None:
    """With reachability switched off, an undecided search still reaches the report as an
    ``analysis-limit`` warning naming the questions it left open."""
    from engine.gravstrike.travel_types import SearchLimits

    a = arena("checkpoints:\n  - {id: A, kind: outlying, shape: {type: circle, center: [6, 0], radius: 0.5}}\n"
              "  - {id: B, kind: outlying, shape: {type: circle, center: [-6, 3], radius: 0.5}}\n"
              "start_positions:\n  - {player: 1, position: [-6, -3], facing: 0}\n  - {player: 2, position: [6, 3], facing: 180}\n")
    ctx = AnalysisContext(a, limits=SearchLimits(max_bytes=1 << 16))
    report = validate(a, context=ctx, disable=["reachability"])
    limit = [f for f in report.findings if f.code == "analysis-limit"]
    assert len(limit) == 1 and limit[0].severity == "warning" and "undecided" in limit[0].message
    assert {q["from"] for q in limit[0].metrics["undecided"]} >= {"start:1", "start:2"}
    import json
    from pathlib import Path

    import jsonschema

    schema = json.loads((Path(__file__).resolve().parents[2] / "schema" / "report.schema.json").read_text())
    doc = report.to_json()
    jsonschema.Draft202012Validator(schema).validate(doc)
    full = validate(a, context=AnalysisContext(a, limits=SearchLimits(max_bytes=1 << 16))).to_json()
    jsonschema.Draft202012Validator(schema).validate(full)  # undecided cells are part of the format
    assert full["metrics"]["travel"]["start:1"]["checkpoint:A"]["undecided"].startswith("memory limit")


def test_gates_are_analysed_only_when_the_scenario_scores_them() -> None:
    """Issue 36 item 4 ("Scoring Variants": gates are a variant a scenario may play or not). A gate
    walled in by a ring is an error with the gates variant on; with it off the gate scores nothing,
    so it is neither searched for nor reported (the scenario-variants warning names it)."""
    ring = ("walls:\n"
            "  - {id: W1, shape: {type: polyline, points: [[2, -3], [8, -3], [8, 3], [2, 3], [2, -3]], thickness: 1.5}}\n")
    body = ("checkpoints:\n  - {id: A, kind: outlying, shape: {type: circle, center: [-2, 0], radius: 0.5}}\n"
            "gates:\n  - {id: G, kind: outlying, from: [4.5, 0], to: [5.5, 0]}\n"
            "start_positions:\n  - {player: 1, position: [-5, 0], facing: 0}\n")
    on = run(ReachabilityValidator(), ring + body + "scenario: {variants: {gates: true}}\n")
    assert [(f.severity, f.elements) for f in on.findings] == [("error", ("start:1", "G"))]
    assert on.metrics["travel"]["start:1"]["gate:G"]["reachable"] is False
    off = run(ReachabilityValidator(), ring + body)
    assert off.findings == [] and set(off.metrics["travel"]["start:1"]) == {"checkpoint:A"}


def test_target_access_shoots_a_small_target_as_small_only_with_the_variant() -> None:
    """Issue 36 item 4 ("Small Static Targets": TN modifiers "as high as +6" in some arenas): a
    target's +4 counts in the TN from a start only with the scenario's small_targets variant on."""
    body = ("static_targets:\n  - {id: T1, position: [0, 2], tn_modifier: 4}\n"
            "start_positions:\n  - {player: 1, position: [-6, 0], facing: 0}\n  - {player: 2, position: [6, 0], facing: 180}\n")
    plain = run(TargetAccessValidator(), body.replace(", tn_modifier: 4", ""))
    off = run(TargetAccessValidator(), body)
    on = run(TargetAccessValidator(), body + "scenario: {variants: {small_targets: true}}\n")
    tn = {name: r.metrics["target_access"]["T1"]["start:1"]["tn_from_start"] for name, r in
          (("plain", plain), ("off", off), ("on", on))}
    assert tn["plain"] is not None and tn["off"] == tn["plain"] and tn["on"] == tn["plain"] + 4
