"""Gravstrike's settings in the Arena and Scenario tabs (:meth:`editor.game.EditorGame.arena_settings`,
:meth:`~editor.game.EditorGame.scenario_settings`): path in the arena's typed model -> (label, type,
minimum, exclusive minimum), as :data:`editor.edit_commands.SettingSpec` reads them."""

from __future__ import annotations

from editor.edit_commands import SettingSpec

#: The arena-wide settings: the printed length and the turbine (the book's piece and its speeds).
ARENA_SETTINGS: dict[str, SettingSpec] = {
    "units.length_mm": ("Length (mm)", "float", 0, True),
    "turbine.length": ("Turbine length", "float", 0, True),
    "turbine.width": ("Turbine width", "float", 0, True),
    "turbine.speed_delta": ("Speed change per turn", "int", 1, False),
    "turbine.max_speed": ("Max speed", "int", 1, False),
    "turbine.icons_per_turn": ("Icons per turn", "optint", 1, False),
}

#: The scenario: players, VP to win, tier thresholds, veterans, respawns, the scoring variants and
#: the analysis's thresholds.
SCENARIO_SETTINGS: dict[str, SettingSpec] = {
    "players": ("Players", "optint", 1, False),
    "vp_to_win": ("VP to win", "int", 1, False),
    "tier_thresholds.0": ("Tier 2 from VP", "int", 0, False),
    "tier_thresholds.1": ("Tier 3 from VP", "int", 0, False),
    "veteran_limit": ("Veteran limit", "int", 0, False),
    "respawns": ("Respawns", "int", 0, False),
    "variants.gates": ("Gates", "bool", None, False),
    "variants.decaying_checkpoints": ("Decaying checkpoints", "bool", None, False),
    "variants.small_targets": ("Small targets", "bool", None, False),
    "variants.resilient_targets": ("Resilient targets", "bool", None, False),
    "variants.exploding_targets": ("Exploding targets", "bool", None, False),
    "analysis.tier": ("Analysis tier", "int", 1, False),
    "analysis.start_access_tolerance": ("Start access tolerance (turns)", "float", 0, False),
    "analysis.start_spacing_tolerance": ("Start spacing tolerance (L)", "float", 0, False),
    "analysis.start_spacing_time_tolerance": ("Start spacing time tolerance (turns)", "float", 0, False),
    "analysis.checkpoint_min_turns": ("Checkpoint min turns", "float", 0, False),
    "analysis.target_access_tolerance": ("Target access tolerance (turns)", "float", 0, False),
    "analysis.target_tn_tolerance": ("Target TN tolerance", "int", 0, False),
    "analysis.safe_area_radius": ("Safe area radius (L)", "float", 0, True),
    "analysis.safe_area_min_visible": ("Safe area min visible", "float", 0, False),
}

__all__ = ["ARENA_SETTINGS", "SCENARIO_SETTINGS"]
