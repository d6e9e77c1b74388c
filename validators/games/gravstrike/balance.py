"""Gravstrike's balance hook (its ruleset's ``balance``): which moves may remove each finding with
a geometric cause, and how a move carries to the arena's symmetric images.

Seeds per finding (the validators' own advice, made a direction):

- ``start-checkpoint-access``, nearest gap (slow, fast, checkpoint): the slow start toward its
  nearest checkpoint, the fast start away from its own, the checkpoint toward the slow start;
  mean gap (high, low): the high start toward the checkpoints' middle, the low one away from it;
- ``start-spacing`` (close, neighbour, far): the close start away from its neighbour and back,
  the far start toward its nearest; in turns (quick, slow): the quick start away from its nearest
  start, the slow one toward its nearest;
- ``checkpoint-spacing`` (a, b): each away from the other, then each out from the centre, then
  each square to the line between them (either way: one in a corner can only slide along an edge);
- ``exclusion-placement``, ``overlap`` (an element and what it is in or on): the element away from
  it, then it away from the element; two starts that overlap: apart;
- ``bounds``: the element toward the centre;
- ``target-access``: the start toward its target, the target toward the start (the blind start:
  toward the nearest target and back);
- ``field-orbit``: each turning field turned, either way;
- ``wall-tunnelling``: the acceleration fields within reach of the wall away from it, then turned.

Steps: 0.25 to 8 lengths and 10° to 180°.  A piece on the table must stay on it.  A move carries to an element's images under the
symmetry operations the arena has (:func:`engine.gravstrike.invariance.invariances`): averaged over those
that fix the element, then mapped by each operation's linear part (a turn reverses under a
reflection).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from engine.gravstrike import placement_error
from engine.placement import EDGE_SLACK, Offset
from schema.games.gravstrike.model import (AccelerationField, Arena, Checkpoint, ExclusionField, Gate, StartPosition, StaticTarget,
                          Wall)
from validators.balance_hooks import Seed, carry
from validators.findings import Finding
from validators.games.gravstrike.common import arena_centre, element_geometry
from validators.report import Report
from engine.gravstrike.invariance import Invariance, invariances

#: The element kinds (``--free``) and the arena's lists they cover.
FREE = {"starts": ("start_positions",), "checkpoints": ("checkpoints",),
        "fields": ("acceleration_fields", "exclusion_fields"), "walls": ("walls",), "targets": ("static_targets",),
        "gates": ("gates",)}
#: Reach of a wall's push-tunnelling: fields nearer than this (lengths) may be what carries a turbine through.
FIELD_REACH = 4.0

_KIND = {StartPosition: "starts", Checkpoint: "checkpoints", AccelerationField: "fields", ExclusionField: "fields",
         Wall: "walls", StaticTarget: "targets", Gate: "gates"}
_PREFIX = {Checkpoint: "checkpoint:", StaticTarget: "target:", Gate: "gate:"}
_NAME = {Checkpoint: "checkpoint", AccelerationField: "field", ExclusionField: "exclusion field", Wall: "wall",
         StaticTarget: "target", Gate: "gate"}


@lru_cache(maxsize=64)
def _invariances(arena: Arena) -> tuple[Invariance, ...]:
    return tuple(invariances(arena))


def _centre(arena: Arena, ref: str) -> tuple[float, float]:
    el = arena.element(ref)
    if isinstance(el, (StartPosition, StaticTarget)):
        return el.position
    c = element_geometry(arena, el).centroid
    return (float(c.x), float(c.y))


def _unit(frm: tuple[float, float], to: tuple[float, float]) -> tuple[float, float] | None:
    dx, dy = to[0] - frm[0], to[1] - frm[1]
    n = math.hypot(dx, dy)
    return None if n < 1e-9 else (dx / n, dy / n)


class GravstrikeBalance:
    """The hook (see the module docstring)."""

    unit = "lengths"
    free: dict[str, tuple[str, ...]] = FREE
    steps: tuple[float, ...] = (0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0)
    turns: tuple[float, ...] = (10.0, 15.0, 30.0, 45.0, 60.0, 90.0, 120.0, 150.0, 180.0)

    def kind_of(self, arena: Arena, ref: str) -> str | None:
        try:
            return _KIND[type(arena.element(ref))]
        except KeyError:
            return None

    def name(self, arena: Arena, ref: str) -> str:
        el = arena.element(ref)
        if isinstance(el, StartPosition):
            return f"start {el.player}"
        return f"{_NAME[type(el)]} {el.id}"

    def moved(self, arena: Arena, ref: str, off: Offset) -> Any:
        return placement_error.move(arena.element(ref), off)

    def fits(self, before: Arena, after: Arena, refs: list[str]) -> bool:
        """The moved pieces that were on the table still are (the ``bounds`` check, cheaply)."""
        table = before.bounds_geometry().buffer(EDGE_SLACK)
        return all(table.covers(placement_error.geometry(after.element(r)))
                   or not table.covers(placement_error.geometry(before.element(r))) for r in refs)

    def symmetries(self, arena: Arena) -> int:
        return len(_invariances(arena))

    def images(self, arena: Arena, ref: str, off: Offset) -> dict[str, Offset]:
        own = _PREFIX.get(type(arena.element(ref)), "") + ref
        return carry(ref, off, [(g.fn, g.mirror, _plain(g.ids[own]) if own in g.ids else None)
                                for g in _invariances(arena)])

    def seeds(self, arena: Arena, finding: Finding, report: Report) -> list[Seed]:
        make = _SEEDS.get(finding.code)
        if make is None:
            return []
        refs = {el.id for el in arena.elements()}
        return [s for s in make(arena, finding, report) if s.ref in refs]


def _plain(ref: str) -> str:
    """An invariance's reference (``checkpoint:A``) as the arena's element id (``A``)."""
    kind, _, ident = ref.partition(":")
    return ident if ident and kind in ("checkpoint", "target", "gate") else ref


def _toward(arena: Arena, ref: str, other: str | tuple[float, float], why: str, away: bool = False) -> list[Seed]:
    at = other if isinstance(other, tuple) else _centre(arena, other)
    u = _unit(_centre(arena, ref), at)
    if u is None:
        return []
    return [Seed(ref, (-u[0], -u[1]) if away else u, 0.0, why)]


def _nearest(arena: Arena, ref: str, pool: list[str]) -> str | None:
    here = _centre(arena, ref)
    others = [p for p in pool if p != ref]
    return min(others, key=lambda p: math.dist(here, _centre(arena, p))) if others else None


def _label(arena: Arena, ref: str) -> str:
    return GravstrikeBalance().name(arena, ref)


def _access(arena: Arena, f: Finding, report: Report) -> list[Seed]:
    rows = report.metrics.get("start_checkpoint_access") or {}
    if len(f.elements) == 3:
        slow, fast, cp = f.elements
        out = _toward(arena, slow, cp, f"toward checkpoint {cp}")
        theirs = str((rows.get(fast) or {}).get("nearest", "")).split(":", 1)[-1]
        if theirs:
            out += _toward(arena, fast, theirs, f"away from checkpoint {theirs}", away=True)
        return out + _toward(arena, cp, slow, f"toward {_label(arena, slow)}")
    hi, lo = f.elements[:2]
    cps = [_centre(arena, c.id) for c in arena.checkpoints]
    if not cps:
        return []
    middle = (sum(p[0] for p in cps) / len(cps), sum(p[1] for p in cps) / len(cps))
    return (_toward(arena, hi, middle, "toward the checkpoints' middle")
            + _toward(arena, lo, middle, "away from the checkpoints' middle", away=True))


def _spacing(arena: Arena, f: Finding, report: Report) -> list[Seed]:
    starts = [s.id for s in arena.start_positions]
    if len(f.elements) == 3:
        close, neighbour, far = f.elements
        out = _toward(arena, close, neighbour, f"away from {_label(arena, neighbour)}", away=True)
        out += _toward(arena, neighbour, close, f"away from {_label(arena, close)}", away=True)
        near = _nearest(arena, far, starts)
        return out + (_toward(arena, far, near, f"toward {_label(arena, near)}") if near else [])
    quick, slow = f.elements[:2]
    out = []
    for ref, away in ((quick, True), (slow, False)):
        near = _nearest(arena, ref, starts)
        if near:
            out += _toward(arena, ref, near, f"{'away from' if away else 'toward'} {_label(arena, near)}", away=away)
    return out


def _apart(arena: Arena, f: Finding, report: Report) -> list[Seed]:
    if len(f.elements) < 2:
        return []
    a, b = f.elements[:2]
    centre = arena_centre(arena)
    out = (_toward(arena, a, b, f"away from {_label(arena, b)}", away=True)
           + _toward(arena, b, a, f"away from {_label(arena, a)}", away=True)
           + _toward(arena, a, centre, "out from the centre", away=True)
           + _toward(arena, b, centre, "out from the centre", away=True))
    u = _unit(_centre(arena, a), _centre(arena, b))
    if u is None:
        return out
    # square to the line between them, each way: a checkpoint in a corner can only slide along an edge
    return out + [Seed(ref, (s * -u[1], s * u[0]), 0.0, f"square to the line from {_label(arena, other)}")
                  for ref, other in ((a, b), (b, a)) for s in (1.0, -1.0)]


def _clear(arena: Arena, f: Finding, report: Report) -> list[Seed]:
    """An element in or on another (a field, a wall, another start): apart, the first one first."""
    if len(f.elements) < 2:
        return []
    a, b = f.elements[:2]
    centre = arena_centre(arena)  # when one sits on the other's centre: out of it either way
    return (_toward(arena, a, b, f"away from {_label(arena, b)}", away=True)
            + _toward(arena, b, a, f"away from {_label(arena, a)}", away=True)
            + [s for ref in (a, b) for s in (_toward(arena, ref, centre, "toward the centre")
                                             + _toward(arena, ref, centre, "out from the centre", away=True))])


def _inside(arena: Arena, f: Finding, report: Report) -> list[Seed]:
    return [s for ref in f.elements[:1] for s in _toward(arena, ref, arena_centre(arena), "toward the centre")]


def _targets(arena: Arena, f: Finding, report: Report) -> list[Seed]:
    targets = [t.id for t in arena.static_targets]
    if len(f.elements) >= 3:
        start, target = f.elements[0], f.elements[2]
    elif f.elements and targets:
        start = f.elements[0]
        here = _centre(arena, start)
        target = min(targets, key=lambda t: math.dist(here, _centre(arena, t)))
    else:
        return []
    return (_toward(arena, start, target, f"toward target {target}")
            + _toward(arena, target, start, f"toward {_label(arena, start)}"))


def _orbit(arena: Arena, f: Finding, report: Report) -> list[Seed]:
    return [Seed(ref, turn=sign, why="so its push turns less around the arena") for ref in f.elements
            for sign in (1.0, -1.0)]


def _tunnel(arena: Arena, f: Finding, report: Report) -> list[Seed]:
    wall = arena.element(f.elements[0]).shape.to_shapely()  # type: ignore[union-attr]
    near = [a.id for a in arena.acceleration_fields if a.shape.to_shapely().distance(wall) <= FIELD_REACH]
    out = [s for ref in near for s in _toward(arena, ref, f.elements[0], f"away from wall {f.elements[0]}", away=True)]
    return out + [Seed(ref, turn=sign, why=f"so it pushes less across wall {f.elements[0]}") for ref in near
                  for sign in (1.0, -1.0)]


_SEEDS = {"start-checkpoint-access": _access, "start-spacing": _spacing, "checkpoint-spacing": _apart,
          "exclusion-placement": _clear, "overlap": _clear, "bounds": _inside, "target-access": _targets,
          "field-orbit": _orbit, "wall-tunnelling": _tunnel}

HOOK = GravstrikeBalance()
