"""How a game names the images symmetry mode makes (Qt-free; :func:`editor.symmetry.propagate`).

Symmetry mode carries an element onto its images; what *names* an image is the game's to say:
which id it gets, which player a start is for, which number or letter a numbered card or a
lettered checkpoint shows, which player owns a card, what 2d6 total a row of the pit carries.
Each game's editor gives its rule as a :class:`Rules` object
(:meth:`editor.game.EditorGame.symmetry_rules`, e.g. :data:`editor.games.carwars.symmetry.RULES`);
a game that gives none gets :class:`Rules`:

* an image gets the next free id of its kind (Gravstrike's checkpoints: the next free letter,
  outlying from A, central from M; its targets T1, T2...), a start the next free player;
* an edit of a counterpart keeps the counterpart's own identity (:data:`IDENTITY`);
* an element with no place of its own has no image; a row label is its image's label.

>>> type(rules_for("gravstrike")).__name__, type(rules_for("car-wars-6e")).__name__
('Rules', 'CarWarsRules')
"""

from __future__ import annotations

import dataclasses
from typing import Any

from editor import elements as E
from editor.arrange import Affine

#: Fields that name an element rather than place it: a counterpart keeps its own unless its
#: game's :meth:`Rules.carry_identity` says how an edit of them carries.
IDENTITY = ("id", "player", "number", "owner")


@dataclasses.dataclass
class Taken:
    """What one symmetric edit has handed out so far (ids, players, numbers)."""

    ids: set[str] = dataclasses.field(default_factory=set)
    players: set[int] = dataclasses.field(default_factory=set)
    numbers: set[int] = dataclasses.field(default_factory=set)


def is_start(el: object) -> bool:
    """A start position of any game (a ``player`` and no ``id`` field)."""
    names = {f.name for f in dataclasses.fields(el)} if dataclasses.is_dataclass(el) else set()
    return "player" in names and "id" not in names


class Rules:
    """The default rule (see the module's text); games override what they name differently."""

    def name_image(self, arena: Any, source: Any, image: Any, op: Affine, taken: Taken) -> Any:
        """``image`` (``source`` carried by ``op``, to be added to ``arena``) with its own
        identity: the next free player for a start, else the next free id of its kind."""
        if is_start(image):
            p = E.next_player(arena, taken.players, E.kind_of(image))
            taken.players.add(p)
            return dataclasses.replace(image, player=p)
        kind = E.kind_of(image)
        new = E.next_id(arena, kind, getattr(image, "kind", "outlying"), taken.ids)
        taken.ids.add(new)
        return dataclasses.replace(image, id=new)

    def carry_identity(self, arena: Any, was: Any, now: Any, other: Any, op: Affine) -> dict[str, Any]:
        """The identity fields counterpart ``other`` (``was``'s image under ``op`` in ``arena``)
        takes when ``was`` -> ``now`` changed some: none by default (it keeps its own)."""
        return {}

    def unplaced_image(self, arena: Any, el: Any, op: Affine) -> Any:
        """The image of an element with no place of its own (None: it has none)."""
        return None

    def same_unplaced(self, a: Any, b: Any) -> bool:
        """Whether two elements with no place of their own are the same."""
        return False

    def label_image(self, label: int) -> int:
        """The label (a grid row's number) of a row's image on another line: the same."""
        return label


DEFAULT = Rules()


def rules_for(system: str) -> Rules:
    """The rules the game ``system``'s editor gives (:meth:`editor.game.EditorGame.symmetry_rules`)."""
    from editor.game import editor_game

    rules = editor_game(system).symmetry_rules()
    if not isinstance(rules, Rules):
        raise TypeError(f"{system}: the editor's symmetry rules are not an editor.games.symmetry_rules.Rules: {rules!r}")
    return rules


def rules_of(arena: Any) -> Rules:
    return rules_for(str(arena.system))


__all__ = ["DEFAULT", "IDENTITY", "Rules", "Taken", "is_start", "rules_for", "rules_of"]
