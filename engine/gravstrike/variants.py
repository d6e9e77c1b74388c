"""The scenario's scoring variants (book: "Scoring Variants") and the arena elements each governs.

An arena's elements may carry a variant's marks - gates, a checkpoint's ``decaying``, a static
target's positive ``tn_modifier`` (small), ``capacity`` above 1 (resilient) or ``exploding`` - but
only the switches in ``scenario.variants`` put them in play.  With a switch off its marks count
for nothing: gates score nothing (and the analysis leaves them out), a marked checkpoint scores
as an ordinary one, a static target is shot, damaged and destroyed as a standard one.  Every
reader of a variant's marks goes through here (scoring, the travel goals, the validators), and
:func:`switched_off` lists the marks a scenario leaves out of play so a validator can say so.

>>> from schema.games.gravstrike.model import Arena, Rect, Scenario, StaticTarget, Variants
>>> t = StaticTarget("T", (0.0, 0.0), tn_modifier=3, capacity=12, exploding=True)
>>> as_played(t, Variants())
StaticTarget(id='T', position=(0.0, 0.0), tn_modifier=0, capacity=1, exploding=False, extensions={})
>>> as_played(t, Variants(small_targets=True, exploding_targets=True)).exploding
True
>>> arena = Arena(name="a", bounds=Rect((0.0, 0.0), (10.0, 10.0)), static_targets=(t,))
>>> [(u.variant, u.elements) for u in switched_off(arena)]
[('small_targets', ('T',)), ('resilient_targets', ('T',)), ('exploding_targets', ('T',))]
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from schema.games.gravstrike.model import Arena, Checkpoint, Gate, StaticTarget, Variants


def gates_in_play(arena: Arena) -> tuple[Gate, ...]:
    """The gates that score: all of them with the ``gates`` variant on, none without."""
    return arena.gates if arena.scenario.variants.gates else ()


def decays(element: Checkpoint | Gate, variants: Variants) -> bool:
    """Does ``element`` decay (only the first turbine to cross it in a turn scores it)?

    Only with the ``decaying_checkpoints`` variant on: then a checkpoint decays when it is marked
    ``decaying``, and a gate (which has no mark of its own) always does."""
    if not variants.decaying_checkpoints:
        return False
    return element.decaying if isinstance(element, Checkpoint) else True


def is_small(target: StaticTarget) -> bool:
    """Marked small: a TN modifier above 0 (the book's small targets, up to +6)."""
    return target.tn_modifier > 0


def is_resilient(target: StaticTarget) -> bool:
    """Marked resilient: it takes more than 1 damage before it is destroyed."""
    return target.capacity > 1


def as_played(target: StaticTarget, variants: Variants) -> StaticTarget:
    """``target`` as the scenario plays it: without ``small_targets`` no TN modifier above 0 (a
    negative one is no variant's and stays), without ``resilient_targets`` capacity 1, without
    ``exploding_targets`` no explosion."""
    return replace(
        target,
        tn_modifier=target.tn_modifier if variants.small_targets else min(0, target.tn_modifier),
        capacity=target.capacity if variants.resilient_targets else 1,
        exploding=target.exploding and variants.exploding_targets,
    )


@dataclass(frozen=True)
class OutOfPlay:
    """Elements marked for a variant the scenario switches off: the variant (its key under
    ``scenario.variants``), the kind of element, what the mark is (empty for gates: a gate is the
    variant's own element), and the element ids."""

    variant: str
    kind: str
    mark: str
    elements: tuple[str, ...]


def switched_off(arena: Arena) -> list[OutOfPlay]:
    """Every variant the scenario switches off whose marks the arena's elements carry, in the
    order of ``scenario.variants``."""
    v = arena.scenario.variants
    targets = arena.static_targets
    found = [
        ("gates", "gate", "", () if v.gates else tuple(g.id for g in arena.gates)),
        ("decaying_checkpoints", "checkpoint", "marked decaying",
         () if v.decaying_checkpoints else tuple(c.id for c in arena.checkpoints if c.decaying)),
        ("small_targets", "static target", "small: a TN modifier above 0",
         () if v.small_targets else tuple(t.id for t in targets if is_small(t))),
        ("resilient_targets", "static target", "resilient: a capacity above 1",
         () if v.resilient_targets else tuple(t.id for t in targets if is_resilient(t))),
        ("exploding_targets", "static target", "marked exploding",
         () if v.exploding_targets else tuple(t.id for t in targets if t.exploding)),
    ]
    return [OutOfPlay(variant, kind, mark, ids) for variant, kind, mark, ids in found if ids]
