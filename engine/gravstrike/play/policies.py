"""The seats' policies: ``greedy`` and ``lookahead``.

``greedy``: at the start of a turn a turbine without a plan to follow asks the travel planner
(:meth:`engine.gravstrike.play.kit.Kit.soonest`: ``arena travel``'s search, from its pose and
speed) for the objective it can reach soonest and follows that least-time plan length by length,
speeds included, for as long as the turbine is where the plan expects it.  A lone turbine is
never disturbed, so it reaches each objective in exactly the planner's time from where it planned.
When it arrives mid-turn, or a ram or another turbine throws it off its plan, the rest of that
turn's lengths each take the maneuver (within the icons left) that ends nearest the next
objective by the planner's distance map, not ramming a wall or a turbine if it can help it.

``lookahead``: the same, except that the objective is chosen by looking one turn ahead: the
planner's plans to several objectives are scored by the VP each would give on arrival (tier,
chain bonus) per turn taken, less a decaying objective another turbine is likely to reach first
in the same turn, less the VP a ram costs when the plan's first turn passes where another
turbine is likely to be by then (straight on at its speed).

Every question a seat asks the planner goes through its :class:`~engine.gravstrike.play.kit.Frame`
(the parameter ``symmetric_frames``): on a symmetric arena, in the frame of the first start of its
orbit, so seats the arena treats alike decide alike.

Both shoot, in the Attack Phase, the standing static target they have not scored with the best
chance to hit (the attack model: :func:`engine.gravstrike.play.game.hit_chance`), if any is in
sight within 12 lengths.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping

from engine.gravstrike.events import Ram
from engine.gravstrike.length import TurnState
from engine.gravstrike.motion import Maneuver, Pose, move
from engine.gravstrike.planner import Goal, PathStep, TravelResult
from engine.gravstrike.play.game import POSE_TOLERANCE, Game, hit_chance
from engine.gravstrike.play.kit import HORIZONS, Frame
from engine.gravstrike.scoring import checkpoint_reward
from engine.gravstrike.variants import decays

#: Policies shoot only at static targets within this many lengths (centre to target): beyond,
#: the range modifier alone leaves a hit all but impossible.
SHOT_REACH = 12.0


def _same_pose(a: Pose, b: Pose) -> bool:
    dh = abs((a.heading - b.heading + 180.0) % 360.0 - 180.0)
    return abs(a.x - b.x) <= POSE_TOLERANCE and abs(a.y - b.y) <= POSE_TOLERANCE and dh <= 1e-6


@dataclass
class Plan:
    """A planner's plan being followed: made at the start of game turn ``base`` (its turn 1)."""

    result: TravelResult
    base: int
    source: Pose
    speed0: int
    broken: bool = False

    @property
    def goal(self) -> Goal:
        return self.result.goal

    def steps(self, t: int) -> list[PathStep]:
        return [s for s in self.result.path if s.turn == t]

    def end_of(self, t: int) -> tuple[Pose, int]:
        """Where the plan has the turbine, and at what speed, at the end of its turn ``t``."""
        before = [s for s in self.result.path if s.turn <= t]
        if not before:
            return self.source, self.speed0 if t < 1 else 0
        last = before[-1]
        speed = last.speed if last.turn == t else 0
        return Pose(last.x, last.y, last.heading), speed

    def speed_for(self, t: int) -> int:
        st = self.steps(t)
        return st[0].speed if st else 0

    def after_length(self, t: int, length: int) -> Pose | None:
        """The pose after length ``length`` of turn ``t`` (pushes included), None past the plan."""
        st = [s for s in self.steps(t) if s.length == length]
        return Pose(st[-1].x, st[-1].y, st[-1].heading) if st else None


class Greedy:
    """The ``greedy`` policy (see the module docstring); one object per seat."""

    def __init__(self, start: int) -> None:
        self.start = start
        self.plan: Plan | None = None

    def frame(self, game: Game) -> Frame:
        """This seat's questions to the planner (see the module docstring)."""
        return game.kit.frame(self.start, bool(game.p["symmetric_frames"]))

    # -- objectives ---------------------------------------------------------------------------
    def eligible(self, game: Game) -> list[Goal]:
        """Objectives that would score now: not the one scored last, not a decayed one."""
        pilot = game.score.pilot(self.start)
        return [o.goal for o in game.kit.objectives
                if o.id != pilot.last_checkpoint and o.id not in game.score.decayed]

    def choose(self, game: Game, pose: Pose, speed: int, goals: list[Goal]) -> TravelResult | None:
        count = [0]
        found = self.frame(game).soonest(game.tier(), pose, speed, goals, count)
        game.spend(count[0] + 1)
        return found

    def _plan_valid(self, game: Game) -> bool:
        plan, seat = self.plan, game.seats[self.start]
        if plan is None or plan.broken or plan.goal not in self.eligible(game):
            return False
        t = game.turn - plan.base + 1
        if t > plan.result.turns:
            return False
        pose, speed = plan.end_of(t - 1)
        return speed == seat.speed and _same_pose(pose, seat.pose)

    # -- the Decisions protocol, for this seat -------------------------------------------------
    def speed(self, game: Game) -> int:
        if not self._plan_valid(game):
            seat = game.seats[self.start]
            self.plan = None
            goals = self.eligible(game)
            found = self.choose(game, seat.pose, seat.speed, goals) if goals else None
            if found is not None:
                self.plan = Plan(found, game.turn, seat.pose, seat.speed)
        if self.plan is None:
            return game.seats[self.start].speed
        return self.plan.speed_for(game.turn - self.plan.base + 1)

    def pivot(self, game: Game, state: TurnState) -> tuple[int, float] | None:
        plan = self.plan
        if plan is None or plan.broken:
            return None
        st = plan.steps(game.turn - plan.base + 1)
        if st and st[0].maneuver.startswith("pivot"):
            words = st[0].maneuver.split()  # "pivot 30 about corner 2"
            return int(words[4]), float(words[1])
        return None

    def length(self, game: Game, state: TurnState) -> Maneuver:
        seat = game.seats[self.start]
        index = len(seat.moves) + 1
        plan = self.plan
        if plan is not None and not plan.broken:
            t = game.turn - plan.base + 1
            expected = plan.end_of(t - 1)[0] if index == 1 else plan.after_length(t, index - 1)
            step = [s for s in plan.steps(t) if s.length == index and s.pushed_by is None]
            if step and expected is not None and _same_pose(expected, seat.pose) and not game.score.pilot(
                    self.start).last_checkpoint == plan.goal.id:
                return Maneuver.parse(step[0].maneuver)
            plan.broken = True
        return self.fallback(game, state)

    def fallback(self, game: Game, state: TurnState) -> Maneuver:
        """The maneuver ending nearest the next objective by the distance map, avoiding rams."""
        seat = game.seats[self.start]
        goals = self.eligible(game)
        tier = game.tier()
        frame = self.frame(game)
        maps = [frame.distance(tier, g) for g in goals]
        here = [(m(seat.pose.x, seat.pose.y), frame.rank(g), i) for i, (g, m) in enumerate(zip(goals, maps))]
        dmap = maps[min(here)[2]] if here else None
        best: tuple[float, int] | None = None
        choice = Maneuver(0)
        for i, m in enumerate(frame.maneuvers(state.icons_left)):
            game.spend()
            end = move(seat.pose, m, game.turbine, state.reverse)
            if game.turbine_hit(self.start, end) is not None:
                continue
            r = game.kit.length(seat.pose, m, state, resolve_rams=False)
            if any(isinstance(e, Ram) for e in r.events):
                continue
            key = (0.0 if dmap is None else dmap(r.pose.x, r.pose.y), i)
            if best is None or key < best:
                best, choice = key, m
        return choice

    def shot(self, game: Game) -> str | None:
        seat = game.seats[self.start]
        frame = self.frame(game)
        best: tuple[float, str, str] | None = None
        for tid in game.shootable(self.start):
            target = next(t for t in game.kit.targets if t.id == tid)
            if math.hypot(target.position[0] - seat.pose.x, target.position[1] - seat.pose.y) > SHOT_REACH:
                continue
            tn = game.target_number(self.start, tid)
            if tn is None:
                continue
            chance = hit_chance(tn, float(game.p["attack_icons_mean"]))
            if chance > 0 and (best is None or (-chance, frame.target(tid)) < (-best[0], best[1])):
                best = (chance, frame.target(tid), tid)  # ties: the first in this seat's frame
        return None if best is None else best[2]


class Lookahead(Greedy):
    """The ``lookahead`` policy (see the module docstring)."""

    def choose(self, game: Game, pose: Pose, speed: int, goals: list[Goal]) -> TravelResult | None:
        count = [0]
        tier = game.tier()
        frame = self.frame(game)
        goals = sorted(goals, key=frame.rank)  # in this seat's frame's order, for ties
        found = frame.nearest(tier, pose, speed, goals, count)
        if not found:
            game.spend(count[0] + 1)
            return None
        # compare with the objectives within twice the soonest one's time
        horizon = next((h for h in HORIZONS if h >= 2.0 * found[0].time), HORIZONS[-1])
        have = {r.goal for r in found}
        limit = int(game.p["lookahead_objectives"])
        for goal in goals:
            if goal in have or len(found) >= limit:
                continue
            r = frame.plan(tier, pose, speed, goal, horizon)
            count[0] += 1
            if r.reachable:
                found.append(r)
        game.spend(count[0] + 1)
        pilot = game.score.pilot(self.start)
        others = [s for s in game.active() if s.start != self.start]
        predicted = {s.start: self._ahead(game, s.pose, s.speed) for s in others}
        order = {g: i for i, g in enumerate(goals)}

        def utility(r: TravelResult) -> tuple[float, float, int]:
            obj = game.kit.by_id[r.goal.id]
            value = float(checkpoint_reward(tier, obj.element.kind, pilot.chain_markers).vp)
            if decays(obj.element, game.arena.scenario.variants):
                for s in others:
                    soonest = frame.distance_at(tier, r.goal, s.pose.x, s.pose.y) / max(1, game.turbine.max_speed)
                    if soonest + float(game.p["contest_margin"]) < r.time and math.ceil(soonest) == math.ceil(r.time):
                        value = 0.0
            risk = 0.0
            for step in (s for s in r.path if s.turn == 1):
                for s in others:
                    if min(math.hypot(step.x - p.x, step.y - p.y) for p in (s.pose, predicted[s.start])) < 1.25:
                        risk = float(game.p["ram_risk_vp"])
            return ((value - risk) / max(r.time, 1.0 / 6.0), -r.time, -order[r.goal])

        return max(found, key=utility)

    @staticmethod
    def _ahead(game: Game, pose: Pose, speed: int) -> Pose:
        """Where a turbine is likely to be at the end of the turn: straight on at its speed."""
        for _ in range(abs(speed)):
            pose = move(pose, Maneuver(0), game.turbine, speed < 0)
        return pose


POLICIES: Mapping[str, type[Greedy]] = {"greedy": Greedy, "lookahead": Lookahead}


class Seats:
    """The game's :class:`engine.gravstrike.play.game.Decisions`: each seat's policy, and the
    dice (initiative ties, Attack icons) from the game's generator."""

    def __init__(self, policies: Mapping[int, Greedy]) -> None:
        self.by_seat = policies

    def speed(self, game: Game, start: int) -> int:
        return self.by_seat[start].speed(game)

    def initiative(self, game: Game, speeds: Mapping[int, int]) -> tuple[int, ...]:
        return game.initiative_by_rules(speeds)

    def pivot(self, game: Game, start: int, state: TurnState) -> tuple[int, float] | None:
        return self.by_seat[start].pivot(game, state)

    def length(self, game: Game, start: int, state: TurnState) -> Maneuver:
        return self.by_seat[start].length(game, state)

    def shot(self, game: Game, start: int) -> str | None:
        return self.by_seat[start].shot(game)

    def hit(self, game: Game, start: int, target: str, tn: int) -> bool:
        return bool(game.rng.poisson(float(game.p["attack_icons_mean"])) >= tn)
