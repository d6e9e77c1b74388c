"""One length of movement with its end-of-length checks (rule "In the Middle of a Length of
Movement...": things are only checked where a length ends).

The checks run in this order after the turbine has moved its length:

1. ram: the footprint overlaps a wall or leaves the bounds ("Resolving a Ram Against an Arena
   Feature");
2. acceleration fields: touching the activation area of a field that has not moved the turbine
   this turn pushes it one length along the field's direction without turning it; this does not
   use up a length, and the checks repeat from 1;
3. checkpoints touched, and gates whose segment the centre's path crossed;
4. exclusion fields active at the tier: entering one costs 1 damage; ending the Maneuver Phase
   (the last length of the turn) with two or more corners inside one costs 2.

>>> from schema.model import Arena, Rect, Wall
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


from engine.events import CheckpointTouched, Event, ExclusionDamage, FieldPush, GateCrossed, Ram
from engine.geometry import ArenaGeometry
from engine.motion import PIVOT_COST, Footprint, IllegalManeuver, Maneuver, Pose, centre_path, move, pivot, push

#: Rams lose this much speed (rule "Resolving a Ram Against an Arena Feature", step 3).
RAM_SPEED_LOSS = 2
#: Disentangling pivots are searched in steps of this many degrees.
DISENTANGLE_STEP = 1


@dataclass(frozen=True)
class TurnState:
    """Where a turbine is in its Maneuver Phase.

    ``lengths_left`` usually equals ``abs(speed)`` at the start of the turn (cards such as
    Redline Runner change it); ``icons_left`` is None for an unlimited budget;
    ``fields_used`` holds the acceleration fields that already moved the turbine this turn.
    """

    speed: int
    lengths_left: int
    icons_left: int | None = 3
    fields_used: frozenset[str] = field(default_factory=frozenset)
    tier: int = 1

    @classmethod
    def start(cls, speed: int, lengths: int | None = None, icons: int | None = 3, tier: int = 1) -> TurnState:
        """The state at the start of a Maneuver Phase at ``speed``."""
        return cls(speed, abs(speed) if lengths is None else lengths, icons, frozenset(), tier)


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


def disentangle(geometry: ArenaGeometry, pose: Pose, feature: str) -> Pose | None:
    """Pivot about the corner furthest from the contact until nothing overlaps, least rotation
    first (whole degrees, either direction); None when no pivot up to 180 degrees clears."""
    cx, cy = _contact_point(geometry, pose, feature)
    corners = Footprint.of(pose, geometry.turbine).corners
    far = max(range(4), key=lambda i: math.hypot(corners[i][0] - cx, corners[i][1] - cy))
    for step in range(DISENTANGLE_STEP, 181, DISENTANGLE_STEP):
        for sign in (1, -1):
            cand = pivot(pose, far, sign * step, geometry.turbine)
            if geometry.ram_feature(cand) is None:
                return cand
    return None


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
    if state.lengths_left <= 0 or state.speed == 0:
        raise IllegalManeuver("no length of movement is left this turn")
    icons_left = _check_icons(state, maneuver.cost)
    reverse = state.speed < 0
    start = pose
    path = centre_path(pose, maneuver, geometry.turbine, reverse)
    pose = move(pose, maneuver, geometry.turbine, reverse)
    events: list[Event] = []
    speed, lengths_left, used = state.speed, state.lengths_left, set(state.fields_used)
    while True:
        feature = geometry.ram_feature(pose)
        if feature is not None and not resolve_rams:
            before = abs(speed)
            after = max(0, before - RAM_SPEED_LOSS)
            events.append(Ram(feature, before, before, after, before - after, False))
            new_state = TurnState(after if speed > 0 else -after, max(0, lengths_left - 1 - (before - after)), icons_left, frozenset(used), state.tier)
            return LengthResult(pose, new_state, tuple(events), tuple(path))
        if feature is not None:
            before = abs(speed)
            after = max(0, before - RAM_SPEED_LOSS)
            freed = disentangle(geometry, pose, feature)
            damage = before
            if freed is None:  # blocked disentanglement: back to where the length began, stop
                freed, damage, after = start, before + after, 0
            lost = before - after
            events.append(Ram(feature, damage, before, after, lost, freed is not start))
            speed = after if speed > 0 else -after
            lengths_left = max(0, lengths_left - lost)
            pose = freed
        pushed = False
        for zone in geometry.touching(geometry.fields, pose):
            if zone.id not in used:
                used.add(zone.id)
                new = push(pose, zone.direction, geometry.turbine)
                events.append(FieldPush(zone.id, pose, new))
                path.append((new.x, new.y))
                pose, pushed = new, True
                break
        if not pushed:
            break
    for zone in geometry.touching(geometry.checkpoints, pose):
        events.append(CheckpointTouched(zone.id))
    for gid in geometry.crossed_gates(path):
        events.append(GateCrossed(gid))
    active = geometry.active_exclusions(state.tier)
    was_in = {z.id for z in geometry.overlapping(active, start)}
    for zone in geometry.overlapping(active, pose):
        if zone.id not in was_in:
            events.append(ExclusionDamage(zone.id, 1, "entered"))
    lengths_left = max(0, lengths_left - 1)
    if lengths_left == 0:
        events.extend(end_of_phase_damage(geometry, pose, state.tier))
    new_state = TurnState(speed, lengths_left, icons_left, frozenset(used), state.tier)
    return LengthResult(pose, new_state, tuple(events), tuple(path))


def end_of_phase_damage(geometry: ArenaGeometry, pose: Pose, tier: int) -> list[ExclusionDamage]:
    """2 damage per active exclusion field holding two or more footprint corners."""
    return [
        ExclusionDamage(z.id, 2, "ended")
        for z in geometry.active_exclusions(tier)
        if geometry.corners_inside(z, pose) >= 2
    ]


def apply_pivot(geometry: ArenaGeometry, pose: Pose, corner: int, angle: float, state: TurnState) -> LengthResult:
    """Rule "Pivots": at speed 0 only, rotate about a corner for 1 icon.

    A pivot that ends overlapping a wall or leaving the bounds is a 0-damage ram; the engine
    then leaves the turbine where it was (the simplest legal disentanglement).
    """
    if state.speed != 0:
        raise IllegalManeuver("a turbine can only pivot at speed 0")
    icons_left = _check_icons(state, PIVOT_COST)
    new = pivot(pose, corner, angle, geometry.turbine)
    events: list[Event] = []
    feature = geometry.ram_feature(new)
    if feature is not None:
        events.append(Ram(feature, 0, 0, 0, 0, False))
        new = pose
    events.extend(end_of_phase_damage(geometry, new, state.tier))
    return LengthResult(new, replace(state, icons_left=icons_left), tuple(events), ((pose.x, pose.y), (new.x, new.y)))


