"""Arena Rex (``system: arena-rex``) in the other tools' formats: its export profile
(:class:`~schema.formats.pieces.PiecesProfile`).

Coordinates are inches, one VTT square per inch.  Pits, spikes and terrain hazards are shapes;
a terrain hazard says itself whether it blocks movement and sight (``blocks_movement`` /
``blocks_sight``), so the hazards that block sight are UVTT's line-of-sight walls and Foundry's
walls.  The deployment edges (a side or arc and its centre, not a shape) travel with the
arena's own fields, so they come back exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

from schema.formats.pieces import PiecesProfile
from schema.formats.systems import Doc
from schema.games.arenarex import SYSTEM, ArenaRexArena
from schema.ruleset import ArenaModel


@dataclass(frozen=True)
class ArenaRexExports(PiecesProfile):
    """Arena Rex's profile: its deployment and hazards' loss sentences."""

    def common_losses(self, arena: ArenaModel, items: list[tuple[str, Doc]]) -> list[str]:
        if isinstance(arena, ArenaRexArena) and arena.deployment:
            return ["deployment zones are not objects: each player's edge (side or arc) and centre travel with the "
                    "arena's own fields and come back exactly"]
        return []

    def region_name(self, kind: str, doc: Doc) -> str:
        if kind == "hazard":
            return f"{doc['id']} ({doc.get('name') or 'hazard'}, {doc.get('dice', 0)} dice)"
        return str(doc.get("id", kind))


EXPORTS = ArenaRexExports(
    system=SYSTEM,
    lists=(("pit", "pits"), ("spike", "spikes"), ("hazard", "hazards")),
    geometry={"bounds": ("shape",), "pit": ("shape",), "spike": ("shape",), "hazard": ("shape",)},
    unit="inch",
    own_fields="bases, deployment, scenario, symmetry",
    tiled_properties="hazard kinds and whether they block movement or sight are object properties only: Tiled draws "
                     "no icons",
    uvtt_dropped="bases, deployment edges, scenario and symmetry are dropped (the zones are on the image)",
    foundry_flags_only="bases, deployment edges, scenario and symmetry are in flags only (the zones are on the image)",
    colours={"hazard": "#d55e00"},
)

__all__ = ["EXPORTS", "ArenaRexExports"]
