"""Tortoise Derby's checks, registered in the entry-point group ``arena_studio.validators``;
``games = ("tortoise-derby",)`` keeps them to its arenas.

- ``td-placement`` (error): a tortoise's shell off the paddock or on a rock, or a lettuce where
  no shell can reach it;
- ``td-reach`` (error): a lettuce a tortoise cannot crawl to;
- ``td-fair-start`` (warning): the tortoises' races to their nearest lettuce differ by more than
  ``scenario.fair_turns`` turns.
"""

from __future__ import annotations

from typing import Any

from tortoise_derby.model import TortoiseDerbyArena
from tortoise_derby.movement import can_stand, shortest, turns
from validators.findings import Finding, Result

GAMES = ("tortoise-derby",)


class Placement:
    id = "td-placement"
    title = "Tortoises and lettuces where a shell fits"
    severity = "error"
    needs_travel = False
    games = GAMES

    def evaluate(self, arena: TortoiseDerbyArena, context: Any) -> Result:
        found = [Finding(self.id, "error", f"tortoise {t.player}'s shell is off the paddock or on a rock at "
                                           f"({t.position[0]:g}, {t.position[1]:g})", (t.id,))
                 for t in arena.tortoises if not can_stand(arena, t.position)]
        found += [Finding(self.id, "error", f"lettuce {le.id} is where no shell fits (on a rock or against "
                                            "the fence)", (le.id,))
                  for le in arena.lettuces if not can_stand(arena, le.position)]
        return Result(found)


class Reach:
    id = "td-reach"
    title = "Every tortoise can reach every lettuce"
    severity = "error"
    needs_travel = True
    games = GAMES

    def evaluate(self, arena: TortoiseDerbyArena, context: Any) -> Result:
        found = []
        for t in arena.tortoises:
            for le in arena.lettuces:
                if can_stand(arena, t.position) and can_stand(arena, le.position) and \
                        shortest(arena, t.position, le.position).length is None:
                    found.append(Finding(self.id, "error", f"tortoise {t.player} cannot reach lettuce {le.id}: "
                                                           "rocks wall it off", (t.id, le.id)))
        return Result(found)


class FairStart:
    id = "td-fair-start"
    title = "Every tortoise as many turns from a lettuce"
    severity = "warning"
    needs_travel = True
    games = GAMES

    def evaluate(self, arena: TortoiseDerbyArena, context: Any) -> Result:
        races: dict[int, int] = {}
        for t in arena.tortoises:
            lengths = [c.length for le in arena.lettuces
                       if (c := shortest(arena, t.position, le.position)).length is not None]
            if lengths:
                races[t.player] = turns(arena, min(lengths))
        metrics = {"turns_to_lettuce": {str(p): n for p, n in sorted(races.items())}}
        if len(races) < 2 or max(races.values()) - min(races.values()) <= arena.scenario.fair_turns:
            return Result(metrics=metrics)
        slow = max(races, key=lambda p: (races[p], p))
        fast = min(races, key=lambda p: (races[p], p))
        return Result([Finding(self.id, "warning", f"tortoise {fast} reaches a lettuce in {races[fast]} turns, "
                                                   f"tortoise {slow} in {races[slow]}",
                               (f"tortoise:{fast}", f"tortoise:{slow}"), metrics)], metrics)


PLACEMENT, REACH, FAIR_START = Placement(), Reach(), FairStart()
