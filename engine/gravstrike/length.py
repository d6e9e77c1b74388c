"""One length of movement with its end-of-length checks (rule "In the Middle of a Length of
Movement...": things are only checked where a length ends).

After the turbine has moved its length, the checks run at the pose where it stopped:

1. ram: the footprint overlaps a wall or leaves the bounds ("Resolving a Ram Against an Arena
   Feature");
2. checkpoints touched there ("ends a length of movement on a checkpoint"), and exclusion fields
   active at the tier that it now overlaps but did not where the length began (1 damage each);
3. acceleration fields: touching the activation area of a field that has not moved the turbine
   this turn pushes it one length along the field's direction without turning it; this does not
   use up a length, and the checks repeat from 1 at the pose the push ends on - so a checkpoint
   touched before a push counts as well as one touched after it;
4. gates whose segment the centre's path (the length and its pushes) crossed;
5. ending the Maneuver Phase (the last length of the turn) with two or more corners inside an
   active exclusion field costs 2.

A checkpoint, gate or exclusion field counts at most once per length.

>>> from schema.games.gravstrike.model import Arena, Rect, Wall
>>> arena = Arena(name="t", bounds=Rect((0.0, 0.0), (20.0, 20.0)),
...               walls=(Wall("W", Rect((4.8, 0.0), (1.0, 6.0))),))
>>> g = ArenaGeometry(arena)
>>> state = TurnState.start(speed=6, lengths=8)        # speed 6 playing "Redline Runner"
>>> pose = Pose(0.0, 0.0, 0.0)
>>> for _ in range(4):
...     r = apply(g, pose, Maneuver(0), state)
...     pose, state = r.pose, r.state
>>> r.events[0]
Ram(feature='W', damage=6, speed_before=6, speed_after=4, lengths_lost=2, disentangled=True)
>>> state.speed, state.lengths_left
(4, 2)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Callable

from engine.gravstrike.events import CheckpointTouched, Event, ExclusionDamage, FieldPush, GateCrossed, Ram
from engine.gravstrike.geometry import ArenaGeometry
from engine.gravstrike.motion import (
    PIVOT_COST,
    Footprint,
    IllegalManeuver,
    Maneuver,
    Pose,
    centre_path,
    move,
    normalize_heading,
    pivot,
    push,
)

#: Rams lose this much speed (rule "Resolving a Ram Against an Arena Feature", step 3).
RAM_SPEED_LOSS = 2
#: Disentangling pivots are searched in steps of this many degrees.
DISENTANGLE_STEP = 1
#: Corners of a disentangling turbine closer to equally far from the contact than this (lengths)
#: count as tied, as the turning ways do when both clear at the same step: the rule (furthest
#: corner, least rotation) does not decide between them, so the player does - see
#: :attr:`TurnState.hand`.  Larger than the error of coordinates written to four decimals (a
#: symmetric arena's corners are), which must not decide for the player.
DISENTANGLE_TIE = 1e-3
#: Blocked disentanglement backs up to the point of impact to within this fraction of the motion.
BACK_UP_PRECISION = 1e-6
#: The largest pivot (rule "Pivots": "by any amount up to 360 degrees").
MAX_PIVOT = 360.0

#: A motion as a function of its progress u in [0, 1] (0 = where it began, 1 = where it ended).
Motion = Callable[[float], Pose]


@dataclass(frozen=True)
class TurnState:
    """Where a turbine is in its Maneuver Phase.

    ``lengths_left`` usually equals ``abs(speed)`` at the start of the turn (cards such as
    Redline Runner change it); ``icons_left`` is None for an unlimited budget;
    ``fields_used`` holds the acceleration fields that already moved the turbine this turn;
    ``backwards`` records that the turbine travels in reverse (it matters once a ram has cut the
    speed to 0 while card-given lengths are left); ``pivoted`` that it pivoted this phase.
    ``hand`` is how its player settles what rule 4 of a ram ("pivot around its corner furthest
    from the point of contact ... in the direction that will cause the least rotation") leaves
    open - two corners equally far (a head-on ram), both ways turning as little: 1, the lower
    numbered corner and counter-clockwise first; -1, its mirror image (the higher numbered corner,
    clockwise first), which is how a player whose seat is the mirror image of another's settles
    the same tie (simulated play: :class:`engine.gravstrike.play.kit.Frame`).
    """

    speed: int
    lengths_left: int
    icons_left: int | None = 3
    fields_used: frozenset[str] = field(default_factory=frozenset)
    tier: int = 1
    backwards: bool = False
    pivoted: bool = False
    hand: int = 1

    @classmethod
    def start(cls, speed: int, lengths: int | None = None, icons: int | None = 3, tier: int = 1,
              hand: int = 1) -> TurnState:
        """The state at the start of a Maneuver Phase at ``speed`` (negative = in reverse)."""
        return cls(speed, abs(speed) if lengths is None else lengths, icons, frozenset(), tier, speed < 0, False, hand)

    @property
    def reverse(self) -> bool:
        """Does the turbine move backwards ("About Traveling in Reverse")?"""
        return self.speed < 0 or (self.speed == 0 and self.backwards)


@dataclass(frozen=True)
class LengthResult:
    """What one length did: the new pose and state, the events in order, the centre's path."""

    pose: Pose
    state: TurnState
    events: tuple[Event, ...]
    path: tuple[tuple[float, float], ...]

    @property
    def damage(self) -> int:
        total = 0
        for e in self.events:
            if isinstance(e, (Ram, ExclusionDamage)):
                total += e.damage
        return total


def _contact_point(geometry: ArenaGeometry, pose: Pose, feature: str) -> tuple[float, float]:
    """Where the footprint meets ``feature`` (the centroid of the overlap; for a circular wall,
    the footprint's point nearest the circle's centre)."""
    circle = geometry.wall_circles.get(feature)
    if circle is not None:
        cx, cy, _ = circle
        h = math.radians(pose.heading)
        c, s = math.cos(h), math.sin(h)
        lx, ly = (cx - pose.x) * c + (cy - pose.y) * s, -(cx - pose.x) * s + (cy - pose.y) * c
        t = geometry.turbine
        lx = max(-t.length / 2.0, min(t.length / 2.0, lx))
        ly = max(-t.width / 2.0, min(t.width / 2.0, ly))
        return (pose.x + lx * c - ly * s, pose.y + lx * s + ly * c)
    fp = geometry.footprint(pose)
    if feature == "bounds":
        overlap = fp.difference(geometry.bounds)
    else:
        wall = dict(geometry.walls)[feature]
        overlap = fp.intersection(wall)
    if overlap.is_empty:
        return (pose.x, pose.y)
    c = overlap.centroid
    return (float(c.x), float(c.y))


def disentangle(geometry: ArenaGeometry, pose: Pose, feature: str, hand: int = 1) -> Pose | None:
    """Pivot about the corner furthest from the contact until nothing overlaps, least rotation
    first (whole degrees, either direction); None when no pivot up to 180 degrees clears.  Ties
    (corners within :data:`DISENTANGLE_TIE` of the furthest, both ways clearing at one step) go
    as ``hand`` says (:attr:`TurnState.hand`)."""
    cx, cy = _contact_point(geometry, pose, feature)
    corners = Footprint.of(pose, geometry.turbine).corners
    dist = [math.hypot(x - cx, y - cy) for x, y in corners]
    tied = [i for i in range(4) if dist[i] >= max(dist) - DISENTANGLE_TIE]
    far = min(tied) if hand >= 0 else max(tied)
    for step in range(DISENTANGLE_STEP, 181, DISENTANGLE_STEP):
        for sign in (hand, -hand) if hand else (1, -1):
            cand = pivot(pose, far, sign * step, geometry.turbine)
            if geometry.ram_feature(cand) is None:
                return cand
    return None


def back_up(geometry: ArenaGeometry, motion: Motion) -> Pose:
    """Rule "Blocked Disentanglement": "back your turbine up along its original direction of
    travel to the point of impact" - from where ``motion`` ended, back along it to the last pose
    at which the footprint overlaps nothing (touching is not overlapping); ``motion(0)``, where
    the motion began, if the whole way back overlaps.

    >>> from schema.games.gravstrike.model import Arena, Rect, Wall
    >>> g = ArenaGeometry(Arena(name="t", bounds=Rect((0.0, 0.0), (20.0, 20.0)),
    ...                         walls=(Wall("W", Rect((1.0, 0.0), (0.4, 4.0))),)))
    >>> back_up(g, lambda u: Pose(-0.5 + u, 0.0, 0.0))      # the front meets the wall at x = 0.8
    Pose(x=0.300, y=0.000, heading=0)
    """
    samples = 64
    free, blocked = 0.0, 1.0
    for i in range(samples - 1, -1, -1):
        u = i / samples
        if geometry.ram_feature(motion(u)) is None:
            free, blocked = u, (i + 1) / samples
            break
    else:
        return motion(0.0)
    while blocked - free > BACK_UP_PRECISION:
        mid = (free + blocked) / 2.0
        if geometry.ram_feature(motion(mid)) is None:
            free = mid
        else:
            blocked = mid
    return motion(free)


def length_motion(start: Pose, maneuver: Maneuver, geometry: ArenaGeometry, reverse: bool) -> Motion:
    """The turbine's pose along one length: the arc (or straight line), then the sideslip."""
    t = geometry.turbine
    a = math.radians(maneuver.turn)
    slip = float(maneuver.sideslip) * t.width
    base = start.heading + (180.0 if reverse else 0.0)
    flip = 180.0 if reverse else 0.0
    arc_len = t.length
    total = arc_len + abs(slip)

    def at(u: float) -> Pose:
        d = u * total
        f = min(1.0, d / arc_len)
        if maneuver.turn == 0:
            lx, ly = t.length * f, 0.0
        else:
            radius = t.length / abs(a)
            lx = radius * math.sin(abs(a) * f)
            ly = math.copysign(radius * (1.0 - math.cos(abs(a) * f)), a)
        heading = base + math.degrees(a) * f
        if d > arc_len and slip:
            g = (d - arc_len) / abs(slip) * slip
            lx += -math.sin(a) * g
            ly += math.cos(a) * g
        h = math.radians(base)
        c, s = math.cos(h), math.sin(h)
        return Pose(start.x + lx * c - ly * s, start.y + lx * s + ly * c, normalize_heading(heading + flip))

    return at


def _line_motion(start: Pose, end: Pose) -> Motion:
    return lambda u: Pose(start.x + (end.x - start.x) * u, start.y + (end.y - start.y) * u, start.heading)


def _check_icons(state: TurnState, cost: int) -> int | None:
    if state.icons_left is None:
        return None
    if cost > state.icons_left:
        raise IllegalManeuver(f"the maneuver costs {cost} icons but only {state.icons_left} are left this turn")
    return state.icons_left - cost


def apply(geometry: ArenaGeometry, pose: Pose, maneuver: Maneuver, state: TurnState, resolve_rams: bool = True) -> LengthResult:
    """Move one length with ``maneuver`` from ``pose`` and run the end-of-length checks.

    Raises :class:`IllegalManeuver` when no length is left to move or the maneuver costs more
    icons than are left (the game would make you push or skid; the engine refuses).  With
    ``resolve_rams=False`` a ram ends the length at once: the result holds the Ram event (not
    disentangled) and the overlapping pose, and no further checks run (for searches that
    discard rams).
    """
    if state.lengths_left <= 0:
        raise IllegalManeuver("no length of movement is left this turn")
    icons_left = _check_icons(state, maneuver.cost)
    reverse = state.reverse
    start = pose
    path = centre_path(pose, maneuver, geometry.turbine, reverse)
    motion = length_motion(start, maneuver, geometry, reverse)
    pose = move(pose, maneuver, geometry.turbine, reverse)
    events: list[Event] = []
    speed, lengths_left, used = state.speed, state.lengths_left, set(state.fields_used)
    active = geometry.active_exclusions(state.tier)
    was_in = {z.id for z in geometry.overlapping(active, start)}
    counted: set[str] = set()
    gate_from = 0  # the part of the path not yet tested against the gates
    while True:
        feature = geometry.ram_feature(pose)
        if feature is not None:
            before = abs(speed)
            after = max(0, before - RAM_SPEED_LOSS)
            if not resolve_rams:
                events.append(Ram(feature, before, before, after, before - after, False))
                new_state = TurnState(-after if reverse else after, max(0, lengths_left - 1 - (before - after)),
                                      icons_left, frozenset(used), state.tier, reverse, state.pivoted, state.hand)
                return LengthResult(pose, new_state, tuple(events), tuple(path))
            freed = disentangle(geometry, pose, feature, state.hand)
            damage, disentangled = before, freed is not None
            if freed is None:  # blocked disentanglement: back up to the point of impact and stop
                freed, damage, after = back_up(geometry, motion), before + after, 0
            lost = before - after
            events.append(Ram(feature, damage, before, after, lost, disentangled))
            speed = -after if reverse else after
            lengths_left = max(0, lengths_left - lost)
            pose = freed
        for zone in geometry.touching(geometry.checkpoints, pose):
            if zone.id not in counted:
                counted.add(zone.id)
                events.append(CheckpointTouched(zone.id))
        for zone in geometry.overlapping(active, pose):
            if zone.id not in was_in and zone.id not in counted:
                counted.add(zone.id)
                events.append(ExclusionDamage(zone.id, 1, "entered"))
        for gid in geometry.crossed_gates(path[gate_from:]):
            if gid not in counted:
                counted.add(gid)
                events.append(GateCrossed(gid))
        gate_from = len(path) - 1
        field_zone = next((z for z in geometry.touching(geometry.fields, pose) if z.id not in used), None)
        if field_zone is None:
            break
        used.add(field_zone.id)
        new = push(pose, field_zone.direction, geometry.turbine)
        events.append(FieldPush(field_zone.id, pose, new))
        path.append((new.x, new.y))
        motion = _line_motion(pose, new)
        pose = new
    lengths_left = max(0, lengths_left - 1)
    if lengths_left == 0:
        events.extend(end_of_phase_damage(geometry, pose, state.tier))
    new_state = TurnState(speed, lengths_left, icons_left, frozenset(used), state.tier, reverse, state.pivoted,
                          state.hand)
    return LengthResult(pose, new_state, tuple(events), tuple(path))


def end_of_phase_damage(geometry: ArenaGeometry, pose: Pose, tier: int) -> list[ExclusionDamage]:
    """2 damage per active exclusion field holding two or more footprint corners."""
    return [
        ExclusionDamage(z.id, 2, "ended")
        for z in geometry.active_exclusions(tier)
        if geometry.corners_inside(z, pose) >= 2
    ]


def apply_pivot(geometry: ArenaGeometry, pose: Pose, corner: int, angle: float, state: TurnState) -> LengthResult:
    """Rule "Pivots": at speed 0 only, once per Maneuver Phase, rotate about a corner by up to
    360 degrees either way for 1 icon.

    A pivot that ends overlapping a wall or leaving the bounds is a 0-damage ram (rule "Modified
    Ramming Damage": "0 damage rams (such as when a pivoting turbine rams something)"), resolved
    as any ram: the turbine pivots about its corner furthest from the contact until it is clear,
    or, if that is blocked, turns back along the pivot to the point of impact.  A pivot is not a
    length of movement, so it enters no exclusion field; the Maneuver Phase ends with it (2
    damage for two or more corners inside an active exclusion field).
    """
    if state.speed != 0:
        raise IllegalManeuver("a turbine can only pivot at speed 0")
    if state.pivoted:
        raise IllegalManeuver("a turbine pivots at most once in a Maneuver Phase")
    if not (math.isfinite(angle) and abs(angle) <= MAX_PIVOT):
        raise IllegalManeuver(f"a pivot turns at most {MAX_PIVOT:g} degrees either way, not {angle}")
    icons_left = _check_icons(state, PIVOT_COST)
    new = pivot(pose, corner, angle, geometry.turbine)
    events: list[Event] = []
    feature = geometry.ram_feature(new)
    if feature is not None:
        freed = disentangle(geometry, new, feature, state.hand)
        events.append(Ram(feature, 0, 0, 0, 0, freed is not None))
        if freed is None:  # blocked: turn back along the pivot to the point of impact
            freed = back_up(geometry, lambda u: pivot(pose, corner, angle * u, geometry.turbine))
        new = freed
    events.extend(end_of_phase_damage(geometry, new, state.tier))
    return LengthResult(new, replace(state, icons_left=icons_left, pivoted=True), tuple(events),
                        ((pose.x, pose.y), (new.x, new.y)))

