"""Gravstrike's typed arena model: small frozen dataclasses built from a validated document.

Coordinates are in *lengths* (one turbine base length), x to the right, y up; angles are
degrees counter-clockwise from +x.  The shapes are the shared ones of :mod:`schema.shapes`.

Models are immutable; derive edited copies with :func:`dataclasses.replace`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Union

import shapely
from shapely.geometry import LineString, Point as ShapelyPoint
from shapely.geometry.base import BaseGeometry

from schema.starts import StartSets
from schema.ruleset import FORMAT
from schema.shapes import (CIRCLE_QUAD_SEGMENTS, AreaShape, BoundsShape, Circle, Extensions, Point, Polygon, Polyline,
                           Rect, Shape, Symmetry)

__all__ = ["FORMAT", "CIRCLE_QUAD_SEGMENTS", "AreaShape", "BoundsShape", "Circle", "Extensions", "Point", "Polygon",
           "Polyline", "Rect", "Shape", "Symmetry"]  # the shared shapes, as Gravstrike's model has always named them

SYSTEMS = ("gravstrike",)

@dataclass(frozen=True)
class Units:
    """Physical scale: ``length_mm`` millimetres per length when printed."""

    length_mm: float = 40.0


@dataclass(frozen=True)
class Turbine:
    """The reference turbine used by analysis."""

    length: float = 1.0
    width: float = 0.5
    speed_delta: int = 2
    max_speed: int = 6
    icons_per_turn: int | None = 3


@dataclass(frozen=True)
class Wall:
    id: str
    shape: Shape
    extensions: Extensions = field(default_factory=dict, hash=False, compare=True)


@dataclass(frozen=True)
class Checkpoint:
    id: str
    kind: Literal["outlying", "central"]
    shape: AreaShape
    decaying: bool = False
    extensions: Extensions = field(default_factory=dict, hash=False)


@dataclass(frozen=True)
class Gate:
    """A scoring line from ``start`` to ``end`` (``from``/``to`` in the file).

    When ``one_way`` it scores only when crossed from its right side to its left side, i.e.
    in the direction of the left-hand normal of ``start -> end``.
    """

    id: str
    kind: Literal["outlying", "central"]
    start: Point
    end: Point
    one_way: bool = False
    extensions: Extensions = field(default_factory=dict, hash=False)

    def to_shapely(self) -> BaseGeometry:
        return LineString([self.start, self.end])


@dataclass(frozen=True)
class AccelerationField:
    """``shape`` is the central activation area; ``direction`` the push, in degrees."""

    id: str
    shape: AreaShape
    direction: float
    extensions: Extensions = field(default_factory=dict, hash=False)


@dataclass(frozen=True)
class ExclusionField:
    id: str
    shape: AreaShape
    active_from_tier: int = 3
    extensions: Extensions = field(default_factory=dict, hash=False)


@dataclass(frozen=True)
class StaticTarget:
    id: str
    position: Point
    tn_modifier: int = 0
    capacity: int = 1
    exploding: bool = False
    extensions: Extensions = field(default_factory=dict, hash=False)

    def to_shapely(self) -> BaseGeometry:
        return ShapelyPoint(self.position)


@dataclass(frozen=True)
class StartPosition:
    player: int
    position: Point
    facing: float
    extensions: Extensions = field(default_factory=dict, hash=False)

    @property
    def id(self) -> str:
        """The reference other tools use for a start: ``start:N``."""
        return f"start:{self.player}"


@dataclass(frozen=True)
class Variants:
    """Scoring variants from the book's "Scoring Variants"."""

    gates: bool = False
    decaying_checkpoints: bool = False
    small_targets: bool = False
    resilient_targets: bool = False
    exploding_targets: bool = False


@dataclass(frozen=True)
class Analysis:
    """Thresholds the validators read."""

    tier: int = 1
    start_access_tolerance: float = 0.5
    start_spacing_tolerance: float = 1.0
    start_spacing_time_tolerance: float = 0.5
    checkpoint_min_turns: float = 2.0
    target_access_tolerance: float = 0.5
    target_tn_tolerance: int = 1
    safe_area_radius: float = 10.0
    safe_area_min_visible: float = 0.25
    disabled: tuple[str, ...] = ()
    #: Placement error of a piece put down by hand (tabletop robustness): lengths along each
    #: axis and degrees of turn.
    placement_tolerance: float = 0.25
    placement_angle_tolerance: float = 5.0


@dataclass(frozen=True)
class Scenario:
    players: int | None = None
    #: ``scenario.start_sets``: (player count, start numbers) pairs by count (:mod:`schema.starts`).
    start_sets: StartSets = ()
    vp_to_win: int = 12
    tier_thresholds: tuple[int, int] = (4, 8)
    veteran_limit: int = 0
    respawns: int = 2
    variants: Variants = Variants()
    analysis: Analysis = Analysis()


Element = Union[Wall, Checkpoint, Gate, AccelerationField, ExclusionField, StaticTarget, StartPosition]


@dataclass(frozen=True)
class Arena:
    name: str
    bounds: BoundsShape
    system: Literal["gravstrike"] = "gravstrike"
    format: str = FORMAT
    description: str | None = None
    author: str | None = None
    license: str | None = None
    tags: tuple[str, ...] = ()
    units: Units = Units()
    turbine: Turbine = Turbine()
    symmetry: Symmetry | None = None
    walls: tuple[Wall, ...] = ()
    checkpoints: tuple[Checkpoint, ...] = ()
    gates: tuple[Gate, ...] = ()
    acceleration_fields: tuple[AccelerationField, ...] = ()
    exclusion_fields: tuple[ExclusionField, ...] = ()
    static_targets: tuple[StaticTarget, ...] = ()
    start_positions: tuple[StartPosition, ...] = ()
    scenario: Scenario = Scenario()
    extensions: Extensions = field(default_factory=dict, hash=False)

    @property
    def players(self) -> int:
        """Players the scenario is for (defaults to the number of start positions)."""
        return self.scenario.players if self.scenario.players is not None else len(self.start_positions)

    def elements(self) -> tuple[Element, ...]:
        """Every element, in file order, kind by kind."""
        return (
            *self.walls,
            *self.checkpoints,
            *self.gates,
            *self.acceleration_fields,
            *self.exclusion_fields,
            *self.static_targets,
            *self.start_positions,
        )

    def element(self, ref: str) -> Element:
        """Find an element by id, or a start by ``start:N``; raises ``KeyError``."""
        for el in self.elements():
            if el.id == ref:
                return el
        raise KeyError(ref)

    def start(self, player: int) -> StartPosition:
        for s in self.start_positions:
            if s.player == player:
                return s
        raise KeyError(f"start:{player}")

    def bounds_geometry(self) -> BaseGeometry:
        return self.bounds.to_shapely()

    def walls_geometry(self) -> BaseGeometry:
        """Union of wall interiors (not including the bounds' edges)."""
        return shapely.union_all([w.shape.to_shapely() for w in self.walls])
