"""One Gravstrike game played by the book's turn (book: "Turns and Phases"): the rules side.

Each turn: seats that exploded last turn respawn at their start at speed 0 ("Respawning");
the Acceleration Phase sets every speed at once (within the Speed Delta); initiative tokens go
by absolute speed, ties drawn at random ("Distributing Initiative Tokens"); each turbine moves
its lengths in token order, every length through :func:`engine.gravstrike.length.apply` (walls,
acceleration fields, checkpoints, exclusion fields by tier, gates; the kit keeps its answers:
:meth:`~engine.gravstrike.play.kit.Kit.length`) plus the rams between
turbines ("Resolving a Ram Against a Turbine"); the Attack Phase runs in reverse token order,
each turbine shooting at most one static target ("Static Targets"); then decaying checkpoints
open again.  Scores are :mod:`engine.gravstrike.scoring`'s (checkpoints with chain bonuses,
tiers, lock-ins, the explosion penalty, victory at the scenario's ``vp_to_win``).

What a seat does is asked of a :class:`Decisions` (a policy when playing, the record when
replaying); what the rules make of it is decided here only.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Protocol, Sequence

import numpy as np

from engine.gravstrike import events as ev
from engine.gravstrike import scoring as sc
from engine.gravstrike.length import (
    RAM_SPEED_LOSS,
    TurnState,
    apply_pivot,
    end_of_phase_damage,
    length_motion,
)
from engine.gravstrike.motion import IllegalManeuver, Maneuver, Pose, move, normalize_heading
from engine.gravstrike.play.kit import Kit
from engine.gravstrike.turns import initiative_order
from engine.play import Event, PieceState, PlaySetup, Turn

#: The engine's parameters and defaults (each a decision in docs/rules-decisions.md,
#: "Simulated play").
PARAMETERS: Mapping[str, Any] = {
    # the card game as a budget: Maneuver icons a turbine may spend a turn (None: the arena's
    # turbine's icons_per_turn)
    "icons_per_turn": None,
    # the attack model: Attack icons in hand at a shot ~ Poisson(mean); a shot hits when they
    # reach the TN
    "attack_icons_mean": 2.0,
    # damage a hit deals (a card's basic damage)
    "shot_damage": 2,
    # cards a turbine can lose before it explodes (a deck's 43 cards less its 3 fixtures)
    "deck_cards": 40,
    # damage a crash token deals (each turbine of a ram takes one)
    "crash_token_damage": 1,
    # the game's turn limit when the setup gives none
    "turn_limit": 40,
    # the speed a static target is shot as ("target as..." speed)
    "static_target_speed": 0,
    # the look-ahead policy: objectives compared, and how much sooner (turns) another turbine
    # must be able to reach a decaying objective for it to count as lost
    "lookahead_objectives": 4,
    "contest_margin": 0.5,
    # the look-ahead policy: VP a likely ram costs (the damage and lost speed, in VP)
    "ram_risk_vp": 0.5,
    # on an arena with a declared symmetry that holds, each seat plans in the frame of the first
    # start of its orbit (engine.gravstrike.play.kit.Frame), so that the planner's axis-aligned
    # raster cannot favour one of two starts the arena treats alike
    "symmetric_frames": True,
}

#: How close (lengths) a recorded pose must be to where the rules put it.
POSE_TOLERANCE = 1e-6


class GameStopped(Exception):
    """The game ended in the middle of a turn (a victory, or the work limit)."""


class RuleBreak(Exception):
    """A decision the rules refuse (raised while replaying a record): turn, seat and why."""

    def __init__(self, turn: int, start: int, reason: str) -> None:
        super().__init__(reason)
        self.turn, self.start, self.reason = turn, start, reason


@dataclass
class Seat:
    """One turbine in play."""

    start: int
    home: Pose
    pose: Pose
    speed: int = 0
    damage: int = 0
    respawns: int = 2
    down: bool = False  # exploded: sits out the rest of the turn, respawns next turn
    out: bool = False  # eliminated: no respawn left
    moves: list[str] = field(default_factory=list)  # this turn's lengths (maneuver labels)
    poses: list[list[float]] = field(default_factory=list)  # the pose after each length
    arrivals: list[list[Any]] = field(default_factory=list)  # [objective, length] scored this turn
    initiative: int = 0
    moved_speed: int = 0  # the speed set this turn (before rams)


class Decisions(Protocol):
    """What the seats decide (a policy while playing, the record while replaying)."""

    def speed(self, game: Game, start: int) -> int: ...

    def initiative(self, game: Game, speeds: Mapping[int, int]) -> tuple[int, ...]: ...

    def pivot(self, game: Game, start: int, state: TurnState) -> tuple[int, float] | None: ...

    def length(self, game: Game, start: int, state: TurnState) -> Maneuver: ...

    def shot(self, game: Game, start: int) -> str | None: ...

    def hit(self, game: Game, start: int, target: str, tn: int) -> bool: ...


def hit_chance(tn: int, mean: float) -> float:
    """P(Poisson(mean) >= tn): the attack model's chance that the Attack icons reach the TN."""
    if tn <= 0:
        return 1.0
    term = math.exp(-mean)
    below = 0.0
    for k in range(tn):
        below += term
        term *= mean / (k + 1)
    return max(0.0, 1.0 - below)


def _rects_overlap(a: Pose, b: Pose, length: float, width: float) -> bool:
    """Do two footprints overlap (more than touching)?  Separating axes of both rectangles."""
    if math.hypot(a.x - b.x, a.y - b.y) >= math.hypot(length, width) - 1e-9:
        return False
    hl, hw = length / 2.0, width / 2.0
    local = ((hl, hw), (-hl, hw), (-hl, -hw), (hl, -hw))
    # Footprint(pose).corners' float operations, each pose's cos and sin taken once
    ha, hb = math.radians(a.heading), math.radians(b.heading)
    csa, csb = (math.cos(ha), math.sin(ha)), (math.cos(hb), math.sin(hb))
    ca = [(a.x + lx * csa[0] - ly * csa[1], a.y + lx * csa[1] + ly * csa[0]) for lx, ly in local]
    cb = [(b.x + lx * csb[0] - ly * csb[1], b.y + lx * csb[1] + ly * csb[0]) for lx, ly in local]
    for c, s in (csa, csb):
        for ax, ay in ((c, s), (-s, c)):
            pa = [x * ax + y * ay for x, y in ca]
            pb = [x * ax + y * ay for x, y in cb]
            if max(pa) <= min(pb) + 1e-7 or max(pb) <= min(pa) + 1e-7:
                return False
    return True


class Game:
    """The state of one game and the rules that change it."""

    def __init__(self, kit: Kit, setup: PlaySetup, parameters: Mapping[str, Any]) -> None:
        self.kit = kit
        self.arena = kit.arena
        self.setup = setup
        self.p = dict(parameters)
        t = self.arena.turbine
        self.turbine = t
        self._apart = math.hypot(t.length, t.width) - 1e-9  # centres this far apart: no overlap
        self.budget: int | None = self.p["icons_per_turn"] if self.p["icons_per_turn"] is not None else t.icons_per_turn
        self.rng = np.random.default_rng(setup.seed)
        self.seats: dict[int, Seat] = {}
        for k in setup.starts:
            st = self.arena.start(k)
            home = Pose(float(st.position[0]), float(st.position[1]), normalize_heading(st.facing))
            self.seats[k] = Seat(k, home, home, respawns=self.arena.scenario.respawns)
        self.score = sc.ScoreState.new(tuple(setup.starts), sc.ScoreRules.from_scenario(self.arena.scenario),
                                       kit.targets)
        self.turn = 0
        self.work = 0
        self.events: list[Event] = []
        self.contacts: set[frozenset[int]] = set()
        self.ended: str | None = None
        self.turns: list[Turn] = []
        #: TNs measured this turn by (pose, target): the seats don't move in the Attack Phase
        self._tns: dict[tuple[float, float, float, str], int | None] = {}

    # ------------------------------------------------------------------ helpers
    def active(self) -> list[Seat]:
        return [s for s in self.seats.values() if not s.out and not s.down]

    def tier(self) -> int:
        return self.score.tier

    def spend(self, units: int = 1) -> None:
        """Count work; stop the game at the setup's bound."""
        self.work += units
        if self.setup.max_work is not None and self.work > self.setup.max_work and self.ended is None:
            self.ended = "work-limit"
            raise GameStopped

    def _event(self, kind: str, start: int, pose: Pose, other: str | None = None, points: float = 0.0,
               detail: str = "") -> None:
        self.events.append(Event(kind, start, round(pose.x, 9), round(pose.y, 9), other, points, detail))

    def _scored(self, start: int, result: sc.Result, pose: Pose) -> None:
        self.score = result[0]
        for e in result[1]:
            if isinstance(e, sc.TierChanged):
                self._event("tier", start, pose, str(e.new), detail=f"tier {e.old} -> {e.new}")
            elif isinstance(e, sc.Victory):
                self._event("victory", start, pose, points=e.vp, detail=f"{e.vp} VP")
                self.ended = "target"
                raise GameStopped

    def overlaps(self, a: Pose, b: Pose) -> bool:
        # _rects_overlap's first test, inline (most pairs are far apart): the same answer
        if math.hypot(a.x - b.x, a.y - b.y) >= self._apart:
            return False
        return _rects_overlap(a, b, self.turbine.length, self.turbine.width)

    def turbine_hit(self, start: int, pose: Pose) -> int | None:
        """The first other turbine (seat order) ``pose`` overlaps and is not already entangled with."""
        for s in self.active():
            if s.start != start and frozenset((start, s.start)) not in self.contacts and self.overlaps(pose, s.pose):
                return s.start
        return None

    # ------------------------------------------------------------------ damage
    def damage(self, start: int, amount: int, why: str) -> None:
        """``amount`` cards destroyed; the turbine explodes when its deck is gone ("Explosion")."""
        seat = self.seats[start]
        if amount <= 0 or seat.down or seat.out:
            return
        seat.damage += amount
        if seat.damage >= self.p["deck_cards"]:
            self.explode(start, why)

    def explode(self, start: int, why: str) -> None:
        seat = self.seats[start]
        seat.down = True
        self._event("explosion", start, seat.pose, detail=f"exploded ({why})")
        blast = {str(s.start): self.kit.blast(seat.pose, s.pose) for s in self.active()}
        self._scored(start, sc.explode(self.score, start), seat.pose)
        if seat.respawns > 0:
            seat.respawns -= 1
        else:
            seat.out = True
            self._event("eliminated", start, seat.pose)
        for k, d in blast.items():
            self.damage(int(k), d, f"turbine {start} exploded")

    # ------------------------------------------------------------------ the turn
    def play_turn(self, dec: Decisions) -> None:
        self.turn += 1
        self.events = []
        self._tns = {}
        for s in self.seats.values():
            s.moves, s.poses, s.arrivals, s.initiative = [], [], [], 0
            if s.down and not s.out:
                s.down, s.pose, s.speed, s.damage = False, s.home, 0, 0
                self._event("respawn", s.start, s.pose)
        try:
            speeds: dict[int, int] = {}
            for s in self.active():
                new = dec.speed(self, s.start)
                delta, vmax = self.turbine.speed_delta, min(6, self.turbine.max_speed)
                if abs(new) > vmax or abs(new - s.speed) > delta:
                    raise RuleBreak(self.turn, s.start, f"speed set from {s.speed} to {new}: more than the Speed "
                                    f"Delta {delta} or beyond {vmax} (\"The Acceleration Phase\")")
                speeds[s.start] = new
            for k, v in speeds.items():
                self.seats[k].speed = self.seats[k].moved_speed = v
            order = dec.initiative(self, speeds)
            for i, k in enumerate(order, start=1):
                self.seats[k].initiative = i
            for k in order:
                if not self.seats[k].down:
                    self.maneuver(k, dec)
            for k in reversed(order):
                if not self.seats[k].down:
                    self.attack(k, dec)
        except GameStopped:
            pass
        finally:
            self.score = sc.begin_turn(self.score)
            self.turns.append(self.snapshot())

    def snapshot(self) -> Turn:
        pieces = []
        for s in self.seats.values():
            pilot = self.score.pilot(s.start)
            state: dict[str, Any] = {
                "speed": s.moved_speed, "speed_after": s.speed, "initiative": s.initiative, "moves": list(s.moves),
                "poses": [list(p) for p in s.poses], "damage": s.damage, "vp": pilot.vp, "chain": pilot.chain_markers,
                "respawns": s.respawns, "arrivals": [list(a) for a in s.arrivals], "down": s.down,
            }
            pieces.append(PieceState(s.start, s.pose.x, s.pose.y, s.pose.heading, state, out=s.out))
        scores = {p.player: float(p.vp) for p in self.score.pilots}
        return Turn(self.turn, tuple(pieces), tuple(self.events), scores)

    def initiative_by_rules(self, speeds: Mapping[int, int]) -> tuple[int, ...]:
        """Token order by the book; ties drawn with a generator seeded from the game's."""
        rng = random.Random(int(self.rng.integers(0, 2**63 - 1)))
        return initiative_order(speeds, rng)

    # ------------------------------------------------------------------ the Maneuver Phase
    def maneuver(self, start: int, dec: Decisions) -> None:
        seat = self.seats[start]
        op = self.kit.frame(start, bool(self.p["symmetric_frames"])).op
        # the ties rule 4 of a ram leaves to the player: settled as the first start of the seat's
        # orbit settles them, seen through the seat's frame (a mirror image settles them mirrored)
        hand = -1 if op is not None and op.mirror else 1
        state = TurnState.start(seat.speed, icons=self.budget, tier=self.tier(), hand=hand)
        g = self.kit.geometry
        if seat.speed == 0:
            piv = dec.pivot(self, start, state)
            if piv is not None:
                corner, angle = piv
                try:
                    r = apply_pivot(g, seat.pose, corner, angle, state)
                except IllegalManeuver as exc:
                    raise RuleBreak(self.turn, start, str(exc)) from None
                self.spend()
                seat.moves.append(f"pivot {angle:g} about corner {corner}")
                seat.pose = r.pose
                seat.poses.append([r.pose.x, r.pose.y, r.pose.heading])
                self._length_events(start, r.events, 0)
                return
            for e in end_of_phase_damage(g, seat.pose, self.tier()):
                self._length_events(start, (e,), 0)
            return
        lengths = 0
        ended_by_apply = False
        while state.lengths_left > 0 and not seat.down:
            state = replace(state, tier=self.tier())
            m = dec.length(self, start, state)
            lengths += 1
            self.spend()
            try:
                state, ended_by_apply = self.one_length(start, m, state, lengths)
            finally:  # a victory mid-length ends the game with the length made
                seat.moves.append(m.label)
                seat.poses.append([seat.pose.x, seat.pose.y, seat.pose.heading])
        if not ended_by_apply and not seat.down:
            for e in end_of_phase_damage(g, seat.pose, self.tier()):
                self._length_events(start, (e,), lengths)

    def one_length(self, start: int, m: Maneuver, state: TurnState, index: int) -> tuple[TurnState, bool]:
        """Move one length; (the state after it, whether :func:`apply` already charged the end of
        the Maneuver Phase)."""
        seat = self.seats[start]
        g = self.kit.geometry
        if state.icons_left is not None and m.cost > state.icons_left:
            raise RuleBreak(self.turn, start, f"length {index}: {m.label} costs {m.cost} Maneuver icons but only "
                            f"{state.icons_left} of the turn's {self.budget} are left")
        before = seat.pose
        end = move(before, m, self.turbine, state.reverse)
        other = self.turbine_hit(start, end)
        if other is None:
            try:
                r = self.kit.length(before, m, state)
            except IllegalManeuver as exc:
                raise RuleBreak(self.turn, start, f"length {index}: {exc}") from None
            seat.pose, seat.speed = r.pose, r.state.speed
            self._length_events(start, r.events, index)
            state = r.state
            self._untangle(start)
            hit = self.turbine_hit(start, seat.pose)
            if hit is not None and not seat.down:  # a push or a disentangling pivot ended on a turbine
                state = self.ram(start, hit, state)
            return state, state.lengths_left == 0
        # "the one that's ramming stops moving at the point of collision": back along the length
        motion = length_motion(before, m, g, state.reverse)
        lo, hi = 0.0, 1.0
        for _ in range(40):
            mid = (lo + hi) / 2.0
            if self.overlaps(motion(mid), self.seats[other].pose):
                hi = mid
            else:
                lo = mid
        seat.pose = motion(lo)
        icons = None if state.icons_left is None else state.icons_left - m.cost
        state = replace(state, icons_left=icons, lengths_left=state.lengths_left - 1)
        touched = [ev.CheckpointTouched(z.id) for z in g.touching(g.checkpoints, seat.pose)]
        was_in = {z.id for z in g.overlapping(g.active_exclusions(state.tier), before)}
        entered = [ev.ExclusionDamage(z.id, 1, "entered") for z in g.overlapping(g.active_exclusions(state.tier), seat.pose)
                   if z.id not in was_in]
        self._length_events(start, (*touched, *entered), index)
        self._untangle(start)
        if not seat.down:
            state = self.ram(start, other, state)
        return state, False

    def _untangle(self, start: int) -> None:
        """Pairs that no longer overlap may collide again ("Turbines Overlapped After Collisions")."""
        for pair in list(self.contacts):
            if start in pair:
                a, b = tuple(pair)
                if not self.overlaps(self.seats[a].pose, self.seats[b].pose):
                    self.contacts.discard(pair)

    def ram(self, start: int, other: int, state: TurnState) -> TurnState:
        """"Resolving a Ram Against a Turbine" (steps 2-5)."""
        rammer, rammed = self.seats[start], self.seats[other]
        before = abs(state.speed)
        after = max(0, before - RAM_SPEED_LOSS)
        lost = before - after
        speed = -after if state.reverse else after
        state = replace(state, speed=speed, lengths_left=max(0, state.lengths_left - lost))
        rammer.speed = speed
        travel = rammer.pose.heading + (180.0 if state.reverse else 0.0)
        # shifted one width along its own axes, the way most nearly along the rammer's travel
        best = max((rammed.pose.heading + a for a in (0.0, 90.0, 180.0, 270.0)),
                   key=lambda a: (round(math.cos(math.radians(a - travel)), 9), -a))
        w = self.turbine.width
        target = Pose(rammed.pose.x + w * math.cos(math.radians(best)), rammed.pose.y + w * math.sin(math.radians(best)),
                      rammed.pose.heading)
        g = self.kit.geometry
        if g.ram_feature(target) is not None:  # the shift stops where it meets the feature
            src = rammed.pose
            lo, hi = 0.0, 1.0
            for _ in range(40):
                mid = (lo + hi) / 2.0
                if g.ram_feature(Pose(src.x + (target.x - src.x) * mid, src.y + (target.y - src.y) * mid,
                                      src.heading)) is None:
                    lo = mid
                else:
                    hi = mid
            target = Pose(src.x + (target.x - src.x) * lo, src.y + (target.y - src.y) * lo, src.heading)
        rammed.pose = target
        self._event("ram", start, rammer.pose, str(other),
                    detail=f"rammed turbine {other} at speed {before}: {before} damage each, speed {before} -> {after}")
        if self.overlaps(rammer.pose, rammed.pose):
            self.contacts.add(frozenset((start, other)))
        crash = int(self.p["crash_token_damage"])
        self.damage(other, before + crash, f"rammed by turbine {start}")
        self.damage(start, before + crash, f"rammed turbine {other}")
        return state

    def _length_events(self, start: int, events: Sequence[ev.Event], index: int) -> None:
        seat = self.seats[start]
        for e in events:
            if seat.down:
                return
            if isinstance(e, ev.Ram):
                self._event("ram", start, seat.pose, e.feature, detail=f"rammed {e.feature}: {e.damage} damage, speed "
                            f"{e.speed_before} -> {e.speed_after}")
                self.damage(start, e.damage, f"rammed {e.feature}")
            elif isinstance(e, ev.FieldPush):
                self._event("field", start, e.end, e.field, detail=f"pushed by {e.field}")
            elif isinstance(e, ev.ExclusionDamage):
                self._event("exclusion", start, seat.pose, e.field, detail=f"{e.damage} damage ({e.reason})")
                self.damage(start, e.damage, f"exclusion field {e.field}")
            elif isinstance(e, (ev.CheckpointTouched, ev.GateCrossed)):
                oid = e.checkpoint if isinstance(e, ev.CheckpointTouched) else e.gate
                obj = self.kit.by_id.get(oid)
                if obj is None:
                    continue
                result = sc.score_element(self.score, start, obj.element)
                scored = [x for x in result[1] if isinstance(x, sc.CheckpointScored)]
                if scored:
                    c = scored[0]
                    seat.arrivals.append([oid, index])
                    self._event("checkpoint", start, seat.pose, oid, c.vp,
                                f"{c.kind} {oid} at length {index}: {c.vp} VP (chain bonus {c.chain_bonus}), "
                                f"{c.damage_to_each_other} damage to each other turbine")
                    self._scored(start, result, seat.pose)
                    for s in self.active():
                        if s.start != start:
                            self.damage(s.start, c.damage_to_each_other, f"checkpoint {oid} scored by {start}")
                else:
                    self.score = result[0]

    # ------------------------------------------------------------------ the Attack Phase
    def target_number(self, start: int, target_id: str) -> int | None:
        """The TN for ``start`` shooting a static target, None without line of sight."""
        self.spend()  # work whether or not it was measured before (work is pure)
        pose = self.seats[start].pose
        key = (pose.x, pose.y, pose.heading, target_id)
        if key in self._tns:  # the policy's choice, measured again by the Attack Phase
            return self._tns[key]
        tn = self.kit.static_tn(pose, target_id, int(self.p["static_target_speed"]), self.turbine)
        self._tns[key] = tn
        return tn

    def shootable(self, start: int) -> list[str]:
        """Static targets standing that ``start`` has not scored yet."""
        pilot = self.score.pilot(start)
        return [t.id for t, st in zip(self.kit.targets, self.score.targets)
                if not st.destroyed and t.id not in pilot.scored_targets]

    def attack(self, start: int, dec: Decisions) -> None:
        choice = dec.shot(self, start)
        if choice is None:
            return
        seat = self.seats[start]
        if choice not in {t.id for t in self.kit.targets} or self.score.target(choice).destroyed:
            raise RuleBreak(self.turn, start, f"shot at static target {choice!r}, which is not standing")
        tn = self.target_number(start, choice)
        if tn is None:
            raise RuleBreak(self.turn, start, f"shot at static target {choice} without line of sight (\"Line of Sight\")")
        hit = dec.hit(self, start, choice, tn)
        if not hit:
            self._event("shot", start, seat.pose, choice, detail=f"missed {choice} (TN {tn})")
            return
        target = next(t for t in self.kit.targets if t.id == choice)
        result = sc.hit_static_target(self.score, start, target, int(self.p["shot_damage"]))
        hits = [x for x in result[1] if isinstance(x, sc.TargetHit)]
        self._event("shot", start, seat.pose, choice, 1.0 if hits and hits[0].scored else 0.0,
                    f"hit {choice} (TN {tn})")
        self._scored(start, result, seat.pose)
        if hits and hits[0].exploding:
            position = (float(target.position[0]), float(target.position[1]))
            for k, d in {str(s.start): self.kit.blast(position, s.pose) for s in self.active()}.items():
                self.damage(int(k), d, f"static target {choice} exploded")

    # ------------------------------------------------------------------ the end
    def winners(self) -> tuple[int, ...]:
        if not self.turns:
            return tuple(self.setup.starts)
        best = max(self.score.pilot(k).vp for k in self.setup.starts)
        return tuple(k for k in self.setup.starts if self.score.pilot(k).vp == best)
