"""Validators that need no travel, each shown firing and not firing on purpose-made arenas."""

from __future__ import annotations

from pathlib import Path

from schema import load, loads
from validators.games.gravstrike.layout import (CheckpointMixValidator, FieldOrbitValidator, ScenarioVariantsValidator,
                                          SymmetryValidator)
from validators.games.gravstrike.placement import BoundsValidator, ExclusionPlacementValidator, OverlapValidator
from validators.games.gravstrike.context import AnalysisContext

ROOT = Path(__file__).resolve().parents[2]
HEAD = "format: arena-studio/1\nsystem: gravstrike\nname: T\nbounds: {type: rect, center: [0, 0], size: [20, 20]}\n"


def run(validator, text: str):  # type: ignore[no-untyped-def]
    arena = loads(HEAD + text)
    return validator.evaluate(arena, AnalysisContext(arena))


def codes(result) -> list[tuple[str, str, tuple[str, ...]]]:  # type: ignore[no-untyped-def]
    return [(f.code, f.severity, f.elements) for f in result.findings]


def test_bounds_fires_for_element_outside() -> None:
    r = run(BoundsValidator(), "checkpoints:\n  - {id: A, kind: outlying, shape: {type: circle, center: [9.5, 0], radius: 1}}\n"
            "start_positions:\n  - {player: 1, position: [0, 0], facing: 0}\n  - {player: 2, position: [12, 0], facing: 0}\n")
    assert codes(r) == [("bounds", "error", ("A",)), ("bounds", "error", ("start:2",))]
    assert "start 2 is outside the arena bounds" in r.findings[1].message


def test_bounds_quiet_when_everything_inside_and_walls_may_cross_the_edge() -> None:
    r = run(BoundsValidator(), "walls:\n  - {id: W1, shape: {type: rect, center: [10, 0], size: [2, 4]}}\n"
            "checkpoints:\n  - {id: A, kind: outlying, shape: {type: circle, center: [5, 0], radius: 1}}\n")
    assert codes(r) == []


def test_overlap_start_on_wall_and_starts_overlapping() -> None:
    r = run(OverlapValidator(), "walls:\n  - {id: W1, shape: {type: rect, center: [0, 0], size: [2, 2]}}\n"
            "start_positions:\n  - {player: 1, position: [1.2, 0], facing: 0}\n"
            "  - {player: 2, position: [5, 0], facing: 0}\n  - {player: 3, position: [5.5, 0], facing: 0}\n")
    assert codes(r) == [("overlap", "error", ("start:1", "W1")), ("overlap", "error", ("start:2", "start:3"))]


def test_overlap_checkpoint_buried_in_wall() -> None:
    r = run(OverlapValidator(), "walls:\n  - {id: W1, shape: {type: rect, center: [0, 0], size: [4, 4]}}\n"
            "checkpoints:\n  - {id: A, kind: outlying, shape: {type: circle, center: [0, 0], radius: 1}}\n"
            "  - {id: B, kind: outlying, shape: {type: circle, center: [2, 0], radius: 1}}\n")
    # A is buried; B, half under the wall, is the partly covered case below
    assert codes(r) == [("overlap", "error", ("A",)), ("overlap", "warning", ("B", "W1"))]


def test_overlap_checkpoint_partly_under_a_pillar_or_a_new_wall() -> None:
    """Issue 18, point 9. "Checkpoints": a turbine scores one by ending a length on it; the
    part under a wall can never be scored, so the checkpoint is smaller than drawn. A pillar
    overlapping its edge and a thin wall drawn across it are both reported (warning, with the
    covered share); a wall that only touches it is not."""
    r = run(OverlapValidator(), "walls:\n  - {id: P1, shape: {type: circle, center: [1.5, 0], radius: 1}}\n"
            "  - {id: W2, shape: {type: polyline, points: [[-3, 5], [3, 5]], thickness: 0.5}}\n"
            "  - {id: W3, shape: {type: rect, center: [0, -6.5], size: [4, 1]}}\n"
            "checkpoints:\n  - {id: A, kind: outlying, shape: {type: circle, center: [0, 0], radius: 1}}\n"
            "  - {id: B, kind: outlying, shape: {type: circle, center: [0, 5], radius: 1}}\n"
            "  - {id: C, kind: outlying, shape: {type: circle, center: [0, -5], radius: 1}}\n")
    assert codes(r) == [("overlap", "warning", ("A", "P1")), ("overlap", "warning", ("B", "W2"))]
    a, b = r.findings
    assert "A is 14% covered by wall P1" in a.message and 0.1 < a.metrics["covered_share"] < 0.2  # a lens of 0.45 L²
    assert "B is 32% covered by wall W2" in b.message


def test_exclusion_placement_severity_follows_tier() -> None:
    r = run(ExclusionPlacementValidator(), "exclusion_fields:\n  - {id: X1, shape: {type: circle, center: [0, 0], radius: 2}, active_from_tier: 1}\n"
            "  - {id: X2, shape: {type: circle, center: [6, 0], radius: 2}, active_from_tier: 3}\n"
            "checkpoints:\n  - {id: A, kind: outlying, shape: {type: circle, center: [6, 1], radius: 0.5}}\n"
            "start_positions:\n  - {player: 1, position: [0, 0], facing: 0}\n  - {player: 2, position: [6, -1], facing: 0}\n"
            "  - {player: 3, position: [-6, -6], facing: 0}\n")
    assert sorted(codes(r)) == sorted([("exclusion-placement", "error", ("start:1", "X1")),
                                       ("exclusion-placement", "warning", ("start:2", "X2")),
                                       ("exclusion-placement", "info", ("A", "X2"))])


def test_checkpoint_mix() -> None:
    r = run(CheckpointMixValidator(), "checkpoints:\n  - {id: A, kind: outlying, shape: {type: circle, center: [6, 1], radius: 0.5}}\n"
            "  - {id: Q, kind: central, shape: {type: circle, center: [0, 0], radius: 0.5}}\n")
    assert codes(r) == [("checkpoint-mix", "warning", ("A",)), ("checkpoint-mix", "info", ("Q",))]
    good = "checkpoints:\n" + "".join(
        f"  - {{id: {c}, kind: {k}, shape: {{type: circle, center: [{x}, 0], radius: 0.5}}}}\n"
        for c, k, x in (("A", "outlying", -6), ("B", "outlying", -3), ("C", "outlying", 3), ("M", "central", 0)))
    assert codes(run(CheckpointMixValidator(), good)) == []


def _mix(gates_on: bool) -> str:
    """A, B, C outlying and M central checkpoints, gates G1 (outlying) and G2, G3 (central)."""
    cps = "checkpoints:\n" + "".join(
        f"  - {{id: {c}, kind: {k}, shape: {{type: circle, center: [{x}, 0], radius: 0.5}}}}\n"
        for c, k, x in (("A", "outlying", -6), ("B", "outlying", -3), ("C", "outlying", 3), ("M", "central", 0)))
    gates = ("gates:\n  - {id: G1, kind: outlying, from: [-2, 5], to: [2, 5]}\n"
             "  - {id: G2, kind: central, from: [-2, -5], to: [2, -5]}\n"
             "  - {id: G3, kind: central, from: [-2, -7], to: [2, -7]}\n")
    return cps + gates + f"scenario: {{variants: {{gates: {str(gates_on).lower()}}}}}\n"


def test_checkpoint_mix_counts_the_gates_in_play() -> None:
    """Issue 36 item 4. "Custom Arenas": "only one or two central checkpoints"; "Scoring Variants":
    gates "are similar to checkpoints" (and score as checkpoints of their kind). With the gates
    variant on, two central gates and M are three central checkpoints; with it off the gates don't
    score and don't count."""
    on = run(CheckpointMixValidator(), _mix(True))
    assert codes(on) == [("checkpoint-mix", "warning", ("M", "G2", "G3"))]
    assert on.findings[0].message.startswith("3 central checkpoints (2 of them gates, scored as central checkpoints)")
    assert on.metrics["checkpoints"] == {"outlying": 4, "central": 3, "gates": {"outlying": 1, "central": 2}}
    off = run(CheckpointMixValidator(), _mix(False))
    assert codes(off) == [] and off.metrics["checkpoints"] == {"outlying": 3, "central": 1}


def test_scenario_variants_warns_for_marks_the_scenario_switches_off() -> None:
    """Issue 36 item 4 ("Scoring Variants"): gates, decaying checkpoints and small, resilient and
    exploding static targets are each a variant of the scenario; an element marked for one the
    scenario switches off is played without the mark - a warning names the elements and the switch."""
    marked = ("checkpoints:\n  - {id: A, kind: outlying, decaying: true, shape: {type: circle, center: [-6, 0], radius: 0.5}}\n"
              "  - {id: B, kind: outlying, shape: {type: circle, center: [6, 0], radius: 0.5}}\n"
              "gates:\n  - {id: G, kind: outlying, from: [-2, 5], to: [2, 5]}\n"
              "static_targets:\n  - {id: T1, position: [0, 2], tn_modifier: 3}\n"
              "  - {id: T2, position: [0, -2], tn_modifier: -1, capacity: 12, exploding: true}\n")
    off = run(ScenarioVariantsValidator(), marked)
    assert codes(off) == [("scenario-variants", "warning", ("G",)), ("scenario-variants", "warning", ("A",)),
                          ("scenario-variants", "warning", ("T1",)), ("scenario-variants", "warning", ("T2",)),
                          ("scenario-variants", "warning", ("T2",))]
    assert [f.metrics["variant"] for f in off.findings] == ["gates", "decaying_checkpoints", "small_targets",
                                                            "resilient_targets", "exploding_targets"]
    assert "gate G in an arena whose scenario switches the gates variant off: not scored" in off.findings[0].message
    assert "switch scenario.variants.exploding_targets on or clear the mark" in off.findings[4].message
    every = ("scenario: {variants: {gates: true, decaying_checkpoints: true, small_targets: true, "
             "resilient_targets: true, exploding_targets: true}}\n")
    assert codes(run(ScenarioVariantsValidator(), marked + every)) == []
    for path in ("default.yaml", "examples/gates-and-decay.yaml", "examples/lopsided.yaml", "examples/three-player.yaml"):
        shipped = load(ROOT / "arenas" / path)
        assert codes(ScenarioVariantsValidator().evaluate(shipped, None)) == [], path


def test_field_orbit_fires_when_all_turn_one_way() -> None:
    fields = "acceleration_fields:\n" + "".join(
        f"  - {{id: F{i}, shape: {{type: circle, center: [{x}, {y}], radius: 0.5}}, direction: {d}}}\n"
        for i, (x, y, d) in enumerate(((5, 0, 90), (0, 5, 180), (-5, 0, 270))))
    r = run(FieldOrbitValidator(), fields)
    assert [c[0] for c in codes(r)] == ["field-orbit"] and "counter-clockwise" in r.findings[0].message
    assert r.metrics["orbit_balance"] == 1.0


def test_field_orbit_quiet_for_balanced_or_radial_fields() -> None:
    fields = ("acceleration_fields:\n  - {id: F1, shape: {type: circle, center: [5, 0], radius: 0.5}, direction: 90}\n"
              "  - {id: F2, shape: {type: circle, center: [-5, 0], radius: 0.5}, direction: 90}\n"
              "  - {id: F3, shape: {type: circle, center: [0, 5], radius: 0.5}, direction: 270}\n")
    assert codes(run(FieldOrbitValidator(), fields)) == []


def test_symmetry_of_the_default_arena_holds_and_a_broken_copy_is_caught() -> None:
    arena = load(ROOT / "arenas" / "default.yaml")
    assert codes(SymmetryValidator().evaluate(arena, AnalysisContext(arena))) == []
    import dataclasses

    moved = dataclasses.replace(arena.start_positions[0], position=(arena.start_positions[0].position[0] + 0.5,
                                                                     arena.start_positions[0].position[1]))
    broken = dataclasses.replace(arena, start_positions=(moved, *arena.start_positions[1:]))
    found = SymmetryValidator().evaluate(broken, AnalysisContext(broken)).findings
    assert found and all(f.severity == "info" for f in found)
    assert "start:1" in {e for f in found for e in f.elements}


def test_default_arena_has_no_layout_findings() -> None:
    arena = load(ROOT / "arenas" / "default.yaml")
    ctx = AnalysisContext(arena)
    for v in (BoundsValidator(), OverlapValidator(), ExclusionPlacementValidator(), CheckpointMixValidator(),
              FieldOrbitValidator()):
        assert v.evaluate(arena, ctx).findings == [], v.id


def test_lopsided_triggers_layout_validators() -> None:
    arena = load(ROOT / "arenas" / "examples" / "lopsided.yaml")
    ctx = AnalysisContext(arena)
    for v in (CheckpointMixValidator(), FieldOrbitValidator(), ExclusionPlacementValidator()):
        assert v.evaluate(arena, ctx).findings, v.id
