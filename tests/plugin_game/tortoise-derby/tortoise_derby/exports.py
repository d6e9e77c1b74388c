"""Tortoise Derby in other tools' formats (Tiled, GeoJSON, Universal VTT, Foundry): its export
profile, named by ``RULESET.exports``.  Rocks are shapes (they block, as the kind says);
lettuces and tortoises are points (a tortoise's facing travels as a property)."""

from __future__ import annotations

from schema.formats.systems import ExportProfile


def profile() -> ExportProfile:
    return ExportProfile(
        system="tortoise-derby",
        lists=(("rock", "rocks"), ("lettuce", "lettuces"), ("tortoise", "tortoises")),
        geometry={"bounds": ("shape",), "rock": ("shape",), "lettuce": ("position",), "tortoise": ("position",)},
        unit="inch",
    )
