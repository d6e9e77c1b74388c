"""Victory points ("Scoring and Victory", "Checkpoints", "Chain Bonuses", "Static Targets",
"Damaging Enemies", "Leader-damage Bonus", "Exploding", "Victory Point Tiers", "Victory Point
Lock-in", "Victory", "Scoring Variants")."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.gravstrike.scoring import (
    CheckpointIgnored,
    CheckpointScored,
    GameOver,
    ScoreRules,
    ScoreState,
    TargetHit,
    TierChanged,
    Victory,
    begin_turn,
    change_vp,
    checkpoint_reward,
    cross_checkpoint,
    damage_enemy,
    damage_vp_threshold,
    explode,
    hit_static_target,
    score_element,
    tier_for,
)
from schema.shapes import Circle
from schema.games.gravstrike.model import Checkpoint, Gate, Scenario, StaticTarget, Variants


def with_vp(state: ScoreState, **vps: int) -> ScoreState:
    """Set VP directly (players named p1, p2, ...), lock-in floors included."""
    for name, vp in vps.items():
        state, _ = change_vp(state, int(name[1:]), vp, "setup")
    return state


def fresh(n: int = 3, rules: ScoreRules = ScoreRules()) -> ScoreState:
    return ScoreState.new(tuple(range(1, n + 1)), rules)


def test_tiers() -> None:
    """Victory Point Tiers: leader 0-3 tier 1, 4-7 tier 2, 8+ tier 3 -- for everyone."""
    assert [tier_for(v) for v in (0, 3, 4, 7, 8, 11)] == [1, 1, 2, 2, 3, 3]
    assert tier_for(5, (6, 10)) == 1
    s = with_vp(fresh(), p2=8)
    assert s.tier == 3


@pytest.mark.parametrize(
    "tier, kind, markers, expected",
    [
        (1, "outlying", 0, (1, 1, 1)),
        (1, "central", 2, (1, 1, 1)),
        (2, "outlying", 1, (2, 1, 1)),
        (2, "central", 0, (2, 1, 1)),
        (3, "outlying", 2, (3, 2, 2)),
        (3, "central", 0, (3, 2, 2)),
    ],
)
def test_checkpoint_table(tier: int, kind: str, markers: int, expected: tuple[int, int, int]) -> None:
    """Checkpoints: the VP / damage dealt / cards drawn table by tier and type."""
    r = checkpoint_reward(tier, kind, markers)  # type: ignore[arg-type]
    assert (r.vp, r.damage, r.cards) == expected


def test_checkpoint_scoring_reports_damage_and_cards() -> None:
    """Checkpoints: score VP, then damage each other turbine, then draw -- tier 3 central."""
    s = with_vp(fresh(), p2=8)
    s, ev = cross_checkpoint(s, 1, "M", "central")
    scored = ev[0]
    assert isinstance(scored, CheckpointScored)
    assert (scored.vp, scored.damage_to_each_other, scored.cards, scored.tier) == (3, 2, 2, 3)
    assert s.pilot(1).vp == 3


def test_chain_bonus_behaviour() -> None:
    """Chain Bonuses: outlying checkpoints give a marker (max 2); the bonus is the markers held
    on arrival; central checkpoints neither pay nor give markers; exploding loses them."""
    s = fresh()
    vps = []
    for cp in ("A", "B", "C", "D"):
        before = s.pilot(1).vp
        s, _ = cross_checkpoint(s, 1, cp, "outlying")
        vps.append(s.pilot(1).vp - before)
    assert vps == [1, 2, 3, 3] and s.pilot(1).chain_markers == 2
    s, ev = cross_checkpoint(s, 1, "M", "central")  # tier 3 now (9 VP): 3 VP, markers kept
    assert ev[0] == CheckpointScored(1, "M", "central", 3, 3, 0, 2, 2)
    assert s.pilot(1).vp == 12 and s.pilot(1).chain_markers == 2 and s.winner == 1


def test_chain_markers_lost_on_explosion() -> None:
    """Chain Bonuses: "Turbines that explode lose all of their chain markers"."""
    s = fresh()
    s, _ = cross_checkpoint(s, 1, "A", "outlying")
    s, _ = cross_checkpoint(s, 1, "B", "outlying")
    s, _ = explode(s, 1)
    assert s.pilot(1).chain_markers == 0
    before = s.pilot(1).vp
    s, _ = cross_checkpoint(s, 1, "C", "outlying")
    assert s.pilot(1).vp - before == 1


def test_no_repeat_rule() -> None:
    """You Can't Score the Same Checkpoint Twice in a Row -- chain markers or not."""
    s = fresh()
    s, _ = cross_checkpoint(s, 1, "A", "outlying")
    s, ev = cross_checkpoint(s, 1, "A", "outlying")
    assert ev == (CheckpointIgnored(1, "A", "repeat"),) and s.pilot(1).vp == 1
    s, _ = cross_checkpoint(s, 1, "B", "outlying")
    s, _ = cross_checkpoint(s, 1, "A", "outlying")
    assert s.pilot(1).vp == 1 + 2 + 3
    # another turbine is unaffected by player 1's last checkpoint
    s, _ = cross_checkpoint(s, 2, "A", "outlying")
    assert s.pilot(2).vp == 1


def test_decaying_checkpoints_first_turbine_per_turn() -> None:
    """Scoring Variants, Decaying Checkpoints: only the first turbine each turn scores it; a
    crossing without benefit does not count as "twice in a row" for the no-repeat rule."""
    s = fresh()
    s, _ = cross_checkpoint(s, 1, "A", "outlying", decaying=True)
    s, ev = cross_checkpoint(s, 2, "A", "outlying", decaying=True)
    assert ev == (CheckpointIgnored(2, "A", "decayed"),) and s.pilot(2).vp == 0
    s = begin_turn(s)
    s, _ = cross_checkpoint(s, 2, "A", "outlying", decaying=True)
    assert s.pilot(2).vp == 1 and s.turn == 2


def test_schema_elements_and_gates() -> None:
    """Scoring Variants, Gates: with the gates variant on a gate scores like a checkpoint of its
    kind; with the decaying variant on a checkpoint marked decaying decays, an unmarked one does
    not, and a gate (no mark of its own) does."""
    gates_on = ScoreRules(variants=Variants(gates=True))
    gate = Gate("G", "central", (0.0, 0.0), (1.0, 0.0))
    cp = Checkpoint("A", "outlying", Circle((0.0, 0.0), 1.0), decaying=True)
    s = with_vp(fresh(rules=gates_on), p3=4)
    s, ev = score_element(s, 1, gate)
    assert isinstance(ev[0], CheckpointScored) and s.pilot(1).vp == 2  # tier 2 central
    decay = ScoreRules(variants=Variants(gates=True, decaying_checkpoints=True))
    s = fresh(rules=decay)
    s, _ = score_element(s, 1, cp)
    s, ev = score_element(s, 2, cp)
    assert ev[0] == CheckpointIgnored(2, "A", "decayed")
    plain = Checkpoint("B", "outlying", Circle((0.0, 0.0), 1.0))
    s, _ = score_element(s, 1, plain)
    s, ev = score_element(s, 2, plain)
    assert isinstance(ev[0], CheckpointScored)
    s, _ = score_element(s, 1, gate)
    s, ev = score_element(s, 2, gate)
    assert ev[0] == CheckpointIgnored(2, "G", "decayed")


def test_variants_switched_off_put_their_marks_out_of_play() -> None:
    """Issue 36 item 4 ("Scoring Variants": gates, decaying checkpoints and exploding static
    targets are variants "different arenas and different events" use): with the scenario's
    variant off, a gate scores nothing and leaves the no-repeat block alone, a checkpoint marked
    decaying scores for every turbine, and an exploding target is destroyed without exploding."""
    off = Scenario()
    rules = ScoreRules.from_scenario(off)
    gate = Gate("G", "outlying", (0.0, 0.0), (1.0, 0.0))
    s = fresh(rules=rules)
    s, _ = cross_checkpoint(s, 1, "A", "outlying")
    s, ev = score_element(s, 1, gate)
    assert ev == (CheckpointIgnored(1, "G", "not in play"),)
    assert s.pilot(1).vp == 1 and s.pilot(1).chain_markers == 1 and s.pilot(1).last_checkpoint == "A"
    cp = Checkpoint("D", "outlying", Circle((0.0, 0.0), 1.0), decaying=True)
    s, _ = score_element(s, 2, cp)
    s, ev = score_element(s, 3, cp)
    assert isinstance(ev[0], CheckpointScored) and s.pilot(3).vp == 1
    t = StaticTarget("X", (0.0, 0.0), capacity=12, exploding=True)
    s = ScoreState.new((1,), rules, targets=(t,))
    s, ev = hit_static_target(s, 1, t, 1)
    hit = ev[0]
    assert isinstance(hit, TargetHit) and hit.destroyed and hit.capacity == 1 and not hit.exploding
    s = ScoreState.new((1,), ScoreRules(variants=Variants(exploding_targets=True)), targets=(t,))
    s, ev = hit_static_target(s, 1, t, 1)
    assert ev[0].exploding  # type: ignore[union-attr]


def test_damaging_enemies_threshold_by_tier() -> None:
    """Damaging Enemies: 5+ cards in tier 1, 3+ in tiers 2 and 3, in a single attack."""
    assert [damage_vp_threshold(t) for t in (1, 2, 3)] == [5, 3, 3]
    s = fresh()
    s, _ = damage_enemy(s, 1, 2, 4)
    assert s.pilot(1).vp == 0
    s, _ = damage_enemy(s, 1, 2, 5)
    assert s.pilot(1).vp == 1
    s = with_vp(fresh(), p3=4)  # tier 2
    s, _ = damage_enemy(s, 1, 2, 3)
    assert s.pilot(1).vp == 1


def test_leader_damage_bonus() -> None:
    """Leader-damage Bonus: +1 VP for 5+ damage to the leader (or a tied leader) with >= 1 VP."""
    s = with_vp(fresh(), p2=2, p3=2)
    s, ev = damage_enemy(s, 1, 2, 5)  # tied leader, tier 1: basic 1 + bonus 1
    assert s.pilot(1).vp == 2
    s = with_vp(fresh(), p2=5)  # tier 2
    s, _ = damage_enemy(s, 1, 2, 3)
    assert s.pilot(1).vp == 1  # basic only: bonus needs 5+
    s = fresh()
    s, _ = damage_enemy(s, 1, 2, 6)  # leader at 0 VP: no bonus
    assert s.pilot(1).vp == 1
    s = with_vp(fresh(), p3=3)
    s, _ = damage_enemy(s, 1, 2, 7)  # victim not the leader
    assert s.pilot(1).vp == 1


def test_explosion_costs_three() -> None:
    """Exploding: -3 VP, never below 0."""
    s = with_vp(fresh(), p1=3)
    s, _ = explode(s, 1)
    assert s.pilot(1).vp == 0
    s, _ = explode(s, 1)
    assert s.pilot(1).vp == 0


def test_lock_in_example() -> None:
    """Victory Point Lock-in, the book's example: 6 VP, explodes, drops only to 4."""
    s = with_vp(fresh(), p1=6)
    s, ev = explode(s, 1)
    assert s.pilot(1).vp == 4
    s = with_vp(fresh(), p1=9)
    s, _ = explode(s, 1)
    assert s.pilot(1).vp == 8
    # reaching a lock-in point then losing VP keeps the floor
    s = with_vp(fresh(), p1=4)
    s, _ = explode(s, 1)
    assert s.pilot(1).vp == 4 and s.pilot(1).floor == 4


def test_tier_change_event() -> None:
    """Victory Point Tiers: the tier follows the leader (an event is emitted when it moves)."""
    s = with_vp(fresh(), p1=3)
    s, ev = cross_checkpoint(s, 1, "M", "central")
    assert TierChanged(1, 2) in ev


def test_victory_and_game_over() -> None:
    """Victory: the first to 12 VP (or the scenario's vp_to_win) wins immediately."""
    s = with_vp(fresh(), p1=11)
    s, ev = cross_checkpoint(s, 1, "A", "outlying")
    assert s.winner == 1 and Victory(1, 12) in ev
    with pytest.raises(GameOver):
        cross_checkpoint(s, 2, "A", "outlying")
    rules = ScoreRules.from_scenario(Scenario(vp_to_win=5, tier_thresholds=(2, 4)))
    s = with_vp(fresh(rules=rules), p2=4)
    assert s.pilot(2).floor == 4 and s.tier == 3
    s, _ = cross_checkpoint(s, 2, "M", "central")
    assert s.winner == 2


def test_static_target_scores_once_and_is_destroyed() -> None:
    """Static Targets: 1 VP for at least 1 damage; this destroys it, so it scores only once."""
    t = StaticTarget("T1", (0.0, 0.0))
    s = ScoreState.new((1, 2), targets=(t,))
    s, ev = hit_static_target(s, 1, t, 0)
    assert s.pilot(1).vp == 0 and not s.target("T1").destroyed
    s, ev = hit_static_target(s, 1, t, 2)
    hit = ev[0]
    assert isinstance(hit, TargetHit) and hit.scored and hit.destroyed and not hit.exploding
    assert s.pilot(1).vp == 1
    with pytest.raises(ValueError):
        hit_static_target(s, 2, t, 1)


def test_resilient_and_exploding_targets() -> None:
    """Resilient / Exploding Static Targets: capacity damage before destruction; each turbine
    scores each target once; an exploding target reports its explosion when destroyed."""
    t = StaticTarget("R", (0.0, 0.0), capacity=12, exploding=True)
    rules = ScoreRules(variants=Variants(resilient_targets=True, exploding_targets=True))
    s = ScoreState.new((1, 2), rules, targets=(t,))
    s, _ = hit_static_target(s, 1, t, 5)
    s, ev = hit_static_target(s, 1, t, 5)
    assert s.pilot(1).vp == 1 and not ev[0].scored  # type: ignore[union-attr]
    s, ev = hit_static_target(s, 2, t, 4)
    hit = ev[0]
    assert isinstance(hit, TargetHit)
    assert hit.scored and hit.destroyed and hit.exploding and hit.total_damage == 12
    assert s.pilot(2).vp == 1
    # without the variant the same target is an ordinary capacity-1 target
    s = ScoreState.new((1,), targets=(t,))
    s, ev = hit_static_target(s, 1, t, 1)
    assert s.target("R").destroyed


def test_state_is_immutable() -> None:
    """Design: rules return new states; the old one is untouched (python-chess style)."""
    s0 = fresh()
    s1, _ = cross_checkpoint(s0, 1, "A", "outlying")
    assert s0.pilot(1).vp == 0 and s1.pilot(1).vp == 1
    with pytest.raises(Exception):
        s0.turn = 3  # type: ignore[misc]
    assert replace(s0) == s0
