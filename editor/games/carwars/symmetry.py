"""Car Wars' rule for naming images in symmetry mode (Qt-free; the Car Wars editor's
:meth:`~editor.game.EditorGame.symmetry_rules`).

The book has "four cards numbered 0 through 3" (L214), a checkpoint of each player's own
colour among their uses.  So an image of a numbered card

* takes the **next number not on the table**, counting on from the card's own number round
  0-3 (a card 0 in a half-turn arena gets an image 1; in a four-fold arena 1, 2 and 3); only
  when all four are on the table does it repeat one (and ``cw-components`` says so);
* is **owned by the image's player**: the player whose start position is the image of the
  owner's start (player 1's checkpoint in twin-pillars-2p has player 2's as its image), no one
  when that start has no image yet;

and renumbering a card renumbers its images by the same step round 0-3 (so four cards numbered
0-3 stay numbered 0-3, each once); giving it another owner gives its images the image owners.

>>> RULES.next_number(0, {0})
1
>>> RULES.next_number(2, {0, 2, 3})
1
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Collection
from typing import Any

from editor.arrange import Affine
from editor.games.symmetry_rules import Rules, Taken

#: The numbers the four cards show ("four cards numbered 0 through 3", L214).
NUMBERS = (0, 1, 2, 3)
#: A start is the image of another when their positions are this close (inches).
TOL = 0.05


class CarWarsRules(Rules):
    def name_image(self, arena: Any, source: Any, image: Any, op: Affine, taken: Taken) -> Any:
        named = super().name_image(arena, source, image, op, taken)
        if not hasattr(named, "number") or not hasattr(named, "owner"):
            return named
        used = {c.number for c in arena.cards} | taken.numbers
        number = self.next_number(source.number, used)
        taken.numbers.add(number)
        return dataclasses.replace(named, number=number, owner=self.image_owner(arena, source.owner, op))

    def carry_identity(self, arena: Any, was: Any, now: Any, other: Any, op: Affine) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if not hasattr(other, "number"):
            return out
        if was.number != now.number and other.number in NUMBERS:
            out["number"] = NUMBERS[(NUMBERS.index(other.number) + now.number - was.number) % len(NUMBERS)]
        if was.owner != now.owner:
            out["owner"] = self.image_owner(arena, now.owner, op)
        return out

    @staticmethod
    def next_number(number: int, used: Collection[int]) -> int:
        """The first of ``number + 1, number + 2, ...`` (round 0-3) not in ``used``; ``number``
        itself when all four are."""
        start = NUMBERS.index(number) if number in NUMBERS else -1
        for k in range(1, len(NUMBERS) + 1):
            n = NUMBERS[(start + k) % len(NUMBERS)]
            if n not in used:
                return n
        return number

    @staticmethod
    def image_owner(arena: Any, owner: int | None, op: Affine) -> int | None:
        """The player whose start is the image of ``owner``'s start under ``op`` (None when the
        owner has no start or its image has none)."""
        start = next((s for s in arena.start_positions if s.player == owner), None)
        if start is None:
            return None
        spot = op.point(start.position)
        return next((s.player for s in arena.start_positions if math.dist(s.position, spot) <= TOL), None)


#: Declared by the Car Wars ruleset (:attr:`schema.ruleset.Ruleset.symmetry`).
RULES = CarWarsRules()
