"""Victory points (book: "Scoring and Victory" and "Scoring Variants").

A small immutable state model: :class:`ScoreState` holds one :class:`PilotScore` per player
and one :class:`TargetState` per static target.  Every rule is a pure function taking a state
and returning ``(new_state, events)``, so a game can be replayed or branched freely.

>>> s = ScoreState.new(players=(1, 2))
>>> s, ev = cross_checkpoint(s, 1, "A", "outlying")
>>> s.pilot(1).vp, s.pilot(1).chain_markers, ev[0].damage_to_each_other
(1, 1, 1)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal, Union

from engine.gravstrike.variants import as_played, decays
from schema.games.gravstrike.model import Checkpoint, Gate, Scenario, StaticTarget, Variants

Kind = Literal["outlying", "central"]

MAX_CHAIN_MARKERS = 2
EXPLOSION_PENALTY = 3
LEADER_BONUS_DAMAGE = 5


class GameOver(Exception):
    """Raised when scoring is attempted after a turbine has won."""


@dataclass(frozen=True)
class ScoreRules:
    """The scenario parameters scoring depends on."""

    vp_to_win: int = 12
    tier_thresholds: tuple[int, int] = (4, 8)
    lock_ins: tuple[int, ...] = (4, 8)
    variants: Variants = Variants()

    @classmethod
    def from_scenario(cls, scenario: Scenario) -> ScoreRules:
        """Lock-in points sit at the tier thresholds (4 and 8 in the book)."""
        return cls(
            vp_to_win=scenario.vp_to_win,
            tier_thresholds=scenario.tier_thresholds,
            lock_ins=tuple(scenario.tier_thresholds),
            variants=scenario.variants,
        )


@dataclass(frozen=True)
class PilotScore:
    player: int
    vp: int = 0
    floor: int = 0  # highest lock-in point reached: VP never drop below it
    chain_markers: int = 0
    last_checkpoint: str | None = None  # last checkpoint benefited from (no-repeat rule)
    scored_targets: frozenset[str] = frozenset()


@dataclass(frozen=True)
class TargetState:
    id: str
    damage: int = 0
    destroyed: bool = False


@dataclass(frozen=True)
class ScoreState:
    rules: ScoreRules
    pilots: tuple[PilotScore, ...]
    targets: tuple[TargetState, ...] = ()
    turn: int = 1
    decayed: frozenset[str] = frozenset()  # decaying checkpoints already scored this turn
    winner: int | None = None

    @classmethod
    def new(
        cls,
        players: tuple[int, ...],
        rules: ScoreRules = ScoreRules(),
        targets: tuple[StaticTarget, ...] = (),
    ) -> ScoreState:
        return cls(
            rules=rules,
            pilots=tuple(PilotScore(p) for p in players),
            targets=tuple(TargetState(t.id) for t in targets),
        )

    def pilot(self, player: int) -> PilotScore:
        for p in self.pilots:
            if p.player == player:
                return p
        raise KeyError(player)

    def target(self, target_id: str) -> TargetState:
        for t in self.targets:
            if t.id == target_id:
                return t
        raise KeyError(target_id)

    @property
    def leader_vp(self) -> int:
        return max((p.vp for p in self.pilots), default=0)

    @property
    def tier(self) -> int:
        return tier_for(self.leader_vp, self.rules.tier_thresholds)

    def leaders(self) -> frozenset[int]:
        """Players holding (or tied for) the lead; empty while the leader has 0 VP."""
        top = self.leader_vp
        return frozenset(p.player for p in self.pilots if top >= 1 and p.vp == top)


# ---------------------------------------------------------------------------------- events


@dataclass(frozen=True)
class VPChanged:
    player: int
    reason: str
    requested: int  # the change the rule asked for
    applied: int  # after the lock-in floor
    vp: int


@dataclass(frozen=True)
class TierChanged:
    old: int
    new: int


@dataclass(frozen=True)
class Victory:
    player: int
    vp: int


@dataclass(frozen=True)
class CheckpointScored:
    player: int
    checkpoint: str
    kind: Kind
    tier: int
    vp: int
    chain_bonus: int
    damage_to_each_other: int
    cards: int


@dataclass(frozen=True)
class CheckpointIgnored:
    player: int
    checkpoint: str
    reason: Literal["repeat", "decayed", "not in play"]


@dataclass(frozen=True)
class ChainMarkersChanged:
    player: int
    markers: int


@dataclass(frozen=True)
class TargetHit:
    player: int
    target: str
    damage: int
    total_damage: int
    capacity: int
    scored: bool
    destroyed: bool
    exploding: bool  # destroyed and explodes: apply engine.gravstrike.targeting.explosion_damage


@dataclass(frozen=True)
class EnemyDamaged:
    attacker: int
    victim: int
    sustained: int
    basic_vp: int
    leader_bonus: int


Event = Union[
    VPChanged, TierChanged, Victory, CheckpointScored, CheckpointIgnored,
    ChainMarkersChanged, TargetHit, EnemyDamaged,
]
Result = tuple[ScoreState, tuple[Event, ...]]


# ----------------------------------------------------------------------------------- rules


def tier_for(leader_vp: int, thresholds: tuple[int, int] = (4, 8)) -> int:
    """"Victory Point Tiers": leader 0-3 -> tier 1, 4-7 -> tier 2, 8+ -> tier 3."""
    return 1 + sum(1 for t in thresholds if leader_vp >= t)


@dataclass(frozen=True)
class CheckpointReward:
    vp: int
    chain_bonus: int
    damage: int
    cards: int


def checkpoint_reward(tier: int, kind: Kind, chain_markers: int = 0) -> CheckpointReward:
    """The "Checkpoints" table: outlying 1 + chain bonus, central = tier; damage and cards are
    1 in tiers 1-2 and 2 in tier 3."""
    if tier not in (1, 2, 3):
        raise ValueError(f"tier must be 1, 2 or 3, not {tier}")
    bonus = min(chain_markers, MAX_CHAIN_MARKERS) if kind == "outlying" else 0
    vp = 1 + bonus if kind == "outlying" else tier
    extra = 2 if tier == 3 else 1
    return CheckpointReward(vp=vp, chain_bonus=bonus, damage=extra, cards=extra)


def damage_vp_threshold(tier: int) -> int:
    """"Damaging Enemies": cards destroyed in one attack to earn 1 VP (5+ in tier 1, else 3+)."""
    return 5 if tier == 1 else 3


def _check_open(state: ScoreState) -> None:
    if state.winner is not None:
        raise GameOver(f"player {state.winner} has already won")


def _set_pilot(state: ScoreState, pilot: PilotScore) -> ScoreState:
    return replace(state, pilots=tuple(pilot if p.player == pilot.player else p for p in state.pilots))


def change_vp(state: ScoreState, player: int, delta: int, reason: str) -> Result:
    """Add (or, negative, remove) VP, honouring lock-in floors, tiers and victory."""
    _check_open(state)
    pilot = state.pilot(player)
    old_tier = state.tier
    vp = max(pilot.floor, pilot.vp + delta)
    floor = max([pilot.floor] + [lk for lk in state.rules.lock_ins if vp >= lk])
    state = _set_pilot(state, replace(pilot, vp=vp, floor=floor))
    events: list[Event] = [VPChanged(player, reason, delta, vp - pilot.vp, vp)]
    if state.tier != old_tier:
        events.append(TierChanged(old_tier, state.tier))
    if vp >= state.rules.vp_to_win:
        state = replace(state, winner=player)
        events.append(Victory(player, vp))
    return state, tuple(events)


def cross_checkpoint(
    state: ScoreState, player: int, checkpoint_id: str, kind: Kind, decaying: bool = False
) -> Result:
    """A turbine ends a length on a checkpoint (or crosses a gate, which scores like a
    checkpoint of its kind).

    It scores VP, then deals damage to every other turbine and draws cards (reported in the
    event).  No benefit for the same checkpoint twice in a row, nor for a decaying checkpoint
    another turbine already scored this turn.  Outlying checkpoints pay the chain markers held
    on arrival as a bonus and then give a marker (at most two).
    """
    _check_open(state)
    pilot = state.pilot(player)
    if pilot.last_checkpoint == checkpoint_id:
        return state, (CheckpointIgnored(player, checkpoint_id, "repeat"),)
    if decaying and checkpoint_id in state.decayed:
        # crossing another checkpoint, even without benefit, lifts the no-repeat block
        state = _set_pilot(state, replace(pilot, last_checkpoint=None))
        return state, (CheckpointIgnored(player, checkpoint_id, "decayed"),)
    tier = state.tier
    reward = checkpoint_reward(tier, kind, pilot.chain_markers)
    markers = min(MAX_CHAIN_MARKERS, pilot.chain_markers + 1) if kind == "outlying" else pilot.chain_markers
    state = _set_pilot(state, replace(pilot, last_checkpoint=checkpoint_id, chain_markers=markers))
    if decaying:
        state = replace(state, decayed=state.decayed | {checkpoint_id})
    scored = CheckpointScored(
        player, checkpoint_id, kind, tier, reward.vp, reward.chain_bonus, reward.damage, reward.cards
    )
    events: list[Event] = [scored]
    if markers != pilot.chain_markers:
        events.append(ChainMarkersChanged(player, markers))
    state, more = change_vp(state, player, reward.vp, f"checkpoint {checkpoint_id}")
    return state, (*events, *more)


def score_element(state: ScoreState, player: int, element: Checkpoint | Gate) -> Result:
    """:func:`cross_checkpoint` for a schema checkpoint or gate, under the scenario's variants
    (:mod:`engine.gravstrike.variants`): a gate scores only with the ``gates`` variant on (without
    it crossing one changes nothing, not even the no-repeat block), and an element decays only
    with the ``decaying_checkpoints`` variant on (a checkpoint when it is marked ``decaying``)."""
    _check_open(state)
    if isinstance(element, Gate) and not state.rules.variants.gates:
        return state, (CheckpointIgnored(player, element.id, "not in play"),)
    return cross_checkpoint(state, player, element.id, element.kind, decays(element, state.rules.variants))


def begin_turn(state: ScoreState) -> ScoreState:
    """A new turn: decaying checkpoints can be scored again."""
    return replace(state, turn=state.turn + 1, decayed=frozenset())


def damage_enemy(state: ScoreState, attacker: int, victim: int, sustained: int) -> Result:
    """VP for one attack (or intentional ram) that destroyed ``sustained`` of the victim's
    cards: 1 VP at the tier's threshold, plus 1 bonus VP for 5+ against a turbine that is the
    leader or tied for the lead with at least 1 VP (both judged before this attack's VP)."""
    _check_open(state)
    if attacker == victim:
        raise ValueError("a turbine cannot score for damaging itself")
    basic = 1 if sustained >= damage_vp_threshold(state.tier) else 0
    bonus = 1 if sustained >= LEADER_BONUS_DAMAGE and victim in state.leaders() else 0
    events: list[Event] = [EnemyDamaged(attacker, victim, sustained, basic, bonus)]
    if basic + bonus:
        state, more = change_vp(state, attacker, basic + bonus, f"damaged player {victim}")
        events.extend(more)
    return state, tuple(events)


def explode(state: ScoreState, player: int) -> Result:
    """"Exploding": -3 VP (not below a lock-in point reached) and all chain markers lost."""
    _check_open(state)
    pilot = state.pilot(player)
    events: list[Event] = []
    if pilot.chain_markers:
        state = _set_pilot(state, replace(pilot, chain_markers=0))
        events.append(ChainMarkersChanged(player, 0))
    state, more = change_vp(state, player, -EXPLOSION_PENALTY, "exploded")
    return state, (*events, *more)


def hit_static_target(state: ScoreState, player: int, target: StaticTarget, damage: int) -> Result:
    """A turbine's shot deals ``damage`` to a static target.

    1 VP for dealing at least 1 damage, once per turbine per target.  The target is destroyed
    when its damage reaches its capacity (1, or ``target.capacity`` with the resilient-targets
    variant); after that nobody can score it.  A destroyed ``exploding`` target (with the
    exploding-targets variant) is reported so the caller can apply the explosion.
    """
    _check_open(state)
    if damage < 0:
        raise ValueError("damage is non-negative")
    current = state.target(target.id)
    if current.destroyed:
        raise ValueError(f"static target {target.id} is already destroyed")
    played = as_played(target, state.rules.variants)
    capacity = played.capacity
    total = min(capacity, current.damage + damage)
    destroyed = total >= capacity
    pilot = state.pilot(player)
    scored = damage >= 1 and target.id not in pilot.scored_targets
    new_t = replace(current, damage=total, destroyed=destroyed)
    state = replace(state, targets=tuple(new_t if t.id == target.id else t for t in state.targets))
    if scored:
        state = _set_pilot(state, replace(pilot, scored_targets=pilot.scored_targets | {target.id}))
    hit = TargetHit(
        player, target.id, damage, total, capacity, scored, destroyed, destroyed and played.exploding
    )
    if not scored:
        return state, (hit,)
    state, more = change_vp(state, player, 1, f"static target {target.id}")
    return state, (hit, *more)
