"""What can happen at the end of a length of movement, as plain data.

>>> Ram("W1", damage=6, speed_before=6, speed_after=4, lengths_lost=2)
Ram(feature='W1', damage=6, speed_before=6, speed_after=4, lengths_lost=2, disentangled=True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Union

from engine.gravstrike.motion import Pose


@dataclass(frozen=True)
class Ram:
    """Rule "Resolving a Ram Against an Arena Feature": ``feature`` is a wall id or ``"bounds"``.

    The turbine suffers ``damage`` (its speed), loses 2 speed (minimum 0) and as many remaining
    lengths.  ``disentangled`` is False when no pivot cleared the overlap (blocked
    disentanglement: the turbine went back to where the length started and stopped).
    """

    feature: str
    damage: int
    speed_before: int
    speed_after: int
    lengths_lost: int
    disentangled: bool = True


@dataclass(frozen=True)
class FieldPush:
    """Rule "Acceleration Fields": moved one length along the field's direction."""

    field: str
    start: Pose
    end: Pose


@dataclass(frozen=True)
class CheckpointTouched:
    """Rule "Checkpoints": the footprint touches the checkpoint at the end of a length."""

    checkpoint: str


@dataclass(frozen=True)
class GateCrossed:
    """Scoring variant "Gates": the centre's path of this length crossed the gate."""

    gate: str


@dataclass(frozen=True)
class ExclusionDamage:
    """Rule "Exclusion Fields": 1 for entering, 2 for ending the Maneuver Phase with 2+ corners in."""

    field: str
    damage: int
    reason: Literal["entered", "ended"]


Event = Union[Ram, FieldPush, CheckpointTouched, GateCrossed, ExclusionDamage]
