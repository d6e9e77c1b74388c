"""Kept travel searches are invalidated exactly (issue 36, item 8): whatever edits led to an
arena version - goals dragged, starts moved and turned, walls and fields moved, an undo back
to an earlier version, the file reopened - the answers the editor's live validation ends on
are those of a cold validation of that version.

The property tests walk seeded random edit sequences (bounded in edits, not time) through the
workers the editor runs, without a window: Gravstrike's :class:`editor.games.gravstrike.travel_workers.TravelWorkers`
(each worker a :class:`validators.games.gravstrike.travel_session.TravelSession`, the two sharing distance maps
through :mod:`editor.map_share`) and Car Wars' :class:`editor.games.carwars.kept_travel.CarWarsTravel`.
After every edit they compare each answer with a cold one: Gravstrike's result for result, path
included; Car Wars' status, time, dice and hard speed changes (its searches settle ties on
another path: :mod:`engine.carwars.kept`), and the findings the checks make of them.

The failures the walks found (each also a test of its own below): a resumed search answered a
moved gate from the states it went on to expand, never from those it had expanded already (a
gate moved 0.5 to the right: 2.0 turns where a new search finds 1.75); a goal's old "proven
unreachable" outlived its move; and a resumed search's answers, at the analysis tolerance,
depend on where the goals were when it ran (checkpoint M moved 0.5 down: 0.6 turns from A
where a new search finds 0.5) - provisional answers, which the workers now replace with a
renewed session's before the findings and the travel dock are final.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from editor.analysis import quick_findings, validators_run
from editor.games.gravstrike.travel_workers import TravelWorkers
from editor.games.gravstrike.live_travel import LiveTravel
from editor.validation import StagedAnalysis
from engine.gravstrike.planner import Goal
from schema.io import dumps, load, loads
from schema.shapes import Circle, Rect
from schema.games.gravstrike.model import AccelerationField, Arena, Checkpoint, Gate, Scenario, StartPosition, StaticTarget, Symmetry, Variants, Wall
from validators.games.gravstrike.context import AnalysisContext, travel_sources
from validators.games.gravstrike.travel_session import TravelSession

ROOT = Path(__file__).resolve().parents[2]
#: What the walks edit: each walk makes every kind of edit once, in a seeded random order (the
#: work is bounded by the number of edits, not by a clock).
GRAVSTRIKE_EDITS = ("checkpoint", "start", "target", "gate", "wall", "field", "undo", "reopen")
CAR_WARS_EDITS = ("card", "start", "wall", "role", "undo", "reopen")
STEPS: tuple[float, ...] = (-0.5, -0.25, 0.25, 0.5)


def gravstrike_arena() -> Arena:
    """A small arena mirrored about x = 0 (starts and outlying checkpoints are orbits of two):
    a wall, two fields, two targets, a gate (scored: the gates variant on), a central checkpoint
    on the axis."""
    return Arena(
        name="walk", bounds=Rect((0.0, 0.0), (14.0, 10.0)), symmetry=Symmetry("mirror", 1, (0.0, 0.0), 90.0),
        walls=(Wall("W1", Rect((0.0, -0.5), (0.6, 4.0))),),
        checkpoints=(Checkpoint("A", "outlying", Circle((4.5, 3.0), 0.6)),
                     Checkpoint("B", "outlying", Circle((-4.5, 3.0), 0.6)),
                     Checkpoint("M", "central", Circle((0.0, 3.2), 0.6))),
        gates=(Gate("G", "central", (-1.0, -3.5), (1.0, -3.5)),),
        acceleration_fields=(AccelerationField("F1", Circle((3.0, -2.0), 0.5), 90.0),
                             AccelerationField("F2", Circle((-3.0, -2.0), 0.5), 90.0)),
        static_targets=(StaticTarget("T1", (-3.0, -2.5)), StaticTarget("T2", (3.0, -2.5))),
        start_positions=(StartPosition(1, (-5.5, -3.5), 0.0), StartPosition(2, (5.5, -3.5), 180.0)),
        scenario=Scenario(variants=Variants(gates=True)))


def _nudge(p: tuple[float, float], dx: float, dy: float, half: tuple[float, float]) -> tuple[float, float]:
    """``p`` moved by (dx, dy), kept a length inside the bounds' half extents ``half``."""
    return (max(-half[0] + 1.0, min(half[0] - 1.0, p[0] + dx)), max(-half[1] + 1.0, min(half[1] - 1.0, p[1] + dy)))


def _replace_at(items: tuple[Any, ...], i: int, **changes: Any) -> tuple[Any, ...]:
    return items[:i] + (dataclasses.replace(items[i], **changes),) + items[i + 1:]


def walk(rng: random.Random, kinds: tuple[str, ...]) -> list[str]:
    """Every kind of edit once, in a random order."""
    return rng.sample(kinds, len(kinds))


def gravstrike_edit(rng: random.Random, a: Arena, history: list[Arena], kind: str) -> tuple[str, Arena]:
    """A random edit of ``kind`` to ``a``, as the editor makes them (``history``: the versions so
    far, for an undo)."""
    dx, dy = rng.choice(STEPS), rng.choice(STEPS)
    half = (7.0, 5.0)
    if kind == "checkpoint":
        i = rng.randrange(len(a.checkpoints))
        c = a.checkpoints[i]
        shape = dataclasses.replace(c.shape, center=_nudge(c.shape.center, dx, dy, half))  # type: ignore[union-attr]
        return f"move checkpoint {c.id} by ({dx}, {dy})", dataclasses.replace(a, checkpoints=_replace_at(a.checkpoints, i, shape=shape))
    if kind == "start":
        i = rng.randrange(len(a.start_positions))
        s = a.start_positions[i]
        turn = rng.choice([0.0, 30.0, 15.0])  # 15: another heading lattice
        return (f"move start {s.player} by ({dx}, {dy}), turn {turn}",
                dataclasses.replace(a, start_positions=_replace_at(a.start_positions, i, position=_nudge(s.position, dx, dy, half),
                                                                   facing=(s.facing + turn) % 360.0)))
    if kind == "target":
        i = rng.randrange(len(a.static_targets))
        t = a.static_targets[i]
        return (f"move target {t.id} by ({dx}, {dy})",
                dataclasses.replace(a, static_targets=_replace_at(a.static_targets, i, position=_nudge(t.position, dx, dy, half))))
    if kind == "gate":
        g = a.gates[0]
        return (f"move gate {g.id} by ({dx}, {dy})", dataclasses.replace(a, gates=_replace_at(
            a.gates, 0, start=_nudge(g.start, dx, dy, half), end=_nudge(g.end, dx, dy, half))))
    if kind == "wall":
        w = a.walls[0]
        shape = dataclasses.replace(w.shape, center=_nudge(w.shape.center, dx, 0.0, half))  # type: ignore[union-attr]
        return f"move wall {w.id} by ({dx}, 0)", dataclasses.replace(a, walls=_replace_at(a.walls, 0, shape=shape))
    if kind == "field":
        i = rng.randrange(len(a.acceleration_fields))
        f = a.acceleration_fields[i]
        shape = dataclasses.replace(f.shape, center=_nudge(f.shape.center, dx, dy, half))  # type: ignore[union-attr]
        return (f"move field {f.id} by ({dx}, {dy})",
                dataclasses.replace(a, acceleration_fields=_replace_at(a.acceleration_fields, i, shape=shape)))
    if kind == "undo":
        j = rng.randrange(len(history))
        return f"undo to version {j}", history[j]
    return "save and reopen", loads(dumps(a))


def cold_travel(arena: Arena) -> tuple[AnalysisContext, dict[str, dict[str, Any]]]:
    """A validation's travel: one context, every source in order (an orbit's first source
    searched, the others its images)."""
    ctx = AnalysisContext(arena)
    return ctx, {s: ctx.travel_from(s) for s in travel_sources(arena)}


def differences(got: dict[str, dict[str, Any]], cold: dict[str, dict[str, Any]]) -> list[str]:
    out = [f"{s}: {sorted(set(got.get(s, {})) ^ set(row))} answered on one side only"
           for s, row in cold.items() if set(got.get(s, {})) != set(row)]
    for s, row in cold.items():
        for ref, r in row.items():
            g = got.get(s, {}).get(ref)
            if g is not None and g != r:
                out.append(f"{s} -> {ref}: live {g.status} {g.time:.3f} ({len(g.path)} steps), cold {r.status} {r.time:.3f}"
                           f" ({len(r.path)} steps)")
    return out + [f"{s}: not a source" for s in got if s not in cold]


@pytest.mark.parametrize("seed", [2, 11])
def test_gravstrike_workers_end_every_edit_on_a_cold_validation(seed: int) -> None:
    rng = random.Random(seed)
    arena = gravstrike_arena()
    history, done = [arena], ["open"]
    kinds = walk(rng, GRAVSTRIKE_EDITS) + [""]
    workers = TravelWorkers(2)
    try:
        for kind in kinds:
            workers.submit(arena)
            if rng.random() < 0.25:  # another edit comes before this one is answered
                name, arena = gravstrike_edit(rng, arena, history, rng.choice(GRAVSTRIKE_EDITS))
                history.append(arena)
                done.append(name)
                workers.submit(arena)
            workers.collect()  # the provisional answers, at once
            got = workers.collect_exact()
            ctx, cold = cold_travel(arena)
            assert not differences(got, cold), (seed, done, differences(got, cold))
            if not kind:
                break
            if rng.random() < 0.4:
                workers.wait_warm()  # idle: the workers search ahead and tidy their searches
            name, arena = gravstrike_edit(rng, arena, history, kind)
            history.append(arena)
            done.append(name)
    finally:
        workers.close()


def _gate_moved(a: Arena) -> Arena:
    g = a.gates[0]
    return dataclasses.replace(a, gates=(dataclasses.replace(g, start=(g.start[0] + 0.5, g.start[1]),
                                                             end=(g.end[0] + 0.5, g.end[1])),))


def _central_moved(a: Arena) -> Arena:
    m = a.checkpoints[2]
    return dataclasses.replace(a, checkpoints=a.checkpoints[:2] + (dataclasses.replace(
        m, shape=dataclasses.replace(m.shape, center=(0.0, 2.7))),))


def _start_moved(a: Arena) -> Arena:
    s = a.start_positions[0]
    return dataclasses.replace(a, start_positions=(dataclasses.replace(s, position=(s.position[0], s.position[1] + 0.5)),
                                                   *a.start_positions[1:]))


@pytest.mark.parametrize("edits", [[_gate_moved], [_central_moved], [_start_moved, lambda a: gravstrike_arena()]],
                         ids=["gate", "central checkpoint", "start and undo"])
def test_the_live_validation_ends_on_a_cold_validation(edits: list[Callable[[Arena], Arena]]) -> None:
    """The shortest edit sequences the walks found.  Moving gate G 0.5 to the right, the resumed
    searches answered 2.0 turns from each start where a new search finds 1.75 (or 1.5); moving M
    0.5 down, 0.6 from checkpoints A and B where it finds 0.5 (a resumed search at the analysis
    tolerance: states merged in the order M's old place had the search explore them); moving
    start 1 and undoing, start 1's answers were the mirror image of start 2's kept search where a
    validation searches from start 1 (the first source of the pair) and images it for start 2.
    The panel's findings and the travel dock's answers are a cold validation's once the run is
    final (the workers renew their sessions)."""
    staged = StagedAnalysis(live=LiveTravel())
    try:
        arena = gravstrike_arena()
        staged(arena)
        for edit in edits:
            arena = edit(arena)
            found = staged(arena)
        ctx, cold = cold_travel(arena)
        assert staged.live is not None and staged.live.last_travel is not None
        got_arena, got = staged.live.last_travel
        assert got_arena is arena and not differences(got, cold), differences(got, cold)
        assert found == quick_findings(arena) + validators_run(arena, True, context=ctx)
    finally:
        staged.close()


def test_a_kept_search_answering_a_moved_gate_searches_again() -> None:
    """A resumed search tests moved zones against the states it kept, but a gate is crossed by a
    length, not touched by where it ends: the session searches again for a moved gate."""
    session = TravelSession()
    arena = gravstrike_arena()
    session.context(arena).travel_from("start:1")
    kept = session.searches["start:1"]
    moved = _gate_moved(arena)
    got = session.context(moved).travel_from("start:1")["gate:G"]
    assert got == AnalysisContext(moved).travel_from("start:1")["gate:G"]  # 1.75 turns (2.0 resumed)
    assert session.searches["start:1"] is not kept


def test_a_goal_proven_unreachable_is_proved_again_where_it_moved() -> None:
    """A checkpoint boxed in by walls is proven unreachable without searching; dragged out of
    the box, the kept search's verdict for its old place must not stand (the proof also spares
    an "unreachable" answer the second, finer look: :meth:`engine.gravstrike.planner.Planner.confirm`)."""
    box = tuple(Wall(f"box{i}", Rect(c, s)) for i, (c, s) in enumerate(
        [((4.5, 4.3), (3.4, 1.0)), ((4.5, 1.7), (3.4, 1.0)), ((3.3, 3.0), (1.0, 3.6)), ((5.7, 3.0), (1.0, 3.6))]))
    arena = dataclasses.replace(gravstrike_arena(), symmetry=None, walls=gravstrike_arena().walls + box)
    session = TravelSession()
    session.context(arena).travel_from("start:2")
    a = Goal("checkpoint", "A")
    assert a in session.searches["start:2"].proven
    c = arena.checkpoints[0]
    out = dataclasses.replace(arena, checkpoints=(dataclasses.replace(c, shape=Circle((4.5, -0.5), 0.6)),
                                                  *arena.checkpoints[1:]))
    got = session.context(out).travel_from("start:2")
    assert session.last_update[0] == "retarget"
    assert a not in session.searches["start:2"].proven
    assert got["checkpoint:A"].reachable


def test_a_circle_redrawn_as_its_polygon_is_not_the_same_goal() -> None:
    """A circular checkpoint is tested as the true circle, a polygonal one as its polygon: one
    redrawn as the very polygon shapely draws for the circle has the same geometry but is another
    goal, and a kept search must not keep answering for the circle."""
    from engine.gravstrike.planner import Planner
    from schema.shapes import Polygon

    arena = gravstrike_arena()
    a = arena.checkpoints[0]
    points = tuple((float(x), float(y)) for x, y in a.shape.to_shapely().exterior.coords[:-1])
    redrawn = dataclasses.replace(arena, checkpoints=(dataclasses.replace(a, shape=Polygon(points)), *arena.checkpoints[1:]))
    assert redrawn.checkpoints[0].shape.to_shapely().equals_exact(a.shape.to_shapely(), 0.0)
    assert Planner(arena, minimise="time").retarget(redrawn) == {Goal("checkpoint", "A")}


# -- Car Wars --------------------------------------------------------------------------------------------

def car_wars_edit(rng: random.Random, a: Any, history: list[Any], kind: str) -> tuple[str, Any]:
    """A random edit of ``kind`` to a Car Wars arena: a card dragged, a start moved, a wall
    nudged, a card turned into a hidden hazard (or back), an undo, a reopen."""
    dx, dy = rng.choice((-2.0, -1.0, 1.0, 2.0)), rng.choice((-2.0, -1.0, 1.0, 2.0))
    half = (a.bounds.size[0] / 2.0, a.bounds.size[1] / 2.0)
    if kind == "card":
        i = rng.randrange(len(a.cards))
        c = a.cards[i]
        return f"drag card {c.id} by ({dx}, {dy})", dataclasses.replace(
            a, cards=_replace_at(a.cards, i, position=_nudge(c.position, dx, dy, (half[0] - 2, half[1] - 2))))
    if kind == "start":
        i = rng.randrange(len(a.start_positions))
        s = a.start_positions[i]
        return f"move start {s.player} by ({dx / 2}, 0)", dataclasses.replace(
            a, start_positions=_replace_at(a.start_positions, i, position=(s.position[0] + dx / 2, s.position[1])))
    if kind == "wall":
        w = a.walls[0]
        shape = dataclasses.replace(w.shape, center=(w.shape.center[0], w.shape.center[1] + dy / 2))
        return f"move wall {w.id} by (0, {dy / 2})", dataclasses.replace(a, walls=_replace_at(a.walls, 0, shape=shape))
    if kind == "role":
        i = rng.randrange(len(a.cards))
        c = a.cards[i]
        role = "hidden-hazard" if c.role != "hidden-hazard" else "checkpoint"
        return f"card {c.id} becomes a {role}", dataclasses.replace(a, cards=_replace_at(a.cards, i, role=role))
    if kind == "undo":
        j = rng.randrange(len(history))
        return f"undo to version {j}", history[j]
    return "save and reopen", loads(dumps(a))


def _answer(r: Any) -> tuple[Any, ...]:
    return (r.status, r.key() if r.status == "reached" else None, r.turns, r.points, r.speed, r.horizon)


@pytest.mark.parametrize("seed", [2])
def test_car_wars_workers_end_every_edit_on_a_cold_table(seed: int) -> None:
    """Each edit's findings are those of the cold travel table, and so is every answer the
    travel dock reads from the workers (each start to every card, the centre and the other
    starts); the last version's dock rows are also checked against the dock's own cold search
    (the safe policy's rows to the other starts are in no table)."""
    from editor.games.carwars.analysis import slow_findings
    from editor.games.carwars.kept_travel import CarWarsTravel
    from editor.games.carwars.travel_work import dock_goals, start_travel
    from engine.carwars import fairness as fair

    rng = random.Random(seed)
    arena = load(str(ROOT / "arenas" / "car-wars" / "twin-pillars-2p.yaml"))
    history, done = [arena], ["open"]
    live = CarWarsTravel()
    try:
        for kind in walk(rng, CAR_WARS_EDITS) + ["card", ""]:
            found = live(arena)
            table = fair.travel_table(arena)
            assert found == slow_findings(arena, lambda _a: table), (seed, done)
            if live.last_rows is not None:  # what the travel dock shows
                rows_arena, rows = live.last_rows
                assert rows_arena is arena
                for policy, starts in table.results.items():
                    for sid, row in starts.items():
                        for ref, r in row.items():
                            assert _answer(rows[(policy, sid)][ref]) == _answer(r), (seed, done, policy, sid, ref)
                if not kind:
                    for s in arena.start_positions:
                        for policy, row in start_travel(arena, s.player).results.items():
                            for goal in dock_goals(arena, s.player):
                                assert _answer(rows[(policy, s.id)][goal]) == _answer(row[goal]), (seed, done, policy, goal)
            if not kind:
                break
            name, arena = car_wars_edit(rng, arena, history, kind)
            history.append(arena)
            done.append(name)
    finally:
        live.close()


# -- Arena Rex -------------------------------------------------------------------------------------------
# No kept searches, but its zone checks' findings are remembered per arena version (an undo is a
# lookup: editor.games.arenarex.analysis.RexFairness), keyed by the parts of the arena they read.
# (Glider-Pit and Mothership keep nothing between edits: their checks run whole in the quick stage.)

REX_EDITS = ("pit", "hazard", "deployment", "bases", "sight", "analysis", "undo", "reopen")


def rex_edit(rng: random.Random, a: Any, history: list[Any], kind: str) -> tuple[str, Any]:
    """A random edit of ``kind`` to an Arena Rex arena."""
    dx, dy = rng.choice((-1.5, -0.5, 0.5, 1.5)), rng.choice((-1.5, -0.5, 0.5, 1.5))
    if kind == "pit":
        p = a.pits[0]
        shape = dataclasses.replace(p.shape, center=(p.shape.center[0] + dx, p.shape.center[1] + dy))
        return f"drag pit {p.id} by ({dx}, {dy})", dataclasses.replace(a, pits=_replace_at(a.pits, 0, shape=shape))
    if kind == "hazard":
        i = rng.randrange(len(a.hazards))
        h = a.hazards[i]
        shape = dataclasses.replace(h.shape, center=(h.shape.center[0] + dx, h.shape.center[1] + dy))
        return f"drag hazard {h.id} by ({dx}, {dy})", dataclasses.replace(a, hazards=_replace_at(a.hazards, i, shape=shape))
    if kind == "sight":
        i = rng.randrange(len(a.hazards))
        h = a.hazards[i]
        return (f"hazard {h.id} blocks sight: {not h.blocks_sight}",
                dataclasses.replace(a, hazards=_replace_at(a.hazards, i, blocks_sight=not h.blocks_sight)))
    if kind == "deployment":
        d = a.deployment[-1]
        centre = d.center or (0.0, 15.0)
        return (f"move player {d.player}'s zone by ({dx}, 0)", dataclasses.replace(
            a, deployment=_replace_at(a.deployment, len(a.deployment) - 1, center=(centre[0] + dx, centre[1]))))
    if kind == "bases":
        bases = a.bases[:-1] if len(a.bases) > 1 else a.bases + (60.0,)
        return f"bases {bases}", dataclasses.replace(a, bases=bases)
    if kind == "analysis":
        an = a.scenario.analysis
        return (f"moves {an.moves - 1 if an.moves > 1 else 3}", dataclasses.replace(a, scenario=dataclasses.replace(
            a.scenario, analysis=dataclasses.replace(an, moves=an.moves - 1 if an.moves > 1 else 3))))
    if kind == "undo":
        j = rng.randrange(len(history))
        return f"undo to version {j}", history[j]
    return "save and reopen", loads(dumps(a))


@pytest.mark.parametrize("seed", [3])
def test_arena_rex_remembered_findings_are_those_of_a_cold_validation(seed: int) -> None:
    from editor.games.arenarex.analysis import RexFairness, fairness_findings

    rng = random.Random(seed)
    arena = load(str(ROOT / "arenas" / "arena-rex" / "lopsided-pit.yaml"))
    history, done = [arena], ["open"]
    rex = RexFairness()
    try:
        for kind in walk(rng, REX_EDITS) + ["undo", ""]:
            assert rex(arena) == fairness_findings(arena), (seed, done)
            if not kind:
                break
            name, arena = rex_edit(rng, arena, history, kind)
            history.append(arena)
            done.append(name)
    finally:
        rex.close()
