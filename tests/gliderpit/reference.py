"""A plain, exhaustive reference for the pit planner: breadth-first over whole glider states
(hex, facing, speed, altitude) turn by turn, each turn enumerated maneuver by maneuver with
engine.gliderpit.rules (no macros, no bit sets, no bounds, no pruning).  Slow; for small pits.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from engine.gliderpit.rules import PhaseState, begin_phase, glide_options, maneuvers
from engine.grids import Axial

State = tuple[Axial, int, int, int]  # hex, facing, speed, altitude


def phase_ends(cells: Collection[Axial], state: State, floor: int) -> list[PhaseState]:
    """Every way a Movement Phase from ``state`` can end without touching the wall."""
    hex_, facing, speed, altitude = state
    out: list[PhaseState] = []
    stack = [begin_phase(hex_, facing, speed, altitude)]
    while stack:
        s = stack.pop()
        if s.mp == 0:
            out.append(s)
            continue
        for _, nxt in maneuvers(s, floor=floor):
            if nxt.hex in cells:
                stack.append(nxt)
    return out


def reference_plan(cells: Collection[Axial], starts: Iterable[State], goals: Collection[Axial], floor: int = 0,
                   deceleration: str = "never", max_turns: int = 8) -> tuple[int, int] | None:
    """(fewest turns, highest arrival altitude) to end a Movement Phase on a goal hex, or
    None within ``max_turns``."""
    frontier = {s for s in starts if 1 <= s[2] <= 5 and floor < s[3] <= 20}
    here = [s[3] for s in frontier if s[0] in goals]
    if here:
        return 0, max(here)
    seen = set(frontier)
    for turn in range(1, max_turns + 1):
        arrivals: list[int] = []
        nxt: set[State] = set()
        for state in frontier:
            for end in phase_ends(cells, state, floor):
                if end.hex in goals:
                    arrivals.append(end.altitude)
                for g in glide_options(end.speed, end.altitude, end.climbed, floor=floor,
                                       deceleration=deceleration):  # type: ignore[arg-type]
                    s = (end.hex, end.facing, g.speed, g.altitude)
                    if s not in seen:
                        seen.add(s)
                        nxt.add(s)
        if arrivals:
            return turn, max(arrivals)
        if not nxt:
            return None
        frontier = nxt
    return None


def reference_reach(cells: Collection[Axial], starts: Iterable[State], floor: int = 0,
                    max_turns: int = 6) -> dict[Axial, int]:
    """Fewest turns to end a Movement Phase on every hex (starting hexes: 0)."""
    frontier = {s for s in starts if 1 <= s[2] <= 5 and floor < s[3] <= 20}
    best: dict[Axial, int] = {s[0]: 0 for s in frontier}
    seen = set(frontier)
    for turn in range(1, max_turns + 1):
        nxt: set[State] = set()
        for state in frontier:
            for end in phase_ends(cells, state, floor):
                best.setdefault(end.hex, turn)
                for g in glide_options(end.speed, end.altitude, end.climbed, floor=floor):
                    s = (end.hex, end.facing, g.speed, g.altitude)
                    if s not in seen:
                        seen.add(s)
                        nxt.add(s)
        frontier = nxt
    return best
