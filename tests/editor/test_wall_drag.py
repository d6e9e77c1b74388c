"""The editor's wall drag (issue 38, goal 4), through the workers the editor runs
(:class:`editor.games.gravstrike.travel_workers.TravelWorkers`): after a wall is dragged the first answers are the
last exact ones carried over (:func:`validators.games.gravstrike.travel_session.carry_travel`: plans the wall does
not block kept, the blocked ones mended), so few sources are searched before the findings show;
the answers the run ends on are still a cold validation's of that version, after every drag of a
sequence.  Work is counted in searches planned, never in seconds.
"""

from __future__ import annotations

import dataclasses

from editor.games.gravstrike.travel_workers import TravelWorkers
from engine.gravstrike.geometry import ArenaGeometry
from engine.gravstrike.motion import Pose
from schema.games.gravstrike.model import Arena
from tests.editor.test_kept_travel_exact import cold_travel, differences, gravstrike_arena


def _wall_moved(a: Arena, dx: float, dy: float) -> Arena:
    w = a.walls[0]
    c = w.shape.center  # type: ignore[union-attr]
    return dataclasses.replace(a, walls=(dataclasses.replace(w, shape=dataclasses.replace(w.shape, center=(c[0] + dx, c[1] + dy))),
                                         *a.walls[1:]))


def test_wall_drags_answer_from_carried_plans_first_and_end_on_a_cold_validation() -> None:
    """W1 of the kept-travel walks' arena (mirrored: starts and outlying checkpoints in pairs)
    dragged five times, back and forth, as a mouse drag goes: after each drag no more than one
    source per pair is searched anew before the first answers (before, a wall edit searched every
    source again: 4 of 4), every first answer reached is a legal plan in the new version, and the
    final answers are a cold validation's."""
    arena = gravstrike_arena()
    workers = TravelWorkers(2)
    try:
        workers.submit(arena)
        workers.collect_exact()
        for dx, dy in [(0.1, 0.0), (0.1, 0.05), (-0.25, 0.0), (0.0, 0.25), (0.5, 0.0)]:
            arena = _wall_moved(arena, dx, dy)
            workers.submit(arena)
            kinds = [k for share in workers.shares for k in share.searched.values()]
            assert kinds.count("new") <= 2 and "carry" in kinds, (dx, dy, kinds)
            first = workers.collect()
            geometry = ArenaGeometry(arena)
            for s, row in first.items():
                for ref, r in row.items():
                    assert all(geometry.ram_feature(Pose(p.x, p.y, p.heading)) is None for p in r.path), (dx, dy, s, ref)
            assert not workers.exact  # carried answers are provisional: the exact ones follow
            final = workers.collect_exact()
            _, cold = cold_travel(arena)
            assert not differences(final, cold), (dx, dy, differences(final, cold))
    finally:
        workers.close()
