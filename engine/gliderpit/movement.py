"""Whole Movement Phases as precomputed *macros*: every legal maneuver sequence that spends a
Movement Point Allowance exactly ("a player must expend his glider's entire Movement Point
Allowance by exact count", L107), worked out once from hex (0, 0) facing 0 and then turned and
moved to any hex and facing.  Sequences with the same outcome and the same hexes entered are
kept once.

Altitude limits (LEDGE, FLOOR) depend on the glider's altitude, so a macro records the highest
and lowest altitude change along the way; :meth:`Macro.altitudes_ok` checks them.

>>> [len(phase_macros(s)) for s in range(1, 6)]
[6, 25, 46, 160, 483]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engine.gliderpit.rules import TOP_ALTITUDE, Maneuver, PhaseState, begin_phase, maneuvers
from engine.grids import Axial, hex_rotate

#: Altitude bounds so wide that no macro is cut off while they are generated.
_OPEN = 10_000


@dataclass(frozen=True, slots=True)
class MacroStep:
    """One maneuver of a macro and where it leaves the glider (relative to the start)."""

    maneuver: Maneuver
    hex: Axial
    facing: int
    speed: int
    altitude: int


@dataclass(frozen=True, slots=True)
class Macro:
    """A whole Movement Phase from hex (0, 0), facing 0, at its start speed."""

    steps: tuple[MacroStep, ...]
    entered: tuple[Axial, ...]
    end: Axial
    facing: int
    speed: int
    dalt: int
    high: int
    low: int
    climbed: bool

    def altitudes_ok(self, altitude: int, floor: int) -> bool:
        """Whether a glider at ``altitude`` stays below LEDGE and above FLOOR throughout."""
        return altitude + self.high <= TOP_ALTITUDE and altitude + self.low > floor


@lru_cache(maxsize=None)
def phase_macros(start_speed: int) -> tuple[Macro, ...]:
    """Every distinct Movement Phase at ``start_speed`` (0 has none: a glider that begins its
    Movement Phase at speed 0 Spins, L119)."""
    if start_speed < 1:
        return ()
    found: dict[tuple[object, ...], Macro] = {}

    def walk(s: PhaseState, steps: tuple[MacroStep, ...], high: int, low: int) -> None:
        if s.mp == 0:
            entered: list[Axial] = []
            for st, prev in zip(steps, ((0, 0), *(x.hex for x in steps))):
                if st.hex != prev:
                    entered.append(st.hex)
            key = (frozenset(entered), s.hex, s.facing, s.speed, s.altitude, high, low, s.climbed)
            if key not in found:  # the first sequence of an outcome is kept (and only it made)
                found[key] = Macro(steps, tuple(entered), s.hex, s.facing, s.speed, s.altitude, high, low, s.climbed)
            return
        for name, nxt in maneuvers(s, ledge=_OPEN, floor=-_OPEN):
            step = MacroStep(name, nxt.hex, nxt.facing, nxt.speed, nxt.altitude)
            walk(nxt, (*steps, step), max(high, nxt.altitude), min(low, nxt.altitude))

    walk(begin_phase((0, 0), 0, start_speed, 0), (), 0, 0)
    return tuple(sorted(found.values(), key=lambda m: (len(m.steps), [st.maneuver for st in m.steps])))


@dataclass(frozen=True, slots=True)
class PlacedMacro:
    """A macro turned to a facing (the hexes are still offsets from the start hex)."""

    macro: Macro
    entered: tuple[Axial, ...]
    end: Axial
    facing: int


@lru_cache(maxsize=None)
def placed_macros(start_speed: int, facing: int) -> tuple[PlacedMacro, ...]:
    """:func:`phase_macros` turned to start ``facing``."""
    return tuple(PlacedMacro(m, tuple(hex_rotate(h, facing) for h in m.entered), hex_rotate(m.end, facing),
                             (m.facing + facing) % 6) for m in phase_macros(start_speed))


def macro_steps(m: Macro, start: Axial, facing: int, altitude: int) -> list[MacroStep]:
    """The macro's maneuvers as absolute hexes, facings and altitudes (speeds are already
    absolute: a macro belongs to one start speed)."""
    out = []
    for st in m.steps:
        dq, dr = hex_rotate(st.hex, facing)
        out.append(MacroStep(st.maneuver, (start[0] + dq, start[1] + dr), (st.facing + facing) % 6,
                             st.speed, altitude + st.altitude))
    return out
